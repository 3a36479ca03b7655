//! `ensembl_search_genes`: genes by symbol, synonym or free text, ranked, a page at a time.
//!
//! Ensembl REST has no free-text search, so two upstreams are combined:
//!
//! 1. **Exact matches** from Ensembl REST `xrefs/symbol/{species}/{query}` (gene symbols
//!    and synonyms), ranked first: score 1.0 when the gene's symbol is the query,
//!    0.9 when a synonym is. Only for queries without spaces (symbols have none) that can
//!    be a path segment (not `..`). Without a species they are looked up in human.
//! 2. **Free text** from EBI Search's `ensembl_gene` domain (all species, or one), in EBI
//!    Search's relevance order, scored from 0.8 down by rank; genes already listed as
//!    exact matches are skipped. Should EBI Search refuse the species clause, all species
//!    are searched and the others' hits dropped here (the cursor remembers it).
//!
//! Symbols, names, biotypes and species of a whole page come from one `POST lookup/id`
//! (up to 1000 IDs per request), never one request per hit. Both first requests go out
//! concurrently. A cursor remembers how many exact matches were shown and where EBI
//! Search's list continues, so pages never overlap.

use std::collections::{HashMap, HashSet};

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{
    ApiError, PaginationEnvelope, Parameters, SearchQuery, cursor, in_range, lenient,
};
use serde::{Deserialize, Deserializer, Serialize};

use crate::client::{GeneSearch, MAX_EBI_PAGE};
use crate::ids;
use crate::models::{EbiEntry, EbiSearchResult, LookupObject};
use crate::server::EnsemblServer;
use crate::species::{self, DEFAULT_SYMBOL_SPECIES, Species};
use crate::tools::gene_name;

/// Default and largest page sizes, as for every search tool (docs/tools.md).
const DEFAULT_PAGE_SIZE: u32 = 50;
const MAX_PAGE_SIZE: u32 = 100;

/// EBI Search hits fetched beyond the page, to make up for hits skipped because they
/// are already listed as exact matches.
const SLACK: u32 = 5;

/// At most this many exact symbol/synonym matches are listed.
const MAX_EXACT: usize = 100;

/// Scores: exact symbol, exact synonym, and the best free-text hit.
const SCORE_SYMBOL: f64 = 1.0;
const SCORE_SYNONYM: f64 = 0.9;
const SCORE_TEXT_TOP: f64 = 0.8;

/// Arguments of `ensembl_search_genes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchGenesArgs {
    /// What to look for, at least 2 characters: a gene symbol ('BRCA1'), a synonym
    /// ('p53'), or words of the gene's name or description ('tumor protein'). Matched as
    /// plain words (no query syntax).
    pub query: String,
    /// Only genes of this species: a common name ('human', 'mouse', 'zebrafish'),
    /// Ensembl's production name ('homo_sapiens'), the scientific name ('Homo sapiens')
    /// or an NCBI taxon id ('9606'). Default: all species (exact symbol matches are then
    /// looked up in human).
    #[serde(default, deserialize_with = "species_arg")]
    pub species: Option<String>,
    /// Results per page, 1–100.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 100))]
    #[schemars(extend("default" = 50))]
    pub page_size: Option<u32>,
    /// The `pagination.cursor` of the previous page of the same query and species; omit
    /// it for the first page.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// A species given as a name, or as a taxon id written as a number.
fn species_arg<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    struct Visitor;
    impl<'de> serde::de::Visitor<'de> for Visitor {
        type Value = Option<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a species name or an NCBI taxon id")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(v.to_owned()))
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(Visitor)
        }
    }
    d.deserialize_option(Visitor)
}

/// One candidate gene.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct GeneCandidate {
    /// Ensembl gene stable ID, e.g. 'ENSG00000012048' (pass it to ensembl_get_gene).
    pub id: String,
    /// Gene symbol, e.g. 'BRCA1'.
    #[serde(default)]
    pub symbol: Option<String>,
    /// Gene name, e.g. 'BRCA1 DNA repair associated'.
    #[serde(default)]
    pub name: Option<String>,
    /// Ensembl biotype, e.g. 'protein_coding'.
    #[serde(default)]
    pub biotype: Option<String>,
    /// Ensembl production name of the species, e.g. 'homo_sapiens'.
    #[serde(default)]
    pub species: Option<String>,
    /// Relevance from 0 to 1, best first: 1.0 the symbol is the query, 0.9 a synonym is,
    /// 0.8 and below free-text matches by rank.
    pub score: f64,
}

