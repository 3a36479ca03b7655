//! A list's rows as a table: each row (a JSON object) flattened into cells, the columns
//! named as the JSON names the fields, written as TSV or CSV under `#` comment lines.
//!
//! The rule, which a researcher reads back by:
//! - a nested object's fields are columns of their own, named by the path with dots
//!   (`evidence.escore`, `cross_references.uniprot`);
//! - a list of plain values (text, numbers, true/false) is one cell, its items joined
//!   by `|` (`P04637|Q53GA5`); a list with an item that holds `|`, or is itself an
//!   object or a list, is written as JSON instead (`[{"id":…}]`);
//! - a number or a boolean is written as JSON writes it (`0.7`, `39.0`, `true`); an
//!   absent field, `null` or an empty list is an empty cell;
//! - the columns come in the order the JSON lists the fields (by name, a nested field
//!   where its object is), every field any row has;
//! - a cell holding the delimiter, a double quote or a line break is quoted with double
//!   quotes, its quotes doubled (RFC 4180, also for TSV: what Python's `csv` module,
//!   pandas and R's `read.delim` read);
//! - lines end with `\n`; the `#` lines come first, then the header, then the rows.

use std::collections::HashMap;

use serde_json::Value;

use super::Format;

/// The separator of a list's items in one cell.
pub const LIST_SEPARATOR: char = '|';

/// Rows being gathered, flattened as they come.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// What a row that is not an object is called (the list's name).
    name: String,
    /// Each column's path of field names, in the order first met.
    columns: Vec<Vec<String>>,
    index: HashMap<Vec<String>, usize>,
    /// Each row's cells: (column, text), absent ones left out.
    rows: Vec<Vec<(usize, Box<str>)>>,
    /// The bytes the rows' cells take written out, quotes included.
    bytes: usize,
}

impl Table {
    /// An empty table of the list `name` (the column of rows that are plain values).
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            ..Self::default()
        }
    }

    /// Add one row.
    pub fn push(&mut self, row: &Value) {
        let mut cells = Vec::new();
        let mut path = Vec::new();
        if row.is_object() {
            flatten(row, &mut path, &mut cells);
        } else {
            path.push(self.name.clone());
            flatten(row, &mut path, &mut cells);
        }
        let mut flat = Vec::with_capacity(cells.len());
        for (path, text) in cells {
            let column = match self.index.get(&path) {
                Some(&i) => i,
                None => {
                    self.columns.push(path.clone());
                    self.index.insert(path, self.columns.len() - 1);
                    self.columns.len() - 1
                }
            };
            self.bytes += written_len(&text);
            flat.push((column, text.into_boxed_str()));
        }
        self.rows.push(flat);
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether it has no row.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// As many bytes as the rows take written out in either format, quotes included,
    /// a delimiter or the line's end for every column of every row.
    pub fn bytes(&self) -> usize {
        self.bytes + self.rows.len() * self.columns.len().max(1)
    }

    /// The columns' names, in order.
    pub fn columns(&self) -> Vec<String> {
        self.order()
            .iter()
            .map(|&i| self.columns[i].join("."))
            .collect()
    }

    /// The rows' cells, in column order (an absent one empty): what the written table
    /// holds, unquoted.
    pub fn cells(&self) -> Vec<Vec<String>> {
        let order = self.order();
        self.rows
            .iter()
            .map(|row| {
                let mut line = vec![String::new(); order.len()];
                for (column, text) in row {
                    if let Some(at) = order.iter().position(|c| c == column) {
                        line[at] = text.to_string();
                    }
                }
                line
            })
            .collect()
    }

    /// The table in `format`: `comments` as `#` lines, then the header, then the rows.
    pub fn write(&self, format: Format, comments: &[String]) -> String {
        let delimiter = format.delimiter();
        let order = self.order();
        // Where each column is written.
        let mut place = vec![0; self.columns.len()];
        for (at, &column) in order.iter().enumerate() {
            place[column] = at;
        }
        let mut out = String::with_capacity(self.bytes() + 256 * (comments.len() + 1));
        for comment in comments {
            out.push_str("# ");
            out.push_str(&comment.replace(['\r', '\n'], " "));
            out.push('\n');
        }
        let header: Vec<String> = order.iter().map(|&i| self.columns[i].join(".")).collect();
        if header.is_empty() {
            // No row had a field: an empty header, not a column named "".
            out.push('\n');
        } else {
            write_line(&mut out, header.iter().map(String::as_str), delimiter);
        }
        let mut line: Vec<&str> = vec![""; order.len()];
        for row in &self.rows {
            line.iter_mut().for_each(|cell| *cell = "");
            for (column, text) in row {
                line[place[*column]] = text;
            }
            write_line(&mut out, line.iter().copied(), delimiter);
        }
        out
    }

    /// The columns in the order the JSON lists the fields: by their paths of names.
    fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.columns.len()).collect();
        order.sort_by(|&a, &b| self.columns[a].cmp(&self.columns[b]));
        order
    }
}

/// The cells of `value` at `path`: nested objects by their fields, anything else as one
/// cell (see the module's rule).
fn flatten(value: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                path.push(key.clone());
                flatten(child, path, out);
                path.pop();
            }
        }
        Value::Null => {}
        Value::Array(items) if items.is_empty() => {}
        Value::Array(items) => out.push((path.clone(), list_cell(items))),
        Value::String(text) => out.push((path.clone(), text.clone())),
        other => out.push((path.clone(), other.to_string())),
    }
}

