//! Planning `igvf_query_associations`: from the kind and the anchor (none, a protein
//! change, a gene, a variant, a disease or trait term) to the upstream queries to send,
//! the entity to echo and the notes that explain the plan. A term anchor covers its
//! direct children and, on data sets read by gene, stands for the terms' genes; a gene's
//! clinical variants are read by region around the gene. An anchor is resolved by
//! `crate::subject` and echoed as a `crate::reports::QueriedEntity`, as
//! `igvf_find_associations` does.

use lifesciences_core::ApiError;

use super::filters::Filters;
use super::kind::Kind;
use super::scores::protein_change;
use super::{Query, Rows, by_gene, catalog_wide, dataset, dataset_for, unreadable};
use crate::associations::Subject;
use crate::client::{Endpoint, IgvfClient, Request, VARIANT_REGION_MAX_BP};
use crate::ids::{EntityKind, Hint, Identifier, detect};
use crate::lookup::{Record, lookup};
use crate::region::interval;
use crate::reports::QueriedEntity;
use crate::subject::subject;
use crate::terms::{self, MAX_TERM_GENES};

/// 10 kb windows scanned for a gene's clinical variants (300 kb of sequence).
const MAX_WINDOWS: u64 = 30;
/// Sequence either side of a gene searched for its clinical variants (ClinGen names
/// the gene of variants just outside it too, e.g. downstream of its last exon).
const GENE_FLANK_BP: u64 = 10_000;

/// What is asked: the kind, its method and the filters every query carries.
#[derive(Clone, Copy)]
pub(super) struct Ask<'a> {
    pub kind: Kind,
    pub method: Option<&'a str>,
    pub filters: &'a Filters,
}

impl Ask<'_> {
    /// `request` read as `rows`, with the filters its endpoint takes.
    fn query(self, request: Request, rows: Rows) -> Result<Query, ApiError> {
        Query::new(request, rows, self.kind, self.method, self.filters, false)
    }

    /// The refusal of an anchor of a kind of entity this kind cannot start from.
    fn not_anchorable(self, from: EntityKind, raw: &str) -> ApiError {
        ApiError::invalid_input(
            format!("'{}' cannot be anchored on a {from}.", self.kind.as_str()),
            format!("Give {}.", self.kind.anchors()),
            raw,
        )
    }
}

/// The queries to send, and what to say about them.
#[derive(Default)]
pub(super) struct Plan {
    /// The anchor, as echoed in the answer.
    pub queried: Option<QueriedEntity>,
    pub queries: Vec<Query>,
    pub notes: Vec<String>,
    /// An anchor taken as given (not looked up): checked to exist when nothing answers.
    pub unverified: Option<(Identifier, String)>,
}

impl Plan {
    /// No anchor: one query, sent wherever the spec says the endpoint answers these
    /// filters. `raw_kind` is the kind as the caller wrote it.
    pub(super) fn catalog_wide(ask: Ask<'_>, raw_kind: &str) -> Result<Self, ApiError> {
        let query = catalog_wide::query(ask.kind, ask.method, ask.filters, raw_kind)?;
        let note = format!(
            "No entity: the catalog's first rows of /{} for these filters are ranked \
             (a tissue is matched by the catalog, exact names first, and checked here \
             as contained text).",
            query.request.path()
        );
        Ok(Self {
            queries: vec![query],
            notes: vec![note],
            ..Self::default()
        })
    }

    /// Anchored on `raw`, what the caller sent (`hint`: the kind of entity meant).
    pub(super) async fn anchored(
        client: &IgvfClient,
        ask: Ask<'_>,
        raw: &str,
        hint: Option<Hint>,
    ) -> Result<Self, ApiError> {
        if ask.kind == Kind::CodingVariantEffect
            && let Some((gene, change)) = protein_change(raw)
        {
            return Self::protein_change(ask, raw, gene, change);
        }
        let id = detect(raw, hint)?;
        let from = id.kind();
        let anchorable = dataset_for(ask.kind, from).is_some()
            || (ask.kind == Kind::CodingVariantEffect && from == EntityKind::Gene)
            || (from == EntityKind::OntologyTerm && by_gene(ask.kind));
        if !anchorable {
            return Err(ask.not_anchorable(from, raw));
        }
        if ask.kind == Kind::Clinical && from == EntityKind::Gene {
            return Self::clinical_gene(client, ask, &id, raw).await;
        }
        Self::entity(client, ask, &id, raw).await
    }

