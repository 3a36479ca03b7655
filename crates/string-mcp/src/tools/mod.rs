//! The tools, one per file: arguments, the `#[tool]` fn, the mapping from STRING's rows to
//! the output types, and unit tests. Each file is named once below, in the order tools
//! are listed; that list is the server's tools. A tool file imports no other tool file:
//! what several tools share is a module of the crate (`edges`, `image`, `set`, `score`).

lifesciences_core::tool_files! {
    crate::server::StringServer, string:
    search_proteins as paged(items, limit),
    get_interactions as capped(interactions, limit),
    get_network as paged(edges, limit),
    get_enrichment as paged(terms, limit),
    get_functional_annotation as paged(terms, limit),
    get_homologs as paged(homologs, limit),
    get_network_image as picture,
    get_network_image_url,
}
