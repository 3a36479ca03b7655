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
    CHEMBL_DEFAULT_URL, UNICHEM_COOL_DOWN, UNICHEM_DEFAULT_URL, UNICHEM_TIMEOUT, chembl_config,
    chembl_config_with, source_configs, unichem_config, unichem_config_with, unichem_retry,
};
pub use compound::{Compound, LIST_MAX};
pub use server::ChemblServer;
pub use tools::get_compounds_batch::{
    BatchItem, CompoundBatch, FailedLookup, ItemError, MAX_BATCH, PROGRESS_MIN_ITEMS,
};
pub use tools::search_compounds::CompoundHit;
