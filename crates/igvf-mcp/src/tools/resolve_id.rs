//! `igvf_resolve_id`: every known alias of an entity (variant: rsID, SPDI, HGVS, ClinGen
//! CA; gene: Ensembl, HGNC, symbol, Entrez; protein: Ensembl, UniProt), from one lookup.

use std::collections::BTreeMap;

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::client::quoted;
use crate::ids::{EntityKind, Hint, Identifier, detect, is_ensembl_gene, ontology_curie};
use crate::lookup::{Record, lookup};
use crate::server::IgvfServer;

/// Arguments of `igvf_resolve_id`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResolveIdArgs {
    /// The identifier to resolve, in any form `igvf_get_entity` accepts, e.g.
    /// `rs80357906`, `NC_000017.11:43057062:GGG:GGGG`, `CA10655131`, `BRCA1`,
    /// `ENSG00000012048`, `HGNC:1100`, `P38398`.
    pub id: String,
    /// Optional: the one format wanted, returned as `resolved`. Variants: `rsid`,
    /// `spdi`, `hgvs`, `ca_id`. Genes: `ensembl_gene`, `hgnc`, `symbol`, `entrez`.
    /// Proteins: `ensembl_protein`, `uniprot`, `uniprot_name`, `symbol`. Transcripts:
    /// `ensembl_transcript`, `ensembl_gene`. Ontology terms: `curie`, `term_id`, `name`.
    #[serde(default)]
    pub target_type: Option<String>,
    /// Optional: the kind of entity meant (as in `igvf_get_entity`).
    #[serde(default)]
    pub hint: Option<Hint>,
}

/// One identifier: a string, or a list for the formats that hold several (`uniprot`,
/// `additional_rsids`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum IdValue {
    One(String),
    Many(Vec<String>),
}

/// Identifiers by format.
pub(crate) type Identifiers = BTreeMap<String, IdValue>;

/// The aliases of one entity.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Resolution {
    /// The input, as given.
    pub input: String,
    /// `gene`, `variant`, `protein`, `transcript`, `ontology_term`, `drug`, `complex`,
    /// `pathway`.
    pub entity_type: EntityKind,
    /// How the input was read, e.g. `rsID`.
    pub detected_as: String,
    /// Every known identifier, by format (absent ones omitted). Variants: `rsid`,
    /// `spdi`, `hgvs`, `ca_id`, `additional_rsids` (list); genes: `ensembl_gene`,
    /// `hgnc`, `symbol`, `entrez`; proteins: `ensembl_protein`, `uniprot` (list),
    /// `uniprot_name`, `symbol`.
    pub identifiers: Identifiers,
    /// Other names of the entity (gene synonyms, term synonyms, complex aliases).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// The value of `target_type`, when asked for and known (a list for `uniprot`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolved: Option<IdValue>,
    /// Other entities the input matches as exactly (e.g. each allele of a
    /// multi-allelic rsID), with their identifiers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_matches: Vec<Identifiers>,
    /// What to know about the answer (a missing `target_type`, several matches).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The formats `target_type` accepts for each kind.
fn formats(kind: EntityKind) -> &'static [&'static str] {
    match kind {
        EntityKind::Variant => &["rsid", "spdi", "hgvs", "ca_id"],
        EntityKind::Gene => &["ensembl_gene", "hgnc", "symbol", "entrez"],
        EntityKind::Protein => &["ensembl_protein", "uniprot", "uniprot_name", "symbol"],
        EntityKind::Transcript => &["ensembl_transcript", "ensembl_gene"],
        EntityKind::OntologyTerm => &["curie", "term_id", "name"],
        EntityKind::Drug => &["pharmgkb", "name"],
        EntityKind::Complex => &["complex_portal", "name"],
        EntityKind::Pathway => &["reactome", "name"],
    }
}

fn all_formats() -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    for kind in [
        EntityKind::Variant,
        EntityKind::Gene,
        EntityKind::Protein,
        EntityKind::Transcript,
        EntityKind::OntologyTerm,
        EntityKind::Drug,
        EntityKind::Complex,
        EntityKind::Pathway,
    ] {
        for f in formats(kind) {
            if !all.iter().any(|a| a == f) {
                all.push((*f).to_owned());
            }
        }
    }
    all
}

