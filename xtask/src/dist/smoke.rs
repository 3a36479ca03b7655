//! The smoke test every artifact takes, the way a user's MCP client starts it: a command
//! (the installed binary, `python -m …`, `npx …`, the bundle's entry point) spawned over
//! stdio, which must answer `initialize` and `tools/list` with every tool.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use rmcp::ServiceExt as _;

/// What a smoke test saw.
#[derive(Debug, Clone)]
pub(crate) struct Smoke {
    /// From spawning the command to the `tools/list` answer.
    pub to_tools_list: Duration,
    /// Tools listed.
    pub tools: usize,
    /// The server's name and version, as `initialize` gave them.
    pub server: String,
}

impl std::fmt::Display for Smoke {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: initialize and tools/list ({} tools) in {} ms",
            self.server,
            self.tools,
            self.to_tools_list.as_millis()
        )
    }
}

/// The gateway's tools, all toolsets served: what every artifact must list (its declared
/// tools, so a toolset added to the gateway is expected without another edit).
pub(crate) fn expected_tools() -> usize {
    <lifesciences_mcp::Gateway as lifesciences_core::McpServer>::tools().len()
}

/// Spawn `program args…` in `dir` with `env` (and nothing of this process's own
/// `LIFESCIENCES_*`/`*_API_URL` settings), talk MCP over its stdio, and check it answers
/// `initialize` and lists [`expected_tools`] tools, within 60 s.
pub(crate) fn speaks_mcp(
    program: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    dir: &Path,
) -> anyhow::Result<Smoke> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let mut command = tokio::process::Command::new(program);
        command.args(args).current_dir(dir).env("RUST_LOG", "error");
        for (key, _) in std::env::vars() {
            if key.starts_with("LIFESCIENCES_") || key.ends_with("_API_URL") {
                command.env_remove(&key);
            }
        }
        for (key, value) in env {
            command.env(key, value);
        }
        let started = Instant::now();
        let shown = format!("{} {}", program.display(), args.join(" "));
        let transport = rmcp::transport::TokioChildProcess::new(command)
            .with_context(|| format!("cannot start {shown}"))?;
        let session = tokio::time::timeout(Duration::from_secs(60), async {
            let client = ().serve(transport).await.context("initialize")?;
            let tools = client.list_all_tools().await.context("tools/list")?;
            let to_tools_list = started.elapsed();
            let server = client
                .peer_info()
                .and_then(|info| {
                    info.server_info
                        .as_ref()
                        .map(|s| format!("{} {}", s.name, s.version))
                })
                .unwrap_or_else(|| "an unnamed server".to_owned());
            let _ = client.cancel().await;
            anyhow::Ok(Smoke {
                to_tools_list,
                tools: tools.len(),
                server,
            })
        })
        .await
        .with_context(|| format!("{shown}: no answer within 60 s"))?
        .with_context(|| format!("{shown} does not speak MCP over stdio"))?;
        let expected = expected_tools();
        if session.tools != expected {
            bail!("{shown} lists {} tools, not {expected}", session.tools);
        }
        Ok(session)
    })
}

/// `cargo xtask smoke -- <command…>`: [`speaks_mcp`] on any command, in the current
/// folder, printing what it saw.
pub(crate) fn run(command: &[String]) -> anyhow::Result<()> {
    let Some((program, args)) = command.split_first() else {
        bail!("give the command to start, e.g. `cargo xtask smoke -- lifesciences-mcp`");
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let smoke = speaks_mcp(Path::new(program), &args, &[], &std::env::current_dir()?)?;
    println!("{program}: {smoke}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use lifesciences_core::McpServer as _;

    /// What every artifact must list is what the gateway's binary serves: the definitions
    /// it embeds.
    #[test]
    fn the_expected_tools_are_the_gateways_served_definitions() {
        let served: Vec<serde_json::Value> =
            serde_json::from_str(lifesciences_mcp::Gateway::DEFINITIONS.unwrap()).unwrap();
        assert_eq!(super::expected_tools(), served.len());
    }
}
