//! `lifesciences_map_ids`: an identifier of one database in the forms of the others,
//! each with the tool that takes it next.
//!
//! Every hop is a call of one of the four servers' own tools, in-process, through the
//! shared upstream clients (so a hop another call made already is answered from the
//! cache). The paths:
//!
//! | input | path |
//! |---|---|
//! | gene symbol, UniProt, HGNC, NCBI Gene, RefSeq | `ensembl_search_genes` → the gene path |
//! | Ensembl gene | the gene path: `ensembl_get_gene` (HGNC, UniProt, NCBI Gene, RefSeq) → `string_search_proteins` (STRING) and `chembl_search_targets` (ChEMBL target, by UniProt) |
//! | Ensembl transcript | `ensembl_get_transcript` → its gene → the gene path |
//! | STRING protein | `string_search_proteins` (its preferred name) → the symbol path |
//! | Ensembl protein (human, mouse, rat, zebrafish) | the STRING path: STRING names these species' proteins by their Ensembl IDs |
//! | ChEMBL compound | `chembl_get_compound` (InChIKey, PubChem CID, target UniProt accessions) |
//! | ChEMBL target | `chembl_get_target` (UniProt accessions, gene symbols) |
//! | InChIKey | `chembl_search_compounds` → the compound path |
//! | PubChem CID (`CID:2244`, `PubChem:2244`) | UniChem (ChEMBL's cross-reference service) → the compound path |
//! | rsID, SPDI | `igvf_resolve_id` (rsID, SPDI, HGVS, ClinGen allele) |

use lifesciences_core::rmcp::{Json, tool, tool_router};
use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, ErrorCode, Parameters, XrefKey, args::decode_arguments};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::server::Gateway;

/// Identifiers one call maps at most.
const MAX_IDS: usize = 20;

/// Arguments of `lifesciences_map_ids`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapIdsArgs {
    /// 1–20 identifiers: gene symbol, ENSG/ENST/ENSP, UniProt, HGNC:…, NCBI Gene, RefSeq,
    /// STRING (9606.ENSP…), CHEMBL…, InChIKey, PubChem `CID:2244`, rsID or SPDI.
    #[serde(deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>", length(min = 1, max = 20))]
    pub ids: Vec<String>,
    /// Species of gene symbols and other gene IDs, e.g. `human`, `mouse`, `9606`.
    #[serde(default)]
    #[schemars(extend("default" = "human"))]
    pub species: Option<String>,
}

/// One equivalent identifier.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct Equivalent {
    /// `symbol`, `ensembl_gene`, `ensembl_transcript`, `uniprot`, `hgnc`, `ncbi_gene`,
    /// `refseq`, `string`, `chembl_target`, `chembl_compound`, `pubchem_compound`,
    /// `inchikey`, `rsid`, `spdi`, `hgvs`, `clingen_allele`.
    pub namespace: String,
    /// The identifier, in the form `next_tool` takes.
    pub id: String,
    /// The tool that takes it next.
    pub next_tool: Option<String>,
}

/// A namespace that could not be reached, and why.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Unmapped {
    /// The namespace.
    pub namespace: String,
    /// Why.
    pub reason: String,
}

/// What one input maps to.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Mapping {
    /// The input, as given.
    pub input: String,
    /// How it was read, e.g. `gene symbol`, `UniProt accession`.
    pub detected_as: String,
    /// Its equivalents.
    pub equivalents: Vec<Equivalent>,
    /// The tools called, in order.
    pub path: Vec<String>,
    /// What could not be mapped, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmapped: Vec<Unmapped>,
    /// Set when the input itself could not be read or found.
    pub error: Option<MapError>,
}

/// Why an input failed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MapError {
    /// The error code, e.g. `ENTITY_NOT_FOUND`.
    pub code: ErrorCode,
    /// What failed, and what to do.
    pub message: String,
}

/// The answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MapIdsResult {
    /// One mapping per input, in input order.
    pub results: Vec<Mapping>,
    /// Inputs with at least one equivalent.
    pub mapped: u32,
    /// Inputs that failed (see `results[].error`).
    pub failed: u32,
}

/// What an input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    PubchemCid,
    Rsid,
    Spdi,
    InchiKey,
    Chembl,
    StringId,
    EnsemblGene,
    EnsemblTranscript,
    EnsemblProtein,
    Hgnc,
    Uniprot,
    Refseq,
    NcbiGene,
    Symbol,
}

