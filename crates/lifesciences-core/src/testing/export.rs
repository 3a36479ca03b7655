//! Exports as a client sees them: the answer to a call with `export` (checked as every
//! answer is, and for what an export's answer promises), the table read back with
//! `resources/read` and parsed as a spreadsheet would, and the promise every server
//! keeps for its lists: the table's rows are exactly the rows a client gets by paging
//! the JSON.

use rmcp::model::ReadResourceRequestParams;
use serde_json::{Map, Value, json};

use super::client::McpTestClient;
use crate::export::{Format, MAX_SUMMARY_BYTES, Table};
use crate::server::{McpServer, listings};

/// An export as a client got it.
#[derive(Debug, Clone)]
pub struct Exported {
    /// The answer's structured content, `provenance` included.
    pub answer: Value,
    /// Its `export` object.
    pub export: Value,
    /// The table's text as `resources/read` gave it.
    pub text: String,
    /// The MIME type it was served as.
    pub mime_type: String,
    /// The text of its `#` lines, without the `#`.
    pub comments: Vec<String>,
    /// Its header.
    pub columns: Vec<String>,
    /// Its rows' cells, unquoted.
    pub rows: Vec<Vec<String>>,
}

impl McpTestClient {
    /// `resources/read` of `uri`: its text and MIME type, or the protocol error's
    /// message.
    pub async fn read_resource(&self, uri: &str) -> Result<(String, String), String> {
        let read = self
            .peer()
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .map_err(|e| e.to_string())?;
        let mut text = String::new();
        let mut mime = String::new();
        for content in read.contents {
            if let rmcp::model::ResourceContents::TextResourceContents {
                text: t, mime_type, ..
            } = content
            {
                text.push_str(&t);
                mime = mime_type.unwrap_or_default();
            }
        }
        Ok((text, mime))
    }

    /// Call `name` with `arguments` and `export` set to `format`, which must succeed, and
    /// read the table its answer links. Checks what every export's answer promises: the
    /// tool's answer shape (as every call is checked), an `export` object naming the
    /// table, at most [`MAX_SUMMARY_BYTES`] of JSON, a `resource_link` to the table,
    /// and a table whose header and row count are the ones the answer states.
    pub async fn export(&self, name: &str, arguments: Value, format: &str) -> Exported {
        let mut arguments = arguments;
        arguments["export"] = json!(format);
        let result = self.call(name, arguments).await;
        assert_ne!(result.is_error, Some(true), "{name} failed: {result:?}");
        let answer = result
            .structured_content
            .clone()
            .unwrap_or_else(|| panic!("{name}: no structured content"));
        super::nulls::assert_no_nulls(&answer);
        let bytes = serde_json::to_vec(&answer).unwrap().len();
        assert!(
            bytes <= MAX_SUMMARY_BYTES,
            "{name}: the answer to an export takes {bytes} bytes (at most {MAX_SUMMARY_BYTES}): {answer:#}"
        );
        let export = answer["export"].clone();
        let uri = export["uri"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: no export.uri: {answer:#}"));
        assert!(
            uri.starts_with("export://") && uri.ends_with(&format!(".{format}")),
            "{uri}"
        );
        assert_eq!(export["format"], format);
        let linked: Vec<String> = result
            .content
            .iter()
            .filter_map(|c| c.as_resource_link().map(|l| l.uri.clone()))
            .collect();
        assert_eq!(linked, [uri], "{name}: one resource_link, to the table");
        let (text, mime_type) = self
            .read_resource(uri)
            .await
            .unwrap_or_else(|e| panic!("{name}: resources/read {uri}: {e}"));
        let delimiter = if format == "csv" { ',' } else { '\t' };
        let (comments, mut lines) = parse(&text, delimiter);
        assert!(
            !lines.is_empty(),
            "{name}: a table without a header: {text}"
        );
        let columns = lines.remove(0);
        assert_eq!(
            export["columns"],
            json!(columns),
            "{name}: the answer's columns are the table's header"
        );
        assert_eq!(
            export["rows"].as_u64(),
            Some(lines.len() as u64),
            "{name}: the answer's row count is the table's"
        );
        Exported {
            answer,
            export,
            text,
            mime_type,
            comments,
            columns,
            rows: lines,
        }
    }
}

/// The `#` lines of a table (without `# `) and its lines' cells, read as RFC 4180 reads
/// them (quoted cells, doubled quotes, line breaks inside quotes) with `delimiter`.
pub fn parse(text: &str, delimiter: char) -> (Vec<String>, Vec<Vec<String>>) {
    let mut comments = Vec::new();
    let mut rest = text;
    while let Some(line) = rest.strip_prefix('#') {
        let (comment, after) = line.split_once('\n').unwrap_or((line, ""));
        comments.push(comment.trim_start().to_owned());
        rest = after;
    }
    let mut lines = Vec::new();
    let mut line = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') if cell.is_empty() => quoted = true,
            (false, c) if c == delimiter => line.push(std::mem::take(&mut cell)),
            (false, '\n') => {
                line.push(std::mem::take(&mut cell));
                lines.push(std::mem::take(&mut line));
            }
            (false, c) => cell.push(c),
        }
    }
    assert!(!quoted, "a quote left open in the table");
    assert!(
        cell.is_empty() && line.is_empty(),
        "the last line does not end with a line break"
    );
    (comments, lines)
}

