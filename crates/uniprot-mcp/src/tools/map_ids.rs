//! `uniprot_map_ids`: identifiers → their equivalents through UniProt's ID-mapping
//! service: the job is submitted (`POST /idmapping/run`), its status polled with waits
//! that grow to 3 s, for at most `UNIPROT_MAPPING_WAIT_SECS` (25 s), until UniProt
//! redirects to the results, and the results read a page at a time. A cursor holds
//! UniProt's next-page URL, so later pages neither submit nor poll.

use std::time::Duration;

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{
    ApiError, Pagination, Parameters, Reply, UpstreamFailure, cursor, in_range, lenient,
};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::client::{Database, JobState, MappingJob, Page, Refusal, check_pair};
use crate::ids::{Organism, OrganismArg};
use crate::models::{MappingResults, MappingTarget};
use crate::protein::gene;
use crate::server::UniprotServer;
use crate::xrefs::unversioned;

/// The most identifiers one call maps.
const MAX_IDS: usize = 1000;
/// The most unmapped identifiers listed (`unmapped_count` gives them all).
const UNMAPPED_MAX: usize = 100;

/// The waits before each poll of a job's status: none first (UniProt reuses a finished
/// job: the same request answers at once), then growing to 3 s, every 3 s after that,
/// all within `budget` (`UNIPROT_MAPPING_WAIT_SECS`, 25 s by default).
fn poll_waits(budget: Duration) -> Vec<Duration> {
    const FIRST_MS: [u64; 6] = [0, 500, 1000, 1000, 2000, 2000];
    let mut waits = Vec::new();
    let mut total = Duration::ZERO;
    for ms in FIRST_MS.iter().copied().chain(std::iter::repeat(3000)) {
        let wait = Duration::from_millis(ms).min(budget.saturating_sub(total));
        if wait.is_zero() && !waits.is_empty() {
            break;
        }
        total += wait;
        waits.push(wait);
    }
    waits
}

/// Arguments of `uniprot_map_ids`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MapIdsArgs {
    /// 1–1000 identifiers of the `from` database, e.g. `["P30542", "O00115"]`.
    #[serde(deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>", length(min = 1, max = 1000))]
    pub ids: Vec<String>,
    /// Database of `ids`; default `uniprot` (accessions or entry names). `ensembl` is
    /// genes (ENSG), `ncbi_gene` Entrez IDs, `embl` EMBL/GenBank/DDBJ accessions.
    #[serde(default)]
    #[schemars(extend("default" = "uniprot"))]
    pub from: Option<Database>,
    /// Database to map to; when `from` is another database, `uniprot` unless given. One
    /// side must be `uniprot`, or `uniprot_reviewed` (Swiss-Prot only) as `to`.
    #[serde(default)]
    pub to: Option<Database>,
    /// NCBI taxon of gene names (`from: gene_name` only), e.g. 9606; without it gene
    /// names map in every organism.
    #[serde(default)]
    pub organism: Option<OrganismArg>,
    /// Pairs per page, 1–500.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 500), extend("default" = 100))]
    pub limit: Option<u32>,
    /// `pagination.cursor` of the previous page of the same mapping; omit for the first.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// One pair.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Mapping {
    /// As asked.
    pub from: String,
    /// Its equivalent: a UniProt accession, or an ID of the `to` database (Ensembl IDs
    /// without their version).
    pub to: String,
    /// For UniProt targets: the entry name, whether reviewed, the gene and the taxon.
    pub entry_name: Option<String>,
    pub reviewed: Option<bool>,
    pub gene: Option<String>,
    pub taxon_id: Option<u64>,
}

/// An identifier UniProt suggests for one it could not map.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Suggestion {
    pub from: String,
    pub to: String,
}

/// A page of a mapping.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct MapIdsResult {
    pub from: String,
    pub to: String,
    /// The pairs of this page; an identifier may map to several.
    pub mappings: Vec<Mapping>,
    /// Identifiers that map to nothing (on the first page; the first 100).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmapped: Vec<String>,
    /// How many identifiers map to nothing, when more than are listed.
    pub unmapped_count: Option<usize>,
    /// UniProt's suggestions for identifiers it could not map (e.g. obsolete ones).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suggested: Vec<Suggestion>,
    /// How many identifiers mapped to obsolete entries only.
    pub obsolete_count: Option<u64>,
    /// UniProt's warnings about the job.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    pub pagination: Pagination,
}

