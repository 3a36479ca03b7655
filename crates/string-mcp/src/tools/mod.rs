//! The tools, one per file: arguments, the `#[tool]` fn, the mapping from STRING's rows to
//! the output types, and unit tests. `server.rs` adds their routers together.

pub mod get_interactions;
pub mod network_image_url;
pub mod search_proteins;
