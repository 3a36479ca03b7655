//! Every variable a server reads, named once: the ones every source shares, and each
//! upstream's own, for the README's tables, `--help`, and spotting a misspelt variable.

use super::*;

/// The variables every source shares, for the README and `--help`: name, default, meaning.
pub const GLOBAL_VARIABLES: &[(&str, &str, &str)] = &[
    (
        ENV_TIMEOUT_SECS,
        "30",
        "per-request timeout in seconds (0.1–3600), for every source without a timeout of its own; it may shorten a source's own timeout, never lengthen it",
    ),
    (
        ENV_CACHE_TTL_SECS,
        "3600",
        "how long successful responses are cached, in seconds; `0` disables the cache",
    ),
    (
        ENV_CACHE_DIR,
        "the platform's cache folder (`~/.cache/lifesciences-mcp` on Linux)",
        "where the store every process of this user shares lives (answers kept across restarts, one politeness budget per upstream); `off` keeps both in this process",
    ),
    (
        ENV_CACHE_MAX_MB,
        "256",
        "the most that store keeps, in MB (1–1000000); the oldest answers go first",
    ),
    (
        ENV_REDIS_URL,
        "unset",
        "a Redis shared by every replica of a fleet (`redis://host:6379`, `unix:///run/redis.sock`), in place of the store file; Redis down never fails a call",
    ),
    (
        ENV_CONTACT,
        "unset",
        "an e-mail address or URL added to the `User-Agent` of every upstream request (`lifesciences-mcp/<version> (+<project URL>; <contact>)`), so an upstream can reach whoever runs the server",
    ),
    (
        ENV_OFFLINE,
        "unset",
        "`1` (or `0`): answer only from the store, whatever an answer's age, and never ask an upstream",
    ),
    (
        ENV_CA_FILE,
        "unset",
        "a PEM file of root certificates to trust for every upstream besides the system's, for a network that inspects TLS; a file that cannot be read or holds no certificate stops the server at start",
    ),
    (
        "LIFESCIENCES_ALLOW_HOSTS",
        "unset",
        "HTTP mode: more `Host` values to accept (and browser pages from them), comma-separated, besides the loopback names and any `--allow-host`",
    ),
    (
        "LIFESCIENCES_STATELESS",
        "unset",
        "HTTP mode: `1` serves every request on its own, without sessions, so any replica behind a load balancer can answer it (as `--stateless`)",
    ),
    (
        "LIFESCIENCES_AUTH_TOKENS_FILE",
        "unset",
        "HTTP mode: a file of named principals, one a line, `<name> sha256:<SHA-256 of the token> [weight=N]`; a request must carry one of the tokens as `Authorization: Bearer <token>`; re-read when it changes (as `--auth-tokens-file`)",
    ),
    (
        "LIFESCIENCES_AUTH_ISSUER",
        "unset",
        "HTTP mode: accept the access tokens of this OAuth 2.1 / OpenID Connect issuer, exactly as its tokens say in `iss` (e.g. `https://id.example.org/realms/lab`); needs `LIFESCIENCES_PUBLIC_URL` (as `--auth-issuer`)",
    ),
    (
        "LIFESCIENCES_PUBLIC_URL",
        "unset",
        "HTTP mode: the URL clients reach the MCP endpoint at (`https://mcp.example.org/mcp`), the audience the issuer's tokens must name; its host is accepted as a `Host` (as `--public-url`)",
    ),
    (
        "LIFESCIENCES_AUTH_SCOPES",
        "unset",
        "HTTP mode: scopes every access token of the issuer must carry, space- or comma-separated; a token without them is refused with 403",
    ),
    (
        "LIFESCIENCES_AUTH_ACCEPT_TYP_JWT",
        "unset",
        "HTTP mode: `1` also accepts access tokens whose header says `typ: JWT` or nothing (Keycloak, Entra ID), not only `at+jwt` (RFC 9068)",
    ),
    (
        "LIFESCIENCES_AUTH_RATE_LIMIT",
        "20",
        "HTTP mode with authentication: requests per second each principal may send (0.1–10000), in bursts of 5 s worth; beyond it 429 with `Retry-After`",
    ),
    (
        "<SOURCE>_RATE_LIMIT",
        "per source, below",
        "requests per second (0.01–10000), e.g. `ENSEMBL_RATE_LIMIT=5`",
    ),
    (
        "<SOURCE>_MAX_CONCURRENT",
        "per source, below",
        "requests in flight at once (1–1000)",
    ),
    (
        "<SOURCE>_TIMEOUT_SECS",
        "the global timeout",
        "this source's per-request timeout (0.1–3600); wins over the global one",
    ),
    (
        "RUST_LOG",
        "`info` when serving HTTP, `warn` otherwise",
        "log filter (logs go to stderr), e.g. `debug` or `lifesciences_core=debug`",
    ),
];

