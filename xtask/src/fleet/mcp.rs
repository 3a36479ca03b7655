//! The fleet's MCP clients, both answering [`Caller::call`] with how the call ended and
//! how long it took:
//!
//! - over Streamable HTTP, a plain client of its own: HTTP/1.1 on a fresh loopback
//!   connection per request (`Connection: close`), the session's id in a header, the
//!   answer read as JSON or from an SSE stream, no schema checks. Plain on purpose: what
//!   is timed is the replica, not a client library; and xtask builds no HTTP client
//!   (only core does);
//! - over stdio, rmcp's client on a child process, as the bench drives servers.

use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use rmcp::model::CallToolRequestParams;
use rmcp::service::{Peer, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt as _};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// How long one call may take before it counts as failed.
pub(crate) const CALL_TIMEOUT: Duration = Duration::from_secs(120);
/// The protocol version the HTTP client asks for.
const PROTOCOL_VERSION: &str = "2025-11-25";

/// How one call ended.
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    pub took: Duration,
    /// The error result's text, or what went wrong on the way.
    pub error: Option<String>,
}

/// Something to send tool calls to: a replica's HTTP session or a stdio process.
#[derive(Clone)]
pub(crate) enum Caller {
    Http(Arc<HttpSession>),
    Stdio(Peer<RoleClient>),
}

impl Caller {
    /// Call `tool` with `arguments`, within [`CALL_TIMEOUT`].
    pub(crate) async fn call(&self, tool: &str, arguments: Map<String, Value>) -> Outcome {
        let started = Instant::now();
        let ended = tokio::time::timeout(CALL_TIMEOUT, async {
            match self {
                Self::Http(session) => session.call(tool, arguments).await,
                Self::Stdio(peer) => {
                    let request =
                        CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
                    match peer.call_tool(request).await {
                        Ok(result) if result.is_error == Some(true) => Err(anyhow::anyhow!(
                            "{}",
                            result
                                .content
                                .iter()
                                .find_map(|c| c.as_text().map(|t| t.text.clone()))
                                .unwrap_or_else(|| "an error result without text".to_owned())
                        )),
                        Ok(_) => Ok(()),
                        Err(e) => Err(anyhow::anyhow!("protocol error: {e}")),
                    }
                }
            }
        })
        .await;
        let error = match ended {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(format!("{e:#}")),
            Err(_) => Some(format!("no answer within {CALL_TIMEOUT:?}")),
        };
        Outcome {
            took: started.elapsed(),
            error,
        }
    }
}

/// One MCP session with a replica over Streamable HTTP (or none, when the replica is
/// stateless and sends no session id).
pub(crate) struct HttpSession {
    addr: SocketAddr,
    /// Sent as `Authorization: Bearer …` on every request, when the replica checks one.
    token: Option<String>,
    session: Option<String>,
    protocol: String,
    next_id: AtomicU64,
}

impl HttpSession {
    /// `initialize`, then `notifications/initialized`, presenting `token` (when the
    /// replica checks one) on every request.
    pub(crate) async fn open_as(addr: SocketAddr, token: Option<&str>) -> anyhow::Result<Self> {
        let initialize = json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "cargo-xtask-fleet", "version": "0"}
            }
        });
        let answer = exchange(
            addr,
            &post(addr, token, None, PROTOCOL_VERSION, &initialize),
            Some(0),
        )
        .await?;
        if answer.status != 200 {
            bail!(
                "initialize at {addr} was answered {}: {}",
                answer.status,
                String::from_utf8_lossy(&answer.body)
            );
        }
        let session = answer.header("mcp-session-id").map(str::to_owned);
        let message = answer.message(0)?;
        let protocol = message["result"]["protocolVersion"]
            .as_str()
            .unwrap_or(PROTOCOL_VERSION)
            .to_owned();
        let this = Self {
            addr,
            token: token.map(str::to_owned),
            session,
            protocol,
            next_id: AtomicU64::new(1),
        };
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let answer = exchange(
            addr,
            &post(
                addr,
                this.token.as_deref(),
                this.session.as_deref(),
                &this.protocol,
                &initialized,
            ),
            None,
        )
        .await?;
        if !(200..300).contains(&answer.status) {
            bail!(
                "notifications/initialized at {addr} was answered {}",
                answer.status
            );
        }
        Ok(this)
    }

    /// One `tools/call`: `Ok` for a success, the error result's text otherwise.
    async fn call(&self, tool: &str, arguments: Map<String, Value>) -> anyhow::Result<()> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let request = json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}
        });
        let answer = exchange(
            self.addr,
            &post(
                self.addr,
                self.token.as_deref(),
                self.session.as_deref(),
                &self.protocol,
                &request,
            ),
            Some(id),
        )
        .await?;
        if answer.status != 200 {
            bail!(
                "HTTP {}: {}",
                answer.status,
                String::from_utf8_lossy(&answer.body)
            );
        }
        let message = answer.message(id)?;
        if let Some(error) = message.get("error") {
            bail!("JSON-RPC error: {error}");
        }
        let result = &message["result"];
        if result["isError"] == Value::Bool(true) {
            bail!(
                "{}",
                result["content"][0]["text"]
                    .as_str()
                    .unwrap_or("an error result without text")
            );
        }
        Ok(())
    }
}

