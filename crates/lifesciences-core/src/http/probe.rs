//! `<bin> check`: the source's health check sent once, and why it got no answer in terms
//! a user can act on (DNS, TLS, proxy, connection, timeout, status).

use std::time::Duration;

use reqwest::header::ACCEPT;
use url::Url;

use super::{HttpClient, JSON};
use crate::config::Proxies;

impl HttpClient {
    /// Send the source's health check once (no cache, no retries, but within its rate
    /// and concurrency limits) and say whether the upstream answered, how fast, and if
    /// not, why: DNS, TLS, proxy, connection, timeout or the HTTP status. What
    /// `<bin> check` prints.
    pub async fn probe(&self) -> Probe {
        let config = &self.inner.config;
        let health = config.upstream.health;
        let url = match self.url(health.path, health.query) {
            Ok(url) => url,
            Err(e) => {
                return Probe {
                    source: config.name(),
                    url: format!("{}/{}", self.inner.base, health.path),
                    outcome: Err(e.to_string()),
                    latency: Duration::ZERO,
                };
            }
        };
        let started = std::time::Instant::now();
        let outcome = self.probe_once(&url).await;
        Probe {
            source: config.name(),
            url: url.to_string(),
            outcome,
            latency: started.elapsed(),
        }
    }

    async fn probe_once(&self, url: &Url) -> Result<u16, String> {
        let config = &self.inner.config;
        let client = self.reqwest().map_err(ToOwned::to_owned)?;
        let _slot = self
            .inner
            .permits
            .acquire()
            .await
            .map_err(|_| "the client is shutting down".to_owned())?;
        let permit = self
            .inner
            .budget
            .permit(Duration::ZERO)
            .await
            .map_err(|failure| {
                format!(
                    "not sent: the upstream asked to wait ({})",
                    failure.summary()
                )
            })?;
        let sent = client
            .get(url.clone())
            .timeout(config.timeout)
            .header(ACCEPT, JSON)
            .send()
            .await;
        drop(permit);
        let response =
            sent.map_err(|e| probe_failure(&e, url, config.timeout, &config.network.proxies))?;
        let status = response.status();
        if status.is_success() {
            Ok(status.as_u16())
        } else {
            Err(format!("HTTP {status}"))
        }
    }
}

/// What one health check found (see [`HttpClient::probe`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The source's name, e.g. "Ensembl".
    pub source: &'static str,
    /// The URL requested.
    pub url: String,
    /// The HTTP status of a success, or why the upstream could not be reached.
    pub outcome: Result<u16, String>,
    /// From the start of the request to the response headers (or the failure).
    pub latency: Duration,
}

/// Why a health check got no answer, in the terms a user can act on.
fn probe_failure(
    error: &reqwest::Error,
    url: &Url,
    timeout: Duration,
    proxies: &Proxies,
) -> String {
    let chain = crate::error::error_chain(error);
    let lower = chain.to_lowercase();
    let host = url.host_str().unwrap_or_default();
    if error.is_timeout() {
        return format!("timeout: no answer within {:.1} s", timeout.as_secs_f64());
    }
    let proxy = proxies.for_scheme(url.scheme());
    let reason = if lower.contains("dns error")
        || lower.contains("failed to lookup address")
        || lower.contains("name or service not known")
        || lower.contains("no such host")
    {
        format!("DNS: cannot resolve {host}")
    } else if lower.contains("certificate") || lower.contains("tls") || lower.contains("handshake")
    {
        format!("TLS: the secure connection to {host} failed")
    } else if lower.contains("connection refused") {
        format!("connection refused by {host}")
    } else if error.is_connect() {
        format!("cannot connect to {host}")
    } else {
        "the connection broke".to_owned()
    };
    // The proxy the variables name for this scheme: what the request went through,
    // unless `NO_PROXY` let it go direct. Never with its password.
    match proxy {
        Some(proxy) if error.is_connect() => {
            format!(
                "proxy: {reason} through {}={} ({chain})",
                proxy.var,
                proxy.shown()
            )
        }
        _ => format!("{reason} ({chain})"),
    }
}
