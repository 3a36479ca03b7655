//! `lifesciences-mcp`: every tool of the five servers in one process (stdio by default;
//! see `lifesciences-mcp --help`).

fn main() -> std::process::ExitCode {
    lifesciences_core::cli::main::<lifesciences_mcp::Gateway>()
}
