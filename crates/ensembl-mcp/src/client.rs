//! The two upstreams of this server, Ensembl REST and EBI Search: their descriptions
//! (politeness defaults, health checks) and every URL and query parameter the server
//! sends. The only module that knows them.
//!
//! What Ensembl's refusals mean is read here too ([`reading`]): its methods answer with
//! [`Reply`]s and [`Refusal`]s, never with a status for a tool to interpret.
//!
//! JSON is asked for on every request (`Accept: application/json`, sent by core), because
//! Ensembl REST answers HTML otherwise (<https://github.com/Ensembl/ensembl-rest/wiki>).

mod reading;

use std::collections::HashMap;

use lifesciences_core::notify::{Level, notify};
use lifesciences_core::{
    ApiError, ConfigError, HealthCheck, HttpClient, Licence, LifeSciencesClient, ReleaseCheck,
    Reply, Upstream, encode_path_segment,
};
use serde::Serialize;

use crate::models::{
    EbiSearchResult, HomologyAnswer, LookupBatch, LookupObject, MapAnswer, OverlapFeature,
    SequenceRecord, SpeciesList, VariationRecord, VepResult, XrefEntry, XrefSymbolHit,
};

pub(crate) use reading::{Refusal, UnknownSpecies};

/// Largest `POST sequence/id` body: 50 IDs (Ensembl REST's configured `max_post_size` for
/// sequences, `ensembl_rest.conf.default` in Ensembl/ensembl-rest).
pub(crate) const MAX_SEQUENCE_BATCH: usize = 50;

/// Largest `POST /lookup/id` body Ensembl accepts (its `max_post_size`, 1000 IDs:
/// <https://rest.ensembl.org/documentation/info/lookup_post>).
pub(crate) const MAX_LOOKUP_BATCH: usize = 1000;

/// Largest page EBI Search serves (`size` 0–100).
pub(crate) const MAX_EBI_PAGE: u32 = 100;

/// Ensembl REST: 15 requests/s and 15 in flight, under its limit of 15 per second per
/// client (<https://github.com/Ensembl/ensembl-rest/wiki/Rate-Limits>); `info/ping` is
/// its liveness check. `info/data` names the data release it serves, `{"releases":
/// [115]}` (<https://rest.ensembl.org/documentation/info/data>; more than one only on
/// unusual servers: the first is named).
static ENSEMBL: Upstream = Upstream {
    about: "Ensembl REST",
    rate_per_second: 15.0,
    max_concurrent: 15,
    health: HealthCheck {
        path: "info/ping",
        query: &[],
    },
    release: Some(ReleaseCheck::Ask {
        path: "info/data",
        query: &[],
        pointer: "/releases/0",
    }),
    // Ensembl states no licence, only that it imposes no restrictions on the use of its
    // data: SPDX's form for terms of one's own (docs/sources/ensembl.md, "Licence and
    // citation").
    licence: Some(Licence {
        spdx: "LicenseRef-Ensembl",
        url: "https://www.ensembl.org/info/about/legal/disclaimer.html",
    }),
    cite: Some("10.1093/nar/gkae1071"),
    ..Upstream::new("Ensembl", "ENSEMBL", "https://rest.ensembl.org")
};

/// EBI Search, for free-text gene search: 10 requests/s, 10 in flight; its health check is
/// a one-hit search of the gene domain the tools use.
static EBI_SEARCH: Upstream = Upstream {
    about: "EBI Search (free-text gene search)",
    health: HealthCheck {
        path: "ensembl_gene",
        query: &[("query", "BRCA2"), ("size", "1"), ("format", "json")],
    },
    // EMBL-EBI's terms of use, which add no constraint to the data owner's (here
    // Ensembl's); docs/sources/ensembl.md, "Licence and citation".
    licence: Some(Licence {
        spdx: "LicenseRef-EMBL-EBI",
        url: "https://www.ebi.ac.uk/about/terms-of-use",
    }),
    cite: Some("10.1093/nar/gkv316"),
    ..Upstream::new(
        "EBI Search",
        "EBI_SEARCH",
        "https://www.ebi.ac.uk/ebisearch/ws/rest",
    )
};

/// Ensembl REST.
#[derive(Debug, Clone)]
pub(crate) struct EnsemblClient {
    http: HttpClient,
}