/// Where the next page starts: exact matches already shown, and EBI Search's offset.
/// `a` is set once EBI Search has refused the species clause: from then on its list is
/// that of all species (the offset counts in it), filtered here, so later pages do not
/// try the clause again. Omitted when false, so cursors without it still read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Position {
    x: usize,
    e: u64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    a: bool,
}

/// An identifier of another database, as the search reads it: what it is, the Ensembl
/// `external_db` to restrict the match to (needed for bare numbers), and the form to send
/// (RefSeq without its version, which Ensembl keeps apart).
#[derive(Debug, Clone, PartialEq, Eq)]
struct ExternalId {
    kind: &'static str,
    external_db: Option<&'static str>,
    text: String,
}

/// The query as another database's identifier of a gene, its transcript or its protein.
fn external_id(query: &str) -> Option<ExternalId> {
    let q = query.trim();
    let upper = q.to_ascii_uppercase();
    let id = |kind, external_db, text: &str| {
        Some(ExternalId {
            kind,
            external_db,
            text: text.to_owned(),
        })
    };
    if let Some(n) = upper.strip_prefix("HGNC:")
        && !n.is_empty()
        && n.bytes().all(|c| c.is_ascii_digit())
    {
        return id("HGNC", Some("HGNC"), &format!("HGNC:{n}"));
    }
    for prefix in ["NCBIGENE:", "ENTREZ:", "GENEID:"] {
        if let Some(n) = upper.strip_prefix(prefix)
            && !n.is_empty()
            && n.bytes().all(|c| c.is_ascii_digit())
        {
            return id("NCBI Gene", Some("EntrezGene"), n);
        }
    }
    for prefix in ["OMIM:", "MIM:"] {
        if let Some(n) = upper.strip_prefix(prefix)
            && n.len() == 6
            && n.bytes().all(|c| c.is_ascii_digit())
        {
            return id("OMIM", Some("MIM_GENE"), n);
        }
    }
    if !upper.is_empty() && upper.len() <= 12 && upper.bytes().all(|c| c.is_ascii_digit()) {
        return id("NCBI Gene", Some("EntrezGene"), &upper);
    }
    // RefSeq's form (`NM_`, `NR_`, `NP_`, `XM_`, `XR_`, `XP_`, digits, an optional
    // numeric `.version`) on the whole query; only then is the version dropped.
    if lifesciences_core::XrefKey::Refseq.is_valid(&upper) {
        let accession = upper.split('.').next().unwrap_or(&upper);
        return id("RefSeq", None, accession);
    }
    // UniProt's published accession pattern (an isoform's `-n` included) on the whole
    // query: `AL033381.1`, a gene's name, is no accession cut at its dot.
    if lifesciences_core::XrefKey::Uniprot.is_valid(&upper) {
        return id("UniProt", None, &upper);
    }
    None
}

/// Symbols and synonyms have no spaces; free text skips the exact-match request.
fn looks_like_symbol(query: &str) -> bool {
    !query.chars().any(char::is_whitespace) && query.chars().count() <= 64
}

/// The score of the EBI Search hit at 0-based `rank`: 0.8 at the top, halving by rank 20,
/// always below an exact match and never increasing down the list.
fn text_score(rank: u64) -> f64 {
    let raw = SCORE_TEXT_TOP / (1.0 + rank as f64 / 20.0);
    (raw * 1000.0).round() / 1000.0
}

