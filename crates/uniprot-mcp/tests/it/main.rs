//! Integration tests of uniprot-mcp: one test binary, one module per area. Tools are
//! driven through a real MCP client (in-process, and the built binary over stdio); every
//! upstream is a local wiremock serving the recordings in `tests/fixtures` (see their
//! README) with UniProt's recorded headers; nothing touches the network except the
//! `live_*` tests, which are opt-in.
#![expect(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns: failing loudly is the point"
)]

mod binary;
mod definitions;
mod export;
mod faults;
mod features;
mod live;
mod map_ids;
mod protein;
mod provenance;
mod search;
mod strict_clients;
mod support;
