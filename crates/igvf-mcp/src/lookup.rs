//! Looking one entity up by any identifier: the request for each identifier form, and
//! the check that what came back is what was asked for.
//!
//! The check is the second half of the guard against the `gene_name` trap: the catalog's
//! node endpoints fall back from exact to text and fuzzy matching (`/genes?name=` tries
//! exact, then BM25, then Levenshtein 1), and ignore parameters they do not know. A
//! record is only returned when it carries the identifier or the exact name (or, for
//! names, an exact synonym); everything else becomes suggestions in `ENTITY_NOT_FOUND`.

use lifesciences_core::ApiError;

use crate::client::{Endpoint, IgvfClient, Request};
use crate::ids::{Identifier, ontology_curie};
use crate::models::{Complex, Drug, Gene, OntologyTerm, Pathway, Protein, Transcript, Variant};

/// A record of any node collection.
#[derive(Debug, Clone)]
pub(crate) enum Record {
    Gene(Gene),
    Transcript(Transcript),
    Protein(Protein),
    Variant(Variant),
    OntologyTerm(OntologyTerm),
    Drug(Drug),
    Complex(Complex),
    Pathway(Pathway),
}

impl Record {
    /// The record's identifier as `igvf_get_entity` accepts it.
    pub(crate) fn id(&self) -> String {
        match self {
            Self::Gene(g) => g.id.clone(),
            Self::Transcript(t) => t.id.clone(),
            Self::Protein(p) => p.id.clone(),
            Self::Variant(v) => v.spdi.clone().unwrap_or_else(|| v.id.clone()),
            Self::OntologyTerm(t) => ontology_curie(t.term_id.as_deref().unwrap_or_default()),
            Self::Drug(d) => d.id.clone(),
            Self::Complex(c) => c.id.clone(),
            Self::Pathway(p) => p.id.clone(),
        }
    }

    /// The record's key as the catalog's edge endpoints take it (ontology terms in the
    /// underscore form, variants by their `_id`).
    pub(crate) fn api_id(&self) -> String {
        match self {
            Self::OntologyTerm(t) => t.term_id.clone().unwrap_or_default(),
            Self::Variant(v) => v.id.clone(),
            other => other.id(),
        }
    }

    /// The gene symbol of a gene or protein record.
    pub(crate) fn symbol(&self) -> Option<String> {
        match self {
            Self::Gene(g) => g.name.clone(),
            Self::Protein(p) => p.name.clone(),
            _ => None,
        }
    }

    /// A display name, for suggestions.
    pub(crate) fn label(&self) -> String {
        let name = match self {
            Self::Gene(g) => g.name.clone(),
            Self::Transcript(t) => t.name.clone(),
            Self::Protein(p) => p.name.clone(),
            Self::Variant(v) => v.rsid.first().cloned(),
            Self::OntologyTerm(t) => t.name.clone(),
            Self::Drug(d) => d.name.clone(),
            Self::Complex(c) => c.name.clone(),
            Self::Pathway(p) => p.name.clone(),
        };
        match name {
            Some(n) if n != self.id() => format!("{n} ({})", self.id()),
            _ => self.id(),
        }
    }
}

/// What a lookup found: the best exact match, the other exact matches (e.g. the
/// several alleles of one rsID), and how the best one matched.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub best: Record,
    pub others: Vec<Record>,
    /// `"synonym"` when a name matched only a synonym, not the primary name.
    pub matched_via: Option<&'static str>,
}

/// How many rows a lookup reads: enough to see every allele of an rsID and every
/// isoform of a protein, and to offer suggestions when a name does not match.
const LOOKUP_ROWS: u32 = 25;