/// The EBI Search hits that go on this page: at most `room`, skipping hits that are
/// exact matches, not Ensembl gene IDs, repeated, or of another species than asked (in
/// case the upstream's species filter lets one through). Returns them with their global
/// rank, and how many hits were examined.
fn take_text_hits(
    entries: Vec<EbiEntry>,
    offset: u64,
    room: usize,
    exact: &HashSet<String>,
    species: Option<&Species>,
) -> (Vec<(u64, String, EbiEntry)>, usize) {
    let mut taken: Vec<(u64, String, EbiEntry)> = Vec::new();
    let mut examined = 0;
    for entry in entries {
        if taken.len() >= room {
            break;
        }
        let rank = offset + examined as u64;
        examined += 1;
        let Some(id) = entry.id.as_deref().and_then(gene_id) else {
            continue;
        };
        let other_species = species.is_some_and(|wanted| {
            entry
                .fields
                .species
                .first()
                .is_some_and(|s| species::production_name(s) != wanted.production_name)
        });
        if exact.contains(&id) || other_species || taken.iter().any(|(_, t, _)| *t == id) {
            continue;
        }
        taken.push((rank, id, entry));
    }
    (taken, examined)
}

/// The canonical ID of an Ensembl gene, or `None` for anything else.
fn gene_id(raw: &str) -> Option<String> {
    match ids::parse(raw) {
        ids::Parsed::Id(ids::StableId {
            id,
            feature: ids::Feature::Gene,
        }) => Some(id),
        _ => None,
    }
}

/// A candidate from an exact match and its lookup.
fn exact_candidate(id: &str, gene: Option<&LookupObject>, query: &str) -> GeneCandidate {
    let symbol = gene.and_then(|g| g.display_name.clone());
    let score = if symbol
        .as_deref()
        .is_some_and(|s| s.eq_ignore_ascii_case(query))
    {
        SCORE_SYMBOL
    } else {
        SCORE_SYNONYM
    };
    GeneCandidate {
        id: id.to_owned(),
        symbol,
        name: gene.and_then(|g| gene_name(g.description.as_deref())),
        biotype: gene.and_then(|g| g.biotype.clone()),
        species: gene.and_then(|g| g.species.clone()),
        score,
    }
}

/// A candidate from an EBI Search hit, completed by its lookup (EBI Search has no
/// biotype; Ensembl's symbol and name win when both are present).
fn text_candidate(
    rank: u64,
    id: String,
    entry: &EbiEntry,
    gene: Option<&LookupObject>,
) -> GeneCandidate {
    let fields = &entry.fields;
    GeneCandidate {
        symbol: gene
            .and_then(|g| g.display_name.clone())
            .or_else(|| fields.gene_name.first().cloned()),
        name: gene
            .and_then(|g| gene_name(g.description.as_deref()))
            .or_else(|| gene_name(fields.description.first().map(String::as_str))),
        biotype: gene.and_then(|g| g.biotype.clone()),
        species: gene
            .and_then(|g| g.species.clone())
            .or_else(|| fields.species.first().map(|s| species::production_name(s))),
        score: text_score(rank),
        id,
    }
}

impl EnsemblServer {
    /// Find Ensembl genes by symbol, synonym, free text, or another database's ID
    /// (UniProt, RefSeq NM_/NP_, HGNC:…, NCBI Gene, OMIM:…), optionally in one species.
    /// Ranked candidates with Ensembl gene IDs, a page at a time: exact matches first
    /// (1.0; synonyms 0.9), then free text (0.8 and below). Pass an `id` to
    /// ensembl_get_gene. Example: `{"query": "BRCA1", "species": "human"}`.
    #[tool(
        title = "Search Ensembl genes",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn ensembl_search_genes(
        &self,
        Parameters(args): Parameters<SearchGenesArgs>,
    ) -> Result<Json<PaginationEnvelope<GeneCandidate>>, ApiError> {
        let args = args?;
        let query = SearchQuery::parse(&args.query)?;
        let query = query.as_str();
        let page_size = in_range(
            "page_size",
            args.page_size,
            1,
            MAX_PAGE_SIZE,
            DEFAULT_PAGE_SIZE,
        )?;
        let species_arg = args
            .species
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty());
        // The scope uses the species as typed, so a bad cursor is refused before any
        // request.
        let scope = format!(
            "ensembl_search_genes|{query}|{}",
            species_arg.map_or_else(|| "*".to_owned(), species::fold)
        );
        let position = match args.cursor.as_deref().map(str::trim) {
            Some(c) if !c.is_empty() => cursor::decode::<Position>(c, &scope)?,
            _ => Position::default(),
        };
        let species = match species_arg {
            Some(raw) => Some(species::resolve(&self.ensembl.species().await?, raw)?),
            None => None,
        };