impl LifeSciencesClient for EnsemblClient {
    const UPSTREAM: &'static Upstream = &ENSEMBL;

    fn new(http: HttpClient) -> Result<Self, ConfigError> {
        Ok(Self { http })
    }
}

#[derive(Serialize)]
struct LookupIds<'a> {
    ids: &'a [String],
}

/// Largest VEP POST body: 200 variants (<https://rest.ensembl.org/documentation/info/vep_id_post>).
pub(crate) const MAX_VEP_BATCH: usize = 200;

/// The VEP options every request carries: canonical and MANE flags (the compact answer
/// keeps those transcripts), HGVS names, exon and intron numbers, the variant class and
/// protein IDs.
const VEP_FLAGS: [(&str, &str); 6] = [
    ("canonical", "1"),
    ("mane", "1"),
    ("hgvs", "1"),
    ("numbers", "1"),
    ("variant_class", "1"),
    ("protein", "1"),
];

/// The three VEP POST forms, by what the variants are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VepForm {
    /// rsIDs and other variant names: `POST vep/:species/id` `{"ids": […]}`.
    Id,
    /// HGVS notations (Ensembl, RefSeq or genomic; SPDI is sent as genomic HGVS):
    /// `POST vep/:species/hgvs` `{"hgvs_notations": […]}`.
    Hgvs,
    /// VCF-like lines `chrom pos id ref alt . . .`: `POST vep/:species/region`
    /// `{"variants": […]}`.
    Region,
}

