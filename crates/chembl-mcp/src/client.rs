//! The upstreams of this server, ChEMBL's web services and UniChem: their politeness
//! defaults (CONTRACT §6) and every URL and query parameter this server sends. The only
//! module that knows them.
//!
//! Sources: `shared/upstream/API-chembl-igvf.md` part A. ChEMBL answers XML unless asked
//! for JSON (A.1): core sends `Accept: application/json` and every path here also uses the
//! `.json` form. ChEMBL silently ignores filter names it does not know (A.2), which would
//! return an unfiltered collection, so the parameter names below are pinned by tests and
//! every list answer is also filtered to the identifiers that were asked for.

use std::time::Duration;

use futures::future::try_join_all;
use lifesciences_core::{
    ApiError, ConfigError, HttpClient, LifeSciencesClient, RetryPolicy, SourceConfig,
    encode_path_segment,
};
use serde_json::json;

use crate::ids::ChemblId;
use crate::models::{
    ChemblErrorBody, Mechanism, MechanismPage, Molecule, MoleculePage, Target, TargetPage,
    UniChemAnswer, UniChemSource,
};

/// ChEMBL's data web services (CONTRACT §2).
pub const CHEMBL_DEFAULT_URL: &str = "https://www.ebi.ac.uk/chembl/api/data";
/// UniChem's current API (A.8).
pub const UNICHEM_DEFAULT_URL: &str = "https://www.ebi.ac.uk/unichem/api/v1";

/// UniChem answers are optional extras and UniChem is known to hang for ~30 s before
/// failing (A.8): give up early. The global `LIFESCIENCES_TIMEOUT_SECS` still applies when
/// it is shorter.
pub const UNICHEM_TIMEOUT: Duration = Duration::from_secs(8);

/// ChEMBL's largest page (A.3); larger limits are silently cut to it.
const MAX_LIMIT: u32 = 1000;
/// Identifiers per `__in` filter: keeps URLs well under the 4000 characters the official
/// client allows before it switches to POST (A.6).
const IDS_PER_REQUEST: usize = 100;
/// Pages followed for one list before giving up (1000 records each).
const MAX_PAGES: u64 = 10;
/// UniChem's source number for ChEMBL (A.7).
const UNICHEM_SOURCE_CHEMBL: u32 = 1;

/// ChEMBL: 10 requests/s, 10 in flight (CONTRACT §6), then the environment.
pub fn chembl_config() -> Result<SourceConfig, ConfigError> {
    SourceConfig::new("ChEMBL", "CHEMBL", CHEMBL_DEFAULT_URL)?
        .with_rate(10.0)
        .with_max_concurrent(10)
        .from_env()
}

/// UniChem: 5 requests/s, 5 in flight, a short timeout and one quick retry (CONTRACT §6:
/// "slow and flaky: short timeout, results optional"), then the environment.
pub fn unichem_config() -> Result<SourceConfig, ConfigError> {
    // Its own short timeout: LIFESCIENCES_TIMEOUT_SECS may shorten it, not lengthen it;
    // UNICHEM_TIMEOUT_SECS sets it.
    SourceConfig::new("UniChem", "UNICHEM", UNICHEM_DEFAULT_URL)?
        .with_rate(5.0)
        .with_max_concurrent(5)
        .with_retry(unichem_retry())
        .with_timeout(UNICHEM_TIMEOUT)
        .from_env()
}

/// One retry after a short pause: a second long wait is not worth it for optional keys.
pub fn unichem_retry() -> RetryPolicy {
    RetryPolicy {
        max_retries: 1,
        base_delay: Duration::from_millis(250),
        max_delay: Duration::from_secs(2),
        max_total_wait: Duration::from_secs(2),
    }
}

/// Both sources with their defaults and the environment applied: ChEMBL, then UniChem.
pub fn source_configs() -> Result<Vec<SourceConfig>, ConfigError> {
    Ok(vec![chembl_config()?, unichem_config()?])
}

/// ChEMBL's web services.
#[derive(Debug, Clone)]
pub struct ChemblClient {
    http: HttpClient,
}

impl LifeSciencesClient for ChemblClient {
    fn http(&self) -> &HttpClient {
        &self.http
    }
}

impl ChemblClient {
    /// A client for `config` (no I/O).
    pub fn new(config: SourceConfig) -> Result<Self, ConfigError> {
        Ok(Self {
            http: HttpClient::new(config)?,
        })
    }

