//! Reading a JWT access token (RFC 9068, a JWS in compact form) and checking what it
//! says: its header ([`Token::read`]) and, once its signature is verified, its claims
//! ([`Rules::check_claims`]).
//!
//! **Invariant:** nothing a token names is ever fetched or trusted: a header carrying
//! `jku`, `x5u`, `x5c` or `jwk` (keys by reference or embedded) is refused, as is one
//! with `crit` (extensions this server does not implement); the key is the issuer's,
//! chosen by `kid`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Deserialize;

use super::keys::Alg;

/// The longest token read; a longer one is refused without decoding it.
pub(crate) const MAX_TOKEN_BYTES: usize = 16 * 1024;
/// The longest `kid` looked up.
const MAX_KID_BYTES: usize = 256;
/// The longest `sub` taken as a principal's name.
const MAX_SUBJECT_BYTES: usize = 256;

/// A token refused, in the words the client reads (`error_description`) and the log
/// keeps. None of them repeats what the token holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Invalid {
    /// Neither a static token of the file nor a JWT of the issuer.
    Unknown,
    /// Not three base64url parts with a JSON header and JSON claims.
    NotAJwt,
    /// An algorithm outside RS256, PS256, ES256 and EdDSA (`none` and `HS256` included).
    Algorithm,
    /// A header member that names or carries a key, or asks for an extension.
    HeaderMember(&'static str),
    /// `typ` is not `at+jwt` (or `JWT`, when allowed).
    Type,
    /// No usable `kid`.
    KeyId,
    /// The issuer publishes no key by that `kid`, for that algorithm.
    UnknownKey,
    /// The issuer's keys could not be had.
    KeysUnavailable,
    /// The signature is not the issuer's.
    Signature,
    /// The claims are not readable (a duplicated claim, a date that is not a number).
    Claims,
    /// `iss` missing or another issuer's.
    Issuer,
    /// `aud` missing or not this server.
    Audience,
    /// `exp` missing.
    NoExpiry,
    /// `exp` passed.
    Expired,
    /// `nbf` not reached.
    NotYetValid,
    /// `sub` missing, empty or too long.
    Subject,
}

impl Invalid {
    /// The sentence sent as `error_description` (no quote or backslash in any).
    pub(crate) fn description(&self) -> &'static str {
        match self {
            Self::Unknown => "the token is not one this server accepts",
            Self::NotAJwt => "the token is not a JWT",
            Self::Algorithm => {
                "the token's algorithm is not accepted (RS256, PS256, ES256 or EdDSA)"
            }
            Self::HeaderMember("crit") => {
                "the token asks for extensions (crit) this server does not implement"
            }
            Self::HeaderMember(_) => {
                "the token names or carries its own key (jku, x5u, x5c or jwk), which is never used"
            }
            Self::Type => "the token is not an access token (typ at+jwt)",
            Self::KeyId => "the token names no key (kid)",
            Self::UnknownKey => "the token is signed by a key the issuer does not publish",
            Self::KeysUnavailable => "the issuer's keys cannot be fetched; try again shortly",
            Self::Signature => "the token's signature is not valid",
            Self::Claims => "the token's claims are not readable",
            Self::Issuer => "the token is from another issuer",
            Self::Audience => "the token was not issued for this server (aud)",
            Self::NoExpiry => "the token has no expiry (exp)",
            Self::Expired => "the token has expired",
            Self::NotYetValid => "the token is not valid yet (nbf)",
            Self::Subject => "the token names no subject (sub)",
        }
    }
}

/// A header member present, whatever its value.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Present(bool);

impl<'de> Deserialize<'de> for Present {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(deserializer).map(|_| Self(true))
    }
}