/// The request that looks `id` up.
pub(crate) fn request_for(id: &Identifier) -> Request {
    let organism = id.organism();
    match id {
        Identifier::EnsemblGene { id, .. } => Request::new(Endpoint::Genes)
            .param("gene_id", id.clone())
            .organism(organism),
        Identifier::Hgnc(v) => Request::new(Endpoint::Genes).param("hgnc_id", v.clone()),
        Identifier::Entrez(v) => {
            Request::new(Endpoint::Genes).param("entrez", format!("ENTREZ:{v}"))
        }
        Identifier::GeneSymbol(v) => Request::new(Endpoint::Genes).param("name", v.clone()),
        Identifier::EnsemblTranscript { id, .. } => Request::new(Endpoint::Transcripts)
            .param("transcript_id", id.clone())
            .organism(organism),
        Identifier::EnsemblProtein { id, .. } => Request::new(Endpoint::Proteins)
            .param("protein_id", id.clone())
            .organism(organism),
        // An isoform accession is a protein ID; a bare accession is matched against the
        // UniProt cross-references (the spec's own example: `dbxrefs = P49711`).
        Identifier::Uniprot(v) if v.contains('-') => {
            Request::new(Endpoint::Proteins).param("protein_id", v.clone())
        }
        Identifier::Uniprot(v) => Request::new(Endpoint::Proteins).param("dbxrefs", v.clone()),
        Identifier::UniprotName(v) => {
            Request::new(Endpoint::Proteins).param("uniprot_name", v.clone())
        }
        Identifier::ProteinSymbol(v) => Request::new(Endpoint::Proteins).param("name", v.clone()),
        Identifier::Rsid(v) => Request::new(Endpoint::Variants).param("rsid", v.clone()),
        Identifier::Spdi(v) => Request::new(Endpoint::Variants).param("spdi", v.clone()),
        Identifier::Hgvs(v) => Request::new(Endpoint::Variants).param("hgvs", v.clone()),
        Identifier::ClinGen(v) => Request::new(Endpoint::Variants).param("ca_id", v.clone()),
        Identifier::OntologyTerm { .. } => {
            Request::new(Endpoint::OntologyTerms).param("term_id", id.value())
        }
        Identifier::OntologyName(v) => {
            Request::new(Endpoint::OntologyTerms).param("name", v.clone())
        }
        Identifier::PharmGkb(v) => Request::new(Endpoint::Drugs).param("drug_id", v.clone()),
        Identifier::DrugName(v) => Request::new(Endpoint::Drugs).param("name", v.clone()),
        Identifier::Complex(v) => Request::new(Endpoint::Complexes).param("complex_id", v.clone()),
        Identifier::ComplexName(v) => Request::new(Endpoint::Complexes).param("name", v.clone()),
        Identifier::Reactome(v) => Request::new(Endpoint::Pathways).param("id", v.clone()),
        Identifier::PathwayName(v) => Request::new(Endpoint::Pathways).param("name", v.clone()),
    }
}

/// What the catalog holds for an identifier: the records that carry it, or none. A
/// failure to ask stays an `Err` beside it.
#[derive(Debug)]
pub(crate) enum Lookup {
    Found(Box<Found>),
    /// No record carries the identifier: the answer to give the caller
    /// (`ENTITY_NOT_FOUND`, naming what the catalog offered instead).
    Missing(ApiError),
}

impl Lookup {
    /// The records, or the not-found answer as the error.
    pub(crate) fn into_result(self) -> Result<Found, ApiError> {
        match self {
            Self::Found(found) => Ok(*found),
            Self::Missing(not_found) => Err(not_found),
        }
    }
}

/// Look `id` up with one upstream request. `raw` is what the caller sent, echoed as
/// `invalid_input` on a miss.
pub(crate) async fn lookup(
    client: &IgvfClient,
    id: &Identifier,
    raw: &str,
) -> Result<Found, ApiError> {
    find(client, id, raw, LOOKUP_ROWS).await?.into_result()
}

/// For an entity taken as given that no data set answered: the not-found answer when the
/// catalog has no such entity. `None` when it has, or when the check itself failed (the
/// empty answer then stands; the failure is logged).
pub(crate) async fn missing(client: &IgvfClient, id: &Identifier, raw: &str) -> Option<ApiError> {
    match find(client, id, raw, LOOKUP_ROWS).await {
        Ok(Lookup::Missing(not_found)) => Some(not_found),
        Ok(Lookup::Found(_)) => None,
        Err(e) => {
            tracing::warn!(error = %e, "could not check that the entity exists");
            None
        }
    }
}

