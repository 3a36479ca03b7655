//! igvf-mcp: an MCP server for IGVF Catalog knowledge graph.
//!
//! Partial: this crate is the shell that the foundation issue sets up. It has its
//! upstream configuration (`client.rs`) and serves MCP, but no tools yet; issue #6
//! adds them.

mod client;
mod server;

pub use client::source_configs;
pub use server::IgvfServer;
