//! How to reach one upstream, and how politely: [`Upstream`] (a source's description,
//! written once as data by its client), [`SourceConfig`] (that description with the
//! environment applied), [`Network`] (proxies and extra trusted roots, shared by every
//! source), [`RetryPolicy`] and [`ConfigError`].
//!
//! A value that is nothing but an unexpanded placeholder (`${user_config.rate}`, see
//! [`is_placeholder`]) counts as unset, like a blank one, wherever a variable is read.
//!
//! `http` and `client` both build on these types; nothing here does I/O.

use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::CertificateDer;
use url::Url;

/// Environment variable: per-request timeout in seconds (all sources).
pub const ENV_TIMEOUT_SECS: &str = "LIFESCIENCES_TIMEOUT_SECS";
/// Environment variable: response cache time-to-live in seconds; 0 disables the cache.
pub const ENV_CACHE_TTL_SECS: &str = "LIFESCIENCES_CACHE_TTL_SECS";
/// Environment variable: a PEM file of root certificates trusted for every upstream, in
/// addition to the platform's (a network that intercepts TLS).
pub const ENV_CA_FILE: &str = "LIFESCIENCES_CA_FILE";
/// `LIFESCIENCES_CACHE_DIR`: where the embedded store lives; `off` keeps everything in
/// the process.
pub const ENV_CACHE_DIR: &str = "LIFESCIENCES_CACHE_DIR";
/// `LIFESCIENCES_REDIS_URL`: the Redis a fleet shares (`redis://host:port`,
/// `rediss://…`, `unix:///path/redis.sock`); wins over the embedded store.
pub const ENV_REDIS_URL: &str = "LIFESCIENCES_REDIS_URL";
/// `LIFESCIENCES_OFFLINE`: `1` answers from the store only, whatever an entry's age.
pub const ENV_OFFLINE: &str = "LIFESCIENCES_OFFLINE";
/// `LIFESCIENCES_CACHE_MAX_MB`: the most the embedded store keeps, in MB.
pub const ENV_CACHE_MAX_MB: &str = "LIFESCIENCES_CACHE_MAX_MB";
/// `LIFESCIENCES_CONTACT`: an e-mail address (or URL) sent in every request's
/// `User-Agent`, so an upstream that sees trouble can reach whoever runs the server
/// (UniProt and NCBI ask programs for one).
pub const ENV_CONTACT: &str = "LIFESCIENCES_CONTACT";

/// The proxy variables, read as curl reads them: upper case first, then lower case; the
/// scheme's own variable first, then `ALL_PROXY`.
pub const PROXY_VARIABLES: [&str; 8] = [
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "ALL_PROXY",
    "all_proxy",
    "NO_PROXY",
    "no_proxy",
];

/// Default per-request timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// Default cache time-to-live.
pub const DEFAULT_CACHE_TTL: Duration = Duration::from_secs(3600);
/// Bodies larger than this are refused as `UPSTREAM_ERROR`.
pub const DEFAULT_MAX_BODY_BYTES: u64 = 32 * 1024 * 1024;
/// Default memory bound of one source's response cache.
pub const DEFAULT_CACHE_MAX_BYTES: u64 = 64 * 1024 * 1024;

/// Accepted requests per second (`<PREFIX>_RATE_LIMIT`).
pub const RATE_RANGE: RangeInclusive<f64> = 0.01..=10_000.0;
/// Accepted in-flight caps (`<PREFIX>_MAX_CONCURRENT`).
pub const CONCURRENCY_RANGE: RangeInclusive<f64> = 1.0..=1000.0;
/// Accepted timeouts in seconds.
pub const TIMEOUT_RANGE: RangeInclusive<f64> = 0.1..=3600.0;
/// Accepted cache time-to-live in seconds (0 disables the cache).
pub const TTL_RANGE: RangeInclusive<f64> = 0.0..=31_536_000.0;
/// The shortest per-request timeout a source may set.
const MIN_TIMEOUT: Duration = Duration::from_millis(100);

