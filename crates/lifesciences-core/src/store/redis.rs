//! The fleet's store: one Redis shared by every replica (`LIFESCIENCES_REDIS_URL`).
//!
//! Every key starts with `lifesciences:v1:` (the `v1` is the layout: a new layout takes
//! new keys rather than misreading old ones), then:
//! - `answer:<key>`: a hash of `body`, `retrieved_ms` and `fresh_until_ms` (and, when
//!   known, `release` and `meta`, which older versions neither write nor read), expiring 30
//!   days after it stops being fresh (offline use wants stale answers). Redis holds what
//!   its `maxmemory` allows: the operator sets it, with `maxmemory-policy volatile-lru`
//!   so that the least recently used answers go first when Redis is full;
//! - `permits:<host>`: the sliding window of a host's budget, a sorted set of tickets
//!   scored by the time each counts until;
//! - `pause:<host>`: a hash of `until_ms` and `status`, expiring with the pause;
//! - `lock:<key>`: a lock, expiring after its hold;
//! - `members`: the replicas alive, a sorted set scored by the time each counts until.
//!
//! The budget, pauses, heartbeat and the end of a request are Lua scripts (sent by their
//! SHA-1, loaded again after a Redis restart) that read Redis's own clock (`TIME`), so
//! replicas whose clocks disagree still share one window, and every step is atomic.
//!
//! Redis is never needed to start: [`RedisBackend::open`] only parses the URL. The
//! connection is made on first use and remade after a failure by the `redis` crate's
//! connection manager, one attempt each time (no retries of its own), so an operation
//! while Redis is down fails at once and the first one after Redis is back works.
//!
//! `rediss://` is TLS by rustls (ring, as the HTTP client), trusting the platform's roots
//! or those of `SSL_CERT_FILE`/`SSL_CERT_DIR` (not `LIFESCIENCES_CA_FILE`, which is the
//! upstreams'). One server, not a cluster: the budget script touches two keys of a host.
//! Redis 4 or later (a hash's fields are set in one `HSET`).

use std::time::Duration;

use bytes::Bytes;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{RedisError, Script};
use tokio::sync::OnceCell;

use super::{
    Backend, Members, Permit, Rule, StoreError, StoreFuture, Stored, epoch_ms, from_epoch_ms,
};

/// What every key starts with.
const PREFIX: &str = "lifesciences:v1:";
/// How long an answer is kept once it is no longer fresh (for offline use), unless Redis
/// needs the room first.
const KEEP_STALE: Duration = Duration::from_secs(30 * 24 * 3600);
/// How long one connection attempt may take. Operations waiting for it are cut earlier
/// by the caller's deadline; the attempt goes on in the background.
const CONNECT_WITHIN: Duration = Duration::from_secs(1);
/// How long a sent command may wait for its reply before the connection gives up on it
/// (the caller has given up on it sooner): bounds what a frozen server leaves queued.
const REPLY_WITHIN: Duration = Duration::from_secs(1);

/// `now` in milliseconds on Redis's clock. `redis.replicate_commands()` lets a script
/// that read the clock write on Redis 3.2 to 4 (later versions always allow it).
const NOW: &str = "
if redis.replicate_commands then redis.replicate_commands() end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
";

/// KEYS: pause, permits. ARGV: allowed, window ms, hold ms, ticket.
/// Returns {'paused', ms left, status}, {'granted', 0, 0} or {'wait', ms, 0}.
/// A ticket counts until its score, then one window more; the set lives as long as its
/// newest ticket may count (an expiry is only ever lengthened).
const PERMIT: &str = "
local pause = redis.call('HMGET', KEYS[1], 'until_ms', 'status')
if pause[1] then
  local left = tonumber(pause[1]) - now
  if left > 0 then return {'paused', left, tonumber(pause[2])} end
end
local window = tonumber(ARGV[2])
local hold = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
if redis.call('ZCARD', KEYS[2]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[2], now + hold, ARGV[4])
  if redis.call('PTTL', KEYS[2]) < hold + window then
    redis.call('PEXPIRE', KEYS[2], hold + window)
  end
  return {'granted', 0, 0}
end
local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
local wait = tonumber(oldest[2]) + window - now
if wait < 1 then wait = 1 end
return {'wait', wait, 0}
";

/// KEYS: permits. ARGV: ticket. The ticket counts until now at the latest.
const ANSWERED: &str = "
local counts_until = redis.call('ZSCORE', KEYS[1], ARGV[1])
if counts_until and tonumber(counts_until) > now then
  redis.call('ZADD', KEYS[1], 'XX', now, ARGV[1])
