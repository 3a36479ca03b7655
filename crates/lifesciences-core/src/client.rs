//! `SourceConfig` (how politely and where to reach one upstream) and the
//! `LifeSciencesClient` trait every source client implements.
//!
//! A source client owns one [`HttpClient`] built from its `SourceConfig`, implements
//! [`LifeSciencesClient::http`], and gets typed `get_json`/`post_json`/`post_form` that
//! rate-limit, retry, cache and coalesce. It knows its URLs and parameters; nothing else
//! does.

use std::num::NonZeroU32;
use std::time::Duration;

use async_trait::async_trait;
use serde::{Serialize, de::DeserializeOwned};
use url::Url;

use crate::error::ApiError;
use crate::http::HttpClient;

/// Environment variable: per-request timeout in seconds (all sources).
pub const ENV_TIMEOUT_SECS: &str = "LIFESCIENCES_TIMEOUT_SECS";
/// Environment variable: response cache time-to-live in seconds; 0 disables the cache.
pub const ENV_CACHE_TTL_SECS: &str = "LIFESCIENCES_CACHE_TTL_SECS";

/// Default per-request timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// Default cache time-to-live.
pub const DEFAULT_CACHE_TTL: Duration = Duration::from_secs(3600);
/// Bodies larger than this are refused (CONTRACT §6).
pub const DEFAULT_MAX_BODY_BYTES: u64 = 32 * 1024 * 1024;
/// Default memory bound of one source's response cache.
pub const DEFAULT_CACHE_MAX_BYTES: u64 = 64 * 1024 * 1024;

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
    /// The HTTP client could not be built (TLS set-up).
    #[error("cannot build the HTTP client for {source_name}: {detail}")]
    HttpClient {
        /// The source.
        source_name: String,
        /// Why.
        detail: String,
    },
}

/// When and how often to retry a failed upstream request (CONTRACT §6).
#[derive(Debug, Clone, PartialEq, Eq)]
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

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 3,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(10),
            max_total_wait: Duration::from_secs(20),
        }
    }
}

impl RetryPolicy {
    /// No retries at all.
    pub fn none() -> Self {
        Self {
            max_retries: 0,
            ..Self::default()
        }
    }
}

/// Where and how politely to reach one upstream.
#[derive(Debug, Clone)]
pub struct SourceConfig {
    /// Human name used in messages and logs, e.g. "Ensembl".
    pub name: String,
    /// Prefix of this source's environment variables, e.g. "ENSEMBL" for
    /// `ENSEMBL_API_URL` and `ENSEMBL_RATE_LIMIT`.
    pub env_prefix: String,
    /// Base URL; request paths are appended to it. Stored without a trailing slash.
    pub base_url: Url,
    /// Sustained requests per second.
    pub rate_per_second: f64,
    /// Requests that may go out back to back before the rate applies. 1 spaces every
    /// request evenly, which is what per-second upstream limiters expect.
    pub burst: NonZeroU32,
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
    /// Time-to-live of cached GET responses; zero disables the cache.
    pub cache_ttl: Duration,
    /// Memory bound of the cache, in bytes of keys and bodies.
    pub cache_max_bytes: u64,
    /// Whether the source set its own timeout (the global variable then leaves it alone).
    own_timeout: bool,
    /// Whether successful POST look-ups are cached like GETs (opt-in, see
    /// [`with_cached_posts`](Self::with_cached_posts)).
    pub cache_posts: bool,
}

/// The User-Agent every source sends unless told otherwise: `lifesciences-mcp/<version>`.
pub fn default_user_agent() -> String {
    format!("lifesciences-mcp/{}", env!("CARGO_PKG_VERSION"))
}

