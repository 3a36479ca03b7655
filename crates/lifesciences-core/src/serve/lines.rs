//! The stdio line guard. rmcp 3.9's stdio transport drops a line it cannot decode with
//! only a log line, so its sender waits for an answer that never comes: JSON nested too
//! deeply, a lone surrogate escape, invalid UTF-8, a line over the size cap. The guard
//! sits between the process's stdin/stdout and rmcp: it reads each line itself, answers
//! a line that is not a JSON-RPC message with a JSON-RPC error (`-32700` or `-32600`, with
//! the request's `id` when it can be read), refuses `tools/call` arguments that are not
//! an object (`-32602`), a request other than `ping` before `initialize`, and a request
//! whose `id` is already in flight (`-32600`: each request gets its own answer), and
//! passes every other line to rmcp unchanged. Both write whole lines to one stdout, in
//! turn; once rmcp's writer closes, the guard says when its last line is out, so a
//! process that stops can wait for its last answers.

use std::collections::HashSet;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::{mpsc, oneshot};

/// The longest line read; a longer one is answered `-32700` and skipped.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// Guard the stdio of an MCP server: returns the reader and writer to give rmcp in place
/// of `input` and `output`, and a future that resolves once rmcp's writer has closed and
/// everything it wrote is written to `output` (or `output` broke): what a process that
/// ends must wait for. The guard's tasks end when `input` ends.
pub fn guard<R, W>(
    input: R,
    output: W,
) -> (
    impl AsyncRead + Send + Unpin + 'static,
    impl AsyncWrite + Send + Unpin + 'static,
    impl Future<Output = ()> + Send + 'static,
)
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let (to_rmcp, rmcp_reads) = tokio::io::duplex(1 << 20);
    let (rmcp_writes, from_rmcp) = tokio::io::duplex(1 << 20);
    let (lines_out, lines) = mpsc::channel::<Out>(64);
    let (written, all_written) = oneshot::channel();
    tokio::spawn(write_lines(lines, output, written));
    let answers = lines_out.clone();
    let in_flight = InFlightIds::default();
    let answered = in_flight.clone();
    tokio::spawn(async move {
        let mut rmcp_lines = BufReader::new(from_rmcp).split(b'\n');
        while let Ok(Some(line)) = rmcp_lines.next_segment().await {
            answered.answered(&line);
            if lines_out.send(Out::Line(line)).await.is_err() {
                return;
            }
        }
        let _ = lines_out.send(Out::RmcpClosed).await;
    });
    tokio::spawn(read_lines(input, to_rmcp, answers, in_flight));
    let all_written = async move {
        // An error means the writer is gone (`output` broke): nothing more can be written.
        let _ = all_written.await;
    };
    (rmcp_reads, rmcp_writes, all_written)
}

/// What goes to `output`, in order.
enum Out {
    /// A whole line, without its `\n`.
    Line(Vec<u8>),
    /// rmcp closed its writer: every line of its is before this.
    RmcpClosed,
}

/// The ids of the requests passed to rmcp and not answered yet (over HTTP, each prefixed
/// with its session).
#[derive(Debug, Clone, Default)]
pub(crate) struct InFlightIds(Arc<Mutex<HashSet<String>>>);

impl InFlightIds {
    /// Record `id`; false when it is already in flight.
    fn start(&self, id: &Value) -> bool {
        self.start_key(id.to_string())
    }

    fn start_key(&self, key: String) -> bool {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key)
    }

    fn finish(&self, id: &Value) {
        self.finish_key(&id.to_string());
    }

    fn finish_key(&self, key: &str) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(key);
    }

    /// Record `id` of `session` for as long as the returned guard lives; `None` when it is
    /// already in flight.
    pub(crate) fn hold(&self, session: &str, id: &Value) -> Option<HeldId> {
        let key = format!("{session} {id}");
        self.start_key(key.clone()).then(|| HeldId {
            ids: self.clone(),
            key,
        })
    }

    /// rmcp wrote `line`: if it answers a request, that id is free again.
    fn answered(&self, line: &[u8]) {
        let Ok(message) = serde_json::from_slice::<Value>(line) else {
            return;
        };
        if message.get("method").is_none()
            && let Some(id) = message.get("id")
        {
            self.finish(id);
        }
    }
}

