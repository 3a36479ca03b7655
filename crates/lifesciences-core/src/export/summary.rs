//! What an export says of itself: the answer to the call (the tool's own answer shape,
//! so it still conforms to the tool's output schema, which strict clients check, holding
//! a few example rows, with an `export` object that says where the whole table is and
//! what it holds, within [`MAX_SUMMARY_BYTES`](super::MAX_SUMMARY_BYTES) of JSON,
//! provenance included), and the table's `#` lines (what was asked, of whom, when, and
//! how to read the cells).

use rmcp::model::JsonObject;
use serde::Serialize;
use serde_json::Value;

use super::{Listing, MAX_SUMMARY_BYTES};
use crate::provenance::Provenance;

/// The most example rows an answer shows.
const EXAMPLES: usize = 3;

/// The `export` object of the answer.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Summary {
    /// `tsv` or `csv`.
    pub(crate) format: &'static str,
    /// How many rows the table holds.
    pub(crate) rows: usize,
    /// The header: the columns' names, as the JSON names the fields.
    pub(crate) columns: Vec<String>,
    /// Whether the table holds the whole list.
    pub(crate) complete: bool,
    /// `export://<id>.tsv`, for `resources/read`.
    pub(crate) uri: String,
    /// Over HTTP: where to download it, on this server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) download: Option<String>,
    /// When it is forgotten (RFC 3339).
    pub(crate) expires_at: String,
    /// What a reader must know: why it is not complete, what this answer leaves out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
}

/// What the `#` lines of a table say.
#[derive(Debug)]
pub(crate) struct Made<'a> {
    /// The tool.
    pub(crate) tool: &'a str,
    /// The server's version line.
    pub(crate) by: String,
    /// The arguments each page was asked with (the cursor aside).
    pub(crate) arguments: &'a JsonObject,
    pub(crate) rows: usize,
    pub(crate) pages: usize,
    pub(crate) complete: bool,
    pub(crate) notes: &'a [String],
    /// The provenance of the whole fetch, every request in full.
    pub(crate) provenance: &'a Provenance,
}

/// The `#` lines of a table, without their `#`.
pub(crate) fn comments(made: &Made<'_>) -> Vec<String> {
    let mut lines = vec![
        format!(
            "{}: the whole list, exported by {} at {}",
            made.tool,
            made.by,
            crate::provenance::rfc3339(std::time::SystemTime::now())
        ),
        format!("arguments: {}", Value::Object(made.arguments.clone())),
        format!(
            "{} rows from {} page(s); {}",
            made.rows,
            made.pages,
            if made.complete {
                "complete".to_owned()
            } else {
                format!("NOT complete: {}", made.notes.join("; "))
            }
        ),
    ];
    for source in &made.provenance.sources {
        let release = source
            .release
            .as_deref()
            .map(|r| format!(", release {r}"))
            .unwrap_or_default();
        let cached = match (source.offline, source.cached) {
            (true, _) => ", offline, from the store",
            (false, true) => ", some from the cache",
            (false, false) => "",
        };
        lines.push(format!(
            "source: {}{release}, retrieved at {}{cached}",
            source.database, source.retrieved_at
        ));
        if let Some(licence) = &source.licence {
            lines.push(format!("licence: {licence}"));
        }
        if let Some(cite) = &source.cite {
            lines.push(format!("cite: {cite}"));
        }
        lines.extend(source.requests.iter().map(|r| format!("request: {r}")));
    }
    lines.push(format!(
        "cells: a nested field is a column named with dots (evidence.escore); a list is its \
         items joined by {sep} (or JSON when an item holds {sep} or is not a plain value); an \
         empty cell is an absent value",
        sep = super::table::LIST_SEPARATOR
    ));
    lines
}