/// A configuration value that cannot be used. The command line reports it and exits 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// An environment variable holds a value of the wrong form.
    #[error("{var}={value:?} is not valid: expected {expected}")]
    InvalidVar {
        /// The variable name.
        var: String,
        /// What it holds.
        value: String,
        /// What it should hold.
        expected: String,
    },
    /// The CA file cannot be read or holds no certificate that can be trusted.
    #[error("{var}={file:?}: {problem}")]
    CaFile {
        /// The variable that names it.
        var: String,
        /// The file, as given.
        file: String,
        /// What is wrong with it, and what to do.
        problem: String,
    },
    /// A file a variable names cannot be used (the static tokens file).
    #[error("{var}={file:?}: {problem}")]
    File {
        /// The variable that names it.
        var: String,
        /// The file, as given.
        file: String,
        /// What is wrong with it, and what to do.
        problem: String,
    },
    /// A variable set without another it needs.
    #[error("{set} is set but {missing} is not: {why}")]
    Needs {
        /// The variable set.
        set: String,
        /// The one it needs.
        missing: String,
        /// Why they go together.
        why: String,
    },
}

/// Read an on/off variable: `1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off` (any
/// case); anything else is a configuration error naming `var`.
pub fn parse_switch(var: &str, raw: &str) -> Result<bool, ConfigError> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(ConfigError::InvalidVar {
            var: var.to_owned(),
            value: raw.to_owned(),
            expected: "1 or 0 (also true/false, yes/no, on/off)".to_owned(),
        }),
    }
}

/// Whether `value` is an unexpanded placeholder: nothing but one `${…}` reference. An
/// MCP client leaves a setting the user did not fill in this way: Claude Desktop and the
/// MCP Bundle tooling pass `${user_config.<key>}` literally (`replaceVariables` in
/// <https://github.com/anthropics/mcpb/blob/main/src/shared/config.ts> keeps a reference
/// it has no value for), and clients that do not expand `${VAR}`, `${env:VAR}` or
/// `${input:id}` pass those on as they are. No variable a server reads has a usable
/// value of this form (URLs, numbers, log filters, lists, names, file paths), so any
/// `${…}` counts, not only `user_config`: the value is read as unset and the server
/// starts with the default.
pub fn is_placeholder(value: &str) -> bool {
    value
        .trim()
        .strip_prefix("${")
        .and_then(|inner| inner.strip_suffix('}'))
        .is_some_and(|name| !name.contains(['{', '}']))
}

/// A variable's value when it is usable: neither blank nor a placeholder.
pub fn usable(value: Option<String>) -> Option<String> {
    value.filter(|v| !v.trim().is_empty() && !is_placeholder(v))
}

/// A proxy a variable names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxyVar {
    /// The variable, e.g. `HTTPS_PROXY`.
    pub var: &'static str,
    /// The proxy, with any credentials.
    pub url: Url,
}

impl ProxyVar {
    /// The proxy as `check` shows it: without a user name or password.
    pub fn shown(&self) -> String {
        let mut url = self.url.clone();
        let _ = url.set_username("");
        let _ = url.set_password(None);
        url.to_string()
    }
}

/// Which proxy upstream requests go through, from the proxy variables.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Proxies {
    /// No proxy variable is set: the HTTP library looks for itself, finds no variable, and
    /// uses the system's proxy settings on macOS and Windows (none elsewhere).
    #[default]
    System,
    /// No proxy variable names a proxy, and at least one holds an unexpanded
    /// placeholder: no proxy at all. The HTTP library is kept from reading the variables
    /// itself (it would meet the placeholder), and so from the system's settings too.
    Direct,
    /// Proxies named by variables; nothing else is read.
    Explicit(Box<NamedProxies>),
}