/// An id in flight until this is dropped.
#[derive(Debug)]
pub(crate) struct HeldId {
    ids: InFlightIds,
    key: String,
}

impl Drop for HeldId {
    fn drop(&mut self) {
        self.ids.finish_key(&self.key);
    }
}

async fn write_lines<W: AsyncWrite + Unpin>(
    mut lines: mpsc::Receiver<Out>,
    mut output: W,
    written: oneshot::Sender<()>,
) {
    let mut written = Some(written);
    while let Some(out) = lines.recv().await {
        match out {
            Out::Line(mut line) => {
                line.push(b'\n');
                if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                    break;
                }
            }
            Out::RmcpClosed => {
                if let Some(written) = written.take() {
                    let _ = written.send(());
                }
            }
        }
    }
}

async fn read_lines<R, W>(
    input: R,
    mut to_rmcp: W,
    answers: mpsc::Sender<Out>,
    in_flight: InFlightIds,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    let mut initialized = false;
    loop {
        let line = match read_line(&mut input).await {
            Ok(Some(line)) => line,
            Ok(None) | Err(_) => break,
        };
        let verdict = match line {
            Line::TooLong => Some(error(
                Value::Null,
                -32700,
                "Parse error: the line is longer than 16 MiB.",
            )),
            Line::Bytes(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => None,
            Line::Bytes(bytes) => match parse(&bytes).and_then(|message| {
                check(&message, false)?;
                session_rules(&message, &mut initialized, &in_flight)
            }) {
                Ok(()) => {
                    let mut bytes = bytes;
                    bytes.push(b'\n');
                    if to_rmcp.write_all(&bytes).await.is_err() {
                        break;
                    }
                    None
                }
                Err(answer) => Some(answer),
            },
        };
        if let Some(answer) = verdict
            && answers
                .send(Out::Line(answer.to_string().into_bytes()))
                .await
                .is_err()
        {
            break;
        }
    }
    // End of input: rmcp sees its stdin close and ends the session.
    let _ = to_rmcp.shutdown().await;
}

enum Line {
    Bytes(Vec<u8>),
    TooLong,
}

/// One line without its `\n`, at most [`MAX_LINE_BYTES`]; the rest of a longer one is
/// read and dropped. `None` at the end of input.
async fn read_line<R: AsyncRead + Unpin>(
    input: &mut BufReader<R>,
) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            return Ok((!line.is_empty() || too_long).then(|| {
                if too_long {
                    Line::TooLong
                } else {
                    Line::Bytes(std::mem::take(&mut line))
                }
            }));
        }
        let (chunk, used, done) = match available.iter().position(|b| *b == b'\n') {
            Some(end) => (&available[..end], end + 1, true),
            None => (available, available.len(), false),
        };
        if !too_long {
            if line.len() + chunk.len() > MAX_LINE_BYTES {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        input.consume(used);
        if done {
            return Ok(Some(if too_long {
                Line::TooLong
            } else {
                Line::Bytes(line)
            }));
        }
    }
}

/// The JSON of one message; else the `-32700` error to answer it with (with the `id`
/// when it can be found in the text).
pub(crate) fn parse(bytes: &[u8]) -> Result<Value, Value> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(error(
            Value::Null,
            -32700,
            "Parse error: the message is not UTF-8.",
        ));
    };
    serde_json::from_str(text).map_err(|_| {
        error(
            recover_id(text),
            -32700,
            "Parse error: the message is not valid JSON (or is nested too deeply).",
        )
    })
}

/// `Ok` for a message rmcp can take; else the JSON-RPC error to answer it with. A
/// message that is not a JSON-RPC 2.0 object is refused (`-32600`) when it has an `id`,
/// or always when `strict` (over HTTP, where every POST gets an answer); `tools/call`
/// arguments that are not an object are `-32602`.
pub(crate) fn check(message: &Value, strict: bool) -> Result<(), Value> {
    let id = id_of(message);
    if !message.is_object() || message.get("jsonrpc") != Some(&Value::from("2.0")) {
        // Over stdio, a response or notification that is not JSON-RPC 2.0 gets no answer.
        return if id.is_null() && !strict {
            Ok(())
        } else {
            Err(error(
                id,
                -32600,
                "Invalid Request: the message must be one JSON-RPC 2.0 object.",
            ))
        };
    }
    if message.get("method") == Some(&Value::from("tools/call"))
        && !id.is_null()
        && message
            .pointer("/params/arguments")
            .is_some_and(|arguments| !arguments.is_object() && !arguments.is_null())
    {
        return Err(error(
            id,
            -32602,
            "Invalid params: `arguments` must be an object of the tool's arguments.",
        ));
    }
    Ok(())
}

