//! Integration tests of chembl-mcp: one test binary, one module per area. Every upstream is a
//! local mock; nothing touches the network (except the ignored `live_*` tests).
#![expect(
    clippy::unwrap_used,
    reason = "test helpers outside #[test] fns: failing loudly is the point"
)]

mod batch;
mod binary;
mod bioactivities;
mod compound;
mod definitions;
mod export;
mod faults;
mod live;
mod politeness;
mod profile;
mod progress;
mod provenance;
mod search;
mod strict_clients;
mod support;
mod targets;
