//! [`TestIssuer`]: a local OAuth issuer for the authentication tests, on a mock whose
//! catch-all fails the test: its metadata (RFC 8414, or OpenID Connect discovery only, as
//! Keycloak serves it) and its key set, which a test rotates, takes down and counts the
//! requests of; and the tokens it mints ([`TokenBuilder`]), signed by its keys
//! ([`SigningKey`]: the two RSA keys committed under `tests/fixtures/issuer/`, P-256 and
//! Ed25519 keys made by ring) or by anything else a test wants to see refused.

use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::SystemRandom;
use ring::signature::{
    self, EcdsaKeyPair, Ed25519KeyPair, KeyPair as _, RsaKeyPair, RsaPublicKeyComponents,
};
use rustls::pki_types::PrivatePkcs8KeyDer;
use rustls::pki_types::pem::PemObject as _;
use serde_json::{Map, Value, json};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use super::mock::mock_upstream;
use crate::serve::auth::{ISSUER_VAR, PUBLIC_URL_VAR};

/// A test RSA key (2048 bits, PKCS #8), made with OpenSSL for these tests only.
const RSA_A: &str = include_str!("../../tests/fixtures/issuer/rsa-a.key");
/// Another one.
const RSA_B: &str = include_str!("../../tests/fixtures/issuer/rsa-b.key");

#[derive(Clone)]
enum Pair {
    Rsa(Arc<RsaKeyPair>),
    Ec(Arc<EcdsaKeyPair>),
    Ed(Arc<Ed25519KeyPair>),
}

/// A key the issuer (or an impostor) signs with: its `kid`, the algorithm it signs by,
/// and its public half as a JWK.
#[derive(Clone)]
pub struct SigningKey {
    kid: String,
    alg: &'static str,
    pair: Pair,
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey")
            .field("kid", &self.kid)
            .field("alg", &self.alg)
            .finish()
    }
}

fn rsa(pem: &str) -> Arc<RsaKeyPair> {
    let der = PrivatePkcs8KeyDer::from_pem_slice(pem.as_bytes()).expect("a PKCS #8 PEM key");
    Arc::new(RsaKeyPair::from_pkcs8(der.secret_pkcs8_der()).expect("an RSA key"))
}

impl SigningKey {
    /// The first committed RSA key, signing RS256 under `kid`.
    pub fn rsa_a(kid: &str) -> Self {
        Self {
            kid: kid.to_owned(),
            alg: "RS256",
            pair: Pair::Rsa(rsa(RSA_A)),
        }
    }

    /// The second committed RSA key, signing RS256 under `kid`.
    pub fn rsa_b(kid: &str) -> Self {
        Self {
            kid: kid.to_owned(),
            alg: "RS256",
            pair: Pair::Rsa(rsa(RSA_B)),
        }
    }

    /// The same RSA key signing PS256 instead.
    #[must_use]
    pub fn pss(mut self) -> Self {
        self.alg = "PS256";
        self
    }

    /// A new P-256 key, signing ES256 under `kid`.
    pub fn es256(kid: &str) -> Self {
        let rng = SystemRandom::new();
        let alg = &signature::ECDSA_P256_SHA256_FIXED_SIGNING;
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(alg, &rng).expect("a P-256 key");
        let pair = EcdsaKeyPair::from_pkcs8(alg, pkcs8.as_ref(), &rng).expect("a P-256 key");
        Self {
            kid: kid.to_owned(),
            alg: "ES256",
            pair: Pair::Ec(Arc::new(pair)),
        }
    }

    /// A new Ed25519 key, signing EdDSA under `kid`.
    pub fn ed25519(kid: &str) -> Self {
        let pkcs8 = Ed25519KeyPair::generate_pkcs8(&SystemRandom::new()).expect("an Ed25519 key");
        let pair = Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).expect("an Ed25519 key");
        Self {
            kid: kid.to_owned(),
            alg: "EdDSA",
            pair: Pair::Ed(Arc::new(pair)),
        }
    }

    /// Its `kid`.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The same key under another `kid` (an impostor claiming a published one).
    #[must_use]
    pub fn as_kid(mut self, kid: &str) -> Self {
        self.kid = kid.to_owned();
        self
    }

    /// Its public half as a JWK, as an issuer publishes it (with `use`, `alg` and `kid`).
    pub fn jwk(&self) -> Value {
        let b64 = |bytes: &[u8]| URL_SAFE_NO_PAD.encode(bytes);
        let mut jwk = match &self.pair {
            Pair::Rsa(pair) => {
                let public = RsaPublicKeyComponents::<Vec<u8>>::from(pair.public());
                json!({"kty": "RSA", "n": b64(&public.n), "e": b64(&public.e)})
            }
            Pair::Ec(pair) => {
                let point = pair.public_key().as_ref();
                json!({"kty": "EC", "crv": "P-256", "x": b64(&point[1..33]), "y": b64(&point[33..65])})
            }
            Pair::Ed(pair) => {
                json!({"kty": "OKP", "crv": "Ed25519", "x": b64(pair.public_key().as_ref())})
            }
        };
        jwk["kid"] = self.kid.clone().into();
        jwk["use"] = "sig".into();
        jwk["alg"] = self.alg.into();
        jwk
    }

    /// Its public half as a JWK without `alg` (an issuer that does not pin one).
    pub fn jwk_without_alg(&self) -> Value {
        let mut jwk = self.jwk();
        jwk.as_object_mut().expect("an object").remove("alg");
        jwk
    }

    fn sign(&self, message: &[u8]) -> Vec<u8> {
        let rng = SystemRandom::new();
        match &self.pair {
            Pair::Rsa(pair) => {
                let padding: &dyn signature::RsaEncoding = if self.alg == "PS256" {
                    &signature::RSA_PSS_SHA256
                } else {
                    &signature::RSA_PKCS1_SHA256
                };
                let mut out = vec![0; pair.public().modulus_len()];
                pair.sign(padding, &rng, message, &mut out)
                    .expect("RSA signing");
                out
            }
            Pair::Ec(pair) => pair
                .sign(&rng, message)
                .expect("ECDSA signing")
                .as_ref()
                .to_vec(),
            Pair::Ed(pair) => pair.sign(message).as_ref().to_vec(),
        }
    }
}