    /// `GET /molecule/{CHEMBLn}.json`: the full record, or `None` for the 404 (empty body)
    /// ChEMBL answers for an unknown ID (A.6).
    pub async fn molecule(&self, id: &ChemblId) -> Result<Option<Molecule>, ApiError> {
        let path = format!("molecule/{}.json", encode_path_segment(&id.upstream())?);
        match self.get_json(&path, &[]).await {
            Ok(molecule) => Ok(Some(molecule)),
            Err(e) if e.upstream_status() == Some(404) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `GET /molecule/search.json?q=&limit=&offset=`: ChEMBL's full-text search, best
    /// first, each hit with a `score` (A.4). ChEMBL answers 400 for queries it cannot
    /// run (e.g. shorter than 3 characters); that is the caller's input, not an outage.
    pub async fn search(
        &self,
        query: &str,
        offset: u64,
        limit: u32,
    ) -> Result<MoleculePage, ApiError> {
        let (offset, limit) = (offset.to_string(), limit.min(MAX_LIMIT).to_string());
        let params = [("q", query), ("limit", &limit), ("offset", &offset)];
        match self.get_json("molecule/search.json", &params).await {
            Ok(page) => Ok(page),
            Err(e) if e.upstream_status() == Some(400) => {
                let said = e
                    .upstream_body()
                    .and_then(|b| serde_json::from_str::<ChemblErrorBody>(b).ok())
                    .and_then(|b| b.error_message)
                    .map(|m| format!(" ChEMBL said: {m}."))
                    .unwrap_or_default();
                Err(ApiError::invalid_input(
                    format!("ChEMBL could not run a search for '{query}'.{said}"),
                    "Search with a drug name, trade name or synonym of at least 3 letters, \
                     e.g. 'imatinib' or 'Gleevec'.",
                    query,
                ))
            }
            Err(e) => Err(e),
        }
    }

    /// `GET /molecule.json?pref_name__iexact=`: molecules whose preferred name is exactly
    /// `name`, ignoring case (A.4; recorded for `aspirin`).
    pub async fn by_exact_name(&self, name: &str, limit: u32) -> Result<MoleculePage, ApiError> {
        let limit = limit.min(MAX_LIMIT).to_string();
        self.get_json(
            "molecule.json",
            &[("pref_name__iexact", name), ("limit", &limit)],
        )
        .await
    }

    /// `GET /molecule.json?molecule_synonyms__molecule_synonym__iexact=`: molecules with a
    /// synonym exactly `name`, ignoring case; returns parents and salts (A.4; recorded
    /// for `viagra`).
    pub async fn by_exact_synonym(&self, name: &str, limit: u32) -> Result<MoleculePage, ApiError> {
        let limit = limit.min(MAX_LIMIT).to_string();
        self.get_json(
            "molecule.json",
            &[
                ("molecule_synonyms__molecule_synonym__iexact", name),
                ("limit", &limit),
            ],
        )
        .await
    }

    /// `GET /molecule.json?molecule_chembl_id__in=A,B,C&limit=n` (plus
    /// `only=molecule_chembl_id,pref_name,molecule_properties` when `slim`): many
    /// molecules in one request (A.2; recorded). The answer comes in primary-key order,
    /// not request order, and simply lacks unknown IDs.
    pub async fn molecules(&self, ids: &[String], slim: bool) -> Result<Vec<Molecule>, ApiError> {
        let chunks = ids.chunks(IDS_PER_REQUEST).map(|chunk| async move {
            let joined = chunk.join(",");
            let limit = chunk.len().to_string();
            let mut params = vec![
                ("molecule_chembl_id__in", joined.as_str()),
                ("limit", limit.as_str()),
            ];
            if slim {
                params.push(("only", "molecule_chembl_id,pref_name,molecule_properties"));
            }
            let page: MoleculePage = self.get_json("molecule.json", &params).await?;
            Ok::<_, ApiError>(page.molecules)
        });
        let pages = try_join_all(chunks).await?;
        Ok(only_requested(
            pages.into_iter().flatten(),
            ids,
            |m: &Molecule| Some(m.molecule_chembl_id.as_str()),
        ))
    }

    /// Mechanisms of action of `molecule_ids` (parents: mechanisms are curated against
    /// the parent molecule, A.4): `GET /mechanism.json?molecule_chembl_id=` for one,
    /// `molecule_chembl_id__in=` for several, pages of 1000 followed to the end.
    pub async fn mechanisms(&self, molecule_ids: &[String]) -> Result<Vec<Mechanism>, ApiError> {
        let chunks = molecule_ids
            .chunks(IDS_PER_REQUEST)
            .map(|chunk| async move {
                let joined = chunk.join(",");
                let filter = if chunk.len() == 1 {
                    "molecule_chembl_id"
                } else {
                    "molecule_chembl_id__in"
                };
                let mut all = Vec::new();
                for page in 0..MAX_PAGES {
                    let offset = (page * u64::from(MAX_LIMIT)).to_string();
                    let limit = MAX_LIMIT.to_string();
                    let params = [
                        (filter, joined.as_str()),
                        ("limit", &limit),
                        ("offset", &offset),
                    ];
                    let answer: MechanismPage = self.get_json("mechanism.json", &params).await?;
                    let got = answer.mechanisms.len();
                    all.extend(answer.mechanisms);
                    let total = answer.page_meta.and_then(|m| m.total());
                    if got == 0 || total.is_none_or(|t| all.len() as u64 >= t) {
                        break;
                    }
                }
                Ok::<_, ApiError>(all)
            });
        let pages = try_join_all(chunks).await?;
        Ok(only_requested(
            pages.into_iter().flatten(),
            molecule_ids,
            |m: &Mechanism| m.molecule_chembl_id.as_deref(),
        ))
    }

    /// `GET /target.json?target_chembl_id__in=…&only=target_chembl_id,target_components`:
    /// all targets in one request (per 100), only the fields that hold UniProt accessions.
    pub async fn targets(&self, target_ids: &[String]) -> Result<Vec<Target>, ApiError> {
        let chunks = target_ids.chunks(IDS_PER_REQUEST).map(|chunk| async move {
            let joined = chunk.join(",");
            let limit = chunk.len().to_string();
            let params = [
                ("target_chembl_id__in", joined.as_str()),
                ("only", "target_chembl_id,target_components"),
                ("limit", limit.as_str()),
            ];
            let page: TargetPage = self.get_json("target.json", &params).await?;
            Ok::<_, ApiError>(page.targets)
        });
        let pages = try_join_all(chunks).await?;
        Ok(only_requested(
            pages.into_iter().flatten(),
            target_ids,
            |t: &Target| t.target_chembl_id.as_deref(),
        ))
    }
}

/// Keep the records whose key was asked for: a filter ChEMBL did not recognise would
/// otherwise hand back unrelated records (A.2).
fn only_requested<T>(
    records: impl IntoIterator<Item = T>,
    requested: &[String],
    key: impl Fn(&T) -> Option<&str>,
) -> Vec<T> {
    records
        .into_iter()
        .filter(|record| {
            key(record).is_some_and(|k| requested.iter().any(|r| r.eq_ignore_ascii_case(k)))
        })
        .collect()
}

/// UniChem, for the identifiers of other databases that ChEMBL does not keep.
#[derive(Debug, Clone)]
pub struct UniChemClient {
    http: HttpClient,
}

impl LifeSciencesClient for UniChemClient {
    fn http(&self) -> &HttpClient {
        &self.http
    }
}

impl UniChemClient {
    /// A client for `config` (no I/O).
    pub fn new(config: SourceConfig) -> Result<Self, ConfigError> {
        Ok(Self {
            http: HttpClient::new(config)?,
        })
    }

    /// `POST /compounds` with `{"type": "sourceID", "compound": "CHEMBL25", "sourceID": 1}`:
    /// the compound's identifiers in every UniChem source (A.8). An unknown compound is
    /// an empty list.
    pub async fn sources_of(&self, chembl_id: &str) -> Result<Vec<UniChemSource>, ApiError> {
        let body = json!({
            "type": "sourceID",
            "compound": chembl_id,
            "sourceID": UNICHEM_SOURCE_CHEMBL,
        });
        match self.post_json::<UniChemAnswer, _>("compounds", &body).await {
            Ok(answer) => Ok(answer
                .compounds
                .into_iter()
                .flat_map(|c| c.sources)
                .collect()),
            Err(e) if e.upstream_status() == Some(404) => Ok(Vec::new()),
            Err(e) => Err(e),
        }
    }
}