/// The JOSE header, as far as it matters. A member given twice is refused (serde's
/// derived reading of a struct refuses duplicates), so no two readings of it can differ.
#[derive(Debug, Deserialize)]
struct Header {
    alg: String,
    #[serde(default)]
    typ: Option<String>,
    #[serde(default)]
    kid: Option<String>,
    #[serde(default)]
    jku: Present,
    #[serde(default)]
    x5u: Present,
    #[serde(default)]
    x5c: Present,
    #[serde(default)]
    jwk: Present,
    #[serde(default)]
    crit: Present,
}

/// One value or a list of them (`aud`, `scp`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn values(&self) -> &[String] {
        match self {
            Self::One(one) => std::slice::from_ref(one),
            Self::Many(many) => many,
        }
    }
}

/// The claims this server reads. Numeric dates may be fractional (RFC 7519).
#[derive(Debug, Deserialize)]
pub(crate) struct Claims {
    #[serde(default)]
    iss: Option<String>,
    #[serde(default)]
    sub: Option<String>,
    #[serde(default)]
    aud: Option<OneOrMany>,
    #[serde(default)]
    exp: Option<f64>,
    #[serde(default)]
    nbf: Option<f64>,
    /// Space-separated scopes (RFC 9068, RFC 8693).
    #[serde(default)]
    scope: Option<String>,
    /// Scopes as a list or a string (Okta, Entra ID).
    #[serde(default)]
    scp: Option<OneOrMany>,
}

/// A token whose header passed: what to verify, and with which key.
#[derive(Debug)]
pub(crate) struct Token<'a> {
    pub(crate) alg: Alg,
    pub(crate) kid: String,
    /// `header.payload`, as signed.
    pub(crate) signed: &'a [u8],
    pub(crate) signature: Vec<u8>,
    payload: &'a str,
}

impl<'a> Token<'a> {
    /// Read a compact JWS and check its header: an accepted algorithm, no key by
    /// reference or embedded, no `crit`, `typ` `at+jwt` (`application/at+jwt`; or, when
    /// `jwt_typ` allows it, `JWT` or none), and a `kid`. The signature is not verified
    /// here: the caller verifies it with the issuer's key before reading the claims.
    pub(crate) fn read(token: &'a str, jwt_typ: bool) -> Result<Self, Invalid> {
        if token.len() > MAX_TOKEN_BYTES {
            return Err(Invalid::NotAJwt);
        }
        let mut parts = token.split('.');
        let (Some(header), Some(payload), Some(signature), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(Invalid::NotAJwt);
        };
        let decode = |part: &str| URL_SAFE_NO_PAD.decode(part).map_err(|_| Invalid::NotAJwt);
        let header: Header = object(&decode(header)?).ok_or(Invalid::NotAJwt)?;
        let signature = decode(signature)?;
        let alg = Alg::named(&header.alg).ok_or(Invalid::Algorithm)?;
        for (name, present) in [
            ("jku", header.jku),
            ("x5u", header.x5u),
            ("x5c", header.x5c),
            ("jwk", header.jwk),
            ("crit", header.crit),
        ] {
            if present.0 {
                return Err(Invalid::HeaderMember(name));
            }
        }
        let typ_ok = match header
            .typ
            .as_deref()
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("at+jwt" | "application/at+jwt") => true,
            Some("jwt" | "application/jwt") | None => jwt_typ,
            Some(_) => false,
        };
        if !typ_ok {
            return Err(Invalid::Type);
        }
        let kid = header
            .kid
            .filter(|kid| !kid.is_empty() && kid.len() <= MAX_KID_BYTES)
            .ok_or(Invalid::KeyId)?;
        let signed_len = token.len() - signature_len(token);
        Ok(Self {
            alg,
            kid,
            signed: &token.as_bytes()[..signed_len],
            signature,
            payload,
        })
    }

    /// The claims, once the signature is verified.
    pub(crate) fn claims(&self) -> Result<Claims, Invalid> {
        let bytes = URL_SAFE_NO_PAD
            .decode(self.payload)
            .map_err(|_| Invalid::NotAJwt)?;
        object(&bytes).ok_or(Invalid::Claims)
    }
}