        let symbol_species = species
            .as_ref()
            .map_or(DEFAULT_SYMBOL_SPECIES, |s| s.production_name.as_str());
        // Another database's identifier: the genes it belongs to, from Ensembl's
        // cross-references. Unmistakable ones (RefSeq, HGNC, NCBI Gene, OMIM) skip free
        // text, which would add unrelated hits; a UniProt-like query may be a symbol
        // (B3GAT1), so it is searched as one too.
        let external = external_id(query);
        let id_only = external.as_ref().filter(|x| x.kind != "UniProt");
        let exact = async {
            match &external {
                Some(x) => {
                    self.ensembl
                        .gene_ids_for_xref(symbol_species, &x.text, x.external_db)
                        .await
                }
                None if looks_like_symbol(query) => {
                    self.ensembl
                        .gene_ids_for_symbol(symbol_species, query)
                        .await
                }
                None => Ok(Vec::new()),
            }
        };
        let text = async {
            if id_only.is_some() {
                return Ok(GeneSearch {
                    result: EbiSearchResult {
                        hit_count: Some(0),
                        entries: Vec::new(),
                    },
                    species_clause_dropped: false,
                });
            }
            self.ebi_search
                .search_genes(
                    query,
                    species
                        .as_ref()
                        .filter(|_| !position.a)
                        .map(|s| s.scientific_name.as_str()),
                    position.e,
                    text_request_size(page_size),
                )
                .await
        };
        let (exact, text) = tokio::join!(exact, text);
        let (exact, text) = (exact?, text?);
        let position = Position {
            a: position.a || text.species_clause_dropped,
            ..position
        };

        let plan = PagePlan::new(position, page_size, &exact, text.result, species.as_ref());
        let wanted = plan.lookup_ids();
        let genes = if wanted.is_empty() {
            HashMap::new()
        } else {
            self.ensembl.lookup_many(&wanted).await?
        };
        let mut items = plan.items(&genes, query);
        if id_only.is_some() {
            // The identifier is the gene's: as exact as a symbol.
            for item in &mut items {
                item.score = SCORE_SYMBOL;
            }
        }
        let cursor = plan.has_more.then(|| cursor::encode(&scope, &plan.next));
        Ok(Json(PaginationEnvelope::new(
            items, cursor, plan.total, page_size,
        )))
    }
}

/// How many EBI Search hits a page asks for.
fn text_request_size(page_size: u32) -> u32 {
    (page_size + SLACK).min(MAX_EBI_PAGE)
}

/// One page of results, planned from the two upstream answers before the batch look-up
/// completes it.
#[derive(Debug)]
struct PagePlan {
    /// Every exact match, deduplicated, in upstream order.
    exact_ids: Vec<String>,
    /// Exact matches already shown on earlier pages.
    skip_exact: usize,
    /// Exact matches on this page.
    shown_exact: usize,
    /// Free-text hits on this page, with their global rank.
    hits: Vec<(u64, String, EbiEntry)>,
    /// Where the next page starts.
    next: Position,
    has_more: bool,
    /// EBI Search's `hitCount` when there is no exact match; with exact matches neither
    /// upstream knows the merged total, and after the species clause was dropped the
    /// count is that of all species.
    total: Option<u64>,
}

