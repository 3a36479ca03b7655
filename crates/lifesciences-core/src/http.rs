//! `HttpClient`: the one place that builds `reqwest` clients, and everything between a
//! source client and the network.
//!
//! A call goes: response cache (GETs) → coalescing of identical in-flight requests →
//! retries with backoff → per attempt: concurrency permit, the source's pause (after a
//! 429 or 503 with `Retry-After`), rate-limit permit, request with timeout, body read
//! under the size cap. JSON is decoded per caller with the failing path named in the
//! error.
//!
//! **Invariant:** no lock is held across an upstream request; the rate limiter only waits
//! for a permit and requests then run concurrently up to the concurrency cap.

mod body;
mod build;
mod coalesce;
mod release;
mod retry;
mod shared;
mod window;

use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use futures::FutureExt as _;
use reqwest::header::{ACCEPT, CONTENT_TYPE, RETRY_AFTER};
use reqwest::{Method, StatusCode};
use serde::{Serialize, de::DeserializeOwned};
use tokio::sync::Semaphore;
use url::Url;

use crate::config::{Proxies, SourceConfig};
use crate::error::{ApiError, UpstreamFailure};
use crate::notify::{Level, notify};
use crate::provenance::{self, ReleaseSource};
use crate::store::{self, Shared};
use coalesce::Coalescer;

const JSON: &str = "application/json";
const FORM: &str = "application/x-www-form-urlencoded";

/// One upstream request, ready to send.
#[derive(Debug, Clone)]
struct Prepared {
    method: Method,
    url: Url,
    accept: &'static str,
    body: Option<(&'static str, Bytes)>,
    /// GETs are cached; look-up POSTs are not.
    cacheable: bool,
    /// The most bytes of body accepted: the source's cap, or one of the request's own.
    max_body: u64,
    /// Identity of the request for the cache and for coalescing.
    key: Arc<str>,
    /// Its key in the store (a digest of `key`), worked out once, when first needed.
    store_key: Arc<OnceLock<String>>,
}

impl Prepared {
    fn store_key(&self) -> &str {
        self.store_key.get_or_init(|| store::answer_key(&self.key))
    }
}

/// An upstream answer's body and when the upstream sent it: what the cache holds, so an
/// answer served from it keeps its original retrieval time.
#[derive(Debug, Clone)]
struct Fetched {
    body: Bytes,
    retrieved_at: SystemTime,
    /// Until when it may be served from a cache.
    fresh_until: SystemTime,
    /// Where this process got it.
    origin: provenance::Origin,
}

/// The in-process cache keeps an answer until it is no longer fresh (an answer from the
/// store may have little time left).
struct UntilStale;

impl moka::Expiry<Arc<str>, Fetched> for UntilStale {
    fn expire_after_create(
        &self,
        _key: &Arc<str>,
        fetched: &Fetched,
        _created_at: std::time::Instant,
    ) -> Option<Duration> {
        Some(
            fetched
                .fresh_until
                .duration_since(SystemTime::now())
                .unwrap_or(Duration::ZERO),
        )
    }
}

/// A source-wide pause the upstream asked for.
#[derive(Debug, Clone, Copy)]
struct Pause {
    until: tokio::time::Instant,
    /// The status that asked for it (429 or 503).
    status: u16,
}

struct Inner {
    config: SourceConfig,
    /// Base URL as a string without a trailing slash.
    base: String,
    /// Built on first use: setting up TLS (loading the platform's root certificates)
    /// costs milliseconds per source, and `initialize` must not wait for it.
    client: OnceLock<Result<reqwest::Client, String>>,
    /// The politeness budget: this process's window, and the store's when there is one.
    budget: shared::Budget,
    permits: Semaphore,
    cache: Option<moka::future::Cache<Arc<str>, Fetched>>,
    inflight: Coalescer<Fetched>,
    /// The data release the source serves, asked once a day.
    release: release::Release,
    /// Set when the upstream answered 429 or 503 with `Retry-After`: no request to this
    /// source is sent before then, whichever call it belongs to.
    paused: Mutex<Option<Pause>>,
    /// The store shared with other processes and replicas (or none: memory).
    store: Arc<Shared>,
}

/// The HTTP machinery of one source: a pooled client, its rate limiter, concurrency cap,
/// retry policy, response cache and coalescing. Cheap to clone; clones share everything.
#[derive(Clone)]
pub struct HttpClient {
    inner: Arc<Inner>,
}

impl ReleaseSource for HttpClient {
    fn release(&self) -> futures::future::BoxFuture<'_, Option<Arc<str>>> {
        HttpClient::release(self).boxed()
    }
}

