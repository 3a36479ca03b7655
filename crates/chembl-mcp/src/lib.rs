//! chembl-mcp: an MCP server for ChEMBL compounds: search by name, full compound records
//! with cross-references to other databases (via ChEMBL's mechanisms and UniChem), and
//! batch lookup.

mod client;
mod compound;
mod ids;
mod models;
mod progress;
mod server;
mod tools;

pub use client::{
    CHEMBL_DEFAULT_URL, UNICHEM_DEFAULT_URL, UNICHEM_TIMEOUT, chembl_config, source_configs,
    unichem_config, unichem_retry,
};
pub use compound::Compound;
pub use server::ChemblServer;
pub use tools::get_compounds_batch::{
    BatchItem, CompoundBatch, FailedLookup, ItemError, MAX_BATCH, PROGRESS_MIN_ITEMS,
};
pub use tools::search_compounds::CompoundHit;
