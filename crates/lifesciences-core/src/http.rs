//! `HttpClient`: the one place that builds `reqwest` clients, and everything between a
//! source client and the network.
//!
//! A call goes: response cache (GETs) → coalescing of identical in-flight requests →
//! retries with backoff → per attempt: concurrency permit, the source's pause (after a
//! 429 or 503 with `Retry-After`), rate-limit permit, request with timeout, body read
//! under the size cap. JSON is decoded per caller with the failing path named in the
//! error; only then is the answer kept for the next caller (`keep.rs`).
//!
//! **Invariant:** no lock is held across an upstream request; the rate limiter only waits
//! for a permit and requests then run concurrently up to the concurrency cap.

mod answer;
mod body;
mod build;
mod coalesce;
mod fair;
mod keep;
mod probe;
mod release;
mod retry;
mod shared;
mod window;

use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use futures::FutureExt as _;
use reqwest::header::{ACCEPT, CONTENT_TYPE, LOCATION, RETRY_AFTER};
use reqwest::{Method, StatusCode};
use serde::Serialize;
use tokio::sync::Semaphore;
use url::Url;

use crate::config::{ReleaseCheck, SourceConfig};
use crate::error::{ApiError, UpstreamFailure};
use crate::notify::{Level, notify};
use crate::provenance::{self, ReleaseSource};
use crate::store::{self, Shared};
pub use answer::{Answer, Row};
use coalesce::Coalescer;
pub use keep::Meta;
use keep::{Fetched, Pending};
pub use probe::Probe;

const JSON: &str = "application/json";
const FORM: &str = "application/x-www-form-urlencoded";

