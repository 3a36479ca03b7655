//! `string-mcp`: serve the STRING protein interactions MCP server (stdio by default; see `string-mcp --help`).

fn main() -> std::process::ExitCode {
    lifesciences_core::cli::main::<string_mcp::StringServer>()
}