impl std::fmt::Debug for HttpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpClient")
            .field("source", &self.inner.config.name())
            .field("base", &self.inner.base)
            .finish_non_exhaustive()
    }
}

impl HttpClient {
    /// Build the machinery for one source, everything in this process. Does no I/O; the
    /// pooled HTTP client itself is built on the first request.
    pub fn new(config: SourceConfig) -> Self {
        Self::with_store(config, Arc::new(Shared::memory()))
    }

    /// [`new`](Self::new) with the store this process shares with others (see
    /// [`crate::store`]): answers and the budget of the source's host live there too.
    pub fn with_store(config: SourceConfig, store: Arc<Shared>) -> Self {
        let cache = (!config.cache_ttl.is_zero()).then(|| {
            moka::future::Cache::builder()
                .max_capacity(config.cache_max_bytes)
                .weigher(|key: &Arc<str>, fetched: &Fetched| {
                    u32::try_from(key.len() + fetched.body.len()).unwrap_or(u32::MAX)
                })
                .expire_after(UntilStale)
                .build()
        });
        let base = config.base_url.as_str().trim_end_matches('/').to_owned();
        // One budget per upstream (host, port and base path): a test's mock never shares
        // the real service's. A request in flight longer than the timeout has failed.
        let budget_key = format!(
            "{}:{}{}",
            config.base_url.host_str().unwrap_or_default(),
            config.base_url.port_or_known_default().unwrap_or_default(),
            config.base_url.path().trim_end_matches('/')
        );
        let budget = shared::Budget::new(
            config.rate_per_second,
            budget_key,
            config.timeout + Duration::from_secs(5),
            Arc::clone(&store),
        );
        Self {
            inner: Arc::new(Inner {
                permits: Semaphore::new(config.max_concurrent.max(1)),
                base,
                client: OnceLock::new(),
                budget,
                cache,
                inflight: Coalescer::default(),
                release: release::Release::default(),
                paused: Mutex::new(None),
                store,
                config,
            }),
        }
    }

    /// The configuration this client was built from.
    pub fn config(&self) -> &SourceConfig {
        &self.inner.config
    }

    /// The absolute URL for `path` and `query` (with the source's default query), as this
    /// client would request it. Tools that hand the user a link (e.g. an image URL) use
    /// this so the link follows the configured base URL.
    pub fn url(&self, path: &str, query: &[(&str, &str)]) -> Result<Url, ApiError> {
        let joined = format!("{}/{}", self.inner.base, path.trim_start_matches('/'));
        let mut url = Url::parse(&joined).map_err(|e| ApiError::Upstream {
            upstream: self.inner.config.name().to_owned(),
            failure: UpstreamFailure::Transport {
                detail: format!("cannot build a URL from {joined:?}: {e}"),
            },
            attempts: 0,
        })?;
        let defaults = self.inner.config.default_query.iter();
        let pairs: Vec<(&str, &str)> = defaults
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .chain(query.iter().copied())
            .collect();
        if !pairs.is_empty() {
            url.query_pairs_mut().extend_pairs(pairs);
        }
        Ok(url)
    }

    /// GET `path` with `query`, decoded from JSON. Cached and coalesced.
    pub async fn get_json<T: Answer>(
        &self,
        path: &str,
        query: &[(&str, &str)],
    ) -> Result<T, ApiError> {
        let prepared = self.prepare(Method::GET, path, query, JSON, None)?;
        self.fetch_json(prepared).await
    }