/// The proxies the proxy variables name (at least one of the three is set).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NamedProxies {
    /// For `https` URLs (`HTTPS_PROXY`).
    pub https: Option<ProxyVar>,
    /// For `http` URLs (`HTTP_PROXY`).
    pub http: Option<ProxyVar>,
    /// For both, where the scheme's own variable is unset (`ALL_PROXY`).
    pub all: Option<ProxyVar>,
    /// Hosts reached without a proxy (`NO_PROXY`), as given.
    pub no_proxy: Option<String>,
}

impl Proxies {
    /// Read the proxy variables through `lookup` (upper case first, then lower case; a
    /// blank or placeholder value counts as unset). A proxy that is not an http(s) URL is
    /// a configuration error naming its variable.
    pub fn from_env_with(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let mut placeholder = false;
        let mut first = |vars: [&'static str; 2]| {
            vars.into_iter().find_map(|var| {
                let raw = lookup(var);
                placeholder |= raw.as_deref().is_some_and(is_placeholder);
                usable(raw).map(|value| (var, value))
            })
        };
        let https = first(["HTTPS_PROXY", "https_proxy"]);
        let http = first(["HTTP_PROXY", "http_proxy"]);
        let all = first(["ALL_PROXY", "all_proxy"]);
        let no_proxy = first(["NO_PROXY", "no_proxy"]).map(|(_, v)| v.trim().to_owned());
        if https.is_none() && http.is_none() && all.is_none() {
            return Ok(if placeholder {
                Self::Direct
            } else {
                Self::System
            });
        }
        let parse = |set: Option<(&'static str, String)>| {
            set.map(|(var, raw)| parse_proxy(var, &raw).map(|url| ProxyVar { var, url }))
                .transpose()
        };
        Ok(Self::Explicit(Box::new(NamedProxies {
            https: parse(https)?,
            http: parse(http)?,
            all: parse(all)?,
            no_proxy,
        })))
    }

    /// The proxy a request to a `scheme` URL is sent through, as far as the variables
    /// say (`NO_PROXY` aside); `None` when no variable names one.
    pub fn for_scheme(&self, scheme: &str) -> Option<&ProxyVar> {
        match self {
            Self::Explicit(named) => match scheme {
                "https" => named.https.as_ref().or(named.all.as_ref()),
                "http" => named.http.as_ref().or(named.all.as_ref()),
                _ => None,
            },
            Self::System | Self::Direct => None,
        }
    }
}

/// A proxy URL: `http://` or `https://` with a host (a bare `host:port` means
/// `http://host:port`, as curl reads it).
fn parse_proxy(var: &'static str, raw: &str) -> Result<Url, ConfigError> {
    let trimmed = raw.trim();
    let invalid = || ConfigError::InvalidVar {
        var: var.to_owned(),
        value: without_credentials(trimmed),
        expected: "a proxy URL such as http://proxy.example.org:3128 \
                   (http or https; SOCKS is not supported)"
            .to_owned(),
    };
    let full = if trimmed.contains("://") {
        trimmed.to_owned()
    } else {
        format!("http://{trimmed}")
    };
    let url = Url::parse(&full).map_err(|_| invalid())?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return Err(invalid());
    }
    Ok(url)
}

/// `raw` with anything between `://` and the last `@` of the authority masked: a proxy
/// value may carry a password, and configuration errors are logged by MCP clients.
fn without_credentials(raw: &str) -> String {
    let (scheme, rest) = raw.split_once("://").unwrap_or(("", raw));
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => {
            let prefix = if scheme.is_empty() {
                String::new()
            } else {
                format!("{scheme}://")
            };
            format!("{prefix}***@{}", &rest[at + 1..])
        }
        None => raw.to_owned(),
    }
}

/// Root certificates trusted in addition to the platform's, read from a PEM file.
#[derive(Clone, PartialEq, Eq)]
pub struct ExtraRoots {
    /// The file they were read from.
    pub file: PathBuf,
    /// The certificates, DER-encoded, each checked to be usable as a trust anchor.
    pub certificates: Vec<CertificateDer<'static>>,
}

impl std::fmt::Debug for ExtraRoots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExtraRoots")
            .field("file", &self.file)
            .field("certificates", &self.certificates.len())
            .finish()
    }
}

