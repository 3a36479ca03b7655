//! The token issuer as an upstream: its metadata (RFC 8414, or OpenID Connect
//! discovery) and its key set (JWKS), fetched through core's [`HttpClient`] like any
//! source, described once as [`ISSUER`].
//!
//! **Invariant:** the issuer is only ever reached over HTTPS (plain HTTP only on a
//! loopback address), at URLs derived from the configured issuer and the `jwks_uri` its
//! own metadata names; nothing a token says is fetched.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde::Deserialize;
use url::Url;

use super::keys::{FetchKeys, KeySet};
use crate::config::{ConfigError, Network, RetryPolicy, SourceConfig, Upstream};
use crate::http::{Answer, HttpClient};

/// The issuer, as an upstream: asked rarely (its metadata once, its keys at most once per
/// 10 s), quickly (a request waits on the answer), never cached by the HTTP client (the
/// key cache honours the issuer's own `Cache-Control`, which is kept for it).
pub static ISSUER: Upstream = Upstream {
    about: "the OAuth issuer whose access tokens this server accepts: its metadata and keys",
    rate_per_second: 5.0,
    max_concurrent: 2,
    timeout: Some(Duration::from_secs(5)),
    retry: RetryPolicy {
        max_retries: 1,
        base_delay: Duration::from_millis(200),
        max_delay: Duration::from_secs(1),
        max_total_wait: Duration::from_secs(2),
    },
    keep_headers: &["Cache-Control"],
    ..Upstream::new(
        "token issuer",
        "LIFESCIENCES_AUTH_ISSUER",
        "https://issuer.invalid",
    )
};

/// The largest metadata or key set read.
const MAX_DOCUMENT_BYTES: u64 = 1024 * 1024;

/// An issuer URL may be fetched: `https`, or `http` on a loopback address (a test, or an
/// issuer on the same machine).
pub(crate) fn fetchable(url: &Url) -> bool {
    match url.scheme() {
        "https" => true,
        "http" => match url.host() {
            Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
            Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            None => false,
        },
        _ => false,
    }
}

/// The issuer's metadata, as far as it matters here.
#[derive(Debug, Clone, Deserialize)]
struct Metadata {
    issuer: String,
    jwks_uri: String,
}

impl Answer for Metadata {}

/// A JWKS document.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
struct Jwks(serde_json::Value);

impl Answer for Jwks {
    fn unusable(&self) -> Option<String> {
        (!self.0.get("keys").is_some_and(serde_json::Value::is_array))
            .then(|| "a key set without a `keys` list".to_owned())
    }
}

/// The issuer's key set, fetched through its metadata.
#[derive(Debug)]
pub(crate) struct Issuer {
    /// The issuer identifier as configured: what its metadata and its tokens say, exactly.
    issuer: String,
    /// The same, as a URL to fetch from.
    url: Url,
    network: Arc<Network>,
    /// One HTTP client per origin asked (the issuer's, and its key set's when elsewhere).
    clients: Mutex<Vec<HttpClient>>,
    /// The key set's URL, once the metadata named it.
    jwks_uri: Mutex<Option<Url>>,
}

impl Issuer {
    /// The issuer `issuer` (an absolute `https` URL, or `http` on a loopback address),
    /// reached through `network`. No I/O.
    pub(crate) fn new(issuer: &str, url: Url, network: Arc<Network>) -> Self {
        Self {
            issuer: issuer.to_owned(),
            url,
            network,
            clients: Mutex::new(Vec::new()),
            jwks_uri: Mutex::new(None),
        }
    }

    /// The HTTP client of `url`'s origin.
    fn client(&self, url: &Url) -> Result<HttpClient, String> {
        let origin = url.origin().ascii_serialization();
        let mut clients = self.clients.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(client) = clients
            .iter()
            .find(|c| c.config().base_url.origin().ascii_serialization() == origin)
        {
            return Ok(client.clone());
        }
        let mut config = SourceConfig::new(&ISSUER)
            .map_err(|e: ConfigError| e.to_string())?
            .with_network(Arc::clone(&self.network))
            .with_cache_ttl(Duration::ZERO)
            .with_max_body_bytes(MAX_DOCUMENT_BYTES);
        config.base_url = Url::parse(&origin).map_err(|e| format!("{origin}: {e}"))?;
        let client = HttpClient::new(config);
        clients.push(client.clone());
        Ok(client)
    }