/// Check the promise every list tool keeps: the table an export of `tool` makes (as
/// TSV) holds exactly the rows a client gets by paging its JSON, in order. `arguments`
/// are the call's; `page` what each page adds to them (a small `limit`, so the export's
/// pages of the largest size cross several of the client's). A tool declared `capped`
/// has one page. Returns the export for further checks.
pub async fn assert_export_holds_the_pages<S: McpServer>(
    client: &McpTestClient,
    tool: &str,
    arguments: Value,
    page: Value,
) -> Exported {
    let (_, listing) = listings::<S>()
        .into_iter()
        .find(|(name, _)| *name == tool)
        .unwrap_or_else(|| panic!("{tool} is not declared a list"));
    let exported = client.export(tool, arguments.clone(), "tsv").await;
    assert_eq!(exported.mime_type, Format::Tsv.mime_type());

    let mut asked: Map<String, Value> = arguments.as_object().cloned().unwrap_or_default();
    asked.extend(page.as_object().cloned().unwrap_or_default());
    let mut table = Table::new(listing.rows);
    let mut pages = 0;
    loop {
        let answer = client.call_ok(tool, Value::Object(asked.clone())).await;
        pages += 1;
        for row in answer[listing.rows].as_array().into_iter().flatten() {
            table.push(row);
        }
        match answer["pagination"]["cursor"].as_str() {
            Some(cursor) if listing.paged => {
                asked.insert("cursor".to_owned(), json!(cursor));
            }
            _ => break,
        }
        assert!(pages < 1000, "{tool}: paging does not end");
    }
    assert!(
        !table.is_empty(),
        "{tool}: the pages hold no row, nothing to compare"
    );
    assert_eq!(
        exported.columns,
        table.columns(),
        "{tool}: the table's header names the fields the pages' rows have"
    );
    assert_eq!(
        exported.rows,
        table.cells(),
        "{tool}: the table's rows are the rows of the {pages} page(s), in order"
    );
    let examples = exported.answer[listing.rows]
        .as_array()
        .cloned()
        .unwrap_or_default();
    // The examples written after the paged rows, so both are cut into the same columns.
    let mut shown = table.clone();
    examples.iter().for_each(|row| shown.push(row));
    let cells = shown.cells();
    let (paged, shown) = cells.split_at(table.len());
    assert!(
        shown.iter().all(|row| paged.contains(row)),
        "{tool}: the answer's example rows are rows of the table"
    );
    exported
}
