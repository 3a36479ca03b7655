//! `uniprot-mcp`: serve the UniProt MCP server (stdio by default; see `uniprot-mcp --help`).

fn main() -> std::process::ExitCode {
    lifesciences_core::cli::main::<uniprot_mcp::UniprotServer>()
}
