//! string-mcp: an MCP server for STRING protein interactions (string-db.org).
//!
//! An agent goes from a name to facts in three calls: `string_search_proteins` (a name →
//! ranked STRING CURIEs), `string_get_interactions` (a CURIE → evidence-scored partners)
//! and `string_get_network_image_url` (proteins → a link STRING renders as an image).

mod category;
mod client;
mod edges;
mod ids;
mod image;
mod models;
mod score;
mod server;
mod set;
mod tools;

pub use server::StringServer;
