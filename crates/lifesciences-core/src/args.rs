//! Tool arguments: an extractor that turns undecodable arguments into an `INVALID_INPUT`
//! envelope (never a raw serde message), forgiving number and boolean parsing, and the
//! checks every search tool shares (query length, numeric ranges).
//!
//! Use [`Parameters`] in `#[tool]` fns instead of rmcp's: the `#[tool]` macro recognises
//! it by name and derives the input schema from `T`.
//!
//! ```ignore
//! async fn search(&self, Parameters(args): Parameters<SearchArgs>) -> Result<Json<Page>, ApiError> {
//!     let args = args?; // INVALID_INPUT envelope if the arguments did not decode
//!     ...
//! }
//! ```

use std::borrow::Cow;
use std::fmt::Display;
use std::str::FromStr;

use rmcp::handler::server::{common::FromContextPart, tool::ToolCallContext};
use rmcp::schemars::{self, JsonSchema};
use serde::{Deserialize, Deserializer, de::DeserializeOwned};

use crate::error::{ApiError, MIN_QUERY_CHARS};

/// A tool's arguments, or the `INVALID_INPUT` error explaining why they did not decode.
pub struct Parameters<T>(pub Result<T, ApiError>);

impl<T: JsonSchema> JsonSchema for Parameters<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

impl<S, T: DeserializeOwned> FromContextPart<ToolCallContext<'_, S>> for Parameters<T> {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, rmcp::ErrorData> {
        let arguments = context.arguments.take().unwrap_or_default();
        Ok(Self(decode_arguments(serde_json::Value::Object(arguments))))
    }
}

/// Decode tool arguments, explaining failures in words an agent can act on.
pub fn decode_arguments<T: DeserializeOwned>(arguments: serde_json::Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize::<_, T>(&arguments).map_err(|e| {
        let path = e.path().to_string();
        let offending = offending_value(&arguments, e.path(), &e.inner().to_string());
        explain(&path, &e.inner().to_string(), offending)
    })
}

/// What the caller sent for the argument that failed: the value at the error's path, or
/// for an unknown argument the value given under that name; nothing for a missing one.
fn offending_value(
    arguments: &serde_json::Value,
    path: &serde_path_to_error::Path,
    serde_message: &str,
) -> Option<String> {
    use serde_path_to_error::Segment;
    let mut node = arguments;
    for segment in path.iter() {
        node = match segment {
            Segment::Map { key } => node.get(key.as_str())?,
            Segment::Seq { index } => node.get(*index)?,
            Segment::Enum { .. } | Segment::Unknown => node,
        };
    }
    if serde_message.starts_with("missing field ") {
        return None;
    }
    // The path of an unknown field may stop at its parent object.
    if let Some(rest) = serde_message.strip_prefix("unknown field ")
        && let Some(name) = rest.split('`').nth(1)
        && let Some(value) = node.get(name)
    {
        node = value;
    }
    Some(match node {
        serde_json::Value::String(text) => text.clone(),
        other => other.to_string(),
    })
}

