//! The tools, one per file; `server.rs` adds their routers together.

pub mod get_compound;
pub mod get_compounds_batch;
pub mod search_compounds;