    /// One protein change's effect scores (`XRCC2 p.Met1Ile`).
    fn protein_change(
        ask: Ask<'_>,
        raw: &str,
        gene: String,
        change: String,
    ) -> Result<Self, ApiError> {
        let queried = QueriedEntity {
            input: raw.to_owned(),
            kind: EntityKind::Gene,
            detected_as: "protein change".to_owned(),
            id: None,
            symbol: Some(gene.clone()),
        };
        let query = ask.query(
            Request::new(Endpoint::CodingVariantsPhenotypes)
                .param("gene_name", gene)
                .param("hgvsp", change),
            Rows::ChangeScores,
        )?;
        Ok(Self {
            queried: Some(queried),
            queries: vec![query],
            ..Self::default()
        })
    }

    /// A gene's clinical variants: one look-up (the gene's record, for its coordinates
    /// and its ID), then the windows around it.
    async fn clinical_gene(
        client: &IgvfClient,
        ask: Ask<'_>,
        id: &Identifier,
        raw: &str,
    ) -> Result<Self, ApiError> {
        let found = lookup(client, id, raw).await?;
        let Record::Gene(gene) = found.best else {
            return Err(ApiError::unresolved(
                format!("'{raw}' did not resolve to a gene."),
                "Give the gene's symbol or ENSG ID.",
                raw,
            ));
        };
        let mut plan = Self {
            queried: Some(QueriedEntity {
                input: raw.to_owned(),
                kind: id.kind(),
                detected_as: id.form().to_owned(),
                id: Some(gene.id.clone()),
                symbol: gene.name.clone(),
            }),
            ..Self::default()
        };
        plan.notes = clinical_windows(&gene, ask, &mut plan.queries)?;
        Ok(plan)
    }

    /// A gene, variant or term anchor, resolved as `igvf_find_associations` resolves it
    /// (taken as given where its form is already the catalog's key).
    async fn entity(
        client: &IgvfClient,
        ask: Ask<'_>,
        id: &Identifier,
        raw: &str,
    ) -> Result<Self, ApiError> {
        let from = id.kind();
        let (subject, _) = subject(client, id, raw, &[]).await?;
        let mut plan = Self {
            queried: Some(QueriedEntity {
                input: raw.to_owned(),
                kind: from,
                detected_as: id.form().to_owned(),
                id: subject.id.clone().map(|i| match from {
                    EntityKind::OntologyTerm => crate::ids::ontology_curie(&i),
                    _ => i,
                }),
                symbol: subject.symbol.clone(),
            }),
            unverified: (!subject.verified).then(|| (id.clone(), raw.to_owned())),
            ..Self::default()
        };
        if from == EntityKind::OntologyTerm {
            let term_id = subject.id.clone().unwrap_or_else(|| id.value());
            plan.term(client, ask, &term_id, raw).await?;
        } else if from == EntityKind::Gene {
            plan.queries.push(gene_query(ask, subject)?);
        } else {
            let d = dataset_for(ask.kind, from).ok_or_else(|| ask.not_anchorable(from, raw))?;
            let Some((name, value)) = subject.param(d.endpoint) else {
                return Err(ApiError::invalid_input(
                    format!(
                        "'{}' cannot be queried by this {}.",
                        ask.kind.as_str(),
                        id.form()
                    ),
                    format!("Give {}.", ask.kind.anchors()),
                    raw,
                ));
            };
            let mut query =
                ask.query(Request::new(d.endpoint).param(name, value), Rows::Edges(d))?;
            query.subject = Some(subject);
            plan.queries.push(query);
        }
        Ok(plan)
    }

