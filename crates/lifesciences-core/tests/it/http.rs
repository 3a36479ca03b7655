//! The HTTP machinery against mock upstreams, one module per concern: retries, redirects,
//! the source's pace (Retry-After, rate limit, concurrency cap), cache and coalescing,
//! bodies (cap, decoding), and the shape of the requests we send. The helpers below are
//! shared by all of them.

mod bodies;
mod cache;
mod fairness;
mod pacing;
mod redirects;
mod requests;
mod retries;

use lifesciences_core::{ApiError, HttpClient, SourceConfig};
use serde_json::{Value, json};
use wiremock::ResponseTemplate;

fn client(config: SourceConfig) -> HttpClient {
    HttpClient::new(config)
}

fn ok_json() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"ok": true}))
}

async fn get(c: &HttpClient, p: &str) -> Result<Value, ApiError> {
    c.get_json::<Value>(p, &[]).await
}

fn attempts(e: &ApiError) -> u32 {
    match e {
        ApiError::Upstream { attempts, .. } => *attempts,
        other => panic!("not an upstream error: {other:?}"),
    }
}