async fn find(
    client: &IgvfClient,
    id: &Identifier,
    raw: &str,
    want: u32,
) -> Result<Lookup, ApiError> {
    let request = request_for(id);
    let records: Vec<Record> = match request.endpoint() {
        Endpoint::Genes => rows(client, &request, want, Record::Gene).await?,
        Endpoint::Transcripts => rows(client, &request, want, Record::Transcript).await?,
        Endpoint::Proteins => rows(client, &request, want, Record::Protein).await?,
        Endpoint::Variants => rows(client, &request, want, Record::Variant).await?,
        Endpoint::OntologyTerms => rows(client, &request, want, Record::OntologyTerm).await?,
        Endpoint::Drugs => rows(client, &request, want, Record::Drug).await?,
        Endpoint::Complexes => rows(client, &request, want, Record::Complex).await?,
        _ => rows(client, &request, want, Record::Pathway).await?,
    };
    Ok(pick(id, records, raw))
}

/// The Ensembl protein IDs of the gene with symbol `symbol`: every `/proteins` record
/// whose name is exactly the symbol (all isoforms, up to the endpoint's page cap).
/// Empty when the catalog has none (a non-coding gene).
pub(crate) async fn gene_proteins(
    client: &IgvfClient,
    symbol: &str,
) -> Result<Vec<String>, ApiError> {
    let id = Identifier::ProteinSymbol(symbol.to_owned());
    let cap = Endpoint::Proteins.page_cap();
    Ok(match find(client, &id, symbol, cap).await? {
        Lookup::Found(found) => std::iter::once(&found.best)
            .chain(found.others.iter())
            .map(Record::id)
            .collect(),
        Lookup::Missing(_) => Vec::new(),
    })
}

async fn rows<T, F>(
    client: &IgvfClient,
    request: &Request,
    want: u32,
    wrap: F,
) -> Result<Vec<Record>, ApiError>
where
    T: serde::de::DeserializeOwned + lifesciences_core::Row + Send + 'static,
    F: Fn(T) -> Record,
{
    let fetched = client.fetch::<T>(request, want).await?;
    Ok(fetched.items.into_iter().map(wrap).collect())
}

/// [`pick`] as a `Result`, the not-found answer as the error.
#[cfg(test)]
pub(crate) fn select(id: &Identifier, records: Vec<Record>, raw: &str) -> Result<Found, ApiError> {
    pick(id, records, raw).into_result()
}

/// Keep the records that carry `id`; pick the best; explain a miss (echoing `raw`, what
/// the caller sent).
fn pick(id: &Identifier, records: Vec<Record>, raw: &str) -> Lookup {
    let total = records.len();
    let (mut exact, rest): (Vec<Record>, Vec<Record>) =
        records.into_iter().partition(|r| matches_exactly(id, r));
    let mut matched_via = None;
    let mut rest = rest;
    if exact.is_empty() && id.is_name() {
        let (synonyms, others): (Vec<Record>, Vec<Record>) =
            rest.into_iter().partition(|r| matches_synonym(id, r));
        if !synonyms.is_empty() {
            matched_via = Some("synonym");
        }
        exact = synonyms;
        rest = others;
    }
    if exact.is_empty() {
        if total > 0 {
            tracing::warn!(
                query = %id.value(),
                returned = total,
                "IGVF Catalog returned records that do not carry the identifier; not using them"
            );
        }
        return Lookup::Missing(not_found(id, &rest, raw));
    }
    // Prefer the MANE Select protein among isoforms of one gene.
    exact.sort_by_key(|r| match r {
        Record::Protein(p) => u8::from(p.mane_select != Some(true)),
        _ => 0,
    });
    let best = exact.remove(0);
    Lookup::Found(Box::new(Found {
        best,
        others: exact,
        matched_via,
    }))
}