    /// POST a JSON body as an idempotent look-up (retried and coalesced; cached only when
    /// the source opted in with `SourceConfig::with_cached_posts`).
    pub async fn post_json<T: Answer, B: Serialize + ?Sized>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<T, ApiError> {
        self.post_json_query(path, &[], body).await
    }

    /// [`post_json`](Self::post_json) with a query string (options an endpoint reads
    /// from the URL, such as VEP's flags).
    pub async fn post_json_query<T: Answer, B: Serialize + ?Sized>(
        &self,
        path: &str,
        query: &[(&str, &str)],
        body: &B,
    ) -> Result<T, ApiError> {
        let bytes = serde_json::to_vec(body).map_err(|e| ApiError::Upstream {
            upstream: self.inner.config.name().to_owned(),
            failure: UpstreamFailure::Transport {
                detail: format!("cannot encode the request body: {e}"),
            },
            attempts: 0,
        })?;
        let prepared = self.prepare(Method::POST, path, query, JSON, Some((JSON, bytes.into())))?;
        self.fetch_json(prepared).await
    }

    /// POST a form as an idempotent look-up (retried and coalesced; cached only when the
    /// source opted in with `SourceConfig::with_cached_posts`).
    pub async fn post_form<T: Answer>(
        &self,
        path: &str,
        form: &[(&str, &str)],
    ) -> Result<T, ApiError> {
        let encoded = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        let prepared = self.prepare(
            Method::POST,
            path,
            &[],
            JSON,
            Some((FORM, Bytes::from(encoded))),
        )?;
        self.fetch_json(prepared).await
    }

    /// POST a form as an idempotent look-up and return the body as sent (an image, say):
    /// retried, coalesced and cached like [`post_form`](Self::post_form), with `accept`
    /// as the wanted media type and `max_bytes` as this request's own body cap in place
    /// of the source's (a body over it is `UpstreamFailure::TooLarge`). `check` says
    /// whether a body is what was asked for; one it refuses is a decode failure and is
    /// not kept in the cache.
    pub async fn post_form_bytes(
        &self,
        path: &str,
        form: &[(&str, &str)],
        accept: &'static str,
        max_bytes: u64,
        check: impl Fn(&[u8]) -> Result<(), String>,
    ) -> Result<Bytes, ApiError> {
        let encoded = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        let mut prepared = self.prepare(
            Method::POST,
            path,
            &[],
            accept,
            Some((FORM, Bytes::from(encoded))),
        )?;
        prepared.max_body = max_bytes;
        prepared.key = format!("{} max={max_bytes}", prepared.key).into();
        prepared.store_key = Arc::default();
        let key = prepared.key.clone();
        let url = prepared.url.clone();
        let bytes = self.execute(prepared).await?;
        match check(&bytes) {
            Ok(()) => Ok(bytes),
            Err(detail) => {
                tracing::warn!(
                    source = %self.inner.config.name(),
                    url = %url,
                    error = %detail,
                    "unexpected upstream body"
                );
                self.forget(&key).await;
                Err(ApiError::Upstream {
                    upstream: self.inner.config.name().to_owned(),
                    failure: UpstreamFailure::Decode {
                        path: ".".to_owned(),
                        detail,
                    },
                    attempts: 1,
                })
            }
        }
    }

