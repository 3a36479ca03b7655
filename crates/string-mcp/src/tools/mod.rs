//! The tools, one per file: arguments, the `#[tool]` fn, the mapping from STRING's rows to
//! the output types, and unit tests. Each file is named once below, in the order tools
//! are listed; that list is the server's tools. A tool file imports no other tool file:
//! what several tools share is a module of the crate (`edges`, `image`, `set`, `score`).

lifesciences_core::tool_files! {
    crate::server::StringServer, string:
    search_proteins,
    get_interactions,
    get_network,
    get_enrichment,
    get_functional_annotation,
    get_homologs,
    get_network_image as picture,
    get_network_image_url,
}