impl PagePlan {
    fn new(
        position: Position,
        page_size: u32,
        exact: &[String],
        text: EbiSearchResult,
        species: Option<&Species>,
    ) -> Self {
        let mut exact_ids: Vec<String> = Vec::new();
        for id in exact.iter().filter_map(|id| gene_id(id)) {
            if !exact_ids.contains(&id) && exact_ids.len() < MAX_EXACT {
                exact_ids.push(id);
            }
        }
        let exact_set: HashSet<String> = exact_ids.iter().cloned().collect();
        let shown_exact = exact_ids
            .len()
            .saturating_sub(position.x)
            .min(page_size as usize);
        let room = page_size as usize - shown_exact;

        let fetched = text.entries.len();
        let (hits, examined) = take_text_hits(text.entries, position.e, room, &exact_set, species);
        let next = Position {
            x: position.x + shown_exact,
            e: position.e + examined as u64,
            a: position.a,
        };
        // An empty answer ends the list even if `hitCount` promised more: a cursor that
        // cannot advance would send an agent round in circles.
        let more_text = fetched > 0
            && (examined < fetched
                || match text.hit_count {
                    Some(total) => next.e < total,
                    None => fetched as u32 >= text_request_size(page_size),
                });
        Self {
            has_more: next.x < exact_ids.len() || more_text,
            total: if exact_ids.is_empty() && !position.a {
                text.hit_count
            } else {
                None
            },
            skip_exact: position.x,
            exact_ids,
            shown_exact,
            hits,
            next,
        }
    }

    /// The IDs the batch look-up must complete: every exact match while some remain to
    /// be shown (their order depends on their symbols), and the text hits.
    fn lookup_ids(&self) -> Vec<String> {
        let exact = if self.shown_exact > 0 {
            self.exact_ids.as_slice()
        } else {
            &[]
        };
        exact
            .iter()
            .cloned()
            .chain(self.hits.iter().map(|(_, id, _)| id.clone()))
            .collect()
    }