/// `bytes` read as a JSON object into `T` (serde's derived reading of a struct would
/// also take an array).
fn object<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        return None;
    }
    serde_json::from_slice(bytes).ok()
}

/// The length of `.signature` at the end of a compact JWS.
fn signature_len(token: &str) -> usize {
    token.rfind('.').map_or(0, |dot| token.len() - dot)
}

/// What a verified token's claims must say.
#[derive(Debug, Clone)]
pub(crate) struct Rules {
    /// `iss`, exactly.
    pub(crate) issuer: String,
    /// This server's resource URL, which `aud` must name (a trailing `/` aside).
    pub(crate) audience: String,
    /// Scopes every token must carry (empty: none).
    pub(crate) scopes: Vec<String>,
    /// Clock difference tolerated on `exp` and `nbf`.
    pub(crate) leeway: Duration,
}

/// A token's claims passed: who it is for, and the required scopes it lacks (empty when
/// it has them all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Passed {
    pub(crate) subject: String,
    pub(crate) missing_scopes: Vec<String>,
}

impl Rules {
    /// Check `claims` at `now`: issuer, audience, expiry (required), not-before,
    /// subject, then the scopes.
    pub(crate) fn check_claims(&self, claims: &Claims, now: SystemTime) -> Result<Passed, Invalid> {
        if claims.iss.as_deref() != Some(self.issuer.as_str()) {
            return Err(Invalid::Issuer);
        }
        let ours = self.audience.trim_end_matches('/');
        let for_us = claims
            .aud
            .as_ref()
            .is_some_and(|aud| aud.values().iter().any(|a| a.trim_end_matches('/') == ours));
        if !for_us {
            return Err(Invalid::Audience);
        }
        let now = now
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs_f64();
        let leeway = self.leeway.as_secs_f64();
        let exp = claims.exp.ok_or(Invalid::NoExpiry)?;
        if !exp.is_finite() || now >= exp + leeway {
            return Err(Invalid::Expired);
        }
        if let Some(nbf) = claims.nbf
            && (!nbf.is_finite() || now + leeway < nbf)
        {
            return Err(Invalid::NotYetValid);
        }
        let subject = claims
            .sub
            .clone()
            // It is a principal's name in logs: no line breaks or other controls.
            .filter(|s| {
                !s.trim().is_empty()
                    && s.len() <= MAX_SUBJECT_BYTES
                    && !s.chars().any(char::is_control)
            })
            .ok_or(Invalid::Subject)?;
        let granted: Vec<&str> = claims
            .scope
            .iter()
            .flat_map(|s| s.split_ascii_whitespace())
            .chain(
                claims
                    .scp
                    .iter()
                    .flat_map(|s| s.values().iter().flat_map(|v| v.split_ascii_whitespace())),
            )
            .collect();
        let missing_scopes = self
            .scopes
            .iter()
            .filter(|wanted| !granted.contains(&wanted.as_str()))
            .cloned()
            .collect();
        Ok(Passed {
            subject,
            missing_scopes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(json: serde_json::Value) -> String {
        URL_SAFE_NO_PAD.encode(json.to_string())
    }

    fn token(header: serde_json::Value, claims: serde_json::Value) -> String {
        format!(
            "{}.{}.{}",
            b64(header),
            b64(claims),
            URL_SAFE_NO_PAD.encode(b"sig")
        )
    }

    fn header(extra: serde_json::Value) -> serde_json::Value {
        let mut header = serde_json::json!({"alg": "ES256", "typ": "at+jwt", "kid": "k1"});
        header
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        header
    }

    #[test]
    fn a_header_is_read_only_when_every_rule_holds() {
        let good = token(header(serde_json::json!({})), serde_json::json!({}));
        let read = Token::read(&good, false).unwrap();
        assert_eq!((read.alg, read.kid.as_str()), (Alg::Es256, "k1"));
        assert_eq!(read.signature, b"sig");
        assert_eq!(read.signed, good.rsplit_once('.').unwrap().0.as_bytes());

        let refused = |h: serde_json::Value| {
            Token::read(&token(header(h), serde_json::json!({})), false).unwrap_err()
        };
        for alg in ["none", "HS256", "HS512", "RS512", "ES384", "", "rs256"] {
            assert_eq!(
                refused(serde_json::json!({"alg": alg})),
                Invalid::Algorithm,
                "{alg}"
            );
        }
        for member in ["jku", "x5u", "x5c", "jwk"] {
            assert_eq!(
                refused(serde_json::json!({member: "https://attacker.example/keys"})),
                Invalid::HeaderMember(member)
            );
            assert_eq!(
                refused(serde_json::json!({member: null})),
                Invalid::HeaderMember(member),
                "present, whatever its value"
            );
        }
        assert_eq!(
            refused(serde_json::json!({"crit": ["b64"], "b64": false})),
            Invalid::HeaderMember("crit")
        );
        for typ in ["JWT", "jose", "dpop+jwt", "secevent+jwt"] {
            assert_eq!(
                refused(serde_json::json!({"typ": typ})),
                Invalid::Type,
                "{typ}"
            );
        }
        assert_eq!(refused(serde_json::json!({"kid": ""})), Invalid::KeyId);
        assert_eq!(
            refused(serde_json::json!({"kid": "k".repeat(257)})),
            Invalid::KeyId
        );
        let no_kid = token(
            serde_json::json!({"alg": "ES256", "typ": "at+jwt"}),
            serde_json::json!({}),
        );
        assert_eq!(Token::read(&no_kid, false).unwrap_err(), Invalid::KeyId);
    }

    #[test]
    fn typ_jwt_or_none_passes_only_when_allowed() {
        for typ in [Some("JWT"), Some("application/jwt"), None] {
            let mut h = serde_json::json!({"alg": "RS256", "kid": "k"});
            if let Some(typ) = typ {
                h["typ"] = typ.into();
            }
            let t = token(h, serde_json::json!({}));
            assert_eq!(
                Token::read(&t, false).unwrap_err(),
                Invalid::Type,
                "{typ:?}"
            );
            assert!(Token::read(&t, true).is_ok(), "{typ:?}");
        }
        let t = token(
            header(serde_json::json!({"typ": "application/AT+JWT"})),
            serde_json::json!({}),
        );
        assert!(Token::read(&t, false).is_ok());
    }

    #[test]
    fn what_is_not_a_jws_in_compact_form_is_not_a_jwt() {
        let good_header = b64(header(serde_json::json!({})));
        for text in [
            String::new(),
            "opaque-token-value".to_owned(),
            format!("{good_header}.e30"),
            format!("{good_header}.e30.c2ln.extra"),
            format!("{good_header}.e30.c2ln.a.b"),
            // Padding, and the standard alphabet, are not base64url without padding.
            format!("{good_header}=.e30.c2ln"),
            format!("{good_header}.e30.c2l+"),
            format!("{}.e30.c2ln", URL_SAFE_NO_PAD.encode("not json")),
            format!("{}.e30.c2ln", b64(serde_json::json!(["alg", "ES256"]))),
            // A duplicated member cannot be read two ways.
            format!(
                "{}.e30.c2ln",
                URL_SAFE_NO_PAD.encode(r#"{"alg":"ES256","alg":"none","typ":"at+jwt","kid":"k"}"#)
            ),
            "a".repeat(MAX_TOKEN_BYTES + 1),
        ] {
            assert_eq!(
                Token::read(&text, false).unwrap_err(),
                Invalid::NotAJwt,
                "{text:.60}"
            );
        }
    }

    fn rules() -> Rules {
        Rules {
            issuer: "https://id.example.org/realms/lab".to_owned(),
            audience: "https://mcp.example.org/mcp".to_owned(),
            scopes: vec!["mcp:tools".to_owned()],
            leeway: Duration::from_secs(30),
        }
    }

    const NOW: u64 = 1_800_000_000;

    fn check(claims: serde_json::Value) -> Result<Passed, Invalid> {
        let claims: Claims = serde_json::from_value(claims).map_err(|_| Invalid::Claims)?;
        rules().check_claims(&claims, UNIX_EPOCH + Duration::from_secs(NOW))
    }

    fn claims(extra: serde_json::Value) -> serde_json::Value {
        let mut claims = serde_json::json!({
            "iss": "https://id.example.org/realms/lab",
            "aud": "https://mcp.example.org/mcp",
            "sub": "ada",
            "exp": NOW + 300,
            "scope": "openid mcp:tools",
        });
        for (key, value) in extra.as_object().unwrap() {
            if value.is_null() {
                claims.as_object_mut().unwrap().remove(key);
            } else {
                claims[key] = value.clone();
            }
        }
        claims
    }

    #[test]
    fn the_claims_name_this_issuer_this_server_and_a_time_now() {
        assert_eq!(
            check(claims(serde_json::json!({}))),
            Ok(Passed {
                subject: "ada".to_owned(),
                missing_scopes: vec![]
            })
        );
        let refused = |extra| check(claims(extra)).unwrap_err();
        assert_eq!(refused(serde_json::json!({"iss": null})), Invalid::Issuer);
        assert_eq!(
            refused(serde_json::json!({"iss": "https://id.example.org/realms/lab/"})),
            Invalid::Issuer,
            "the issuer is compared exactly"
        );
        assert_eq!(refused(serde_json::json!({"aud": null})), Invalid::Audience);
        assert_eq!(
            refused(serde_json::json!({"aud": ["account", "https://other.example.org/mcp"]})),
            Invalid::Audience
        );
        assert!(
            check(claims(
                serde_json::json!({"aud": ["account", "https://mcp.example.org/mcp/"]})
            ))
            .is_ok()
        );
        assert_eq!(refused(serde_json::json!({"exp": null})), Invalid::NoExpiry);
        assert_eq!(
            refused(serde_json::json!({"exp": NOW - 31})),
            Invalid::Expired
        );
        assert!(
            check(claims(serde_json::json!({"exp": NOW - 29}))).is_ok(),
            "within the leeway"
        );
        assert_eq!(
            refused(serde_json::json!({"exp": "tomorrow"})),
            Invalid::Claims
        );
        assert_eq!(
            refused(serde_json::json!({"nbf": NOW + 31})),
            Invalid::NotYetValid
        );
        assert!(check(claims(serde_json::json!({"nbf": NOW + 29}))).is_ok());
        assert!(
            check(claims(serde_json::json!({"nbf": 1.5e9}))).is_ok(),
            "fractional dates"
        );
        assert_eq!(refused(serde_json::json!({"sub": null})), Invalid::Subject);
        assert_eq!(refused(serde_json::json!({"sub": "  "})), Invalid::Subject);
        assert_eq!(
            refused(serde_json::json!({"sub": "ada\nINFO forged line"})),
            Invalid::Subject
        );
    }

    #[test]
    fn missing_scopes_are_named_from_scope_or_scp() {
        let missing = |extra| check(claims(extra)).unwrap().missing_scopes;
        assert_eq!(
            missing(serde_json::json!({"scope": "openid"})),
            ["mcp:tools"]
        );
        assert_eq!(missing(serde_json::json!({"scope": null})), ["mcp:tools"]);
        assert!(missing(serde_json::json!({"scope": null, "scp": ["mcp:tools"]})).is_empty());
        assert!(missing(serde_json::json!({"scope": null, "scp": "a mcp:tools"})).is_empty());
    }
}
