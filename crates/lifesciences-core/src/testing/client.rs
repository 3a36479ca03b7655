//! A real MCP client for tests: connected in-process to a server, or to a built server
//! binary over stdio. Every call is checked as a strict client would check it (see
//! [`assert_strict_client_accepts`]); the helpers also check every result has no `null`
//! and that a success mirrors its structured content as text.

#![expect(
    deprecated,
    reason = "MCP logging is deprecated in the newest protocol revision; the servers support it for clients of the previous revision, and this client listens"
)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, LoggingLevel, LoggingMessageNotificationParam,
    SetLevelRequestParams, Tool,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt as _};
use serde_json::Value;

use super::nulls::assert_no_nulls;
use super::strict::assert_strict_client_accepts;
use crate::envelope::{ErrorBody, ErrorCode, ErrorEnvelope};
use crate::server::{McpServer, Served};

/// The client side of a test session: records the log notifications it receives.
#[derive(Debug, Clone, Default)]
pub struct LogListener {
    received: Arc<Mutex<Vec<(LoggingLevel, String)>>>,
}

impl ClientHandler for LogListener {
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let text = match params.data {
            Value::String(text) => text,
            other => other.to_string(),
        };
        self.received
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((params.level, text));
    }
}

/// A real MCP client connected to a server over an in-memory duplex stream.
pub struct McpTestClient {
    client: RunningService<RoleClient, LogListener>,
    listener: LogListener,
    /// `tools/list`, asked once, for checking results against their output schemas.
    listed: tokio::sync::OnceCell<Vec<Tool>>,
    /// The in-process server task; `None` for a server run as a child process.
    server: Option<tokio::task::JoinHandle<()>>,
}

impl McpTestClient {
    /// Start `server` and connect a client to it (initialize handshake included).
    pub async fn connect<S: McpServer>(server: S) -> Self {
        let server = Served::new(server);
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        let server = tokio::spawn(async move {
            let (read, write) = tokio::io::split(server_io);
            if let Err(e) = crate::serve::serve_io(
                server,
                read,
                write,
                futures::future::pending(),
                crate::serve::SHUTDOWN_GRACE,
            )
            .await
            {
                tracing::debug!("test server ended: {e}");
            }
        });
        let listener = LogListener::default();
        let client = listener
            .clone()
            .serve(client_io)
            .await
            .expect("MCP handshake");
        Self {
            client,
            listener,
            listed: tokio::sync::OnceCell::new(),
            server: Some(server),
        }
    }

    /// Start a built server binary (e.g. `env!("CARGO_BIN_EXE_string-mcp")`) with `env`
    /// and connect to it over its stdin/stdout, as an MCP client application would.
    /// The child's logs go to stderr at `error` level unless `env` sets `RUST_LOG`.
    pub async fn spawn_binary(program: &str, env: &[(&str, &str)]) -> Self {
        let mut command = binary_command(program);
        command.env("RUST_LOG", "error");
        for (key, value) in env {
            command.env(key, value);
        }
        let transport = rmcp::transport::TokioChildProcess::new(command)
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let listener = LogListener::default();
        let client = listener
            .clone()
            .serve(transport)
            .await
            .expect("MCP handshake with the binary");
        Self {
            client,
            listener,
            listed: tokio::sync::OnceCell::new(),
            server: None,
        }
    }

    /// The underlying rmcp client.
    pub fn peer(&self) -> &RunningService<RoleClient, LogListener> {
        &self.client
    }

    /// `logging/setLevel`.
    pub async fn set_log_level(&self, level: LoggingLevel) {
        self.client
            .set_level(SetLevelRequestParams::new(level))
            .await
            .expect("logging/setLevel");
    }

