//! How fast each principal may send HTTP requests: a token bucket per principal, and one
//! for everything refused as unauthenticated, so a flood of bad credentials never spends
//! anyone's allowance and one principal's flood is answered 429 without reaching the
//! server behind.
//!
//! **Invariant:** the buckets are per replica and cost a map look-up under a lock held
//! for that look-up only.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

/// Default requests per second per principal.
pub(crate) const DEFAULT_PER_SECOND: f64 = 20.0;
/// A bucket holds this many seconds of requests: a client may send that many at once.
const BURST_SECONDS: f64 = 5.0;
/// Past this many buckets, full ones (principals idle for a while) are forgotten.
const PRUNE_ABOVE: usize = 4096;

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Token buckets by principal, and one for unauthenticated requests.
#[derive(Debug)]
pub(crate) struct RequestRate {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<Arc<str>, Bucket>>,
    unauthenticated: Mutex<Option<Bucket>>,
}

impl RequestRate {
    /// `per_second` requests per second for each principal, in bursts of up to 5 s worth
    /// (at least 10).
    pub(crate) fn new(per_second: f64) -> Self {
        Self {
            per_second,
            burst: (per_second * BURST_SECONDS).max(10.0),
            buckets: Mutex::default(),
            unauthenticated: Mutex::default(),
        }
    }

    /// One request of the principal whose session key is `owner`: `Err` with how long
    /// to wait when it is over its rate.
    pub(crate) fn take(&self, owner: &Arc<str>) -> Result<(), Duration> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        if buckets.len() > PRUNE_ABOVE {
            let full = |b: &Bucket| self.refilled(*b, now).tokens >= self.burst;
            buckets.retain(|_, b| !full(b));
        }
        let bucket = buckets.entry(Arc::clone(owner)).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        self.spend(bucket, now)
    }

    /// One request refused as unauthenticated (no credential, or a bad one).
    pub(crate) fn take_unauthenticated(&self) -> Result<(), Duration> {
        let now = Instant::now();
        let mut bucket = self
            .unauthenticated
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let bucket = bucket.get_or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        self.spend(bucket, now)
    }

    fn refilled(&self, bucket: Bucket, now: Instant) -> Bucket {
        let elapsed = now.duration_since(bucket.at).as_secs_f64();
        Bucket {
            tokens: (bucket.tokens + elapsed * self.per_second).min(self.burst),
            at: now,
        }
    }

    fn spend(&self, bucket: &mut Bucket, now: Instant) -> Result<(), Duration> {
        *bucket = self.refilled(*bucket, now);
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64(
                (1.0 - bucket.tokens) / self.per_second,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_principal_over_its_rate_waits_and_no_one_else_does() {
        let rate = RequestRate::new(2.0);
        let ada: Arc<str> = Arc::from("token:ada");
        let bob: Arc<str> = Arc::from("token:bob");
        // A burst of 5 s worth, at least 10.
        for _ in 0..10 {
            assert!(rate.take(&ada).is_ok());
        }
        let wait = rate.take(&ada).unwrap_err();
        assert_eq!(wait, Duration::from_millis(500));
        assert!(rate.take(&bob).is_ok(), "another principal is not held");
        for _ in 0..10 {
            let _ = rate.take_unauthenticated();
        }
        assert!(rate.take_unauthenticated().is_err());
        assert!(
            rate.take(&bob).is_ok(),
            "unauthenticated requests spend nobody's allowance"
        );
        tokio::time::advance(Duration::from_millis(500)).await;
        assert!(rate.take(&ada).is_ok());
        assert!(rate.take(&ada).is_err());
    }
}
