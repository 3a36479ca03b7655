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

/// What separates the items of a list given as one string: commas and line breaks.
const LIST_SEPARATORS: [char; 3] = [',', '\n', '\r'];

/// A list argument, also accepted as one string: the one rule every list of strings
/// (identifiers, variants, species, categories, feature types) is read by. Use with
/// `#[serde(default, deserialize_with = "lifesciences_core::args::one_or_many")]` and
/// `#[schemars(with = "Vec<String>")]`; the schema still says a list.
///
/// - A list is taken item by item: an item is never split, so one that holds a comma
///   (HGVS can, inside a bracketed allele: `NM_004006.2:r.[897u>g,832_960del]`)
///   is passed whole.
/// - One string is split on commas and line breaks (`"TP53, MDM2"`, a pasted column):
///   no identifier form the tools document holds either.
/// - Each item is trimmed; empty items are dropped (`"TP53,,MDM2,"`), so a lone `""`
///   is an empty list. Order is kept, and so are repeats: the tool knows which spellings
///   are the same entity (`rs699` and `RS699`, a versioned ID) and drops those itself.
/// - `null` is "not given": an empty list (see [`opt_one_or_many`] to tell it apart).
/// - Anything else (a number, a boolean, an object, or such an item in the list) is
///   refused with a sentence: `Argument 'ids' has the wrong type: expected a list of
///   strings, or one string of comma-separated items, got a list whose item 2 is null.`
pub fn one_or_many<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    opt_one_or_many(deserializer).map(Option::unwrap_or_default)
}

/// The items of a list given as one string, by [`one_or_many`]'s rule: split on commas
/// and line breaks, each trimmed, empty ones dropped, in order, repeats kept. For a
/// deserializer of its own (a list that also takes numbers) to split a string the same way.
pub fn split_list(text: &str) -> Vec<String> {
    text.split(LIST_SEPARATORS)
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(str::to_owned)
        .collect()
}

/// [`one_or_many`] for an argument whose absence means something else than an empty
/// list (a default set): `null` is `None`, anything else as [`one_or_many`] reads it.
pub fn opt_one_or_many<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Vec<String>>, D::Error> {
    use serde::de::{Error, Unexpected};
    use serde_json::Value;

    /// What a value that is not a string is, in the words of the refusal.
    fn described(value: &Value) -> String {
        match value {
            Value::Null => "null".to_owned(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => format!("the number {n}"),
            Value::String(_) => "a string".to_owned(),
            Value::Array(_) => "a list".to_owned(),
            Value::Object(_) => "an object".to_owned(),
        }
    }
    let expected = &"a list of strings, or one string of comma-separated items";
    let items: Vec<String> = match Value::deserialize(deserializer)? {
        Value::Null => return Ok(None),
        Value::String(text) => return Ok(Some(split_list(&text))),
        Value::Array(list) => {
            let mut items = Vec::with_capacity(list.len());
            for (index, item) in list.into_iter().enumerate() {
                match item {
                    Value::String(text) => items.push(text),
                    other => {
                        let got =
                            format!("a list whose item {} is {}", index + 1, described(&other));
                        return Err(D::Error::invalid_type(Unexpected::Other(&got), expected));
                    }
                }
            }
            items
        }
        other => {
            return Err(D::Error::invalid_type(
                Unexpected::Other(&described(&other)),
                expected,
            ));
        }
    };
    Ok(Some(
        items
            .iter()
            .map(|item| item.trim())
            .filter(|item| !item.is_empty())
            .map(str::to_owned)
            .collect(),
    ))
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

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct ListArgs {
        #[serde(default, deserialize_with = "one_or_many")]
        ids: Vec<String>,
        #[serde(default, deserialize_with = "opt_one_or_many")]
        include: Option<Vec<String>>,
    }

    fn ids(v: serde_json::Value) -> Vec<String> {
        decode_arguments::<ListArgs>(json!({ "ids": v }))
            .unwrap()
            .ids
    }

    #[test]
    fn a_list_argument_is_a_list_or_one_string_split_on_commas_and_line_breaks() {
        // A list, item by item: trimmed, blanks dropped, order and repeats kept.
        assert_eq!(
            ids(json!(["TP53", " MDM2 ", "", "TP53"])),
            ["TP53", "MDM2", "TP53"]
        );
        // An item of a list is never split: a comma may belong to it.
        assert_eq!(
            ids(json!([
                "NM_004006.2:r.[897u>g,832_960del]",
                "16:89,279,135-89,279,135/C"
            ])),
            [
                "NM_004006.2:r.[897u>g,832_960del]",
                "16:89,279,135-89,279,135/C"
            ]
        );
        // One string: one item, or items split on commas and line breaks.
        assert_eq!(ids(json!("TP53")), ["TP53"]);
        assert_eq!(ids(json!("TP53, MDM2 ,CDKN1A")), ["TP53", "MDM2", "CDKN1A"]);
        assert_eq!(
            ids(json!("TP53\nMDM2\r\nCDKN1A")),
            ["TP53", "MDM2", "CDKN1A"]
        );
        assert_eq!(ids(json!(",TP53,,MDM2, ,")), ["TP53", "MDM2"]);
        // Nothing: a lone empty string, blanks only, an empty list, null, absent.
        for nothing in [
            json!(""),
            json!(" , \n"),
            json!([]),
            json!([" "]),
            json!(null),
        ] {
            assert!(ids(nothing.clone()).is_empty(), "{nothing}");
        }
        let absent: ListArgs = decode_arguments(json!({})).unwrap();
        assert!(absent.ids.is_empty());
    }

    #[test]
    fn an_optional_list_tells_null_from_empty() {
        let include = |v: serde_json::Value| {
            decode_arguments::<ListArgs>(json!({ "include": v }))
                .unwrap()
                .include
        };
        assert_eq!(include(json!(null)), None);
        assert_eq!(include(json!("")), Some(Vec::new()));
        assert_eq!(include(json!([])), Some(Vec::new()));
        assert_eq!(
            include(json!("genes,variants")),
            Some(vec!["genes".to_owned(), "variants".to_owned()])
        );
        let absent: ListArgs = decode_arguments(json!({})).unwrap();
        assert_eq!(absent.include, None);
    }

    #[test]
    fn a_list_holding_other_than_strings_is_refused_with_a_sentence() {
        let refused = |v: serde_json::Value| {
            let err = decode_arguments::<ListArgs>(json!({ "ids": v })).unwrap_err();
            assert_eq!(err.code(), ErrorCode::InvalidInput);
            let body = err.to_envelope().error;
            (body.message, body.invalid_input)
        };
        let expected = "Argument 'ids' has the wrong type: expected a list of strings, or one \
                        string of comma-separated items, got";
        for (value, got) in [
            (json!(["TP53", null]), "a list whose item 2 is null."),
            (json!([7157]), "a list whose item 1 is the number 7157."),
            (json!(["TP53", ["MDM2"]]), "a list whose item 2 is a list."),
            (json!(7157), "the number 7157."),
            (json!(true), "true."),
            (json!({"id": "TP53"}), "an object."),
        ] {
            let (message, echoed) = refused(value.clone());
            assert_eq!(message, format!("{expected} {got}"), "{value}");
            assert!(!message.contains("untagged"), "{message}");
            // What was sent for the argument, as it was sent.
            assert_eq!(echoed, Some(value.to_string()), "{value}");
        }
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