impl Form {
    fn detect(raw: &str) -> Option<Self> {
        let s = raw.trim();
        let upper = s.to_ascii_uppercase();
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let ensembl = |kind: char| {
            upper.starts_with("ENS")
                && upper
                    .trim_start_matches("ENS")
                    .trim_start_matches(|c: char| c.is_ascii_alphabetic() && c != kind)
                    .strip_prefix(kind)
                    .is_some_and(|rest| digits(rest.split('.').next().unwrap_or_default()))
        };
        let cid = ["CID:", "PUBCHEM:", "PUBCHEM.COMPOUND:", "PUBCHEM_COMPOUND:"]
            .iter()
            .find_map(|p| upper.strip_prefix(p));
        Some(if cid.is_some_and(digits) {
            Self::PubchemCid
        } else if upper.starts_with("RS") && digits(&upper[2..]) {
            Self::Rsid
        } else if upper.starts_with("NC_") && s.matches(':').count() == 3 {
            Self::Spdi
        } else if s.len() == 27
            && s.as_bytes()[14] == b'-'
            && s.as_bytes()[25] == b'-'
            && s.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
        {
            Self::InchiKey
        } else if upper.starts_with("CHEMBL")
            && digits(upper.trim_start_matches("CHEMBL").trim_start_matches(':'))
        {
            Self::Chembl
        } else if upper.starts_with("STRING:")
            || s.split_once('.')
                .is_some_and(|(taxon, rest)| digits(taxon) && !rest.is_empty() && !digits(rest))
        {
            Self::StringId
        } else if ensembl('G') {
            Self::EnsemblGene
        } else if ensembl('T') {
            Self::EnsemblTranscript
        } else if ensembl('P') {
            Self::EnsemblProtein
        } else if upper.starts_with("HGNC:") && digits(&upper[5..]) {
            Self::Hgnc
        } else if XrefKey::Uniprot.is_valid(&upper) {
            Self::Uniprot
        } else if ["NM_", "NR_", "NP_", "XM_", "XR_", "XP_"]
            .iter()
            .any(|p| upper.starts_with(p))
        {
            Self::Refseq
        } else if digits(
            upper
                .trim_start_matches("NCBIGENE:")
                .trim_start_matches("GENEID:"),
        ) {
            Self::NcbiGene
        } else if !s.is_empty()
            && s.len() <= 30
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
        {
            Self::Symbol
        } else {
            return None;
        })
    }

    fn words(self) -> &'static str {
        match self {
            Self::PubchemCid => "PubChem compound ID",
            Self::Rsid => "rsID",
            Self::Spdi => "SPDI",
            Self::InchiKey => "InChIKey",
            Self::Chembl => "ChEMBL ID",
            Self::StringId => "STRING protein",
            Self::EnsemblGene => "Ensembl gene ID",
            Self::EnsemblTranscript => "Ensembl transcript ID",
            Self::EnsemblProtein => "Ensembl protein ID",
            Self::Hgnc => "HGNC ID",
            Self::Uniprot => "UniProt accession",
            Self::Refseq => "RefSeq accession",
            Self::NcbiGene => "NCBI Gene ID",
            Self::Symbol => "gene symbol",
        }
    }
}

/// The STRING taxon of an Ensembl protein ID, for the species STRING names by Ensembl
/// protein IDs (human, mouse, rat, zebrafish).
fn string_taxon_of(ensp: &str) -> Option<&'static str> {
    [
        ("ENSP", "9606"),
        ("ENSMUSP", "10090"),
        ("ENSRNOP", "10116"),
        ("ENSDARP", "7955"),
    ]
    .iter()
    .find(|(prefix, _)| {
        ensp.strip_prefix(prefix)
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|c| c.is_ascii_digit()))
    })
    .map(|(_, taxon)| *taxon)
}

/// One input's mapping as it is built.
struct Builder {
    mapping: Mapping,
}

impl Builder {
    fn new(input: &str, form: &str) -> Self {
        Self {
            mapping: Mapping {
                input: input.to_owned(),
                detected_as: form.to_owned(),
                equivalents: Vec::new(),
                path: Vec::new(),
                unmapped: Vec::new(),
                error: None,
            },
        }
    }

    fn add(&mut self, namespace: &str, id: &str, next: Option<&str>) {
        let id = id.trim();
        if id.is_empty()
            || self
                .mapping
                .equivalents
                .iter()
                .any(|e| e.namespace == namespace && e.id == id)
        {
            return;
        }
        self.mapping.equivalents.push(Equivalent {
            namespace: namespace.to_owned(),
            id: id.to_owned(),
            next_tool: next.map(str::to_owned),
        });
    }