    /// The log notifications received so far, as (level, text), after giving those in
    /// flight a moment to arrive.
    pub async fn log_messages(&self) -> Vec<(LoggingLevel, String)> {
        tokio::time::sleep(Duration::from_millis(50)).await;
        self.listener
            .received
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// `tools/list`.
    pub async fn tools(&self) -> Vec<Tool> {
        self.client.list_all_tools().await.expect("tools/list")
    }

    /// The names `tools/list` gives, sorted.
    pub async fn tool_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .tools()
            .await
            .iter()
            .map(|t| t.name.to_string())
            .collect();
        names.sort();
        names
    }

    /// `tools/call`; a JSON-RPC error fails the test, and so does what a strict client
    /// would refuse: a tool whose schemas do not compile strictly, structured content that
    /// does not match the output schema, or an error result with structured content.
    pub async fn call(&self, name: &str, arguments: Value) -> CallToolResult {
        let arguments = match arguments {
            Value::Object(map) => map,
            Value::Null => serde_json::Map::new(),
            other => panic!("tool arguments must be an object, got {other}"),
        };
        let result = self
            .client
            .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments))
            .await
            .unwrap_or_else(|e| panic!("tools/call {name} failed at the protocol level: {e}"));
        let listed = self.listed.get_or_init(|| self.tools()).await;
        if let Some(tool) = listed.iter().find(|t| t.name == name) {
            assert_strict_client_accepts(tool, &result);
        }
        result
    }

    /// Call a tool that must succeed: returns its structured content without its
    /// `provenance`, after checking it has no nulls, equals the text content, and carries
    /// a `provenance` (see [`call_ok_with_provenance`](Self::call_ok_with_provenance)).
    pub async fn call_ok(&self, name: &str, arguments: Value) -> Value {
        self.call_ok_with_provenance(name, arguments).await.0
    }

    /// [`call_ok`](Self::call_ok), and the result's `provenance` apart.
    pub async fn call_ok_with_provenance(&self, name: &str, arguments: Value) -> (Value, Value) {
        let result = self.call(name, arguments).await;
        let mut structured = result
            .structured_content
            .clone()
            .unwrap_or_else(|| panic!("{name}: no structured content in {result:?}"));
        assert_ne!(result.is_error, Some(true), "{name} failed: {structured:#}");
        assert_no_nulls(&structured);
        assert_text_mirrors(&result, &structured);
        let provenance = structured
            .as_object_mut()
            .and_then(|map| map.remove("provenance"))
            .unwrap_or_else(|| panic!("{name}: a success carries no provenance: {structured:#}"));
        assert!(
            provenance["sources"].is_array(),
            "{name}: provenance without sources: {provenance:#}"
        );
        (structured, provenance)
    }

    /// [`call_ok_with_provenance`](Self::call_ok_with_provenance), repeated (20 ms apart,
    /// for at most 5 s) until `database`'s entry names a release: a source's release is
    /// looked up in the background once a call has read one of its answers, and never
    /// waited for, so the first answers of a fresh process may name none. A repeat is
    /// normally answered from the cache.
    pub async fn call_ok_once_released(
        &self,
        name: &str,
        arguments: Value,
        database: &str,
    ) -> (Value, Value) {
        for _ in 0..250 {
            let (answer, provenance) = self.call_ok_with_provenance(name, arguments.clone()).await;
            let named = provenance["sources"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|s| s["database"] == database && s.get("release").is_some());
            if named {
                return (answer, provenance);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("{name}: {database}'s release was never named")
    }

    /// Call a tool whose answer is a picture (declared `as picture`) that must succeed:
    /// returns its content blocks, after checking it has no structured content, an image
    /// (or an embedded SVG) and a text, and a line of provenance.
    pub async fn call_picture(
        &self,
        name: &str,
        arguments: Value,
    ) -> Vec<rmcp::model::ContentBlock> {
        let result = self.call(name, arguments).await;
        assert_ne!(result.is_error, Some(true), "{name} failed: {result:?}");
        assert_eq!(
            result.structured_content, None,
            "{name}: a picture comes as content blocks only"
        );
        let json = serde_json::to_value(&result.content).expect("content serialises");
        let kinds: Vec<&str> = json
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|block| block["type"].as_str())
            .collect();
        assert!(
            kinds.iter().any(|k| matches!(*k, "image" | "resource")),
            "{name}: no picture among {kinds:?}"
        );
        let texts: Vec<&str> = result
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
            .collect();
        assert!(
            texts.iter().any(|t| t.starts_with("Provenance: ")),
            "{name}: no provenance among the texts {texts:?}"
        );
        assert!(
            texts.iter().any(|t| !t.starts_with("Provenance: ")),
            "{name}: no text saying what the picture shows: {texts:?}"
        );
        result.content
    }

    /// Call a tool that must fail: returns the envelope's error body, after checking the
    /// envelope is the result's only text, has the envelope's shape and no nulls.
    pub async fn call_err(&self, name: &str, arguments: Value) -> ErrorBody {
        let result = self.call(name, arguments).await;
        assert_eq!(
            result.is_error,
            Some(true),
            "{name} should fail: {result:?}"
        );
        let [content] = result.content.as_slice() else {
            panic!("{name}: an error result has one text content, got {result:?}")
        };
        let text = content
            .as_text()
            .unwrap_or_else(|| panic!("{name}: the error content is not text: {result:?}"));
        let envelope: Value = serde_json::from_str(&text.text)
            .unwrap_or_else(|e| panic!("{name}: the error text is not JSON ({e}): {}", text.text));
        assert_no_nulls(&envelope);
        let envelope: ErrorEnvelope = serde_json::from_value(envelope.clone())
            .unwrap_or_else(|e| panic!("{name}: not an ErrorEnvelope ({e}): {envelope:#}"));
        assert!(!envelope.success);
        assert!(!envelope.error.message.is_empty() && !envelope.error.recovery_hint.is_empty());
        envelope.error
    }

    /// For every tool of the server, one call that must succeed and one that must fail
    /// with the given code; each goes through [`call`](Self::call), so a strict client
    /// would accept both. Fails when a listed tool has no case, so a tool added later
    /// without one is caught. `cases`: (tool, succeeding arguments, failing arguments,
    /// the failure's code).
    pub async fn assert_every_tool_answers_success_and_error(
        &self,
        cases: &[(&str, Value, Value, ErrorCode)],
    ) {
        let mut exercised = Vec::new();
        let listed = self.tools().await;
        for (tool, succeeding, failing, code) in cases {
            let picture = listed
                .iter()
                .any(|t| t.name == *tool && t.output_schema.is_none());
            if picture {
                self.call_picture(tool, succeeding.clone()).await;
            } else {
                self.call_ok(tool, succeeding.clone()).await;
            }
            let e = self.call_err(tool, failing.clone()).await;
            assert_eq!(e.code, *code, "{tool} {failing}: {}", e.message);
            exercised.push((*tool).to_owned());
        }
        exercised.sort();
        assert_eq!(
            exercised,
            self.tool_names().await,
            "every listed tool has a case"
        );
    }

    /// Close the session and stop the server.
    pub async fn close(self) {
        let _ = self.client.cancel().await;
        if let Some(server) = self.server {
            server.abort();
        }
    }
}

