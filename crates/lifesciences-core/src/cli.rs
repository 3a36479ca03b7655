//! The command line every server binary shares:
//!
//! ```text
//! <bin>                              serve MCP over stdio (what MCP clients launch)
//! <bin> serve [--http ADDR]          stdio, or Streamable HTTP at http://ADDR/mcp (+ GET /health)
//!       [--stateless]                HTTP without sessions, for replicas behind a load balancer
//!       [--auth-issuer URL --public-url URL] [--auth-tokens-file FILE]
//!                                    HTTP: who may call (an issuer's access tokens, static tokens)
//! <bin> tools [--json]               list the tools
//! <bin> call TOOL [JSON | k=v ...]   call one tool once, print its result as JSON
//!       [--format tsv|csv]           or the whole list it answers, as a table
//! <bin> check                        probe every upstream the server uses
//! <bin> --help | --version
//! ```
//!
//! `call` exits 0 on success, 1 when the tool returned an error envelope (printed; on
//! stderr with `--format tsv|csv`), 2 on a usage error; `check` exits 0 when every upstream answered, 1 otherwise. A server's
//! `main.rs` is one line: `lifesciences_core::cli::main::<Server>()`.
//!
//! Every command reads the environment through one [`Env`] (the log filter too): a
//! variable left as an unexpanded placeholder (`${user_config.…}`) counts as unset, and
//! one warning line on stderr names every such variable.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use std::str::FromStr as _;

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};

use crate::client::Env;
use crate::config;
use crate::http::Probe;
use crate::serve::{self, HttpOptions};
use crate::server::{self as shape, McpServer};
use crate::version;

mod call;

pub use call::result_json;

/// Exit code: the tool returned an error envelope.
pub const EXIT_TOOL_ERROR: u8 = 1;
/// Exit code: the command line was wrong (unknown tool, bad arguments, bad configuration).
pub const EXIT_USAGE: u8 = 2;

#[derive(Debug, Parser)]
#[command(disable_help_subcommand = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Serve only these toolsets, comma-separated (or LIFESCIENCES_TOOLSETS).
    #[arg(long, global = true, value_name = "LIST")]
    toolsets: Option<String>,
}

/// The variable `--toolsets` stands for.
pub const TOOLSETS_VAR: &str = "LIFESCIENCES_TOOLSETS";

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve MCP over stdio (the default), or over Streamable HTTP with --http.
    Serve {
        /// Serve Streamable HTTP on HOST:PORT (MCP at /mcp, liveness at /health), e.g.
        /// 127.0.0.1:8000 or localhost:8000.
        #[arg(long, value_name = "HOST:PORT", value_parser = listen_address)]
        http: Option<String>,
        /// Also accept this Host header, and browser pages from it (repeatable; also
        /// LIFESCIENCES_ALLOW_HOSTS, comma-separated, which adds to these). Loopback names
        /// are always accepted; others are refused to prevent DNS rebinding.
        #[arg(long = "allow-host", value_name = "HOST", requires = "http")]
        allow_host: Vec<String>,
        /// Serve HTTP without sessions: every request is answered on its own, so any
        /// replica behind a load balancer can answer it (or LIFESCIENCES_STATELESS=1).
        #[arg(long, requires = "http",
              conflicts_with_all = ["session_idle_secs", "session_hibernate_secs", "max_sessions"])]
        stateless: bool,
        /// Close an HTTP session after this many seconds without a request (its client
        /// initializes again).
        #[arg(long, value_name = "SECONDS", default_value_t = 1800, requires = "http",
              value_parser = clap::value_parser!(u64).range(1..=86_400))]
        session_idle_secs: u64,
        /// Release an idle HTTP session's memory after this many seconds without a request
        /// in flight or a stream open; its next request restores it, unseen by the client.
        #[arg(long, value_name = "SECONDS", default_value_t = 60, requires = "http",
              value_parser = clap::value_parser!(u64).range(1..=86_400))]
        session_hibernate_secs: u64,
        /// Most HTTP sessions at once; beyond it a new session takes the place of the
        /// least recently used idle one (503 with Retry-After only when all are busy).
        #[arg(long, value_name = "N", default_value_t = 1000, requires = "http",
              value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        max_sessions: u64,
        /// Accept the access tokens of this OAuth/OpenID Connect issuer, exactly as its
        /// tokens name it in `iss` (or LIFESCIENCES_AUTH_ISSUER); needs --public-url.
        #[arg(long, value_name = "URL", requires_all = ["http", "public_url"])]
        auth_issuer: Option<String>,
        /// The URL clients reach this server's MCP endpoint at, which the issuer's tokens
        /// must name as their audience (or LIFESCIENCES_PUBLIC_URL).
        #[arg(long, value_name = "URL", requires = "http")]
        public_url: Option<String>,
        /// Accept the static tokens this file lists by their SHA-256 (or
        /// LIFESCIENCES_AUTH_TOKENS_FILE); re-read when it changes.
        #[arg(long, value_name = "FILE", requires = "http")]
        auth_tokens_file: Option<String>,
    },
    /// List the tools (name, title, one line); --json prints the full definitions.
    Tools {
        /// Print the full tool definitions as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Call one tool once and print its result as JSON.
    Call {
        /// The tool name, e.g. string_search_proteins.
        tool: String,
        /// Arguments: one JSON object ('{"query":"TP53"}') or key=value pairs
        /// (query=TP53 limit=5). Values are read as JSON when the tool's schema expects
        /// a number, boolean, list or object.
        #[arg(value_name = "JSON | KEY=VALUE")]
        args: Vec<String>,
        /// `full` prints the answer's provenance with every request in full (an answer
        /// names long requests by their digest, and only the first of many).
        #[arg(long, value_enum, default_value_t = ProvenanceForm::Brief)]
        provenance: ProvenanceForm,
        /// `tsv` or `csv` writes the whole list a list tool answers (every page, with its
        /// provenance in `#` lines) as a table instead of the JSON answer.
        #[arg(long, value_enum, default_value_t = OutputFormat::Json)]
        format: OutputFormat,
    },
    /// Check that every upstream this server uses answers: per upstream, the URL, whether
    /// it is reachable (or why not: DNS, TLS, proxy, HTTP status) and how fast. Exit 0
    /// when all are reachable, 1 otherwise.
    Check,
}