impl ExtraRoots {
    /// The certificates of PEM text `pem` read from `file` (named by `var`): at least
    /// one, each usable as a trust anchor. Anything else in the file (text, keys) is
    /// skipped.
    pub fn from_pem(var: &str, file: PathBuf, pem: &[u8]) -> Result<Self, ConfigError> {
        use rustls::pki_types::pem::PemObject as _;
        let problem = |problem: String| ConfigError::CaFile {
            var: var.to_owned(),
            file: file.display().to_string(),
            problem,
        };
        let certificates = CertificateDer::pem_slice_iter(pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| problem(format!("not a readable PEM file ({e})")))?;
        if certificates.is_empty() {
            return Err(problem(
                "holds no PEM certificate (-----BEGIN CERTIFICATE-----); a DER file \
                 converts with `openssl x509 -inform der -in ca.cer -out ca.pem`"
                    .to_owned(),
            ));
        }
        let mut store = rustls::RootCertStore::empty();
        for (n, certificate) in certificates.iter().enumerate() {
            store.add(certificate.clone()).map_err(|e| {
                problem(format!(
                    "certificate {} of {} cannot be trusted as a root ({e})",
                    n + 1,
                    certificates.len()
                ))
            })?;
        }
        Ok(Self { file, certificates })
    }
}

/// How upstream requests leave this machine: through which proxy, trusting which roots.
/// Read once from the environment and shared by every source.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Network {
    /// The proxies.
    pub proxies: Proxies,
    /// Root certificates trusted besides the platform's (`LIFESCIENCES_CA_FILE`).
    pub extra_roots: Option<ExtraRoots>,
}

/// When and how often to retry a failed upstream request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (so at most `max_retries + 1` requests).
    pub max_retries: usize,
    /// The first backoff; each retry doubles it, with full jitter.
    pub base_delay: Duration,
    /// The longest single wait, including a `Retry-After` the upstream asks for. A longer
    /// `Retry-After` is not waited out in-line: the call fails with `RATE_LIMITED` and
    /// the agent is told how long to wait.
    pub max_delay: Duration,
    /// The most time one call may spend waiting between attempts.
    pub max_total_wait: Duration,
}

impl RetryPolicy {
    /// At most 3 retries, backoff from 500 ms with full jitter, 10 s per wait, 20 s per call.
    pub const STANDARD: Self = Self {
        max_retries: 3,
        base_delay: Duration::from_millis(500),
        max_delay: Duration::from_secs(10),
        max_total_wait: Duration::from_secs(20),
    };

    /// No retries at all (waits still bound how long a source-wide pause is waited out).
    pub const NONE: Self = Self {
        max_retries: 0,
        ..Self::STANDARD
    };
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self::STANDARD
    }
}

/// A cheap request that shows an upstream is there: a path relative to the base URL and
/// its query. `<bin> check` sends it once, without cache or retries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HealthCheck {
    /// Path relative to the base URL, already percent-encoded.
    pub path: &'static str,
    /// Query parameters.
    pub query: &'static [(&'static str, &'static str)],
}

/// How a source says which data release it serves, for the provenance of its answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReleaseCheck {
    /// Every answer names it in a response header (UniProt's `X-UniProt-Release`): read
    /// there, with no request of its own.
    Header(&'static str),
    /// A request of its own: a GET relative to the base URL, and where the release is in
    /// its JSON answer. Asked at most once a day per store, in the background, never
    /// ahead of a call's own requests (see `http/release.rs`).
    Ask {
        /// Path relative to the base URL, already percent-encoded (`info/data`).
        path: &'static str,
        /// Query parameters.
        query: &'static [(&'static str, &'static str)],
        /// The JSON pointer of the release in the answer (`/releases/0`); a string or a
        /// number.
        pointer: &'static str,
    },
}

