//! The issuer's signing keys as this server uses them: a JWK read into a key pinned to the
//! algorithms it may verify ([`Alg`]: RS256, PS256, ES256, EdDSA, nothing else), and the
//! key set cached from the issuer's JWKS ([`KeyCache`]).
//!
//! **Invariant:** a key is looked up by the token's `kid` among the keys the issuer
//! published, and verifies only an algorithm its type (and its `alg`, when it names one)
//! agrees with; symmetric keys (`oct`) and every other type are never read.
//!
//! **Invariant:** the key set is fetched lazily, kept while the issuer is down, and
//! fetched again for an unknown `kid` at most once per [`KeyCache::refetch_after`]
//! (10 s), however many requests ask: one fetch at a time, and a request that waited for
//! one looks at what it brought instead of fetching again.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::signature::{self, RsaPublicKeyComponents, UnparsedPublicKey};
use serde_json::Value;
use tokio::time::Instant;

/// The signature algorithms accepted, by their JOSE names. `none`, the HMAC family
/// (`HS256`…) and every other name are refused before any key is looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Alg {
    /// RSASSA-PKCS1-v1_5 with SHA-256, a key of 2048 to 8192 bits.
    Rs256,
    /// RSASSA-PSS with SHA-256, a key of 2048 to 8192 bits.
    Ps256,
    /// ECDSA on P-256 with SHA-256.
    Es256,
    /// Ed25519.
    EdDsa,
}

impl Alg {
    /// The algorithm a JOSE header names, if it is one accepted.
    pub(crate) fn named(name: &str) -> Option<Self> {
        match name {
            "RS256" => Some(Self::Rs256),
            "PS256" => Some(Self::Ps256),
            "ES256" => Some(Self::Es256),
            "EdDSA" => Some(Self::EdDsa),
            _ => None,
        }
    }

    /// Its JOSE name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Rs256 => "RS256",
            Self::Ps256 => "PS256",
            Self::Es256 => "ES256",
            Self::EdDsa => "EdDSA",
        }
    }
}

/// What a key verifies with.
#[derive(Clone, PartialEq, Eq)]
enum Material {
    /// `kty: RSA`: modulus and exponent, big-endian without leading zeros.
    Rsa { n: Vec<u8>, e: Vec<u8> },
    /// `kty: EC`, `crv: P-256`: the uncompressed point (`04 || x || y`).
    P256(Vec<u8>),
    /// `kty: OKP`, `crv: Ed25519`: the public key.
    Ed25519(Vec<u8>),
}

/// One of the issuer's public keys, by its `kid`.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct VerifyingKey {
    kid: String,
    /// The algorithm the JWK names, when it names one: then it verifies that one only.
    alg: Option<Alg>,
    material: Material,
}

impl std::fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.material {
            Material::Rsa { .. } => "RSA",
            Material::P256(_) => "EC P-256",
            Material::Ed25519(_) => "OKP Ed25519",
        };
        f.debug_struct("VerifyingKey")
            .field("kid", &self.kid)
            .field("alg", &self.alg.map(Alg::name))
            .field("kind", &kind)
            .finish()
    }
}

impl VerifyingKey {
    /// Whether this key may verify a signature by `alg`: its type agrees, and its own
    /// `alg`, when it names one, is the same.
    pub(crate) fn agrees_with(&self, alg: Alg) -> bool {
        let by_type = matches!(
            (alg, &self.material),
            (Alg::Rs256 | Alg::Ps256, Material::Rsa { .. })
                | (Alg::Es256, Material::P256(_))
                | (Alg::EdDsa, Material::Ed25519(_))
        );
        by_type && self.alg.is_none_or(|own| own == alg)
    }