/// Where the next page is: UniProt's URL of it, and what every page reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Position {
    #[serde(rename = "u")]
    next: String,
    #[serde(rename = "t", default, skip_serializing_if = "Option::is_none")]
    total: Option<u64>,
    #[serde(rename = "z")]
    size: u32,
}

/// The pairs of a page; Ensembl targets without their versions.
fn mappings(page: &MappingResults, to: Database) -> Vec<Mapping> {
    page.results
        .iter()
        .map(|r| match &r.to {
            MappingTarget::Id(id) => Mapping {
                from: r.from.clone(),
                to: if to.is_ensembl() {
                    unversioned(id).to_owned()
                } else {
                    id.clone()
                },
                entry_name: None,
                reviewed: None,
                gene: None,
                taxon_id: None,
            },
            MappingTarget::Entry(e) => Mapping {
                from: r.from.clone(),
                to: e.primary_accession.clone(),
                entry_name: e.uni_protkb_id.clone(),
                reviewed: e.reviewed(),
                gene: gene(e).0,
                taxon_id: e.organism.as_ref().and_then(|o| o.taxon_id),
            },
        })
        .collect()
}

/// The result of one page; the first page also lists what did not map.
fn result(
    from: Database,
    to: Database,
    page: Page<MappingResults>,
    size: u32,
    total: Option<u64>,
    first: bool,
    scope: &str,
) -> MapIdsResult {
    let body = &page.body;
    let failed = if first { body.failed_ids.clone() } else { Vec::new() };
    let unmapped_count = (failed.len() > UNMAPPED_MAX).then_some(failed.len());
    let next = page.next.clone().map(|next| Position { next, total, size });
    MapIdsResult {
        from: from.name().to_owned(),
        to: to.name().to_owned(),
        mappings: mappings(body, to),
        unmapped: failed.into_iter().take(UNMAPPED_MAX).collect(),
        unmapped_count,
        suggested: if first {
            body.suggested_ids
                .iter()
                .filter_map(|s| {
                    Some(Suggestion {
                        from: s.from.clone()?,
                        to: s.to.clone()?,
                    })
                })
                .collect()
        } else {
            Vec::new()
        },
        obsolete_count: body.obsolete_count.filter(|n| first && *n > 0),
        warnings: body.warnings.iter().filter_map(|w| w.message.clone()).collect(),
        pagination: Pagination {
            cursor: next.map(|n| cursor::encode(scope, &n)),
            total_count: total,
            page_size: size,
        },
    }
}

/// UniProt's refusal of a job or a page, as `INVALID_INPUT` in its words.
fn refused(refusal: &Refusal, ids: &[String]) -> ApiError {
    ApiError::invalid_input(
        format!("UniProt refused the mapping: {}.", refusal.words().trim_end_matches('.')),
        "Check that the identifiers are of the 'from' database, and send at most 1000.",
        ids.join(", "),
    )
}

impl UniprotServer {
    /// Submit the job and wait for it to finish: the URL of its results.
    async fn finished_job(&self, job: &MappingJob<'_>) -> Result<String, ApiError> {
        let job_id = match self.uniprot.run_mapping(job).await? {
            Reply::Found(id) => id,
            Reply::Refused(refusal) => return Err(refused(&refusal, job.ids)),
            Reply::Missing => {
                return Err(ApiError::from_failure(
                    "UniProt",
                    UpstreamFailure::Status {
                        status: 404,
                        body: "no ID-mapping service at /idmapping/run".into(),
                        retry_after: None,
                    },
                    1,
                ));
            }
        };
        let mut waited = Duration::ZERO;
        for wait in poll_waits(self.uniprot.mapping_wait()) {
            tokio::time::sleep(wait).await;
            waited += wait;
            match self.uniprot.job_status(job, &job_id).await? {
                JobState::Running => {}
                JobState::Finished { results } => return Ok(results),
                JobState::Refused(refusal) => return Err(refused(&refusal, job.ids)),
                JobState::Failed { said } => {
                    return Err(ApiError::upstream_said(
                        "UniProt",
                        format!("UniProt's ID-mapping job {job_id} failed (status {said})."),
                        "Check that the identifiers are of the 'from' database, then call \
                         again: UniProt runs a failed job anew. If it fails again, map fewer \
                         identifiers at a time.",
                    ));
                }
            }
        }
        // The job goes on: the same request is the same job, so a later call finds it.
        Err(ApiError::upstream_said(
            "UniProt",
            format!(
                "UniProt's ID-mapping job {job_id} was still running after {:.0} s.",
                waited.as_secs_f64()
            ),
            "Call uniprot_map_ids again with the same arguments in a minute: UniProt goes on \
             with the job, and the same request finds it (at once when it has finished). \
             Fewer identifiers finish sooner.",
        ))
    }

