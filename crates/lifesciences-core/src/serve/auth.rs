//! Who is calling over HTTP: every request to `/mcp` is authenticated before anything
//! else reads it, by a static token (a file of named principals, `tokens.rs`) or by an
//! access token of the configured issuer (a JWT, `jwt.rs`, verified with the issuer's
//! keys, `keys.rs` and `issuer.rs`), and is then a [`Principal`] in the request's
//! extensions, which `Served` runs the request's tool calls on behalf of and the
//! transport's guard binds sessions to. Without either mechanism configured every request
//! is [`Principal::anonymous`]. As an OAuth 2.1 resource server (the MCP authorization
//! specification) it serves its protected-resource metadata (RFC 9728) and answers 401
//! with the challenge that points to it, or 403 naming the scopes a token lacks.
//!
//! **Invariant:** no token goes further than this module: the `Authorization` header is
//! taken off every request before the guard and rmcp see it (so no tool, upstream or log
//! line can meet it), a token in the URL is refused, and logs name a principal and the
//! first 8 hexadecimal digits of its token's SHA-256 only.
//!
//! **Invariant:** the issuer and the audience of every token are checked, with no switch
//! to turn either off: a server configured with an issuer is configured with its own
//! public URL, which tokens must name in `aud`.

mod issuer;
mod jwt;
mod keys;
mod rate;
mod tokens;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};
use tokio_util::sync::CancellationToken;
use url::Url;

pub use issuer::ISSUER;
use jwt::{Invalid, Rules, Token};
use keys::{Found, KeyCache};
use tokens::StaticTokens;

use crate::client::Env;
use crate::config::{self, ConfigError};
use crate::principal::Principal;

/// `LIFESCIENCES_AUTH_ISSUER`: the issuer whose access tokens are accepted, exactly as its
/// tokens name it in `iss`.
pub const ISSUER_VAR: &str = "LIFESCIENCES_AUTH_ISSUER";
/// `LIFESCIENCES_PUBLIC_URL`: the URL clients reach the MCP endpoint at, which tokens must
/// name in `aud`.
pub const PUBLIC_URL_VAR: &str = "LIFESCIENCES_PUBLIC_URL";
/// `LIFESCIENCES_AUTH_SCOPES`: scopes every access token must carry.
pub const SCOPES_VAR: &str = "LIFESCIENCES_AUTH_SCOPES";
/// `LIFESCIENCES_AUTH_ACCEPT_TYP_JWT`: `1` also accepts tokens typed `JWT` (or untyped).
pub const ACCEPT_TYP_JWT_VAR: &str = "LIFESCIENCES_AUTH_ACCEPT_TYP_JWT";
/// `LIFESCIENCES_AUTH_TOKENS_FILE`: the static tokens file.
pub const TOKENS_FILE_VAR: &str = "LIFESCIENCES_AUTH_TOKENS_FILE";
/// `LIFESCIENCES_AUTH_RATE_LIMIT`: HTTP requests per second per principal.
pub const RATE_VAR: &str = "LIFESCIENCES_AUTH_RATE_LIMIT";

/// The clock difference tolerated on a token's `exp` and `nbf`.
pub const LEEWAY: Duration = Duration::from_secs(30);
/// The well-known path of the protected-resource metadata (RFC 9728).
const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// How a request's session is bound to its caller: the principal's name, with the
/// mechanism that established it (`token:ada`, `issuer:<sub>`, or `anonymous`), so a
/// static token's name and a subject of the issuer never share a session.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Owner(pub(crate) Arc<str>);

impl Owner {
    pub(crate) fn anonymous() -> Self {
        Self(Arc::from("anonymous"))
    }
}

/// Authentication of HTTP requests, as configured: static tokens, an issuer, or both;
/// and the request rate each principal is held to.
#[derive(Debug)]
pub struct Auth {
    tokens: Option<Arc<StaticTokens>>,
    oidc: Option<Oidc>,
    rate: rate::RequestRate,
    /// When a principal over its rate was last logged (seconds since the epoch).
    warned_rate: AtomicU64,
}

/// The issuer's tokens: what they must say, the issuer's keys, and this server as a
/// protected resource.
#[derive(Debug)]
struct Oidc {
    rules: Rules,
    /// Whether `typ: JWT` (or no `typ`) passes.
    typ_jwt: bool,
    issuer: Arc<issuer::Issuer>,
    keys: Arc<KeyCache<Arc<issuer::Issuer>>>,
    /// The resource (this server's public MCP URL).
    resource: Url,
}

