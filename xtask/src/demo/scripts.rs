//! Which demo script is whose: each server's, by its name.

use super::script::Script;
use super::{chembl, ensembl, igvf, string, uniprot};

/// The demo script of the server `name`: its file in `demo/`. A server without one gets
/// an empty script, which the demo refuses (it points no upstream at the mock).
pub(crate) fn script_of(name: &str) -> fn() -> Script {
    match name {
        "string-mcp" => string::script,
        "ensembl-mcp" => ensembl::script,
        "chembl-mcp" => chembl::script,
        "igvf-mcp" => igvf::script,
        "uniprot-mcp" => uniprot::script,
        _ => Script::default,
    }
}
