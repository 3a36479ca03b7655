//! The tools, one per file; `server.rs` adds their routers together.

pub(crate) mod get_bioactivities;
pub(crate) mod get_compound;
pub(crate) mod get_compounds_batch;
pub(crate) mod get_drug_profile;
pub(crate) mod get_target;
pub(crate) mod search_compounds;
pub(crate) mod search_targets;