/// What `call` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// The answer as JSON.
    Json,
    /// The whole list as tab-separated values.
    Tsv,
    /// The whole list as comma-separated values.
    Csv,
}

impl OutputFormat {
    /// The table format, unless JSON.
    fn table(self) -> Option<crate::export::Format> {
        match self {
            Self::Json => None,
            Self::Tsv => Some(crate::export::Format::Tsv),
            Self::Csv => Some(crate::export::Format::Csv),
        }
    }
}

/// How `call` prints an answer's provenance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProvenanceForm {
    /// As the answer carries it (at most about 1 KB).
    Brief,
    /// The full record: every request in full.
    Full,
}

impl Command {
    /// Logs are for operators of a long-running HTTP server. A stdio server's stderr is
    /// filed under errors by MCP clients, so it says only what is wrong (warnings and
    /// errors), as do one-shot commands; RUST_LOG asks for more.
    fn default_log_filter(command: Option<&Command>) -> &'static str {
        match command {
            // rmcp logs every notification at info: keep its chatter out of the way.
            Some(Command::Serve { http: Some(_), .. }) => "info,rmcp=warn",
            _ => "warn",
        }
    }
}

/// The whole `main` of a server binary.
pub fn main<S: McpServer>() -> ExitCode {
    // Not `.lock()`: in stdio mode rmcp writes the protocol to stdout from its own task.
    let mut stdout = std::io::stdout();
    let cli = match parse::<S>(std::env::args_os(), &mut stdout) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let env = Env::process();
    init_tracing(&env, Command::default_log_filter(cli.command.as_ref()));
    // One client over stdio, and the one-shot commands, wait on the network: one thread
    // serves them (fewer threads and allocator arenas idle). HTTP mode serves many
    // sessions at once, on every core.
    let mut builder = match cli.command {
        Some(Command::Serve { http: Some(_), .. }) => tokio::runtime::Builder::new_multi_thread(),
        _ => tokio::runtime::Builder::new_current_thread(),
    };
    let runtime = match builder.enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            tracing::error!("cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(execute::<S>(cli, env, &mut stdout));
    // The stdin reader of stdio mode is a blocking read that never ends while the client
    // keeps the pipe open: after a signal, do not wait for it.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    code
}

/// Parse and run a command line in `env`, writing what the user sees to `out`. `main`
/// uses the process's arguments, environment and stdout; tests use this directly.
pub async fn run<S: McpServer>(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
    env: Env,
    out: &mut (dyn Write + Send),
) -> ExitCode {
    match parse::<S>(args, out) {
        Ok(cli) => execute::<S>(cli, env, out).await,
        Err(code) => code,
    }
}

fn parse<S: McpServer>(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
    out: &mut dyn Write,
) -> Result<Cli, ExitCode> {
    let toolsets = S::TOOLSETS.join(", ");
    let command = Cli::command()
        .mut_arg("toolsets", |arg| {
            if S::TOOLSETS.is_empty() {
                arg.hide(true)
            } else {
                arg.help(format!(
                    "Serve only these toolsets, comma-separated: {toolsets} (default all; or {TOOLSETS_VAR})"
                ))
            }
        })
        .name(S::NAME)
        .bin_name(S::NAME)
        .version(S::VERSION)
        .about(format!("{}: an MCP server", S::TITLE))
        .after_help(help_footer::<S>());
    let parsed = command
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches));
    parsed.map_err(|e| {
        use clap::error::ErrorKind;
        match e.kind() {
            ErrorKind::DisplayHelp => {
                let _ = write!(out, "{}", e.render());
                ExitCode::SUCCESS
            }
            ErrorKind::DisplayVersion => {
                let _ = writeln!(out, "{}", version::version_line(S::NAME, S::VERSION));
                ExitCode::SUCCESS
            }
            _ => {
                let _ = e.print();
                ExitCode::from(EXIT_USAGE)
            }
        }
    })
}

