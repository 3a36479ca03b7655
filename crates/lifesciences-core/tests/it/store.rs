//! The store shared by processes (the embedded SQLite file) behind the HTTP client: each
//! `HttpClient` here opens the store on its own, as a separate process would, and the
//! mock upstream counts what reaches it.

use std::sync::Arc;
use std::time::Duration;

use futures::future::join_all;
use lifesciences_core::store::{ENV_CACHE_DIR, ENV_OFFLINE, Shared};
use lifesciences_core::testing::{Recording, TempFolder, mock_source, mock_upstream};
use lifesciences_core::{ErrorCode, HttpClient, SourceConfig};
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// A fresh folder for one test's store.
struct Folder(TempFolder);

impl Folder {
    fn new(name: &str) -> Self {
        Self(TempFolder::new(&format!("it-store-{name}")).unwrap())
    }

    fn path(&self) -> String {
        self.0.path().display().to_string()
    }
}

/// The store a process with this environment opens.
fn store(folder: &Folder, offline: bool) -> Arc<Shared> {
    let dir = folder.path();
    Arc::new(
        Shared::from_env(move |var| match var {
            ENV_CACHE_DIR => Some(dir.clone()),
            ENV_OFFLINE if offline => Some("1".to_owned()),
            _ => None,
        })
        .unwrap(),
    )
}

/// One "process": its own store connection and HTTP client for the source.
fn process(config: &SourceConfig, folder: &Folder) -> HttpClient {
    HttpClient::with_store(config.clone(), store(folder, false))
}

async fn get(c: &HttpClient, path: &str) -> Result<Value, lifesciences_core::ApiError> {
    c.get_json::<Value>(path, &[]).await
}

/// A mock upstream answering every GET with `responder` (which counts them), and the
/// configuration of a source `name` that asks it.
async fn upstream(responder: &Recording, name: &str) -> (MockServer, SourceConfig) {
    let server = mock_upstream().await;
    Mock::given(method("GET"))
        .respond_with(responder.clone())
        .mount(&server)
        .await;
    let config = mock_source(name, &server.uri());
    (server, config)
}

#[tokio::test]
async fn an_answer_fetched_by_one_process_is_a_hit_in_another_and_after_a_restart() {
    let responder = Recording::new(ResponseTemplate::new(200).set_body_json(json!({"n": 1})));
    let (_server, config) = upstream(&responder, "Shared").await;
    let folder = Folder::new("hit");
    let first = process(&config, &folder);
    assert_eq!(get(&first, "item/1").await.unwrap(), json!({"n": 1}));
    assert_eq!(responder.count(), 1);
    let second = process(&config, &folder);
    assert_eq!(get(&second, "item/1").await.unwrap(), json!({"n": 1}));
    drop((first, second));
    // A restart: a new process opens the same file.
    let restarted = process(&config, &folder);
    assert_eq!(get(&restarted, "item/1").await.unwrap(), json!({"n": 1}));
    assert_eq!(
        responder.count(),
        1,
        "the other process and the restarted one asked nothing upstream"
    );
    assert_eq!(restarted.config().name(), "Shared");
}

#[tokio::test]
async fn a_failed_answer_is_never_stored() {
    let responder = Recording::sequence(vec![
        ResponseTemplate::new(404),
        ResponseTemplate::new(200).set_body_json(json!({"n": 2})),
    ]);
    let (_server, config) = upstream(&responder, "Shared").await;
    let folder = Folder::new("failed");
    assert!(get(&process(&config, &folder), "gone").await.is_err());
    assert_eq!(
        get(&process(&config, &folder), "gone").await.unwrap(),
        json!({"n": 2})
    );
    assert_eq!(responder.count(), 2);
}

/// Three processes, each with its own budget of 3/s, share one: the upstream never sees
/// more than three requests in a second, however the requests are spread.
#[tokio::test]
async fn three_processes_share_one_budget_at_the_upstream() {
    let responder = Recording::new(
        ResponseTemplate::new(200)
            .set_body_json(json!({"ok": true}))
            .set_delay(Duration::from_millis(20)),
    );
    let (_server, config) = upstream(&responder, "Shared").await;
    let folder = Folder::new("budget");
    let config = config.with_rate(3.0).with_max_concurrent(10);
    let processes: Vec<HttpClient> = (0..3).map(|_| process(&config, &folder)).collect();
    let calls = (0..12).map(|i| {
        let c = processes[i % 3].clone();
        async move { get(&c, &format!("item/{i}")).await }
    });
    for answer in join_all(calls).await {
        answer.unwrap();
    }
    assert_eq!(responder.count(), 12);
    assert!(
        responder.busiest_second() <= 3,
        "{} requests within one second at 3/s: {:?}",
        responder.busiest_second(),
        responder.arrivals()
    );
}

