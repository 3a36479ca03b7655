//! The upstreams of this server, ChEMBL's web services and UniChem: their descriptions
//! (politeness defaults, health checks, settings) and every URL and query parameter this
//! server sends. The only module that knows them.
//!
//! ChEMBL answers XML unless asked for JSON: core sends `Accept: application/json` and
//! every path here also uses the `.json` form. ChEMBL silently ignores filter names it
//! does not know (a maintainer confirms it in chembl/chembl_webresource_client#32 on
//! GitHub), which would return an unfiltered collection, so the parameter names below are
//! pinned by tests and every list answer is also filtered: to the identifiers that were
//! asked for here, and to the exact name asked for by the search tool
//! (`search_compounds::is_named`).

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use futures::future::try_join_all;
use lifesciences_core::config::{RetryPolicy, parse_number};
use lifesciences_core::notify::{Level, notify};
use lifesciences_core::{
    ApiError, ConfigError, HealthCheck, HttpClient, Licence, LifeSciencesClient, ReleaseCheck,
    Reply, Setting, Upstream, encode_path_segment,
};
use serde_json::json;

use crate::ids::ChemblId;
use crate::models::{
    Activity, ActivityPage, ChemblErrorBody, ChemblIdLookup, IndicationPage, Mechanism,
    MechanismPage, Molecule, MoleculePage, OfDrug, Target, TargetPage, UniChemAnswer,
    UniChemSource, WarningPage,
};

/// ChEMBL's data web services: 10 requests/s and 10 in flight, the standard retries;
/// `status.json` is its status page, and names the release it serves
/// (`"chembl_db_version": "ChEMBL_35"`,
/// <https://chembl.gitbook.io/chembl-interface-documentation/web-services/chembl-data-web-services>).
static CHEMBL: Upstream = Upstream {
    about: "ChEMBL web services",
    health: HealthCheck {
        path: "status.json",
        query: &[],
    },
    release: Some(ReleaseCheck::Ask {
        path: "status.json",
        query: &[],
        pointer: "/chembl_db_version",
    }),
    // docs/sources/chembl.md, "Licence and citation".
    licence: Some(Licence {
        spdx: "CC-BY-SA-3.0",
        url: "https://chembl.gitbook.io/chembl-interface-documentation/about#data-licensing",
    }),
    cite: Some("10.1093/nar/gkad1004"),
    ..Upstream::new("ChEMBL", "CHEMBL", "https://www.ebi.ac.uk/chembl/api/data")
};

/// The variable that sets how long UniChem is left alone after an outage, and its default.
const UNICHEM_COOL_DOWN_VAR: &str = "UNICHEM_COOL_DOWN_SECS";
const UNICHEM_COOL_DOWN_DEFAULT: &str = "60";

/// UniChem, for the identifiers ChEMBL does not keep: 5 requests/s and 5 in flight. Its
/// answers are optional extras and it is known to hang for about 30 s before failing, so
/// it gets a short timeout of its own (4 s; `LIFESCIENCES_TIMEOUT_SECS` may shorten it,
/// `UNICHEM_TIMEOUT_SECS` sets it) and no retries. Its `POST /compounds` is a pure
/// look-up, cached like a GET.
static UNICHEM: Upstream = Upstream {
    about: "UniChem (cross-references of compounds)",
    rate_per_second: 5.0,
    max_concurrent: 5,
    timeout: Some(Duration::from_secs(4)),
    retry: RetryPolicy::NONE,
    cache_posts: true,
    health: HealthCheck {
        path: "sources/1",
        query: &[],
    },
    settings: &[Setting {
        var: UNICHEM_COOL_DOWN_VAR,
        default: UNICHEM_COOL_DOWN_DEFAULT,
        about: "seconds UniChem is not asked after an outage (0–3600), so later look-ups return at ChEMBL's speed",
        query_param: None,
    }],
    // UniChem's data are under EMBL-EBI's terms of use (docs/sources/chembl.md, "Licence
    // and citation").
    licence: Some(Licence {
        spdx: "LicenseRef-EMBL-EBI",
        url: "https://www.ebi.ac.uk/about/terms-of-use",
    }),
    cite: Some("10.1186/1758-2946-5-3"),
    ..Upstream::new("UniChem", "UNICHEM", "https://www.ebi.ac.uk/unichem/api/v1")
};

/// ChEMBL's largest page (`max_limit`; docs/sources/chembl.md); larger limits are silently
/// cut to it.
const MAX_LIMIT: u32 = 1000;
/// Identifiers per `__in` filter: keeps URLs well under the 4000 characters the official
/// client allows before it switches to POST (`MAX_URL_SIZE` in chembl/chembl_webresource_client).
const IDS_PER_REQUEST: usize = 100;
/// Pages followed for one list before giving up (1000 records each).
const MAX_PAGES: u64 = 10;
/// UniChem's source number for ChEMBL (docs/sources/chembl.md, "UniChem sources used").
pub(crate) const UNICHEM_SOURCE_CHEMBL: u32 = 1;
/// UniChem's source number for PubChem compounds (CIDs).
pub(crate) const UNICHEM_SOURCE_PUBCHEM: u32 = 22;