/// A list as one cell: its plain items joined by `|`, or the list as JSON when an item
/// holds `|` or is not a plain value.
fn list_cell(items: &[Value]) -> String {
    let plain = items.iter().all(|item| match item {
        Value::String(text) => !text.contains(LIST_SEPARATOR),
        Value::Number(_) | Value::Bool(_) => true,
        _ => false,
    });
    if !plain {
        return Value::Array(items.to_vec()).to_string();
    }
    let texts: Vec<String> = items
        .iter()
        .map(|item| match item {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        })
        .collect();
    texts.join(&LIST_SEPARATOR.to_string())
}

/// How long `cell` is written in either format, its quotes included if it needs them
/// in either (a bound counts what lands on disk, not the text alone).
fn written_len(cell: &str) -> usize {
    if cell.contains([',', '\t', '"', '\n', '\r']) {
        cell.len() + 2 + cell.matches('"').count()
    } else {
        cell.len()
    }
}

/// One line of cells, quoted where needed. A line whose only cell is empty is written
/// `""`: a blank line is skipped by readers (pandas, R), losing the row.
fn write_line<'a>(out: &mut String, cells: impl Iterator<Item = &'a str>, delimiter: char) {
    let start = out.len();
    for (i, cell) in cells.enumerate() {
        if i > 0 {
            out.push(delimiter);
        }
        if cell.contains([delimiter, '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&cell.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(cell);
        }
    }
    if out.len() == start {
        out.push_str("\"\"");
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn table(rows: &[Value]) -> Table {
        let mut table = Table::new("items");
        for row in rows {
            table.push(row);
        }
        table
    }

    #[test]
    fn the_bytes_counted_are_at_least_the_bytes_written() {
        let t = table(&[
            json!({"a": "x", "b": {"c": [{"code": "ECO:0000269", "source": "PubMed"}]}}),
            json!({"d": "a \"quoted\", tabbed\tcell"}),
            json!({}),
        ]);
        for format in [Format::Tsv, Format::Csv] {
            let written = t.write(format, &[]);
            let header = written.lines().next().unwrap().len() + 1;
            assert!(t.bytes() >= written.len() - header, "{format:?}: {written}");
        }
    }

    #[test]
    fn an_empty_cell_alone_on_its_line_is_quoted_so_readers_keep_the_row() {
        let t = table(&[json!({"gene": "TP53"}), json!({}), json!({"gene": "MDM2"})]);
        assert_eq!(t.write(Format::Tsv, &[]), "gene\nTP53\n\"\"\nMDM2\n");
        assert_eq!(Table::new("items").write(Format::Csv, &[]), "\n");
    }

    #[test]
    fn nested_fields_are_dotted_columns_in_the_order_the_json_lists_them() {
        let t = table(&[
            json!({"protein_a": "TP53", "score": 0.99, "evidence": {"escore": 0.5, "dscore": 0}}),
            json!({"protein_a": "MDM2", "evidence": {"escore": 0.1}, "added": true}),
        ]);
        assert_eq!(
            t.columns(),
            [
                "added",
                "evidence.dscore",
                "evidence.escore",
                "protein_a",
                "score"
            ]
        );
        assert_eq!(
            t.cells(),
            [
                ["", "0", "0.5", "TP53", "0.99"],
                ["true", "", "0.1", "MDM2", ""]
            ]
        );
    }

    #[test]
    fn a_nested_field_sits_where_its_object_does_whatever_characters_follow() {
        // "a" < "a-b" < "ab" as JSON keys: a.z comes before a-b, as `a` does.
        let t = table(&[json!({"a": {"z": 1}, "a-b": 2, "ab": 3})]);
        assert_eq!(t.columns(), ["a.z", "a-b", "ab"]);
    }

    #[test]
    fn lists_are_joined_by_a_bar_or_written_as_json_when_that_would_not_read_back() {
        let t = table(&[json!({
            "ids": ["P04637", "Q53GA5"],
            "years": [2011, 2019],
            "odd": ["a|b", "c"],
            "objects": [{"id": "X"}],
            "empty": [],
            "none": null,
        })]);
        assert_eq!(t.columns(), ["ids", "objects", "odd", "years"]);
        assert_eq!(
            t.cells(),
            [[
                "P04637|Q53GA5",
                r#"[{"id":"X"}]"#,
                r#"["a|b","c"]"#,
                "2011|2019"
            ]]
        );
    }

    #[test]
    fn rows_that_are_plain_values_make_one_column_named_after_the_list() {
        let t = table(&[json!("BRCA1"), json!("TP53")]);
        assert_eq!(t.columns(), ["items"]);
        assert_eq!(t.cells(), [["BRCA1"], ["TP53"]]);
    }

    #[test]
    fn cells_holding_the_delimiter_a_quote_or_a_line_break_are_quoted_in_both_formats() {
        let t = table(&[
            json!({"name": "plain", "note": "a \"quoted\", text\nover two lines"}),
            json!({"name": "tab\there", "note": "x"}),
        ]);
        let comments = ["made by a test".to_owned(), "two\nlines".to_owned()];
        assert_eq!(
            t.write(Format::Tsv, &comments),
            "# made by a test\n# two lines\nname\tnote\n\
             plain\t\"a \"\"quoted\"\", text\nover two lines\"\n\
             \"tab\there\"\tx\n"
        );
        assert_eq!(
            t.write(Format::Csv, &[]),
            "name,note\nplain,\"a \"\"quoted\"\", text\nover two lines\"\ntab\there,x\n"
        );
    }

    #[test]
    fn an_empty_list_is_a_header_line_only_and_sizes_grow_with_the_rows() {
        let empty = table(&[]);
        assert!(empty.is_empty());
        assert_eq!(empty.write(Format::Csv, &[]), "\n");
        let one = table(&[json!({"id": "ITEM:1"})]);
        let two = table(&[json!({"id": "ITEM:1"}), json!({"id": "ITEM:2"})]);
        assert!(one.bytes() > 0 && two.bytes() > one.bytes());
        assert_eq!(two.len(), 2);
    }
}