    fn missing(&mut self, namespace: &str, reason: impl Into<String>) {
        self.mapping.unmapped.push(Unmapped {
            namespace: namespace.to_owned(),
            reason: reason.into(),
        });
    }

    fn called(&mut self, tool: &str) {
        self.mapping.path.push(tool.to_owned());
    }

    fn fail(mut self, e: &ApiError) -> Mapping {
        let body = e.to_envelope().error;
        self.mapping.error = Some(MapError {
            code: body.code,
            message: format!("{} {}", body.message, body.recovery_hint)
                .trim()
                .to_owned(),
        });
        self.mapping
    }
}

/// The structured result of a tool call, as JSON.
fn value<T: Serialize>(out: Result<Json<T>, ApiError>) -> Result<Value, ApiError> {
    out.map(|json| serde_json::to_value(&json.0).unwrap_or(Value::Null))
}

fn text(v: &Value) -> Option<String> {
    v.as_str().map(str::to_owned)
}

fn texts(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => vec![s.clone()],
        Value::Array(items) => items.iter().filter_map(text).collect(),
        _ => Vec::new(),
    }
}

impl Gateway {
    /// The gene path from an Ensembl gene ID: its record's cross-references, then STRING
    /// and ChEMBL.
    async fn gene_path(&self, b: &mut Builder, ensg: &str) -> Result<(), ApiError> {
        b.called("ensembl_get_gene");
        let gene = value(
            self.ensembl
                .ensembl_get_gene(Parameters(decode_arguments(json!({"ensembl_id": ensg}))))
                .await,
        )?;
        b.add("ensembl_gene", ensg, Some("ensembl_get_gene"));
        let symbol = text(&gene["symbol"]);
        if let Some(s) = &symbol {
            b.add("symbol", s, Some("ensembl_search_genes"));
        }
        let xrefs = &gene["cross_references"];
        if let Some(h) = text(&xrefs["hgnc"]) {
            b.add("hgnc", &h, Some("igvf_get_entity"));
        }
        let uniprot = texts(&xrefs["uniprot"]);
        for u in &uniprot {
            b.add("uniprot", u, Some("chembl_search_targets"));
        }
        if let Some(e) = text(&xrefs["entrez"]) {
            b.add("ncbi_gene", &e, Some("ensembl_search_genes"));
        }
        for r in texts(&xrefs["refseq"]) {
            b.add("refseq", &r, Some("ensembl_search_genes"));
        }
        // STRING, by the symbol in the gene's species.
        match &symbol {
            Some(s) => {
                b.called("string_search_proteins");
                let taxon = match gene["species"].as_str() {
                    Some("homo_sapiens") | None => json!(9606),
                    Some(other) => json!(other.replace('_', " ")),
                };
                match value(
                    self.string
                        .string_search_proteins(Parameters(decode_arguments(
                            json!({"query": s, "species": taxon, "limit": 5}),
                        )))
                        .await,
                ) {
                    Ok(found) => {
                        let exact = found["items"].as_array().and_then(|items| {
                            items.iter().find(|i| {
                                i["preferred_name"]
                                    .as_str()
                                    .is_some_and(|n| n.eq_ignore_ascii_case(s))
                            })
                        });
                        match exact.and_then(|i| text(&i["id"])) {
                            Some(id) => b.add("string", &id, Some("string_get_interactions")),
                            None => b.missing("string", format!("STRING has no protein named {s}")),
                        }
                    }
                    Err(e) => b.missing(
                        "string",
                        format!(
                            "STRING could not be asked: {}",
                            e.to_envelope().error.message
                        ),
                    ),
                }
            }
            None => b.missing("string", "the gene has no symbol to ask STRING by"),
        }
        // ChEMBL targets, by the UniProt accession (reviewed first).
        match uniprot.first() {
            Some(acc) => {
                b.called("chembl_search_targets");
                match value(
                    self.chembl
                        .chembl_search_targets(Parameters(decode_arguments(
                            json!({"query": acc, "limit": 10}),
                        )))
                        .await,
                ) {
                    Ok(found) => {
                        let ids: Vec<String> = found["items"]
                            .as_array()
                            .map(|items| {
                                items
                                    .iter()
                                    .filter(|i| i["type"] == "SINGLE PROTEIN")
                                    .filter_map(|i| text(&i["id"]))
                                    .collect()
                            })
                            .unwrap_or_default();
                        if ids.is_empty() {
                            b.missing(
                                "chembl_target",
                                format!("ChEMBL has no single-protein target for {acc}"),
                            );
                        }
                        for id in ids {
                            b.add("chembl_target", &id, Some("chembl_get_target"));
                        }
                    }
                    Err(e) => b.missing(
                        "chembl_target",
                        format!(
                            "ChEMBL could not be asked: {}",
                            e.to_envelope().error.message
                        ),
                    ),
                }
            }
            None => b.missing("chembl_target", "the gene has no UniProt accession"),
        }
        Ok(())
    }