/// A message's `id` when it is one (a number or a string); else null.
fn id_of(message: &Value) -> Value {
    message
        .get("id")
        .filter(|id| id.is_string() || id.is_number())
        .cloned()
        .unwrap_or(Value::Null)
}

/// What a session allows: only `ping` before `initialize`, and one request per `id` at a
/// time. `message` already passed [`check`].
fn session_rules(
    message: &Value,
    initialized: &mut bool,
    in_flight: &InFlightIds,
) -> Result<(), Value> {
    // A cancelled request gets no answer (its client no longer waits): its id is free.
    if message.get("method") == Some(&Value::from("notifications/cancelled"))
        && let Some(id) = message.pointer("/params/requestId")
    {
        in_flight.finish(id);
        return Ok(());
    }
    let (Some(id), Some(method)) = (
        message.get("id"),
        message.get("method").and_then(Value::as_str),
    ) else {
        return Ok(());
    };
    if method == "initialize" {
        *initialized = true;
    } else if !*initialized && method != "ping" {
        return Err(error(
            id.clone(),
            -32600,
            "Invalid Request: send initialize first (only ping may come before it).",
        ));
    }
    if !in_flight.start(id) {
        return Err(duplicate_id(id));
    }
    Ok(())
}

/// The answer to a request whose id is still in flight.
pub(crate) fn duplicate_id(id: &Value) -> Value {
    error(
        id.clone(),
        -32600,
        "Invalid Request: a request with this id is still in flight; give each request its own id.",
    )
}

/// The `id` of a line that does not parse, when a top-level-looking `"id": <number or
/// string>` can be found in it; else null.
fn recover_id(text: &str) -> Value {
    static ID: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"[^"\\]*")"#,
        )
        .ok()
    });
    ID.as_ref()
        .and_then(|id| id.captures(text))
        .and_then(|found| serde_json::from_str(&found[1]).ok())
        .unwrap_or(Value::Null)
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a stopping process waits for: rmcp's last line on the output, not merely
    /// handed to the guard.
    #[tokio::test]
    async fn written_resolves_once_rmcps_last_line_is_on_the_output() {
        use tokio::io::AsyncReadExt as _;
        let (_client_writes, input) = tokio::io::duplex(64);
        // A small pipe the test reads late: the line waits in the guard until then.
        let (output, mut client_reads) = tokio::io::duplex(8);
        let (_rmcp_reads, mut rmcp_writes, written) = guard(input, output);
        let line = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        rmcp_writes.write_all(line).await.unwrap();
        rmcp_writes.write_all(b"\n").await.unwrap();
        drop(rmcp_writes);
        let mut written = std::pin::pin!(written);
        assert!(
            tokio::time::timeout(std::time::Duration::from_millis(200), &mut written)
                .await
                .is_err(),
            "resolved before the line was written"
        );
        let mut out = vec![0; line.len() + 1];
        client_reads.read_exact(&mut out).await.unwrap();
        assert_eq!(&out[..line.len()], line);
        tokio::time::timeout(std::time::Duration::from_secs(1), written)
            .await
            .expect("resolved once the line was written");
    }

    #[test]
    fn lines_rmcp_cannot_take_get_the_error_they_deserve() {
        let code = |line: &[u8]| {
            parse(line)
                .and_then(|message| check(&message, false))
                .err()
                .map(|e| e["error"]["code"].clone())
        };
        assert_eq!(code(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), None);
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(code(deep.as_bytes()), Some(json!(-32700)));
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":1,"method":"x","params":"\ud800"}"#),
            Some(json!(-32700))
        );
        assert_eq!(code(b"\xff\xfe"), Some(json!(-32700)));
        let arguments = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":[1]}}"#;
        let answer = check(&parse(arguments).unwrap(), false).unwrap_err();
        assert_eq!(answer["error"]["code"], -32602);
        assert_eq!(answer["id"], 7);
        assert_eq!(
            code(br#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#),
            Some(json!(-32600))
        );
    }
}