    /// Whether `signature` over `message` by `alg` is this key's. A key that does not
    /// agree with `alg` verifies nothing.
    pub(crate) fn verifies(&self, alg: Alg, message: &[u8], signature: &[u8]) -> bool {
        if !self.agrees_with(alg) {
            return false;
        }
        match (&self.material, alg) {
            (Material::Rsa { n, e }, Alg::Rs256) => RsaPublicKeyComponents { n, e }
                .verify(&signature::RSA_PKCS1_2048_8192_SHA256, message, signature)
                .is_ok(),
            (Material::Rsa { n, e }, Alg::Ps256) => RsaPublicKeyComponents { n, e }
                .verify(&signature::RSA_PSS_2048_8192_SHA256, message, signature)
                .is_ok(),
            (Material::P256(point), Alg::Es256) => {
                UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_FIXED, point)
                    .verify(message, signature)
                    .is_ok()
            }
            (Material::Ed25519(key), Alg::EdDsa) => {
                UnparsedPublicKey::new(&signature::ED25519, key)
                    .verify(message, signature)
                    .is_ok()
            }
            _ => false,
        }
    }

    /// Read one JWK: `Ok(None)` for a key this server does not use (another type, an
    /// encryption key, an algorithm outside the list, no `kid`), an error for one it
    /// would use but that is malformed.
    pub(crate) fn from_jwk(jwk: &Value) -> Result<Option<Self>, String> {
        let text = |name: &str| jwk.get(name).and_then(Value::as_str);
        let Some(kid) = text("kid").filter(|kid| !kid.is_empty()) else {
            return Ok(None);
        };
        // An encryption key, or one whose operations exclude verifying, is not for us.
        if text("use").is_some_and(|u| u != "sig") {
            return Ok(None);
        }
        if let Some(ops) = jwk.get("key_ops").and_then(Value::as_array)
            && !ops.iter().any(|op| op.as_str() == Some("verify"))
        {
            return Ok(None);
        }
        let alg = match text("alg") {
            None => None,
            Some(name) => match Alg::named(name) {
                Some(alg) => Some(alg),
                None => return Ok(None),
            },
        };
        let bytes = |name: &str| -> Result<Vec<u8>, String> {
            let value = text(name).ok_or_else(|| format!("key {kid:?} has no `{name}`"))?;
            URL_SAFE_NO_PAD
                .decode(value)
                .map_err(|_| format!("key {kid:?}: `{name}` is not base64url"))
        };
        let material = match (text("kty"), text("crv")) {
            (Some("RSA"), _) => Material::Rsa {
                n: without_leading_zeros(bytes("n")?),
                e: without_leading_zeros(bytes("e")?),
            },
            (Some("EC"), Some("P-256")) => {
                let (x, y) = (bytes("x")?, bytes("y")?);
                if x.len() != 32 || y.len() != 32 {
                    return Err(format!("key {kid:?}: a P-256 coordinate is not 32 bytes"));
                }
                let mut point = Vec::with_capacity(65);
                point.push(4);
                point.extend_from_slice(&x);
                point.extend_from_slice(&y);
                Material::P256(point)
            }
            (Some("OKP"), Some("Ed25519")) => {
                let x = bytes("x")?;
                if x.len() != 32 {
                    return Err(format!("key {kid:?}: an Ed25519 key is not 32 bytes"));
                }
                Material::Ed25519(x)
            }
            _ => return Ok(None),
        };
        let key = Self {
            kid: kid.to_owned(),
            alg,
            material,
        };
        // A JWK whose `alg` contradicts its type (an EC key for RS256) verifies nothing.
        Ok(alg.is_none_or(|alg| key.agrees_with(alg)).then_some(key))
    }
}

fn without_leading_zeros(mut bytes: Vec<u8>) -> Vec<u8> {
    let zeros = bytes.iter().take_while(|b| **b == 0).count();
    bytes.drain(..zeros);
    bytes
}

/// The keys of one JWKS document, by `kid` (an issuer may publish one `kid` for keys of
/// several types).
#[derive(Debug, Clone, Default)]
pub(crate) struct KeySet {
    keys: HashMap<String, Vec<Arc<VerifyingKey>>>,
    /// How long the issuer said the document may be used (`Cache-Control: max-age`).
    pub(crate) max_age: Option<Duration>,
}

impl KeySet {
    /// The usable keys of a JWKS document (`{"keys": [...]}`), and a line for each key
    /// skipped as malformed. A document without `keys` is an error.
    pub(crate) fn from_jwks(document: &Value) -> Result<(Self, Vec<String>), String> {
        let Some(keys) = document.get("keys").and_then(Value::as_array) else {
            return Err("the key set has no `keys` list".to_owned());
        };
        let mut set = Self::default();
        let mut skipped = Vec::new();
        for jwk in keys {
            match VerifyingKey::from_jwk(jwk) {
                Ok(Some(key)) => set
                    .keys
                    .entry(key.kid.clone())
                    .or_default()
                    .push(Arc::new(key)),
                Ok(None) => {}
                Err(why) => skipped.push(why),
            }
        }
        Ok((set, skipped))
    }