/// What the mock issuer serves and counts.
#[derive(Debug, Default)]
struct State {
    published: Vec<Value>,
    down: bool,
    cache_control: Option<String>,
    metadata_requests: usize,
    jwks_requests: usize,
}

/// Serves the metadata or the key set from [`State`], counting the requests.
struct Serving {
    state: Arc<Mutex<State>>,
    metadata: Option<Value>,
}

impl Respond for Serving {
    fn respond(&self, _request: &Request) -> ResponseTemplate {
        let mut state = self.state.lock().unwrap();
        match &self.metadata {
            Some(_) => state.metadata_requests += 1,
            None => state.jwks_requests += 1,
        }
        if state.down {
            return ResponseTemplate::new(503).set_body_string("down for maintenance");
        }
        match &self.metadata {
            Some(metadata) => ResponseTemplate::new(200).set_body_json(metadata),
            None => {
                let mut answer =
                    ResponseTemplate::new(200).set_body_json(json!({"keys": state.published}));
                if let Some(value) = &state.cache_control {
                    answer = answer.insert_header("Cache-Control", value.as_str());
                }
                answer
            }
        }
    }
}

/// A local issuer at `<mock>/realms/lab`, publishing one RS256 key (`rsa-1`) until told
/// otherwise, and minting tokens for [`TestIssuer::AUDIENCE`].
pub struct TestIssuer {
    mock: MockServer,
    issuer: String,
    state: Arc<Mutex<State>>,
    key: SigningKey,
}

impl std::fmt::Debug for TestIssuer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestIssuer")
            .field("issuer", &self.issuer)
            .finish_non_exhaustive()
    }
}

/// Seconds since the epoch.
fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs()
}

impl TestIssuer {
    /// The public URL of the server under test: the audience its tokens name.
    pub const AUDIENCE: &'static str = "https://mcp.test.example/mcp";
    /// The scope its tokens carry unless told otherwise.
    pub const SCOPE: &'static str = "mcp:tools";

    /// An issuer serving its metadata where RFC 8414 puts it.
    pub async fn start() -> Self {
        Self::serving(true).await
    }

    /// An issuer serving OpenID Connect discovery only, appended to its path (as
    /// Keycloak does); RFC 8414's URL and the inserted OIDC one answer 404.
    pub async fn start_oidc_only() -> Self {
        Self::serving(false).await
    }