    fn prepare(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, &str)],
        accept: &'static str,
        body: Option<(&'static str, Bytes)>,
    ) -> Result<Prepared, ApiError> {
        let url = self.url(path, query)?;
        let mut key = format!("{method} {url} {accept}");
        if let Some((content_type, bytes)) = &body {
            key.push_str(&format!(
                "\n{content_type}\n{}",
                String::from_utf8_lossy(bytes)
            ));
        }
        Ok(Prepared {
            cacheable: method == Method::GET || self.inner.config.cache_posts,
            max_body: self.inner.config.max_body_bytes,
            method,
            url,
            accept,
            body,
            key: key.into(),
            store_key: Arc::default(),
        })
    }

    async fn fetch_json<T: Answer>(&self, prepared: Prepared) -> Result<T, ApiError> {
        let key = prepared.key.clone();
        let url = prepared.url.clone();
        let bytes = self.execute(prepared).await?;
        let mut de = serde_json::Deserializer::from_slice(&bytes);
        // `end` refuses trailing bytes after the value: a corrupted body is not accepted.
        let decoded = serde_path_to_error::deserialize::<_, T>(&mut de)
            .map_err(|e| (e.path().to_string(), e.into_inner().to_string()))
            .and_then(|value| {
                de.end().map(|()| value).map_err(|e| {
                    (
                        ".".to_owned(),
                        format!("unexpected data after the JSON value: {e}"),
                    )
                })
            })
            // Decoded, but not what the upstream documents (rows with none of the fields
            // that make a row): the same as a body we cannot read.
            .and_then(|value| match value.unusable() {
                None => Ok(value),
                Some(why) => Err((".".to_owned(), why)),
            });
        match decoded {
            Ok(value) => Ok(value),
            Err((path, detail)) => {
                tracing::warn!(
                    source = %self.inner.config.name(),
                    url = %url,
                    path = %path,
                    error = %detail,
                    "undecodable upstream response"
                );
                // Do not keep serving a body we cannot read.
                self.forget(&key).await;
                Err(ApiError::Upstream {
                    upstream: self.inner.config.name().to_owned(),
                    failure: UpstreamFailure::Decode { path, detail },
                    attempts: 1,
                })
            }
        }
    }

    /// Cache, then the store, then coalesce (in this process, then across replicas), then
    /// fetch with retries; the answer is recorded for the provenance of the tool call it
    /// serves. Offline, nothing is fetched: an answer the store does not hold is an error.
    async fn execute(&self, prepared: Prepared) -> Result<Bytes, ApiError> {
        let slot = self.asking(&prepared);
        let store = &self.inner.store;
        store::Shared::beat_from(store);
        let caching = prepared.cacheable && self.inner.cache.is_some();
        if caching && let Some(hit) = self.cached(&prepared).await {
            let origin = if store.offline() {
                provenance::Origin::Offline
            } else {
                hit.origin
            };
            provenance::answered(slot, hit.retrieved_at, origin);
            return Ok(hit.body);
        }
        if store.offline() {
            store.note_offline_miss(prepared.url.as_str());
            return Err(ApiError::Upstream {
                upstream: self.inner.config.name().to_owned(),
                failure: UpstreamFailure::Offline,
                attempts: 0,
            });
        }
        let key = prepared.key.clone();
        let this = self.clone();
        let request = prepared.clone();
        let shared = self
            .inner
            .inflight
            .join_or_start(key, move || this.fetch_and_keep(request, caching).boxed());
        let fetched = shared.await?;
        provenance::answered(slot, fetched.retrieved_at, fetched.origin);
        Ok(fetched.body)
    }

    /// The answer this process's cache holds, or else the store (kept in this process's
    /// cache from then on).
    async fn cached(&self, prepared: &Prepared) -> Option<Fetched> {
        let cache = self.inner.cache.as_ref()?;
        if let Some(mut hit) = cache.get(&prepared.key).await {
            tracing::debug!(source = %self.inner.config.name(), url = %prepared.url, "cache hit");
            hit.origin = provenance::Origin::Cache;
            return Some(hit);
        }
        let store = &self.inner.store;
        if !store.configured() {
            return None;
        }
        let stored = shared::lookup(store, prepared.store_key()).await?;
        tracing::debug!(source = %self.inner.config.name(), url = %prepared.url, "store hit");
        let fresh = stored.fresh_until > SystemTime::now();
        let hit = Fetched {
            body: stored.body,
            retrieved_at: stored.retrieved_at,
            fresh_until: stored.fresh_until,
            origin: provenance::Origin::Cache,
        };
        if fresh {
            cache.insert(prepared.key.clone(), hit.clone()).await;
        }
        Some(hit)
    }

    /// Fetch with retries, unless another replica is fetching the same answer (then wait
    /// for it); keep a success in the cache and the store.
    async fn fetch_and_keep(self, request: Prepared, caching: bool) -> Result<Fetched, ApiError> {
        let store = &self.inner.store;
        let shared_key = (caching && store.in_use()).then(|| request.store_key().to_owned());
        let mut lock = None;
        if let Some(key) = &shared_key {
            let hold = self.inner.config.timeout + Duration::from_secs(5);
            match shared::lead_or_wait(store, key, hold, self.inner.config.timeout).await {
                shared::Lead::Fetched(stored) => {
                    return Ok(Fetched {
                        body: stored.body,
                        retrieved_at: stored.retrieved_at,
                        fresh_until: stored.fresh_until,
                        origin: provenance::Origin::Cache,
                    });
                }
                shared::Lead::Fetch { locked } => {
                    lock = locked.then(|| shared::Held::new(Arc::clone(store), key.clone()));
                }
            }
        }
        let result = self.fetch_with_retries(&request).await.map(|body| {
            let now = SystemTime::now();
            Fetched {
                body,
                retrieved_at: now,
                fresh_until: now + self.inner.config.cache_ttl,
                origin: provenance::Origin::Upstream,
            }
        });
        if let (Ok(fetched), true, Some(cache)) = (&result, caching, &self.inner.cache) {
            cache.insert(request.key.clone(), fetched.clone()).await;
        }
        if let Some(key) = &shared_key {
            if let Ok(fetched) = &result {
                let stored = store::Stored {
                    body: fetched.body.clone(),
                    retrieved_at: fetched.retrieved_at,
                    fresh_until: fetched.fresh_until,
                };
                shared::keep(store, key, &stored).await;
            }
            if let Some(lock) = lock {
                lock.release().await;
            }
        }
        result
    }

    /// Stop serving the answer under `key` (it turned out unreadable), here and in the
    /// store.
    async fn forget(&self, key: &str) {
        if let Some(cache) = &self.inner.cache {
            cache.invalidate(key).await;
        }
        let store = &self.inner.store;
        if store.configured() {
            shared::forget(store, &store::answer_key(key)).await;
        }
    }

    /// Tell the current tool call's provenance that it asks this request.
    fn asking(&self, prepared: &Prepared) -> Option<provenance::Slot> {
        provenance::asking(
            self.inner.config.name(),
            || Arc::new(self.clone()) as Arc<dyn ReleaseSource>,
            || {
                provenance::describe_request(
                    prepared.method.as_str(),
                    prepared.url.as_str(),
                    prepared.body.as_ref().map(|(_, body)| body.as_ref()),
                )
            },
        )
    }

    /// The data release this source serves, for provenance: known, or asked now (at most
    /// once a day, in a task of its own) and waited for briefly; `None` when the source
    /// does not say, its look-up failed, or it is not back in time (see `release.rs`).
    pub async fn release(&self) -> Option<Arc<str>> {
        let config = &self.inner.config;
        let check = config.upstream.release.filter(|_| config.ask_release)?;
        let asking = match self.inner.release.next() {
            release::Next::Ready(known) => return known,
            release::Next::Wait(asking) => asking,
            release::Next::Ask => {
                let this = self.clone();
                let task = tokio::spawn(async move {
                    let found = match this
                        .get_json::<serde_json::Value>(check.path, check.query)
                        .await
                    {
                        Ok(answer) => {
                            let found = release::read(&answer, check.pointer);
                            if found.is_none() {
                                tracing::warn!(source = %this.inner.config.name(), pointer = check.pointer, "the release look-up does not name a release");
                            }
                            found
                        }
                        Err(e) => {
                            tracing::warn!(source = %this.inner.config.name(), error = %e, "the release look-up failed: results name no release until tomorrow");
                            None
                        }
                    };
                    this.inner.release.known(found.clone());
                    found
                });
                self.inner
                    .release
                    .asking(async move { task.await.ok().flatten() }.boxed())
            }
        };
        release::wait(asking).await
    }

    async fn fetch_with_retries(&self, prepared: &Prepared) -> Result<Bytes, ApiError> {
        let config = &self.inner.config;
        let label = format!("{} {}", config.name(), prepared.url);
        let (outcome, attempts) =
            retry::run(&config.retry, &label, || self.attempt(prepared)).await;
        outcome.map_err(|failure| ApiError::from_failure(config.name(), failure, attempts))
    }

    /// Send the source's health check once (no cache, no retries, but within its rate
    /// and concurrency limits) and say whether the upstream answered, how fast, and if
    /// not, why: DNS, TLS, proxy, connection, timeout or the HTTP status. What
    /// `<bin> check` prints.
    pub async fn probe(&self) -> Probe {
        let config = &self.inner.config;
        let health = config.upstream.health;
        let url = match self.url(health.path, health.query) {
            Ok(url) => url,
            Err(e) => {
                return Probe {
                    source: config.name(),
                    url: format!("{}/{}", self.inner.base, health.path),
                    outcome: Err(e.to_string()),
                    latency: Duration::ZERO,
                };
            }
        };
        let started = std::time::Instant::now();
        let outcome = self.probe_once(&url).await;
        Probe {
            source: config.name(),
            url: url.to_string(),
            outcome,
            latency: started.elapsed(),
        }
    }

    /// The pooled client, built on first use; why it could not be built otherwise.
    fn reqwest(&self) -> Result<&reqwest::Client, &str> {
        self.inner
            .client
            .get_or_init(|| build::build_reqwest(&self.inner.config))
            .as_ref()
            .map_err(String::as_str)
    }

    async fn probe_once(&self, url: &Url) -> Result<u16, String> {
        let config = &self.inner.config;
        let client = self.reqwest().map_err(ToOwned::to_owned)?;
        let _slot = self
            .inner
            .permits
            .acquire()
            .await
            .map_err(|_| "the client is shutting down".to_owned())?;
        let permit = self
            .inner
            .budget
            .permit(Duration::ZERO)
            .await
            .map_err(|failure| {
                format!(
                    "not sent: the upstream asked to wait ({})",
                    failure.summary()
                )
            })?;
        let sent = client
            .get(url.clone())
            .timeout(config.timeout)
            .header(ACCEPT, JSON)
            .send()
            .await;
        drop(permit);
        let response =
            sent.map_err(|e| probe_failure(&e, url, config.timeout, &config.network.proxies))?;
        let status = response.status();
        if status.is_success() {
            Ok(status.as_u16())
        } else {
            Err(format!("HTTP {status}"))
        }
    }

    /// One request: concurrency permit first (so requests waiting for a slot do not
    /// bunch up and burst past the rate later), then a rate-limit permit, then the call.
    async fn attempt(&self, prepared: &Prepared) -> Result<Bytes, UpstreamFailure> {
        let config = &self.inner.config;
        // Build the client (first use only) before taking a rate permit: a permit must be
        // spent on sending, or the next request could go out less than a period later.
        let client = self.reqwest().map_err(|detail| UpstreamFailure::Connect {
            detail: detail.to_owned(),
        })?;
        let _slot = self
            .inner
            .permits
            .acquire()
            .await
            .map_err(|_| UpstreamFailure::Transport {
                detail: "the client is shutting down".into(),
            })?;
        self.wait_out_pause().await?;
        let permit = self.inner.budget.permit(config.retry.max_delay).await?;

        let started = std::time::Instant::now();
        let mut request = client
            .request(prepared.method.clone(), prepared.url.clone())
            .timeout(config.timeout)
            .header(ACCEPT, prepared.accept);
        if let Some((content_type, body)) = &prepared.body {
            request = request
                .header(CONTENT_TYPE, *content_type)
                .body(body.clone());
        }
        let sent = request.send().await;
        // The answer is back (or the request failed): it counts one more window from now.
        drop(permit);
        let response = sent.map_err(|e| {
            let failure = UpstreamFailure::from_reqwest(&e, config.timeout);
            tracing::debug!(source = %config.name(), url = %prepared.url, ?failure, "request failed");
            failure
        })?;
        let status = response.status();
        tracing::debug!(
            source = %config.name(),
            method = %prepared.method,
            url = %prepared.url,
            status = status.as_u16(),
            elapsed_ms = started.elapsed().as_millis() as u64,
            "upstream response"
        );
        if status.is_success() {
            return body::read_capped(response, prepared.max_body, config.timeout).await;
        }
        let failure = status_failure(status, response).await;
        if let UpstreamFailure::Status {
            status: 429 | 503,
            retry_after: Some(wait),
            ..
        } = &failure
        {
            self.pause_for(status.as_u16(), *wait);
        }
        Err(failure)
    }

    /// The upstream asked us to wait (`Retry-After` on a 429 or 503): it means every
    /// request, not just the one that was told, so the whole source pauses until then.
    fn pause_for(&self, status: u16, wait: Duration) {
        let until = tokio::time::Instant::now() + wait;
        let mut paused = self
            .inner
            .paused
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if paused.is_none_or(|current| current.until < until) {
            *paused = Some(Pause { until, status });
            self.inner.budget.pause_everyone(status, wait);
            tracing::info!(
                source = %self.inner.config.name(),
                wait_secs = wait.as_secs_f64(),
                "upstream asked us to wait: pausing every request to it"
            );
            notify(
                Level::Notice,
                format_args!(
                    "{} asked us to wait (HTTP {status}): every request to it pauses for {:.0} s",
                    self.inner.config.name(),
                    wait.as_secs_f64()
                ),
            );
        }
    }

    /// Wait while the source is paused. A pause longer than one retry wait may last is not
    /// waited out: the attempt fails at once as rate limited, without a request, so the
    /// call ends as the answer that paused it would have (`RATE_LIMITED` with the time
    /// left, after a 429) instead of hammering the upstream.
    async fn wait_out_pause(&self) -> Result<(), UpstreamFailure> {
        let paused = *self
            .inner
            .paused
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let Some(Pause { until, status }) = paused else {
            return Ok(());
        };
        let left = until.saturating_duration_since(tokio::time::Instant::now());
        if left.is_zero() {
            return Ok(());
        }
        if left > self.inner.config.retry.max_delay {
            return Err(UpstreamFailure::Status {
                status,
                body: "not sent: the upstream asked for a pause that has not ended".into(),
                retry_after: Some(left),
            });
        }
        tokio::time::sleep(left).await;
        Ok(())
    }
}

