//! Exports: a list tool's whole list as one table, fetched page after page past the
//! page cap, kept for `resources/read` (`export://<id>.tsv`) and, over HTTP, for
//! download (`/exports/<id>.tsv`), while the answer to the call is a short summary.
//!
//! A list tool says once, where it is declared ([`Declared::paged`] or
//! [`Declared::capped`]), which array of its answer holds the rows and which argument
//! sets how many; core adds the [`ARGUMENT`] to its input schema (`offer`) and, when a
//! call carries it, pages the tool by its name as a client would (`server/export.rs`),
//! through the same HTTP clients, budgets and fair share as every call. The rows of
//! the table are the rows a client gets by paging the JSON; how they become cells is
//! `table.rs`'s rule.
//!
//! **Invariant:** an export never hides that it is partial: a list cut at the tool's
//! largest limit, the row or size bound reached, or a page that failed after the first
//! makes `complete: false` with a note that says which, in the answer and in the table's
//! `#` lines. A first page that fails is the call's error, as without an export.
//!
//! [`Declared::paged`]: crate::server::Declared::paged
//! [`Declared::capped`]: crate::server::Declared::capped

mod gather;
mod summary;
pub mod table;

use std::time::{Duration, SystemTime};

use rmcp::model::{JsonObject, Tool};
use serde_json::{Value, json};

use crate::error::ApiError;

pub(crate) use gather::{Next, gather};
pub(crate) use summary::{Made, Summary, comments, summarise};
pub use table::Table;

/// The argument every list tool takes: `tsv` or `csv`.
pub const ARGUMENT: &str = "export";
/// The scheme of an exported table's URI: `export://<id>.tsv`.
pub const RESOURCE_SCHEME: &str = "export://";
/// Where an HTTP server serves exported tables: `/exports/<id>.tsv`.
pub const DOWNLOAD_PATH: &str = "/exports/";
/// The most rows an export holds; the fetch stops there and says so.
pub const MAX_ROWS: usize = 100_000;
/// The most bytes an export's rows take written out (64 MiB); the fetch stops there and
/// says so.
pub const MAX_BYTES: usize = 64 * 1024 * 1024;
/// The most pages an export asks for (a list whose pages came back empty would
/// otherwise never end).
pub const MAX_PAGES: usize = 2_000;
/// The most bytes of JSON the answer to an export takes, provenance included: example
/// rows are dropped to stay within it.
pub const MAX_SUMMARY_BYTES: usize = 2048;
/// How long a table is kept at least, whatever the answers' time-to-live (an answer
/// cache turned off must not make a table unreadable the moment it is made).
pub const MIN_TTL: Duration = Duration::from_secs(15 * 60);
/// The argument's description: what a model reads in every list tool, so short.
const DESCRIPTION: &str = "Every row as one table.";

/// The table formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Tab-separated values.
    Tsv,
    /// Comma-separated values.
    Csv,
}

impl Format {
    /// Its name, also the file extension: `tsv` or `csv`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Tsv => "tsv",
            Self::Csv => "csv",
        }
    }

    /// Its MIME type.
    pub fn mime_type(self) -> &'static str {
        match self {
            Self::Tsv => "text/tab-separated-values",
            Self::Csv => "text/csv",
        }
    }

    /// Its cell delimiter.
    pub fn delimiter(self) -> char {
        match self {
            Self::Tsv => '\t',
            Self::Csv => ',',
        }
    }

    /// The format a file name ends in.
    fn of_file(name: &str) -> Option<Self> {
        [Self::Tsv, Self::Csv]
            .into_iter()
            .find(|f| name.ends_with(&format!(".{}", f.name())))
    }
}

/// Where the HTTP transport serves exported tables, put in the extensions of each
/// request to `/mcp`: the prefix a table's file name is appended to (`/exports/`, or the
/// absolute URL next to the public MCP endpoint's when `LIFESCIENCES_PUBLIC_URL` names
/// it). Absent over stdio, where a table is read with `resources/read` only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Downloads(pub std::sync::Arc<str>);

