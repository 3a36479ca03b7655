//! `ensembl-mcp`: serve the Ensembl genes and transcripts MCP server (stdio by default; see `ensembl-mcp --help`).

fn main() -> std::process::ExitCode {
    lifesciences_core::cli::main::<ensembl_mcp::EnsemblServer>()
}
