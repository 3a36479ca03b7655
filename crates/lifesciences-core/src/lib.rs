//! Shared machinery of the lifesciences MCP servers.
//!
//! A server crate describes its upstream endpoints (a [`LifeSciencesClient`] over an
//! [`HttpClient`] built from a [`SourceConfig`]) and its tools (`#[tool]` fns taking
//! [`Parameters`] and returning `Result<Json<T>, ApiError>`); core does the rest:
//! politeness toward upstreams (rate limits, concurrency caps, retries, cache, coalescing),
//! error envelopes, cursors, cross-references, and the command line with its stdio and
//! Streamable HTTP transports.

pub mod args;
pub mod cli;
pub mod client;
pub mod cursor;
pub mod envelope;
pub mod error;
pub mod http;
pub mod serve;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod xref;

pub use args::{Parameters, SearchQuery, in_range, lenient};
pub use client::{ConfigError, LifeSciencesClient, RetryPolicy, SourceConfig};
pub use envelope::{ErrorBody, ErrorCode, ErrorEnvelope, Pagination, PaginationEnvelope};
pub use error::{ApiError, Guidance, MIN_QUERY_CHARS, UpstreamFailure, tool_result};
pub use http::{HttpClient, encode_path_segment};
pub use serve::{McpServer, prepare_tools, server_config};
pub use xref::{Cardinality, CrossReferences, REGISTRY, XrefKey, XrefSpec};

/// Re-exported so server crates use the same rmcp, schemars and async-trait as core.
pub use async_trait::async_trait;
pub use rmcp;
pub use rmcp::schemars;