/// How a list tool's answer holds its rows and how it pages, as its declaration says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listing {
    /// The array of the answer that holds the rows: `items`, `activities`, `edges`…
    pub rows: &'static str,
    /// The argument that sets how many rows an answer holds (`limit`, `page_size`); an
    /// export sets it to the largest its input schema allows.
    pub size: &'static str,
    /// Whether it pages: a `cursor` argument, and `pagination.cursor` in the answer.
    /// Otherwise one call answers all it can, and says `truncated` where it cut.
    pub paged: bool,
}

/// Add the [`ARGUMENT`] to a list tool's definition.
pub(crate) fn offer(tool: &mut Tool) {
    let mut schema = (*tool.input_schema).clone();
    if let Value::Object(properties) = schema
        .entry("properties")
        .or_insert_with(|| Value::Object(JsonObject::new()))
    {
        properties.insert(
            ARGUMENT.to_owned(),
            json!({"description": DESCRIPTION, "enum": ["tsv", "csv"], "type": "string"}),
        );
    }
    tool.input_schema = std::sync::Arc::new(schema);
}

/// Take the [`ARGUMENT`] out of a call's arguments: the format asked for, if any. A value
/// that is not a format is the caller's mistake, said as such.
pub(crate) fn requested(arguments: &mut Option<JsonObject>) -> Result<Option<Format>, ApiError> {
    let Some(value) = arguments.as_mut().and_then(|args| args.remove(ARGUMENT)) else {
        return Ok(None);
    };
    let refused = |shown: String| {
        ApiError::invalid_input(
            format!("Argument '{ARGUMENT}' must be \"tsv\" or \"csv\"."),
            "Pass export: \"tsv\" or \"csv\" for the whole list as a table, or leave it out for a page of JSON.",
            shown,
        )
    };
    match &value {
        Value::Null => Ok(None),
        Value::String(text) => match text.trim().to_ascii_lowercase().as_str() {
            "tsv" => Ok(Some(Format::Tsv)),
            "csv" => Ok(Some(Format::Csv)),
            _ => Err(refused(text.clone())),
        },
        other => Err(refused(other.to_string())),
    }
}

/// The largest value the input schema of `tool` allows for the argument `size`.
pub(crate) fn largest(tool: &Tool, size: &str) -> Option<u64> {
    tool.input_schema
        .get("properties")?
        .get(size)?
        .get("maximum")?
        .as_u64()
}

/// How long a table made now is kept: as long as the answers it was made from stay
/// fresh (`LIFESCIENCES_CACHE_TTL_SECS`), at least [`MIN_TTL`].
pub(crate) fn ttl() -> Duration {
    crate::records::answers_ttl()
        .unwrap_or_default()
        .max(MIN_TTL)
}

/// A new table's file name: 128 random bits in hexadecimal (from the system's secure
/// generator: the name is all a caller without authentication needs to read it) and
/// the format's extension.
pub(crate) fn new_name(format: Format) -> Option<String> {
    use ring::rand::SecureRandom as _;
    let mut bits = [0_u8; 16];
    ring::rand::SystemRandom::new().fill(&mut bits).ok()?;
    let hex: String = bits.iter().map(|b| format!("{b:02x}")).collect();
    Some(format!("{hex}.{}", format.name()))
}

/// Whether `name` is a table's file name as [`new_name`] makes them.
fn well_formed(name: &str) -> bool {
    match name.split_once('.') {
        Some((id, ext)) => {
            id.len() == 32
                && id.bytes().all(|b| b.is_ascii_hexdigit())
                && Format::of_file(name).is_some_and(|f| f.name() == ext)
        }
        None => false,
    }
}

/// Keep the table `name` for `owner` (a principal's name) for `ttl`, in this process
/// and in the shared store before the answer names it, so any replica can serve it:
/// whether the store took it.
pub(crate) async fn keep(name: &str, text: String, ttl: Duration, owner: &str) -> bool {
    crate::records::EXPORTS
        .keep_stored(name, std::sync::Arc::from(text), ttl, Some(owner))
        .await
}