    /// How many keys it holds.
    pub(crate) fn len(&self) -> usize {
        self.keys.values().map(Vec::len).sum()
    }

    fn get(&self, kid: &str) -> Option<Vec<Arc<VerifyingKey>>> {
        self.keys.get(kid).cloned()
    }
}

/// Fetches the issuer's key set: the issuer (`issuer.rs`) in a server, a stand-in in the
/// cache's own tests.
pub(crate) trait FetchKeys: Send + Sync + 'static {
    /// The key set as the issuer publishes it now, or why it could not be had.
    fn fetch(&self) -> impl Future<Output = Result<KeySet, String>> + Send;
}

/// How long a key set is used before it is fetched again in the background, when the
/// issuer does not say (`Cache-Control: max-age`).
pub(crate) const DEFAULT_KEYS_MAX_AGE: Duration = Duration::from_secs(3600);
/// The shortest and longest `max-age` honoured: an issuer that says 0 is not asked on
/// every request, one that says a year is still asked daily (a key it withdrew stops
/// verifying within a day).
pub(crate) const KEYS_MAX_AGE: std::ops::RangeInclusive<Duration> =
    Duration::from_secs(60)..=Duration::from_secs(86_400);
/// The least time between two fetches of the key set.
pub(crate) const REFETCH_AFTER: Duration = Duration::from_secs(10);

/// What [`KeyCache::keys_for`] found for a `kid`.
#[derive(Debug, Clone)]
pub(crate) enum Found {
    /// The issuer's keys of that `kid`.
    Keys(Vec<Arc<VerifyingKey>>),
    /// The issuer does not publish it (as of the last fetch).
    Unknown,
    /// No key set could be had yet: the issuer could not be reached.
    Unavailable,
}

/// The issuer's key set, fetched lazily, kept fresh in the background, and fetched again
/// for an unknown `kid` at most once per `refetch_after`.
pub(crate) struct KeyCache<F> {
    fetcher: F,
    /// The last key set fetched, and until when it is fresh.
    current: RwLock<Option<Arc<(KeySet, Instant)>>>,
    /// Held while a fetch runs (one at a time); the time of the last attempt.
    fetching: tokio::sync::Mutex<Option<Instant>>,
    /// Counts the fetches that brought a key set, so a request that waited for one knows.
    generation: AtomicU64,
    /// A refresh of a stale set is under way in the background.
    refreshing: AtomicBool,
    /// The last fetch failed (its warning was logged; the next success says so).
    failing: AtomicBool,
    refetch_after: Duration,
}

impl<F> std::fmt::Debug for KeyCache<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyCache")
            .field("refetch_after", &self.refetch_after)
            .finish_non_exhaustive()
    }
}

impl<F: FetchKeys> KeyCache<F> {
    pub(crate) fn new(fetcher: F, refetch_after: Duration) -> Self {
        Self {
            fetcher,
            current: RwLock::new(None),
            fetching: tokio::sync::Mutex::new(None),
            generation: AtomicU64::new(0),
            refreshing: AtomicBool::new(false),
            failing: AtomicBool::new(false),
            refetch_after,
        }
    }

    /// The least time between two fetches.
    pub(crate) fn refetch_after(&self) -> Duration {
        self.refetch_after
    }