/// The answer: `first` (the first page's answer) with at most three of its rows, no
/// cursor to page on, and `export`; as many example rows as fit within the bound with
/// `provenance` (which the caller attaches), and, if even none do, the answer's other
/// lists cut to their first item, said in the note. Returned without `provenance`.
pub(crate) fn summarise(
    mut first: JsonObject,
    listing: Listing,
    mut export: Summary,
    provenance: &Provenance,
) -> JsonObject {
    let rows = match first.remove(listing.rows) {
        Some(Value::Array(rows)) => rows,
        _ => Vec::new(),
    };
    // The table holds every page: there is nothing to page on from here.
    if let Some(Value::Object(pagination)) = first.get_mut("pagination")
        && pagination.contains_key("cursor")
    {
        pagination.insert("cursor".to_owned(), Value::Null);
    }
    let provenance = serde_json::to_value(provenance).unwrap_or(Value::Null);
    let build = |first: &JsonObject, shown: usize, export: &Summary| {
        let mut answer = first.clone();
        answer.insert(
            listing.rows.to_owned(),
            Value::Array(rows.iter().take(shown).cloned().collect()),
        );
        answer.insert(
            "export".to_owned(),
            serde_json::to_value(export).unwrap_or(Value::Null),
        );
        answer
    };
    let size = |answer: &JsonObject| {
        let mut measured = answer.clone();
        measured.insert("provenance".to_owned(), provenance.clone());
        serde_json::to_vec(&measured).map_or(usize::MAX, |bytes| bytes.len())
    };
    for shown in (0..=EXAMPLES.min(rows.len())).rev() {
        let answer = build(&first, shown, &export);
        if size(&answer) <= MAX_SUMMARY_BYTES {
            return answer;
        }
    }
    // Even without example rows the answer is too long: its other lists (the nodes of
    // a network, the data sets asked) keep their first item.
    let mut cut = Vec::new();
    for (name, value) in &mut first {
        if let Value::Array(items) = value
            && items.len() > 1
        {
            items.truncate(1);
            cut.push(name.clone());
        }
    }
    if !cut.is_empty() {
        let said = format!(
            "this answer shows only the first item of {}; the tool's own answer has them all",
            cut.join(", ")
        );
        export.note = Some(match export.note.take() {
            Some(note) => format!("{note}. {said}"),
            None => said,
        });
    }
    let answer = build(&first, 0, &export);
    if size(&answer) <= MAX_SUMMARY_BYTES {
        return answer;
    }
    // Still too long: a note cut short, then the columns named up to what fits (the
    // table's header names them all).
    if let Some(note) = &mut export.note
        && note.chars().count() > NOTE_CHARS
    {
        *note = format!("{}…", note.chars().take(NOTE_CHARS).collect::<String>());
    }
    let all = export.columns.len();
    let mut answer = build(&first, 0, &export);
    while size(&answer) > MAX_SUMMARY_BYTES && export.columns.len() > 1 {
        export.columns.truncate(export.columns.len() / 2);
        let said = format!(
            "columns names the first {} of the table's {all}; its header names them all",
            export.columns.len()
        );
        let mut shorter = export.clone();
        shorter.note = Some(match &export.note {
            Some(note) => format!("{note}. {said}"),
            None => said,
        });
        answer = build(&first, 0, &shorter);
    }
    answer
}