    /// The page's candidates, best first.
    fn items(&self, genes: &HashMap<String, LookupObject>, query: &str) -> Vec<GeneCandidate> {
        let mut exact: Vec<GeneCandidate> = if self.shown_exact > 0 {
            self.exact_ids
                .iter()
                .map(|id| exact_candidate(id, genes.get(id), query))
                .collect()
        } else {
            Vec::new()
        };
        // Stable: symbol matches before synonym matches, upstream order otherwise.
        exact.sort_by(|a, b| b.score.total_cmp(&a.score));
        exact
            .into_iter()
            .skip(self.skip_exact)
            .take(self.shown_exact)
            .chain(
                self.hits.iter().map(|(rank, id, entry)| {
                    text_candidate(*rank, id.clone(), entry, genes.get(id))
                }),
            )
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(id: &str, species: &str) -> EbiEntry {
        serde_json::from_value(json!({"id": id, "fields": {"species": [species]}})).unwrap()
    }

    #[test]
    fn text_scores_start_below_exact_matches_and_never_rise() {
        assert_eq!(text_score(0), 0.8);
        assert!(text_score(0) < SCORE_SYNONYM);
        let scores: Vec<f64> = (0..500).map(text_score).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]));
        assert!(scores.iter().all(|s| (0.0..=1.0).contains(s)));
        assert_eq!(text_score(20), 0.4);
    }

    #[test]
    fn text_hits_skip_exact_matches_other_species_and_non_genes() {
        let human = Species {
            production_name: "homo_sapiens".into(),
            scientific_name: "Homo sapiens".into(),
        };
        let entries = vec![
            entry("ENSG00000012048", "Homo sapiens"),
            entry("ENSMUSG00000017146", "Mus musculus"),
            entry("ENST00000357654", "Homo sapiens"),
            entry("ENSG00000138376", "Homo sapiens"),
            entry("ENSG00000138376", "Homo sapiens"),
            entry("ENSG00000136492", "Homo sapiens"),
            entry("ENSG00000089234", "Homo sapiens"),
        ];
        let exact: HashSet<String> = ["ENSG00000012048".to_owned()].into();
        let (taken, examined) = take_text_hits(entries, 10, 2, &exact, Some(&human));
        let got: Vec<(u64, &str)> = taken.iter().map(|(r, id, _)| (*r, id.as_str())).collect();
        assert_eq!(got, [(13, "ENSG00000138376"), (15, "ENSG00000136492")]);
        // Examined through the last hit taken: the next page starts after it.
        assert_eq!(examined, 6);
    }

    /// Walk every page of a simulated upstream pair and check the list: each gene once,
    /// exact matches first, full pages until the last, and an end.
    fn walk(exact: &[&str], text: &[&str], hit_count_known: bool, page_size: u32) -> Vec<String> {
        let genes: HashMap<String, LookupObject> = exact
            .iter()
            .map(|id| {
                let symbol = if id.ends_with('1') { "QUERY" } else { "OTHER" };
                let gene = serde_json::from_value(json!({"display_name": symbol})).unwrap();
                ((*id).to_owned(), gene)
            })
            .collect();
        let exact: Vec<String> = exact.iter().map(|s| (*s).to_owned()).collect();
        let mut position = Position::default();
        let mut listed: Vec<String> = Vec::new();
        for _ in 0..100 {
            let size = text_request_size(page_size) as usize;
            let entries: Vec<EbiEntry> = text
                .iter()
                .skip(position.e as usize)
                .take(size)
                .map(|id| entry(id, "Homo sapiens"))
                .collect();
            let answer = EbiSearchResult {
                hit_count: hit_count_known.then_some(text.len() as u64),
                entries,
            };
            let plan = PagePlan::new(position, page_size, &exact, answer, None);
            let items = plan.items(&genes, "query");
            assert!(items.len() <= page_size as usize);
            listed.extend(items.iter().map(|i| i.id.clone()));
            if !plan.has_more {
                return listed;
            }
            assert_eq!(
                items.len(),
                page_size as usize,
                "only the last page is short"
            );
            position = plan.next;
        }
        panic!("the cursor never ended");
    }

    #[test]
    fn walking_the_pages_lists_each_gene_once_exact_matches_first() {
        let text = [
            "ENSG00000000002",
            "ENSG00000000011",
            "ENST00000000001",
            "ENSG00000000003",
            "ENSG00000000004",
            "ENSG00000000005",
            "ENSG00000000006",
        ];
        let cases: [&[&str]; 4] = [
            &[],
            &["ENSG00000000011"],
            &["ENSG00000000010", "ENSG00000000011", "ENSG00000000003"],
            &["ENSG00000000011", "ENSG00000000011", "ENST00000000009"],
        ];
        for exact in cases {
            let mut expected: Vec<String> = Vec::new();
            // Symbol matches (ending in 1 here) before synonym matches, then the text.
            let mut sorted: Vec<&str> = exact
                .iter()
                .copied()
                .filter(|i| i.starts_with("ENSG"))
                .collect();
            sorted.sort_by_key(|i| !i.ends_with('1'));
            for id in sorted
                .into_iter()
                .chain(text.iter().copied().filter(|i| i.starts_with("ENSG")))
            {
                if !expected.iter().any(|e| e == id) {
                    expected.push(id.to_owned());
                }
            }
            for page_size in 1..=7 {
                for known in [true, false] {
                    assert_eq!(
                        walk(exact, &text, known, page_size),
                        expected,
                        "exact {exact:?}, page size {page_size}, hitCount known: {known}"
                    );
                }
            }
        }
    }

    #[test]
    fn once_the_species_clause_is_dropped_the_total_is_unknown_and_it_stays_dropped() {
        let human = Species {
            production_name: "homo_sapiens".into(),
            scientific_name: "Homo sapiens".into(),
        };
        let answer = || EbiSearchResult {
            hit_count: Some(6),
            entries: vec![
                entry("ENSG00000141510", "Homo sapiens"),
                entry("ENSMUSG00000060126", "Mus musculus"),
                entry("ENSG00000073282", "Homo sapiens"),
            ],
        };
        let scoped = PagePlan::new(Position::default(), 2, &[], answer(), Some(&human));
        assert_eq!(scoped.total, Some(6));
        assert!(!scoped.next.a);
        let dropped = Position {
            a: true,
            ..Position::default()
        };
        let plan = PagePlan::new(dropped, 2, &[], answer(), Some(&human));
        assert_eq!(plan.total, None, "hitCount counts every species");
        assert_eq!(
            plan.next,
            Position {
                x: 0,
                e: 3,
                a: true
            }
        );
        assert!(plan.has_more);
        // Cursors without the flag (all earlier ones) still read, and it is omitted
        // when false.
        assert_eq!(
            serde_json::to_value(Position {
                x: 1,
                e: 2,
                a: false
            })
            .unwrap(),
            json!({"x": 1, "e": 2})
        );
        let old: Position = serde_json::from_value(json!({"x": 1, "e": 2})).unwrap();
        assert!(!old.a);
    }

    #[test]
    fn exact_matches_score_by_symbol_or_synonym() {
        let tp53: LookupObject = serde_json::from_value(json!({"display_name": "TP53",
            "description": "tumor protein p53 [Source:HGNC Symbol;Acc:HGNC:11998]",
            "biotype": "protein_coding", "species": "homo_sapiens"}))
        .unwrap();
        let symbol = exact_candidate("ENSG00000141510", Some(&tp53), "tp53");
        assert_eq!(symbol.score, SCORE_SYMBOL);
        assert_eq!(symbol.name.as_deref(), Some("tumor protein p53"));
        let synonym = exact_candidate("ENSG00000141510", Some(&tp53), "p53");
        assert_eq!(synonym.score, SCORE_SYNONYM);
        let unknown = exact_candidate("ENSG00000141510", None, "p53");
        assert_eq!(unknown.symbol, None);
    }

    #[test]
    fn other_databases_identifiers_are_recognised() {
        let read = |q: &str| external_id(q).map(|x| (x.kind, x.external_db, x.text));
        assert_eq!(read("P04637"), Some(("UniProt", None, "P04637".into())));
        assert_eq!(
            read("a0a024r161"),
            Some(("UniProt", None, "A0A024R161".into()))
        );
        assert_eq!(
            read("NM_000546.6"),
            Some(("RefSeq", None, "NM_000546".into()))
        );
        assert_eq!(
            read("NP_000537"),
            Some(("RefSeq", None, "NP_000537".into()))
        );
        assert_eq!(
            read("hgnc:11998"),
            Some(("HGNC", Some("HGNC"), "HGNC:11998".into()))
        );
        assert_eq!(
            read("7157"),
            Some(("NCBI Gene", Some("EntrezGene"), "7157".into()))
        );
        assert_eq!(
            read("OMIM:191170"),
            Some(("OMIM", Some("MIM_GENE"), "191170".into()))
        );
        // A symbol shaped like an accession is read as one, and searched as a symbol too.
        assert_eq!(read("B3GAT1"), Some(("UniProt", None, "B3GAT1".into())));
        assert_eq!(
            read("p04637-2"),
            Some(("UniProt", None, "P04637-2".into()))
        );
        for symbol in ["TP53", "BRCA1", "p53", "tumor protein", "ENSG00000141510"] {
            assert_eq!(read(symbol), None, "{symbol}");
        }
    }

    /// A form is assumed only when the whole query matches it: a gene's name with a dot
    /// (`AL033381.1`, ENSG00000176515's), a symbol of six letters and digits, or a RefSeq
    /// prefix followed by anything but a version is searched as written.
    #[test]
    fn only_a_whole_match_is_another_databases_identifier() {
        for query in [
            "AL033381.1",
            "AL033381",
            "CYP2D6",
            "ADORA2A",
            "P04637.2",
            "NM_000546.6a",
            "NM_000546.",
            "NM_",
            "HGNC:11998x",
            "OMIM:19117",
        ] {
            assert_eq!(external_id(query), None, "{query}");
        }
    }

    #[test]
    fn free_text_skips_the_symbol_request() {
        assert!(looks_like_symbol("BRCA1"));
        assert!(looks_like_symbol("HLA-A"));
        assert!(!looks_like_symbol("tumor protein"));
    }

    #[test]
    fn species_may_be_a_name_or_a_number() {
        let args: SearchGenesArgs =
            lifesciences_core::args::decode_arguments(json!({"query": "TP53", "species": 9606}))
                .unwrap();
        assert_eq!(args.species.as_deref(), Some("9606"));
        let err = lifesciences_core::args::decode_arguments::<SearchGenesArgs>(
            json!({"query": "TP53", "species": ["human"]}),
        )
        .unwrap_err();
        let message = err.to_envelope().error.message;
        assert!(
            message.contains("a species name or an NCBI taxon id"),
            "{message}"
        );
    }
}