impl SourceConfig {
    /// A source with the defaults of CONTRACT §6 (10 requests/s, 10 in flight, 30 s
    /// timeout, 3 retries, 1 h cache). Set the source's own politeness with the `with_`
    /// methods, then apply the environment with [`from_env`](Self::from_env).
    ///
    /// `default_base_url` must be an absolute http(s) URL; an invalid one is reported by
    /// `from_env` as a configuration error of `<PREFIX>_API_URL`.
    pub fn new(
        name: impl Into<String>,
        env_prefix: impl Into<String>,
        default_base_url: &str,
    ) -> Result<Self, ConfigError> {
        let env_prefix = env_prefix.into();
        let base_url = parse_base_url(&format!("{env_prefix}_API_URL"), default_base_url)?;
        Ok(Self {
            name: name.into(),
            env_prefix,
            base_url,
            rate_per_second: 10.0,
            burst: NonZeroU32::MIN,
            max_concurrent: 10,
            timeout: DEFAULT_TIMEOUT,
            retry: RetryPolicy::default(),
            user_agent: default_user_agent(),
            default_query: Vec::new(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            cache_ttl: DEFAULT_CACHE_TTL,
            cache_max_bytes: DEFAULT_CACHE_MAX_BYTES,
            own_timeout: false,
            cache_posts: false,
        })
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

    /// Requests that may go out back to back.
    #[must_use]
    pub fn with_burst(mut self, burst: NonZeroU32) -> Self {
        self.burst = burst;
        self
    }

    /// Requests in flight at once (at least 1).
    #[must_use]
    pub fn with_max_concurrent(mut self, n: usize) -> Self {
        self.max_concurrent = n.max(1);
        self
    }

    /// This source's own per-request timeout (e.g. a short one for an optional, flaky
    /// upstream). The global `LIFESCIENCES_TIMEOUT_SECS` may then shorten it but never
    /// lengthen it; `<PREFIX>_TIMEOUT_SECS` sets it outright.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout.max(MIN_TIMEOUT);
        self.own_timeout = true;
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

    /// Cache successful POSTs too. Only for sources whose POSTs are pure look-ups (e.g.
    /// UniChem's `POST /compounds`): the body is part of the cache key.
    #[must_use]
    pub fn with_cached_posts(mut self) -> Self {
        self.cache_posts = true;
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

    /// Apply the process environment: `<PREFIX>_API_URL`, `<PREFIX>_RATE_LIMIT`,
    /// `<PREFIX>_MAX_CONCURRENT`, `<PREFIX>_TIMEOUT_SECS`, `LIFESCIENCES_TIMEOUT_SECS`
    /// (sources without a timeout of their own), `LIFESCIENCES_CACHE_TTL_SECS`.
    pub fn from_env(self) -> Result<Self, ConfigError> {
        self.from_env_with(|var| std::env::var(var).ok())
    }

    /// Apply an environment given as a lookup function (tests use a map).
    pub fn from_env_with(
        mut self,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let get = |var: &str| lookup(var).filter(|v| !v.trim().is_empty());
        let url_var = self.url_var();
        if let Some(url) = get(&url_var) {
            self.base_url = parse_base_url(&url_var, &url)?;
        }
        let rate_var = self.rate_var();
        if let Some(rate) = get(&rate_var) {
            self.rate_per_second = parse_number(&rate_var, &rate, RATE_RANGE)?;
        }
        let concurrency_var = format!("{}_MAX_CONCURRENT", self.env_prefix);
        if let Some(n) = get(&concurrency_var) {
            self.max_concurrent = parse_number(&concurrency_var, &n, 1.0..=1000.0)? as usize;
        }
        let source_timeout_var = format!("{}_TIMEOUT_SECS", self.env_prefix);
        if let Some(secs) = get(&source_timeout_var) {
            self.timeout =
                Duration::from_secs_f64(parse_number(&source_timeout_var, &secs, TIMEOUT_RANGE)?);
        } else if let Some(secs) = get(ENV_TIMEOUT_SECS) {
            let global =
                Duration::from_secs_f64(parse_number(ENV_TIMEOUT_SECS, &secs, TIMEOUT_RANGE)?);
            // The global timeout may shorten a source's own timeout, never lengthen it.
            self.timeout = if self.own_timeout {
                self.timeout.min(global)
            } else {
                global
            };
        }
        if let Some(ttl) = get(ENV_CACHE_TTL_SECS) {
            self.cache_ttl =
                Duration::from_secs_f64(parse_number(ENV_CACHE_TTL_SECS, &ttl, TTL_RANGE)?);
        }
        Ok(self)
    }

    /// The variable that overrides the base URL, e.g. `STRING_API_URL`.
    pub fn url_var(&self) -> String {
        format!("{}_API_URL", self.env_prefix)
    }

    /// The variable that overrides the rate, e.g. `STRING_RATE_LIMIT`.
    pub fn rate_var(&self) -> String {
        format!("{}_RATE_LIMIT", self.env_prefix)
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

/// Accepted requests per second (`<PREFIX>_RATE_LIMIT`).
pub const RATE_RANGE: std::ops::RangeInclusive<f64> = 0.01..=10_000.0;
/// Accepted timeouts in seconds.
const TIMEOUT_RANGE: std::ops::RangeInclusive<f64> = 0.1..=3600.0;
/// Accepted cache time-to-live in seconds (0 disables the cache).
const TTL_RANGE: std::ops::RangeInclusive<f64> = 0.0..=31_536_000.0;
/// The shortest per-request timeout a source may set.
const MIN_TIMEOUT: Duration = Duration::from_millis(100);

fn parse_number(
    var: &str,
    raw: &str,
    range: std::ops::RangeInclusive<f64>,
) -> Result<f64, ConfigError> {
    match raw.trim().parse::<f64>() {
        Ok(value) if range.contains(&value) => Ok(value),
        _ => Err(ConfigError::InvalidVar {
            var: var.to_owned(),
            value: raw.to_owned(),
            expected: format!("a number from {} to {}", range.start(), range.end()),
        }),
    }
}

/// What every source client is: an owner of one [`HttpClient`]. Implement `http`; the
/// typed helpers come for free.
#[async_trait]
pub trait LifeSciencesClient: Send + Sync {
    /// The HTTP machinery of this source (rate limit, retries, cache, coalescing).
    fn http(&self) -> &HttpClient;

    /// The source's human name, e.g. "ChEMBL".
    fn source_name(&self) -> &str {
        &self.http().config().name
    }

    /// GET `path` (relative to the base URL, already percent-encoded) with `query`,
    /// decoded as `T`. Cached and coalesced.
    async fn get_json<T>(&self, path: &str, query: &[(&str, &str)]) -> Result<T, ApiError>
    where
        T: DeserializeOwned + Send + 'static,
    {
        self.http().get_json(path, query).await
    }

    /// POST a JSON body to `path` as an idempotent look-up, decoded as `T`. Retried and
    /// coalesced like a GET, not cached.
    async fn post_json<T, B>(&self, path: &str, body: &B) -> Result<T, ApiError>
    where
        T: DeserializeOwned + Send + 'static,
        B: Serialize + Sync + ?Sized,
    {
        self.http().post_json(path, body).await
    }

    /// POST a form (`application/x-www-form-urlencoded`) to `path` as an idempotent
    /// look-up, decoded as `T`.
    async fn post_form<T>(&self, path: &str, form: &[(&str, &str)]) -> Result<T, ApiError>
    where
        T: DeserializeOwned + Send + 'static,
    {
        self.http().post_form(path, form).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::fake_env as env;

    fn ensembl() -> SourceConfig {
        SourceConfig::new("Ensembl", "ENSEMBL", "https://rest.ensembl.org")
            .unwrap()
            .with_rate(15.0)
            .with_max_concurrent(15)
    }

    #[test]
    fn defaults_follow_the_contract() {
        let c = ensembl().from_env_with(env(&[])).unwrap();
        assert_eq!(c.base_url.as_str(), "https://rest.ensembl.org/");
        assert_eq!(c.rate_per_second, 15.0);
        assert_eq!(c.timeout, Duration::from_secs(30));
        assert_eq!(c.cache_ttl, Duration::from_secs(3600));
        assert_eq!(c.max_body_bytes, 32 * 1024 * 1024);
        assert_eq!(c.retry.max_retries, 3);
        assert_eq!(c.retry.base_delay, Duration::from_millis(500));
    }

    #[test]
    fn environment_overrides_with_or_without_trailing_slash() {
        for url in ["http://127.0.0.1:9999/mock/", "http://127.0.0.1:9999/mock"] {
            let c = ensembl()
                .from_env_with(env(&[
                    ("ENSEMBL_API_URL", url),
                    ("ENSEMBL_RATE_LIMIT", "2.5"),
                    ("LIFESCIENCES_TIMEOUT_SECS", "5"),
                    ("LIFESCIENCES_CACHE_TTL_SECS", "0"),
                ]))
                .unwrap();
            assert_eq!(c.base_url.as_str(), "http://127.0.0.1:9999/mock");
            assert_eq!(c.rate_per_second, 2.5);
            assert_eq!(c.timeout, Duration::from_secs(5));
            assert_eq!(c.cache_ttl, Duration::ZERO);
        }
    }

    #[test]
    fn bad_values_name_the_variable_and_the_expected_form() {
        let cases = [
            ("ENSEMBL_API_URL", "rest.ensembl.org"),
            ("ENSEMBL_API_URL", "ftp://x"),
            ("ENSEMBL_RATE_LIMIT", "fast"),
            ("ENSEMBL_RATE_LIMIT", "0"),
            ("ENSEMBL_RATE_LIMIT", "1e-300"),
            ("LIFESCIENCES_TIMEOUT_SECS", "-1"),
            ("LIFESCIENCES_TIMEOUT_SECS", "1e-12"),
            ("ENSEMBL_TIMEOUT_SECS", "0"),
            ("ENSEMBL_MAX_CONCURRENT", "0"),
            ("LIFESCIENCES_CACHE_TTL_SECS", "NaN"),
            ("ENSEMBL_API_URL", "https://example.org/api?key=abc"),
            ("ENSEMBL_API_URL", "https://example.org/api#top"),
        ];
        for (var, value) in cases {
            let err = ensembl().from_env_with(env(&[(var, value)])).unwrap_err();
            let text = err.to_string();
            assert!(text.starts_with(var), "{text}");
            assert!(text.contains("expected"), "{text}");
        }
    }

    #[test]
    fn a_source_with_its_own_timeout_is_never_lengthened_by_the_global_one() {
        let unichem = || {
            SourceConfig::new("UniChem", "UNICHEM", "https://www.ebi.ac.uk/unichem/api/v1")
                .unwrap()
                .with_timeout(Duration::from_secs(5))
        };
        let global = env(&[("LIFESCIENCES_TIMEOUT_SECS", "60")]);
        assert_eq!(
            unichem().from_env_with(&global).unwrap().timeout,
            Duration::from_secs(5)
        );
        assert_eq!(
            ensembl().from_env_with(&global).unwrap().timeout,
            Duration::from_secs(60)
        );
        let own = env(&[
            ("LIFESCIENCES_TIMEOUT_SECS", "60"),
            ("UNICHEM_TIMEOUT_SECS", "12"),
        ]);
        assert_eq!(
            unichem().from_env_with(own).unwrap().timeout,
            Duration::from_secs(12)
        );
        let c = ensembl()
            .from_env_with(env(&[("ENSEMBL_MAX_CONCURRENT", "4")]))
            .unwrap();
        assert_eq!(c.max_concurrent, 4);
    }

    #[test]
    fn programmatic_extremes_are_clamped_not_fatal() {
        let c = ensembl().with_rate(1e-300).with_timeout(Duration::ZERO);
        assert_eq!(c.rate_per_second, 0.01);
        assert_eq!(c.timeout, Duration::from_millis(100));
        assert!(crate::HttpClient::new(c).is_ok());
    }

    #[test]
    fn blank_variables_are_ignored() {
        let c = ensembl()
            .from_env_with(env(&[("ENSEMBL_API_URL", "  ")]))
            .unwrap();
        assert_eq!(c.base_url.host_str(), Some("rest.ensembl.org"));
    }
}