/// ChEMBL's web services.
#[derive(Debug, Clone)]
pub(crate) struct ChemblClient {
    http: HttpClient,
}

impl LifeSciencesClient for ChemblClient {
    const UPSTREAM: &'static Upstream = &CHEMBL;

    fn new(http: HttpClient) -> Result<Self, ConfigError> {
        Ok(Self { http })
    }
}

impl ChemblClient {
    /// `GET /molecule/{CHEMBLn}.json`: the full record, or `None` for the 404 (empty body)
    /// ChEMBL answers for an unknown ID (docs/sources/chembl.md, "Unknown IDs").
    pub(crate) async fn molecule(&self, id: &ChemblId) -> Result<Option<Molecule>, ApiError> {
        let path = format!("molecule/{}.json", encode_path_segment(&id.upstream())?);
        unless_missing(self.http.get_json(&path, &[]).await)
    }

    /// `GET /molecule/search.json?q=&limit=&offset=`: ChEMBL's full-text search, best
    /// first, each hit with a `score`. ChEMBL answers 400 for queries it cannot
    /// run (e.g. shorter than 3 characters); that is the caller's input, not an outage:
    /// [`Reply::Refused`] with ChEMBL's `error_message`.
    pub(crate) async fn search(
        &self,
        query: &str,
        offset: u64,
        limit: u32,
    ) -> Result<Reply<MoleculePage, Refusal>, ApiError> {
        let (offset, limit) = (offset.to_string(), limit.min(MAX_LIMIT).to_string());
        let params = [("q", query), ("limit", &limit), ("offset", &offset)];
        self.page_or_refusal("molecule/search.json", &params).await
    }

    /// A structure search, one page: `GET /similarity/{smiles}/{threshold}.json` (most
    /// similar first, each with `similarity`) or `GET /substructure/{smiles}.json`; the
    /// SMILES is one path segment, percent-encoded. A 400 (a SMILES ChEMBL cannot read, a
    /// threshold it refuses) is [`Reply::Refused`] with ChEMBL's words.
    pub(crate) async fn structure_search(
        &self,
        smiles: &str,
        threshold: Option<u32>,
        offset: u64,
        limit: u32,
    ) -> Result<Reply<MoleculePage, Refusal>, ApiError> {
        let segment = encode_path_segment(smiles)?;
        let path = match threshold {
            Some(t) => format!("similarity/{segment}/{t}.json"),
            None => format!("substructure/{segment}.json"),
        };
        let (offset, limit) = (offset.to_string(), limit.min(MAX_LIMIT).to_string());
        self.page_or_refusal(&path, &[("limit", &limit), ("offset", &offset)])
            .await
    }

    /// `GET /molecule.json?molecule_structures__standard_inchi_key=`: the molecules with
    /// this standard InChIKey (recorded for aspirin's key, 2023 or earlier).
    pub(crate) async fn by_inchi_key(&self, key: &str) -> Result<MoleculePage, ApiError> {
        self.http
            .get_json(
                "molecule.json",
                &[
                    ("molecule_structures__standard_inchi_key", key),
                    ("limit", "100"),
                ],
            )
            .await
    }

    /// A list answer, or ChEMBL's refusal (400) with its `error_message`.
    async fn page_or_refusal(
        &self,
        path: &str,
        params: &[(&str, &str)],
    ) -> Result<Reply<MoleculePage, Refusal>, ApiError> {
        page_or_refusal(self.http.get_json(path, params).await)
    }

    /// `GET /chembl_id_lookup/{CHEMBLn}.json`: which kind of ChEMBL entity an identifier
    /// names (compound, target, assay, document…), or `None` for the 404 of an
    /// identifier ChEMBL does not know at all.
    pub(crate) async fn id_lookup(&self, id: &ChemblId) -> Result<Option<IdEntry>, ApiError> {
        let path = format!(
            "chembl_id_lookup/{}.json",
            encode_path_segment(&id.upstream())?
        );
        let entry = unless_missing(self.http.get_json::<ChemblIdLookup>(&path, &[]).await)?;
        Ok(entry.map(IdEntry::read))
    }

    /// `GET /molecule.json?pref_name__iexact=`: molecules whose preferred name is exactly
    /// `name`, ignoring case (recorded for `aspirin`, whose record is
    /// `tests/fixtures/molecule__CHEMBL25.json`).
    pub(crate) async fn by_exact_name(
        &self,
        name: &str,
        limit: u32,
    ) -> Result<MoleculePage, ApiError> {
        let limit = limit.min(MAX_LIMIT).to_string();
        self.http
            .get_json(
                "molecule.json",
                &[("pref_name__iexact", name), ("limit", &limit)],
            )
            .await
    }