/// The replica's `GET /health` answer.
pub(crate) async fn health(addr: SocketAddr) -> anyhow::Result<Value> {
    let request = format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let answer = exchange(addr, &request, None).await?;
    if answer.status != 200 {
        bail!("/health answered {}", answer.status);
    }
    serde_json::from_slice(&answer.body).context("/health is not JSON")
}

/// A POST of one JSON-RPC message to `/mcp`.
fn post(
    addr: SocketAddr,
    token: Option<&str>,
    session: Option<&str>,
    protocol: &str,
    message: &Value,
) -> String {
    let body = message.to_string();
    let mut session = session
        .map(|id| format!("Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: {protocol}\r\n"))
        .unwrap_or_default();
    if let Some(token) = token {
        session.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\n{session}Content-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
}

/// An HTTP answer: status, headers (names in lower case), body (de-chunked).
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC message answering `id`: the body itself, or one event of an SSE
    /// stream.
    fn message(&self, id: u64) -> anyhow::Result<Value> {
        let text = String::from_utf8_lossy(&self.body);
        let is_stream = self
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/event-stream"));
        if !is_stream {
            return serde_json::from_str(&text)
                .with_context(|| format!("the answer is not JSON: {text}"));
        }
        sse_message(&text, id).with_context(|| format!("no answer to request {id} in: {text}"))
    }
}

/// The message answering `id` among the `data:` events of an SSE stream.
fn sse_message(stream: &str, id: u64) -> Option<Value> {
    let stream = stream.replace("\r\n", "\n");
    stream.split("\n\n").find_map(|event| {
        let data: Vec<&str> = event
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(|d| d.strip_prefix(' ').unwrap_or(d))
            .collect();
        let message: Value = serde_json::from_str(&data.join("\n")).ok()?;
        (message["id"] == json!(id)).then_some(message)
    })
}

/// Send `request` on a new connection and read the answer until it is complete: its
/// length reached, its last chunk, the answer to request `expect` in a stream, or the
/// server's close.
async fn exchange(addr: SocketAddr, request: &str, expect: Option<u64>) -> anyhow::Result<Answer> {
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .with_context(|| format!("cannot connect to {addr}"))?;
    stream.write_all(request.as_bytes()).await?;
    let mut raw = Vec::with_capacity(8192);
    let mut buffer = [0_u8; 16384];
    loop {
        let read = stream.read(&mut buffer).await?;
        if read == 0 {
            return parse(&raw, true, expect)?.context("the connection closed mid-answer");
        }
        raw.extend_from_slice(&buffer[..read]);
        if let Some(answer) = parse(&raw, false, expect)? {
            return Ok(answer);
        }
    }
}

