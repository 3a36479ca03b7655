//! `uniprot_search_proteins`: a gene in an organism, or words → UniProtKB entries in
//! lean rows, reviewed entries first, with UniProt's total and a cursor that reaches every
//! row. The reviewed and unreviewed entries are two searches (asked at once for the
//! first page); a cursor holds UniProt's own next-page URL, and the next section when
//! the reviewed ones run out.

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Pagination, Parameters, Reply, SearchQuery, cursor, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::client::{Page, Refusal, Search, Section};
use crate::ids::{Organism, OrganismArg};
use crate::models::{Entry, SearchResults};
use crate::protein::gene;
use crate::server::UniprotServer;

/// Arguments of `uniprot_search_proteins`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchProteinsArgs {
    /// Words or UniProt query syntax, e.g. `adenosine receptor` or `keyword:KW-0675 AND
    /// length:[300 TO 400]`. Optional when `gene` or `organism` is given.
    #[serde(default)]
    pub query: Option<String>,
    /// A gene symbol, matched exactly (then, if no entry has it exactly, as any gene name
    /// or synonym), e.g. `ADORA1`.
    #[serde(default)]
    pub gene: Option<String>,
    /// NCBI taxon (9606) or organism name (`human`, `mouse`, `Saccharomyces cerevisiae`).
    #[serde(default)]
    pub organism: Option<OrganismArg>,
    /// Only reviewed (Swiss-Prot) entries. Otherwise reviewed entries come first, then
    /// unreviewed ones.
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub reviewed_only: Option<bool>,
    /// Rows per page, 1–100 (later pages keep the first page's size).
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 100), extend("default" = 10))]
    pub limit: Option<u32>,
    /// `pagination.cursor` of the previous page of the same search; omit for the first.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// A UniProtKB entry matching the search.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct ProteinRow {
    /// What `uniprot_get_protein` takes, e.g. `P30542`.
    pub accession: String,
    /// E.g. `AA1R_HUMAN`.
    pub entry_name: Option<String>,
    /// Reviewed (Swiss-Prot) or not.
    pub reviewed: Option<bool>,
    /// Recommended (or submitted) protein name.
    pub name: Option<String>,
    pub gene: Option<String>,
    pub organism: Option<String>,
    pub taxon_id: Option<u64>,
    pub length: Option<u32>,
    /// UniProt's annotation score, 1–5.
    pub annotation_score: Option<u8>,
}

/// A page of matching entries.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct SearchResult {
    /// Reviewed entries first, then unreviewed ones, each in UniProt's order.
    pub items: Vec<ProteinRow>,
    /// Said when the gene matched no entry exactly and the rows match it as another gene
    /// name or synonym.
    pub note: Option<String>,
    pub pagination: Pagination,
}

/// Where the next page starts, and what every page reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Position {
    #[serde(rename = "s")]
    section: Section,
    /// UniProt's next page of the section; absent: the section's first page.
    #[serde(rename = "u", default, skip_serializing_if = "Option::is_none")]
    next: Option<String>,
    /// Whether unreviewed entries follow the reviewed ones.
    #[serde(rename = "m", default)]
    more_unreviewed: bool,
    #[serde(rename = "t", default, skip_serializing_if = "Option::is_none")]
    total: Option<u64>,
    /// The page size of the first page, which UniProt's next-page URLs keep.
    #[serde(rename = "z")]
    size: u32,
    /// The gene is matched as any gene name (nothing matched it exactly).
    #[serde(rename = "g", default)]
    any_gene_name: bool,
}

/// A search row from an entry cut to the search fields.
fn row(e: &Entry) -> ProteinRow {
    let names = e.protein_description.as_ref();
    let name = names
        .and_then(|d| d.recommended_name.as_ref().or_else(|| d.submission_names.first()))
        .and_then(|n| n.full_name.as_ref())
        .map(|f| f.value.clone());
    ProteinRow {
        accession: e.primary_accession.clone(),
        entry_name: e.uni_protkb_id.clone(),
        reviewed: e.reviewed(),
        name,
        gene: gene(e).0,
        organism: e.organism.as_ref().and_then(|o| o.scientific_name.clone()),
        taxon_id: e.organism.as_ref().and_then(|o| o.taxon_id),
        length: e.sequence.as_ref().and_then(|s| s.length),
        annotation_score: e
            .annotation_score
            .filter(|s| (1.0..=5.0).contains(s))
            .map(|s| s.round() as u8),
    }
}

