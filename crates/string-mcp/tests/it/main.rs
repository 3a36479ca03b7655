//! Integration tests of string-mcp: one test binary, one module per area. Tools are driven
//! through a real MCP client (in-process, and the built binary over stdio); every upstream
//! is a local wiremock serving the fixtures in `tests/fixtures` (see their README);
//! nothing touches the network except the `live_*` tests, which are opt-in.
#![expect(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns: failing loudly is the point"
)]

mod annotation;
mod binary;
mod definitions;
mod enrichment;
mod export;
mod faults;
mod homologs;
mod image;
mod interactions;
mod live;
mod network;
mod picture;
mod politeness;
mod provenance;
mod search;
mod strict_clients;
mod support;