    fn current(&self) -> Option<Arc<(KeySet, Instant)>> {
        self.current
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// The keys published under `kid`: from the cached set (a stale one is refreshed in
    /// the background and still used meanwhile), or, for a `kid` it does not hold, from a
    /// new fetch if none was tried within `refetch_after`.
    pub(crate) async fn keys_for(self: &Arc<Self>, kid: &str) -> Found {
        if let Some(current) = self.current() {
            let (set, fresh_until) = &*current;
            if let Some(keys) = set.get(kid) {
                if Instant::now() >= *fresh_until {
                    self.refresh_in_background();
                }
                return Found::Keys(keys);
            }
        }
        self.refetch(kid).await
    }

    /// Fetch the set for an unknown `kid`, unless another request did while this one
    /// waited, or one was tried within `refetch_after`.
    async fn refetch(&self, kid: &str) -> Found {
        let seen = self.generation.load(Ordering::SeqCst);
        let mut last = self.fetching.lock().await;
        if self.generation.load(Ordering::SeqCst) != seen {
            return self.look_up(kid);
        }
        if last.is_some_and(|at| at.elapsed() < self.refetch_after) {
            return self.look_up(kid);
        }
        *last = Some(Instant::now());
        self.fetch_now().await;
        self.look_up(kid)
    }

    fn look_up(&self, kid: &str) -> Found {
        match self.current() {
            Some(current) => current.0.get(kid).map_or(Found::Unknown, Found::Keys),
            None => Found::Unavailable,
        }
    }

    /// One fetch; the set it brings replaces the cached one. A failure keeps the cached
    /// set and is logged once until the next success.
    async fn fetch_now(&self) {
        match self.fetcher.fetch().await {
            Ok(set) => {
                let max_age = set
                    .max_age
                    .unwrap_or(DEFAULT_KEYS_MAX_AGE)
                    .clamp(*KEYS_MAX_AGE.start(), *KEYS_MAX_AGE.end());
                if set.len() == 0 {
                    tracing::warn!(
                        "the issuer's key set holds no key this server can use (RS256, PS256, \
                         ES256 or EdDSA, each with a kid): every token is refused"
                    );
                }
                if self.failing.swap(false, Ordering::SeqCst) {
                    tracing::info!(keys = set.len(), "the issuer's key set is reachable again");
                } else {
                    tracing::debug!(keys = set.len(), "fetched the issuer's key set");
                }
                *self
                    .current
                    .write()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) =
                    Some(Arc::new((set, Instant::now() + max_age)));
                self.generation.fetch_add(1, Ordering::SeqCst);
            }
            Err(why) => {
                let held = self.current().map_or(0, |c| c.0.len());
                if self.failing.swap(true, Ordering::SeqCst) {
                    tracing::debug!(error = %why, "the issuer's key set still cannot be fetched");
                } else {
                    tracing::warn!(
                        error = %why,
                        keys_kept = held,
                        "cannot fetch the issuer's key set: the keys already fetched still \
                         verify tokens, a token signed by another key is refused until it \
                         can be fetched (tried again at most every {} s)",
                        self.refetch_after.as_secs()
                    );
                }
            }
        }
    }