/// A page, or UniProt's refusal of the query as `INVALID_INPUT` in its words.
fn page_of(
    reply: Reply<Page<SearchResults>, Refusal>,
    sent: &str,
) -> Result<Page<SearchResults>, ApiError> {
    match reply {
        Reply::Found(page) => Ok(page),
        Reply::Missing => Ok(Page {
            body: SearchResults {
                results: Vec::new(),
            },
            total: Some(0),
            next: None,
        }),
        Reply::Refused(refusal) => Err(ApiError::invalid_input(
            format!("UniProt could not run the search: {}.", refusal.words().trim_end_matches('.')),
            "Check the query against UniProt's syntax (https://www.uniprot.org/help/query-fields): \
             field names such as gene_exact:, organism_id:, keyword:; AND, OR, NOT in upper \
             case; balanced parentheses and quotes.",
            sent,
        )),
    }
}

/// An optional text argument, trimmed; empty is "not given", as for every argument.
fn given(text: Option<&str>) -> Option<&str> {
    text.map(str::trim).filter(|t| !t.is_empty())
}

/// What one page found: its rows, UniProt's total, where the next page starts.
struct Found {
    rows: Vec<ProteinRow>,
    total: Option<u64>,
    next: Option<Position>,
}

impl UniprotServer {
    /// The first page: reviewed and unreviewed entries asked at once (or the one section
    /// asked), the reviewed rows shown first and the unreviewed ones after them.
    async fn first_page(&self, search: &Search, size: u32, sent: &str) -> Result<Found, ApiError> {
        let position = |section, next, more_unreviewed, total| Position {
            section,
            next,
            more_unreviewed,
            total,
            size,
            any_gene_name: search.any_gene_name,
        };
        if let [section] = search.sections() {
            let page = page_of(self.uniprot.search(&search.query(*section)?, size).await?, sent)?;
            return Ok(Found {
                rows: page.body.results.iter().map(row).collect(),
                total: page.total,
                next: page.next.map(|n| position(*section, Some(n), false, page.total)),
            });
        }
        let (reviewed_q, unreviewed_q) = (search.query(Section::Reviewed)?, search.query(Section::Unreviewed)?);
        let (reviewed, unreviewed) = futures::join!(
            self.uniprot.search(&reviewed_q, size),
            self.uniprot.search(&unreviewed_q, size)
        );
        let (reviewed, unreviewed) = (page_of(reviewed?, sent)?, page_of(unreviewed?, sent)?);
        let total = reviewed.total.zip(unreviewed.total).map(|(a, b)| a + b);
        let more_unreviewed = !unreviewed.body.results.is_empty();
        if reviewed.body.results.is_empty() {
            return Ok(Found {
                rows: unreviewed.body.results.iter().map(row).collect(),
                total,
                next: unreviewed
                    .next
                    .map(|n| position(Section::Unreviewed, Some(n), false, total)),
            });
        }
        let next = match reviewed.next {
            Some(n) => Some(position(Section::Reviewed, Some(n), more_unreviewed, total)),
            None if more_unreviewed => Some(position(Section::Unreviewed, None, false, total)),
            None => None,
        };
        Ok(Found {
            rows: reviewed.body.results.iter().map(row).collect(),
            total,
            next,
        })
    }

    /// A later page: UniProt's next page of the section, or the unreviewed section's first.
    async fn later_page(&self, search: &Search, at: Position, sent: &str) -> Result<Found, ApiError> {
        let reply = match &at.next {
            Some(url) => self.uniprot.search_next(url).await?,
            None => self.uniprot.search(&search.query(at.section)?, at.size).await?,
        };
        let page = page_of(reply, sent)?;
        let next = match page.next {
            Some(n) => Some(Position {
                next: Some(n),
                ..at.clone()
            }),
            None if at.section == Section::Reviewed && at.more_unreviewed => Some(Position {
                section: Section::Unreviewed,
                next: None,
                more_unreviewed: false,
                ..at.clone()
            }),
            None => None,
        };
        Ok(Found {
            rows: page.body.results.iter().map(row).collect(),
            total: at.total,
            next,
        })
    }

