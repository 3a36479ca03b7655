//! Reading a list tool's pages into one table: each page's rows appended, the cursor to
//! the next page followed, and every reason to stop short said (see the module
//! invariant of `export.rs`).

use std::collections::HashSet;

use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, JsonObject};
use serde_json::Value;

use super::{Listing, MAX_BYTES, MAX_PAGES, MAX_ROWS, Table, truncated_paths};
use crate::envelope::ErrorEnvelope;

/// What the pages read so far hold.
#[derive(Debug)]
pub(crate) struct Gathered {
    listing: Listing,
    /// The first page's answer, rows included: what the summary is made from.
    pub(crate) first: Option<JsonObject>,
    pub(crate) table: Table,
    /// False once anything was left out.
    pub(crate) complete: bool,
    /// Why it is not complete, each reason once.
    pub(crate) notes: Vec<String>,
    /// Pages read.
    pub(crate) pages: usize,
    /// `pagination.total_count` of the first page, when the tool says.
    pub(crate) total: Option<u64>,
    cursors: HashSet<String>,
}

/// What to do after a page.
#[derive(Debug)]
pub(crate) enum Next {
    /// Ask for the page at this cursor.
    Page(String),
    /// The table is done (whole, or as far as it could go: see `complete`).
    Done,
    /// Answer the call with this instead of a table: the first page's error, or a fault
    /// of the call itself (cancelled, a tool that failed unexpectedly).
    Answer(Result<CallToolResponse, ErrorData>),
}

/// Start reading the pages of a tool declared with `listing`.
pub(crate) fn gather(listing: Listing) -> Gathered {
    Gathered {
        listing,
        first: None,
        table: Table::new(listing.rows),
        complete: true,
        notes: Vec::new(),
        pages: 0,
        total: None,
        cursors: HashSet::new(),
    }
}

impl Gathered {
    /// Read one page's outcome.
    pub(crate) fn read(&mut self, outcome: Result<CallToolResponse, ErrorData>) -> Next {
        self.pages += 1;
        let first = self.first.is_none();
        let result = match outcome {
            Ok(CallToolResponse::Complete(result)) if result.is_error != Some(true) => result,
            Ok(CallToolResponse::Complete(failed)) if !first => {
                let said = failed
                    .content
                    .iter()
                    .find_map(|c| c.as_text())
                    .and_then(|t| serde_json::from_str::<ErrorEnvelope>(&t.text).ok())
                    .map_or_else(
                        || "an error".to_owned(),
                        |e| format!("{}: {}", e.error.code, e.error.message),
                    );
                return self.stop(format!(
                    "page {} failed ({said}); the table holds the {} rows before it",
                    self.pages,
                    self.table.len()
                ));
            }
            Err(fault) if !first => {
                return self.stop(format!(
                    "page {} failed ({}); the table holds the {} rows before it",
                    self.pages,
                    fault.message,
                    self.table.len()
                ));
            }
            other if first => return Next::Answer(other),
            _ => {
                return self.stop(format!(
                    "page {} did not answer; the table holds the rows before it",
                    self.pages
                ));
            }
        };
        let Some(Value::Object(answer)) = result.structured_content else {
            return Next::Answer(Err(ErrorData::internal_error(
                "the tool answered without structured content: it cannot be exported",
                None,
            )));
        };
        let cursor = self
            .listing
            .paged
            .then(|| {
                answer
                    .get("pagination")?
                    .get("cursor")?
                    .as_str()
                    .map(str::to_owned)
            })
            .flatten();
        if first {
            self.total = answer
                .get("pagination")
                .and_then(|p| p.get("total_count"))
                .and_then(Value::as_u64);
            self.first = Some(answer.clone());
        }
        let rows = answer
            .get(self.listing.rows)
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for row in rows {
            if let Some(why) = self.full() {
                return self.stop(why);
            }
            self.table.push(row);
        }
        let cut = truncated_paths(&Value::Object(answer));
        if !cut.is_empty() {
            let mut at: Vec<&str> = cut
                .iter()
                .take(5)
                .map(|p| if p.is_empty() { "the list" } else { p.as_str() })
                .collect();
            let more = cut.len().saturating_sub(at.len());
            let more = format!("{more} more");
            if cut.len() > 5 {
                at.push(&more);
            }
            self.say(format!(
                "the tool cut its answer at its largest `{}`, leaving rows out: {}",
                self.listing.size,
                at.join(", ")
            ));
        }
        let Some(cursor) = cursor else {
            return Next::Done;
        };
        if let Some(why) = self.full() {
            return self.stop(why);
        }
        if self.pages >= MAX_PAGES {
            return self.stop(format!(
                "stopped after {MAX_PAGES} pages, the most an export asks for"
            ));
        }
        if !self.cursors.insert(cursor.clone()) {
            return self.stop("the tool gave a cursor twice; stopped there".to_owned());
        }
        Next::Page(cursor)
    }

