//! lifesciences-mcp: one MCP server for STRING, Ensembl, ChEMBL, the IGVF Catalog and
//! UniProt.
//!
//! It serves every tool of the five servers unchanged (same names, arguments and
//! results), each call handed to the server it belongs to, plus
//! `lifesciences_map_ids`, which carries an identifier from one database to the others.
//! The servers are built from one environment, so a source two of them use has one
//! client: one cache, one coalescing table and one politeness budget.
//!
//! Code map: `servers` (the servers served, each named once), `toolsets` (which of their
//! tools are served), `map_ids` (the crossing tool), `server` (the gateway itself).

mod map_ids;
mod server;
mod servers;
mod toolsets;

pub use server::Gateway;
pub use servers::{EachServer, Toolset, each_server};
