//! Shared machinery of the lifesciences MCP servers.
//!
//! A server crate declares its server ([`McpServer`]: names, instructions, its tool
//! router, how to build it from an [`Env`]) and its source clients (each a
//! [`LifeSciencesClient`] that describes its [`Upstream`] once and calls it through an
//! [`HttpClient`]); its tools are `#[tool]` fns taking [`Parameters`] and returning
//! `Result<Json<T>, ApiError>`. Core does the rest: politeness toward upstreams (rate
//! limits, concurrency caps, retries, cache, coalescing), the tool and schema policy,
//! error envelopes, cursors, cross-references, and the command line with its stdio and
//! Streamable HTTP transports and its `check` of the upstreams.
//!
//! Modules depend downwards only: `notify`, `provenance`, `principal`, `chores`,
//! `version` ← `config` ← `error` ← `store` ← `records`, `http` ← `export`, `client` ←
//! `server` ← `serve` ← `cli`.

pub mod args;
pub mod chores;
pub mod cli;
pub mod client;
pub mod config;
pub mod cursor;
pub mod envelope;
pub mod error;
pub mod export;
pub mod http;
pub mod notify;
pub mod principal;
pub mod provenance;
pub mod records;
pub mod reply;
pub mod schema;
pub mod serve;
pub mod server;
pub mod store;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
#[cfg(test)]
mod vcs_info;
pub mod version;
pub mod xref;

pub use args::{Parameters, SearchQuery, in_range, lenient};
pub use client::{Env, LifeSciencesClient};
pub use config::{
    ConfigError, HealthCheck, Licence, ReleaseCheck, RetryPolicy, Setting, SourceConfig, Upstream,
};
pub use envelope::{ErrorBody, ErrorCode, ErrorEnvelope, Pagination, PaginationEnvelope};
pub use error::{ApiError, Guidance, MIN_QUERY_CHARS, UpstreamFailure};
pub use http::{Answer, HttpClient, Meta, Probe, Row, encode_path_segment};
pub use provenance::{Provenance, SourceProvenance};
pub use reply::Reply;
pub use server::{
    Declared, McpServer, Served, StaticResource, call_tool, documented_tools, prepare_tools, tools,
};
pub use xref::{Cardinality, CrossReferences, REGISTRY, XrefKey, XrefSpec};

#[doc(hidden)]
pub use pastey as __pastey;
/// Re-exported so server crates use the same rmcp and schemars as core.
pub use rmcp;
pub use rmcp::schemars;