/// One upstream request, ready to send.
#[derive(Debug, Clone)]
struct Prepared {
    method: Method,
    url: Url,
    accept: &'static str,
    body: Option<(&'static str, Bytes)>,
    /// GETs are cached; look-up POSTs are not, nor a poll of something that changes.
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

/// What one attempt brought back: the body, and what a source reads beyond it.
struct Response {
    body: Bytes,
    meta: Option<Meta>,
    /// The release the answer names itself (a header), for a source that says so.
    release: Option<Arc<str>>,
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
    /// Whose request goes next, principal by principal (`fair.rs`).
    fair: fair::Fair,
    /// The data release the source serves, as far as this process knows (`release.rs`).
    release: release::Release,
    /// Set when the upstream answered 429 or 503 with `Retry-After`: no request to this
    /// source is sent before then, whichever call it belongs to.
    paused: Mutex<Option<Pause>>,
    /// The store shared with other processes and replicas (or none: memory).
    store: Arc<Shared>,
    /// Set once the store is known to what calls leave behind (`records.rs`).
    known: OnceLock<()>,
}

/// The HTTP machinery of one source: a pooled client, its rate limiter, concurrency cap,
/// retry policy, response cache and coalescing. Cheap to clone; clones share everything.
#[derive(Clone)]
pub struct HttpClient {
    inner: Arc<Inner>,
}

impl ReleaseSource for HttpClient {
    fn release_at(&self, at: SystemTime) -> Option<Arc<str>> {
        self.inner.release.at(at)
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
                fair: fair::Fair::default(),
                release: release::Release::default(),
                paused: Mutex::new(None),
                store,
                known: OnceLock::new(),
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
        let mut url = Url::parse(&joined)
            .map_err(|e| self.failure(format!("cannot build a URL from {joined:?}: {e}")))?;
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

    /// A failure of this source before any request (a URL or body that cannot be built).
    fn failure(&self, detail: String) -> ApiError {
        ApiError::Upstream {
            upstream: self.inner.config.name().to_owned(),
            failure: UpstreamFailure::Transport { detail },
            attempts: 0,
        }
    }

    /// GET `path` with `query`, decoded from JSON. Cached and coalesced.
    pub async fn get_json<T: Answer>(
        &self,
        path: &str,
        query: &[(&str, &str)],
    ) -> Result<T, ApiError> {
        let prepared = self.prepare(Method::GET, path, query, JSON, None)?;
        Ok(self.fetch_json(prepared).await?.0)
    }

    /// [`get_json`](Self::get_json), with what the upstream said beyond the body: its
    /// status (a redirect, for a source that does not follow them) and the headers the
    /// source keeps (see [`Meta`]).
    pub async fn get_json_meta<T: Answer>(
        &self,
        path: &str,
        query: &[(&str, &str)],
    ) -> Result<(T, Arc<Meta>), ApiError> {
        let prepared = self.prepare(Method::GET, path, query, JSON, None)?;
        self.fetch_json(prepared).await
    }

    /// GET a URL the upstream handed out (the next page of a `Link` header, a job's
    /// results), as given: it must lie under the source's base URL, or it is refused
    /// without a request. Cached and coalesced like [`get_json`](Self::get_json).
    pub async fn get_json_at<T: Answer>(&self, url: &str) -> Result<(T, Arc<Meta>), ApiError> {
        let url = self.within_base(url)?;
        let prepared = self.prepared(Method::GET, url, JSON, None);
        self.fetch_json(prepared).await
    }

    /// [`get_json_meta`](Self::get_json_meta) for something that changes while it is
    /// watched (a job's status): never served from a cache nor kept in one.
    pub async fn poll_json_meta<T: Answer>(
        &self,
        path: &str,
        query: &[(&str, &str)],
    ) -> Result<(T, Arc<Meta>), ApiError> {
        let mut prepared = self.prepare(Method::GET, path, query, JSON, None)?;
        prepared.cacheable = false;
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
        let bytes = serde_json::to_vec(body)
            .map_err(|e| self.failure(format!("cannot encode the request body: {e}")))?;
        let prepared = self.prepare(Method::POST, path, query, JSON, Some((JSON, bytes.into())))?;
        Ok(self.fetch_json(prepared).await?.0)
    }

    /// POST a form as an idempotent look-up (retried and coalesced; cached only when the
    /// source opted in with `SourceConfig::with_cached_posts`).
    pub async fn post_form<T: Answer>(
        &self,
        path: &str,
        form: &[(&str, &str)],
    ) -> Result<T, ApiError> {
        Ok(self.post_form_meta(path, form).await?.0)
    }

    /// [`post_form`](Self::post_form), with what the upstream said beyond the body (see
    /// [`Meta`]).
    pub async fn post_form_meta<T: Answer>(
        &self,
        path: &str,
        form: &[(&str, &str)],
    ) -> Result<(T, Arc<Meta>), ApiError> {
        let prepared =
            self.prepare(Method::POST, path, &[], JSON, Some((FORM, form_body(form))))?;
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
        let mut prepared = self.prepare(
            Method::POST,
            path,
            &[],
            accept,
            Some((FORM, form_body(form))),
        )?;
        prepared.max_body = max_bytes;
        prepared.key = format!("{} max={max_bytes}", prepared.key).into();
        prepared.store_key = Arc::default();
        let key = prepared.key.clone();
        let url = prepared.url.clone();
        let fetched = self.execute(prepared).await?;
        match check(&fetched.body) {
            Ok(()) => {
                self.read_well(&fetched).await;
                Ok(fetched.body)
            }
            Err(detail) => Err(self.unreadable(&key, &url, ".".to_owned(), detail).await),
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
        Ok(self.prepared(method, self.url(path, query)?, accept, body))
    }

    fn prepared(
        &self,
        method: Method,
        url: Url,
        accept: &'static str,
        body: Option<(&'static str, Bytes)>,
    ) -> Prepared {
        let mut key = format!("{method} {url} {accept}");
        if let Some((content_type, bytes)) = &body {
            key.push_str(&format!(
                "\n{content_type}\n{}",
                String::from_utf8_lossy(bytes)
            ));
        }
        Prepared {
            cacheable: method == Method::GET || self.inner.config.cache_posts,
            max_body: self.inner.config.max_body_bytes,
            method,
            url,
            accept,
            body,
            key: key.into(),
            store_key: Arc::default(),
        }
    }

    /// `url` as the upstream gave it, if it lies under the base URL (same scheme, host,
    /// port, and the base path as a prefix).
    fn within_base(&self, url: &str) -> Result<Url, ApiError> {
        let parsed = Url::parse(url).map_err(|e| {
            self.failure(format!(
                "the upstream handed out a URL that is not one ({url:?}): {e}"
            ))
        })?;
        if under(&self.inner.config.base_url, &parsed) {
            Ok(parsed)
        } else {
            Err(self.failure(format!(
                "refused a URL the upstream handed out outside {}: {parsed}",
                self.inner.base
            )))
        }
    }

    async fn fetch_json<T: Answer>(&self, prepared: Prepared) -> Result<(T, Arc<Meta>), ApiError> {
        let key = prepared.key.clone();
        let url = prepared.url.clone();
        let fetched = self.execute(prepared).await?;
        let meta = fetched.meta.clone().unwrap_or_else(|| {
            Arc::new(Meta {
                status: 200,
                ..Meta::default()
            })
        });
        // A redirect the client does not follow may come without a body.
        let body: &[u8] = if fetched.body.is_empty() && meta.is_redirect() {
            b"null"
        } else {
            &fetched.body
        };
        // `null` is absent only for a redirect (an `Option` answer); a success saying
        // `null` says nothing the upstream documents, and is not kept.
        if !meta.is_redirect() && body.trim_ascii() == b"null" {
            let detail = "null where the upstream documents a value".to_owned();
            return Err(self.unreadable(&key, &url, ".".to_owned(), detail).await);
        }
        let mut de = serde_json::Deserializer::from_slice(body);
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
            Ok(value) => {
                self.read_well(&fetched).await;
                Ok((value, meta))
            }
            Err((path, detail)) => Err(self.unreadable(&key, &url, path, detail).await),
        }
    }

    /// A caller read `fetched` and found it well-formed: keep it for the next one, and
    /// look up the source's release if that is due (in the background).
    async fn read_well(&self, fetched: &Fetched) {
        self.keep(fetched).await;
        self.refresh_release();
    }

    /// A body that cannot be read: logged, never served again, an `UPSTREAM_ERROR`.
    async fn unreadable(&self, key: &str, url: &Url, path: String, detail: String) -> ApiError {
        tracing::warn!(
            source = %self.inner.config.name(),
            url = %url,
            path = %path,
            error = %detail,
            "undecodable upstream response"
        );
        self.forget(key).await;
        ApiError::Upstream {
            upstream: self.inner.config.name().to_owned(),
            failure: UpstreamFailure::Decode { path, detail },
            attempts: 1,
        }
    }

    /// Cache, then the store, then coalesce (in this process, then across replicas), then
    /// fetch with retries; the answer is recorded for the provenance of the tool call it
    /// serves. Offline, nothing is fetched: an answer the store does not hold is an error.
    async fn execute(&self, prepared: Prepared) -> Result<Fetched, ApiError> {
        let slot = self.asking(&prepared);
        let store = &self.inner.store;
        store::Shared::beat_from(store);
        self.inner
            .known
            .get_or_init(|| crate::records::know_store(store, self.inner.config.cache_ttl));
        let caching = prepared.cacheable && self.inner.cache.is_some();
        if caching && let Some(hit) = self.cached(&prepared).await {
            let origin = if store.offline() {
                provenance::Origin::Offline
            } else {
                hit.origin
            };
            provenance::answered(slot, hit.retrieved_at, origin, hit.release.clone());
            return Ok(hit);
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
            .join_or_start(key, move || this.fetch_or_wait(request, caching).boxed());
        let fetched = shared.await?;
        provenance::answered(
            slot,
            fetched.retrieved_at,
            fetched.origin,
            fetched.release.clone(),
        );
        Ok(fetched)
    }

    /// The answer this process's cache holds, or else the store (kept in this process's
    /// cache once read).
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
        let pending = Pending::new(prepared.key.clone(), fresh, None, None);
        Some(Fetched::from_store(stored, pending))
    }

    /// Fetch with retries, unless another replica is fetching the same answer (then wait
    /// for it). The answer is kept (here and in the store) only once a caller has read it.
    async fn fetch_or_wait(self, request: Prepared, caching: bool) -> Result<Fetched, ApiError> {
        let store = &self.inner.store;
        let shared_key = (caching && store.in_use()).then(|| request.store_key().to_owned());
        let mut lock = None;
        if let Some(key) = &shared_key {
            let hold = self.inner.config.timeout + Duration::from_secs(5);
            match shared::lead_or_wait(store, key, hold, self.inner.config.timeout).await {
                shared::Lead::Fetched(stored) => {
                    let pending = Pending::new(request.key.clone(), caching, None, None);
                    return Ok(Fetched::from_store(stored, pending));
                }
                shared::Lead::Fetch { locked } => {
                    lock = locked.then(|| shared::Held::new(Arc::clone(store), key.clone()));
                }
            }
        }
        let response = self.fetch_with_retries(&request).await?;
        let now = SystemTime::now();
        let release = match response.release {
            Some(named) => {
                self.inner.release.known(Some(Arc::clone(&named)), now);
                Some(named)
            }
            None => self.inner.release.at(now),
        };
        Ok(Fetched {
            body: response.body,
            retrieved_at: now,
            fresh_until: now + self.inner.config.cache_ttl,
            origin: provenance::Origin::Upstream,
            release,
            meta: response.meta.map(Arc::new),
            pending: Pending::new(request.key.clone(), caching, shared_key, lock),
        })
    }

    /// Tell the current tool call's provenance that it asks this request.
    fn asking(&self, prepared: &Prepared) -> Option<provenance::Slot> {
        provenance::asking(
            self.inner.config.upstream,
            || Arc::new(self.clone()) as Arc<dyn ReleaseSource>,
            || provenance::Asked {
                method: prepared.method.as_str().to_owned(),
                url: prepared.url.as_str().to_owned(),
                body: prepared.body.as_ref().map(|(_, body)| body.clone()),
            },
        )
    }

    async fn fetch_with_retries(&self, prepared: &Prepared) -> Result<Response, ApiError> {
        let config = &self.inner.config;
        let label = format!("{} {}", config.name(), prepared.url);
        let (outcome, attempts) =
            retry::run(&config.retry, &label, || self.attempt(prepared)).await;
        outcome.map_err(|failure| ApiError::from_failure(config.name(), failure, attempts))
    }

    /// The pooled client, built on first use; why it could not be built otherwise.
    fn reqwest(&self) -> Result<&reqwest::Client, &str> {
        self.inner
            .client
            .get_or_init(|| build::build_reqwest(&self.inner.config))
            .as_ref()
            .map_err(String::as_str)
    }

    /// One request: concurrency permit first (so requests waiting for a slot do not
    /// bunch up and burst past the rate later), then a rate-limit permit, then the call.
    async fn attempt(&self, prepared: &Prepared) -> Result<Response, UpstreamFailure> {
        let config = &self.inner.config;
        // Build the client (first use only) before taking a rate permit: a permit must be
        // spent on sending, or the next request could go out less than a period later.
        let client = self.reqwest().map_err(|detail| UpstreamFailure::Connect {
            detail: detail.to_owned(),
        })?;
        // The principal's turn first (`fair.rs`): only the request holding it waits for a
        // concurrency slot and a rate permit, so permits go to principals in turn.
        let principal = crate::principal::current();
        let place = self.inner.fair.join(&principal).map_err(|full| {
            // As long as the queue ahead takes at this source's rate.
            let secs = (full.waiting as f64 / config.rate_per_second)
                .ceil()
                .max(1.0);
            UpstreamFailure::Queued {
                waiting: full.waiting,
                retry_after: Duration::from_secs_f64(secs),
            }
        })?;
        let (_slot, permit) = loop {
            place.turn().await;
            let slot =
                self.inner
                    .permits
                    .acquire()
                    .await
                    .map_err(|_| UpstreamFailure::Transport {
                        detail: "the client is shutting down".into(),
                    })?;
            self.wait_out_pause().await?;
            let share = store::Share {
                principal: principal.name.to_string(),
                weight: principal.weight,
                waiting: self
                    .inner
                    .fair
                    .waiting()
                    .into_iter()
                    .filter(|(name, _)| *name != principal.name)
                    .map(|(name, weight)| (name.to_string(), weight))
                    .collect(),
            };
            match self
                .inner
                .budget
                .permit_as(config.retry.max_delay, &share)
                .await?
            {
                Ok(permit) => {
                    place.granted();
                    break (slot, permit);
                }
                // The store keeps this principal's share for others waiting elsewhere:
                // another principal here may go meanwhile.
                Err(wait) => {
                    drop(slot);
                    place.defer(wait);
                }
            }
        };
        drop(place);

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
        let upstream = config.upstream;
        let redirect = status.is_redirection() && !upstream.follow_redirects;
        if status.is_success() || redirect {
            let meta = (redirect || !upstream.keep_headers.is_empty())
                .then(|| meta_of(&response, upstream.keep_headers));
            // A redirect out of the upstream is never an answer (nor kept), as the
            // redirect policy of a source that follows them refuses it.
            if let Some(to) = meta.as_ref().and_then(|m| m.location.as_deref())
                && redirect
                && !Url::parse(to).is_ok_and(|to| under(&config.base_url, &to))
            {
                return Err(UpstreamFailure::Redirect {
                    detail: format!("refused redirect to {to}"),
                });
            }
            let release = match upstream.release {
                Some(ReleaseCheck::Header(name)) => response
                    .headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .and_then(release::from_header),
                _ => None,
            };
            let body = body::read_capped(response, prepared.max_body, config.timeout).await?;
            return Ok(Response {
                body,
                meta,
                release,
            });
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

/// Whether `url` lies under `base`: the same scheme, host and port, and the base path as
/// a prefix.
fn under(base: &Url, url: &Url) -> bool {
    let path = base.path().trim_end_matches('/');
    url.scheme() == base.scheme()
        && url.host_str() == base.host_str()
        && url.port_or_known_default() == base.port_or_known_default()
        && (url.path() == path || url.path().starts_with(&format!("{path}/")))
}

/// The status, redirect target and kept headers of `response` (see [`Meta`]).
fn meta_of(response: &reqwest::Response, keep: &[&str]) -> Meta {
    let headers = response.headers();
    let location = headers
        .get(LOCATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|to| response.url().join(to).ok())
        .map(String::from);
    let headers = headers
        .iter()
        .filter(|(name, _)| keep.iter().any(|k| name.as_str().eq_ignore_ascii_case(k)))
        .filter_map(|(name, value)| {
            Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
        })
        .collect();
    Meta {
        status: response.status().as_u16(),
        location,
        headers,
    }
}

/// A form as `application/x-www-form-urlencoded` bytes.
fn form_body(form: &[(&str, &str)]) -> Bytes {
    Bytes::from(
        url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish(),
    )
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

#[cfg(test)]
mod tests;