/// Start a built server binary as an MCP client application would (no `RUST_LOG`) and
/// check it answers `initialize` with the name, version and instructions of `S`, lists
/// exactly `S::tools()`, and writes nothing to stderr: clients file a stdio server's
/// stderr under errors, so a healthy start is silent. Point `env`'s base URLs at a mock
/// or a closed port: nothing here may reach the network.
pub async fn assert_binary_speaks_mcp<S: McpServer>(program: &str, env: &[(&str, &str)]) {
    let logged = assert_binary_speaks_mcp_with_stderr::<S>(program, env).await;
    assert!(
        logged.is_empty(),
        "{program} wrote to stderr during a healthy stdio session:\n{logged}"
    );
}

/// [`assert_binary_speaks_mcp`] for a start that is expected to say something: the same
/// checks of `initialize` and `tools/list`, and what the binary wrote to stderr, for the
/// test to judge.
pub async fn assert_binary_speaks_mcp_with_stderr<S: McpServer>(
    program: &str,
    env: &[(&str, &str)],
) -> String {
    use tokio::io::AsyncReadExt as _;
    let mut command = binary_command(program);
    command.env_remove("RUST_LOG");
    for (key, value) in env {
        command.env(key, value);
    }
    let (transport, stderr) = rmcp::transport::TokioChildProcess::builder(command)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
    let listener = LogListener::default();
    let client = McpTestClient {
        client: listener
            .clone()
            .serve(transport)
            .await
            .expect("MCP handshake with the binary"),
        listener,
        listed: tokio::sync::OnceCell::new(),
        server: None,
    };
    let info = client.peer().peer_info().expect("initialize result");
    let server = info.server_info.as_ref().expect("server info");
    assert_eq!(server.name, S::NAME);
    assert_eq!(server.version, S::VERSION);
    assert_eq!(info.instructions.as_deref(), Some(S::INSTRUCTIONS));
    let listed: Vec<_> = client.tools().await.into_iter().map(|t| t.name).collect();
    let defined: Vec<_> = crate::server::tools::<S>()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(listed, defined);
    client.close().await;
    let mut logged = String::new();
    if let Some(mut stderr) = stderr {
        let read = stderr.read_to_string(&mut logged);
        let _ = tokio::time::timeout(Duration::from_secs(5), read).await;
    }
    logged
}