/// A caller as authentication established it.
#[derive(Debug, Clone)]
struct Caller {
    principal: Principal,
    owner: Owner,
}

/// Why a request is not let in.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Refusal {
    /// No bearer token: 401 with the challenge alone.
    Missing,
    /// A credential sent the wrong way: 400 `invalid_request`.
    BadRequest(&'static str),
    /// A bearer token that is not valid: 401 `invalid_token`.
    Invalid(Invalid),
    /// A valid token without every required scope: 403 `insufficient_scope`, naming the
    /// missing ones.
    Scope(Vec<String>),
}

impl From<Invalid> for Refusal {
    fn from(invalid: Invalid) -> Self {
        Self::Invalid(invalid)
    }
}

impl Auth {
    /// Authentication as the environment configures it; `None` when neither an issuer nor
    /// a static tokens file is set. The issuer is not asked anything here (its keys are
    /// fetched on the first token), so a start never waits for it; a tokens file is read
    /// now, and one that cannot be used is a configuration error.
    pub fn from_env(env: &Env) -> Result<Option<Self>, ConfigError> {
        let issuer = env.var(ISSUER_VAR).map(|v| v.trim().to_owned());
        let public = env.var(PUBLIC_URL_VAR).map(|v| v.trim().to_owned());
        let tokens_file = env.var(TOKENS_FILE_VAR).map(|v| PathBuf::from(v.trim()));
        let needs_issuer = |set: &str| ConfigError::Needs {
            set: set.to_owned(),
            missing: ISSUER_VAR.to_owned(),
            why: "it applies to the issuer's access tokens".to_owned(),
        };
        let oidc = match (issuer, public) {
            (Some(issuer), Some(public)) => Some(Oidc::new(env, &issuer, &public)?),
            (Some(_), None) => {
                return Err(ConfigError::Needs {
                    set: ISSUER_VAR.to_owned(),
                    missing: PUBLIC_URL_VAR.to_owned(),
                    why: "the issuer's tokens must be issued for this server, named by the URL \
                          clients reach its MCP endpoint at (https://mcp.example.org/mcp)"
                        .to_owned(),
                });
            }
            (None, Some(_)) => return Err(needs_issuer(PUBLIC_URL_VAR)),
            (None, None) => {
                for var in [SCOPES_VAR, ACCEPT_TYP_JWT_VAR] {
                    if env.var(var).is_some() {
                        return Err(needs_issuer(var));
                    }
                }
                None
            }
        };
        let tokens = tokens_file
            .map(|file| {
                StaticTokens::open(&file).map_err(|problem| ConfigError::File {
                    var: TOKENS_FILE_VAR.to_owned(),
                    file: file.display().to_string(),
                    problem,
                })
            })
            .transpose()?
            .map(Arc::new);
        if oidc.is_none() && tokens.is_none() {
            if env.var(RATE_VAR).is_some() {
                return Err(ConfigError::Needs {
                    set: RATE_VAR.to_owned(),
                    missing: format!("{TOKENS_FILE_VAR} or {ISSUER_VAR}"),
                    why: "it is the rate of each authenticated principal".to_owned(),
                });
            }
            return Ok(None);
        }
        let per_second = env
            .var(RATE_VAR)
            .map(|raw| config::parse_number(RATE_VAR, &raw, 0.1..=10_000.0))
            .transpose()?
            .unwrap_or(rate::DEFAULT_PER_SECOND);
        Ok(Some(Self {
            tokens,
            oidc,
            rate: rate::RequestRate::new(per_second),
            warned_rate: AtomicU64::new(0),
        }))
    }

    /// The same, fetching the issuer's keys again for an unknown `kid` at most once per
    /// `interval` instead of 10 s (tests of key rotation). Only before the first request.
    #[must_use]
    pub fn with_refetch_after(mut self, interval: Duration) -> Self {
        if let Some(oidc) = &mut self.oidc {
            oidc.keys = Arc::new(KeyCache::new(Arc::clone(&oidc.issuer), interval));
        }
        self
    }