/// The longest `note` an answer over its size carries, in characters.
const NOTE_CHARS: usize = 300;

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::provenance::SourceProvenance;

    fn export(columns: usize) -> Summary {
        Summary {
            format: "tsv",
            rows: 1200,
            columns: (0..columns).map(|i| format!("column_{i}")).collect(),
            complete: true,
            uri: "export://0123456789abcdef0123456789abcdef.tsv".to_owned(),
            download: None,
            expires_at: "2030-01-01T00:00:00.000Z".to_owned(),
            note: None,
        }
    }

    fn provenance() -> Provenance {
        Provenance {
            sources: vec![SourceProvenance {
                database: "Items".to_owned(),
                release: None,
                licence: Some("CC-BY-4.0 https://creativecommons.org/licenses/by/4.0/".to_owned()),
                cite: Some("doi:10.1093/nar/gkac1000".to_owned()),
                requests: vec![
                    "https://items.example/items?q=kinase&offset=0&limit=100".to_owned(),
                ],
                requests_total: Some(12),
                retrieved_at: "2030-01-01T00:00:00.000Z".to_owned(),
                cached: false,
                offline: false,
            }],
            full: Some("provenance://0123456789abcdef".to_owned()),
        }
    }

    const LISTING: Listing = Listing {
        rows: "items",
        size: "limit",
        paged: true,
    };

    #[test]
    fn three_example_rows_no_cursor_and_the_export_object() {
        let first = json!({
            "items": [{"id": "ITEM:1"}, {"id": "ITEM:2"}, {"id": "ITEM:3"}, {"id": "ITEM:4"}],
            "pagination": {"cursor": "abc", "total_count": 1200, "page_size": 100},
        });
        let answer = summarise(
            first.as_object().cloned().unwrap(),
            LISTING,
            export(2),
            &provenance(),
        );
        let answer = Value::Object(answer);
        assert_eq!(answer["items"].as_array().unwrap().len(), 3);
        assert_eq!(answer["pagination"]["cursor"], Value::Null);
        assert_eq!(answer["pagination"]["total_count"], 1200);
        assert_eq!(answer["export"]["rows"], 1200);
        assert_eq!(answer["export"]["columns"], json!(["column_0", "column_1"]));
        assert!(answer["export"].get("download").is_none());
    }

    #[test]
    fn long_rows_are_dropped_to_stay_within_the_bound_then_other_lists_are_cut() {
        let long = "x".repeat(600);
        let first = json!({
            "items": [{"id": long}, {"id": long}, {"id": long}],
            "nodes": (0..200).map(|i| json!({"id": i})).collect::<Vec<_>>(),
            "pagination": {"cursor": null, "total_count": 3, "page_size": 100},
        });
        let answer = summarise(
            first.as_object().cloned().unwrap(),
            LISTING,
            export(5),
            &provenance(),
        );
        let mut measured = answer.clone();
        measured.insert(
            "provenance".into(),
            serde_json::to_value(provenance()).unwrap(),
        );
        assert!(serde_json::to_vec(&measured).unwrap().len() <= MAX_SUMMARY_BYTES);
        assert_eq!(answer["items"], json!([]));
        assert_eq!(answer["nodes"], json!([{"id": 0}]));
        assert_eq!(
            answer["export"]["note"],
            "this answer shows only the first item of nodes; the tool's own answer has them all"
        );
    }

    #[test]
    fn many_columns_and_a_long_note_are_cut_to_stay_within_the_bound() {
        let first = json!({
            "items": [{"id": 1}],
            "pagination": {"cursor": null, "total_count": 1, "page_size": 100},
        });
        let mut wide = export(120);
        wide.note = Some(format!("page 2 failed ({})", "UPSTREAM_ERROR: ".repeat(60)));
        let answer = summarise(
            first.as_object().cloned().unwrap(),
            LISTING,
            wide,
            &provenance(),
        );
        let mut measured = answer.clone();
        measured.insert(
            "provenance".into(),
            serde_json::to_value(provenance()).unwrap(),
        );
        assert!(serde_json::to_vec(&measured).unwrap().len() <= MAX_SUMMARY_BYTES);
        let columns = answer["export"]["columns"].as_array().unwrap();
        assert!(!columns.is_empty() && columns.len() < 120, "{columns:?}");
        assert_eq!(columns[0], "column_0");
        let note = answer["export"]["note"].as_str().unwrap();
        assert!(
            note.starts_with("page 2 failed (UPSTREAM_ERROR: "),
            "{note}"
        );
        assert!(
            note.ends_with(&format!(
                "columns names the first {} of the table's 120; its header names them all",
                columns.len()
            )),
            "{note}"
        );
    }
}