    /// GET `url` as JSON, with the headers the issuer's description keeps; a failure
    /// says whether the issuer answered that it has no such document (a 4xx status).
    async fn get<T: Answer>(&self, url: &Url) -> Result<(T, Arc<crate::Meta>), (String, bool)> {
        let client = self.client(url).map_err(|why| (why, false))?;
        let query: Vec<(String, String)> = url.query_pairs().into_owned().collect();
        let query: Vec<(&str, &str)> = query
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        client.get_json_meta(url.path(), &query).await.map_err(|e| {
            let absent = e.upstream_status().is_some_and(|s| (400..500).contains(&s));
            (format!("{url}: {e}"), absent)
        })
    }

    /// Where the metadata may be, in the order asked: RFC 8414's URL (the well-known
    /// path inserted before the issuer's path), then OpenID Connect discovery's, inserted
    /// and then appended (where Keycloak, Auth0 and Okta serve it). The next is asked
    /// only when the issuer said it has no document at one (a 4xx status): an issuer that
    /// is down is not asked three times.
    fn metadata_urls(&self) -> Vec<Url> {
        let path = self.url.path().trim_end_matches('/');
        let at = |path: String| {
            let mut url = self.url.clone();
            url.set_path(&path);
            url.set_query(None);
            url
        };
        let mut urls = vec![
            at(format!("/.well-known/oauth-authorization-server{path}")),
            at(format!("/.well-known/openid-configuration{path}")),
            at(format!("{path}/.well-known/openid-configuration")),
        ];
        urls.dedup();
        urls
    }

    /// The key set's URL: from the metadata, once found.
    async fn jwks_uri(&self) -> Result<Url, String> {
        if let Some(known) = self
            .jwks_uri
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
        {
            return Ok(known);
        }
        let mut failures = Vec::new();
        for url in self.metadata_urls() {
            match self.get::<Metadata>(&url).await {
                Ok((metadata, _)) => {
                    let uri = self.read_metadata(&metadata)?;
                    *self.jwks_uri.lock().unwrap_or_else(PoisonError::into_inner) =
                        Some(uri.clone());
                    return Ok(uri);
                }
                Err((why, absent)) => {
                    failures.push(why);
                    if !absent {
                        break;
                    }
                }
            }
        }
        Err(format!(
            "no metadata found for the issuer {}: {}",
            self.issuer,
            failures.join("; ")
        ))
    }

    /// Check what the metadata says: it is this issuer's (RFC 8414 asks a client to
    /// compare), and its key set may be fetched.
    fn read_metadata(&self, metadata: &Metadata) -> Result<Url, String> {
        if metadata.issuer != self.issuer {
            return Err(format!(
                "the issuer's metadata names the issuer {:?}, not {:?}: set \
                 LIFESCIENCES_AUTH_ISSUER to exactly what its tokens say in `iss`",
                metadata.issuer, self.issuer
            ));
        }
        let uri = Url::parse(&metadata.jwks_uri)
            .map_err(|e| format!("the issuer's jwks_uri {:?}: {e}", metadata.jwks_uri))?;
        if !fetchable(&uri) {
            return Err(format!(
                "the issuer's jwks_uri {uri} is not https: refused (http only on a loopback address)"
            ));
        }
        Ok(uri)
    }
}

impl FetchKeys for Arc<Issuer> {
    async fn fetch(&self) -> Result<KeySet, String> {
        let uri = self.jwks_uri().await?;
        let fetched = self.get::<Jwks>(&uri).await;
        let (jwks, meta) = match fetched {
            Ok(fetched) => fetched,
            Err((why, _)) => {
                // The key set may have moved: read the metadata again next time.
                *self.jwks_uri.lock().unwrap_or_else(PoisonError::into_inner) = None;
                return Err(why);
            }
        };
        let (mut set, skipped) = KeySet::from_jwks(&jwks.0)?;
        for why in skipped {
            tracing::warn!("the issuer's key set: {why}; that key is skipped");
        }
        set.max_age = meta.header("cache-control").and_then(max_age);
        Ok(set)
    }
}