    /// Map identifiers between UniProt and Ensembl, RefSeq, gene names, NCBI Gene, HGNC,
    /// OMIM, PDB, ChEMBL, STRING and others: pairs, what did not map, a cursor. Example:
    /// `{"ids": ["P30542"], "to": "ensembl"}` → P30542 → ENSG00000163485.
    #[tool(
        title = "Map identifiers through UniProt",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn uniprot_map_ids(
        &self,
        Parameters(args): Parameters<MapIdsArgs>,
    ) -> Result<Json<MapIdsResult>, ApiError> {
        let args = args?;
        let mut ids: Vec<String> = Vec::new();
        for id in &args.ids {
            let id = id.trim();
            let bare = ["UniProtKB:", "UniProt:"]
                .iter()
                .find_map(|p| id.get(..p.len()).filter(|h| h.eq_ignore_ascii_case(p)).map(|_| &id[p.len()..]))
                .unwrap_or(id);
            if !bare.is_empty() && !ids.iter().any(|known| known == bare) {
                ids.push(bare.to_owned());
            }
        }
        if ids.is_empty() || ids.len() > MAX_IDS {
            return Err(ApiError::invalid_input(
                format!("uniprot_map_ids takes 1 to {MAX_IDS} identifiers; got {}.", ids.len()),
                "Send the identifiers in calls of at most 1000.",
                format!("{} ids", ids.len()),
            ));
        }
        let from = args.from.unwrap_or(Database::Uniprot);
        let to = match (args.to, from.is_uniprot()) {
            (Some(to), _) => to,
            (None, false) => Database::Uniprot,
            (None, true) => {
                return Err(ApiError::invalid_input(
                    "uniprot_map_ids needs 'to' when mapping from UniProt.",
                    "Name the database, e.g. {\"ids\": [\"P30542\"], \"to\": \"ensembl\"}.",
                    "",
                ));
            }
        };
        let taxon = match &args.organism {
            Some(o) => match Organism::parse(&o.0)? {
                Organism::Taxon(t) => Some(t),
                Organism::Name(name) => {
                    return Err(ApiError::invalid_input(
                        format!("UniProt's ID mapping takes an NCBI taxon, not the name '{name}'."),
                        "Give the taxon number, e.g. 9606 for human, 10090 for mouse.",
                        name,
                    ));
                }
            },
            None => None,
        };
        check_pair(from, to, taxon.is_some())?;
        let limit = in_range("limit", args.limit, 1, 500, 100)?;
        let scope = format!("uniprot_map_ids|{}|{}|{taxon:?}|{}", from.name(), to.name(), ids.join("\n"));
        let job = MappingJob {
            from: from.uniprot_name(true),
            to: to.uniprot_name(false),
            ids: &ids,
            taxon,
        };
        if let Some(c) = &args.cursor {
            let at: Position = cursor::decode(c, &scope)?;
            let page = match self.uniprot.mapping_next(&at.next).await? {
                Reply::Found(page) => page,
                Reply::Missing => return Err(expired(c)),
                Reply::Refused(refusal) => return Err(refused(&refusal, &ids)),
            };
            return Ok(Json(result(from, to, page, at.size, at.total, false, &scope)));
        }
        let results = self.finished_job(&job).await?;
        let page = match self.uniprot.mapping_results(&job, &results, limit).await? {
            Reply::Found(page) => page,
            Reply::Missing => return Err(expired("")),
            Reply::Refused(refusal) => return Err(refused(&refusal, &ids)),
        };
        let total = page.total;
        Ok(Json(result(from, to, page, limit, total, true, &scope)))
    }
}