/// Percent-encode one path segment (an identifier a user typed, e.g. for
/// `lookup/id/{id}`): everything but RFC 3986 unreserved characters is escaped, so `/`,
/// `?`, `#` and spaces cannot change which resource is requested. Empty, `.` and `..`
/// cannot be made safe (URL parsers treat even `%2e%2e` as "go up") and are
/// `INVALID_INPUT`; tools normally reject them earlier when they parse identifiers.
pub fn encode_path_segment(segment: &str) -> Result<String, ApiError> {
    if matches!(segment, "" | "." | "..") {
        return Err(ApiError::invalid_input(
            format!("'{segment}' is not an identifier."),
            "Pass the identifier itself, e.g. 'ENSG00000141510'.",
            segment,
        ));
    }
    let mut out = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    Ok(out)
}

/// What one health check found (see [`HttpClient::probe`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The source's name, e.g. "Ensembl".
    pub source: &'static str,
    /// The URL requested.
    pub url: String,
    /// The HTTP status of a success, or why the upstream could not be reached.
    pub outcome: Result<u16, String>,
    /// From the start of the request to the response headers (or the failure).
    pub latency: Duration,
}

/// Why a health check got no answer, in the terms a user can act on.
fn probe_failure(
    error: &reqwest::Error,
    url: &Url,
    timeout: Duration,
    proxies: &Proxies,
) -> String {
    let chain = crate::error::error_chain(error);
    let lower = chain.to_lowercase();
    let host = url.host_str().unwrap_or_default();
    if error.is_timeout() {
        return format!("timeout: no answer within {:.1} s", timeout.as_secs_f64());
    }
    let proxy = proxies.for_scheme(url.scheme());
    let reason = if lower.contains("dns error")
        || lower.contains("failed to lookup address")
        || lower.contains("name or service not known")
        || lower.contains("no such host")
    {
        format!("DNS: cannot resolve {host}")
    } else if lower.contains("certificate") || lower.contains("tls") || lower.contains("handshake")
    {
        format!("TLS: the secure connection to {host} failed")
    } else if lower.contains("connection refused") {
        format!("connection refused by {host}")
    } else if error.is_connect() {
        format!("cannot connect to {host}")
    } else {
        "the connection broke".to_owned()
    };
    // The proxy the variables name for this scheme: what the request went through,
    // unless `NO_PROXY` let it go direct. Never with its password.
    match proxy {
        Some(proxy) if error.is_connect() => {
            format!(
                "proxy: {reason} through {}={} ({chain})",
                proxy.var,
                proxy.shown()
            )
        }
        _ => format!("{reason} ({chain})"),
    }
}

