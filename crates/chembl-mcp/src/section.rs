//! A list within a result that says whether it is whole: a [`Section`] is complete,
//! truncated (with ChEMBL's total) or failed (with why), and [`section`] makes one of a
//! ChEMBL list answer. Used by `chembl_get_drug_profile` (mechanisms, indications,
//! warnings) and `chembl_get_target` (the drugs acting on it).

use lifesciences_core::ApiError;
use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use serde::Serialize;

use crate::client::Listed;

/// Whether a list is whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ListStatus {
    /// Every record ChEMBL has.
    Complete,
    /// ChEMBL has more than were read (`total`).
    Truncated,
    /// The request failed; `error` says why.
    Failed,
}

/// One list of the profile.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Section<T> {
    pub status: ListStatus,
    /// Items listed.
    pub count: usize,
    /// Records ChEMBL has, when more than listed.
    pub total: Option<u64>,
    pub items: Vec<T>,
    /// Why the list failed.
    pub error: Option<String>,
}

/// A list read (or not) as a section: its items mapped and deduplicated, `truncated` when
/// ChEMBL counts more than were read, `failed` with the reason when the request failed.
pub(crate) fn section<R, T>(
    answer: Result<Listed<R>, ApiError>,
    map: impl Fn(&R) -> T,
) -> Section<T>
where
    T: PartialEq,
{
    match answer {
        Ok(listed) => {
            let mut items: Vec<T> = Vec::new();
            for r in &listed.records {
                let item = map(r);
                if !items.contains(&item) {
                    items.push(item);
                }
            }
            let read = listed.records.len() as u64;
            let cut = listed.total.is_some_and(|t| t > read);
            Section {
                status: if cut {
                    ListStatus::Truncated
                } else {
                    ListStatus::Complete
                },
                count: items.len(),
                total: listed.total.filter(|_| cut),
                items,
                error: None,
            }
        }
        Err(e) => Section {
            status: ListStatus::Failed,
            count: 0,
            total: None,
            items: Vec::new(),
            error: Some(e.to_envelope().error.message),
        },
    }
}