/// The same request asked by three processes at once reaches the upstream once: one
/// fetches, the others wait for the answer it stores.
#[tokio::test]
async fn identical_requests_in_three_processes_make_one_upstream_request() {
    let responder = Recording::new(
        ResponseTemplate::new(200)
            .set_body_json(json!({"slow": true}))
            .set_delay(Duration::from_millis(300)),
    );
    let (_server, config) = upstream(&responder, "Shared").await;
    let folder = Folder::new("coalesce");
    let processes: Vec<HttpClient> = (0..3).map(|_| process(&config, &folder)).collect();
    let answers = join_all(processes.iter().map(|c| get(c, "slow"))).await;
    for answer in answers {
        assert_eq!(answer.unwrap(), json!({"slow": true}));
    }
    assert_eq!(
        responder.count(),
        1,
        "one upstream request for three processes"
    );
}

/// A process whose call is cancelled while it holds a request's lock gives the lock
/// back: another process asks at once instead of waiting out the lock's hold (the
/// source's timeout, 5 s here, plus 5 s).
#[tokio::test]
async fn a_cancelled_holder_gives_back_its_lock() {
    let responder = Recording::new(
        ResponseTemplate::new(200)
            .set_body_json(json!({"ok": true}))
            .set_delay(Duration::from_millis(800)),
    );
    let (_server, config) = upstream(&responder, "Shared").await;
    let folder = Folder::new("cancelled");
    let (a, b) = (process(&config, &folder), process(&config, &folder));
    let cancelled = tokio::time::timeout(Duration::from_millis(200), get(&a, "slow")).await;
    assert!(
        cancelled.is_err(),
        "the first call is cancelled while in flight"
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = std::time::Instant::now();
    get(&b, "slow").await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "the second process waited {:?} for a lock nobody held",
        started.elapsed()
    );
    assert_eq!(
        responder.count(),
        2,
        "the cancelled request, then the second"
    );
}

/// A `Retry-After` told to one process pauses every process: another one's request
/// waits for the pause instead of reaching the upstream.
#[tokio::test]
async fn a_pause_the_upstream_asks_of_one_process_holds_every_process() {
    let server = mock_upstream().await;
    let told = Recording::sequence(vec![
        ResponseTemplate::new(429).insert_header("Retry-After", "1"),
        ResponseTemplate::new(200).set_body_json(json!({"ok": true})),
    ]);
    Mock::given(wiremock::matchers::path("/told"))
        .respond_with(told.clone())
        .mount(&server)
        .await;
    let other = Recording::new(ResponseTemplate::new(200).set_body_json(json!({"ok": true})));
    Mock::given(wiremock::matchers::path("/other"))
        .respond_with(other.clone())
        .mount(&server)
        .await;
    let folder = Folder::new("pause");
    let config = mock_source("Shared", &server.uri()).with_rate(100.0);
    let (a, b) = (process(&config, &folder), process(&config, &folder));
    let first = tokio::spawn(async move { get(&a, "told").await });
    // Let the 429 arrive, then ask from the other process.
    tokio::time::sleep(Duration::from_millis(200)).await;
    get(&b, "other").await.unwrap();
    first.await.unwrap().unwrap();
    let paused_at = told.arrivals()[0];
    let gap = other.arrivals()[0] - paused_at;
    assert!(
        gap >= Duration::from_millis(950),
        "the other process asked {gap:?} after the 429 that asked for 1 s"
    );
}

#[tokio::test]
async fn offline_answers_from_the_store_whatever_its_age_and_refuses_the_rest() {
    let responder = Recording::new(ResponseTemplate::new(200).set_body_json(json!({"n": 3})));
    let (_server, config) = upstream(&responder, "Shared").await;
    let folder = Folder::new("offline");
    // Answers are fresh for 1 s only, and asked again 1.2 s later, offline.
    let config = config.with_cache_ttl(Duration::from_secs(1));
    get(&process(&config, &folder), "kept").await.unwrap();
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let offline = HttpClient::with_store(config.clone(), store(&folder, true));
    assert_eq!(get(&offline, "kept").await.unwrap(), json!({"n": 3}));
    let missing = get(&offline, "never-asked").await.unwrap_err();
    let envelope = missing.to_envelope();
    assert_eq!(envelope.error.code, ErrorCode::UpstreamError);
    assert!(
        envelope.error.message.contains("offline")
            && envelope
                .error
                .recovery_hint
                .contains("LIFESCIENCES_OFFLINE"),
        "{envelope:?}"
    );
    assert_eq!(responder.count(), 1, "offline asks nothing upstream");
}