/// The prefix of the variables every source shares (`LIFESCIENCES_TIMEOUT_SECS`).
pub const GLOBAL_PREFIX: &str = "LIFESCIENCES";

/// One environment variable a server reads, for `--help` and for spotting misspellings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// Its name, e.g. `STRING_RATE_LIMIT`.
    pub name: String,
    /// The value used when it is unset.
    pub default: String,
    /// What it means.
    pub about: String,
}

/// Every variable a server with these upstreams reads: per upstream its URL, rate,
/// concurrency, timeout and own settings, then the shared ones.
pub fn variables(upstreams: &[&'static Upstream]) -> Vec<Variable> {
    let variable = |name: String, default: String, about: String| Variable {
        name,
        default,
        about,
    };
    let mut all = Vec::new();
    for u in upstreams {
        let about = if u.about.is_empty() { u.name } else { u.about };
        all.push(variable(
            u.url_var(),
            u.default_url.to_owned(),
            format!("{about}: base URL"),
        ));
        all.push(variable(
            u.rate_var(),
            trim_number(u.rate_per_second),
            format!("{}: requests per second", u.name),
        ));
        all.push(variable(
            u.concurrency_var(),
            u.max_concurrent.to_string(),
            format!("{}: requests in flight at once", u.name),
        ));
        all.push(variable(
            u.timeout_var(),
            u.timeout.map_or_else(
                || format!("as {ENV_TIMEOUT_SECS}"),
                |own| trim_number(own.as_secs_f64()),
            ),
            format!("{}: per-request timeout in seconds", u.name),
        ));
        for setting in u.settings {
            all.push(variable(
                setting.var.to_owned(),
                setting.default.to_owned(),
                setting.about.to_owned(),
            ));
        }
    }
    for (name, default, about) in GLOBAL_VARIABLES {
        if !name.starts_with('<') {
            all.push(variable(
                (*name).to_owned(),
                default.replace('`', ""),
                about.replace('`', ""),
            ));
        }
    }
    all
}

/// The variables in `set` that look meant for this server (they start with one of its
/// upstreams' prefixes or `LIFESCIENCES_`) but are not among `known`: probably
/// misspelt, and silently ignored otherwise. Each comes with the closest known name,
/// when one is close.
pub fn unknown_variables<'a>(
    known: &[Variable],
    upstreams: &[&'static Upstream],
    set: impl IntoIterator<Item = &'a str>,
) -> Vec<(String, Option<String>)> {
    let prefixes: Vec<String> = upstreams
        .iter()
        .map(|u| u.env_prefix)
        .chain([GLOBAL_PREFIX])
        .map(|prefix| format!("{prefix}_"))
        .collect();
    let squash = |name: &str| name.replace(['_', '-'], "").to_ascii_uppercase();
    set.into_iter()
        .filter(|name| prefixes.iter().any(|p| name.starts_with(p.as_str())))
        .filter(|name| !known.iter().any(|k| k.name == *name))
        .map(|name| {
            let given = squash(name);
            let closest = known
                .iter()
                .map(|k| {
                    let candidate = squash(&k.name);
                    // A name cut short (`…_CACHE_TTL` for `…_CACHE_TTL_SECS`) is close too.
                    let distance = if candidate.starts_with(&given) {
                        1
                    } else {
                        edit_distance(&given, &candidate)
                    };
                    (distance, &k.name)
                })
                .filter(|(distance, _)| *distance <= 3)
                .min_by_key(|(distance, _)| *distance)
                .map(|(_, k)| k.clone());
            (name.to_owned(), closest)
        })
        .collect()
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

fn trim_number(n: f64) -> String {
    let text = format!("{n:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}
