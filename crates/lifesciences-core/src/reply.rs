//! What an upstream said to one request, in the words of its meaning: the record
//! ([`Reply::Found`]), no such record ([`Reply::Missing`]), or the request refused as
//! asked, with the upstream's reason ([`Reply::Refused`]); a failure stays an
//! [`ApiError`]. A source's client reads its upstream's statuses and bodies into this
//! once, where it knows them; tools match on the meaning, never on a status or a text.

use crate::error::ApiError;

/// One request's answer as its source's client reads it. `R` is the reason a refusal
/// gives: the upstream's own words by default, or a client's typed reading of them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub enum Reply<T, R = String> {
    /// What was asked for.
    Found(T),
    /// The upstream has no such record.
    Missing,
    /// The upstream refused the request as asked (a 4xx it gives for a value it does
    /// not accept), with its reason.
    Refused(R),
}

impl<T> Reply<T> {
    /// `result` read by the statuses its upstream gives for "no such record"
    /// (`missing`) and for "not as asked" (`refused`, its reason the excerpt of the body
    /// it sent). Every other failure stays a failure (`Err`).
    pub fn read(
        result: Result<T, ApiError>,
        missing: &[u16],
        refused: &[u16],
    ) -> Result<Self, ApiError> {
        match result {
            Ok(found) => Ok(Self::Found(found)),
            Err(e) => match e.upstream_status() {
                Some(status) if missing.contains(&status) => Ok(Self::Missing),
                Some(status) if refused.contains(&status) => Ok(Self::Refused(
                    e.upstream_body().unwrap_or_default().trim().to_owned(),
                )),
                _ => Err(e),
            },
        }
    }
}

impl<T, R> Reply<T, R> {
    /// The record, or `None` when missing or refused.
    pub fn found(self) -> Option<T> {
        match self {
            Self::Found(found) => Some(found),
            Self::Missing | Self::Refused(_) => None,
        }
    }

    /// The same reply with the record changed by `f`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Reply<U, R> {
        match self {
            Self::Found(found) => Reply::Found(f(found)),
            Self::Missing => Reply::Missing,
            Self::Refused(reason) => Reply::Refused(reason),
        }
    }

    /// The same reply with the refusal's reason read by `f` (a client's typed reading
    /// of its upstream's words).
    pub fn map_refusal<S>(self, f: impl FnOnce(R) -> S) -> Reply<T, S> {
        match self {
            Self::Found(found) => Reply::Found(found),
            Self::Missing => Reply::Missing,
            Self::Refused(reason) => Reply::Refused(f(reason)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::UpstreamFailure;

    fn status(status: u16, body: &str) -> ApiError {
        ApiError::from_failure(
            "Ensembl",
            UpstreamFailure::Status {
                status,
                body: body.to_owned(),
                retry_after: None,
            },
            1,
        )
    }

    #[test]
    fn statuses_are_read_once_into_their_meaning() {
        let read = |r| Reply::<u8>::read(r, &[404], &[400]);
        assert_eq!(read(Ok(7)).unwrap(), Reply::Found(7));
        assert_eq!(read(Err(status(404, "nothing"))).unwrap(), Reply::Missing);
        assert_eq!(
            read(Err(status(400, " {\"error\":\"bad species\"} "))).unwrap(),
            Reply::Refused("{\"error\":\"bad species\"}".to_owned())
        );
        // Anything else stays a failure: a 500, a 429, or a 400 not listed.
        assert!(read(Err(status(500, "down"))).is_err());
        assert!(read(Err(status(429, ""))).is_err());
        assert!(
            Reply::<u8>::read(Err(status(400, "x")), &[404], &[])
                .unwrap_err()
                .upstream_status()
                == Some(400)
        );
    }

    #[test]
    fn a_refusal_s_reason_can_be_read_into_a_type() {
        let reply: Reply<u8> = Reply::Refused("Can not find internal name for species 'x'".into());
        let typed = reply.map_refusal(|r| r.contains("internal name for species"));
        assert_eq!(typed, Reply::Refused(true));
        assert_eq!(Reply::<u8>::Found(1).map(|n| n + 1).found(), Some(2));
    }
}
