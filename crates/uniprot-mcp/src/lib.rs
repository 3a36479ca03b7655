//! uniprot-mcp: an MCP server for UniProt (rest.uniprot.org), the protein layer the other
//! servers' tools point to with UniProt accessions.
//!
//! An agent finds the entry of gene X in organism Y with `uniprot_search_proteins`, reads
//! what the protein is with `uniprot_get_protein` (compact, with more sections on
//! request), what lies at a residue with `uniprot_get_features`, and carries identifiers
//! between UniProt and other databases with `uniprot_map_ids`.

mod client;
mod disease;
mod feature;
mod ids;
mod models;
mod protein;
mod server;
mod tools;
mod xrefs;

pub use server::UniprotServer;
