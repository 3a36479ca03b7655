//! chembl-mcp: an MCP server for ChEMBL compounds: search by name, full compound records
//! with cross-references to other databases (via ChEMBL's mechanisms and UniChem), and
//! batch lookup.

mod client;
mod compound;
mod ids;
mod models;
mod progress;
mod section;
mod server;
mod target;
mod tools;

pub use server::ChemblServer;
