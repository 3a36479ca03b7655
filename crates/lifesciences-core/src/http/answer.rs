//! What a source client decodes an upstream answer into, and when a decoded answer is
//! still not one the upstream documents.

use serde::de::DeserializeOwned;

/// What a source client decodes an upstream answer into. Decoding is not enough: an
/// answer that decodes but says nothing the upstream documents (`[{"unexpected": 1}]` read
/// as rows whose fields are all optional) must not pass for "no results" or "not found".
/// [`unusable`](Answer::unusable) says so, and the HTTP client then treats the body as
/// one it cannot read: `UPSTREAM_ERROR`, logged, and never served from the cache again.
///
/// List answers get it from [`Row`]: a `Vec<T: Row>` that has rows but not one usable row
/// is unusable. Every type a server decodes into implements this trait (most with the
/// default: their required fields already make a wrong shape fail to decode).
pub trait Answer: DeserializeOwned {
    /// Why this decoded answer is not one the upstream documents; `None` when it is.
    fn unusable(&self) -> Option<String> {
        None
    }
}

/// One row of a list answer.
pub trait Row {
    /// Whether the row carries what makes it a row (its identifier, say).
    fn usable(&self) -> bool;
}

impl<T: Row + DeserializeOwned> Answer for Vec<T> {
    fn unusable(&self) -> Option<String> {
        (!self.is_empty() && !self.iter().any(Row::usable)).then(|| {
            format!(
                "{} row(s), none with the fields a row must have",
                self.len()
            )
        })
    }
}

/// A map of rows by the identifier asked for (a batch look-up), `null` for a miss: it is
/// unusable when it has rows and not one usable row.
impl<K, V> Answer for std::collections::HashMap<K, Option<V>>
where
    K: DeserializeOwned + Eq + std::hash::Hash,
    V: Row + DeserializeOwned,
{
    fn unusable(&self) -> Option<String> {
        let rows: Vec<&V> = self.values().flatten().collect();
        (!rows.is_empty() && !rows.iter().any(|row| row.usable())).then(|| {
            format!(
                "{} record(s), none with the fields a record must have",
                rows.len()
            )
        })
    }
}

impl Answer for serde_json::Value {}
/// An answer that may be absent: a redirect's empty body is read as `null`.
impl<T: Answer> Answer for Option<T> {
    fn unusable(&self) -> Option<String> {
        self.as_ref().and_then(Answer::unusable)
    }
}
