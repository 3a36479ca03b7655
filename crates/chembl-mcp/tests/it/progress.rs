//! Progress notifications of large batches, seen by a real MCP client that records them.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use lifesciences_core::rmcp::model::{CallToolRequestParams, ProgressNotificationParam};
use lifesciences_core::rmcp::service::{NotificationContext, RunningService};
use lifesciences_core::rmcp::{ClientHandler, RoleClient, ServiceExt as _};
use serde_json::json;

use crate::batch::{MIXED, mount_mixed};
use crate::support::Upstreams;

/// A client that keeps every progress notification it receives.
#[derive(Clone, Default)]
struct ProgressRecorder {
    seen: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for ProgressRecorder {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.seen.lock().unwrap().push(params);
    }
}

async fn connect(
    up: &Upstreams,
) -> (
    ProgressRecorder,
    RunningService<RoleClient, ProgressRecorder>,
) {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let server = up.server();
    tokio::spawn(async move {
        let (read, write) = tokio::io::split(server_io);
        let _ = lifesciences_core::serve::serve_io(
            lifesciences_core::Served::new(server),
            read,
            write,
            futures_pending(),
            lifesciences_core::serve::SHUTDOWN_GRACE,
        )
        .await;
    });
    let recorder = ProgressRecorder::default();
    let client = recorder.clone().serve(client_io).await.unwrap();
    (recorder, client)
}

async fn futures_pending() {
    std::future::pending::<()>().await;
}

/// Call the batch tool (rmcp's client attaches a progress token to every request).
async fn call_batch(
    client: &RunningService<RoleClient, ProgressRecorder>,
    arguments: serde_json::Value,
) -> serde_json::Value {
    let arguments = arguments.as_object().unwrap().clone();
    let result = client
        .call_tool(
            CallToolRequestParams::new("chembl_get_compounds_batch").with_arguments(arguments),
        )
        .await
        .unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result.structured_content.unwrap()
}

/// Notifications may be handled just after the response: wait until `done` holds.
async fn settled(recorder: &ProgressRecorder, done: impl Fn(&[ProgressNotificationParam]) -> bool) {
    for _ in 0..100 {
        if done(&recorder.seen.lock().unwrap()) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_large_batch_reports_progress_to_a_client_that_asks() {
    let up = Upstreams::start().await;
    mount_mixed(&up).await;
    let (recorder, client) = connect(&up).await;

    let batch = call_batch(&client, json!({"chembl_ids": MIXED})).await;
    assert_eq!(batch["found"], 7);
    settled(&recorder, |seen| {
        seen.last().is_some_and(|p| p.progress == 10.0)
    })
    .await;

    let seen = recorder.seen.lock().unwrap().clone();
    assert!(seen.len() >= 2, "{seen:?}");
    assert!(seen.iter().all(|p| p.total == Some(10.0)), "{seen:?}");
    // Progress only moves forward (the protocol requires it).
    assert!(
        seen.windows(2).all(|w| w[0].progress < w[1].progress),
        "{seen:?}"
    );
    let first = &seen[0];
    assert_eq!(first.progress, 0.0);
    assert!(
        first
            .message
            .as_deref()
            .unwrap_or_default()
            .contains("one request"),
        "{first:?}"
    );
    let last = seen.last().unwrap();
    assert_eq!(last.progress, 10.0);
    assert_eq!(last.message.as_deref(), Some("7 found, 3 failed"));
    let _ = client.cancel().await;
}

#[tokio::test]
async fn a_small_batch_sends_no_progress() {
    let up = Upstreams::start().await;
    wiremock::Mock::given(wiremock::matchers::path("/molecule.json"))
        .respond_with(crate::support::ok(
            "molecule__in=CHEMBL25,CHEMBL192,CHEMBL27__only=id,name.json",
        ))
        .mount(&up.chembl)
        .await;
    let (recorder, client) = connect(&up).await;

    let batch = call_batch(
        &client,
        json!({"chembl_ids": ["CHEMBL:25", "CHEMBL:27", "CHEMBL:192"]}),
    )
    .await;
    assert_eq!(batch["found"], 3);
    // Give a stray notification every chance to arrive.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(recorder.seen.lock().unwrap().is_empty());
    let _ = client.cancel().await;
}

#[tokio::test]
async fn a_full_batch_advances_once_per_compound_enriched() {
    let up = Upstreams::start().await;
    crate::batch::mount_full_pair(&up).await;
    let (recorder, client) = connect(&up).await;

    // Two compounds to enrich; eight malformed IDs settled at once.
    let mut ids = vec!["CHEMBL:2109414".to_owned(), "CHEMBL:25".to_owned()];
    ids.extend((1..=8).map(|n| format!("CHEMBL{n}")));
    let batch = call_batch(&client, json!({"chembl_ids": ids, "slim": false})).await;
    assert_eq!(batch["found"], 2);
    settled(&recorder, |seen| {
        seen.last().is_some_and(|p| p.progress == 10.0)
    })
    .await;

    let progress: Vec<f64> = recorder
        .seen
        .lock()
        .unwrap()
        .iter()
        .map(|p| p.progress)
        .collect();
    assert_eq!(progress, [0.0, 8.0, 9.0, 10.0]);
    let _ = client.cancel().await;
}
