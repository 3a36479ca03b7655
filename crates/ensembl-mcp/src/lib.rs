//! ensembl-mcp: an MCP server for Ensembl genes and transcripts.
//!
//! Three tools take an agent from fuzzy words to exact facts: `ensembl_search_genes`
//! (symbols, synonyms and free text, via Ensembl REST and EBI Search),
//! `ensembl_get_gene` and `ensembl_get_transcript` (look-ups with cross-references).

mod client;
mod ids;
mod models;
mod region;
mod server;
mod spdi;
mod species;
mod tools;
mod xrefs;

pub use server::EnsemblServer;
