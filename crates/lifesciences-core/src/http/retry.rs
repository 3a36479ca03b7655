//! Retry decisions: how long to wait before another attempt (exponential backoff with
//! full jitter, or the upstream's `Retry-After`) and when to stop. Which failures are
//! worth another attempt is [`UpstreamFailure::is_transient`], decided once. Pure
//! functions and a loop on tokio's clock, so the schedule is tested under paused time.

use std::future::Future;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, SystemTime};

use backon::{ExponentialBuilder, Retryable as _};
use reqwest::header::HeaderValue;

use crate::config::RetryPolicy;
use crate::error::UpstreamFailure;
use crate::notify::{Level, notify};

/// Longest excerpt of an error body we keep: enough for validation errors that list
/// accepted values (IGVF's zod bodies), which source clients read through
/// `ApiError::upstream_body`. Envelope messages show only the first 200 characters.
pub(crate) const ERROR_BODY_EXCERPT: usize = 16 * 1024;

/// Parse `Retry-After`: whole seconds (`"2"`), fractional seconds (`"0.4"`, Ensembl), or
/// an HTTP date. A date in the past means "now". Garbage is ignored.
pub(crate) fn parse_retry_after(value: Option<&HeaderValue>, now: SystemTime) -> Option<Duration> {
    let text = value?.to_str().ok()?.trim();
    if let Ok(secs) = text.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(1e9)));
    }
    let when = httpdate::parse_http_date(text).ok()?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

/// Full jitter: a uniformly random wait in `[0, ceiling]`.
pub(crate) fn full_jitter(ceiling: Duration) -> Duration {
    ceiling.mul_f64(fastrand::f64())
}

/// The wait before the next attempt, or `None` to stop.
///
/// `proposed` is the exponential schedule's next ceiling (`None` once the retries are
/// used up). A `Retry-After` is honoured exactly when it is within `max_delay`; a longer
/// one stops the retries so the caller can tell the agent to come back later instead of
/// holding the call open. `waited` accumulates, and the total never exceeds
/// `max_total_wait`.
pub(crate) fn next_delay(
    retry_after: Option<Duration>,
    proposed: Option<Duration>,
    policy: &RetryPolicy,
    waited: &mut Duration,
) -> Option<Duration> {
    let ceiling = proposed?;
    let delay = match retry_after {
        Some(asked) if asked > policy.max_delay => return None,
        Some(asked) => asked,
        None => full_jitter(ceiling),
    };
    if *waited + delay > policy.max_total_wait {
        return None;
    }
    *waited += delay;
    Some(delay)
}