end
return 0
";

/// KEYS: pause. ARGV: wait ms, status. A longer pause already set is kept.
const PAUSE: &str = "
local wait = tonumber(ARGV[1])
local until_ms = now + wait
local current = redis.call('HGET', KEYS[1], 'until_ms')
if wait <= 0 or (current and tonumber(current) >= until_ms) then return 0 end
redis.call('HSET', KEYS[1], 'until_ms', until_ms, 'status', ARGV[2])
redis.call('PEXPIRE', KEYS[1], wait)
return 1
";

/// KEYS: members. ARGV: member, alive for ms. Returns how many are alive.
const HEARTBEAT: &str = "
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then redis.call('PEXPIREAT', KEYS[1], tonumber(last[2])) end
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
local rank = 0
for _, member in ipairs(members) do
  if member < ARGV[1] then rank = rank + 1 end
end
return {#members, rank}
";

/// The scripts, each with the clock read before it, hashed once.
struct Scripts {
    permit: Script,
    answered: Script,
    pause: Script,
    heartbeat: Script,
}

impl Scripts {
    fn new() -> Self {
        let with_clock = |body: &str| Script::new(&format!("{NOW}{body}"));
        Self {
            permit: with_clock(PERMIT),
            answered: with_clock(ANSWERED),
            pause: with_clock(PAUSE),
            heartbeat: with_clock(HEARTBEAT),
        }
    }
}

pub(crate) struct RedisBackend {
    client: redis::Client,
    /// The URL without its password, for logs.
    shown: String,
    /// Made on first use, inside the runtime (making it spawns a task).
    connection: OnceCell<ConnectionManager>,
    scripts: Scripts,
}

impl RedisBackend {
    /// The backend for `url` (`redis://[user:password@]host[:port][/db]`, `rediss://…` for
    /// TLS, `unix:///path/redis.sock[?db=N&pass=…]`). Only parses: nothing is connected
    /// until the first operation. Fails when the URL is not one of those.
    pub(crate) fn open(url: &str) -> Result<Self, StoreError> {
        let shown = without_password(url);
        let client = redis::Client::open(url).map_err(|e| {
            StoreError(format!(
                "{} is not a Redis URL: {e} (expected redis://host:port[/db], \
                 rediss://host:port[/db] or unix:///path/redis.sock)",
                shown.as_deref().unwrap_or("the value")
            ))
        })?;
        // TLS (`rediss://`) uses rustls with the workspace's provider, ring, as the HTTP
        // client does; a provider installed first (by an embedding program) is kept.
        if rustls::crypto::CryptoProvider::get_default().is_none() {
            let _ = rustls::crypto::ring::default_provider().install_default();
        }
        Ok(Self {
            client,
            shown: shown.unwrap_or_default(),
            connection: OnceCell::new(),
            scripts: Scripts::new(),
        })
    }

    async fn manager(&self) -> Result<ConnectionManager, StoreError> {
        self.connection
            .get_or_try_init(|| async {
                let config = ConnectionManagerConfig::new()
                    .set_number_of_retries(0)
                    .set_connection_timeout(Some(CONNECT_WITHIN))
                    .set_response_timeout(Some(REPLY_WITHIN));
                ConnectionManager::new_lazy_with_config(self.client.clone(), config)
            })
            .await
            .cloned()
            .map_err(failed)
    }

    /// Run `op` on the connection. A refused connection sent nothing, so `op` is tried
    /// once more: the failed attempt may be an old one, and the manager has just started
    /// a new one (Redis may be back). Any other failure is returned as it is (the command
    /// may have run).
    async fn run<T, F>(&self, op: impl Fn(ConnectionManager) -> F) -> Result<T, StoreError>
    where
        F: Future<Output = Result<T, RedisError>>,
    {
        let manager = self.manager().await?;
        match op(manager.clone()).await {
            Err(e) if e.is_connection_refusal() => op(manager).await.map_err(failed),
            outcome => outcome.map_err(failed),
        }
    }
}

fn failed(e: RedisError) -> StoreError {
    StoreError(e.to_string())
}

/// The key of `name` of this `kind` (`answer`, `permits`, …).
fn named(kind: &str, name: &str) -> String {
    format!("{PREFIX}{kind}:{name}")
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

fn duration_ms(ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

impl Backend for RedisBackend {
    fn kind(&self) -> &'static str {
        "redis"
    }

    fn location(&self) -> String {
        self.shown.clone()
    }

    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<Stored>> {
        let answer = named("answer", key);
        Box::pin(self.run(move |mut c| {
            let answer = answer.clone();
            async move {
                type Fields = (
                    Option<Vec<u8>>,
                    Option<i64>,
                    Option<i64>,
                    Option<String>,
                    Option<String>,
                );
                let (body, retrieved, fresh_until, release, meta): Fields = redis::cmd("HMGET")
                    .arg(&answer)
                    .arg("body")
                    .arg("retrieved_ms")
                    .arg("fresh_until_ms")
                    .arg("release")
                    .arg("meta")
                    .query_async(&mut c)
                    .await?;
                Ok(match (body, retrieved, fresh_until) {
                    (Some(body), Some(retrieved), Some(fresh_until)) => Some(Stored {
                        body: Bytes::from(body),
                        retrieved_at: from_epoch_ms(retrieved),
                        fresh_until: from_epoch_ms(fresh_until),
                        release,
                        meta,
                    }),
                    _ => None,
                })
            }
        }))
    }

    fn put<'a>(&'a self, key: &'a str, stored: &'a Stored) -> StoreFuture<'a, ()> {
        let answer = named("answer", key);
        let fresh_until = epoch_ms(stored.fresh_until);
        let retrieved = epoch_ms(stored.retrieved_at);
        let expires = fresh_until.saturating_add(ms(KEEP_STALE));
        Box::pin(self.run(move |mut c| {
            // One transaction: a reader never sees a body without its times, and no entry
            // is left without its expiry.
            // A replaced answer must not keep the old one's release or meta: the hash is
            // written anew.
            let mut pipe = redis::pipe();
            let mut set = redis::cmd("HSET");
            set.arg(&answer)
                .arg("body")
                .arg(stored.body.as_ref())
                .arg("retrieved_ms")
                .arg(retrieved)
                .arg("fresh_until_ms")
                .arg(fresh_until);
            if let Some(release) = &stored.release {
                set.arg("release").arg(release);
            }
            if let Some(meta) = &stored.meta {
                set.arg("meta").arg(meta);
            }
            pipe.atomic()
                .cmd("DEL")
                .arg(&answer)
                .ignore()
                .add_command(set)
                .ignore()
                .cmd("PEXPIREAT")
                .arg(&answer)
                .arg(expires)
                .ignore();
            async move { pipe.exec_async(&mut c).await }
        }))
    }

    fn forget<'a>(&'a self, key: &'a str) -> StoreFuture<'a, ()> {
        let answer = named("answer", key);
        Box::pin(self.run(move |mut c| {
            let answer = answer.clone();
            async move { redis::cmd("DEL").arg(&answer).exec_async(&mut c).await }
        }))
    }

    fn permit<'a>(&'a self, host: &'a str, rule: Rule) -> StoreFuture<'a, Permit> {
        let (pause, permits) = (named("pause", host), named("permits", host));
        Box::pin(self.run(move |mut c| {
            let ticket = format!("{:016x}", fastrand::u64(..));
            let mut call = self.scripts.permit.key(&pause);
            call.key(&permits)
                .arg(rule.allowed)
                .arg(ms(rule.window))
                .arg(ms(rule.hold))
                .arg(&ticket);
            async move {
                let (outcome, amount, status): (String, i64, i64) =
                    call.invoke_async(&mut c).await?;
                Ok(match outcome.as_str() {
                    "granted" => Permit::Granted { ticket },
                    "paused" => Permit::Paused {
                        left: duration_ms(amount),
                        status: u16::try_from(status).unwrap_or(503),
                    },
                    _ => Permit::Wait(duration_ms(amount.max(1))),
                })
            }
        }))
    }

    fn answered<'a>(&'a self, host: &'a str, ticket: &'a str) -> StoreFuture<'a, ()> {
        let permits = named("permits", host);
        Box::pin(self.run(move |mut c| {
            let mut call = self.scripts.answered.key(&permits);
            call.arg(ticket);
            async move { call.invoke_async::<i64>(&mut c).await.map(drop) }
        }))
    }

    fn pause<'a>(&'a self, host: &'a str, wait: Duration, status: u16) -> StoreFuture<'a, ()> {
        let pause = named("pause", host);
        Box::pin(self.run(move |mut c| {
            let mut call = self.scripts.pause.key(&pause);
            call.arg(ms(wait)).arg(status);
            async move { call.invoke_async::<i64>(&mut c).await.map(drop) }
        }))
    }

    fn lock<'a>(&'a self, key: &'a str, hold: Duration) -> StoreFuture<'a, bool> {
        let lock = named("lock", key);
        // `PX 0` is refused: a lock is held at least a millisecond.
        let hold = ms(hold).max(1);
        Box::pin(self.run(move |mut c| {
            let lock = lock.clone();
            async move {
                let taken: Option<String> = redis::cmd("SET")
                    .arg(&lock)
                    .arg(1)
                    .arg("NX")
                    .arg("PX")
                    .arg(hold)
                    .query_async(&mut c)
                    .await?;
                Ok(taken.is_some())
            }
        }))
    }

    fn unlock<'a>(&'a self, key: &'a str) -> StoreFuture<'a, ()> {
        let lock = named("lock", key);
        Box::pin(self.run(move |mut c| {
            let lock = lock.clone();
            async move { redis::cmd("DEL").arg(&lock).exec_async(&mut c).await }
        }))
    }

    fn heartbeat<'a>(&'a self, member: &'a str, alive_for: Duration) -> StoreFuture<'a, Members> {
        let members = format!("{PREFIX}members");
        Box::pin(self.run(move |mut c| {
            let mut call = self.scripts.heartbeat.key(&members);
            call.arg(member).arg(ms(alive_for));
            async move {
                let (alive, rank): (i64, i64) = call.invoke_async(&mut c).await?;
                Ok(Members {
                    alive: usize::try_from(alive).unwrap_or(1),
                    rank: usize::try_from(rank).unwrap_or(0),
                })
            }
        }))
    }
}