/// `max-age` of a `Cache-Control` value; `no-cache` and `no-store` count as 0.
pub(crate) fn max_age(cache_control: &str) -> Option<Duration> {
    let mut found = None;
    for directive in cache_control.split(',').map(str::trim) {
        let (name, value) = directive.split_once('=').unwrap_or((directive, ""));
        match name.trim().to_ascii_lowercase().as_str() {
            "no-cache" | "no-store" => return Some(Duration::ZERO),
            "max-age" => {
                found = value
                    .trim()
                    .trim_matches('"')
                    .parse::<u64>()
                    .ok()
                    .map(Duration::from_secs);
            }
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_control_says_how_long_keys_may_be_used() {
        assert_eq!(
            max_age("public, max-age=600"),
            Some(Duration::from_secs(600))
        );
        assert_eq!(
            max_age("max-age=\"60\", must-revalidate"),
            Some(Duration::from_secs(60))
        );
        assert_eq!(max_age("no-store"), Some(Duration::ZERO));
        assert_eq!(max_age("max-age=600, no-cache"), Some(Duration::ZERO));
        assert_eq!(max_age("public"), None);
        assert_eq!(max_age("max-age=soon"), None);
    }

    #[test]
    fn metadata_is_looked_for_where_rfc_8414_and_oidc_put_it() {
        let issuer = |url: &str| Issuer::new(url, Url::parse(url).unwrap(), Arc::default());
        let urls: Vec<String> = issuer("https://id.example.org/realms/lab")
            .metadata_urls()
            .iter()
            .map(Url::to_string)
            .collect();
        assert_eq!(
            urls,
            [
                "https://id.example.org/.well-known/oauth-authorization-server/realms/lab",
                "https://id.example.org/.well-known/openid-configuration/realms/lab",
                "https://id.example.org/realms/lab/.well-known/openid-configuration",
            ]
        );
        let urls: Vec<String> = issuer("https://tenant.example.org/")
            .metadata_urls()
            .iter()
            .map(Url::to_string)
            .collect();
        assert_eq!(
            urls,
            [
                "https://tenant.example.org/.well-known/oauth-authorization-server",
                "https://tenant.example.org/.well-known/openid-configuration",
            ]
        );
    }

    #[test]
    fn only_https_or_loopback_http_is_fetched() {
        for (url, ok) in [
            ("https://id.example.org/realms/lab", true),
            ("http://127.0.0.1:8080/realms/lab", true),
            ("http://[::1]:8080/", true),
            ("http://localhost:8080/", true),
            ("http://id.example.org/realms/lab", false),
            ("http://10.0.0.1/", false),
            ("ftp://id.example.org/", false),
        ] {
            assert_eq!(fetchable(&Url::parse(url).unwrap()), ok, "{url}");
        }
    }

    #[test]
    fn the_metadata_must_name_this_issuer_and_an_https_key_set() {
        let issuer = Issuer::new(
            "https://id.example.org/realms/lab",
            Url::parse("https://id.example.org/realms/lab").unwrap(),
            Arc::default(),
        );
        let read = |iss: &str, jwks: &str| {
            issuer.read_metadata(&Metadata {
                issuer: iss.to_owned(),
                jwks_uri: jwks.to_owned(),
            })
        };
        assert!(
            read(
                "https://id.example.org/realms/lab",
                "https://id.example.org/certs"
            )
            .is_ok()
        );
        let other = read(
            "https://evil.example.org/realms/lab",
            "https://id.example.org/certs",
        );
        assert!(other.unwrap_err().contains("LIFESCIENCES_AUTH_ISSUER"));
        assert!(
            read(
                "https://id.example.org/realms/lab",
                "http://id.example.org/certs"
            )
            .is_err()
        );
    }
}