/// Run `attempt` until it succeeds, fails for good, or the policy says stop. Returns the
/// outcome and the number of attempts made. `label` names the request in logs.
///
/// The exponential schedule (backon) gives the ceilings: `base_delay`, then doubled each
/// retry up to `max_delay`; [`next_delay`] applies full jitter, or the upstream's
/// `Retry-After`, and the total cap. Sleeps use tokio's clock, so the schedule is tested
/// under paused time.
pub(crate) async fn run<T, F, Fut>(
    policy: &RetryPolicy,
    label: &str,
    mut attempt: F,
) -> (Result<T, UpstreamFailure>, u32)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, UpstreamFailure>>,
{
    let attempts = AtomicU32::new(0);
    let mut waited = Duration::ZERO;
    let backoff = ExponentialBuilder::default()
        .with_min_delay(policy.base_delay)
        .with_factor(2.0)
        .with_max_delay(policy.max_delay)
        .with_max_times(policy.max_retries);
    let outcome = (|| {
        attempts.fetch_add(1, Ordering::Relaxed);
        attempt()
    })
    .retry(backoff)
    .sleep(tokio::time::sleep)
    .when(UpstreamFailure::is_transient)
    .adjust(|failure, proposed| next_delay(failure.retry_after(), proposed, policy, &mut waited))
    .notify(|failure, delay| {
        tracing::info!(
            request = label,
            failure = ?failure,
            wait_ms = delay.as_millis() as u64,
            "retrying upstream request"
        );
        notify(
            Level::Info,
            format_args!(
                "{label}: {}; retrying in {:.1} s",
                failure.summary(),
                delay.as_secs_f64()
            ),
        );
    })
    .await;
    (outcome, attempts.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(s: &str) -> HeaderValue {
        HeaderValue::from_str(s).unwrap()
    }

    #[test]
    fn retry_after_forms() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_480); // 2015-10-21T07:28:00Z
        let parse = |s: &str| parse_retry_after(Some(&header(s)), now);
        assert_eq!(parse("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse("0.4"), Some(Duration::from_millis(400)));
        assert_eq!(parse(" 40.0 "), Some(Duration::from_secs(40)));
        assert_eq!(
            parse("Wed, 21 Oct 2015 07:28:03 GMT"),
            Some(Duration::from_secs(3))
        );
        assert_eq!(parse("Wed, 21 Oct 2015 07:27:00 GMT"), Some(Duration::ZERO));
        assert_eq!(parse("-1"), None);
        assert_eq!(parse("soon"), None);
        assert_eq!(parse_retry_after(None, now), None);
    }

    #[test]
    fn full_jitter_stays_within_the_ceiling() {
        let ceiling = Duration::from_millis(500);
        for _ in 0..1000 {
            assert!(full_jitter(ceiling) <= ceiling);
        }
    }

    #[test]
    fn retry_after_is_honoured_exactly_and_counts_toward_the_total() {
        let policy = RetryPolicy::default();
        let mut waited = Duration::ZERO;
        let d = next_delay(
            Some(Duration::from_millis(400)),
            Some(Duration::from_millis(500)),
            &policy,
            &mut waited,
        );
        assert_eq!(d, Some(Duration::from_millis(400)));
        assert_eq!(waited, Duration::from_millis(400));
    }

    #[test]
    fn a_retry_after_beyond_the_cap_stops_retrying() {
        let policy = RetryPolicy::default();
        let mut waited = Duration::ZERO;
        let d = next_delay(
            Some(Duration::from_secs(3600)),
            Some(Duration::from_millis(500)),
            &policy,
            &mut waited,
        );
        assert_eq!(d, None);
    }

    #[test]
    fn the_total_wait_is_capped() {
        let policy = RetryPolicy {
            max_total_wait: Duration::from_secs(1),
            ..RetryPolicy::default()
        };
        let mut waited = Duration::from_millis(800);
        let d = next_delay(
            Some(Duration::from_millis(400)),
            Some(Duration::from_millis(500)),
            &policy,
            &mut waited,
        );
        assert_eq!(d, None);
    }

    #[test]
    fn out_of_retries_means_stop() {
        let mut waited = Duration::ZERO;
        assert_eq!(
            next_delay(None, None, &RetryPolicy::default(), &mut waited),
            None
        );
    }

    mod schedule {
        //! The default policy's real schedule, under tokio's paused clock.
        use super::*;
        use std::collections::VecDeque;
        use std::sync::Mutex;
        use tokio::time::Instant;

        fn status(status: u16, retry_after: Option<Duration>) -> UpstreamFailure {
            UpstreamFailure::Status {
                status,
                body: String::new(),
                retry_after,
            }
        }

        /// Answers with each scripted outcome in turn.
        async fn scripted(
            policy: &RetryPolicy,
            outcomes: Vec<Result<&'static str, UpstreamFailure>>,
        ) -> (Result<&'static str, UpstreamFailure>, u32, Duration) {
            let queue = Mutex::new(VecDeque::from(outcomes));
            let started = Instant::now();
            let (result, attempts) = run(policy, "test", || {
                let next = queue.lock().unwrap().pop_front().unwrap_or(Ok("drained"));
                async move { next }
            })
            .await;
            (result, attempts, started.elapsed())
        }

        #[tokio::test(start_paused = true)]
        async fn persistent_503_makes_four_attempts_within_the_backoff_ceilings() {
            let policy = RetryPolicy::default();
            let always = (0..10).map(|_| Err(status(503, None))).collect();
            let (result, attempts, elapsed) = scripted(&policy, always).await;
            assert!(result.is_err());
            assert_eq!(attempts, 4);
            // Full jitter: each wait is in [0, 500 ms], [0, 1 s], [0, 2 s].
            assert!(elapsed <= Duration::from_millis(3500), "{elapsed:?}");
        }

        #[tokio::test(start_paused = true)]
        async fn retry_after_is_waited_exactly() {
            let policy = RetryPolicy::default();
            let after = Some(Duration::from_millis(400));
            let outcomes = vec![Err(status(429, after)), Err(status(429, after)), Ok("done")];
            let (result, attempts, elapsed) = scripted(&policy, outcomes).await;
            assert_eq!(result.unwrap(), "done");
            assert_eq!(attempts, 3);
            assert_eq!(elapsed, Duration::from_millis(800));
        }

        #[tokio::test(start_paused = true)]
        async fn client_errors_and_long_retry_after_stop_at_once() {
            // Decided by `UpstreamFailure::is_transient`: 404 is not, so one attempt.
            let policy = RetryPolicy::default();
            let (_, attempts, elapsed) = scripted(&policy, vec![Err(status(404, None))]).await;
            assert_eq!((attempts, elapsed), (1, Duration::ZERO));
            let hour = Some(Duration::from_secs(3600));
            let (_, attempts, elapsed) = scripted(&policy, vec![Err(status(429, hour))]).await;
            assert_eq!((attempts, elapsed), (1, Duration::ZERO));
        }

        #[tokio::test(start_paused = true)]
        async fn the_total_wait_cap_ends_retries_early() {
            let policy = RetryPolicy {
                max_total_wait: Duration::from_secs(1),
                ..RetryPolicy::default()
            };
            let after = Some(Duration::from_millis(600));
            let outcomes = (0..10).map(|_| Err(status(503, after))).collect();
            let (_, attempts, elapsed) = scripted(&policy, outcomes).await;
            assert_eq!(attempts, 2, "a second 600 ms wait would pass the 1 s cap");
            assert_eq!(elapsed, Duration::from_millis(600));
        }

        #[tokio::test(start_paused = true)]
        async fn timeouts_and_connection_errors_are_retried() {
            let policy = RetryPolicy::default();
            let outcomes = vec![
                Err(UpstreamFailure::Timeout {
                    after: Duration::from_secs(30),
                }),
                Err(UpstreamFailure::Connect {
                    detail: "refused".into(),
                }),
                Ok("up again"),
            ];
            let (result, attempts, _) = scripted(&policy, outcomes).await;
            assert_eq!(result.unwrap(), "up again");
            assert_eq!(attempts, 3);
        }
    }
}
