//! `igvf-mcp`: serve the IGVF Catalog knowledge graph MCP server (stdio by default; see `igvf-mcp --help`).

fn main() -> std::process::ExitCode {
    lifesciences_core::cli::main::<igvf_mcp::IgvfServer>()
}