fn eq(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

fn some_eq(a: Option<&String>, b: &str) -> bool {
    a.is_some_and(|a| eq(a, b))
}

fn matches_exactly(id: &Identifier, record: &Record) -> bool {
    let v = id.value();
    match (id, record) {
        (Identifier::EnsemblGene { .. }, Record::Gene(g)) => eq(&g.id, &v),
        (Identifier::Hgnc(_), Record::Gene(g)) => some_eq(g.hgnc.as_ref(), &v),
        (Identifier::Entrez(_), Record::Gene(g)) => g.entrez.as_ref().is_some_and(|e| {
            let digits = e.rsplit(':').next().unwrap_or_default();
            digits == v
        }),
        (Identifier::GeneSymbol(_), Record::Gene(g)) => some_eq(g.name.as_ref(), &v),
        (Identifier::EnsemblTranscript { .. }, Record::Transcript(t)) => eq(&t.id, &v),
        (Identifier::EnsemblProtein { .. }, Record::Protein(p)) => eq(&p.id, &v),
        (Identifier::Uniprot(_), Record::Protein(p)) => {
            let base = v.split('-').next().unwrap_or_default();
            p.uniprot_ids.iter().any(|u| {
                eq(u, &v) || (!v.contains('-') && eq(u.split('-').next().unwrap_or_default(), base))
            }) || p.dbxrefs.iter().any(|x| some_eq(x.id.as_ref(), &v))
        }
        (Identifier::UniprotName(_), Record::Protein(p)) => {
            p.uniprot_names.iter().any(|n| eq(n, &v))
        }
        (Identifier::ProteinSymbol(_), Record::Protein(p)) => some_eq(p.name.as_ref(), &v),
        (Identifier::Rsid(_), Record::Variant(r)) => r.rsid.iter().any(|x| eq(x, &v)),
        (Identifier::Spdi(_), Record::Variant(r)) => some_eq(r.spdi.as_ref(), &v) || eq(&r.id, &v),
        (Identifier::Hgvs(_), Record::Variant(r)) => some_eq(r.hgvs.as_ref(), &v),
        (Identifier::ClinGen(_), Record::Variant(r)) => some_eq(r.ca_id.as_ref(), &v),
        (Identifier::OntologyTerm { .. }, Record::OntologyTerm(t)) => {
            some_eq(t.term_id.as_ref(), &v)
        }
        (Identifier::OntologyName(_), Record::OntologyTerm(t)) => some_eq(t.name.as_ref(), &v),
        (Identifier::PharmGkb(_), Record::Drug(d)) => eq(&d.id, &v),
        (Identifier::DrugName(_), Record::Drug(d)) => some_eq(d.name.as_ref(), &v),
        (Identifier::Complex(_), Record::Complex(c)) => eq(&c.id, &v),
        (Identifier::ComplexName(_), Record::Complex(c)) => some_eq(c.name.as_ref(), &v),
        (Identifier::Reactome(_), Record::Pathway(p)) => eq(&p.id, &v),
        (Identifier::PathwayName(_), Record::Pathway(p)) => some_eq(p.name.as_ref(), &v),
        _ => false,
    }
}

fn matches_synonym(id: &Identifier, record: &Record) -> bool {
    let v = id.value();
    match record {
        Record::Gene(g) => g.synonyms.iter().any(|s| eq(s, &v)),
        Record::OntologyTerm(t) => t.synonyms.iter().any(|s| eq(s, &v)),
        Record::Complex(c) => c.alias.iter().any(|s| eq(s, &v)),
        Record::Pathway(p) => p.name_aliases.iter().any(|s| eq(s, &v)),
        _ => false,
    }
}

fn not_found(id: &Identifier, unrelated: &[Record], raw: &str) -> ApiError {
    let kind = id.kind();
    let value = id.value();
    let suggestions: Vec<String> = unrelated.iter().take(5).map(Record::label).collect();
    let message = if id.is_name() {
        format!("IGVF Catalog has no {kind} named '{value}'.")
    } else {
        format!("IGVF Catalog has no {kind} with {} '{value}'.", id.form())
    };
    let mut hint = if id.is_name() {
        format!(
            "Names must match exactly (case-insensitive); check the spelling or use an \
             identifier ({}).",
            crate::ids::forms_of(kind)
        )
    } else {
        "Check the identifier; if it came from another resource, the catalog may not \
         include that record."
            .to_owned()
    };
    if matches!(id, Identifier::GeneSymbol(_)) {
        hint.push_str(" Mouse genes are found by their Ensembl ID (ENSMUSG…).");
    }
    if !suggestions.is_empty() {
        hint.push_str(&format!(
            " The catalog's closest records were: {}.",
            suggestions.join(", ")
        ));
    }
    ApiError::not_found(message, hint, raw).with_suggestions(suggestions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::detect;
    use lifesciences_core::ErrorCode;
    use serde_json::json;

    fn gene(id: &str, name: &str, synonyms: &[&str]) -> Record {
        Record::Gene(
            serde_json::from_value(json!({"_id": id, "name": name, "synonyms": synonyms})).unwrap(),
        )
    }

    #[test]
    fn a_look_up_says_found_or_missing_and_missing_carries_the_answer_to_give() {
        let id = detect("BRCA1", None).unwrap();
        let Lookup::Found(found) = pick(&id, vec![gene("ENSG00000012048", "BRCA1", &[])], "BRCA1")
        else {
            panic!("the gene carries the symbol");
        };
        assert_eq!(found.best.id(), "ENSG00000012048");
        // No row, and only unrelated rows: both missing, not a failure.
        for rows in [Vec::new(), vec![gene("ENSG00000000003", "TSPAN6", &[])]] {
            let Lookup::Missing(answer) = pick(&id, rows, "BRCA1") else {
                panic!("no record carries the symbol");
            };
            assert_eq!(answer.code(), ErrorCode::EntityNotFound);
            assert_eq!(
                answer.to_envelope().error.invalid_input.as_deref(),
                Some("BRCA1")
            );
        }
    }

    #[test]
    fn an_unrelated_gene_is_never_returned_for_a_symbol() {
        // What `/genes` answers when it ignores the name (the `gene_name` trap).
        let id = detect("BRCA1", None).unwrap();
        let e = select(&id, vec![gene("ENSG00000000003", "TSPAN6", &[])], "BRCA1").unwrap_err();
        let body = e.to_envelope().error;
        assert_eq!(body.code, ErrorCode::EntityNotFound);
        assert_eq!(body.suggestions, ["TSPAN6 (ENSG00000000003)"]);
        assert!(body.message.contains("no gene named 'BRCA1'"));
    }

    #[test]
    fn a_miss_echoes_what_the_caller_sent_not_the_normalised_form() {
        let id = detect("mondo:0000001", None).unwrap();
        let body = select(&id, Vec::new(), "mondo:0000001")
            .unwrap_err()
            .to_envelope()
            .error;
        assert_eq!(body.invalid_input.as_deref(), Some("mondo:0000001"));
        // The message names the key the catalog was asked for.
        assert!(body.message.contains("MONDO_0000001"), "{}", body.message);
    }

    #[test]
    fn exact_names_win_over_fuzzy_neighbours_and_synonyms_come_second() {
        let id = detect("brca1", None).unwrap();
        let found = select(
            &id,
            vec![
                gene("ENSG00000000001", "BRCA2", &["BRCA1"]),
                gene("ENSG00000012048", "BRCA1", &[]),
            ],
            "brca1",
        )
        .unwrap();
        assert_eq!(found.best.id(), "ENSG00000012048");
        assert_eq!(found.matched_via, None);
        let id = detect("RNF53", None).unwrap();
        let found = select(
            &id,
            vec![gene("ENSG00000012048", "BRCA1", &["RNF53"])],
            "RNF53",
        )
        .unwrap();
        assert_eq!(found.matched_via, Some("synonym"));
        // Identifiers never fall back to synonyms.
        let id = detect("ENSG00000012048", None).unwrap();
        assert!(
            select(
                &id,
                vec![gene("ENSG00000000003", "TSPAN6", &["ENSG00000012048"])],
                "ENSG00000012048"
            )
            .is_err()
        );
    }

    #[test]
    fn every_identifier_form_builds_a_request_the_spec_knows() {
        let spec = crate::spec::spec();
        for raw in [
            "ENSG00000012048",
            "ENSMUSG00000059552",
            "HGNC:1100",
            "ENTREZ:672",
            "BRCA1",
            "ENST00000357654",
            "ENSP00000350283",
            "P49711",
            "P49711-2",
            "CTCF_HUMAN",
            "rs80357906",
            "NC_000017.11:43057062:GGG:GGGG",
            "NC_000017.11:g.43057065dup",
            "CA10655131",
            "MONDO:0007254",
            "PA448497",
            "CPX-11",
            "R-HSA-164843",
        ] {
            let id = detect(raw, None).unwrap();
            let request = request_for(&id);
            assert!(!request.query().is_empty(), "{raw}");
            for (name, _) in request.query() {
                assert!(
                    spec.has_param(request.endpoint().path(), name),
                    "{raw}: {name}"
                );
            }
        }
        let r = request_for(&detect("BRCA1", None).unwrap());
        assert_eq!(r.query(), [("name", "BRCA1".to_owned())]);
        let r = request_for(&detect("ENSMUSG00000059552", None).unwrap());
        assert!(r.has("organism"));
    }
}