/// `url` without its password (in the authority, or the `pass`/`password` parameter of a
/// Unix socket URL), for logs; `None` when it is not a URL at all.
fn without_password(url: &str) -> Option<String> {
    let mut parsed = url::Url::parse(url).ok()?;
    if parsed.password().is_some() {
        let _ = parsed.set_password(None);
    }
    if parsed.query().is_some() {
        let kept: Vec<(String, String)> = parsed
            .query_pairs()
            .filter(|(name, _)| name != "pass" && name != "password")
            .map(|(name, value)| (name.into_owned(), value.into_owned()))
            .collect();
        if kept.is_empty() {
            parsed.set_query(None);
        } else {
            parsed.query_pairs_mut().clear().extend_pairs(kept);
        }
    }
    Some(parsed.to_string())
}

#[cfg(test)]
mod tests {
    //! Against a real `redis-server` (skipped where there is none, but never in CI).

    use std::time::{Instant, SystemTime};

    use super::*;
    use crate::testing::redis::RedisServer;

    fn rule(allowed: u32) -> Rule {
        Rule {
            allowed,
            window: Duration::from_millis(1000),
            hold: Duration::from_secs(30),
        }
    }

    fn open(server: &RedisServer) -> RedisBackend {
        RedisBackend::open(&server.url()).unwrap()
    }