/// A source-specific environment variable beyond the common ones (`_API_URL`,
/// `_RATE_LIMIT`, `_MAX_CONCURRENT`, `_TIMEOUT_SECS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    /// The full variable name, e.g. `STRING_CALLER_IDENTITY`.
    pub var: &'static str,
    /// The value used when the variable is unset or blank.
    pub default: &'static str,
    /// What it means, for the README and `--help`.
    pub about: &'static str,
    /// When set, the value is sent as this query parameter on every request.
    pub query_param: Option<&'static str>,
}

/// The terms a source's data are used under, as the source states them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Licence {
    /// An SPDX licence expression: an identifier of the SPDX License List
    /// (<https://spdx.org/licenses/>), e.g. `CC-BY-4.0`; for terms on no list (a statement
    /// that the data carry no restrictions, an institute's terms of use) a `LicenseRef-`
    /// identifier, SPDX's form for a licence of its own (`LicenseRef-Ensembl`), which the
    /// source's page in `docs/sources/` quotes.
    pub spdx: &'static str,
    /// The page where the source states them.
    pub url: &'static str,
}

/// One upstream, described once by its source client: who it is, where it lives, how
/// politely to call it, and how to see that it is there. Core turns it into a
/// [`SourceConfig`] (applying the environment), and the README's configuration and
/// politeness tables and `<bin> check` are generated from it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Upstream {
    /// Human name used in messages and logs, e.g. "Ensembl".
    pub name: &'static str,
    /// Prefix of its environment variables: `STRING` for `STRING_API_URL`,
    /// `STRING_RATE_LIMIT`, `STRING_MAX_CONCURRENT`, `STRING_TIMEOUT_SECS`.
    pub env_prefix: &'static str,
    /// The base URL used unless `<PREFIX>_API_URL` says otherwise.
    pub default_url: &'static str,
    /// What the server uses it for, in a few words (docs).
    pub about: &'static str,
    /// Sustained requests per second.
    pub rate_per_second: f64,
    /// Requests in flight at once.
    pub max_concurrent: usize,
    /// Its own per-request timeout (a short one for an optional, flaky upstream); `None`
    /// follows `LIFESCIENCES_TIMEOUT_SECS` (30 s by default).
    pub timeout: Option<Duration>,
    /// Retry policy.
    pub retry: RetryPolicy,
    /// Whether its POSTs are pure look-ups whose answers may be cached like GETs (the
    /// body is part of the cache key).
    pub cache_posts: bool,
    /// The request `<bin> check` sends.
    pub health: HealthCheck,
    /// How to ask which data release it serves; `None` when it does not say.
    pub release: Option<ReleaseCheck>,
    /// Response headers its client reads (a total, a next-page link), kept with each
    /// answer, also when it is served from the cache or the store; others are dropped.
    pub keep_headers: &'static [&'static str],
    /// Whether redirects are followed (within the upstream, see `http/build.rs`). When
    /// not, a redirect within the upstream is an answer of its own: its status and
    /// `Location` reach the source's client, which says what it means (a merged record, a
    /// finished job); one out of the upstream is refused as a followed one would be.
    pub follow_redirects: bool,
    /// Variables of its own beyond the common ones.
    pub settings: &'static [Setting],
    /// The terms its data are used under; `None` when it states none. Each answer's
    /// provenance names them.
    pub licence: Option<Licence>,
    /// The DOI of the paper it asks its users to cite (`10.1093/nar/gkae1113`, without a
    /// prefix); `None` when it names none. Each answer's provenance names it as
    /// `doi:<DOI>`.
    pub cite: Option<&'static str>,
}

impl Upstream {
    /// A description with the common defaults: 10 requests/s, 10 in flight, the global
    /// timeout, the standard retries, POSTs not cached, a GET of the base URL as health
    /// check, no release check, no headers kept, redirects followed, no settings of its
    /// own, no licence or citation. Use it with struct update syntax.
    pub const fn new(
        name: &'static str,
        env_prefix: &'static str,
        default_url: &'static str,
    ) -> Self {
        Self {
            name,
            env_prefix,
            default_url,
            about: "",
            rate_per_second: 10.0,
            max_concurrent: 10,
            timeout: None,
            retry: RetryPolicy::STANDARD,
            cache_posts: false,
            health: HealthCheck {
                path: "",
                query: &[],
            },
            release: None,
            keep_headers: &[],
            follow_redirects: true,
            settings: &[],
            licence: None,
            cite: None,
        }
    }