/// The table a file name (`<id>.tsv`) names, for `owner` (a principal's name), with its
/// format: `None` when it was never made, has expired, or is another principal's.
pub async fn table(name: &str, owner: &str) -> Option<(Format, std::sync::Arc<str>)> {
    if !well_formed(name) {
        return None;
    }
    let format = Format::of_file(name)?;
    let text = crate::records::EXPORTS.read(name, owner).await?;
    Some((format, text))
}

/// The table an `export://<id>.tsv` URI names (see [`table()`]).
pub async fn resource(uri: &str, owner: &str) -> Option<(Format, std::sync::Arc<str>)> {
    table(uri.strip_prefix(RESOURCE_SCHEME)?, owner).await
}

/// When a table kept now for `ttl` expires, as RFC 3339.
pub(crate) fn expires_at(ttl: Duration) -> String {
    crate::provenance::rfc3339(SystemTime::now() + ttl)
}

/// The JSON pointers of the objects in `value` that say `truncated: true` (`""` for
/// `value` itself): the lists a tool cut at its limit.
pub(crate) fn truncated_paths(value: &Value) -> Vec<String> {
    fn walk(value: &Value, path: &mut String, found: &mut Vec<String>) {
        let len = path.len();
        match value {
            Value::Object(map) => {
                if map.get("truncated") == Some(&Value::Bool(true)) {
                    found.push(path.clone());
                }
                for (key, child) in map {
                    path.push('/');
                    path.push_str(key);
                    walk(child, path, found);
                    path.truncate(len);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    path.push('/');
                    path.push_str(&i.to_string());
                    walk(child, path, found);
                    path.truncate(len);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(value, &mut String::new(), &mut found);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cut_list_is_named_by_its_path() {
        let result = json!({
            "truncated": true,
            "datasets": [{"name": "a", "truncated": false}, {"name": "b", "truncated": true}],
            "partners": {"items": [], "truncated": true}
        });
        // JSON pointers: "" is the result itself.
        assert_eq!(truncated_paths(&result), ["", "/datasets/1", "/partners"]);
        assert!(truncated_paths(&json!({"items": [1]})).is_empty());
    }

    #[test]
    fn the_argument_is_taken_out_and_read_or_refused_in_words() {
        let mut args = Some(
            json!({"query": "TP53", "export": " TSV "})
                .as_object()
                .cloned()
                .unwrap(),
        );
        assert_eq!(requested(&mut args).unwrap(), Some(Format::Tsv));
        assert_eq!(args.unwrap().len(), 1, "the tool never sees it");
        let mut none = Some(JsonObject::new());
        assert_eq!(requested(&mut none).unwrap(), None);
        for bad in [json!("xlsx"), json!(true)] {
            let mut args = Some(json!({ "export": bad }).as_object().cloned().unwrap());
            let error = requested(&mut args).unwrap_err().to_envelope().error;
            assert_eq!(error.code, crate::ErrorCode::InvalidInput);
            assert_eq!(
                error.message,
                "Argument 'export' must be \"tsv\" or \"csv\"."
            );
        }
    }

    #[test]
    fn names_are_128_random_bits_and_only_such_names_are_read() {
        let a = new_name(Format::Tsv).unwrap();
        let b = new_name(Format::Csv).unwrap();
        assert!(well_formed(&a) && well_formed(&b) && a != b, "{a} {b}");
        assert!(a.ends_with(".tsv") && b.ends_with(".csv"));
        for bad in [
            "../etc/passwd",
            "abc.tsv",
            &a.replace(".tsv", ".xlsx"),
            &a[..32],
        ] {
            assert!(!well_formed(bad), "{bad}");
        }
    }

    #[test]
    fn a_table_lives_as_long_as_the_answers_and_at_least_a_quarter_hour() {
        assert!(ttl() >= MIN_TTL);
    }
}
