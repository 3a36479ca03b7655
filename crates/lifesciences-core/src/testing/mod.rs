//! Test support for every server crate (feature `testing`), one kit for all of them:
//!
//! - [`mock_upstream`], a mock whose catch-all route fails the test on any request no
//!   route expected, and [`mock_env`], an environment pointing a server at mocks with
//!   quick retries;
//! - [`fixture`], a recorded response of the crate under test as the upstream's answer;
//! - [`McpTestClient`], a real MCP client (in-process, or a built binary over stdio) that
//!   checks every result as a strict client would ([`assert_strict_client_accepts`]: the
//!   tool's schemas compiled as ajv's strict mode compiles them, and JSON Schema 2020-12
//!   against the tool's output schema), and whose helpers check every result has no
//!   `null` and a success mirrors its structured content as text;
//! - [`assert_tool_definitions`], the promises every tool definition keeps (its schemas
//!   strict among them), and the catalog budget;
//! - [`assert_fault_matrix`], every tool under every upstream fault of [`faults`];
//! - [`McpTestClient::export`] and [`assert_export_holds_the_pages`]: an export as a
//!   client gets it, and the promise that its table holds the rows paging gives;
//! - [`TestServer`], a small complete server that core's own tests drive and that shows a
//!   server crate's shape in one file.
//! - [`TestIssuer`], a local OAuth issuer (metadata and a key set it can rotate, take
//!   down and count the requests of) and the tokens it mints, good or bad;
//! - [`RedisServer`](self::redis::RedisServer), a real `redis-server` on a Unix socket in
//!   a fresh folder ([`TempFolder`]), for the shared store's Redis tests.
#![expect(
    clippy::panic,
    clippy::expect_used,
    clippy::unwrap_used,
    clippy::print_stderr,
    reason = "test support: failing loudly with a message is the point"
)]

mod client;
mod definitions;
mod export;
mod faults;
mod fixtures;
mod folder;
mod issuer;
mod logs;
mod mock;
mod nulls;
#[cfg(unix)]
pub mod redis;
mod server;
mod strict;

pub use client::{
    LogListener, McpTestClient, assert_binary_speaks_mcp, assert_binary_speaks_mcp_with_stderr,
    run_check,
};
#[cfg(unix)]
pub use client::{assert_sigterm_answers_the_call_in_flight, assert_stops_on_sigterm};
pub use definitions::{
    AVERAGE_BUDGET_BYTES, Catalog, OUTPUT_AVERAGE_BUDGET_BYTES, TOOL_BUDGET_BYTES,
    assert_catalog_budget, assert_output_budget, assert_tool_definitions,
};
pub use export::{Exported, assert_export_holds_the_pages, parse as parse_table};
pub use faults::{Fault, assert_fault_matrix, faults};
pub use fixtures::{Fixtures, fixture};
pub use folder::TempFolder;
pub use issuer::{SigningKey, TestIssuer, TokenBuilder};
pub use logs::LogCapture;
pub use mock::{
    Recording, busiest_within, mock_env, mock_env_with_releases, mock_source, mock_upstream, quick,
    requests_named, requests_seen,
};
pub use nulls::{assert_no_nulls, find_nulls};
pub use server::TestServer;
pub use strict::assert_strict_client_accepts;