/// Run `<program> check` with `env` and return its exit code and what it printed on
/// stdout. Point every upstream variable at a mock: nothing here may reach the network.
pub async fn run_check(program: &str, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut command = binary_command(program);
    command.arg("check").env("RUST_LOG", "error");
    for (key, value) in env {
        command.env(key, value);
    }
    let output = tokio::time::timeout(Duration::from_secs(30), command.output())
        .await
        .unwrap_or_else(|_| panic!("{program} check did not end within 30 s"))
        .unwrap_or_else(|e| panic!("cannot run {program} check: {e}"));
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// A built server binary started in stdio mode, as an MCP client application starts
/// it, with the MCP handshake done: the child, its stdin (held open, as a client does)
/// and the lines of its stdout.
#[cfg(unix)]
async fn spawn_initialized(
    program: &str,
    env: &[(&str, &str)],
) -> (
    tokio::process::Child,
    tokio::process::ChildStdin,
    tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let mut command = binary_command(program);
    command
        .env("RUST_LOG", "error")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true);
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    for line in [initialize, initialized] {
        stdin.write_all(line.as_bytes()).await.expect("write");
        stdin.write_all(b"\n").await.expect("write");
    }
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let answer = tokio::time::timeout(Duration::from_secs(5), lines.next_line())
        .await
        .expect("initialize answered")
        .expect("read")
        .expect("a line");
    assert!(answer.contains("\"id\":1"), "{answer}");
    (child, stdin, lines)
}

/// Send SIGTERM to `child`.
#[cfg(unix)]
fn sigterm(child: &tokio::process::Child) {
    let pid = child.id().expect("pid").to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status();
    assert!(killed.is_ok_and(|s| s.success()), "kill -TERM {pid}");
}

/// Start a built server binary in stdio mode, complete the MCP handshake, send it SIGTERM
/// while its client still holds stdin open, and check it exits within 3 seconds.
#[cfg(unix)]
pub async fn assert_stops_on_sigterm(program: &str, env: &[(&str, &str)]) {
    let (mut child, stdin, _lines) = spawn_initialized(program, env).await;
    sigterm(&child);
    let exited = tokio::time::timeout(Duration::from_secs(3), child.wait()).await;
    assert!(
        exited.is_ok(),
        "{program} still running 3 s after SIGTERM with stdin open"
    );
    drop(stdin);
}

