//! Integration tests of igvf-mcp: one test binary, one module per area. Every upstream is a
//! local mock; nothing touches the network.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns: failing loudly is the point"
)]

mod binary;
