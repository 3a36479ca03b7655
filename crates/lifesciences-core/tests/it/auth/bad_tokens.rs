//! Every family of bad token an issuer-checking server refuses, and what it says.

use std::time::Duration;

use lifesciences_core::serve::auth;
use lifesciences_core::testing::{SigningKey, TestIssuer, mock_upstream};
use serde_json::{Value, json};

use super::{bearer, initialize, now_secs, serving};

#[tokio::test]
async fn every_family_of_bad_token_is_refused_and_nothing_a_token_names_is_fetched() {
    let issuer = TestIssuer::start().await;
    // Where a hostile token points for its keys: no request may reach it.
    let attacker = mock_upstream().await;
    let elsewhere = format!("{}/keys.json", attacker.uri());
    let mut env = issuer.env();
    env.push((auth::SCOPES_VAR, "mcp:tools".to_owned()));
    let running = serving(&env, "http://127.0.0.1:9").await;
    let addr = running.local_addr;
    let now = now_secs();
    let impostor = SigningKey::rsa_b("rsa-1");
    let es = SigningKey::es256("ec-1");

    let good = initialize(addr, &bearer(&issuer.token().sign())).await;
    assert_eq!(good.status, 200, "{good:?}");

    let cases = [
        header_cases(&issuer, &elsewhere, &impostor, &es),
        claim_cases(&issuer, now),
    ]
    .concat();
    for (family, authorization, says) in &cases {
        let refused = initialize(addr, authorization).await;
        assert_eq!(refused.status, 401, "{family}: {refused:?}");
        let challenge = refused.challenge();
        assert!(
            challenge.contains("resource_metadata=\"https://mcp.test.example/"),
            "{family}: {challenge}"
        );
        if says.is_empty() {
            assert!(!challenge.contains("error="), "{family}: {challenge}");
        } else {
            assert!(
                challenge.contains("error=\"invalid_token\""),
                "{family}: {challenge}"
            );
            assert!(challenge.contains(says), "{family}: {challenge}");
        }
        assert!(refused.header("mcp-session-id").is_none(), "{family}");
    }

    // A valid token without the scope: 403 naming it.
    let scopeless = issuer.token().claim("scope", "openid profile").sign();
    let forbidden = initialize(addr, &bearer(&scopeless)).await;
    assert_eq!(forbidden.status, 403, "{forbidden:?}");
    assert!(forbidden.challenge().starts_with(
        "Bearer error=\"insufficient_scope\", scope=\"mcp:tools\", error_description=\"the token lacks the scope mcp:tools\""
    ), "{}", forbidden.challenge());

    // What the hostile headers named was never asked for; the issuer was asked its keys
    // once for the first token and once for each unknown kid at most every 10 s: once.
    assert!(attacker.received_requests().await.unwrap().is_empty());
    assert_eq!(issuer.metadata_requests(), 1);
    assert_eq!(issuer.jwks_requests(), 1);
    running.shutdown(Duration::from_secs(1)).await;
}

