//! `Served`'s side of an export (see [`crate::export`]): the list tool called by its name
//! page after page, as a client pages it, at its largest page size; the table kept; the
//! summary answered with a `resource_link` to it.
//!
//! Each page is one call through the server's own dispatch, behind the tool policy, in
//! the caller's provenance record and on the caller's behalf: the cache, the rate limits
//! and the fair share apply to every page as to any call, a cancelled call stops before
//! its next request, and the table's provenance names every request of the fetch.

use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, JsonObject,
    ProgressNotificationParam, ProgressToken, Resource,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer};
use serde_json::Value;

use super::{McpServer, Served};
use crate::error::ApiError;
use crate::export::{self, Format, Made, Next, Summary};
use crate::notify;
use crate::provenance;
use crate::records;

/// The exports one process makes at once. At their bounds (100,000 rows, 64 MiB) a
/// table's cells and its text take a few hundred megabytes together; two at a time keeps
/// a replica's worst case within what a small host has.
static EXPORTING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

impl<S: McpServer> Served<S> {
    /// Answer a call to one of the server's tools that asks for an export of its list
    /// as `format`.
    pub(super) async fn export(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
        format: Format,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.clone();
        let mut arguments = request.arguments.take().unwrap_or_default();
        let listing = match exportable(&name, self.catalog.listing(&self.server, &name), &arguments)
        {
            Ok(listing) => listing,
            Err(refused) => return Ok(refused.to_call_tool_result().into()),
        };
        if let Some(largest) = self
            .catalog
            .get(&self.server, &name)
            .and_then(|tool| export::largest(&tool, listing.size))
        {
            arguments.insert(listing.size.to_owned(), largest.into());
        }
        // The pages are the export's own business: the client's progress token is for
        // the export's progress, not for each page's.
        let progress = context.meta.get_progress_token();
        let mut page_context = context.clone();
        page_context.meta.0.remove("progressToken");
        let peer = context.peer.clone();

        // A large export holds its table and its text at once: a few at a time per
        // process, the others waiting their turn (a cancelled call stops waiting).
        let Ok(_turn) = EXPORTING.acquire().await else {
            return Err(ErrorData::internal_error("the server is stopping", None));
        };
        let (gathered, read) = provenance::scope(notify::scope(
            peer.clone(),
            self.level.clone(),
            S::NAME,
            async {
                let mut gathered = export::gather(listing);
                let mut asked = arguments.clone();
                let mut sent = 0;
                loop {
                    let mut params = CallToolRequestParams::new(name.clone());
                    params.arguments = Some(asked.clone());
                    let call = ToolCallContext::new(&self.server, params, page_context.clone());
                    let outcome = self.catalog.calls(&self.server).call(call).await;
                    if page_context.ct.is_cancelled() {
                        return Err(Err(ErrorData::internal_error(
                            "the export was cancelled by the client",
                            None,
                        )));
                    }
                    match gathered.read(outcome) {
                        Next::Page(cursor) => {
                            asked.insert("cursor".to_owned(), Value::String(cursor));
                        }
                        Next::Done => return Ok(gathered),
                        Next::Answer(answer) => return Err(answer),
                    }
                    if let Some(token) = &progress
                        && gathered.table.len() > sent
                    {
                        sent = gathered.table.len();
                        tell_progress(&peer, token, sent, gathered.total).await;
                    }
                }
            },
        ))
        .await;
        let mut gathered = match gathered {
            Ok(gathered) => gathered,
            Err(answer) => return answer,
        };
        let Some(first) = gathered.first.clone() else {
            return Err(ErrorData::internal_error("an export read no page", None));
        };
        let (brief, full) = read.provenance();
        if let Some((id, full)) = &full {
            records::keep(id, full);
        }
        let whole = full.as_ref().map_or(&brief, |(_, full)| full);
        let Some(file) = export::new_name(format) else {
            return Err(ErrorData::internal_error(
                "the system's random generator failed: no name for the table",
                None,
            ));
        };
        let ttl = export::ttl();
        let table = std::mem::take(&mut gathered.table);
        let (rows, columns) = (table.len(), table.columns());
        let comments = export::comments(&Made {
            tool: &name,
            by: crate::version::version_line(S::NAME, S::VERSION),
            arguments: &arguments,
            rows,
            pages: gathered.pages,
            complete: gathered.complete,
            notes: &gathered.notes,
            provenance: whole,
        });
        let text = table.write(format, &comments);
        // Its cells are in the text now: never both held longer than this.
        drop(table);
        let bytes = text.len();
        let owner = crate::principal::current().name;
        if !export::keep(&file, text, ttl, &owner).await {
            gathered.notes.push(
                "the shared store did not take the table: only this server process can \
                 serve it"
                    .to_owned(),
            );
        }
        tracing::debug!(
            tool = %name,
            rows,
            pages = gathered.pages,
            bytes,
            complete = gathered.complete,
            "exported"
        );

        let uri = format!("{}{file}", export::RESOURCE_SCHEME);
        let download = super::caller_parts(&context)
            .and_then(|parts| parts.extensions.get::<export::Downloads>())
            .map(|downloads| format!("{}{file}", downloads.0));
        let summary = Summary {
            format: format.name(),
            rows,
            columns,
            complete: gathered.complete,
            uri: uri.clone(),
            download,
            expires_at: export::expires_at(ttl),
            note: (!gathered.notes.is_empty()).then(|| gathered.notes.join("; ")),
        };
        let answer = export::summarise(first, listing, summary, &brief);
        let mut result = CallToolResult::structured(Value::Object(answer));
        provenance::attach(&mut result, &brief);
        result.content.push(ContentBlock::resource_link(
            Resource::new(uri, format!("{name}.{}", format.name()))
                .with_title(format!("{name}: the whole list"))
                .with_mime_type(format.mime_type())
                .with_size(bytes as u64),
        ));
        Ok(CallToolResponse::Complete(result))
    }
}

/// The list `name` holds (`listing`), unless an export of it with `arguments` is refused:
/// a tool whose answer is not a list, or a cursor (an export starts at the first page).
fn exportable(
    name: &str,
    listing: Option<export::Listing>,
    arguments: &JsonObject,
) -> Result<export::Listing, ApiError> {
    let Some(listing) = listing else {
        return Err(ApiError::invalid_input(
            format!(
                "{name} does not answer a list: it takes no '{}'.",
                export::ARGUMENT
            ),
            "Leave out export; it is for the tools that answer lists (a cursor or a limit).",
            export::ARGUMENT,
        ));
    };
    if listing.paged && arguments.get("cursor").is_some_and(|c| !c.is_null()) {
        return Err(ApiError::invalid_input(
            "An export fetches every page itself, from the first.",
            "Leave out cursor when passing export.",
            "cursor",
        ));
    }
    Ok(listing)
}

/// Progress: `rows` so far, of the `total` when the tool says it.
async fn tell_progress(
    peer: &Peer<RoleServer>,
    token: &ProgressToken,
    rows: usize,
    total: Option<u64>,
) {
    let mut param = ProgressNotificationParam::new(token.clone(), rows as f64)
        .with_message(format!("{rows} rows"));
    if let Some(total) = total {
        param = param.with_total(total.min(export::MAX_ROWS as u64) as f64);
    }
    if let Err(e) = peer.notify_progress(param).await {
        tracing::debug!(error = %e, "could not send a progress notification");
    }
}