    /// The mechanisms configured, for the start-up line.
    pub(super) fn mechanisms(&self) -> &'static str {
        match (&self.tokens, &self.oidc) {
            (Some(_), Some(_)) => "static tokens and the issuer's access tokens",
            (Some(_), None) => "static tokens",
            (None, _) => "the issuer's access tokens",
        }
    }

    /// Look at the static tokens file every second until `stop` (nothing without one).
    pub(super) fn watch(&self, stop: CancellationToken) {
        if let Some(tokens) = &self.tokens {
            tokio::spawn(Arc::clone(tokens).watch(stop));
        }
    }

    /// Who sent `headers`' credential.
    async fn caller(&self, headers: &HeaderMap) -> Result<Caller, Refusal> {
        let token = bearer(headers)?.ok_or(Refusal::Missing)?;
        let digest = tokens::digest(token);
        let prefix = tokens::prefix(&digest);
        if let Some((name, weight)) = self.tokens.as_ref().and_then(|t| t.find(&digest)) {
            // Named by mechanism too, as the session owner is: a static token called
            // `ada` and an issuer's subject `ada` are two principals with two fair shares.
            let owner = Owner(Arc::from(format!("token:{name}")));
            return Ok(Caller {
                principal: Principal::named(Arc::clone(&owner.0), weight, prefix),
                owner,
            });
        }
        let Some(oidc) = &self.oidc else {
            return Err(Refusal::Invalid(Invalid::Unknown));
        };
        let subject = oidc.verify(token).await.map_err(|refusal| match refusal {
            // Neither a listed static token nor a JWT: say so in those words.
            Refusal::Invalid(Invalid::NotAJwt) if self.tokens.is_some() => {
                Refusal::Invalid(Invalid::Unknown)
            }
            other => other,
        })?;
        let owner = Owner(Arc::from(format!("issuer:{subject}")));
        Ok(Caller {
            principal: Principal::named(Arc::clone(&owner.0), 1, prefix),
            owner,
        })
    }

    /// The answer to a request refused: the status, the challenge, and a JSON-RPC error.
    fn refuse(&self, refusal: &Refusal) -> Response {
        let metadata = self.oidc.as_ref().map(Oidc::metadata_url);
        let mut challenge = String::from("Bearer");
        let mut params: Vec<(&str, String)> = Vec::new();
        let (status, message) = match refusal {
            Refusal::Missing => {
                if let Some(oidc) = &self.oidc
                    && !oidc.rules.scopes.is_empty()
                {
                    params.push(("scope", oidc.rules.scopes.join(" ")));
                }
                (
                    StatusCode::UNAUTHORIZED,
                    "authentication required: send an access token as `Authorization: Bearer \
                     <token>`"
                        .to_owned(),
                )
            }
            Refusal::BadRequest(why) => {
                params.push(("error", "invalid_request".to_owned()));
                params.push(("error_description", (*why).to_owned()));
                (StatusCode::BAD_REQUEST, (*why).to_owned())
            }
            Refusal::Invalid(Invalid::KeysUnavailable) => {
                let mut refused = super::jsonrpc::jsonrpc_error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    None,
                    Invalid::KeysUnavailable.description().to_owned(),
                );
                let wait = self
                    .oidc
                    .as_ref()
                    .map_or(10, |o| o.keys.refetch_after().as_secs().max(1));
                refused
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(wait));
                return refused;
            }
            Refusal::Invalid(invalid) => {
                params.push(("error", "invalid_token".to_owned()));
                params.push(("error_description", invalid.description().to_owned()));
                (
                    StatusCode::UNAUTHORIZED,
                    format!("the access token was refused: {}", invalid.description()),
                )
            }
            Refusal::Scope(missing) => {
                let required = self
                    .oidc
                    .as_ref()
                    .map(|o| o.rules.scopes.join(" "))
                    .unwrap_or_default();
                let description = format!("the token lacks the scope {}", missing.join(" "));
                params.push(("error", "insufficient_scope".to_owned()));
                params.push(("scope", required));
                params.push(("error_description", description.clone()));
                (StatusCode::FORBIDDEN, description)
            }
        };
        if let Some(metadata) = metadata {
            params.push(("resource_metadata", metadata));
        }
        for (n, (name, value)) in params.iter().enumerate() {
            challenge.push_str(if n == 0 { " " } else { ", " });
            challenge.push_str(&format!("{name}=\"{}\"", quoted(value)));
        }
        let mut response = super::jsonrpc::jsonrpc_error(status, None, message);
        if let Ok(value) = HeaderValue::from_str(&challenge) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, value);
        }
        response
    }

    /// 429 for a request over its rate, with how long to wait.
    fn too_many(&self, wait: Duration, who: Option<&Principal>) -> Response {
        let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        let last = self.warned_rate.load(Ordering::Relaxed);
        if now >= last + 60
            && self
                .warned_rate
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            match who {
                Some(principal) => tracing::warn!(
                    principal = %principal.name,
                    token = %principal.token_hash_prefix,
                    "a principal is over its request rate: answering 429 (logged once a minute)"
                ),
                None => tracing::warn!(
                    "unauthenticated requests are over their rate: answering 429 (logged once a minute)"
                ),
            }
        }
        let mut response = super::jsonrpc::jsonrpc_error(
            StatusCode::TOO_MANY_REQUESTS,
            None,
            format!("too many requests: retry in {secs} s"),
        );
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        response
    }

    /// The routes of the protected-resource metadata (RFC 9728), at the root well-known
    /// URL and with the resource's path inserted, each answering `GET` to any origin;
    /// none without an issuer.
    pub(super) fn metadata_routes(&self, server: &str) -> axum::Router {
        let Some(oidc) = &self.oidc else {
            return axum::Router::new();
        };
        let mut document = serde_json::json!({
            "resource": oidc.resource.as_str(),
            "authorization_servers": [oidc.rules.issuer],
            "bearer_methods_supported": ["header"],
            "resource_name": server,
        });
        if !oidc.rules.scopes.is_empty() {
            document["scopes_supported"] = oidc.rules.scopes.clone().into();
        }
        let body = document.to_string();
        let resource_path = oidc.resource.path().trim_end_matches('/');
        let mut paths = vec![
            format!("{METADATA_PATH}{resource_path}"),
            format!("{METADATA_PATH}/mcp"),
            METADATA_PATH.to_owned(),
        ];
        paths.dedup();
        let mut router = axum::Router::new();
        for path in paths {
            let body = body.clone();
            router = router.route(
                &path,
                axum::routing::get(move || {
                    let body = body.clone();
                    async move {
                        (
                            [
                                (header::CONTENT_TYPE, "application/json"),
                                (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
                                (header::CACHE_CONTROL, "public, max-age=3600"),
                            ],
                            body,
                        )
                    }
                })
                .options(preflight),
            );
        }
        router
    }
}