/// The answer in `raw`, once complete (or whatever came, when the connection `closed`);
/// a stream is complete once it holds the answer to request `expect`.
fn parse(raw: &[u8], closed: bool, expect: Option<u64>) -> anyhow::Result<Option<Answer>> {
    let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
        return Ok(None);
    };
    let head = String::from_utf8_lossy(&raw[..end]);
    let mut lines = head.lines();
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .with_context(|| format!("not an HTTP status line: {status_line:?}"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let rest = &raw[end + 4..];
    let find = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let chunked = find("transfer-encoding").is_some_and(|v| v.contains("chunked"));
    let stream = find("content-type").is_some_and(|t| t.starts_with("text/event-stream"));
    let body = if chunked {
        let (body, complete) = dechunk(rest);
        // A stream may stay open after the answer: it is complete once the answer came.
        let answered = stream
            && expect.is_some_and(|id| sse_message(&String::from_utf8_lossy(&body), id).is_some());
        if complete || answered {
            body
        } else if closed {
            bail!("the chunked answer was cut short");
        } else {
            return Ok(None);
        }
    } else if let Some(length) = find("content-length").and_then(|v| v.parse::<usize>().ok()) {
        if rest.len() < length {
            if closed {
                bail!("the answer was cut short");
            }
            return Ok(None);
        }
        rest[..length].to_vec()
    } else if closed {
        rest.to_vec()
    } else {
        return Ok(None);
    };
    Ok(Some(Answer {
        status,
        headers,
        body,
    }))
}

/// The whole chunks of a chunked body so far, and whether its last (empty) chunk came.
fn dechunk(mut raw: &[u8]) -> (Vec<u8>, bool) {
    let mut body = Vec::new();
    loop {
        let Some(line_end) = raw.windows(2).position(|w| w == b"\r\n") else {
            return (body, false);
        };
        let size_text = String::from_utf8_lossy(&raw[..line_end]);
        let size = size_text.split(';').next().unwrap_or_default().trim();
        let Ok(size) = usize::from_str_radix(size, 16) else {
            return (body, false);
        };
        raw = &raw[line_end + 2..];
        if size == 0 {
            return (body, true);
        }
        if raw.len() < size + 2 {
            return (body, false);
        }
        body.extend_from_slice(&raw[..size]);
        raw = &raw[size + 2..];
    }
}

/// One server process over stdio, started as an MCP client launches it; killed when
/// dropped without [`stop`](Self::stop) (an error, Ctrl-C), there and then: rmcp's own
/// clean-up needs a runtime that may be gone by then.
pub(crate) struct StdioServer {
    service: Option<RunningService<RoleClient, ()>>,
    peer: Peer<RoleClient>,
    pid: Option<u32>,
}

impl StdioServer {
    /// Start `program args…` with `env` on top of the inherited environment less
    /// `remove`, its stderr appended to `log`, and complete `initialize`.
    pub(crate) async fn start(
        program: &Path,
        args: &[String],
        env: &[(String, String)],
        remove: &[&str],
        log: &Path,
    ) -> anyhow::Result<Self> {
        let mut command = tokio::process::Command::new(program);
        command.args(args).env("RUST_LOG", "warn");
        for key in remove {
            command.env_remove(key);
        }
        for (key, value) in env {
            command.env(key, value);
        }
        let stderr = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .with_context(|| format!("cannot open {}", log.display()))?;
        let (transport, _) = TokioChildProcess::builder(command)
            .stderr(Stdio::from(stderr))
            .spawn()
            .with_context(|| format!("cannot start {}", program.display()))?;
        let pid = transport.id();
        let service = tokio::time::timeout(Duration::from_secs(30), ().serve(transport))
            .await
            .context("no initialize result within 30 s")?
            .context("the MCP handshake failed")?;
        Ok(Self {
            peer: service.peer().clone(),
            service: Some(service),
            pid,
        })
    }

    pub(crate) fn caller(&self) -> Caller {
        Caller::Stdio(self.peer.clone())
    }

    /// End the session as a client does (stdin closed; the server exits).
    pub(crate) async fn stop(mut self) {
        if let Some(service) = self.service.take() {
            let _ = service.cancel().await;
        }
        self.pid = None;
    }

    /// End the process at once (SIGKILL), as a crash or an OOM kill would.
    pub(crate) async fn kill(mut self) -> anyhow::Result<()> {
        let Some(pid) = self.pid.take() else {
            bail!("the process has no id: it has exited");
        };
        sigkill(pid)?;
        if let Some(service) = self.service.take() {
            let _ = service.cancel().await;
        }
        Ok(())
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        if let Some(pid) = self.pid.take() {
            let _ = sigkill(pid);
        }
    }
}

/// `kill -KILL pid`: a process this run started, by its id.
fn sigkill(pid: u32) -> anyhow::Result<()> {
    let status = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .stderr(Stdio::null())
        .status()
        .context("cannot run kill")?;
    if !status.success() {
        bail!("kill -KILL {pid} failed ({status})");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_answers_are_read_once_complete() {
        assert_eq!(dechunk(b"5\r\nhello\r\n"), (b"hello".to_vec(), false));
        assert_eq!(
            dechunk(b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"),
            (b"hello world".to_vec(), true)
        );
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\
                    Content-Type: text/event-stream\r\n\r\n2\r\nab\r\n";
        assert!(parse(raw, false, Some(1)).unwrap().is_none());
        assert!(parse(raw, true, Some(1)).is_err());
    }

    #[test]
    fn an_open_stream_is_complete_once_it_holds_the_answer() {
        let event = "data: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n\n";
        let raw = format!(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\
             Content-Type: text/event-stream\r\n\r\n{:x}\r\n{event}\r\n",
            event.len()
        );
        assert!(parse(raw.as_bytes(), false, Some(2)).unwrap().is_none());
        let answer = parse(raw.as_bytes(), false, Some(3)).unwrap().unwrap();
        assert_eq!(answer.message(3).unwrap()["id"], 3);
    }

    #[test]
    fn the_answer_to_a_request_is_found_in_an_event_stream() {
        let stream = "id: 0\nretry: 3000\ndata:\n\n\
                      data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\n\
                      data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"ok\":true}}\n\n";
        assert_eq!(
            sse_message(stream, 7).unwrap()["result"]["ok"],
            Value::Bool(true)
        );
        assert!(sse_message(stream, 8).is_none());
    }

    #[test]
    fn a_json_answer_with_a_length_is_complete_at_its_length() {
        let raw = b"HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\
                    content-type: application/json\r\nMcp-Session-Id: abc\r\n\r\n{\"id\":1,\"x\"";
        assert!(parse(raw, false, Some(1)).unwrap().is_none());
        let raw = b"HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\
                    content-type: application/json\r\nMcp-Session-Id: abc\r\n\r\n{\"id\":1}";
        let answer = parse(raw, false, Some(1)).unwrap().unwrap();
        assert_eq!(answer.header("mcp-session-id"), Some("abc"));
        assert_eq!(answer.message(1).unwrap()["id"], 1);
    }
}