    /// What the caller allows one operation.
    const DEADLINE: Duration = Duration::from_millis(500);

    /// `op`'s outcome, which must come within the caller's deadline.
    async fn within_deadline<T>(op: StoreFuture<'_, T>) -> Result<T, StoreError> {
        tokio::time::timeout(DEADLINE, op)
            .await
            .expect("the operation answered within the deadline")
    }

    /// A plain connection to look at what the backend wrote.
    async fn raw(server: &RedisServer) -> redis::aio::MultiplexedConnection {
        redis::Client::open(server.url())
            .unwrap()
            .get_multiplexed_async_connection()
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn two_clients_of_one_server_share_one_store() {
        let Some(server) = RedisServer::start() else {
            return;
        };
        let (a, b) = (open(&server), open(&server));
        crate::store::conformance::conformance(&a, &b).await;
    }

    #[tokio::test]
    async fn an_answer_expires_a_month_after_its_freshness() {
        let Some(server) = RedisServer::start() else {
            return;
        };
        let a = open(&server);
        let now = epoch_ms(SystemTime::now());
        let stored = Stored {
            body: Bytes::from_static(b"{\"x\":1}"),
            retrieved_at: from_epoch_ms(now),
            fresh_until: from_epoch_ms(now + 3_600_000),
            release: None,
            meta: None,
        };
        a.put("k", &stored).await.unwrap();

        let ttl: i64 = redis::cmd("PTTL")
            .arg("lifesciences:v1:answer:k")
            .query_async(&mut raw(&server).await)
            .await
            .unwrap();
        let expected = 3_600_000 + ms(KEEP_STALE);
        assert!(
            (expected - 60_000..=expected).contains(&ttl),
            "expires {ttl} ms from now, expected about {expected}"
        );
    }

    #[tokio::test]
    async fn a_backend_made_while_redis_is_down_starts_at_once_fails_fast_and_works_once_it_is_up()
    {
        let Some(mut server) = RedisServer::stopped() else {
            return;
        };
        let started = Instant::now();
        let shared = crate::store::Shared::from_env(|var| {
            (var == crate::store::ENV_REDIS_URL).then(|| server.url())
        })
        .unwrap();
        assert_eq!(shared.kind(), "redis");
        let backend = open(&server);
        assert!(started.elapsed() < Duration::from_millis(100));

        for _ in 0..3 {
            let asked = Instant::now();
            assert!(within_deadline(backend.get("k")).await.is_err());
            assert!(
                asked.elapsed() < Duration::from_millis(100),
                "{:?}",
                asked.elapsed()
            );
        }
        assert_eq!(shared.run(|b| b.heartbeat("m", ALIVE)).await, None);
        assert!(shared.health().degraded.is_some());

        // Let the connection attempts those failures started fail too, as they would
        // long before Redis is back: the first operation then meets a failed attempt.
        tokio::time::sleep(Duration::from_millis(20)).await;
        server.restart();
        assert!(matches!(
            within_deadline(backend.permit("h", rule(1))).await.unwrap(),
            Permit::Granted { .. }
        ));
        assert_eq!(
            shared
                .run(|b| b.heartbeat("m", ALIVE))
                .await
                .map(|m| m.alive),
            Some(1)
        );
        assert_eq!(shared.health().degraded, None);
    }

    const ALIVE: Duration = Duration::from_secs(10);

    #[tokio::test]
    async fn a_redis_killed_mid_run_fails_operations_within_the_deadline_until_it_is_back() {
        let Some(mut server) = RedisServer::start() else {
            return;
        };
        let a = open(&server);
        let stored = Stored {
            body: Bytes::from_static(b"kept"),
            retrieved_at: SystemTime::now(),
            fresh_until: SystemTime::now() + Duration::from_secs(60),
            release: None,
            meta: None,
        };
        within_deadline(a.put("k", &stored)).await.unwrap();
        assert!(matches!(
            within_deadline(a.permit("h", rule(5))).await.unwrap(),
            Permit::Granted { .. }
        ));

        server.stop();
        for _ in 0..3 {
            assert!(within_deadline(a.get("k")).await.is_err());
            assert!(within_deadline(a.permit("h", rule(5))).await.is_err());
        }

        // Back, empty (nothing was saved): the same backend works again, scripts and all.
        tokio::time::sleep(Duration::from_millis(20)).await;
        server.restart();
        assert_eq!(within_deadline(a.get("k")).await.unwrap(), None);
        assert!(matches!(
            within_deadline(a.permit("h", rule(5))).await.unwrap(),
            Permit::Granted { .. }
        ));
        assert_eq!(
            within_deadline(a.heartbeat("m", ALIVE))
                .await
                .unwrap()
                .alive,
            1
        );
    }

    #[test]
    fn a_url_that_is_not_redis_is_refused_and_names_the_forms() {
        for url in [
            "localhost:6379",
            "http://redis:6379",
            "redis://",
            "not a url",
        ] {
            let Err(e) = RedisBackend::open(url) else {
                panic!("{url} was accepted");
            };
            assert!(e.0.contains("unix:///path/redis.sock"), "{url}: {e}");
        }
        // A URL that is not Redis's stops the server at start, as any invalid setting.
        assert!(matches!(
            crate::store::Shared::from_env(
                |var| (var == crate::store::ENV_REDIS_URL).then(|| "http://redis:6379".to_owned())
            ),
            Err(crate::config::ConfigError::InvalidVar { .. })
        ));
    }

    #[test]
    fn the_location_never_shows_a_password() {
        let shown = |url: &str| RedisBackend::open(url).unwrap().location();
        assert_eq!(
            shown("redis://:s3cret@cache.internal:6380/2"),
            "redis://cache.internal:6380/2"
        );
        assert_eq!(
            shown("redis://app:s3cret@cache.internal"),
            "redis://app@cache.internal"
        );
        assert_eq!(
            shown("unix:///run/redis/redis.sock?db=1&pass=s3cret"),
            "unix:///run/redis/redis.sock?db=1"
        );
        assert_eq!(
            shown("unix:///run/redis/redis.sock?pass=s3cret"),
            "unix:///run/redis/redis.sock"
        );
        let Err(e) = RedisBackend::open("redis//:s3cret@host") else {
            panic!("accepted");
        };
        assert!(!e.0.contains("s3cret"), "{e}");
    }
}