/// Normalise a `target_type` spelling: `rsID` → `rsid`, `HGVS` → `hgvs`, `ClinGen` →
/// `ca_id`, `ensembl` → `ensembl_gene`…
fn normalise_format(raw: &str, kind: EntityKind) -> String {
    let key = raw.trim().to_ascii_lowercase().replace([' ', '-'], "_");
    match key.as_str() {
        "rs" | "rsid" | "dbsnp" => "rsid".into(),
        "clingen" | "ca" | "caid" | "clingen_allele" => "ca_id".into(),
        "ensembl" | "ensembl_id" if kind == EntityKind::Protein => "ensembl_protein".into(),
        "ensembl" | "ensembl_id" if kind == EntityKind::Transcript => "ensembl_transcript".into(),
        "ensembl" | "ensembl_id" | "ensg" => "ensembl_gene".into(),
        "hgnc_id" => "hgnc".into(),
        "entrez_id" | "ncbi_gene" | "ncbigene" | "geneid" => "entrez".into(),
        "gene_symbol" | "gene_name" => "symbol".into(),
        "uniprot_id" | "uniprot_accession" => "uniprot".into(),
        "ensp" => "ensembl_protein".into(),
        "enst" => "ensembl_transcript".into(),
        _ => key,
    }
}

fn identifiers(record: &Record) -> (Identifiers, Vec<String>) {
    let mut ids = Identifiers::new();
    let mut put = |k: &str, v: Option<&String>| {
        if let Some(v) = v.filter(|v| !v.is_empty()) {
            ids.insert(k.to_owned(), IdValue::One(v.clone()));
        }
    };
    let mut aliases = Vec::new();
    match record {
        Record::Variant(v) => {
            put("rsid", v.rsid.first());
            put("spdi", v.spdi.as_ref());
            put("hgvs", v.hgvs.as_ref());
            put("ca_id", v.ca_id.as_ref());
            if let Some(more) = v.rsid.get(1..).filter(|m| !m.is_empty()) {
                ids.insert("additional_rsids".into(), IdValue::Many(more.to_vec()));
            }
        }
        Record::Gene(g) => {
            put("ensembl_gene", Some(&g.id));
            put("hgnc", g.hgnc.as_ref());
            put("symbol", g.name.as_ref());
            let entrez = g
                .entrez
                .as_ref()
                .map(|e| e.rsplit(':').next().unwrap_or(e).to_owned());
            put("entrez", entrez.as_ref());
            aliases = g
                .synonyms
                .iter()
                .filter(|s| Some(*s) != g.name.as_ref())
                .cloned()
                .collect();
        }
        Record::Protein(p) => {
            put("ensembl_protein", Some(&p.id));
            let mut accessions: Vec<String> = p.uniprot_ids.clone();
            for x in &p.dbxrefs {
                if x.name.as_deref() == Some("AlphaFoldDB")
                    && let Some(id) = &x.id
                    && !accessions.contains(id)
                {
                    accessions.push(id.clone());
                }
            }
            put("uniprot_name", p.uniprot_names.first());
            put("symbol", p.name.as_ref());
            if !accessions.is_empty() {
                ids.insert("uniprot".into(), IdValue::Many(accessions));
            }
        }
        Record::Transcript(t) => {
            put("ensembl_transcript", Some(&t.id));
            let gene = t.gene_name.as_ref().filter(|g| is_ensembl_gene(g));
            put("ensembl_gene", gene);
        }
        Record::OntologyTerm(t) => {
            let term_id = t.term_id.clone().unwrap_or_default();
            put("curie", Some(&ontology_curie(&term_id)));
            put("term_id", Some(&term_id));
            put("name", t.name.as_ref());
            aliases = t.synonyms.clone();
        }
        Record::Drug(d) => {
            put("pharmgkb", Some(&d.id));
            put("name", d.name.as_ref());
        }
        Record::Complex(c) => {
            put("complex_portal", Some(&c.id));
            put("name", c.name.as_ref());
            aliases = c.alias.clone();
        }
        Record::Pathway(p) => {
            put("reactome", Some(&p.id));
            put("name", p.name.as_ref());
            aliases = p.name_aliases.clone();
        }
    }
    (ids, aliases)
}