    /// The Ensembl gene of a symbol or another database's gene ID.
    async fn find_gene(
        &self,
        b: &mut Builder,
        query: &str,
        species: &str,
    ) -> Result<Option<String>, ApiError> {
        b.called("ensembl_search_genes");
        let found = value(
            self.ensembl
                .ensembl_search_genes(Parameters(decode_arguments(
                    json!({"query": query, "species": species, "page_size": 5}),
                )))
                .await,
        )?;
        let best = found["items"].as_array().and_then(|items| {
            items
                .iter()
                .find(|i| i["score"].as_f64().is_some_and(|s| s >= 0.9))
        });
        Ok(best.and_then(|i| text(&i["id"])))
    }

    async fn map_one(&self, raw: &str, species: &str) -> (Mapping, Option<ApiError>) {
        let input = raw.trim();
        let Some(form) = Form::detect(input) else {
            let mut b = Builder::new(raw, "unrecognised");
            b.missing("*", "not an identifier form this tool knows");
            let e = ApiError::unresolved(
                format!("'{raw}' is not an identifier lifesciences_map_ids recognises."),
                "Give a gene symbol, ENSG/ENST/ENSP, UniProt, HGNC:…, NCBI Gene, RefSeq, \
                 STRING (9606.ENSP…), CHEMBL…, InChIKey, PubChem CID (CID:2244), rsID or SPDI.",
                raw,
            );
            return (b.fail(&e), Some(e));
        };
        let mut b = Builder::new(raw, form.words());
        let outcome: Result<(), ApiError> = async {
            match form {
                Form::Rsid | Form::Spdi => {
                    b.called("igvf_resolve_id");
                    let out = value(
                        self.igvf
                            .igvf_resolve_id(Parameters(decode_arguments(json!({"id": input}))))
                            .await,
                    )?;
                    let ids = &out["identifiers"];
                    if let Some(r) = text(&ids["rsid"]) {
                        b.add("rsid", &r, Some("ensembl_get_variant"));
                    }
                    if let Some(s) = text(&ids["spdi"]) {
                        b.add("spdi", &s, Some("igvf_get_entity"));
                    }
                    if let Some(h) = text(&ids["hgvs"]) {
                        b.add("hgvs", &h, Some("ensembl_predict_variant_effect"));
                    }
                    if let Some(c) = text(&ids["ca_id"]) {
                        b.add("clingen_allele", &c, Some("igvf_get_entity"));
                    }
                    Ok(())
                }
                Form::PubchemCid => {
                    let cid = input
                        .rsplit(':')
                        .next()
                        .unwrap_or_default()
                        .trim()
                        .to_owned();
                    b.add("pubchem_compound", &cid, None);
                    b.called("UniChem (PubChem → ChEMBL)");
                    match self.chembl.chembl_ids_of_pubchem(&cid).await {
                        None => {
                            b.missing(
                                "chembl_compound",
                                "UniChem could not be asked; try again later",
                            );
                            Ok(())
                        }
                        Some(ids) => match ids.first() {
                            Some(id) => self.compound_path(&mut b, id).await,
                            None => {
                                b.missing(
                                    "chembl_compound",
                                    "UniChem links no ChEMBL compound to this CID",
                                );
                                Ok(())
                            }
                        },
                    }
                }
                Form::InchiKey => {
                    b.called("chembl_search_compounds");
                    let out = value(
                        self.chembl
                            .chembl_search_compounds(Parameters(decode_arguments(
                                json!({"query": input.to_ascii_uppercase()}),
                            )))
                            .await,
                    )?;
                    b.add(
                        "inchikey",
                        &input.to_ascii_uppercase(),
                        Some("chembl_search_compounds"),
                    );
                    match out["items"].get(0).and_then(|i| text(&i["id"])) {
                        Some(id) => self.compound_path(&mut b, &id).await,
                        None => {
                            b.missing(
                                "chembl_compound",
                                "ChEMBL has no compound with this InChIKey",
                            );
                            Ok(())
                        }
                    }
                }
                Form::Chembl => {
                    let id = format!(
                        "CHEMBL:{}",
                        input
                            .to_ascii_uppercase()
                            .trim_start_matches("CHEMBL")
                            .trim_start_matches(':')
                    );
                    match self.compound_path(&mut b, &id).await {
                        // Not a compound (ChEMBL says what it is, or has no such
                        // molecule): a target, perhaps.
                        Err(e)
                            if matches!(
                                e.code(),
                                ErrorCode::EntityNotFound | ErrorCode::UnresolvedEntity
                            ) =>
                        {
                            b.mapping.path.clear();
                            self.target_path(&mut b, &id).await
                        }
                        other => other,
                    }
                }
                Form::StringId | Form::EnsemblProtein => {
                    let owned = match form {
                        Form::EnsemblProtein => {
                            let ensp = input.to_ascii_uppercase();
                            let ensp = ensp.split('.').next().unwrap_or_default().to_owned();
                            let Some(taxon) = string_taxon_of(&ensp) else {
                                return Err(ApiError::unresolved(
                                    format!(
                                        "'{input}' is an Ensembl protein of a species whose \
                                         proteins STRING does not name by Ensembl ID."
                                    ),
                                    "Map its gene (ENSG…) or its transcript (ENST…) instead.",
                                    input,
                                ));
                            };
                            b.add("ensembl_protein", &ensp, Some("igvf_get_entity"));
                            format!("{taxon}.{ensp}")
                        }
                        _ => input
                            .trim_start_matches("STRING:")
                            .trim_start_matches("string:")
                            .to_owned(),
                    };
                    let id = owned.as_str();
                    b.called("string_search_proteins");
                    let taxon = id.split('.').next().unwrap_or("9606");
                    let out = value(
                        self.string
                            .string_search_proteins(Parameters(decode_arguments(
                                json!({"query": id, "species": taxon, "limit": 1}),
                            )))
                            .await,
                    )?;
                    b.add(
                        "string",
                        &format!("STRING:{id}"),
                        Some("string_get_interactions"),
                    );
                    let Some(name) = out["items"].get(0).and_then(|i| text(&i["preferred_name"]))
                    else {
                        b.missing("symbol", "STRING does not name this protein");
                        return Ok(());
                    };
                    let species = if taxon == "9606" {
                        species.to_owned()
                    } else {
                        taxon.to_owned()
                    };
                    match self.find_gene(&mut b, &name, &species).await? {
                        Some(ensg) => self.gene_path(&mut b, &ensg).await,
                        None => {
                            b.add("symbol", &name, Some("ensembl_search_genes"));
                            b.missing("ensembl_gene", format!("Ensembl has no gene named {name}"));
                            Ok(())
                        }
                    }
                }
                Form::EnsemblGene => {
                    let ensg = input.to_ascii_uppercase();
                    let ensg = ensg.split('.').next().unwrap_or_default().to_owned();
                    self.gene_path(&mut b, &ensg).await
                }
                Form::EnsemblTranscript => {
                    b.called("ensembl_get_transcript");
                    let out = value(
                        self.ensembl
                            .ensembl_get_transcript(Parameters(decode_arguments(
                                json!({"transcript_id": input}),
                            )))
                            .await,
                    )?;
                    if let Some(t) = text(&out["id"]) {
                        b.add("ensembl_transcript", &t, Some("ensembl_get_transcript"));
                    }
                    match text(&out["parent_gene"]) {
                        Some(g) => self.gene_path(&mut b, &g).await,
                        None => {
                            b.missing("ensembl_gene", "Ensembl names no gene for this transcript");
                            Ok(())
                        }
                    }
                }
                Form::Hgnc | Form::Uniprot | Form::Refseq | Form::NcbiGene | Form::Symbol => {
                    let query = match form {
                        Form::NcbiGene => input
                            .to_ascii_uppercase()
                            .trim_start_matches("NCBIGENE:")
                            .trim_start_matches("GENEID:")
                            .to_owned(),
                        _ => input.to_owned(),
                    };
                    match self.find_gene(&mut b, &query, species).await? {
                        Some(ensg) => self.gene_path(&mut b, &ensg).await,
                        None => Err(ApiError::not_found(
                            format!(
                                "Ensembl has no {species} gene for the {} '{input}'.",
                                form.words()
                            ),
                            "Check the spelling and the species (species: 'mouse', '10090'…), or \
                             search words with ensembl_search_genes.",
                            input,
                        )),
                    }
                }
            }
        }
        .await;
        match outcome {
            Ok(()) => (b.mapping, None),
            Err(e) => (b.fail(&e), Some(e)),
        }
    }