    /// Find UniProtKB entries: gene X in organism Y (exact symbol first), or words and
    /// UniProt query syntax; reviewed (Swiss-Prot) entries first, lean rows, UniProt's
    /// total and a cursor to every row. Example: `{"gene": "ADORA1", "organism": "human"}`.
    #[tool(
        title = "Search UniProt proteins",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn uniprot_search_proteins(
        &self,
        Parameters(args): Parameters<SearchProteinsArgs>,
    ) -> Result<Json<SearchResult>, ApiError> {
        let args = args?;
        let text = given(args.query.as_deref())
            .map(|q| SearchQuery::parse(q).map(|q| q.as_str().to_owned()))
            .transpose()?;
        let gene = given(args.gene.as_deref()).map(str::to_owned);
        let organism = args.organism.as_ref().map(|o| Organism::parse(&o.0)).transpose()?;
        if let Some(gene) = &gene {
            Search::gene_term(gene, false)?;
        }
        if text.is_none() && gene.is_none() && organism.is_none() {
            return Err(ApiError::invalid_input(
                "uniprot_search_proteins needs something to search for.",
                "Give 'gene' (and 'organism'), e.g. {\"gene\": \"ADORA1\", \"organism\": \
                 \"human\"}, or words in 'query'.",
                "",
            ));
        }
        let limit = in_range("limit", args.limit, 1, 100, 10)?;
        let mut search = Search {
            text,
            gene,
            any_gene_name: false,
            organism,
            reviewed_only: args.reviewed_only.unwrap_or(false),
        };
        let scope = format!(
            "uniprot_search_proteins|{:?}|{:?}|{:?}|{}",
            search.text, search.gene, search.organism, search.reviewed_only
        );
        let sent = [search.text.as_deref(), search.gene.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        let mut note = None;
        let found = match &args.cursor {
            Some(c) => {
                let at: Position = cursor::decode(c, &scope)?;
                search.any_gene_name = at.any_gene_name;
                self.later_page(&search, at, &sent).await?
            }
            None => {
                let exact = self.first_page(&search, limit, &sent).await?;
                if search.gene.is_some() && exact.total == Some(0) {
                    search.any_gene_name = true;
                    let any = self.first_page(&search, limit, &sent).await?;
                    if !any.rows.is_empty() {
                        note = search.gene.as_ref().map(|g| {
                            format!(
                                "No entry has the gene name {g} exactly; these have it as \
                                 another gene name or a synonym."
                            )
                        });
                    }
                    any
                } else {
                    exact
                }
            }
        };
        let page_size = match &args.cursor {
            Some(_) => found.next.as_ref().map_or(limit, |n| n.size),
            None => limit,
        };
        Ok(Json(SearchResult {
            items: found.rows,
            note,
            pagination: Pagination {
                cursor: found.next.map(|n| cursor::encode(&scope, &n)),
                total_count: found.total,
                page_size,
            },
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::tests::fixture;

    #[test]
    fn rows_are_lean_and_name_what_get_protein_takes() {
        let page: SearchResults =
            serde_json::from_str(&fixture("uniprotkb_search__F1MAB7_OR_O14975.json")).unwrap();
        let rows: Vec<ProteinRow> = page.results.iter().map(row).collect();
        let human = &rows[1];
        assert_eq!(human.accession, "O14975");
        assert_eq!(human.entry_name.as_deref(), Some("S27A2_HUMAN"));
        assert_eq!(human.reviewed, Some(true));
        assert_eq!(human.gene.as_deref(), Some("SLC27A2"));
        assert_eq!((human.organism.as_deref(), human.taxon_id), (Some("Homo sapiens"), Some(9606)));
        assert_eq!(human.annotation_score, Some(5));
        for r in &rows {
            let size = serde_json::to_string(r).unwrap().len();
            assert!(size < 300, "{size} bytes: {r:?}");
        }
    }

    #[test]
    fn a_position_round_trips_through_a_cursor_and_stays_small() {
        let at = Position {
            section: Section::Reviewed,
            next: Some(
                "https://rest.uniprot.org/uniprotkb/search?fields=accession,id&query=gene_exact%3AFUBP3\
                 &cursor=1bq1yslaqtbf8zsosc0nw4cegwj849rqlpnky4i03v5ygve7nh&size=10"
                    .into(),
            ),
            more_unreviewed: true,
            total: Some(999),
            size: 10,
            any_gene_name: false,
        };
        let c = cursor::encode("scope", &at);
        assert_eq!(cursor::decode::<Position>(&c, "scope").unwrap(), at);
        assert!(c.len() < 400, "{} characters", c.len());
        assert!(cursor::decode::<Position>(&c, "another search").is_err());
    }

    #[test]
    fn a_refusal_is_invalid_input_in_uniprot_s_words() {
        let refusal = Refusal {
            said: vec!["'nosuchfield' is not a valid search field".into()],
        };
        let e = page_of(Reply::Refused(refusal), "nosuchfield:abc")
            .unwrap_err()
            .to_envelope()
            .error;
        assert_eq!(
            e.message,
            "UniProt could not run the search: 'nosuchfield' is not a valid search field."
        );
        assert_eq!(e.invalid_input.as_deref(), Some("nosuchfield:abc"));
    }
}
