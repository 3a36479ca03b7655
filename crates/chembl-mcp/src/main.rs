//! `chembl-mcp`: serve the ChEMBL compounds MCP server (stdio by default; see `chembl-mcp --help`).

fn main() -> std::process::ExitCode {
    lifesciences_core::cli::main::<chembl_mcp::ChemblServer>()
}