    /// A compound's InChIKey, PubChem CID and target accessions.
    async fn compound_path(&self, b: &mut Builder, id: &str) -> Result<(), ApiError> {
        b.called("chembl_get_compound");
        let out = value(
            self.chembl
                .chembl_get_compound(Parameters(decode_arguments(json!({"chembl_id": id}))))
                .await,
        )?;
        b.mapping.detected_as = "ChEMBL compound".to_owned();
        b.add("chembl_compound", id, Some("chembl_get_compound"));
        if let Some(k) = text(&out["inchi_key"]) {
            b.add("inchikey", &k, Some("chembl_search_compounds"));
        }
        let xrefs = &out["cross_references"];
        match text(&xrefs["pubchem_compound"]) {
            Some(cid) => b.add("pubchem_compound", &cid, None),
            None => b.missing("pubchem_compound", "UniChem gave no PubChem CID"),
        }
        for u in texts(&xrefs["uniprot"]) {
            b.add("uniprot", &u, Some("lifesciences_map_ids"));
        }
        Ok(())
    }

    /// A target's component accessions and gene symbols.
    async fn target_path(&self, b: &mut Builder, id: &str) -> Result<(), ApiError> {
        b.called("chembl_get_target");
        let out = value(
            self.chembl
                .chembl_get_target(Parameters(decode_arguments(json!({"target_id": id}))))
                .await,
        )?;
        b.mapping.detected_as = "ChEMBL target".to_owned();
        b.add("chembl_target", id, Some("chembl_get_target"));
        for u in texts(&out["uniprot"]) {
            b.add("uniprot", &u, Some("lifesciences_map_ids"));
        }
        for s in texts(&out["gene_symbols"]) {
            b.add("symbol", &s, Some("ensembl_search_genes"));
        }
        Ok(())
    }
}