/// Bad tokens, as (family, `Authorization` header, what the challenge says).
fn header_cases(
    issuer: &TestIssuer,
    elsewhere: &str,
    impostor: &SigningKey,
    es: &SigningKey,
) -> Vec<(&'static str, String, &'static str)> {
    vec![
        ("another scheme", "Basic YWRhOnNlY3JldA==".to_owned(), ""),
        (
            "an empty bearer",
            "Bearer ".to_owned(),
            "the token is not a JWT",
        ),
        (
            "two words",
            "Bearer a b".to_owned(),
            "the token is not a JWT",
        ),
        (
            "not a JWT",
            bearer("0123456789abcdef"),
            "the token is not a JWT",
        ),
        (
            "alg none",
            bearer(&issuer.token().unsigned()),
            "algorithm is not accepted",
        ),
        (
            "HS256 keyed with the public key",
            bearer(
                &issuer
                    .token()
                    .hs256(issuer.key().jwk().to_string().as_bytes()),
            ),
            "algorithm is not accepted",
        ),
        (
            "an unknown kid",
            bearer(&issuer.token().header("kid", "rsa-2").sign()),
            "a key the issuer does not publish",
        ),
        (
            "a hostile kid",
            bearer(
                &issuer
                    .token()
                    .header("kid", "../../../etc/passwd' OR 1=1 --")
                    .sign(),
            ),
            "a key the issuer does not publish",
        ),
        (
            "an oversized kid",
            bearer(&issuer.token().header("kid", "k".repeat(4000)).sign()),
            "names no key",
        ),
        (
            "jku",
            bearer(&issuer.token().header("jku", elsewhere).sign()),
            "never used",
        ),
        (
            "x5u",
            bearer(&issuer.token().header("x5u", elsewhere).sign()),
            "never used",
        ),
        (
            "an embedded jwk",
            bearer(
                &issuer
                    .token()
                    .header("jwk", impostor.jwk())
                    .signed_by(impostor)
                    .sign(),
            ),
            "never used",
        ),
        (
            "x5c",
            bearer(&issuer.token().header("x5c", json!(["MIIB"])).sign()),
            "never used",
        ),
        (
            "an untrusted signer claiming the issuer's kid",
            bearer(&issuer.token().signed_by(impostor).sign()),
            "signature is not valid",
        ),
        (
            "a key of another type than the algorithm",
            bearer(&issuer.token().signed_by(&es.clone().as_kid("rsa-1")).sign()),
            "a key the issuer does not publish",
        ),
        (
            "a signature altered",
            bearer(&{
                let mut t = issuer.token().sign().into_bytes();
                let at = t.len() - 20;
                t[at] = if t[at] == b'A' { b'B' } else { b'A' };
                String::from_utf8(t).unwrap()
            }),
            "signature is not valid",
        ),
        (
            "claims altered after signing",
            bearer(&{
                let signed = issuer.token().sign();
                let forged = issuer.token().claim("sub", "root").sign();
                let (_, signature) = signed.rsplit_once('.').unwrap();
                let (forged_input, _) = forged.rsplit_once('.').unwrap();
                format!("{forged_input}.{signature}")
            }),
            "signature is not valid",
        ),
    ]
}

/// Bad tokens, as (family, `Authorization` header, what the challenge says).
fn claim_cases(issuer: &TestIssuer, now: u64) -> Vec<(&'static str, String, &'static str)> {
    vec![
        (
            "another issuer",
            bearer(
                &issuer
                    .token()
                    .claim("iss", "https://evil.example/realms/lab")
                    .sign(),
            ),
            "from another issuer",
        ),
        (
            "no iss",
            bearer(&issuer.token().claim("iss", Value::Null).sign()),
            "from another issuer",
        ),
        (
            "another audience",
            bearer(
                &issuer
                    .token()
                    .claim("aud", "https://other.example/mcp")
                    .sign(),
            ),
            "not issued for this server",
        ),
        (
            "no aud",
            bearer(&issuer.token().claim("aud", Value::Null).sign()),
            "not issued for this server",
        ),
        (
            "no exp",
            bearer(&issuer.token().claim("exp", Value::Null).sign()),
            "has no expiry",
        ),
        (
            "expired",
            bearer(&issuer.token().claim("exp", now - 120).sign()),
            "has expired",
        ),
        (
            "future nbf",
            bearer(&issuer.token().claim("nbf", now + 600).sign()),
            "not valid yet",
        ),
        (
            "typ JWT",
            bearer(&issuer.token().header("typ", "JWT").sign()),
            "not an access token",
        ),
        (
            "no typ",
            bearer(&issuer.token().header("typ", Value::Null).sign()),
            "not an access token",
        ),
        (
            "an ID token's typ",
            bearer(&issuer.token().header("typ", "id+jwt").sign()),
            "not an access token",
        ),
        (
            "no sub",
            bearer(&issuer.token().claim("sub", Value::Null).sign()),
            "names no subject",
        ),
    ]
}