/// The results of a job are gone (UniProt keeps them for a while only).
fn expired(cursor: &str) -> ApiError {
    ApiError::not_found(
        "UniProt no longer has the results of this mapping.",
        "Call uniprot_map_ids again with the same ids, without 'cursor': UniProt runs the job \
         again.",
        cursor,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::tests::fixture;

    fn page(file: &str, next: Option<&str>, total: Option<u64>) -> Page<MappingResults> {
        Page {
            body: serde_json::from_str(&fixture(file)).unwrap(),
            total,
            next: next.map(str::to_owned),
        }
    }

    #[test]
    fn ensembl_targets_lose_their_versions_and_one_id_may_map_to_several() {
        let r = result(
            Database::Uniprot,
            Database::Ensembl,
            page("idmapping_results__to_Ensembl.json", None, Some(3)),
            100,
            Some(3),
            true,
            "scope",
        );
        let pairs: Vec<(&str, &str)> =
            r.mappings.iter().map(|m| (m.from.as_str(), m.to.as_str())).collect();
        assert_eq!(
            pairs,
            [
                ("P99999", "ENSG00000172115"),
                ("P99998", "ENSPTRG00000018996"),
                ("P99998", "ENSPTRG00000043922")
            ]
        );
        assert_eq!(r.pagination.cursor, None);
        assert_eq!(r.pagination.total_count, Some(3));
    }

    #[test]
    fn uniprot_targets_carry_their_entry_and_pages_follow_uniprot_s_link() {
        let link = "https://rest.uniprot.org/idmapping/uniprotkb/results/623f038354e6e5883c8be8a2d97284cdd41ed36f?fields=accession,id,gene_primary&cursor=j5xqrofo4&size=1";
        let first = result(
            Database::Uniprot,
            Database::Uniprot,
            page("idmapping_uniprotkb_results__page1.json", Some(link), Some(2)),
            1,
            Some(2),
            true,
            "scope",
        );
        assert_eq!(first.mappings[0].to, "P99999");
        assert_eq!(first.mappings[0].entry_name.as_deref(), Some("CYC_HUMAN"));
        assert_eq!(first.mappings[0].gene.as_deref(), Some("CYCS"));
        let at: Position = cursor::decode(first.pagination.cursor.as_deref().unwrap(), "scope").unwrap();
        assert_eq!(at.next, link);
        assert_eq!((at.total, at.size), (Some(2), 1));
        let second = result(
            Database::Uniprot,
            Database::Uniprot,
            page("idmapping_uniprotkb_results__page2.json", None, Some(2)),
            at.size,
            at.total,
            false,
            "scope",
        );
        assert_eq!(second.mappings[0].entry_name.as_deref(), Some("AATM_RABIT"));
        assert_eq!(second.pagination.cursor, None);
    }

    #[test]
    fn unmapped_ids_are_listed_once_on_the_first_page_and_capped() {
        let failed: Vec<String> = (0..150).map(|n| format!("X{n}")).collect();
        let body = MappingResults {
            results: Vec::new(),
            failed_ids: failed,
            suggested_ids: Vec::new(),
            obsolete_count: Some(0),
            warnings: Vec::new(),
        };
        let mk = |first| {
            result(
                Database::Ensembl,
                Database::Uniprot,
                Page { body: body.clone(), total: Some(0), next: None },
                100,
                Some(0),
                first,
                "scope",
            )
        };
        let first = mk(true);
        assert_eq!(first.unmapped.len(), 100);
        assert_eq!(first.unmapped_count, Some(150));
        assert_eq!(first.obsolete_count, None, "zero is not said");
        assert!(mk(false).unmapped.is_empty());
    }

    #[test]
    fn polling_asks_at_once_then_waits_longer_within_the_budget() {
        let waits = poll_waits(Duration::from_secs(25));
        assert_eq!(waits[0], Duration::ZERO);
        assert_eq!(waits.iter().sum::<Duration>(), Duration::from_secs(25));
        assert!(waits.windows(2).take(6).all(|w| w[0] <= w[1]), "{waits:?}");
        assert!(waits.iter().all(|w| *w <= Duration::from_secs(3)));
        // A short budget: a poll at once and one after what is left.
        let short = poll_waits(Duration::from_millis(300));
        assert_eq!(short, [Duration::ZERO, Duration::from_millis(300)]);
    }
}