    /// `GET /molecule.json?molecule_synonyms__molecule_synonym__iexact=`: molecules with a
    /// synonym exactly `name`, ignoring case; returns parents and salts (recorded for
    /// `viagra` in the `demo_wrc.ipynb` notebook of chembl/chembl_webresource_client).
    pub(crate) async fn by_exact_synonym(
        &self,
        name: &str,
        limit: u32,
    ) -> Result<MoleculePage, ApiError> {
        let limit = limit.min(MAX_LIMIT).to_string();
        self.http
            .get_json(
                "molecule.json",
                &[
                    ("molecule_synonyms__molecule_synonym__iexact", name),
                    ("limit", &limit),
                ],
            )
            .await
    }

    /// `GET /molecule.json?molecule_chembl_id__in=A,B,C&limit=n` (plus
    /// `only=molecule_chembl_id,pref_name,molecule_properties,molecule_synonyms` when
    /// `slim`: the synonyms name molecules without a preferred name): many molecules in
    /// one request. The answer comes in primary-key order, not request order, and simply
    /// lacks unknown IDs (recorded response, 2023 or earlier,
    /// `tests/fixtures/molecule__in=CHEMBL25,CHEMBL192,CHEMBL27__only=id,name.json`).
    pub(crate) async fn molecules(
        &self,
        ids: &[String],
        slim: bool,
    ) -> Result<Vec<Molecule>, ApiError> {
        let chunks = ids.chunks(IDS_PER_REQUEST).map(|chunk| async move {
            let joined = chunk.join(",");
            let limit = chunk.len().to_string();
            let mut params = vec![
                ("molecule_chembl_id__in", joined.as_str()),
                ("limit", limit.as_str()),
            ];
            if slim {
                params.push((
                    "only",
                    "molecule_chembl_id,pref_name,molecule_properties,molecule_synonyms",
                ));
            }
            let page: MoleculePage = self.http.get_json("molecule.json", &params).await?;
            Ok::<_, ApiError>(page.molecules)
        });
        let pages = try_join_all(chunks).await?;
        Ok(only_requested(
            pages.into_iter().flatten(),
            ids,
            |m: &Molecule| Some(m.molecule_chembl_id.as_str()),
        ))
    }

