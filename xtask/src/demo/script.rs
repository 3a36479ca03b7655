//! What a demo script is made of: the steps of an MCP session, the mock routes, and the
//! fixtures they serve. Each server's script (`demo/<source>.rs`) builds one.

use serde_json::Value;
use wiremock::{Mock, ResponseTemplate};

/// How a step should end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expect {
    /// A successful result.
    Ok,
    /// An error envelope with this code (e.g. `UNRESOLVED_ENTITY`).
    Error(&'static str),
}

/// One call of a demo session.
pub(crate) struct Step {
    /// What the user is doing, in words.
    pub say: &'static str,
    /// The tool to call.
    pub tool: &'static str,
    /// Its arguments.
    pub arguments: Value,
    /// How it should end.
    pub expect: Expect,
}

/// A server's demo: where its upstreams point, what the mock serves, what to call.
#[derive(Default)]
pub(crate) struct Script {
    /// `(environment variable, path prefix on the mock)` for each upstream, e.g.
    /// `("STRING_API_URL", "/string")`. Every upstream of the server must be listed, so
    /// the demo never reaches the real network.
    pub upstreams: Vec<(&'static str, &'static str)>,
    /// Routes of the mock upstream (paths include the prefix).
    pub mocks: Vec<Mock>,
    /// The calls, in order.
    pub steps: Vec<Step>,
}

/// A fixture file of a server crate (`crates/<crate>/tests/fixtures/<name>`), as a 200
/// JSON response.
pub(crate) fn fixture(krate: &str, name: &str) -> ResponseTemplate {
    let path = crate::workspace_root()
        .join("crates")
        .join(krate)
        .join("tests/fixtures")
        .join(name);
    match std::fs::read(&path) {
        Ok(body) => ResponseTemplate::new(200)
            .insert_header("content-type", "application/json")
            .set_body_bytes(body),
        Err(e) => ResponseTemplate::new(500)
            .set_body_string(format!("demo fixture {} is missing: {e}", path.display())),
    }
}