    /// A disease or trait term and its direct children: their genes on data sets read by
    /// gene, else one query per term.
    async fn term(
        &mut self,
        client: &IgvfClient,
        ask: Ask<'_>,
        term_id: &str,
        raw: &str,
    ) -> Result<(), ApiError> {
        let expansion = terms::expand(client, term_id).await;
        // Which terms, and whether the children were cut, go in the notes: each row's
        // source entity names the term it came from.
        self.notes.extend(expansion.note.clone());
        let terms = expansion.terms;
        if !by_gene(ask.kind) {
            let from = EntityKind::OntologyTerm;
            let d = dataset_for(ask.kind, from).ok_or_else(|| ask.not_anchorable(from, raw))?;
            let name = if d.endpoint == Endpoint::PhenotypesVariants {
                "phenotype_id"
            } else {
                "disease_id"
            };
            for t in terms {
                self.queries
                    .push(ask.query(Request::new(d.endpoint).param(name, t), Rows::Edges(d))?);
            }
            return Ok(());
        }
        let (genes, more) = terms::genes_of_terms(client, &terms).await?;
        if genes.is_empty() {
            self.notes
                .push("The catalog associates no gene with the term or its children.".to_owned());
        } else {
            self.notes.push(format!(
                "Ranked over the term's genes: {}{}.",
                genes.len(),
                if more {
                    format!(" (the first {MAX_TERM_GENES})")
                } else {
                    String::new()
                }
            ));
        }
        for g in genes {
            let gene = Subject::unresolved(
                Identifier::EnsemblGene {
                    id: g.clone(),
                    organism: crate::ids::Organism::Human,
                },
                Some(g),
            );
            self.queries.push(gene_query(ask, gene)?);
        }
        Ok(())
    }
}

/// The query of a gene-anchored kind for one gene.
fn gene_query(ask: Ask<'_>, gene: Subject) -> Result<Query, ApiError> {
    let kind = ask.kind;
    let (request, rows) = if kind == Kind::CodingVariantEffect {
        let Some((name, value)) = gene.param(Endpoint::GenesCodingVariantScores) else {
            return Err(unreadable(Endpoint::Genes, "the gene has no Ensembl ID"));
        };
        (
            Request::new(Endpoint::GenesCodingVariantScores).param(name, value),
            Rows::CodingScores,
        )
    } else {
        let Some(d) = dataset_for(kind, EntityKind::Gene) else {
            return Err(ApiError::invalid_input(
                format!("'{}' cannot be anchored on a gene.", kind.as_str()),
                format!("Give {}.", kind.anchors()),
                kind.as_str(),
            ));
        };
        let Some((name, value)) = gene.param(d.endpoint) else {
            return Err(unreadable(Endpoint::Genes, "the gene has no Ensembl ID"));
        };
        (Request::new(d.endpoint).param(name, value), Rows::Edges(d))
    };
    let mut query = ask.query(request, rows)?;
    query.subject = Some(gene);
    query.score_method = ask.method.map(str::to_owned);
    Ok(query)
}

/// A gene's clinical variants: `/variants/diseases` by region, in 10 kb windows over the
/// gene and [`GENE_FLANK_BP`] either side (at most [`MAX_WINDOWS`]), keeping the rows
/// whose assertion names the gene. Returns the notes to give.
fn clinical_windows(
    gene: &crate::models::Gene,
    ask: Ask<'_>,
    queries: &mut Vec<Query>,
) -> Result<Vec<String>, ApiError> {
    let (Some(chr), Some(start), Some(end)) = (gene.chr.clone(), gene.start, gene.end) else {
        return Err(unreadable(
            Endpoint::Genes,
            "the gene record has no coordinates",
        ));
    };
    let (start, end) = (start.saturating_sub(GENE_FLANK_BP), end + GENE_FLANK_BP);
    let windows = end
        .saturating_sub(start)
        .div_ceil(VARIANT_REGION_MAX_BP)
        .max(1);
    let mut notes = Vec::new();
    if windows > MAX_WINDOWS {
        notes.push(format!(
            "The gene and its flanks span {} kb; the first {} kb were searched.",
            (end - start) / 1000,
            MAX_WINDOWS * VARIANT_REGION_MAX_BP / 1000
        ));
    }
    // The windows are the catalog's own coordinates, from its gene record to its
    // `/variants/diseases`: never shown, never converted. The note is shown: 1-based.
    notes.push(format!(
        "ClinGen variants in {} (the gene and 10 kb either side) whose assertion names the \
         gene.",
        interval(&chr, start, end)
    ));
    // Mapped as a disease's variants: the variant is the other side.
    let d = dataset(Endpoint::DiseasesVariants, EntityKind::OntologyTerm);
    for w in 0..windows.min(MAX_WINDOWS) {
        let a = start + w * VARIANT_REGION_MAX_BP;
        let b = (a + VARIANT_REGION_MAX_BP).min(end);
        let mut query = ask.query(
            Request::new(Endpoint::VariantsDiseases).param("region", format!("{chr}:{a}-{b}")),
            Rows::Edges(d),
        )?;
        query.only_gene = Some(gene.id.clone());
        queries.push(query);
    }
    Ok(notes)
}