async fn status_failure(status: StatusCode, response: reqwest::Response) -> UpstreamFailure {
    let retry_after =
        retry::parse_retry_after(response.headers().get(RETRY_AFTER), SystemTime::now());
    let body = body::read_excerpt(response, retry::ERROR_BODY_EXCERPT).await;
    UpstreamFailure::Status {
        status: status.as_u16(),
        body,
        retry_after,
    }
}

/// What a source client decodes an upstream answer into. Decoding is not enough: an
/// answer that decodes but says nothing the upstream documents (`[{"unexpected": 1}]` read
/// as rows whose fields are all optional) must not pass for "no results" or "not found".
/// [`unusable`](Answer::unusable) says so, and the HTTP client then treats the body as
/// one it cannot read: `UPSTREAM_ERROR`, logged, and never served from the cache again.
///
/// List answers get it from [`Row`]: a `Vec<T: Row>` that has rows but not one usable row
/// is unusable. Every type a server decodes into implements this trait (most with the
/// default: their required fields already make a wrong shape fail to decode).
pub trait Answer: DeserializeOwned {
    /// Why this decoded answer is not one the upstream documents; `None` when it is.
    fn unusable(&self) -> Option<String> {
        None
    }
}

/// One row of a list answer.
pub trait Row {
    /// Whether the row carries what makes it a row (its identifier, say).
    fn usable(&self) -> bool;
}

impl<T: Row + DeserializeOwned> Answer for Vec<T> {
    fn unusable(&self) -> Option<String> {
        (!self.is_empty() && !self.iter().any(Row::usable)).then(|| {
            format!(
                "{} row(s), none with the fields a row must have",
                self.len()
            )
        })
    }
}

/// A map of rows by the identifier asked for (a batch look-up), `null` for a miss: it is
/// unusable when it has rows and not one usable row.
impl<K, V> Answer for std::collections::HashMap<K, Option<V>>
where
    K: DeserializeOwned + Eq + std::hash::Hash,
    V: Row + DeserializeOwned,
{
    fn unusable(&self) -> Option<String> {
        let rows: Vec<&V> = self.values().flatten().collect();
        (!rows.is_empty() && !rows.iter().any(|row| row.usable())).then(|| {
            format!(
                "{} record(s), none with the fields a record must have",
                rows.len()
            )
        })
    }
}

impl Answer for serde_json::Value {}

#[cfg(test)]
mod tests;