    /// Mechanisms of action of every form of the drugs `parent_ids` (the parents, and
    /// each parent's salts and hydrates): `GET /mechanism.json?parent_molecule_chembl_id=`
    /// for one, `parent_molecule_chembl_id__in=` for several, pages of 1000 followed to
    /// the end. ChEMBL files a mechanism under one form, usually the parent but not always
    /// (lisinopril's is under its dihydrate); each record also names that form's parent,
    /// and the filter on it is declared `ALL` (every lookup, `__in` included) for the
    /// mechanism resource in ChEMBL's web-service code (`resources/mechanism.py` of
    /// https://github.com/chembl/chembl_webservices_py3). Each record's
    /// `molecule_chembl_id` says which form it is filed under.
    pub(crate) async fn mechanisms_of(
        &self,
        parent_ids: &[String],
    ) -> Result<Vec<Mechanism>, ApiError> {
        let chunks = parent_ids.chunks(IDS_PER_REQUEST).map(|chunk| async move {
            let joined = chunk.join(",");
            let filter = if chunk.len() == 1 {
                "parent_molecule_chembl_id"
            } else {
                "parent_molecule_chembl_id__in"
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
                let answer: MechanismPage = self.http.get_json("mechanism.json", &params).await?;
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
            parent_ids,
            |m: &Mechanism| m.family(),
        ))
    }

    /// `GET /target.json?target_chembl_id__in=…&only=target_chembl_id,target_components`:
    /// all targets in one request (per 100), only the fields that hold UniProt accessions.
    pub(crate) async fn targets(&self, target_ids: &[String]) -> Result<Vec<Target>, ApiError> {
        let chunks = target_ids.chunks(IDS_PER_REQUEST).map(|chunk| async move {
            let joined = chunk.join(",");
            let limit = chunk.len().to_string();
            let params = [
                ("target_chembl_id__in", joined.as_str()),
                ("only", "target_chembl_id,target_components"),
                ("limit", limit.as_str()),
            ];
            let page: TargetPage = self.http.get_json("target.json", &params).await?;
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

/// The activity fields the bioactivity tool returns (the 2017 recording's names).
const ACTIVITY_FIELDS: &str = "activity_id,molecule_chembl_id,target_chembl_id,target_pref_name,\
target_organism,assay_chembl_id,assay_description,assay_type,standard_type,standard_relation,\
standard_value,standard_units,pchembl_value,document_chembl_id,document_year,activity_comment,\
data_validity_comment";

/// How targets are looked for.
#[derive(Debug, Clone, Copy)]
pub(crate) enum TargetQuery<'a> {
    /// A UniProt accession of a component.
    Accession(&'a str),
    /// Words: a gene symbol, a name.
    Text(&'a str),
}

/// A list that may be longer than one page: the records read, and how many there are.
#[derive(Debug, Clone)]
pub(crate) struct Listed<T> {
    pub records: Vec<T>,
    /// `page_meta.total_count`.
    pub total: Option<u64>,
}

impl ChemblClient {
    /// `GET /drug_indication.json?parent_molecule_chembl_id=…&limit=1000`: the
    /// indications of a drug in every form, one page. The filter is declared `ALL` for the
    /// drug-indication resource in ChEMBL's web-service code (`resources/indication.py`).
    pub(crate) async fn indications(
        &self,
        parent_id: &str,
    ) -> Result<Listed<crate::models::Indication>, ApiError> {
        let page: IndicationPage = self.of_parent("drug_indication.json", parent_id).await?;
        Ok(Listed {
            total: page.page_meta.and_then(|m| m.total()),
            records: only_requested(page.drug_indications, &[parent_id.to_owned()], |i| {
                i.family()
            }),
        })
    }

    /// `GET /drug_warning.json?parent_molecule_chembl_id=…&limit=1000`: boxed warnings and
    /// withdrawals of a drug in every form, one page. The resource is newer than the
    /// web-service code read here (ChEMBL 28); ChEMBL's curators give this filter as the
    /// way to ask for a parent's warnings ("the query to `/drug_warning` for the parent",
    /// https://github.com/opentargets/issues/issues/1419, 2021).
    pub(crate) async fn warnings(
        &self,
        parent_id: &str,
    ) -> Result<Listed<crate::models::DrugWarning>, ApiError> {
        let page: WarningPage = self.of_parent("drug_warning.json", parent_id).await?;
        Ok(Listed {
            total: page.page_meta.and_then(|m| m.total()),
            records: only_requested(page.drug_warnings, &[parent_id.to_owned()], |w| w.family()),
        })
    }

    /// One page of 1000 of a list filtered by `parent_molecule_chembl_id`.
    async fn of_parent<T: lifesciences_core::Answer>(
        &self,
        path: &str,
        parent_id: &str,
    ) -> Result<T, ApiError> {
        let limit = MAX_LIMIT.to_string();
        self.http
            .get_json(
                path,
                &[("parent_molecule_chembl_id", parent_id), ("limit", &limit)],
            )
            .await
    }

    /// `GET /mechanism.json?target_chembl_id=…&limit=1000`: the drugs acting on a target,
    /// one page.
    pub(crate) async fn mechanisms_on_target(
        &self,
        target_id: &str,
    ) -> Result<Listed<Mechanism>, ApiError> {
        let limit = MAX_LIMIT.to_string();
        let page: MechanismPage = self
            .http
            .get_json(
                "mechanism.json",
                &[("target_chembl_id", target_id), ("limit", &limit)],
            )
            .await?;
        let wanted = [target_id.to_owned()];
        Ok(Listed {
            total: page.page_meta.and_then(|m| m.total()),
            records: only_requested(page.mechanisms, &wanted, |m| m.target_chembl_id.as_deref()),
        })
    }

    /// `GET /activity.json` with `filters` (already in ChEMBL's names), one page of
    /// `limit` from `offset`, only the fields the tool returns.
    pub(crate) async fn activities(
        &self,
        filters: &[(&str, String)],
        offset: u64,
        limit: u32,
    ) -> Result<Listed<Activity>, ApiError> {
        let (offset, limit) = (offset.to_string(), limit.min(MAX_LIMIT).to_string());
        let mut params: Vec<(&str, &str)> = filters.iter().map(|(k, v)| (*k, v.as_str())).collect();
        params.extend([
            ("limit", limit.as_str()),
            ("offset", offset.as_str()),
            ("only", ACTIVITY_FIELDS),
        ]);
        let page: ActivityPage = self.http.get_json("activity.json", &params).await?;
        Ok(Listed {
            total: page.page_meta.and_then(|m| m.total()),
            records: page.activities,
        })
    }

    /// Targets with a component of this UniProt accession
    /// (`/target.json?target_components__accession=`), or ChEMBL's target search
    /// (`/target/search.json?q=`, best first with a `score`); one page.
    pub(crate) async fn find_targets(
        &self,
        query: TargetQuery<'_>,
        offset: u64,
        limit: u32,
    ) -> Result<Listed<Target>, ApiError> {
        let (offset, limit) = (offset.to_string(), limit.min(MAX_LIMIT).to_string());
        let (path, key) = match query {
            TargetQuery::Accession(_) => ("target.json", "target_components__accession"),
            TargetQuery::Text(_) => ("target/search.json", "q"),
        };
        let (TargetQuery::Accession(value) | TargetQuery::Text(value)) = query;
        let params = [(key, value), ("limit", &limit), ("offset", &offset)];
        let page: TargetPage = self.http.get_json(path, &params).await?;
        Ok(Listed {
            total: page.page_meta.and_then(|m| m.total()),
            records: page.targets,
        })
    }

    /// `GET /target/{id}.json`: the whole target record; `None` for ChEMBL's 404.
    pub(crate) async fn target(&self, id: &str) -> Result<Option<Target>, ApiError> {
        let path = format!("target/{}.json", encode_path_segment(id)?);
        unless_missing(self.http.get_json(&path, &[]).await)
    }

    /// `GET /target.json?target_chembl_id__in=…` with names, types, organisms and
    /// components: the targets a profile or an activity list names.
    pub(crate) async fn target_summaries(
        &self,
        target_ids: &[String],
    ) -> Result<Vec<Target>, ApiError> {
        let chunks = target_ids.chunks(IDS_PER_REQUEST).map(|chunk| async move {
            let joined = chunk.join(",");
            let limit = chunk.len().to_string();
            let params = [
                ("target_chembl_id__in", joined.as_str()),
                (
                    "only",
                    "target_chembl_id,pref_name,target_type,organism,target_components",
                ),
                ("limit", limit.as_str()),
            ];
            let page: TargetPage = self.http.get_json("target.json", &params).await?;
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
/// otherwise hand back unrelated records (docs/sources/chembl.md).
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

/// What ChEMBL's ID lookup says an identifier names (fields `entity_type` and `status`,
/// `resources/chembl_id.py` of ChEMBL's web-service code; docs/sources/chembl.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IdEntry {
    /// A compound whose record ChEMBL serves: status `ACTIVE` (the only value
    /// documented), or none given.
    Compound,
    /// A compound whose record is not served (withdrawn or merged), with ChEMBL's status.
    RetiredCompound {
        /// ChEMBL's `status`, trimmed, e.g. `OBS`.
        status: String,
    },
    /// Another kind of entity, with ChEMBL's `entity_type`, trimmed (`TARGET`, `ASSAY`,
    /// `DOCUMENT`, `CELL`…).
    Other {
        /// ChEMBL's `entity_type`.
        entity_type: String,
    },
    /// The lookup names no entity type.
    Untyped,
}

impl IdEntry {
    fn read(entry: ChemblIdLookup) -> Self {
        let trimmed = |s: Option<String>| s.map(|s| s.trim().to_owned()).unwrap_or_default();
        let (kind, status) = (trimmed(entry.entity_type), trimmed(entry.status));
        if kind.is_empty() {
            Self::Untyped
        } else if !kind.eq_ignore_ascii_case("COMPOUND") {
            Self::Other { entity_type: kind }
        } else if status.is_empty() || status.eq_ignore_ascii_case("ACTIVE") {
            Self::Compound
        } else {
            Self::RetiredCompound { status }
        }
    }
}

/// A detail record, or `None` for the 404 ChEMBL answers for an identifier it does not
/// know (docs/sources/chembl.md, "Unknown IDs"); any other failure stays a failure.
fn unless_missing<T>(answer: Result<T, ApiError>) -> Result<Option<T>, ApiError> {
    Ok(Reply::read(answer, &[404], &[])?.found())
}

/// A search page, or ChEMBL's refusal to run the search (its 400) with its reason; any
/// other failure stays a failure.
fn page_or_refusal(
    answer: Result<MoleculePage, ApiError>,
) -> Result<Reply<MoleculePage, Refusal>, ApiError> {
    Ok(Reply::read(answer, &[], &[400])?.map_refusal(|body| Refusal::read(&body)))
}

/// Why ChEMBL refused to run a request as asked (HTTP 400): the caller's input, not an
/// outage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// ChEMBL's `error_message`, trimmed, when its body was the JSON it documents and
    /// said something, e.g. `Search query too short`.
    pub error_message: Option<String>,
}

impl Refusal {
    /// ChEMBL's 400 body, `{"error_message": "..."}`; anything else (an empty body, an
    /// HTML page) gives no reason.
    fn read(body: &str) -> Self {
        Self {
            error_message: serde_json::from_str::<ChemblErrorBody>(body)
                .ok()
                .and_then(|b| b.error_message)
                .map(|m| m.trim().to_owned())
                .filter(|m| !m.is_empty()),
        }
    }
}

/// What UniChem gave for one compound.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum UniChemLinks {
    /// Its records in other sources; empty when UniChem does not know the compound.
    Found(Vec<UniChemSource>),
    /// UniChem failed, or is paused after an outage: the record goes without its keys.
    Unavailable,
}

/// UniChem, for the identifiers of other databases that ChEMBL does not keep.
#[derive(Debug)]
pub(crate) struct UniChemClient {
    http: HttpClient,
    breaker: Breaker,
}

impl LifeSciencesClient for UniChemClient {
    const UPSTREAM: &'static Upstream = &UNICHEM;

    /// After a transient UniChem failure (timeout, no connection, 429, 500, 502, 503,
    /// 504: `ApiError::is_transient`), UniChem is not asked again for
    /// `UNICHEM_COOL_DOWN_SECS` (server-wide), so later look-ups return at ChEMBL's speed.
    fn new(http: HttpClient) -> Result<Self, ConfigError> {
        let raw = http
            .config()
            .setting(UNICHEM_COOL_DOWN_VAR)
            .unwrap_or(UNICHEM_COOL_DOWN_DEFAULT);
        let secs = parse_number(UNICHEM_COOL_DOWN_VAR, raw, 0.0..=3600.0)?;
        Ok(Self {
            http,
            breaker: Breaker::new(Duration::from_secs_f64(secs)),
        })
    }
}

impl UniChemClient {
    /// How many UniChem requests may be in flight at once (its configured cap).
    pub(crate) fn max_concurrent(&self) -> usize {
        self.http.config().max_concurrent
    }

    /// `POST /compounds` with `{"type": "sourceID", "compound": "CHEMBL25", "sourceID": 1}`:
    /// the compound's identifiers in every UniChem source
    /// (https://chembl.gitbook.io/unichem/api/compound-search). An unknown compound is
    /// an empty list. Not sent while UniChem is paused after an outage (a transient
    /// failure pauses it server-wide, logged once); any other failure concerns this
    /// compound only.
    pub(crate) async fn sources_of(&self, chembl_id: &str) -> UniChemLinks {
        self.sources_of_in(chembl_id, UNICHEM_SOURCE_CHEMBL).await
    }

    /// The same, for a compound named by its identifier in UniChem source `source` (e.g.
    /// a PubChem CID in [`UNICHEM_SOURCE_PUBCHEM`]).
    pub(crate) async fn sources_of_in(&self, chembl_id: &str, source: u32) -> UniChemLinks {
        if self.breaker.is_open(Instant::now()) {
            tracing::debug!(
                compound = chembl_id,
                "UniChem paused after an outage: not asked"
            );
            return UniChemLinks::Unavailable;
        }
        let body = json!({
            "type": "sourceID",
            "compound": chembl_id,
            "sourceID": source,
        });
        // A 404 is read as "not in UniChem" (docs/sources/chembl.md): no links.
        let answer = self
            .http
            .post_json::<UniChemAnswer, _>("compounds", &body)
            .await;
        match Reply::read(answer, &[404], &[]) {
            Ok(Reply::Found(answer)) => UniChemLinks::Found(
                answer
                    .compounds
                    .into_iter()
                    .flat_map(|c| c.sources)
                    .collect(),
            ),
            Ok(Reply::Missing | Reply::Refused(_)) => UniChemLinks::Found(Vec::new()),
            // UniChem as a whole is unwell (core's transient failures), not just unhelpful
            // about this compound.
            Err(e) if e.is_transient() => {
                if self.breaker.trip(Instant::now()) {
                    tracing::warn!(
                        compound = chembl_id,
                        error = %e,
                        pause_secs = self.breaker.cool_down.as_secs_f64(),
                        "UniChem failed: returning ChEMBL records without drugbank, pdb, \
                         kegg, iuphar and pubchem_compound cross-references, and not asking \
                         UniChem again for a while"
                    );
                    notify(
                        Level::Warning,
                        format_args!(
                            "UniChem failed ({e}): compounds come without drugbank, pdb, kegg, \
                             iuphar and pubchem_compound cross-references for the next {:.0} s",
                            self.breaker.cool_down.as_secs_f64()
                        ),
                    );
                }
                UniChemLinks::Unavailable
            }
            Err(e) => {
                tracing::warn!(
                    compound = chembl_id,
                    error = %e,
                    "UniChem failed for this compound: its record goes without drugbank, \
                     pdb, kegg, iuphar and pubchem_compound cross-references"
                );
                notify(
                    Level::Warning,
                    format_args!(
                        "UniChem failed for {chembl_id} ({e}): its record goes without \
                         drugbank, pdb, kegg, iuphar and pubchem_compound cross-references"
                    ),
                );
                UniChemLinks::Unavailable
            }
        }
    }
}

/// A circuit breaker: open (skip the upstream) until a moment after the last outage. The
/// lock is held only to read or set that moment, never across a request.
#[derive(Debug)]
struct Breaker {
    cool_down: Duration,
    open_until: Mutex<Option<Instant>>,
}

impl Breaker {
    fn new(cool_down: Duration) -> Self {
        Self {
            cool_down,
            open_until: Mutex::new(None),
        }
    }

    fn is_open(&self, now: Instant) -> bool {
        let until = self
            .open_until
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        until.is_some_and(|until| now < until)
    }

    /// Open it for the cool-down from `now`. True when it was closed (the caller logs).
    fn trip(&self, now: Instant) -> bool {
        let mut until = self
            .open_until
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let was_open = until.is_some_and(|until| now < until);
        *until = Some(now + self.cool_down);
        !was_open
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::config::DEFAULT_TIMEOUT;
    use lifesciences_core::{Env, SourceConfig, UpstreamFailure};

    fn config(upstream: &'static Upstream, pairs: &[(&str, &str)]) -> SourceConfig {
        Env::from_pairs(pairs).source_config(upstream).unwrap()
    }

    /// The longest one UniChem look-up can hold a call: every attempt up to its timeout,
    /// plus the waits between attempts.
    fn worst_case_wait(c: &SourceConfig) -> Duration {
        let attempts = u32::try_from(c.retry.max_retries + 1).unwrap_or(u32::MAX);
        let backoff = (c.retry.max_delay * (attempts - 1)).min(c.retry.max_total_wait);
        c.timeout * attempts + backoff
    }

    #[test]
    fn chembl_politeness_is_ten_per_second_ten_in_flight_with_core_retries() {
        let c = config(&CHEMBL, &[]);
        assert_eq!(c.base_url.as_str(), "https://www.ebi.ac.uk/chembl/api/data");
        assert_eq!(c.rate_per_second, 10.0);
        assert_eq!(c.max_concurrent, 10);
        assert_eq!(c.retry, RetryPolicy::default());
        assert_eq!(c.timeout, DEFAULT_TIMEOUT);
        assert!(!c.cache_posts);
    }

    #[test]
    fn unichem_politeness_is_five_per_second_short_timeout_no_retry_cached() {
        let c = config(&UNICHEM, &[]);
        assert_eq!(c.base_url.as_str(), "https://www.ebi.ac.uk/unichem/api/v1");
        assert_eq!(c.rate_per_second, 5.0);
        assert_eq!(c.max_concurrent, 5);
        assert_eq!(c.timeout, Duration::from_secs(4));
        assert_eq!(c.retry.max_retries, 0);
        assert!(c.cache_posts, "successful look-ups are cached");
        // One look-up never holds a call for more than 5 s...
        assert!(
            worst_case_wait(&c) <= Duration::from_secs(5),
            "{:?}",
            worst_case_wait(&c)
        );
        // ...even when the global timeout is long; it may only shorten UniChem's.
        let c = config(&UNICHEM, &[("LIFESCIENCES_TIMEOUT_SECS", "60")]);
        assert_eq!(c.timeout, Duration::from_secs(4));
        let c = config(&UNICHEM, &[("LIFESCIENCES_TIMEOUT_SECS", "2")]);
        assert_eq!(c.timeout, Duration::from_secs(2));
        let c = config(&UNICHEM, &[("UNICHEM_TIMEOUT_SECS", "0.5")]);
        assert_eq!(c.timeout, Duration::from_millis(500));
    }

    #[test]
    fn unichem_pauses_a_minute_after_an_outage_unless_told_otherwise() {
        let client = |pairs: &[(&str, &str)]| Env::from_pairs(pairs).client::<UniChemClient>();
        assert_eq!(
            client(&[]).unwrap().breaker.cool_down,
            Duration::from_secs(60)
        );
        let short = client(&[("UNICHEM_COOL_DOWN_SECS", "0.3")]).unwrap();
        assert_eq!(short.breaker.cool_down, Duration::from_millis(300));
        let err = client(&[("UNICHEM_COOL_DOWN_SECS", "soon")]).unwrap_err();
        assert!(
            err.to_string().starts_with("UNICHEM_COOL_DOWN_SECS"),
            "{err}"
        );
    }

    #[test]
    fn the_breaker_opens_for_its_cool_down_and_reports_only_the_first_trip() {
        let breaker = Breaker::new(Duration::from_secs(60));
        let t0 = Instant::now();
        assert!(!breaker.is_open(t0));
        assert!(breaker.trip(t0), "the first trip is reported");
        assert!(breaker.is_open(t0 + Duration::from_secs(59)));
        assert!(
            !breaker.trip(t0 + Duration::from_secs(1)),
            "a failure while open is not reported again"
        );
        assert!(breaker.is_open(t0 + Duration::from_secs(60)));
        assert!(!breaker.is_open(t0 + Duration::from_secs(62)));
        assert!(
            breaker.trip(t0 + Duration::from_secs(62)),
            "a new outage is reported"
        );
    }

    #[test]
    fn only_outages_trip_the_breaker() {
        let status = |status: u16| ApiError::Upstream {
            upstream: "UniChem".into(),
            failure: UpstreamFailure::Status {
                status,
                body: String::new(),
                retry_after: None,
            },
            attempts: 1,
        };
        for e in [
            status(500),
            status(503),
            status(429),
            ApiError::RateLimited {
                upstream: "UniChem".into(),
                retry_after: Duration::from_secs(1),
            },
            ApiError::Upstream {
                upstream: "UniChem".into(),
                failure: UpstreamFailure::Timeout {
                    after: Duration::from_secs(4),
                },
                attempts: 1,
            },
            ApiError::Upstream {
                upstream: "UniChem".into(),
                failure: UpstreamFailure::Connect {
                    detail: "refused".into(),
                },
                attempts: 1,
            },
        ] {
            assert!(e.is_transient(), "{e}");
        }
        for e in [
            status(400),
            status(422),
            ApiError::Upstream {
                upstream: "UniChem".into(),
                failure: UpstreamFailure::Decode {
                    path: ".".into(),
                    detail: "x".into(),
                },
                attempts: 1,
            },
        ] {
            assert!(!e.is_transient(), "{e}");
        }
    }

    /// A failure as the HTTP client reports ChEMBL's status `status` with body `body`.
    fn answered<T>(status: u16, body: &str) -> Result<T, ApiError> {
        let failure = UpstreamFailure::Status {
            status,
            body: body.to_owned(),
            retry_after: None,
        };
        Err(ApiError::from_failure("ChEMBL", failure, 1))
    }

    // ChEMBL's error bodies are not recorded. Its web-service code answers an unknown ID
    // with an empty 404 (tastypie's `HttpNotFound()` in `get_detail_impl`) and a search
    // it cannot run with 400 `{"error_message": "Search query too short"}`
    // (`check_user_search_query`), both in `core/resource.py` of
    // https://github.com/chembl/chembl_webservices_py3; the bodies below follow them.

    #[test]
    fn an_unknown_id_s_404_is_none_and_other_failures_stay_failures() {
        assert_eq!(unless_missing(Ok(7)).unwrap(), Some(7));
        assert_eq!(unless_missing::<u8>(answered(404, "")).unwrap(), None);
        for status in [400, 500, 503] {
            let e = unless_missing::<u8>(answered(status, "<html>error</html>")).unwrap_err();
            assert_eq!(e.upstream_status(), Some(status));
        }
    }

    #[test]
    fn a_refused_search_carries_chembl_s_error_message() {
        let refusal = |body: &str| match page_or_refusal(answered(400, body)) {
            Ok(Reply::Refused(refusal)) => refusal.error_message,
            other => panic!("a 400 is a refusal: {other:?}"),
        };
        assert_eq!(
            refusal(r#"{"error_message": "Search query too short"}"#).as_deref(),
            Some("Search query too short")
        );
        assert_eq!(
            refusal(r#"{"error_message": " Input string C1CC is not a valid SMILES string "}"#)
                .as_deref(),
            Some("Input string C1CC is not a valid SMILES string")
        );
        // No reason unless ChEMBL gave one in its documented form.
        for body in ["", r#"{"error_message": "  "}"#, "<html>Bad Request</html>"] {
            assert_eq!(refusal(body), None, "{body:?}");
        }
    }

    #[test]
    fn a_search_that_fails_otherwise_stays_a_failure() {
        let page: MoleculePage = serde_json::from_str(r#"{"molecules": []}"#).unwrap();
        assert!(matches!(page_or_refusal(Ok(page)), Ok(Reply::Found(_))));
        for status in [404, 500, 502] {
            let e = page_or_refusal(answered(status, "")).unwrap_err();
            assert_eq!(e.upstream_status(), Some(status));
        }
    }

    #[test]
    fn the_id_lookup_is_read_into_what_the_id_names() {
        let read = |v: serde_json::Value| IdEntry::read(serde_json::from_value(v).unwrap());
        // A target, as the lookup fixture has it (constructed from ChEMBL's field names).
        let recorded = include_str!("../tests/fixtures/chembl_id_lookup__CHEMBL221.json");
        assert_eq!(
            read(serde_json::from_str(recorded).unwrap()),
            IdEntry::Other {
                entity_type: "TARGET".into()
            }
        );
        let compound = |status: &str| read(json!({"entity_type": "COMPOUND", "status": status}));
        assert_eq!(compound("ACTIVE"), IdEntry::Compound);
        assert_eq!(compound(" active "), IdEntry::Compound);
        assert_eq!(read(json!({"entity_type": "compound"})), IdEntry::Compound);
        assert_eq!(
            compound(" OBS "),
            IdEntry::RetiredCompound {
                status: "OBS".into()
            }
        );
        assert_eq!(read(json!({"status": "ACTIVE"})), IdEntry::Untyped);
        assert_eq!(read(json!({"entity_type": "  "})), IdEntry::Untyped);
    }
}
