//! Building the one `reqwest::Client` of a source: redirects followed only within the
//! upstream, the User-Agent, timeouts and pool, the proxies and extra roots of the
//! network configuration.

use std::time::Duration;

use url::Url;

use crate::config::{Network, Proxies, SourceConfig};

/// Most redirects followed for one request.
const MAX_REDIRECTS: usize = 3;

/// Redirects are followed only within the configured upstream: the same host and port,
/// or an `http` → `https` upgrade of the same host, at most [`MAX_REDIRECTS`] hops. A
/// redirect anywhere else is refused without a request (and without a DNS look-up), and
/// the call fails naming where it was sent.
fn redirect_policy(base: &Url) -> reqwest::redirect::Policy {
    let host = base.host_str().map(str::to_ascii_lowercase);
    let scheme = base.scheme().to_owned();
    let port = base.port_or_known_default();
    reqwest::redirect::Policy::custom(move |attempt| {
        let next = attempt.url();
        let same_host = next.host_str().map(str::to_ascii_lowercase) == host;
        let same_origin = next.scheme() == scheme && next.port_or_known_default() == port;
        let upgrade = scheme == "http" && next.scheme() == "https" && next.port().is_none();
        if attempt.previous().len() > MAX_REDIRECTS {
            let refused = format!("more than {MAX_REDIRECTS} redirects, the last to {next}");
            attempt.error(refused)
        } else if same_host && (same_origin || upgrade) {
            attempt.follow()
        } else {
            let refused = format!("refused redirect to {next}");
            attempt.error(refused)
        }
    })
}

#[expect(
    clippy::disallowed_methods,
    reason = "the one place in the workspace that builds an HTTP client"
)]
pub(super) fn build_reqwest(config: &SourceConfig) -> Result<reqwest::Client, String> {
    // rustls's cryptography: ring, chosen in the workspace manifest (reqwest would
    // otherwise bring aws-lc-rs and its C build). Installed once per process; a provider
    // installed first (by an embedding program) is kept.
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
    let builder = reqwest::Client::builder()
        .redirect(if config.upstream.follow_redirects {
            redirect_policy(&config.base_url)
        } else {
            // The source's client reads each redirect itself (see `Upstream::follow_redirects`).
            reqwest::redirect::Policy::none()
        })
        .user_agent(config.user_agent.clone())
        .connect_timeout(config.timeout.min(Duration::from_secs(10)))
        .pool_max_idle_per_host(config.max_concurrent.max(1))
        .pool_idle_timeout(Duration::from_secs(90));
    with_network(builder, &config.network)?
        .build()
        .map_err(|e| {
            format!(
                "cannot set up the HTTP client (TLS): {}",
                crate::error::error_chain(&e)
            )
        })
}

/// The proxies and extra roots of `network` on `builder`. Proxies named by variables are
/// set explicitly (which stops reqwest from reading the environment itself); when the
/// variables hold only placeholders, no proxy is used, so reqwest never reads a
/// placeholder; when none is set at all, reqwest's own look-up stays on for the system
/// proxy settings of macOS and Windows. Extra roots are trusted besides the platform's
/// (rustls-platform-verifier's roots: the OS verifier on macOS and Windows, the system CA
/// bundle on Linux).
fn with_network(
    mut builder: reqwest::ClientBuilder,
    network: &Network,
) -> Result<reqwest::ClientBuilder, String> {
    match &network.proxies {
        Proxies::System => {}
        Proxies::Direct => builder = builder.no_proxy(),
        Proxies::Explicit(named) => {
            let no_proxy = named
                .no_proxy
                .as_deref()
                .and_then(reqwest::NoProxy::from_string);
            // reqwest tries proxies in order: the scheme's own variable wins over ALL_PROXY.
            let routes = [
                named
                    .https
                    .as_ref()
                    .map(|p| (p, reqwest::Proxy::https(p.url.clone()))),
                named
                    .http
                    .as_ref()
                    .map(|p| (p, reqwest::Proxy::http(p.url.clone()))),
                named
                    .all
                    .as_ref()
                    .map(|p| (p, reqwest::Proxy::all(p.url.clone()))),
            ];
            for (named, made) in routes.into_iter().flatten() {
                let proxy =
                    made.map_err(|e| format!("{}: cannot use the proxy: {e}", named.var))?;
                builder = builder.proxy(proxy.no_proxy(no_proxy.clone()));
            }
        }
    }
    if let Some(roots) = &network.extra_roots {
        let certificates = roots
            .certificates
            .iter()
            .map(|der| reqwest::Certificate::from_der(der))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{}: {e}", roots.file.display()))?;
        builder = builder.tls_certs_merge(certificates);
    }
    Ok(builder)
}