    /// The variable that overrides the base URL, e.g. `STRING_API_URL`.
    pub fn url_var(&self) -> String {
        format!("{}_API_URL", self.env_prefix)
    }

    /// The variable that overrides the rate, e.g. `STRING_RATE_LIMIT`.
    pub fn rate_var(&self) -> String {
        format!("{}_RATE_LIMIT", self.env_prefix)
    }

    /// The variable that overrides the in-flight cap, e.g. `STRING_MAX_CONCURRENT`.
    pub fn concurrency_var(&self) -> String {
        format!("{}_MAX_CONCURRENT", self.env_prefix)
    }

    /// The variable that sets this source's timeout, e.g. `UNICHEM_TIMEOUT_SECS`.
    pub fn timeout_var(&self) -> String {
        format!("{}_TIMEOUT_SECS", self.env_prefix)
    }
}

/// Where and how politely to reach one upstream: its [`Upstream`] description with the
/// environment applied.
#[derive(Debug, Clone)]
pub struct SourceConfig {
    /// The description this configuration was made from.
    pub upstream: &'static Upstream,
    /// Base URL; request paths are appended to it. Stored without a trailing slash.
    pub base_url: Url,
    /// Requests per second: at most `floor(rate)` in any one-second window (one per
    /// `1/rate` seconds below 1); within that, requests leave as soon as they are ready.
    pub rate_per_second: f64,
    /// Requests in flight at once.
    pub max_concurrent: usize,
    /// Per-request timeout, from connect to the last byte of the body.
    pub timeout: Duration,
    /// Retry policy.
    pub retry: RetryPolicy,
    /// `User-Agent` header.
    pub user_agent: String,
    /// Query parameters sent with every request (e.g. STRING's `caller_identity`).
    pub default_query: Vec<(String, String)>,
    /// Bodies larger than this are refused.
    pub max_body_bytes: u64,
    /// Time-to-live of cached responses; zero disables the cache.
    pub cache_ttl: Duration,
    /// Memory bound of the cache, in bytes of keys and bodies.
    pub cache_max_bytes: u64,
    /// Whether successful POST look-ups are cached like GETs.
    pub cache_posts: bool,
    /// Whether the source's data release is asked for (once a day, see
    /// [`Upstream::release`]) to name it in the provenance of answers. Tests against a
    /// mock turn it off unless they serve the release.
    pub ask_release: bool,
    /// Proxies and extra trusted roots (every source of a server shares one).
    pub network: Arc<Network>,
    /// The values of the source's own settings, by variable name.
    settings: Vec<(&'static str, String)>,
}

/// The User-Agent every source sends unless told otherwise:
/// `lifesciences-mcp/<version> (+<project URL>)`, the project being where an upstream can
/// find who calls it.
pub fn default_user_agent() -> String {
    user_agent(None)
}

/// The User-Agent, with `contact` (see [`ENV_CONTACT`]) after the project URL.
fn user_agent(contact: Option<&str>) -> String {
    let version = env!("CARGO_PKG_VERSION");
    let project = env!("CARGO_PKG_REPOSITORY");
    match contact {
        Some(contact) => format!("lifesciences-mcp/{version} (+{project}; {contact})"),
        None => format!("lifesciences-mcp/{version} (+{project})"),
    }
}

impl SourceConfig {
    /// The configuration `upstream` describes, before the environment is applied (see
    /// [`from_env_with`](Self::from_env_with)). An invalid default URL is reported as a
    /// configuration error of `<PREFIX>_API_URL`.
    pub fn new(upstream: &'static Upstream) -> Result<Self, ConfigError> {
        let base_url = parse_base_url(&upstream.url_var(), upstream.default_url)?;
        let mut config = Self {
            upstream,
            base_url,
            rate_per_second: 10.0,
            max_concurrent: 10,
            timeout: DEFAULT_TIMEOUT,
            retry: upstream.retry,
            user_agent: default_user_agent(),
            default_query: Vec::new(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            cache_ttl: DEFAULT_CACHE_TTL,
            cache_max_bytes: DEFAULT_CACHE_MAX_BYTES,
            cache_posts: upstream.cache_posts,
            ask_release: true,
            network: Arc::default(),
            settings: upstream
                .settings
                .iter()
                .map(|s| (s.var, s.default.to_owned()))
                .collect(),
        }
        .with_rate(upstream.rate_per_second)
        .with_max_concurrent(upstream.max_concurrent);
        config.timeout = upstream.timeout.unwrap_or(DEFAULT_TIMEOUT).max(MIN_TIMEOUT);
        Ok(config)
    }

    /// The source's human name, e.g. "ChEMBL".
    pub fn name(&self) -> &'static str {
        self.upstream.name
    }

