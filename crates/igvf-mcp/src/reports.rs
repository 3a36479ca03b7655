//! What the association tools report besides the associations: the entity queried
//! ([`QueriedEntity`]) and what each data set contributed ([`DatasetReport`], with its
//! [`DatasetError`] when it failed). Shared by `igvf_find_associations` and
//! `igvf_query_associations`.

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, ErrorCode};
use serde::Serialize;

use crate::ids::EntityKind;

/// The entity associations were looked for.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct QueriedEntity {
    /// The input, as given.
    pub input: String,
    /// Its kind.
    #[serde(rename = "_type")]
    pub kind: EntityKind,
    /// How the input was read.
    pub detected_as: String,
    /// Its ID, when resolved (e.g. the ENSG of a symbol, the ENSP of a UniProt accession).
    pub id: Option<String>,
    /// Its gene symbol, when known.
    pub symbol: Option<String>,
}

/// An error of one data set (the others still answered).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct DatasetError {
    /// The error code, e.g. `UPSTREAM_ERROR`.
    pub code: ErrorCode,
    /// What failed.
    pub message: String,
}

impl DatasetError {
    /// The code and message of `e`'s envelope.
    pub(crate) fn of(e: &ApiError) -> Self {
        let body = e.to_envelope().error;
        Self {
            code: body.code,
            message: body.message,
        }
    }
}

/// What one data set contributed (`igvf_list_sources` describes each).
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct DatasetReport {
    /// The catalog endpoint, e.g. `/genes/variants`.
    pub dataset: String,
    /// Its relationship.
    pub relationship: String,
    /// Associations returned from it.
    pub returned: u32,
    /// True when more exist than were returned (raise `limit` or filter).
    pub truncated: bool,
    /// Why it was skipped, or how it was filtered.
    pub note: Option<String>,
    /// Set when this data set failed.
    pub error: Option<DatasetError>,
}
