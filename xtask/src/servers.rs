//! The servers of the workspace, as xtask sees them: the gateway's (`each_server`), each
//! with its demo script. A new server is listed by the gateway, not here.

use lifesciences_core::rmcp::model::Tool;
use lifesciences_core::{ConfigError, McpServer, SourceConfig};

use crate::demo::script::Script;

/// What xtask needs to know about one server.
pub(crate) struct ServerEntry {
    /// Package and binary name, e.g. `string-mcp`.
    pub name: &'static str,
    /// Human title.
    pub title: &'static str,
    /// `initialize` instructions.
    pub instructions: &'static str,
    /// The tool definitions, with every output field's description.
    pub tools: fn() -> Vec<Tool>,
    /// The served definitions as the server embeds them (`src/tools.json`).
    pub definitions: fn() -> String,
    /// The upstreams it uses, configured with their defaults (no environment).
    pub upstreams: fn() -> Result<Vec<SourceConfig>, ConfigError>,
    /// The demo script (mock upstream routes and the calls to make).
    pub demo: fn() -> Script,
}

fn entry<S: McpServer>(demo: fn() -> Script) -> ServerEntry {
    ServerEntry {
        name: S::NAME,
        title: S::TITLE,
        instructions: S::INSTRUCTIONS,
        tools: lifesciences_core::documented_tools::<S>,
        definitions: lifesciences_core::server::stored_definitions::<S>,
        upstreams: upstreams::<S>,
        demo,
    }
}

/// The upstreams `S` builds, as an empty environment configures them: the defaults.
fn upstreams<S: McpServer>() -> Result<Vec<SourceConfig>, ConfigError> {
    lifesciences_core::server::upstreams::<S>()?
        .into_iter()
        .map(SourceConfig::new)
        .collect()
}

/// The gateway's package and binary name.
pub(crate) const GATEWAY: &str = "lifesciences-mcp";

/// The gateway serving every server's tools: not one of [`all`] (its tools are theirs),
/// but demonstrated, measured and documented with them.
pub(crate) fn gateway() -> ServerEntry {
    entry::<lifesciences_mcp::Gateway>(crate::demo::gateway::script)
}

/// Every server, or only the one named `only` (`--only string-mcp`).
pub(crate) fn select(only: Option<&str>) -> anyhow::Result<Vec<ServerEntry>> {
    let entries: Vec<ServerEntry> = all()
        .into_iter()
        .filter(|e| only.is_none_or(|name| e.name == name))
        .collect();
    if entries.is_empty() {
        anyhow::bail!("no server named {:?}", only.unwrap_or_default());
    }
    Ok(entries)
}

/// Every server the gateway serves, in the order docs and the demo present them.
pub(crate) fn all() -> Vec<ServerEntry> {
    struct Collect(Vec<ServerEntry>);
    impl lifesciences_mcp::EachServer for Collect {
        fn server<S: McpServer>(&mut self, _: lifesciences_mcp::Toolset) {
            self.0
                .push(entry::<S>(crate::demo::scripts::script_of(S::NAME)));
        }
    }
    let mut collect = Collect(Vec::new());
    lifesciences_mcp::each_server(&mut collect);
    collect.0
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::all;

    /// One gateway may serve every tool of every server: a name names one tool.
    #[test]
    fn tool_names_are_unique_across_servers() {
        let mut seen: BTreeMap<String, &str> = BTreeMap::new();
        for server in all() {
            for tool in (server.tools)() {
                let earlier = seen.insert(tool.name.to_string(), server.name);
                assert!(
                    earlier.is_none(),
                    "{} is a tool of both {} and {}",
                    tool.name,
                    earlier.unwrap_or_default(),
                    server.name
                );
            }
        }
        assert!(seen.len() >= 15, "{seen:?}");
    }

    /// Every server's upstreams can be listed without an environment (docs need them).
    #[test]
    fn every_server_describes_its_upstreams() {
        for server in all() {
            let upstreams = (server.upstreams)().unwrap();
            assert!(!upstreams.is_empty(), "{}", server.name);
            for config in upstreams {
                let u = config.upstream;
                assert!(!u.about.is_empty(), "{}: describe {}", server.name, u.name);
                assert!(
                    !u.health.path.is_empty(),
                    "{}: {} needs a health check",
                    server.name,
                    u.name
                );
            }
        }
    }
}