#[derive(Serialize)]
#[serde(untagged)]
enum VepBody<'a> {
    Ids { ids: &'a [String] },
    Hgvs { hgvs_notations: &'a [String] },
    Variants { variants: &'a [String] },
}

impl EnsemblClient {
    /// `GET lookup/id/{id}`; `None` when Ensembl does not know the ID.
    pub(crate) async fn lookup(&self, id: &str) -> Result<Option<LookupObject>, ApiError> {
        let path = format!("lookup/id/{}", encode_path_segment(id)?);
        reading::found(self.http.get_json(&path, &[]).await)
    }

    /// `POST lookup/id` with `{"ids": [...]}`: one request per 1000 IDs. Unknown IDs are
    /// absent from the map (Ensembl answers `null` for them).
    pub(crate) async fn lookup_many(
        &self,
        ids: &[String],
    ) -> Result<HashMap<String, LookupObject>, ApiError> {
        let mut found = HashMap::with_capacity(ids.len());
        for chunk in ids.chunks(MAX_LOOKUP_BATCH) {
            let batch: LookupBatch = self
                .http
                .post_json("lookup/id", &LookupIds { ids: chunk })
                .await?;
            found.extend(
                batch
                    .into_iter()
                    .filter_map(|(id, object)| object.map(|o| (id, o))),
            );
        }
        Ok(found)
    }

    /// `GET xrefs/id/{id}?all_levels=1`: the object's cross-references and those of its
    /// transcripts and translations (a gene's own xrefs lack Swiss-Prot: recorded
    /// response, 2021, `tests/fixtures/xrefs_id__ENSG00000133703.json`).
    /// `None` when Ensembl does not know the ID.
    pub(crate) async fn xrefs(&self, id: &str) -> Result<Option<Vec<XrefEntry>>, ApiError> {
        let path = format!("xrefs/id/{}", encode_path_segment(id)?);
        reading::found(self.http.get_json(&path, &[("all_levels", "1")]).await)
    }

    /// `GET xrefs/symbol/{species}/{symbol}?object_type=gene`: the stable IDs of the genes
    /// whose symbol or synonym is exactly `symbol` (`[]` when none). A 400 (a symbol
    /// Ensembl cannot parse) means no match, and so does a symbol that cannot be a path
    /// segment (`..`), without a request: it is a search query, not an identifier to refuse.
    pub(crate) async fn gene_ids_for_symbol(
        &self,
        species: &str,
        symbol: &str,
    ) -> Result<Vec<String>, ApiError> {
        self.gene_ids_for_xref(species, symbol, None).await
    }

    /// [`gene_ids_for_symbol`](Self::gene_ids_for_symbol) for an identifier of another
    /// database, restricted to that database when `external_db` names it (`EntrezGene`,
    /// `MIM_GENE`): a bare number could match other databases' entries. Ensembl finds
    /// the gene through its transcripts' and proteins' cross-references too (UniProt,
    /// RefSeq).
    pub(crate) async fn gene_ids_for_xref(
        &self,
        species: &str,
        symbol: &str,
        external_db: Option<&str>,
    ) -> Result<Vec<String>, ApiError> {
        let species_segment = encode_path_segment(species)?;
        let Ok(symbol_segment) = encode_path_segment(symbol) else {
            tracing::debug!(symbol, "not a path segment: no exact-symbol request");
            return Ok(Vec::new());
        };
        let path = format!("xrefs/symbol/{species_segment}/{symbol_segment}");
        let mut query = vec![("object_type", "gene")];
        if let Some(db) = external_db {
            query.push(("external_db", db));
        }
        let answer = self
            .http
            .get_json::<Vec<XrefSymbolHit>>(&path, &query)
            .await;
        match Reply::read(answer, &[], &[400])? {
            Reply::Found(hits) => Ok(hits
                .into_iter()
                .filter(|h| h.kind.as_deref().is_none_or(|k| k == "gene"))
                .map(|h| h.id)
                .collect()),
            Reply::Refused(reason) => {
                tracing::debug!(species, symbol, reason, "xrefs/symbol refused the symbol");
                Ok(Vec::new())
            }
            // No status reads as missing here.
            Reply::Missing => Ok(Vec::new()),
        }
    }

    /// One VEP POST of up to [`MAX_VEP_BATCH`] variants of one form. VEP answers the
    /// variants it could place and leaves the others out; a 400 is its refusal of the
    /// species or of the batch (in its words, the first variant's warning).
    ///
    /// Never with `refseq=1`, RefSeq HGVS (`NM_…:c.…`) included: that flag only chooses the
    /// transcript set consequences are reported on ("Use RefSeq transcript set to report
    /// consequences", <https://rest.ensembl.org/documentation/info/vep_hgvs_post>), and with
    /// it `gene_id` becomes an NCBI Gene ID (recorded, `tests/fixtures/README.md`). Reading
    /// the HGVS does not need it: VEP's HGVS parser looks `NM_`/`XM_` transcripts up in the
    /// RefSeq (otherfeatures) database whatever the flag (Ensembl/ensembl-vep,
    /// `modules/Bio/EnsEMBL/VEP/Parser/HGVS.pm`, which skips the core database for them,
    /// and its test `t/Parser_HGVS.t`, "should fetch RefSeq OK by switching core adaptor
    /// type automatically", run without `refseq`). So one HGVS POST serves Ensembl and
    /// RefSeq notations alike, and every answer names Ensembl transcripts and genes.
    pub(crate) async fn vep_post(
        &self,
        species: &str,
        form: VepForm,
        variants: &[String],
    ) -> Result<Reply<Vec<VepResult>, Refusal>, ApiError> {
        let (segment, body) = match form {
            VepForm::Id => ("id", VepBody::Ids { ids: variants }),
            VepForm::Hgvs => (
                "hgvs",
                VepBody::Hgvs {
                    hgvs_notations: variants,
                },
            ),
            VepForm::Region => ("region", VepBody::Variants { variants }),
        };
        let path = format!("vep/{}/{segment}", encode_path_segment(species)?);
        reading::placed(self.http.post_json_query(&path, &VEP_FLAGS, &body).await)
    }

    /// `GET vep/:species/region/:region/:allele` for one variant given by place and
    /// allele (`16:89279135-89279135`, `C`); a 400 is VEP's refusal of the species or of
    /// the variant.
    pub(crate) async fn vep_region(
        &self,
        species: &str,
        region: &str,
        allele: &str,
    ) -> Result<Reply<Vec<VepResult>, Refusal>, ApiError> {
        let path = format!(
            "vep/{}/region/{}/{}",
            encode_path_segment(species)?,
            encode_path_segment(region)?,
            encode_path_segment(allele)?
        );
        reading::placed(self.http.get_json(&path, &VEP_FLAGS).await)
    }

    /// `GET variation/:species/:id` (with `phenotypes=1` when asked); missing when
    /// Ensembl does not know the variant (400 "rs… not found for homo_sapiens").
    pub(crate) async fn variation(
        &self,
        species: &str,
        id: &str,
        phenotypes: bool,
    ) -> Result<Reply<VariationRecord, UnknownSpecies>, ApiError> {
        let path = format!(
            "variation/{}/{}",
            encode_path_segment(species)?,
            encode_path_segment(id)?
        );
        let query: &[(&str, &str)] = if phenotypes {
            &[("phenotypes", "1")]
        } else {
            &[]
        };
        reading::named_record(self.http.get_json(&path, query).await)
    }

    /// `POST sequence/id` for up to [`MAX_SEQUENCE_BATCH`] stable IDs: always a list (one
    /// sequence per transcript of a gene asked for as `cdna`, `cds` or `protein`); IDs
    /// without a sequence of `kind` are left out, and none at all is 404 "No results
    /// found", read as no sequences.
    pub(crate) async fn sequences(
        &self,
        ids: &[String],
        kind: &str,
        flanks: (u32, u32),
    ) -> Result<Vec<SequenceRecord>, ApiError> {
        #[derive(Serialize)]
        struct Body<'a> {
            ids: &'a [String],
            #[serde(rename = "type")]
            kind: &'a str,
            #[serde(skip_serializing_if = "is_zero")]
            expand_5prime: u32,
            #[serde(skip_serializing_if = "is_zero")]
            expand_3prime: u32,
        }
        fn is_zero(n: &u32) -> bool {
            *n == 0
        }
        let body = Body {
            ids,
            kind,
            expand_5prime: flanks.0,
            expand_3prime: flanks.1,
        };
        let answer = self.http.post_json("sequence/id", &body).await;
        Ok(Reply::read(answer, &[404], &[])?
            .found()
            .unwrap_or_default())
    }

    /// `GET sequence/region/:species/:region` (`X:1000000..1000100:1`); a 400 is
    /// Ensembl's refusal of the species or of the region.
    pub(crate) async fn region_sequence(
        &self,
        species: &str,
        region: &str,
    ) -> Result<Reply<SequenceRecord, Refusal>, ApiError> {
        let path = format!(
            "sequence/region/{}/{}",
            encode_path_segment(species)?,
            encode_path_segment(region)?
        );
        reading::placed(self.http.get_json(&path, &[]).await)
    }

    /// `GET homology/id/:species/:id` (or `homology/symbol/…` for a symbol) in the full
    /// format without sequences, alignments or cigar lines: the condensed format lacks
    /// percent identity. Missing when Ensembl does not know the gene.
    pub(crate) async fn homology(
        &self,
        species: &str,
        gene: &str,
        by_symbol: bool,
        kind: &str,
        targets: &[String],
    ) -> Result<Reply<HomologyAnswer, UnknownSpecies>, ApiError> {
        let path = format!(
            "homology/{}/{}/{}",
            if by_symbol { "symbol" } else { "id" },
            encode_path_segment(species)?,
            encode_path_segment(gene)?
        );
        let mut query = vec![
            ("type", kind),
            ("format", "full"),
            ("sequence", "none"),
            ("aligned", "0"),
            ("cigar_line", "0"),
        ];
        query.extend(targets.iter().map(|t| ("target_species", t.as_str())));
        let answer = self.http.get_json(&path, &query).await;
        if by_symbol {
            reading::named(answer, Refusal::names_unknown_symbol)
        } else {
            reading::named_record(answer)
        }
    }

    /// `GET overlap/region/:species/:region` with one `feature=` per feature type; a 400
    /// is Ensembl's refusal of the species or of the region.
    pub(crate) async fn overlap(
        &self,
        species: &str,
        region: &str,
        features: &[&str],
        biotype: Option<&str>,
    ) -> Result<Reply<Vec<OverlapFeature>, Refusal>, ApiError> {
        let path = format!(
            "overlap/region/{}/{}",
            encode_path_segment(species)?,
            encode_path_segment(region)?
        );
        let mut query: Vec<(&str, &str)> = features.iter().map(|f| ("feature", *f)).collect();
        if let Some(biotype) = biotype {
            query.push(("biotype", biotype));
        }
        reading::placed(self.http.get_json(&path, &query).await)
    }

    /// `GET map/:species/:from/:region/:to`: a region from one assembly to another; a 400
    /// is Ensembl's refusal of the species, the assemblies or the region.
    pub(crate) async fn map_assembly(
        &self,
        species: &str,
        from: &str,
        region: &str,
        to: &str,
    ) -> Result<Reply<MapAnswer, Refusal>, ApiError> {
        let path = format!(
            "map/{}/{}/{}/{}",
            encode_path_segment(species)?,
            encode_path_segment(from)?,
            encode_path_segment(region)?,
            encode_path_segment(to)?
        );
        reading::placed(self.http.get_json(&path, &[]).await)
    }

    /// `GET map/{cdna|cds|translation}/:id/:start..:end`: positions of a transcript or
    /// protein on the genome (`include_original_region=1` for cDNA and CDS, so each
    /// piece says which positions it covers). `None` when Ensembl does not know the ID.
    pub(crate) async fn map_positions(
        &self,
        system: &str,
        id: &str,
        start: u64,
        end: u64,
    ) -> Result<Option<MapAnswer>, ApiError> {
        let path = format!(
            "map/{system}/{}/{}",
            encode_path_segment(id)?,
            encode_path_segment(&format!("{start}..{end}"))?
        );
        let query: &[(&str, &str)] = if system == "translation" {
            &[]
        } else {
            &[("include_original_region", "1")]
        };
        reading::found(self.http.get_json(&path, query).await)
    }

    /// `GET info/species`: the species of Ensembl (vertebrates). Cached by core like any
    /// GET, so species names are resolved without a request most of the time.
    pub(crate) async fn species(&self) -> Result<SpeciesList, ApiError> {
        self.http.get_json("info/species", &[]).await
    }
}

/// EBI Search's answer to a gene search.
#[derive(Debug)]
pub(crate) struct GeneSearch {
    /// The hits, in EBI Search's relevance order.
    pub result: EbiSearchResult,
    /// A species was asked for, EBI Search refused the query with the species clause,
    /// and `result` is the search of all species (`hitCount` counts them all).
    pub species_clause_dropped: bool,
}

/// EBI Search, whose `ensembl_gene` domain gives free-text gene search (Ensembl REST has
/// none).
#[derive(Debug, Clone)]
pub(crate) struct EbiSearchClient {
    http: HttpClient,
}

impl LifeSciencesClient for EbiSearchClient {
    const UPSTREAM: &'static Upstream = &EBI_SEARCH;

    fn new(http: HttpClient) -> Result<Self, ConfigError> {
        Ok(Self { http })
    }
}

/// The `ensembl_gene` fields the search reads (see docs/sources/ensembl.md).
const EBI_GENE_FIELDS: &str = "id,description,gene_name,species";

/// The user's text as Lucene words (EBI Search is built on Lucene): special characters
/// are escaped, so a stray `:` or `(` cannot become query syntax, and the operator words
/// `AND`, `OR`, `NOT` are quoted, whatever their case (some Lucene parsers also take
/// `and`/`or` as operators), so "tumor AND protein" or a gene named "NOT" cannot change
/// the query's logic. A quoted single word matches as the word does.
fn escape_lucene(text: &str) -> String {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|word| {
            if ["AND", "OR", "NOT"]
                .iter()
                .any(|op| word.eq_ignore_ascii_case(op))
            {
                format!("\"{word}\"")
            } else {
                escape_lucene_chars(word)
            }
        })
        .collect();
    words.join(" ")
}