    /// Why the table can take no more rows, when it cannot.
    fn full(&self) -> Option<String> {
        if self.table.len() >= MAX_ROWS {
            return Some(format!(
                "stopped at {MAX_ROWS} rows, the most an export holds; narrow the query for the rest"
            ));
        }
        (self.table.bytes() >= MAX_BYTES).then(|| {
            format!(
                "stopped at {} rows, {} MiB, the most an export holds; narrow the query for the rest",
                self.table.len(),
                MAX_BYTES / (1024 * 1024)
            )
        })
    }

    /// Stop short, saying why.
    fn stop(&mut self, why: String) -> Next {
        self.say(why);
        Next::Done
    }

    fn say(&mut self, why: String) {
        self.complete = false;
        if !self.notes.contains(&why) {
            self.notes.push(why);
        }
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::{CallToolResult, ContentBlock};
    use serde_json::json;

    use super::*;
    use crate::error::ApiError;

    const PAGED: Listing = Listing {
        rows: "items",
        size: "limit",
        paged: true,
    };

    fn page(items: Value, cursor: Option<&str>) -> Result<CallToolResponse, ErrorData> {
        Ok(CallToolResult::structured(json!({
            "items": items,
            "pagination": {"cursor": cursor, "total_count": 5, "page_size": 2},
        }))
        .into())
    }

    #[test]
    fn pages_are_read_in_order_following_the_cursor_to_its_end() {
        let mut g = gather(PAGED);
        assert!(
            matches!(g.read(page(json!([{"id": 1}, {"id": 2}]), Some("c1"))), Next::Page(c) if c == "c1")
        );
        assert!(
            matches!(g.read(page(json!([{"id": 3}, {"id": 4}]), Some("c2"))), Next::Page(c) if c == "c2")
        );
        assert!(matches!(g.read(page(json!([{"id": 5}]), None)), Next::Done));
        assert!(g.complete && g.notes.is_empty());
        assert_eq!(g.table.cells(), [["1"], ["2"], ["3"], ["4"], ["5"]]);
        assert_eq!((g.pages, g.total), (3, Some(5)));
        assert_eq!(g.first.unwrap()["items"][0]["id"], 1);
    }

    #[test]
    fn a_first_page_that_fails_is_the_answer_and_a_later_one_keeps_the_rows_before_it() {
        let failed = || {
            Ok(ApiError::invalid_input("Bad.", "Fix it.", "x")
                .to_call_tool_result()
                .into())
        };
        let mut g = gather(PAGED);
        assert!(matches!(g.read(failed()), Next::Answer(Ok(_))));

        let mut g = gather(PAGED);
        g.read(page(json!([{"id": 1}, {"id": 2}]), Some("c1")));
        assert!(matches!(g.read(failed()), Next::Done));
        assert!(!g.complete);
        assert_eq!(
            g.notes,
            ["page 2 failed (INVALID_INPUT: Bad.); the table holds the 2 rows before it"]
        );
        assert_eq!(g.table.len(), 2);

        let mut g = gather(PAGED);
        let cancelled = Err(ErrorData::internal_error(
            "request cancelled by the client",
            None,
        ));
        assert!(matches!(g.read(cancelled), Next::Answer(Err(_))));

        // A later page that faults (a panicking tool, a protocol error) keeps the rows
        // before it, as a later page's error envelope does.
        let mut g = gather(PAGED);
        g.read(page(json!([{"id": 1}]), Some("c1")));
        let fault = Err(ErrorData::internal_error("the tool panicked", None));
        assert!(matches!(g.read(fault), Next::Done));
        assert!(!g.complete);
        assert_eq!(
            g.notes,
            ["page 2 failed (the tool panicked); the table holds the 1 rows before it"]
        );
    }

    #[test]
    fn a_cut_list_a_repeated_cursor_and_a_missing_structure_are_said() {
        let capped = Listing {
            rows: "ld",
            size: "limit",
            paged: false,
        };
        let mut g = gather(capped);
        let cut = CallToolResult::structured(json!({"ld": [{"r2": 0.9}], "truncated": true}));
        assert!(matches!(g.read(Ok(cut.into())), Next::Done));
        assert!(!g.complete);
        assert_eq!(
            g.notes,
            ["the tool cut its answer at its largest `limit`, leaving rows out: the list"]
        );

        let mut g = gather(PAGED);
        g.read(page(json!([{"id": 1}]), Some("same")));
        assert!(matches!(
            g.read(page(json!([{"id": 2}]), Some("same"))),
            Next::Done
        ));
        assert_eq!(g.notes, ["the tool gave a cursor twice; stopped there"]);

        let mut g = gather(PAGED);
        let text_only = CallToolResult::success(vec![ContentBlock::text("a picture")]);
        assert!(matches!(g.read(Ok(text_only.into())), Next::Answer(Err(_))));
    }
}