/// What `--help` says after the commands: how the server is run, and every environment
/// variable it reads with its default (a user who ran `cargo install` has no README).
fn help_footer<S: McpServer>() -> String {
    let mut text = String::from(
        "Without a command, serves MCP over stdio (what MCP clients launch).\n\
         If a client says it cannot connect, run the `check` command.\n\
         Logs go to stderr: warnings and errors, or more with RUST_LOG=info or debug.\n\n\
         Environment variables (in an MCP client, put them in the server's `env` block):\n",
    );
    let mut variables = shape::upstreams::<S>()
        .map(|upstreams| config::variables(&upstreams))
        .unwrap_or_default();
    variables.push(config::Variable {
        name: "HTTPS_PROXY, NO_PROXY".to_owned(),
        default: "unset".to_owned(),
        about: "proxy for upstream requests, and hosts that bypass it (also HTTP_PROXY, \
                ALL_PROXY, lower case); unset: the system's proxy settings on macOS and Windows"
            .to_owned(),
    });
    let width = variables.iter().map(|v| v.name.len()).max().unwrap_or(0);
    for v in &variables {
        text.push_str(&format!(
            "  {:width$}  {} (default: {})\n",
            v.name, v.about, v.default
        ));
    }
    text
}

/// Warn about variables that look meant for this server but that it does not read.
fn warn_unknown_variables<S: McpServer>(env: &Env) {
    let upstreams: Vec<_> = env.built().iter().map(|h| h.config().upstream).collect();
    let known = config::variables(&upstreams);
    let names = env
        .names()
        .iter()
        .map(String::as_str)
        .filter(|name| S::TOOLSETS.is_empty() || *name != TOOLSETS_VAR)
        // Read by core's build, not by a running server: a release build's environment
        // may still hold it.
        .filter(|name| *name != version::REVISION_VAR);
    for (name, closest) in config::unknown_variables(&known, &upstreams, names) {
        let hint = closest.map_or_else(
            || " (`--help` lists the variables it reads)".to_owned(),
            |closest| format!("; did you mean {closest}?"),
        );
        tracing::warn!("{name} is set but {} does not read it{hint}", S::NAME);
    }
}

/// One warning line naming every variable read so far that held an unexpanded
/// placeholder: an MCP client (Claude Desktop's extension settings, say) passed a setting
/// the user left blank as `${user_config.<key>}`, and the server uses the default.
fn warn_placeholders<S: McpServer>(env: &Env) {
    let placeholders = env.placeholders();
    if !placeholders.is_empty() {
        tracing::warn!(
            "{}: settings left as unexpanded placeholders (${{…}}) are read as unset, using \
             their defaults: {}",
            S::NAME,
            placeholders.join(", ")
        );
    }
}