/// The answer to a CORS preflight of the metadata: any origin may `GET` it, with the
/// headers it asks to send.
async fn preflight(headers: HeaderMap) -> Response {
    let asked = headers
        .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .cloned()
        .unwrap_or_else(|| HeaderValue::from_static("*"));
    (
        StatusCode::NO_CONTENT,
        [
            (
                header::ACCESS_CONTROL_ALLOW_ORIGIN,
                HeaderValue::from_static("*"),
            ),
            (
                header::ACCESS_CONTROL_ALLOW_METHODS,
                HeaderValue::from_static("GET, OPTIONS"),
            ),
            (header::ACCESS_CONTROL_ALLOW_HEADERS, asked),
            (
                header::ACCESS_CONTROL_MAX_AGE,
                HeaderValue::from_static("86400"),
            ),
        ],
    )
        .into_response()
}

impl Oidc {
    fn new(env: &Env, issuer: &str, public: &str) -> Result<Self, ConfigError> {
        let invalid = |var: &str, value: &str, expected: &str| ConfigError::InvalidVar {
            var: var.to_owned(),
            value: value.to_owned(),
            expected: expected.to_owned(),
        };
        let issuer_url = Url::parse(issuer)
            .ok()
            .filter(|u| issuer::fetchable(u) && u.query().is_none() && u.fragment().is_none())
            .ok_or_else(|| {
                invalid(
                    ISSUER_VAR,
                    issuer,
                    "the issuer's URL exactly as its tokens say in `iss`, https (http only on a \
                     loopback address), such as https://id.example.org/realms/lab",
                )
            })?;
        let mut resource = Url::parse(public)
            .ok()
            .filter(|u| {
                matches!(u.scheme(), "http" | "https")
                    && u.host().is_some()
                    && u.query().is_none()
                    && u.fragment().is_none()
            })
            .ok_or_else(|| {
                invalid(
                    PUBLIC_URL_VAR,
                    public,
                    "the URL clients reach the MCP endpoint at, such as https://mcp.example.org/mcp",
                )
            })?;
        if resource.path() == "/" {
            resource.set_path("/mcp");
        }
        let scopes: Vec<String> = env
            .var(SCOPES_VAR)
            .unwrap_or_default()
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        if let Some(bad) = scopes.iter().find(|s| {
            s.chars()
                .any(|c| !c.is_ascii_graphic() || c == '"' || c == '\\')
        }) {
            return Err(invalid(
                SCOPES_VAR,
                bad,
                "scopes separated by spaces or commas, each printable ASCII without quotes",
            ));
        }
        let typ_jwt = match env.var(ACCEPT_TYP_JWT_VAR) {
            Some(raw) => config::parse_switch(ACCEPT_TYP_JWT_VAR, &raw)?,
            None => false,
        };
        let issuer_client = Arc::new(issuer::Issuer::new(issuer, issuer_url, env.network()?));
        let keys = Arc::new(KeyCache::new(
            Arc::clone(&issuer_client),
            keys::REFETCH_AFTER,
        ));
        Ok(Self {
            rules: Rules {
                issuer: issuer.to_owned(),
                audience: resource.as_str().to_owned(),
                scopes,
                leeway: LEEWAY,
            },
            typ_jwt,
            issuer: issuer_client,
            keys,
            resource,
        })
    }

