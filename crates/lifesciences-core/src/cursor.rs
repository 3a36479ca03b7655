//! Opaque pagination cursors, tied to the query that minted them.
//!
//! A cursor is URL-safe base64 of a small JSON object: `{"q": <digest of the query scope>,
//! "p": <position>}`. The scope is a string the tool builds from everything that defines the
//! result list (tool name, normalised query, filters). Decoding with another scope, or a
//! garbled cursor, is `INVALID_INPUT`, so an agent never silently gets a page of a different
//! query.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::envelope::PaginationEnvelope;
use crate::error::ApiError;

#[derive(Serialize, Deserialize)]
struct Wire<P> {
    q: String,
    p: P,
}

/// FNV-1a, 64 bits: stable across Rust versions and platforms (unlike `DefaultHasher`),
/// which matters because cursors outlive a process in HTTP mode.
fn digest(scope: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in scope.as_bytes() {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// Mint a cursor for `position` (usually the offset of the next page) within `scope`.
pub fn encode<P: Serialize>(scope: &str, position: &P) -> String {
    let wire = Wire {
        q: digest(scope),
        p: position,
    };
    // Serialising a string and a plain position cannot fail; an empty cursor would only
    // make the next call start over, never return wrong data.
    let json = serde_json::to_vec(&wire).unwrap_or_default();
    URL_SAFE_NO_PAD.encode(json)
}

/// Read a cursor minted by [`encode`] for the same `scope`.
pub fn decode<P: DeserializeOwned>(cursor: &str, scope: &str) -> Result<P, ApiError> {
    let invalid = |why: &str| {
        ApiError::invalid_input(
            format!("The cursor is not valid for this query ({why})."),
            "Pass the cursor exactly as returned in `pagination.cursor` by the previous page \
             of the same query (same query text and filters), or omit it to start from the \
             first page.",
            cursor,
        )
    };
    let bytes = URL_SAFE_NO_PAD
        .decode(cursor.trim().trim_end_matches('='))
        .map_err(|_| invalid("it is not a cursor this server issued"))?;
    let wire: Wire<P> = serde_json::from_slice(&bytes)
        .map_err(|_| invalid("it is not a cursor this server issued"))?;
    if wire.q != digest(scope) {
        return Err(invalid("it was issued for a different query"));
    }
    Ok(wire.p)
}

impl<T> PaginationEnvelope<T> {
    /// A page of an offset-paged query: the cursor for the next page is minted from
    /// `scope` (see [`encode`]) when `has_more` is true.
    pub fn from_offset(
        items: Vec<T>,
        scope: &str,
        offset: u64,
        page_size: u32,
        total_count: Option<u64>,
        has_more: bool,
    ) -> Self {
        let next = offset.saturating_add(items.len() as u64);
        let cursor = has_more.then(|| encode(scope, &next));
        Self::new(items, cursor, total_count, page_size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_page_mints_a_cursor_only_when_more_remain() {
        let page = PaginationEnvelope::from_offset(vec!["a", "b"], "q", 10, 2, Some(20), true);
        let cursor = page.pagination.cursor.clone().expect("more pages remain");
        assert_eq!(decode::<u64>(&cursor, "q").ok(), Some(12));
        let last = PaginationEnvelope::from_offset(vec!["c"], "q", 18, 2, Some(19), false);
        assert_eq!(last.pagination.cursor, None);
    }
    use crate::envelope::ErrorCode;

    #[test]
    fn round_trips_within_the_same_scope() {
        let c = encode("string_search_proteins|tp53|9606", &50u64);
        assert_eq!(
            decode::<u64>(&c, "string_search_proteins|tp53|9606").unwrap(),
            50
        );
        // URL-safe and free of padding: safe to paste anywhere.
        assert!(
            c.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_')
        );
    }

    #[test]
    fn a_cursor_from_another_query_is_invalid_input() {
        let c = encode("q=tp53", &50u64);
        let err = decode::<u64>(&c, "q=brca1").unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidInput);
        let body = err.to_envelope().error;
        assert_eq!(body.invalid_input.as_deref(), Some(c.as_str()));
        assert!(body.message.contains("different query"), "{}", body.message);
    }

    #[test]
    fn garbled_cursors_are_invalid_input() {
        for garbage in ["", "not a cursor!", "e30", "eyJxIjoiMSJ9", "%%%"] {
            let err = decode::<u64>(garbage, "scope").unwrap_err();
            assert_eq!(err.code(), ErrorCode::InvalidInput, "{garbage}");
        }
    }

    #[test]
    fn digest_is_stable() {
        // Pinned so a toolchain upgrade cannot silently invalidate cursors in flight.
        assert_eq!(digest(""), "cbf29ce484222325");
        assert_eq!(digest("a"), "af63dc4c8601ec8c");
    }

    #[test]
    fn positions_can_be_structured() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct Pos {
            page: u32,
            within: u32,
        }
        let c = encode("s", &Pos { page: 3, within: 7 });
        assert_eq!(decode::<Pos>(&c, "s").unwrap(), Pos { page: 3, within: 7 });
    }
}