    /// Whether the source has a timeout of its own (the global variable then may only
    /// shorten it).
    fn own_timeout(&self) -> bool {
        self.upstream.timeout.is_some()
    }

    /// The value of one of the source's own settings (its default when unset).
    pub fn setting(&self, var: &str) -> Option<&str> {
        self.settings
            .iter()
            .find(|(name, _)| *name == var)
            .map(|(_, value)| value.as_str())
    }

    /// Sustained requests per second, clamped to [`RATE_RANGE`] (values that are not
    /// positive numbers are ignored).
    #[must_use]
    pub fn with_rate(mut self, per_second: f64) -> Self {
        if per_second.is_finite() && per_second > 0.0 {
            self.rate_per_second = per_second.clamp(*RATE_RANGE.start(), *RATE_RANGE.end());
        }
        self
    }

    /// Requests in flight at once (at least 1).
    #[must_use]
    pub fn with_max_concurrent(mut self, n: usize) -> Self {
        self.max_concurrent = n.max(1);
        self
    }

    /// Per-request timeout (at least 100 ms).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout.max(MIN_TIMEOUT);
        self
    }

    /// Retry policy.
    #[must_use]
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// `User-Agent` header.
    #[must_use]
    pub fn with_user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = user_agent.into();
        self
    }

    /// A query parameter sent with every request.
    #[must_use]
    pub fn with_default_query(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.default_query.push((name.into(), value.into()));
        self
    }

    /// Cache successful POSTs too. Only for sources whose POSTs are pure look-ups: the
    /// body is part of the cache key.
    #[must_use]
    pub fn with_cached_posts(mut self) -> Self {
        self.cache_posts = true;
        self
    }

    /// Whether to ask the source's data release for provenance (see
    /// [`ask_release`](Self::ask_release)).
    #[must_use]
    pub fn with_release_check(mut self, ask: bool) -> Self {
        self.ask_release = ask;
        self
    }

    /// Cache time-to-live; zero disables the cache.
    #[must_use]
    pub fn with_cache_ttl(mut self, ttl: Duration) -> Self {
        self.cache_ttl = ttl;
        self
    }

    /// Body-size cap in bytes.
    #[must_use]
    pub fn with_max_body_bytes(mut self, bytes: u64) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// Proxies and extra trusted roots.
    #[must_use]
    pub fn with_network(mut self, network: Arc<Network>) -> Self {
        self.network = network;
        self
    }

    /// Apply an environment given as a lookup function: `<PREFIX>_API_URL`,
    /// `<PREFIX>_RATE_LIMIT`, `<PREFIX>_MAX_CONCURRENT`, `<PREFIX>_TIMEOUT_SECS`,
    /// `LIFESCIENCES_TIMEOUT_SECS` (which may shorten a source's own timeout, never
    /// lengthen it), `LIFESCIENCES_CACHE_TTL_SECS`, and the source's own settings. Blank
    /// values and unexpanded placeholders ([`is_placeholder`]) count as unset.
    pub fn from_env_with(
        mut self,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let get = |var: &str| usable(lookup(var));
        let upstream = self.upstream;
        let url_var = upstream.url_var();
        if let Some(url) = get(&url_var) {
            self.base_url = parse_base_url(&url_var, &url)?;
        }
        let rate_var = upstream.rate_var();
        if let Some(rate) = get(&rate_var) {
            self.rate_per_second = parse_number(&rate_var, &rate, RATE_RANGE)?;
        }
        let concurrency_var = upstream.concurrency_var();
        if let Some(n) = get(&concurrency_var) {
            self.max_concurrent = parse_number(&concurrency_var, &n, CONCURRENCY_RANGE)? as usize;
        }
        let source_timeout_var = upstream.timeout_var();
        if let Some(secs) = get(&source_timeout_var) {
            self.timeout =
                Duration::from_secs_f64(parse_number(&source_timeout_var, &secs, TIMEOUT_RANGE)?);
        } else if let Some(secs) = get(ENV_TIMEOUT_SECS) {
            let global =
                Duration::from_secs_f64(parse_number(ENV_TIMEOUT_SECS, &secs, TIMEOUT_RANGE)?);
            self.timeout = if self.own_timeout() {
                self.timeout.min(global)
            } else {
                global
            };
        }
        if let Some(contact) = get(ENV_CONTACT) {
            // Header-safe and short: printable ASCII only, at most 200 characters.
            let contact: String = contact
                .trim()
                .chars()
                .filter(|c| c.is_ascii_graphic() || *c == ' ')
                .take(200)
                .collect();
            if !contact.is_empty() {
                self.user_agent = user_agent(Some(&contact));
            }
        }
        if let Some(ttl) = get(ENV_CACHE_TTL_SECS) {
            self.cache_ttl =
                Duration::from_secs_f64(parse_number(ENV_CACHE_TTL_SECS, &ttl, TTL_RANGE)?);
        }
        // `settings` holds the description's settings in their order.
        for (setting, (_, value)) in upstream.settings.iter().zip(&mut self.settings) {
            if let Some(set) = get(setting.var) {
                *value = set.trim().to_owned();
            }
            if let Some(param) = setting.query_param {
                self.default_query.push((param.to_owned(), value.clone()));
            }
        }
        Ok(self)
    }
}