    /// The URL of this server's protected-resource metadata: the well-known path with the
    /// resource's path inserted (RFC 9728).
    fn metadata_url(&self) -> String {
        format!(
            "{}{METADATA_PATH}{}",
            self.resource.origin().ascii_serialization(),
            self.resource.path().trim_end_matches('/')
        )
    }

    /// Verify an access token: its header, the issuer's signature on it, then its
    /// claims. Its subject, when it is valid and carries the scopes.
    async fn verify(&self, token: &str) -> Result<String, Refusal> {
        let read = Token::read(token, self.typ_jwt)?;
        let keys = match self.keys.keys_for(&read.kid).await {
            Found::Keys(keys) => keys,
            Found::Unknown => return Err(Invalid::UnknownKey.into()),
            Found::Unavailable => return Err(Invalid::KeysUnavailable.into()),
        };
        let usable: Vec<_> = keys.iter().filter(|k| k.agrees_with(read.alg)).collect();
        if usable.is_empty() {
            return Err(Invalid::UnknownKey.into());
        }
        if !usable
            .iter()
            .any(|key| key.verifies(read.alg, read.signed, &read.signature))
        {
            return Err(Invalid::Signature.into());
        }
        let claims = read.claims()?;
        let passed = self.rules.check_claims(&claims, SystemTime::now())?;
        if !passed.missing_scopes.is_empty() {
            return Err(Refusal::Scope(passed.missing_scopes));
        }
        Ok(passed.subject)
    }
}

/// The bearer token of `headers`: `None` without an `Authorization` header or with
/// another scheme; refused when there are several, or it is not `Bearer <token68>`.
fn bearer(headers: &HeaderMap) -> Result<Option<&str>, Refusal> {
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(Refusal::BadRequest(
            "send one Authorization header, not several",
        ));
    }
    let Ok(value) = value.to_str() else {
        return Err(Invalid::NotAJwt.into());
    };
    let (scheme, token) = value.trim().split_once(' ').unwrap_or((value.trim(), ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Ok(None);
    }
    let token = token.trim();
    // RFC 6750's b64token: letters, digits and -._~+/ then any `=`.
    let body = token.trim_end_matches('=');
    if body.is_empty()
        || !body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
    {
        return Err(Invalid::NotAJwt.into());
    }
    Ok(Some(token))
}

/// Whether the request's URL carries a token (`access_token`, RFC 6750's query form),
/// which is refused: URLs end up in logs.
fn token_in_url(uri: &axum::http::Uri) -> bool {
    uri.query().is_some_and(|query| {
        url::form_urlencoded::parse(query.as_bytes())
            .any(|(name, _)| name.eq_ignore_ascii_case("access_token"))
    })
}