/// Lucene's special characters, each preceded by a backslash.
fn escape_lucene_chars(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if matches!(
            c,
            '+' | '-'
                | '&'
                | '|'
                | '!'
                | '('
                | ')'
                | '{'
                | '}'
                | '['
                | ']'
                | '^'
                | '"'
                | '~'
                | '*'
                | '?'
                | ':'
                | '\\'
                | '/'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The EBI Search query for `text`, restricted to one species (by its scientific name,
/// the value of the `species` field) when given.
pub(crate) fn ebi_gene_query(text: &str, scientific_name: Option<&str>) -> String {
    let words = escape_lucene(text);
    match scientific_name {
        Some(name) => format!("({words}) AND species:\"{}\"", name.replace('"', "")),
        None => words,
    }
}

impl EbiSearchClient {
    /// `GET ensembl_gene?query=…&fields=…&start=…&size=…&format=json`: genes ranked by
    /// EBI Search's relevance, of one species when `scientific_name` is given.
    ///
    /// The `species:"…"` clause is not verified against the live API: if EBI Search
    /// answers 400 to a query with it, the words are searched once more without it, and
    /// the answer says so ([`GeneSearch::species_clause_dropped`]); the caller then keeps
    /// that species' hits itself.
    pub(crate) async fn search_genes(
        &self,
        text: &str,
        scientific_name: Option<&str>,
        start: u64,
        size: u32,
    ) -> Result<GeneSearch, ApiError> {
        let first = self.search_page(text, scientific_name, start, size).await;
        // Only a query with the species clause has a clause to drop.
        let refused: &[u16] = if scientific_name.is_some() {
            &[400]
        } else {
            &[]
        };
        let reason = match Reply::read(first, &[], refused)? {
            Reply::Found(result) => {
                return Ok(GeneSearch {
                    result,
                    species_clause_dropped: false,
                });
            }
            Reply::Refused(reason) => reason,
            // No status reads as missing here: only the refusal gets this far.
            Reply::Missing => String::new(),
        };
        tracing::warn!(
            species = scientific_name,
            reason,
            "EBI Search refused the query with its species clause; searching all species and \
             keeping that species' hits"
        );
        notify(
            Level::Notice,
            "EBI Search refused the species filter; searching all species and keeping that \
             species' hits",
        );
        let result = self.search_page(text, None, start, size).await?;
        Ok(GeneSearch {
            result,
            species_clause_dropped: true,
        })
    }

    /// One `GET ensembl_gene` request.
    async fn search_page(
        &self,
        text: &str,
        scientific_name: Option<&str>,
        start: u64,
        size: u32,
    ) -> Result<EbiSearchResult, ApiError> {
        let query = ebi_gene_query(text, scientific_name);
        let start = start.to_string();
        let size = size.min(MAX_EBI_PAGE).to_string();
        self.http
            .get_json(
                "ensembl_gene",
                &[
                    ("query", query.as_str()),
                    ("fields", EBI_GENE_FIELDS),
                    ("start", start.as_str()),
                    ("size", size.as_str()),
                    ("format", "json"),
                ],
            )
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_words_cannot_become_query_syntax() {
        assert_eq!(ebi_gene_query("tumor protein", None), "tumor protein");
        assert_eq!(ebi_gene_query("HGNC:11998 (x)", None), r"HGNC\:11998 \(x\)");
        assert_eq!(
            ebi_gene_query("BRCA1", Some("Homo sapiens")),
            r#"(BRCA1) AND species:"Homo sapiens""#
        );
    }

    #[test]
    fn operator_words_are_plain_words() {
        assert_eq!(
            ebi_gene_query("tumor AND protein", None),
            r#"tumor "AND" protein"#
        );
        assert_eq!(ebi_gene_query("NOT", None), r#""NOT""#);
        assert_eq!(
            ebi_gene_query("p53 or Not  kinase", None),
            r#"p53 "or" "Not" kinase"#
        );
        assert_eq!(
            ebi_gene_query("OR", Some("Homo sapiens")),
            r#"("OR") AND species:"Homo sapiens""#
        );
        // Only whole words: ANDROGEN, NOTCH1 and an escaped `NOT:` are terms already.
        assert_eq!(
            ebi_gene_query("ANDROGEN NOTCH1 NOT:", None),
            r"ANDROGEN NOTCH1 NOT\:"
        );
    }

    #[test]
    fn the_defaults_are_the_documented_politeness() {
        let env = lifesciences_core::Env::from_pairs(&[]);
        let ensembl = env.source_config(&ENSEMBL).unwrap();
        assert_eq!(ensembl.rate_per_second, 15.0);
        assert_eq!(ensembl.max_concurrent, 15);
        let ebi = env.source_config(&EBI_SEARCH).unwrap();
        assert_eq!(ebi.rate_per_second, 10.0);
        assert_eq!(ebi.max_concurrent, 10);
        assert_eq!(ebi.upstream.url_var(), "EBI_SEARCH_API_URL");
    }
}
