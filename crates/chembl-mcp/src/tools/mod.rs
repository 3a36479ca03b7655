//! The tools, one per file, each named once below, in the order tools are listed; that
//! list is the server's tools.

lifesciences_core::tool_files! {
    crate::server::ChemblServer, chembl:
    search_compounds,
    get_compound,
    get_compounds_batch,
    get_drug_profile,
    get_bioactivities,
    search_targets,
    get_target,
}
