//! The wire shapes every tool shares: `PaginationEnvelope`, `ErrorEnvelope`, `ErrorCode`.
//!
//! These are the only places where `null` may appear on the wire: `pagination.cursor`
//! (null on the last page) and `pagination.total_count` (null when the upstream does not say).
//! Everything else omits missing values.

use rmcp::schemars::{self, JsonSchema};
use serde::{Deserialize, Serialize};

/// What went wrong, as a stable machine-readable code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// A strict tool got something that is not its CURIE/ID form.
    UnresolvedEntity,
    /// A well-formed identifier the upstream has no record of.
    EntityNotFound,
    /// A query shorter than 2 characters, or too broad.
    AmbiguousQuery,
    /// A malformed non-identifier argument: cursor, region, species, out-of-range number.
    InvalidInput,
    /// The upstream kept answering 429, or asked for a longer wait than a call can hold.
    RateLimited,
    /// 5xx, timeout, connection failure, undecodable or oversized body.
    UpstreamError,
    /// Reserved: a cross-reference value failed the registry's pattern (never emitted:
    /// such values are dropped and logged).
    InvalidCrossReference,
}

impl ErrorCode {
    /// The code as it appears on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::UnresolvedEntity => "UNRESOLVED_ENTITY",
            Self::EntityNotFound => "ENTITY_NOT_FOUND",
            Self::AmbiguousQuery => "AMBIGUOUS_QUERY",
            Self::InvalidInput => "INVALID_INPUT",
            Self::RateLimited => "RATE_LIMITED",
            Self::UpstreamError => "UPSTREAM_ERROR",
            Self::InvalidCrossReference => "INVALID_CROSS_REFERENCE",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The structured content of every tool error: `{"success": false, "error": {...}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorEnvelope {
    /// Always false.
    pub success: bool,
    /// What failed and what to do next.
    pub error: ErrorBody,
}

/// The body of an [`ErrorEnvelope`].
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorBody {
    /// Stable machine-readable code.
    pub code: ErrorCode,
    /// What failed, in plain words, naming the source.
    pub message: String,
    /// The next step that is likely to work.
    pub recovery_hint: String,
    /// Exactly what the caller sent for the offending argument.
    #[serde(default)]
    pub invalid_input: Option<String>,
    /// Seconds to wait before retrying (RATE_LIMITED only).
    #[serde(default)]
    pub retry_after_secs: Option<u64>,
    /// Close matches the caller may have meant (ENTITY_NOT_FOUND, when cheap to find).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<String>,
}

/// A page of a list tool's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PaginationEnvelope<T> {
    /// The results of this page, best first.
    pub items: Vec<T>,
    /// Where this page sits and how to get the next one.
    pub pagination: Pagination,
}

/// Paging state of a [`PaginationEnvelope`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Pagination {
    /// Pass this back as `cursor` to get the next page; null on the last page.
    pub cursor: Option<String>,
    /// Total number of results, or null when the upstream does not say.
    pub total_count: Option<u64>,
    /// The page size used for this page.
    pub page_size: u32,
}

impl<T> PaginationEnvelope<T> {
    /// A page with an explicit next cursor (None on the last page).
    pub fn new(
        items: Vec<T>,
        cursor: Option<String>,
        total_count: Option<u64>,
        page_size: u32,
    ) -> Self {
        Self {
            items,
            pagination: Pagination {
                cursor,
                total_count,
                page_size,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_envelope_omits_absent_fields() {
        let envelope = ErrorEnvelope {
            success: false,
            error: ErrorBody {
                code: ErrorCode::UnresolvedEntity,
                message: "ChEMBL identifiers are CURIEs such as 'CHEMBL:25'.".into(),
                recovery_hint: "Use format 'CHEMBL:123'".into(),
                invalid_input: Some("CHEMBL123".into()),
                retry_after_secs: None,
                suggestions: vec![],
            },
        };
        insta::assert_json_snapshot!(envelope, @r#"
        {
          "success": false,
          "error": {
            "code": "UNRESOLVED_ENTITY",
            "message": "ChEMBL identifiers are CURIEs such as 'CHEMBL:25'.",
            "recovery_hint": "Use format 'CHEMBL:123'",
            "invalid_input": "CHEMBL123"
          }
        }
        "#);
    }

    #[test]
    fn last_page_has_null_cursor_and_total() {
        let page = PaginationEnvelope::new(vec![1, 2], None, None, 50);
        insta::assert_json_snapshot!(page, @r#"
        {
          "items": [
            1,
            2
          ],
          "pagination": {
            "cursor": null,
            "total_count": null,
            "page_size": 50
          }
        }
        "#);
    }

    #[test]
    fn codes_serialise_as_the_contract_spells_them() {
        for code in [
            ErrorCode::UnresolvedEntity,
            ErrorCode::EntityNotFound,
            ErrorCode::AmbiguousQuery,
            ErrorCode::InvalidInput,
            ErrorCode::RateLimited,
            ErrorCode::UpstreamError,
            ErrorCode::InvalidCrossReference,
        ] {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::Value::String(code.as_str().to_owned())
            );
        }
    }
}