/// Turn a serde message into a sentence about the argument.
fn explain(path: &str, serde_message: &str, offending: Option<String>) -> ApiError {
    let hint = "Fix that argument and call the tool again; the tool's input schema lists every \
                argument with its type, range and allowed values.";
    let between = |s: &str| {
        let start = s.find('`')?;
        let rest = &s[start + 1..];
        rest.find('`').map(|end| rest[..end].to_owned())
    };
    let message = if let Some(rest) = serde_message.strip_prefix("missing field ") {
        let name = between(rest).unwrap_or_else(|| rest.to_owned());
        let name = if path == "." {
            name
        } else {
            format!("{path}.{name}")
        };
        format!("Argument '{name}' is required.")
    } else if let Some(rest) = serde_message.strip_prefix("unknown field ") {
        let name = between(rest).unwrap_or_default();
        let accepted = rest
            .split_once("expected ")
            .map(|(_, list)| list.replace("one of ", "").replace('`', "'"))
            .unwrap_or_default();
        format!("Unknown argument '{name}'. This tool accepts: {accepted}.")
    } else if let Some(rest) = serde_message.strip_prefix("unknown variant ") {
        let got = between(rest).unwrap_or_default();
        let accepted = rest
            .split_once("expected ")
            .map(|(_, list)| list.replace("one of ", "").replace('`', "'"))
            .unwrap_or_default();
        format!("Argument '{path}' must be one of {accepted}; got '{got}'.")
    } else if let Some(rest) = serde_message.strip_prefix("invalid type: ") {
        let (got, expected) = rest
            .split_once(", expected ")
            .unwrap_or((rest, "another type"));
        format!(
            "Argument '{path}' has the wrong type: expected {}, got {got}.",
            plain_type(expected)
        )
    } else if let Some(rest) = serde_message.strip_prefix("invalid value: ") {
        let (got, expected) = rest
            .split_once(", expected ")
            .unwrap_or((rest, "another value"));
        format!(
            "Argument '{path}' is out of range: expected {}, got {got}.",
            plain_type(expected)
        )
    } else if path == "." {
        format!("The arguments are not valid: {serde_message}.")
    } else {
        format!("Argument '{path}' is not valid: {serde_message}.")
    };
    ApiError::InvalidInput(crate::error::Guidance {
        message,
        recovery_hint: hint.to_owned(),
        invalid_input: offending,
        suggestions: Vec::new(),
    })
}

/// Serde names Rust types ("u32", "f64"); an agent reads JSON Schema types.
fn plain_type(expected: &str) -> String {
    match expected.trim() {
        "u8" | "u16" | "u32" | "u64" | "usize" => "a non-negative integer".to_owned(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "an integer".to_owned(),
        "f32" | "f64" => "a number".to_owned(),
        "a boolean" | "bool" => "true or false".to_owned(),
        "a string" => "a string".to_owned(),
        "a sequence" => "a list".to_owned(),
        "a map" => "an object".to_owned(),
        other if other.starts_with("struct ") => "an object".to_owned(),
        other => other.replace('`', "'"),
    }
}

/// Forgiving deserializers for argument fields: numbers and booleans also accepted as
/// strings (`"10"`, `"0.5"`, `"true"`), whole floats as integers (`10.0`). Use with
/// `#[serde(default, deserialize_with = "lenient::opt_u32")]`; the schema still says
/// integer.
pub mod lenient {
    use super::*;

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Loose {
        Int(i64),
        Float(f64),
        Bool(bool),
        Text(String),
    }

    fn parse<'de, D, T>(deserializer: D, what: &str) -> Result<Option<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: FromStr + TryFrom<i64>,
        <T as FromStr>::Err: Display,
    {
        let invalid = |shown: &str| {
            serde::de::Error::invalid_value(serde::de::Unexpected::Other(shown), &what)
        };
        match Option::<Loose>::deserialize(deserializer)? {
            None => Ok(None),
            Some(Loose::Int(i)) => T::try_from(i)
                .map(Some)
                .map_err(|_| invalid(&i.to_string())),
            Some(Loose::Float(f)) if f.fract() == 0.0 && f.abs() < 9e15 => {
                // Exactly representable whole number: `10.0` means 10.
                let i = f as i64;
                T::try_from(i)
                    .map(Some)
                    .map_err(|_| invalid(&f.to_string()))
            }
            Some(Loose::Float(f)) => Err(invalid(&f.to_string())),
            Some(Loose::Bool(b)) => Err(invalid(&b.to_string())),
            Some(Loose::Text(s)) if s.trim().is_empty() => Ok(None),
            Some(Loose::Text(s)) => s
                .trim()
                .parse::<T>()
                .map(Some)
                .map_err(|_| invalid(&format!("\"{s}\""))),
        }
    }

    /// An optional non-negative integer.
    pub fn opt_u32<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
        parse(deserializer, "a non-negative integer")
    }

    /// An optional non-negative integer (64-bit).
    pub fn opt_u64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
        parse(deserializer, "a non-negative integer")
    }

    /// An optional integer.
    pub fn opt_i64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
        parse(deserializer, "an integer")
    }

    /// An optional number.
    pub fn opt_f64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<f64>, D::Error> {
        let invalid = |shown: &str| {
            serde::de::Error::invalid_value(serde::de::Unexpected::Other(shown), &"a number")
        };
        match Option::<Loose>::deserialize(deserializer)? {
            None => Ok(None),
            Some(Loose::Int(i)) => Ok(Some(i as f64)),
            Some(Loose::Float(f)) => Ok(Some(f)),
            Some(Loose::Bool(b)) => Err(invalid(&b.to_string())),
            Some(Loose::Text(s)) if s.trim().is_empty() => Ok(None),
            Some(Loose::Text(s)) => match s.trim().parse::<f64>() {
                Ok(f) if f.is_finite() => Ok(Some(f)),
                _ => Err(invalid(&format!("\"{s}\""))),
            },
        }
    }

    /// An optional boolean (`true`, `"true"`, `"yes"`, `1`...).
    pub fn opt_bool<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<bool>, D::Error> {
        let invalid = |shown: &str| {
            serde::de::Error::invalid_value(serde::de::Unexpected::Other(shown), &"true or false")
        };
        match Option::<Loose>::deserialize(deserializer)? {
            None => Ok(None),
            Some(Loose::Bool(b)) => Ok(Some(b)),
            Some(Loose::Int(0)) => Ok(Some(false)),
            Some(Loose::Int(1)) => Ok(Some(true)),
            Some(Loose::Int(i)) => Err(invalid(&i.to_string())),
            Some(Loose::Float(f)) => Err(invalid(&f.to_string())),
            Some(Loose::Text(s)) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "1" => Ok(Some(true)),
                "false" | "no" | "0" => Ok(Some(false)),
                "" => Ok(None),
                _ => Err(invalid(&format!("\"{s}\""))),
            },
        }
    }
}