/// `value` as the inside of a quoted string (no quote or backslash).
fn quoted(value: &str) -> String {
    value
        .chars()
        .filter(|c| *c != '"' && *c != '\\' && !c.is_control())
        .collect()
}

/// The middleware in front of `/mcp`: authenticate (or take every request as anonymous
/// without `auth`), hold each principal to its rate, and hand the request on without its
/// `Authorization` header, with its [`Principal`] and [`Owner`] in its extensions.
pub(super) async fn authenticate(
    auth: Option<&Auth>,
    mut request: Request,
    next: Next,
) -> Response {
    if token_in_url(request.uri()) {
        let refusal = Refusal::BadRequest(
            "send the access token in the Authorization header, never in the URL",
        );
        return match auth {
            Some(auth) => match auth.rate.take_unauthenticated() {
                Ok(()) => auth.refuse(&refusal),
                Err(wait) => auth.too_many(wait, None),
            },
            None => super::jsonrpc::jsonrpc_error(
                StatusCode::BAD_REQUEST,
                None,
                "send credentials in the Authorization header, never in the URL".to_owned(),
            ),
        };
    }
    // A browser's CORS preflight carries no credential by design; it reaches nothing
    // that answers on anyone's behalf.
    let preflight = request.method() == Method::OPTIONS;
    let caller = match auth {
        _ if preflight => Caller {
            principal: Principal::anonymous(),
            owner: Owner::anonymous(),
        },
        None => Caller {
            principal: Principal::anonymous(),
            owner: Owner::anonymous(),
        },
        Some(auth) => match auth.caller(request.headers()).await {
            Ok(caller) => {
                if let Err(wait) = auth.rate.take(&caller.owner.0) {
                    return auth.too_many(wait, Some(&caller.principal));
                }
                caller
            }
            Err(refusal) => {
                if let Err(wait) = auth.rate.take_unauthenticated() {
                    return auth.too_many(wait, None);
                }
                log_refusal(&refusal, request.headers());
                return auth.refuse(&refusal);
            }
        },
    };
    request.headers_mut().remove(header::AUTHORIZATION);
    request.extensions_mut().insert(caller.principal);
    request.extensions_mut().insert(caller.owner);
    next.run(request).await
}

