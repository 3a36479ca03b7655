//! Integration tests of ensembl-mcp: one test binary, one module per area. Every upstream is a
//! local mock; nothing touches the network (except the `live_*` tests, ignored unless
//! `LIFESCIENCES_LIVE=1`, run by `cargo xtask live`).
#![expect(
    clippy::unwrap_used,
    reason = "test helpers outside #[test] fns: failing loudly is the point"
)]

mod binary;
mod definitions;
mod export;
mod faults;
mod homologs;
mod live;
mod lookup;
mod map;
mod politeness;
mod provenance;
mod refusals;
mod region;
mod search;
mod sequence;
mod strict_clients;
mod support;
mod variant;
mod vep;