    async fn serving(rfc8414: bool) -> Self {
        let mock = mock_upstream().await;
        let issuer = format!("{}/realms/lab", mock.uri());
        let key = SigningKey::rsa_a("rsa-1");
        let state = Arc::new(Mutex::new(State {
            published: vec![key.jwk()],
            ..State::default()
        }));
        let metadata = json!({
            "issuer": issuer,
            "jwks_uri": format!("{issuer}/protocol/openid-connect/certs"),
            "authorization_endpoint": format!("{issuer}/protocol/openid-connect/auth"),
            "token_endpoint": format!("{issuer}/protocol/openid-connect/token"),
            "response_types_supported": ["code"],
        });
        let serve_metadata = |at: &'static str| {
            Mock::given(wiremock::matchers::path(at)).respond_with(Serving {
                state: Arc::clone(&state),
                metadata: Some(metadata.clone()),
            })
        };
        if rfc8414 {
            serve_metadata("/.well-known/oauth-authorization-server/realms/lab")
                .mount(&mock)
                .await;
        } else {
            for absent in [
                "/.well-known/oauth-authorization-server/realms/lab",
                "/.well-known/openid-configuration/realms/lab",
            ] {
                Mock::given(wiremock::matchers::path(absent))
                    .respond_with(ResponseTemplate::new(404))
                    .mount(&mock)
                    .await;
            }
            serve_metadata("/realms/lab/.well-known/openid-configuration")
                .mount(&mock)
                .await;
        }
        Mock::given(wiremock::matchers::path(
            "/realms/lab/protocol/openid-connect/certs",
        ))
        .respond_with(Serving {
            state: Arc::clone(&state),
            metadata: None,
        })
        .mount(&mock)
        .await;
        Self {
            mock,
            issuer,
            state,
            key,
        }
    }

    /// Its issuer identifier (what its tokens say in `iss`).
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The mock it runs on.
    pub fn mock(&self) -> &MockServer {
        &self.mock
    }

    /// The variables that make a server accept its tokens.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            (ISSUER_VAR, self.issuer.clone()),
            (PUBLIC_URL_VAR, Self::AUDIENCE.to_owned()),
        ]
    }

    /// The key it signs with unless told otherwise (`rsa-1`, RS256).
    pub fn key(&self) -> &SigningKey {
        &self.key
    }

    /// Publish these JWKs as its key set from now on (a rotation).
    pub fn publish(&self, jwks: Vec<Value>) {
        self.state.lock().unwrap().published = jwks;
    }

    /// Take it down (every request answered 503) or bring it back.
    pub fn set_down(&self, down: bool) {
        self.state.lock().unwrap().down = down;
    }

    /// The `Cache-Control` its key set is served with.
    pub fn set_cache_control(&self, value: &str) {
        self.state.lock().unwrap().cache_control = Some(value.to_owned());
    }

    /// Requests for its metadata so far.
    pub fn metadata_requests(&self) -> usize {
        self.state.lock().unwrap().metadata_requests
    }

    /// Requests for its key set so far.
    pub fn jwks_requests(&self) -> usize {
        self.state.lock().unwrap().jwks_requests
    }

    /// A token it would issue to `ada` for the server under test: RS256 by `rsa-1`,
    /// `typ: at+jwt`, valid for five minutes, with [`Self::SCOPE`]. Change it before
    /// signing.
    pub fn token(&self) -> TokenBuilder {
        let now = now_secs();
        let mut builder = TokenBuilder {
            header: Map::new(),
            claims: Map::new(),
            key: self.key.clone(),
        }
        .signed_by(&self.key)
        .header("typ", "at+jwt");
        for (name, value) in [
            ("iss", json!(self.issuer)),
            ("aud", json!(Self::AUDIENCE)),
            ("sub", json!("ada")),
            ("iat", json!(now)),
            ("exp", json!(now + 300)),
            ("scope", json!(format!("openid {}", Self::SCOPE))),
        ] {
            builder = builder.claim(name, value);
        }
        builder
    }
}

/// A token being made: its header and claims, and the key that will sign it.
#[derive(Debug, Clone)]
pub struct TokenBuilder {
    header: Map<String, Value>,
    claims: Map<String, Value>,
    key: SigningKey,
}

impl TokenBuilder {
    /// Set a header member (`null` removes it).
    #[must_use]
    pub fn header(mut self, name: &str, value: impl Into<Value>) -> Self {
        match value.into() {
            Value::Null => self.header.remove(name),
            value => self.header.insert(name.to_owned(), value),
        };
        self
    }

    /// Set a claim (`null` removes it).
    #[must_use]
    pub fn claim(mut self, name: &str, value: impl Into<Value>) -> Self {
        match value.into() {
            Value::Null => self.claims.remove(name),
            value => self.claims.insert(name.to_owned(), value),
        };
        self
    }

    /// Sign with `key`, naming its algorithm and `kid` in the header.
    #[must_use]
    pub fn signed_by(self, key: &SigningKey) -> Self {
        let mut this = self.header("alg", key.alg).header("kid", key.kid.clone());
        this.key = key.clone();
        this
    }

    fn signing_input(&self) -> String {
        let part = |map: &Map<String, Value>| {
            URL_SAFE_NO_PAD.encode(Value::Object(map.clone()).to_string())
        };
        format!("{}.{}", part(&self.header), part(&self.claims))
    }

    /// The token, signed by its key.
    pub fn sign(self) -> String {
        let input = self.signing_input();
        let signature = self.key.sign(input.as_bytes());
        format!("{input}.{}", URL_SAFE_NO_PAD.encode(signature))
    }

    /// The token with `alg: none` and no signature.
    pub fn unsigned(self) -> String {
        let input = self.header("alg", "none").signing_input();
        format!("{input}.")
    }

    /// The token as HS256 with `secret` as the HMAC key (the algorithm-confusion attack
    /// signs with the issuer's public key).
    pub fn hs256(self, secret: &[u8]) -> String {
        let input = self.header("alg", "HS256").signing_input();
        let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret);
        let tag = ring::hmac::sign(&key, input.as_bytes());
        format!("{input}.{}", URL_SAFE_NO_PAD.encode(tag.as_ref()))
    }
}