/// One debug line per refused request: why, and which token by its digest's prefix.
fn log_refusal(refusal: &Refusal, headers: &HeaderMap) {
    let token = bearer(headers)
        .ok()
        .flatten()
        .map(|t| tokens::prefix(&tokens::digest(t)))
        .unwrap_or_default();
    match refusal {
        Refusal::Missing => tracing::debug!("request without a bearer token: 401"),
        Refusal::BadRequest(why) => tracing::debug!(reason = why, "request refused: 400"),
        Refusal::Invalid(invalid) => tracing::debug!(
            token = %token,
            reason = invalid.description(),
            "access token refused: 401"
        ),
        Refusal::Scope(missing) => tracing::debug!(
            token = %token,
            missing = %missing.join(" "),
            "access token without the scopes: 403"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for value in values {
            map.append(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn a_bearer_token_is_read_from_one_authorization_header() {
        assert_eq!(bearer(&headers(&[])), Ok(None));
        assert_eq!(
            bearer(&headers(&["Bearer abc.def-ghi_~+/=="])),
            Ok(Some("abc.def-ghi_~+/=="))
        );
        assert_eq!(bearer(&headers(&["bearer  abc "])), Ok(Some("abc")));
        assert_eq!(
            bearer(&headers(&["Basic dXNlcjpwYXNz"])),
            Ok(None),
            "another scheme"
        );
        for malformed in [
            "Bearer",
            "Bearer ",
            "Bearer a b",
            "Bearer a\"b",
            "Bearer ===",
        ] {
            assert_eq!(
                bearer(&headers(&[malformed])),
                Err(Refusal::Invalid(Invalid::NotAJwt)),
                "{malformed:?}"
            );
        }
        assert!(matches!(
            bearer(&headers(&["Bearer a", "Bearer b"])),
            Err(Refusal::BadRequest(_))
        ));
    }

    #[test]
    fn a_token_in_the_url_is_seen_whatever_its_case() {
        for (uri, found) in [
            ("/mcp", false),
            ("/mcp?access_token=abc", true),
            ("/mcp?x=1&Access_Token=abc", true),
            ("/mcp?access%5Ftoken=abc", true),
            ("/mcp?token=abc", false),
        ] {
            assert_eq!(token_in_url(&uri.parse().unwrap()), found, "{uri}");
        }
    }

    #[test]
    fn the_issuer_and_the_public_url_go_together() {
        let from =
            |pairs: &[(&str, &str)]| Auth::from_env(&Env::from_pairs(pairs)).map(|a| a.is_some());
        assert_eq!(from(&[]), Ok(false));
        let alone = from(&[(ISSUER_VAR, "https://id.example.org/realms/lab")]).unwrap_err();
        assert!(
            alone.to_string().contains("LIFESCIENCES_PUBLIC_URL is not"),
            "{alone}"
        );
        assert!(from(&[(PUBLIC_URL_VAR, "https://mcp.example.org/mcp")]).is_err());
        assert!(from(&[(SCOPES_VAR, "mcp")]).is_err());
        assert!(from(&[(RATE_VAR, "5")]).is_err());
        assert_eq!(
            from(&[
                (ISSUER_VAR, "https://id.example.org/realms/lab"),
                (PUBLIC_URL_VAR, "https://mcp.example.org/mcp"),
            ]),
            Ok(true)
        );
        for (issuer, public) in [
            (
                "http://id.example.org/realms/lab",
                "https://mcp.example.org/mcp",
            ),
            (
                "https://id.example.org/?realm=lab",
                "https://mcp.example.org/mcp",
            ),
            ("id.example.org", "https://mcp.example.org/mcp"),
            ("https://id.example.org", "mcp.example.org/mcp"),
            ("https://id.example.org", "https://mcp.example.org/mcp?x=1"),
        ] {
            let refused = from(&[(ISSUER_VAR, issuer), (PUBLIC_URL_VAR, public)]).unwrap_err();
            assert!(refused.to_string().contains("is not valid"), "{refused}");
        }
        let rate = from(&[
            (ISSUER_VAR, "https://id.example.org"),
            (PUBLIC_URL_VAR, "https://mcp.example.org"),
            (RATE_VAR, "fast"),
        ]);
        assert!(rate.is_err());
    }

    #[test]
    fn the_resource_defaults_to_the_mcp_path_and_names_its_metadata() {
        let auth = Auth::from_env(&Env::from_pairs(&[
            (ISSUER_VAR, "https://id.example.org/realms/lab"),
            (PUBLIC_URL_VAR, "https://mcp.example.org"),
        ]))
        .unwrap()
        .unwrap();
        let oidc = auth.oidc.as_ref().unwrap();
        assert_eq!(oidc.rules.audience, "https://mcp.example.org/mcp");
        assert_eq!(
            oidc.metadata_url(),
            "https://mcp.example.org/.well-known/oauth-protected-resource/mcp"
        );
    }

    #[test]
    fn challenges_name_the_metadata_and_what_went_wrong() {
        let auth = Auth::from_env(&Env::from_pairs(&[
            (ISSUER_VAR, "https://id.example.org/realms/lab"),
            (PUBLIC_URL_VAR, "https://mcp.example.org/mcp"),
            (SCOPES_VAR, "mcp:tools, mcp:read"),
        ]))
        .unwrap()
        .unwrap();
        let challenge = |refusal: Refusal| {
            let response = auth.refuse(&refusal);
            (
                response.status().as_u16(),
                response.headers()[header::WWW_AUTHENTICATE]
                    .to_str()
                    .unwrap()
                    .to_owned(),
            )
        };
        let metadata = "resource_metadata=\"https://mcp.example.org/.well-known/oauth-protected-resource/mcp\"";
        assert_eq!(
            challenge(Refusal::Missing),
            (
                401,
                format!("Bearer scope=\"mcp:tools mcp:read\", {metadata}")
            )
        );
        assert_eq!(
            challenge(Refusal::Invalid(Invalid::Expired)),
            (
                401,
                format!(
                    "Bearer error=\"invalid_token\", error_description=\"the token has expired\", {metadata}"
                )
            )
        );
        assert_eq!(
            challenge(Refusal::Scope(vec!["mcp:read".to_owned()])),
            (
                403,
                format!(
                    "Bearer error=\"insufficient_scope\", scope=\"mcp:tools mcp:read\", \
                     error_description=\"the token lacks the scope mcp:read\", {metadata}"
                )
            )
        );
    }
}