    /// Refresh a stale set without making anyone wait, unless a fetch ran lately.
    fn refresh_in_background(self: &Arc<Self>) {
        if self.refreshing.swap(true, Ordering::SeqCst) {
            return;
        }
        let cache = Arc::clone(self);
        tokio::spawn(async move {
            {
                let mut last = cache.fetching.lock().await;
                if last.is_none_or(|at| at.elapsed() >= cache.refetch_after) {
                    *last = Some(Instant::now());
                    cache.fetch_now().await;
                }
            }
            cache.refreshing.store(false, Ordering::SeqCst);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::sync::atomic::AtomicUsize;

    fn ed25519_jwk(kid: &str) -> Value {
        serde_json::json!({"kty": "OKP", "crv": "Ed25519", "kid": kid,
                           "x": URL_SAFE_NO_PAD.encode([7u8; 32])})
    }

    #[test]
    fn only_signing_keys_of_the_four_algorithms_are_read() {
        let rsa = serde_json::json!({"kty": "RSA", "kid": "r", "n": "AQAB", "e": "AQAB"});
        let ec = serde_json::json!({"kty": "EC", "crv": "P-256", "kid": "e", "alg": "ES256",
                                    "x": URL_SAFE_NO_PAD.encode([1u8; 32]),
                                    "y": URL_SAFE_NO_PAD.encode([2u8; 32])});
        let document = serde_json::json!({"keys": [
            rsa, ec, ed25519_jwk("d"),
            // Never read: a symmetric key, an encryption key, another curve, another
            // algorithm, no kid, an alg its type contradicts.
            {"kty": "oct", "kid": "s", "k": "c2VjcmV0"},
            {"kty": "RSA", "kid": "enc", "use": "enc", "n": "AQAB", "e": "AQAB"},
            {"kty": "EC", "crv": "P-384", "kid": "p384", "x": "AA", "y": "AA"},
            {"kty": "RSA", "kid": "rs512", "alg": "RS512", "n": "AQAB", "e": "AQAB"},
            {"kty": "RSA", "n": "AQAB", "e": "AQAB"},
            {"kty": "EC", "crv": "P-256", "kid": "confused", "alg": "RS256",
             "x": URL_SAFE_NO_PAD.encode([1u8; 32]), "y": URL_SAFE_NO_PAD.encode([2u8; 32])},
            // Malformed: named as usable, unreadable.
            {"kty": "OKP", "crv": "Ed25519", "kid": "short", "x": "AAAA"},
        ]});
        let (set, skipped) = KeySet::from_jwks(&document).unwrap();
        let mut kids: Vec<&String> = set.keys.keys().collect();
        kids.sort();
        assert_eq!(kids, ["d", "e", "r"]);
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        assert!(skipped[0].contains("short"), "{skipped:?}");
        assert!(KeySet::from_jwks(&serde_json::json!({"k": []})).is_err());
    }

    #[test]
    fn a_key_verifies_only_an_algorithm_its_type_and_alg_agree_with() {
        let rsa = VerifyingKey::from_jwk(
            &serde_json::json!({"kty": "RSA", "kid": "r", "n": "AQAB", "e": "AQAB"}),
        )
        .unwrap()
        .unwrap();
        assert!(rsa.agrees_with(Alg::Rs256) && rsa.agrees_with(Alg::Ps256));
        assert!(!rsa.agrees_with(Alg::Es256) && !rsa.agrees_with(Alg::EdDsa));
        let pinned = VerifyingKey::from_jwk(
            &serde_json::json!({"kty": "RSA", "kid": "r", "alg": "PS256", "n": "AQAB", "e": "AQAB"}),
        )
        .unwrap()
        .unwrap();
        assert!(pinned.agrees_with(Alg::Ps256) && !pinned.agrees_with(Alg::Rs256));
        let ed = VerifyingKey::from_jwk(&ed25519_jwk("d")).unwrap().unwrap();
        assert!(ed.agrees_with(Alg::EdDsa) && !ed.agrees_with(Alg::Es256));
        assert!(!ed.verifies(Alg::Rs256, b"m", b"s"));
        for name in ["none", "HS256", "RS384", "ES512", "rs256", ""] {
            assert_eq!(Alg::named(name), None, "{name}");
        }
    }

    /// A fetcher that counts, answers from a list of kids (or fails), and can be slow.
    #[derive(Clone, Default)]
    struct Stand {
        kids: Arc<Mutex<Option<Vec<&'static str>>>>,
        fetches: Arc<AtomicUsize>,
        delay: Duration,
    }

    impl FetchKeys for Stand {
        async fn fetch(&self) -> Result<KeySet, String> {
            self.fetches.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(self.delay).await;
            let kids = self.kids.lock().unwrap().clone();
            let Some(kids) = kids else {
                return Err("the issuer is down".to_owned());
            };
            let keys: Vec<Value> = kids.into_iter().map(ed25519_jwk).collect();
            KeySet::from_jwks(&serde_json::json!({ "keys": keys })).map(|(set, _)| set)
        }
    }

    fn cache(stand: &Stand) -> Arc<KeyCache<Stand>> {
        Arc::new(KeyCache::new(stand.clone(), REFETCH_AFTER))
    }

    #[tokio::test(start_paused = true)]
    async fn an_unknown_kid_is_fetched_at_most_once_per_ten_seconds_whatever_the_flood() {
        let stand = Stand {
            kids: Arc::new(Mutex::new(Some(vec!["a"]))),
            delay: Duration::from_millis(200),
            ..Stand::default()
        };
        let keys = cache(&stand);
        // A flood of unknown kids on a cold cache: one fetch, which every request waits for.
        let flood = (0..100).map(|n| {
            let keys = Arc::clone(&keys);
            async move { keys.keys_for(if n == 0 { "a" } else { "x" }).await }
        });
        let found = futures::future::join_all(flood).await;
        assert!(matches!(found[0], Found::Keys(_)));
        assert!(found[1..].iter().all(|f| matches!(f, Found::Unknown)));
        assert_eq!(stand.fetches.load(Ordering::SeqCst), 1);
        // The issuer rotates to a new key: within 10 s of the last fetch it is not asked…
        *stand.kids.lock().unwrap() = Some(vec!["a", "b"]);
        tokio::time::advance(Duration::from_secs(9)).await;
        assert!(matches!(keys.keys_for("b").await, Found::Unknown));
        assert_eq!(stand.fetches.load(Ordering::SeqCst), 1);
        // …after that, once, however many ask at the same moment.
        tokio::time::advance(Duration::from_secs(1)).await;
        let flood = (0..50).map(|_| {
            let keys = Arc::clone(&keys);
            async move { keys.keys_for("b").await }
        });
        let found = futures::future::join_all(flood).await;
        assert!(found.iter().all(|f| matches!(f, Found::Keys(_))));
        assert_eq!(stand.fetches.load(Ordering::SeqCst), 2);
        // A known kid never fetches.
        for _ in 0..10 {
            assert!(matches!(keys.keys_for("a").await, Found::Keys(_)));
        }
        assert_eq!(stand.fetches.load(Ordering::SeqCst), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn cached_keys_keep_verifying_while_the_issuer_is_down() {
        let stand = Stand {
            kids: Arc::new(Mutex::new(Some(vec!["a"]))),
            ..Stand::default()
        };
        let keys = cache(&stand);
        assert!(matches!(keys.keys_for("a").await, Found::Keys(_)));
        *stand.kids.lock().unwrap() = None;
        // Stale after the default hour: refreshed in the background, which fails; the key
        // is still used.
        tokio::time::advance(DEFAULT_KEYS_MAX_AGE + Duration::from_secs(1)).await;
        assert!(matches!(keys.keys_for("a").await, Found::Keys(_)));
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert_eq!(stand.fetches.load(Ordering::SeqCst), 2);
        assert!(matches!(keys.keys_for("a").await, Found::Keys(_)));
        // A refresh is not tried again within 10 s.
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert_eq!(stand.fetches.load(Ordering::SeqCst), 2);
        assert!(matches!(keys.keys_for("z").await, Found::Unknown));
        assert_eq!(stand.fetches.load(Ordering::SeqCst), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn with_the_issuer_down_from_the_start_nothing_verifies_and_it_is_asked_every_ten_seconds()
     {
        let stand = Stand::default();
        let keys = cache(&stand);
        assert!(matches!(keys.keys_for("a").await, Found::Unavailable));
        assert!(matches!(keys.keys_for("a").await, Found::Unavailable));
        assert_eq!(stand.fetches.load(Ordering::SeqCst), 1);
        *stand.kids.lock().unwrap() = Some(vec!["a"]);
        tokio::time::advance(REFETCH_AFTER).await;
        assert!(matches!(keys.keys_for("a").await, Found::Keys(_)));
        assert_eq!(stand.fetches.load(Ordering::SeqCst), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn the_issuers_max_age_is_honoured_within_bounds() {
        #[derive(Clone)]
        struct Aged(Arc<AtomicUsize>, Duration);
        impl FetchKeys for Aged {
            async fn fetch(&self) -> Result<KeySet, String> {
                self.0.fetch_add(1, Ordering::SeqCst);
                let (mut set, _) =
                    KeySet::from_jwks(&serde_json::json!({"keys": [ed25519_jwk("a")]}))?;
                set.max_age = Some(self.1);
                Ok(set)
            }
        }
        for (said, refreshed_after) in [
            (Duration::from_secs(600), Duration::from_secs(600)),
            (Duration::ZERO, Duration::from_secs(60)),
            (Duration::from_secs(10_000_000), Duration::from_secs(86_400)),
        ] {
            let fetches = Arc::new(AtomicUsize::new(0));
            let keys = Arc::new(KeyCache::new(
                Aged(Arc::clone(&fetches), said),
                REFETCH_AFTER,
            ));
            keys.keys_for("a").await;
            tokio::time::advance(refreshed_after - Duration::from_secs(1)).await;
            keys.keys_for("a").await;
            tokio::time::sleep(Duration::from_millis(1)).await;
            assert_eq!(fetches.load(Ordering::SeqCst), 1, "{said:?}: still fresh");
            tokio::time::advance(Duration::from_secs(1)).await;
            keys.keys_for("a").await;
            tokio::time::sleep(Duration::from_millis(1)).await;
            assert_eq!(fetches.load(Ordering::SeqCst), 2, "{said:?}: refreshed");
        }
    }
}