/// A search query: trimmed, at least [`MIN_QUERY_CHARS`] characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchQuery(String);

impl SearchQuery {
    /// Trim and check the length; too short is `AMBIGUOUS_QUERY`.
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let trimmed = raw.trim();
        if trimmed.chars().count() < MIN_QUERY_CHARS {
            return Err(ApiError::ambiguous(
                format!(
                    "The query '{trimmed}' is too short to search: it matches too many \
                     entries to rank usefully."
                ),
                format!(
                    "Minimum query length is {MIN_QUERY_CHARS} characters. Use a longer name, \
                     symbol or identifier."
                ),
                raw,
            ));
        }
        Ok(Self(trimmed.to_owned()))
    }

    /// The trimmed query.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Display for SearchQuery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Check that an optional integer argument lies in `min..=max`, applying `default` when
/// absent. Out of range is `INVALID_INPUT` naming the accepted range.
pub fn in_range<T>(name: &str, value: Option<T>, min: T, max: T, default: T) -> Result<T, ApiError>
where
    T: PartialOrd + Display + Copy,
{
    match value {
        None => Ok(default),
        Some(v) if v >= min && v <= max => Ok(v),
        Some(v) => Err(ApiError::invalid_input(
            format!("Argument '{name}' must be between {min} and {max}; got {v}."),
            format!("Use a value from {min} to {max}, or omit '{name}' to use {default}."),
            v.to_string(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::ErrorCode;
    use serde_json::json;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Args {
        query: String,
        #[serde(default, deserialize_with = "lenient::opt_u32")]
        limit: Option<u32>,
        #[serde(default, deserialize_with = "lenient::opt_f64")]
        threshold: Option<f64>,
        #[serde(default, deserialize_with = "lenient::opt_bool")]
        slim: Option<bool>,
        #[serde(default)]
        format: Option<Format>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Format {
        Png,
        Svg,
    }

    fn message(v: serde_json::Value) -> String {
        let err = decode_arguments::<Args>(v).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidInput);
        err.to_envelope().error.message
    }

    #[test]
    fn numbers_and_booleans_as_strings_are_accepted() {
        let a: Args = decode_arguments(json!({"query": "TP53", "limit": "10", "threshold": "0.5",
            "slim": "true"}))
        .unwrap();
        assert_eq!(a.limit, Some(10));
        assert_eq!(a.threshold, Some(0.5));
        assert_eq!(a.slim, Some(true));
        let a: Args = decode_arguments(json!({"query": "TP53", "limit": 10.0, "slim": 0})).unwrap();
        assert_eq!(a.limit, Some(10));
        assert_eq!(a.slim, Some(false));
        let a: Args =
            decode_arguments(json!({"query": "TP53", "limit": null, "threshold": ""})).unwrap();
        assert_eq!(a.limit, None);
        assert_eq!(a.threshold, None);
    }

    #[test]
    fn failures_read_as_sentences_not_serde() {
        assert_eq!(message(json!({})), "Argument 'query' is required.");
        assert_eq!(
            message(json!({"query": "x", "gene_name": "TP53"})),
            "Unknown argument 'gene_name'. This tool accepts: 'query', 'limit', 'threshold', 'slim', 'format'."
        );
        assert_eq!(
            message(json!({"query": "x", "format": "gif"})),
            "Argument 'format' must be one of 'png' or 'svg'; got 'gif'."
        );
        assert_eq!(
            message(json!({"query": 5})),
            "Argument 'query' has the wrong type: expected a string, got integer `5`."
        );
        let m = message(json!({"query": "x", "limit": "ten"}));
        assert!(
            m.starts_with("Argument 'limit' is out of range: expected a non-negative integer"),
            "{m}"
        );
        let m = message(json!({"query": "x", "limit": -3}));
        assert!(m.contains("'limit'") && m.contains("-3"), "{m}");
        let m = message(json!({"query": "x", "limit": 2.5}));
        assert!(m.contains("'limit'") && m.contains("2.5"), "{m}");
    }

    #[test]
    fn invalid_input_echoes_only_the_offending_argument() {
        let shown = |v: serde_json::Value| {
            decode_arguments::<Args>(v)
                .unwrap_err()
                .to_envelope()
                .error
                .invalid_input
        };
        assert_eq!(
            shown(json!({"query": "x", "limit": "ten"})).as_deref(),
            Some("ten")
        );
        assert_eq!(
            shown(json!({"query": "x", "limit": -3})).as_deref(),
            Some("-3")
        );
        assert_eq!(
            shown(json!({"query": "x", "format": "gif"})).as_deref(),
            Some("gif")
        );
        assert_eq!(
            shown(json!({"query": "x", "gene_name": "TP53"})).as_deref(),
            Some("TP53")
        );
        assert_eq!(
            shown(json!({"query": ["a", "b"]})).as_deref(),
            Some(r#"["a","b"]"#)
        );
        // Nothing was sent for a missing argument.
        assert_eq!(shown(json!({})), None);
    }

    #[test]
    fn short_queries_are_ambiguous_with_the_minimum_in_the_hint() {
        for q in ["", " ", "a", " b "] {
            let err = SearchQuery::parse(q).unwrap_err();
            assert_eq!(err.code(), ErrorCode::AmbiguousQuery);
            let hint = err.to_envelope().error.recovery_hint;
            assert!(
                hint.contains("Minimum query length is 2 characters"),
                "{hint}"
            );
        }
        assert_eq!(SearchQuery::parse("  tp ").unwrap().as_str(), "tp");
        // Characters, not bytes: a two-letter Greek query is long enough.
        assert!(SearchQuery::parse("αβ").is_ok());
    }

    #[test]
    fn ranges_default_and_reject() {
        assert_eq!(in_range("limit", None, 1, 100, 10).unwrap(), 10);
        assert_eq!(in_range("limit", Some(100), 1, 100, 10).unwrap(), 100);
        let err = in_range("limit", Some(0), 1, 100, 10).unwrap_err();
        let body = err.to_envelope().error;
        assert_eq!(body.code, ErrorCode::InvalidInput);
        assert_eq!(
            body.message,
            "Argument 'limit' must be between 1 and 100; got 0."
        );
        assert_eq!(body.invalid_input.as_deref(), Some("0"));
    }
}