fn check_target(raw: &str, kind: EntityKind) -> Result<String, ApiError> {
    let wanted = normalise_format(raw, kind);
    if formats(kind).contains(&wanted.as_str()) {
        return Ok(wanted);
    }
    if all_formats().contains(&wanted) {
        return Err(ApiError::invalid_input(
            format!("'{raw}' is not a format of a {kind}."),
            format!(
                "For a {kind}, target_type is one of {}; omit it to get every identifier.",
                quoted(
                    &formats(kind)
                        .iter()
                        .map(|f| (*f).to_owned())
                        .collect::<Vec<_>>()
                )
            ),
            raw,
        ));
    }
    Err(ApiError::invalid_input(
        format!("'{raw}' is not an identifier format this tool knows."),
        format!(
            "target_type is one of {}; omit it to get every identifier.",
            quoted(&all_formats())
        ),
        raw,
    ))
}

impl IgvfServer {
    /// Convert an identifier to all its known aliases with one lookup: a variant's rsID,
    /// SPDI, genomic HGVS and ClinGen allele ID; a gene's Ensembl ID, HGNC ID, symbol and
    /// Entrez ID; a protein's Ensembl and UniProt IDs (uniprot_get_protein). Absent aliases
    /// are omitted. `target_type` picks one. Example:
    /// `{"id": "rs80357906", "target_type": "spdi"}`.
    #[tool(
        title = "Resolve an identifier to its aliases",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn igvf_resolve_id(
        &self,
        Parameters(args): Parameters<ResolveIdArgs>,
    ) -> Result<Json<Resolution>, ApiError> {
        let args = args?;
        let id: Identifier = detect(&args.id, args.hint)?;
        // Check the format before spending an upstream call on an answer it cannot give.
        let target = match args.target_type.as_deref().map(str::trim) {
            Some(t) if !t.is_empty() => Some(check_target(t, id.kind())?),
            _ => None,
        };
        let found = lookup(&self.catalog, &id, &args.id).await?;
        let (identifiers, aliases) = identifiers(&found.best);
        let mut notes = Vec::new();
        let resolved = target.as_ref().and_then(|t| identifiers.get(t).cloned());
        if let (Some(t), None) = (&target, &resolved) {
            notes.push(format!(
                "The catalog has no {t} for this {}; the other identifiers are given.",
                id.kind()
            ));
        }
        let other_matches: Vec<Identifiers> = found.others.iter().map(identifiers_of).collect();
        if !other_matches.is_empty() {
            notes.push(format!(
                "'{}' matches {} entities (e.g. several alleles at one rsID); the first is \
                 resolved above, the others are in other_matches.",
                args.id,
                other_matches.len() + 1
            ));
        }
        Ok(Json(Resolution {
            input: args.id,
            entity_type: id.kind(),
            detected_as: id.form().to_owned(),
            identifiers,
            aliases,
            resolved,
            other_matches,
            notes,
        }))
    }
}

fn identifiers_of(record: &Record) -> Identifiers {
    identifiers(record).0
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;

    #[test]
    fn target_types_are_normalised_and_checked_against_the_kind() {
        assert_eq!(check_target("SPDI", EntityKind::Variant).unwrap(), "spdi");
        assert_eq!(check_target("rsID", EntityKind::Variant).unwrap(), "rsid");
        assert_eq!(
            check_target("ClinGen", EntityKind::Variant).unwrap(),
            "ca_id"
        );
        assert_eq!(
            check_target("Ensembl", EntityKind::Gene).unwrap(),
            "ensembl_gene"
        );
        assert_eq!(
            check_target("ensembl", EntityKind::Protein).unwrap(),
            "ensembl_protein"
        );
        let e = check_target("hgnc", EntityKind::Variant).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidInput);
        assert!(e.to_envelope().error.recovery_hint.contains("'spdi'"));
        let e = check_target("smiles", EntityKind::Variant).unwrap_err();
        assert!(
            e.to_envelope()
                .error
                .message
                .contains("not an identifier format")
        );
    }
}
