//! igvf-mcp: an MCP server for the IGVF Catalog knowledge graph, intent-based and
//! forgiving: agents give any identifier, gene symbol or region and the server detects
//! what it is, picks the endpoints, and returns normalised entities and associations.
//!
//! Code map: `ids` (identifier detection), `region` (region parser), `client` (the only
//! module that knows URLs and parameters), `spec` (the embedded OpenAPI spec), `models`
//! (tolerant upstream types), `lookup` (one entity by any ID, exact matches only),
//! `entities` (output types), `associations` (relationships → edge endpoints), `subject`
//! (the entity an association query starts from, resolved), `reports` (the queried
//! entity and per-data-set reports of the association tools), `terms` (a disease term
//! and its children), `resources`, `tools/` (one file per tool; a tool file imports no
//! other), `server`.

mod associations;
mod client;
mod entities;
mod ids;
mod lookup;
mod models;
mod region;
mod reports;
mod resources;
mod server;
pub mod spec;
mod subject;
mod terms;
mod tools;

pub use server::IgvfServer;