#[tool_router(router = map_ids_router, vis = "pub(crate)")]
impl Gateway {
    /// Map identifiers across STRING, Ensembl, ChEMBL and the IGVF Catalog, each
    /// equivalent with the tool that takes it next, using the databases' own mappings:
    /// a gene (symbol, Ensembl, UniProt, HGNC, NCBI Gene, RefSeq, STRING) to all of
    /// these and its ChEMBL targets; a compound (CHEMBL, InChIKey, PubChem CID) to its
    /// ChEMBL ID, InChIKey, CID and targets' UniProt; a variant (rsID, SPDI) to rsID, SPDI, HGVS.
    /// Example: `{"ids": ["TP53", "CHEMBL25", "rs80357906"]}`.
    #[tool(
        title = "Map identifiers across databases",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub async fn lifesciences_map_ids(
        &self,
        Parameters(args): Parameters<MapIdsArgs>,
    ) -> Result<Json<MapIdsResult>, ApiError> {
        let args = args?;
        if args.ids.is_empty() || args.ids.len() > MAX_IDS {
            return Err(ApiError::invalid_input(
                format!(
                    "'ids' holds {} identifiers; give 1 to {MAX_IDS}.",
                    args.ids.len()
                ),
                "Split longer lists over several calls.",
                args.ids.len().to_string(),
            ));
        }
        let species = args
            .species
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .unwrap_or("human")
            .to_owned();
        let outcomes: Vec<(Mapping, Option<ApiError>)> =
            futures::future::join_all(args.ids.iter().map(|id| self.map_one(id, &species))).await;
        // Nothing mapped and every input failed: the first failure is the answer (an
        // upstream outage is UPSTREAM_ERROR, not an empty success).
        if outcomes
            .iter()
            .all(|(m, e)| e.is_some() && m.equivalents.is_empty())
            && let Some(e) = outcomes.iter().find_map(|(_, e)| e.clone())
        {
            return Err(e);
        }
        let results: Vec<Mapping> = outcomes.into_iter().map(|(m, _)| m).collect();
        let mapped = results.iter().filter(|m| !m.equivalents.is_empty()).count();
        let failed = results.iter().filter(|m| m.error.is_some()).count();
        Ok(Json(MapIdsResult {
            results,
            mapped: u32::try_from(mapped).unwrap_or(u32::MAX),
            failed: u32::try_from(failed).unwrap_or(u32::MAX),
        }))
    }
}