#[tokio::test]
async fn a_store_file_that_cannot_be_read_leaves_the_process_in_memory() {
    let folder = Folder::new("broken");
    std::fs::write(
        folder.0.path().join(lifesciences_core::store::STORE_FILE),
        "not a database, only text long enough to look like a file header........",
    )
    .unwrap();
    let shared = store(&folder, false);
    assert_eq!(shared.kind(), "memory");
    let health = shared.health();
    assert_eq!(health.kind, "memory");
    assert_eq!(health.degraded, None);
    // A folder that cannot be created (a file is in the way) is the same.
    let blocked = Folder::new("blocked");
    let file = blocked.0.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let path = file.join("below").display().to_string();
    let shared = Shared::from_env(move |var| (var == ENV_CACHE_DIR).then(|| path.clone())).unwrap();
    assert_eq!(shared.kind(), "memory");
}

// ---------------------------------------------------------------------------------------
// Redis: replicas of a fleet (a real redis-server on a Unix socket)

/// One "replica": its own connection to the Redis at `url`.
fn replica(config: &SourceConfig, url: &str) -> HttpClient {
    let url = url.to_owned();
    let shared = Shared::from_env(move |var| {
        (var == lifesciences_core::store::ENV_REDIS_URL).then(|| url.clone())
    })
    .unwrap();
    assert_eq!(shared.kind(), "redis");
    HttpClient::with_store(config.clone(), Arc::new(shared))
}

#[tokio::test]
async fn replicas_share_answers_and_one_budget_through_redis() {
    let Some(redis) = lifesciences_core::testing::redis::RedisServer::start() else {
        return;
    };
    let responder = Recording::new(
        ResponseTemplate::new(200)
            .set_body_json(json!({"ok": true}))
            .set_delay(Duration::from_millis(20)),
    );
    let (_server, config) = upstream(&responder, "Fleet").await;
    let config = config.with_rate(3.0).with_max_concurrent(10);
    let replicas: Vec<HttpClient> = (0..3).map(|_| replica(&config, &redis.url())).collect();
    let calls = (0..9).map(|i| {
        let c = replicas[i % 3].clone();
        async move { get(&c, &format!("item/{i}")).await }
    });
    for answer in join_all(calls).await {
        answer.unwrap();
    }
    assert!(
        responder.busiest_second() <= 3,
        "{} requests within one second at 3/s across three replicas",
        responder.busiest_second()
    );
    // Asked on one replica, answered by the others with no request.
    for c in &replicas[1..] {
        get(c, "item/0").await.unwrap();
    }
    assert_eq!(responder.count(), 9);
}

#[tokio::test]
async fn with_redis_killed_mid_run_no_call_fails_and_the_replica_says_degraded() {
    let Some(mut redis) = lifesciences_core::testing::redis::RedisServer::start() else {
        return;
    };
    let responder = Recording::new(ResponseTemplate::new(200).set_body_json(json!({"ok": 1})));
    let (_server, config) = upstream(&responder, "Fleet").await;
    let config = config.with_rate(50.0);
    let url = redis.url();
    let shared = Arc::new(
        Shared::from_env(move |var| {
            (var == lifesciences_core::store::ENV_REDIS_URL).then(|| url.clone())
        })
        .unwrap(),
    );
    let client = HttpClient::with_store(config, Arc::clone(&shared));
    get(&client, "before").await.unwrap();
    assert_eq!(shared.health().degraded, None);

    redis.stop();
    for i in 0..5 {
        get(&client, &format!("during/{i}")).await.unwrap();
    }
    // The answer fetched before is still this process's.
    get(&client, "before").await.unwrap();
    let health = shared.health();
    assert_eq!(health.kind, "redis");
    assert!(health.degraded.is_some(), "{health:?}");
    assert_eq!(responder.count(), 6);

    // Back: the heartbeat (every 5 s) finds it and ends the degraded state.
    redis.restart();
    let back = std::time::Instant::now();
    while shared.health().degraded.is_some() && back.elapsed() < Duration::from_secs(8) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(shared.health().degraded, None, "Redis is in use again");
    get(&client, "after").await.unwrap();
}
