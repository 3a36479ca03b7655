//! Integration tests of lifesciences-core: one test binary (links once), one module per
//! area. Every upstream is a local wiremock server; nothing touches the network.
#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns: failing loudly is the point"
)]

mod auth;
mod cli;
mod export;
mod faults;
mod fleet_http;
mod http;
mod logging;
mod network;
mod shutdown;
mod store;
mod tools;
mod transport;