/// Start a built server binary in stdio mode, call `tool` with `arguments`, whose request
/// to `upstream` must hang (the test's mock delays its answer past the test), and send
/// the server SIGTERM once `upstream` has received that request, while the client still
/// holds stdin open. Checks that the call is answered once, when the shutdown's grace
/// period ([`SHUTDOWN_GRACE`](crate::serve::SHUTDOWN_GRACE)) ends and not before, with
/// the error result of a call the shutdown stopped (`isError`, the envelope of
/// [`ApiError::ShuttingDown`](crate::ApiError::ShuttingDown) as its only text), that
/// nothing follows it on stdout, and that the process exits within 3 seconds of it.
/// Returns how long after SIGTERM the answer came.
#[cfg(unix)]
pub async fn assert_sigterm_answers_the_call_in_flight(
    program: &str,
    env: &[(&str, &str)],
    tool: &str,
    arguments: Value,
    upstream: &wiremock::MockServer,
) -> Duration {
    use tokio::io::AsyncWriteExt;
    let (mut child, mut stdin, mut lines) = spawn_initialized(program, env).await;
    let call = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}});
    stdin
        .write_all(format!("{call}\n").as_bytes())
        .await
        .expect("write");
    tokio::time::timeout(Duration::from_secs(5), async {
        while upstream
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the call reached the upstream");

    let signalled = std::time::Instant::now();
    sigterm(&child);
    let grace = crate::serve::SHUTDOWN_GRACE;
    let mut written = Vec::new();
    let read_all = async {
        while let Some(line) = lines.next_line().await.expect("read") {
            written.push((line, signalled.elapsed()));
        }
    };
    tokio::time::timeout(grace + Duration::from_secs(5), read_all)
        .await
        .unwrap_or_else(|_| panic!("{program} kept stdout open 5 s past the grace period"));
    let exited = tokio::time::timeout(Duration::from_secs(3), child.wait()).await;
    assert!(
        exited.is_ok(),
        "{program} still running 3 s after closing stdout"
    );
    drop(stdin);

    let [(line, answered_after)] = written.as_slice() else {
        panic!("one line expected after SIGTERM, the call's answer: {written:?}");
    };
    let answer: Value = serde_json::from_str(line).expect("a JSON-RPC message");
    assert_eq!(answer["id"], 2, "{answer}");
    let result = &answer["result"];
    assert_eq!(result["isError"], true, "{answer}");
    assert!(result.get("structuredContent").is_none(), "{answer}");
    let content = result["content"].as_array().expect("content");
    assert_eq!(content.len(), 1, "{answer}");
    let envelope: ErrorEnvelope =
        serde_json::from_str(content[0]["text"].as_str().expect("text")).expect("an envelope");
    assert_eq!(envelope, crate::ApiError::ShuttingDown.to_envelope());
    assert!(
        *answered_after >= grace,
        "answered {answered_after:?} after SIGTERM, before the grace period ended"
    );
    *answered_after
}

fn assert_text_mirrors(result: &CallToolResult, structured: &Value) {
    let text = result
        .content
        .iter()
        .find_map(|c| c.as_text().map(|t| t.text.clone()))
        .expect("a text content block");
    let parsed: Value = serde_json::from_str(&text).expect("text content is JSON");
    assert_eq!(
        &parsed, structured,
        "text content mirrors structured content"
    );
}

/// A command starting `program` as the tests start server binaries: with no shared store
/// (`LIFESCIENCES_CACHE_DIR=off`), so one test's answers never reach another test, nor the
/// cache folder of whoever runs the tests. A test that wants the store sets the folder.
pub(crate) fn binary_command(program: &str) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(program);
    command.env(crate::config::ENV_CACHE_DIR, "off");
    // A test that leaves the folder unset (as a placeholder, say) gets the default one
    // under this, not under the home folder of whoever runs the tests.
    command.env(
        "XDG_CACHE_HOME",
        std::env::temp_dir().join("lifesciences-mcp-tests-cache"),
    );
    command.env_remove(crate::config::ENV_REDIS_URL);
    command.env_remove(crate::config::ENV_OFFLINE);
    command
}