async fn execute<S: McpServer>(cli: Cli, env: Env, out: &mut (dyn Write + Send)) -> ExitCode {
    let mut env = match cli.toolsets.clone() {
        Some(_) if S::TOOLSETS.is_empty() => {
            eprint_line(&format!("{}: this server has no toolsets", S::NAME));
            return ExitCode::from(EXIT_USAGE);
        }
        Some(list) => env.with_var(TOOLSETS_VAR, list),
        None => env,
    };
    // The authentication options stand for their variables, read where every variable is.
    if let Some(Command::Serve {
        auth_issuer,
        public_url,
        auth_tokens_file,
        ..
    }) = &cli.command
    {
        for (var, value) in [
            (serve::auth::ISSUER_VAR, auth_issuer),
            (serve::auth::PUBLIC_URL_VAR, public_url),
            (serve::auth::TOKENS_FILE_VAR, auth_tokens_file),
        ] {
            if let Some(value) = value {
                env = env.with_var(var, value.clone());
            }
        }
    }
    let built = S::from_env(&env);
    warn_placeholders::<S>(&env);
    let server = match built {
        Ok(server) => server,
        Err(e) => {
            eprint_line(&format!("{}: configuration error: {e}", S::NAME));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    if let Some(Command::Tools { json }) = &cli.command {
        return list_tools::<S>(&server, *json, out);
    }
    warn_unknown_variables::<S>(&env);
    let outcome = match cli.command {
        None | Some(Command::Serve { http: None, .. }) => serve::serve_stdio(server).await,
        Some(Command::Serve {
            http: Some(addr),
            allow_host,
            stateless,
            session_idle_secs,
            session_hibernate_secs,
            max_sessions,
            ..
        }) => {
            let mut options = HttpOptions::new(addr);
            options.extra_allowed_hosts = allow_host;
            match http_from_env(&env, &mut options) {
                Ok(()) => {}
                Err(message) => {
                    eprint_line(&format!("{}: configuration error: {message}", S::NAME));
                    return ExitCode::from(EXIT_USAGE);
                }
            }
            options.stateless |= stateless;
            options.session_idle = std::time::Duration::from_secs(session_idle_secs);
            options.session_hibernate = std::time::Duration::from_secs(session_hibernate_secs);
            options.max_sessions = usize::try_from(max_sessions).unwrap_or(usize::MAX);
            // Built with the server above, so its settings are known to be valid.
            options.store = env.shared().ok();
            serve::serve_http(server, options).await
        }
        Some(Command::Call {
            tool,
            args,
            provenance,
            format,
        }) => return call::call::<S>(server, &tool, &args, provenance, format, out).await,
        Some(Command::Check) => return check::<S>(&env, out).await,
        Some(Command::Tools { .. }) => Ok(()),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<serve::BindError>() => {
            eprint_line(&format!("{}: {e}", S::NAME));
            ExitCode::from(EXIT_USAGE)
        }
        Err(e) => {
            tracing::error!("{}: {e}", S::NAME);
            ExitCode::FAILURE
        }
    }
}

/// What the environment adds to the HTTP options: `LIFESCIENCES_ALLOW_HOSTS` (more hosts
/// besides `--allow-host`'s), `LIFESCIENCES_STATELESS` (`1` or `0`, or true/false,
/// yes/no, on/off), and the authentication (`LIFESCIENCES_AUTH_*`,
/// `LIFESCIENCES_PUBLIC_URL`). For a container, which is configured without a command
/// line.
fn http_from_env(env: &Env, options: &mut HttpOptions) -> Result<(), String> {
    options.auth = serve::auth::Auth::from_env(env)
        .map_err(|e| e.to_string())?
        .map(std::sync::Arc::new);
    options.public_url = env
        .var(serve::auth::PUBLIC_URL_VAR)
        .and_then(|raw| url::Url::parse(raw.trim()).ok());
    // The host clients reach the server at is one it answers to.
    if let Some(public) = &options.public_url
        && let Some(host) = public.host_str()
    {
        let host = match public.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        };
        if !options.extra_allowed_hosts.contains(&host) {
            options.extra_allowed_hosts.push(host);
        }
    }
    if let Some(hosts) = env.var(serve::ALLOW_HOSTS_VAR) {
        for host in hosts.split(',').map(str::trim).filter(|h| !h.is_empty()) {
            if !options.extra_allowed_hosts.iter().any(|h| h == host) {
                options.extra_allowed_hosts.push(host.to_owned());
            }
        }
    }
    if let Some(value) = env.var(serve::STATELESS_VAR) {
        options.stateless =
            crate::config::parse_switch(serve::STATELESS_VAR, &value).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `--http` takes `HOST:PORT`: an IPv4 address, a bracketed IPv6 address or a host name,
/// and a port.
fn listen_address(raw: &str) -> Result<String, String> {
    let invalid = || format!("'{raw}' is not HOST:PORT (e.g. 127.0.0.1:8000 or localhost:8000)");
    let (host, port) = raw.rsplit_once(':').ok_or_else(invalid)?;
    port.parse::<u16>().map_err(|_| invalid())?;
    let bracketed = host.starts_with('[') && host.ends_with(']');
    let name_like = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'));
    if bracketed || name_like {
        Ok(raw.to_owned())
    } else {
        Err(invalid())
    }
}

/// The first sentence of a description: up to a full stop followed by a capital letter
/// (`e.g. \`X\`` and `0.7` do not end one), or the first paragraph.
fn first_sentence(description: &str) -> &str {
    let paragraph = description.split("\n\n").next().unwrap_or_default();
    paragraph
        .match_indices(". ")
        .find(|(i, _)| {
            paragraph[i + 2..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_uppercase())
        })
        .map_or(paragraph, |(i, _)| &paragraph[..=i])
}

/// The tools `server` serves (a gateway's chosen toolsets).
fn served_tools<S: McpServer>(server: &S) -> Vec<rmcp::model::Tool> {
    let mut tools = shape::tools::<S>();
    tools.retain(|t| server.keeps_tool(&t.name));
    tools
}

fn list_tools<S: McpServer>(server: &S, json: bool, out: &mut dyn Write) -> ExitCode {
    let tools = served_tools(server);
    let written = if json {
        serde_json::to_string_pretty(&tools)
            .map_err(std::io::Error::other)
            .and_then(|text| writeln!(out, "{text}"))
    } else if tools.is_empty() {
        writeln!(out, "{} has no tools.", S::NAME)
    } else {
        let width = tools.iter().map(|t| t.name.len()).max().unwrap_or(0);
        tools.iter().try_for_each(|tool| {
            let title = tool.title.as_deref().unwrap_or_default();
            let line = first_sentence(tool.description.as_deref().unwrap_or_default());
            writeln!(out, "{:width$}  {title}: {line}", tool.name)
        })
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

/// Probe every upstream the server was built with, in parallel, and print one line each.
async fn check<S: McpServer>(env: &Env, out: &mut (dyn Write + Send)) -> ExitCode {
    let clients = env.built();
    let probes: Vec<Probe> =
        futures::future::join_all(clients.iter().map(|client| client.probe())).await;
    let width = probes.iter().map(|p| p.source.len()).max().unwrap_or(0);
    let mut lines = vec![format!(
        "{}: checking {} upstream(s)",
        version::version_line(S::NAME, S::VERSION),
        probes.len()
    )];
    for probe in &probes {
        let millis = probe.latency.as_millis();
        let verdict = match &probe.outcome {
            Ok(status) => format!("reachable (HTTP {status}) in {millis} ms"),
            Err(reason) => format!("NOT reachable after {millis} ms: {reason}"),
        };
        lines.push(format!(
            "  {:width$}  {}\n  {:width$}  {verdict}",
            probe.source, probe.url, ""
        ));
    }
    let failed = probes.iter().filter(|p| p.outcome.is_err()).count();
    lines.push(if failed == 0 {
        "All upstreams are reachable.".to_owned()
    } else {
        format!(
            "{failed} of {} upstream(s) not reachable. Check the network and any proxy \
             (HTTPS_PROXY), and the <SOURCE>_API_URL variables; MCP clients pass only the \
             variables of their `env` block to a server.",
            probes.len()
        )
    });
    if writeln!(out, "{}", lines.join("\n")).is_err() || failed > 0 {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// Usage errors for a person at a terminal: plain text on stderr, never on stdout.
fn eprint_line(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{message}");
}

/// Logs to stderr, filtered by `RUST_LOG` as `env` reads it (unset, blank, a placeholder
/// or not a filter: `default_filter`).
pub fn init_tracing(env: &Env, default_filter: &str) {
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    let directives = env.var("RUST_LOG");
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false);
    let registry = tracing_subscriber::registry().with(fmt);
    // Plain `target=level` directives need no regular expressions: a server that is not
    // asked for span or field filters never builds tracing's (a few hundred KB of code
    // and heap that would otherwise stay resident for its whole life).
    let plain = |d: &str| tracing_subscriber::filter::Targets::from_str(d).ok();
    let _ = match directives.as_deref() {
        Some(d) if d.contains(['[', '{', '/']) => match tracing_subscriber::EnvFilter::try_new(d) {
            Ok(filter) => registry.with(filter).try_init(),
            Err(_) => registry
                .with(plain(default_filter).unwrap_or_default())
                .try_init(),
        },
        Some(d) => registry
            .with(
                plain(d)
                    .or_else(|| plain(default_filter))
                    .unwrap_or_default(),
            )
            .try_init(),
        None => registry
            .with(plain(default_filter).unwrap_or_default())
            .try_init(),
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_first_sentence_ends_at_a_full_stop_before_a_capital() {
        use super::first_sentence;
        assert_eq!(
            first_sentence("Find genes, e.g. `BRCA2`, above 0.7. Example: `{}`."),
            "Find genes, e.g. `BRCA2`, above 0.7."
        );
        assert_eq!(first_sentence("One line\n\nSecond paragraph."), "One line");
        assert_eq!(first_sentence("No full stop"), "No full stop");
    }

    use super::*;

    #[test]
    fn the_environment_adds_hosts_and_may_ask_for_stateless_http() {
        let mut options = HttpOptions::new("0.0.0.0:8000");
        options.extra_allowed_hosts = vec!["a.example.org".to_owned()];
        let env = Env::from_pairs(&[
            (
                "LIFESCIENCES_ALLOW_HOSTS",
                " a.example.org, b.example.org:8443 ,",
            ),
            ("LIFESCIENCES_STATELESS", "1"),
        ]);
        http_from_env(&env, &mut options).unwrap();
        assert_eq!(
            options.extra_allowed_hosts,
            ["a.example.org", "b.example.org:8443"]
        );
        assert!(options.stateless);
        for (value, stateless) in [("off", false), ("TRUE", true), ("0", false)] {
            let env = Env::from_pairs(&[("LIFESCIENCES_STATELESS", value)]);
            let mut options = HttpOptions::new("127.0.0.1:0");
            http_from_env(&env, &mut options).unwrap();
            assert_eq!(options.stateless, stateless, "{value}");
        }
        let env = Env::from_pairs(&[("LIFESCIENCES_STATELESS", "sometimes")]);
        let refused = http_from_env(&env, &mut HttpOptions::new("127.0.0.1:0")).unwrap_err();
        assert!(
            refused.contains("LIFESCIENCES_STATELESS=\"sometimes\" is not valid: expected 1 or 0"),
            "{refused}"
        );
        // Listed by --help and the docs, and never warned about as unknown.
        let known = config::variables(&[]);
        for name in [
            serve::ALLOW_HOSTS_VAR,
            serve::STATELESS_VAR,
            serve::auth::ISSUER_VAR,
            serve::auth::PUBLIC_URL_VAR,
            serve::auth::SCOPES_VAR,
            serve::auth::ACCEPT_TYP_JWT_VAR,
            serve::auth::TOKENS_FILE_VAR,
            serve::auth::RATE_VAR,
        ] {
            assert!(known.iter().any(|v| v.name == name), "{name}");
        }
    }

    #[test]
    fn the_public_url_s_host_is_one_the_server_answers_to() {
        for (public, host) in [
            ("https://mcp.example.org/mcp", "mcp.example.org"),
            (
                "https://mcp.example.org:8443/lab/mcp",
                "mcp.example.org:8443",
            ),
        ] {
            let env = Env::from_pairs(&[
                (serve::auth::ISSUER_VAR, "https://id.example.org/realms/lab"),
                (serve::auth::PUBLIC_URL_VAR, public),
            ]);
            let mut options = HttpOptions::new("0.0.0.0:8000");
            http_from_env(&env, &mut options).unwrap();
            assert!(options.auth.is_some());
            assert_eq!(options.extra_allowed_hosts, [host]);
        }
    }
}
