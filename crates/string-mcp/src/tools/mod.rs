//! The tools, one per file: arguments, the `#[tool]` fn, the mapping from STRING's rows to
//! the output types, and unit tests. `server.rs` adds their routers together.

pub(crate) mod get_enrichment;
pub(crate) mod get_functional_annotation;
pub(crate) mod get_homologs;
pub(crate) mod get_interactions;
pub(crate) mod get_network;
pub(crate) mod get_network_image;
pub(crate) mod get_network_image_url;
pub(crate) mod search_proteins;