fn parse_base_url(var: &str, raw: &str) -> Result<Url, ConfigError> {
    let invalid = || ConfigError::InvalidVar {
        var: var.to_owned(),
        value: raw.to_owned(),
        expected: "an absolute http(s) URL without query or fragment, such as \
                   https://rest.ensembl.org"
            .to_owned(),
    };
    let trimmed = raw.trim().trim_end_matches('/');
    let url = Url::parse(trimmed).map_err(|_| invalid())?;
    // Paths are appended to the base as text: a query or fragment would end up in the
    // middle of every request URL.
    if !matches!(url.scheme(), "http" | "https")
        || url.cannot_be_a_base()
        || url.query().is_some()
        || url.fragment().is_some()
    {
        return Err(invalid());
    }
    Ok(url)
}

/// Parse a number in `range`, or a configuration error naming `var` and the range.
pub fn parse_number(var: &str, raw: &str, range: RangeInclusive<f64>) -> Result<f64, ConfigError> {
    match raw.trim().parse::<f64>() {
        Ok(value) if range.contains(&value) => Ok(value),
        _ => Err(ConfigError::InvalidVar {
            var: var.to_owned(),
            value: raw.to_owned(),
            expected: format!("a number from {} to {}", range.start(), range.end()),
        }),
    }
}

mod variables;

pub use variables::{GLOBAL_PREFIX, GLOBAL_VARIABLES, Variable, unknown_variables, variables};

#[cfg(test)]
mod tests;
