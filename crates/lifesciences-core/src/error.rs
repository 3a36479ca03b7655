//! `ApiError`: the one error type source clients and tools return, and its mapping to the
//! `ErrorEnvelope` an agent reads.
//!
//! Caller mistakes (`UnresolvedEntity`, `EntityNotFound`, `AmbiguousQuery`, `InvalidInput`)
//! carry a full-sentence message and a recovery hint written by the tool. Upstream trouble
//! (`RateLimited`, `Upstream`) is produced by the HTTP machinery, and a call the server
//! stopped while shutting down (`ShuttingDown`) by the server; each gets its message and
//! hint here, so every server words it the same way.

use std::time::Duration;

use rmcp::{
    handler::server::tool::IntoCallToolResult,
    model::{CallToolResponse, CallToolResult, ContentBlock},
};

use crate::envelope::{ErrorBody, ErrorCode, ErrorEnvelope};

/// The minimum length of a search query, after trimming.
pub const MIN_QUERY_CHARS: usize = 2;

/// What a tool tells the agent about a mistake in its input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guidance {
    /// Full sentence naming the source and what failed.
    pub message: String,
    /// The next step that is likely to work.
    pub recovery_hint: String,
    /// Exactly what the caller sent for the offending argument.
    pub invalid_input: Option<String>,
    /// Close matches, when cheap to find.
    pub suggestions: Vec<String>,
}

/// Why an upstream request failed: what the retry loop decides on, and what an
/// `UPSTREAM_ERROR` reports once no more attempts will be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpstreamFailure {
    /// A non-success HTTP status. `body` is an excerpt of what the upstream said;
    /// `retry_after` is its `Retry-After`, when it sent one.
    Status {
        status: u16,
        body: String,
        retry_after: Option<Duration>,
    },
    /// No complete answer within the per-request timeout.
    Timeout { after: Duration },
    /// The connection could not be made (refused, DNS, TLS, proxy).
    Connect { detail: String },
    /// The connection broke while sending or receiving.
    Transport { detail: String },
    /// The body was larger than the cap; it was refused without being read whole.
    TooLarge { limit: u64 },
    /// The body was not the JSON we expected; `path` is where decoding failed.
    Decode { path: String, detail: String },
    /// The upstream redirected to a place this server does not follow: another host, or
    /// too many hops.
    Redirect { detail: String },
    /// Not asked: the server runs offline (`LIFESCIENCES_OFFLINE=1`) and its store holds
    /// no answer to this request.
    Offline,
}

impl UpstreamFailure {
    /// A failure of the HTTP client itself: timeout, connection, or transfer.
    pub(crate) fn from_reqwest(error: &reqwest::Error, timeout: Duration) -> Self {
        if error.is_timeout() {
            return Self::Timeout { after: timeout };
        }
        if error.is_redirect() {
            // The innermost cause is the policy's own sentence ("refused redirect to …").
            let mut innermost: &dyn std::error::Error = error;
            while let Some(inner) = innermost.source() {
                innermost = inner;
            }
            return Self::Redirect {
                detail: innermost.to_string(),
            };
        }
        let detail = error_chain(error);
        if error.is_connect() {
            Self::Connect { detail }
        } else {
            Self::Transport { detail }
        }
    }

    /// Whether the upstream as a whole was unwell, so another attempt may succeed: a
    /// timeout, no connection, a broken transfer, 429, 500, 502, 503 or 504. Another 4xx,
    /// an oversized or an unreadable body concern this request and are never retried.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Status { status, .. } => matches!(status, 429 | 500 | 502 | 503 | 504),
            Self::Timeout { .. } | Self::Connect { .. } | Self::Transport { .. } => true,
            Self::TooLarge { .. } | Self::Decode { .. } | Self::Redirect { .. } | Self::Offline => {
                false
            }
        }
    }

    /// A few words on what happened, for a log line: `HTTP 503`, `timed out after 30 s`.
    pub fn summary(&self) -> String {
        match self {
            Self::Status { status, .. } => format!("HTTP {status}"),
            Self::Timeout { after } => format!("timed out after {:.0} s", after.as_secs_f64()),
            Self::Connect { .. } => "could not connect".to_owned(),
            Self::Transport { .. } => "the connection broke".to_owned(),
            Self::TooLarge { limit } => format!("a body over {} bytes", limit),
            Self::Decode { .. } => "an unreadable body".to_owned(),
            Self::Redirect { .. } => "a redirect elsewhere".to_owned(),
            Self::Offline => "offline, not stored".to_owned(),
        }
    }

    /// The wait the upstream asked for, if any.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::Status { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

/// An error with its causes, `outer: inner: innermost`: the chain carries the useful part
/// ("connection refused", "dns error").
pub(crate) fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(inner) = source {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        source = inner.source();
    }
    text
}

/// The only error type source clients and tools return.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ApiError {
    /// A strict tool got something that is not its CURIE/ID form.
    #[error("{}", .0.message)]
    UnresolvedEntity(Guidance),
    /// A well-formed identifier the upstream has no record of.
    #[error("{}", .0.message)]
    EntityNotFound(Guidance),
    /// A query too short or too broad to answer usefully.
    #[error("{}", .0.message)]
    AmbiguousQuery(Guidance),
    /// A malformed non-identifier argument.
    #[error("{}", .0.message)]
    InvalidInput(Guidance),
    /// The upstream answered 429 and the wait it asks for, or the retries, ran out.
    #[error("{upstream} answered 429 Too Many Requests (retry after {retry_after:?})")]
    RateLimited {
        /// Name of the source, e.g. "Ensembl".
        upstream: String,
        /// How long the upstream asked us to wait (or our estimate).
        retry_after: Duration,
    },
    /// The upstream failed: 5xx, timeout, connection, undecodable or oversized body,
    /// or a 4xx the tool did not anticipate.
    #[error("{upstream} request failed after {attempts} attempt(s): {failure:?}")]
    Upstream {
        /// Name of the source, e.g. "STRING".
        upstream: String,
        /// What went wrong on the last attempt.
        failure: UpstreamFailure,
        /// How many requests were sent.
        attempts: u32,
    },
    /// Another tool's error, as that tool answered it (see
    /// [`call_tool`](crate::server::call_tool)): passed on unchanged.
    #[error("{}", .0.message)]
    Relayed(Box<ErrorBody>),
    /// The server is shutting down (SIGINT or SIGTERM): the call was still waiting for
    /// its upstream when the time given to the calls in flight ran out, or it arrived
    /// after the shutdown began. `UPSTREAM_ERROR`, since the upstream had not answered.
    #[error("the server is shutting down; the call ended before its upstream answered")]
    ShuttingDown,
    /// The upstream answered, but with trouble only its source's client can word (a
    /// job the upstream ran failed, or did not finish in the time allowed):
    /// `UPSTREAM_ERROR` with the client's message and hint.
    #[error("{upstream}: {}", .guidance.message)]
    UpstreamSaid {
        /// Name of the source, e.g. "UniProt".
        upstream: String,
        /// What happened and what to do next.
        guidance: Guidance,
    },
}

impl Guidance {
    fn new(message: impl Into<String>, hint: impl Into<String>, input: Option<String>) -> Self {
        Self {
            message: message.into(),
            recovery_hint: hint.into(),
            invalid_input: input,
            suggestions: Vec::new(),
        }
    }
}

impl ApiError {
    /// `UNRESOLVED_ENTITY`: not this tool's identifier form. The hint gives the corrected
    /// form when it is evident, else which search tool to call.
    pub fn unresolved(
        message: impl Into<String>,
        hint: impl Into<String>,
        input: impl Into<String>,
    ) -> Self {
        Self::UnresolvedEntity(Guidance::new(message, hint, Some(input.into())))
    }

    /// `ENTITY_NOT_FOUND`: well-formed, but the upstream has no such record.
    pub fn not_found(
        message: impl Into<String>,
        hint: impl Into<String>,
        input: impl Into<String>,
    ) -> Self {
        Self::EntityNotFound(Guidance::new(message, hint, Some(input.into())))
    }

    /// `AMBIGUOUS_QUERY`: too short or too broad.
    pub fn ambiguous(
        message: impl Into<String>,
        hint: impl Into<String>,
        input: impl Into<String>,
    ) -> Self {
        Self::AmbiguousQuery(Guidance::new(message, hint, Some(input.into())))
    }

    /// `INVALID_INPUT`: a malformed non-identifier argument. The hint gives the accepted
    /// form, range or values.
    pub fn invalid_input(
        message: impl Into<String>,
        hint: impl Into<String>,
        input: impl Into<String>,
    ) -> Self {
        Self::InvalidInput(Guidance::new(message, hint, Some(input.into())))
    }

    /// Attach close matches to a caller-mistake error (ignored for upstream errors).
    #[must_use]
    pub fn with_suggestions(mut self, suggestions: impl IntoIterator<Item = String>) -> Self {
        if let Some(guidance) = self.guidance_mut() {
            guidance.suggestions = suggestions.into_iter().collect();
        }
        self
    }

    /// `UPSTREAM_ERROR` in a source client's own words: the upstream answered, but with
    /// trouble no status says (a job it ran failed or is still running). `message` names
    /// the source and what happened; `hint` what to do next.
    pub fn upstream_said(
        upstream: impl Into<String>,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) -> Self {
        Self::UpstreamSaid {
            upstream: upstream.into(),
            guidance: Guidance::new(message, hint, None),
        }
    }

    /// Replace the recovery hint of a caller-mistake error (ignored for upstream errors).
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        if let Some(guidance) = self.guidance_mut() {
            guidance.recovery_hint = hint.into();
        }
        self
    }

    fn guidance_mut(&mut self) -> Option<&mut Guidance> {
        match self {
            Self::UnresolvedEntity(g)
            | Self::EntityNotFound(g)
            | Self::AmbiguousQuery(g)
            | Self::InvalidInput(g) => Some(g),
            Self::RateLimited { .. }
            | Self::Upstream { .. }
            | Self::Relayed(_)
            | Self::ShuttingDown
            | Self::UpstreamSaid { .. } => None,
        }
    }

    /// The stable code of this error.
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::UnresolvedEntity(_) => ErrorCode::UnresolvedEntity,
            Self::EntityNotFound(_) => ErrorCode::EntityNotFound,
            Self::AmbiguousQuery(_) => ErrorCode::AmbiguousQuery,
            Self::InvalidInput(_) => ErrorCode::InvalidInput,
            Self::RateLimited { .. } => ErrorCode::RateLimited,
            Self::Upstream { .. } | Self::ShuttingDown | Self::UpstreamSaid { .. } => {
                ErrorCode::UpstreamError
            }
            Self::Relayed(body) => body.code,
        }
    }

    /// Whether the upstream as a whole was unwell (see [`UpstreamFailure::is_transient`];
    /// a `RATE_LIMITED` counts), as opposed to a problem with this request or with the
    /// caller's input. Source clients use it to decide that an optional upstream is down,
    /// not merely unhelpful about one record.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::RateLimited { .. } => true,
            Self::Upstream { failure, .. } => failure.is_transient(),
            Self::Relayed(body) => body.code == ErrorCode::RateLimited,
            _ => false,
        }
    }

    /// The error a caller sees once no more attempts will be made: a 429 is
    /// `RATE_LIMITED` with the wait asked for (5 s when none was), anything else
    /// `UPSTREAM_ERROR`.
    pub fn from_failure(upstream: &str, failure: UpstreamFailure, attempts: u32) -> Self {
        match failure {
            UpstreamFailure::Status {
                status: 429,
                retry_after,
                ..
            } => Self::RateLimited {
                upstream: upstream.to_owned(),
                retry_after: retry_after.unwrap_or(Duration::from_secs(5)),
            },
            failure => Self::Upstream {
                upstream: upstream.to_owned(),
                failure,
                attempts,
            },
        }
    }

    /// The HTTP status the upstream answered with, when that is what failed. Source
    /// clients use it to turn an anticipated 4xx (e.g. Ensembl's 400 for unknown IDs)
    /// into `EntityNotFound`.
    pub fn upstream_status(&self) -> Option<u16> {
        match self {
            Self::Upstream {
                failure: UpstreamFailure::Status { status, .. },
                ..
            } => Some(*status),
            Self::RateLimited { .. } => Some(429),
            _ => None,
        }
    }

    /// The excerpt of the body the upstream sent with a non-success status.
    pub fn upstream_body(&self) -> Option<&str> {
        match self {
            Self::Upstream {
                failure: UpstreamFailure::Status { body, .. },
                ..
            } => Some(body),
            _ => None,
        }
    }

    /// The envelope an agent reads.
    pub fn to_envelope(&self) -> ErrorEnvelope {
        let body = match self {
            Self::UnresolvedEntity(g)
            | Self::EntityNotFound(g)
            | Self::AmbiguousQuery(g)
            | Self::InvalidInput(g) => ErrorBody {
                code: self.code(),
                message: shorten(&g.message, MAX_MESSAGE_CHARS),
                recovery_hint: shorten(&g.recovery_hint, MAX_MESSAGE_CHARS),
                invalid_input: g
                    .invalid_input
                    .as_deref()
                    .map(|input| shorten(input, MAX_ECHO_CHARS)),
                retry_after_secs: None,
                suggestions: g.suggestions.clone(),
            },
            Self::RateLimited {
                upstream,
                retry_after,
            } => {
                let secs = whole_seconds(*retry_after);
                ErrorBody {
                    code: ErrorCode::RateLimited,
                    message: format!(
                        "{upstream} is rate limiting this server (HTTP 429 Too Many \
                         Requests)."
                    ),
                    recovery_hint: format!(
                        "Wait {secs} second(s) before calling this tool again, and make \
                         fewer parallel calls to {upstream}."
                    ),
                    invalid_input: None,
                    retry_after_secs: Some(secs),
                    suggestions: Vec::new(),
                }
            }
            Self::Upstream {
                upstream,
                failure,
                attempts,
            } => {
                let (message, hint) = describe_upstream(upstream, failure, *attempts);
                ErrorBody {
                    code: ErrorCode::UpstreamError,
                    message,
                    recovery_hint: hint,
                    invalid_input: None,
                    retry_after_secs: None,
                    suggestions: Vec::new(),
                }
            }
            Self::Relayed(body) => (**body).clone(),
            Self::UpstreamSaid { guidance, .. } => ErrorBody {
                code: ErrorCode::UpstreamError,
                message: guidance.message.clone(),
                recovery_hint: guidance.recovery_hint.clone(),
                invalid_input: guidance.invalid_input.clone(),
                retry_after_secs: None,
                suggestions: guidance.suggestions.clone(),
            },
            Self::ShuttingDown => ErrorBody {
                code: ErrorCode::UpstreamError,
                message: "This server is shutting down and stopped the call before the \
                          upstream answered."
                    .to_owned(),
                recovery_hint: "Call the tool again with the same arguments: a restarted \
                                server, or another replica of it, will take the call."
                    .to_owned(),
                invalid_input: None,
                retry_after_secs: None,
                suggestions: Vec::new(),
            },
        };
        ErrorEnvelope {
            success: false,
            error: body,
        }
    }

    /// The tool result an agent receives: `isError: true`, and the envelope as JSON text.
    ///
    /// The envelope is deliberately not `structuredContent`. A tool's `outputSchema`
    /// describes its success shape, and the MCP specification asks a server that declares
    /// one to send structured content that conforms to it; strict clients (the TypeScript
    /// SDK's `callTool`, the MCP Inspector, mcpc) validate `structuredContent` even on an
    /// error and would replace the envelope with a schema-mismatch error. As text, the
    /// envelope reaches the agent intact in every client, and output schemas stay small.
    pub fn to_call_tool_result(&self) -> CallToolResult {
        let text = serde_json::to_string(&self.to_envelope()).unwrap_or_else(|_| {
            // Serialising plain strings and numbers cannot fail; keep a fallback anyway.
            serde_json::json!({"success": false, "error": {"code": self.code().as_str(),
                "message": self.to_string(), "recovery_hint": "Retry the call."}})
            .to_string()
        });
        CallToolResult::error(vec![ContentBlock::text(text)])
    }
}

fn whole_seconds(d: Duration) -> u64 {
    let secs = d.as_secs() + u64::from(d.subsec_nanos() > 0);
    secs.max(1)
}

fn describe_upstream(upstream: &str, failure: &UpstreamFailure, attempts: u32) -> (String, String) {
    let tries = if attempts > 1 {
        format!(" after {attempts} attempts")
    } else {
        String::new()
    };
    let retry_later = format!(
        "{upstream} looks temporarily unavailable; retry in a minute. Other tools that \
         do not depend on {upstream} still work."
    );
    match failure {
        UpstreamFailure::Status { status, body, .. } if *status >= 500 => (
            format!("{upstream} answered HTTP {status}{tries}{}.", excerpt(body)),
            retry_later,
        ),
        UpstreamFailure::Status { status, body, .. } => (
            format!(
                "{upstream} rejected the request with HTTP {status}{}.",
                excerpt(body)
            ),
            format!(
                "Check the arguments against the tool's input schema; if they look right, \
                 {upstream} may have changed its API: report this with the message above."
            ),
        ),
        UpstreamFailure::Timeout { after } => (
            format!(
                "{upstream} did not answer within {:.0} seconds{tries}.",
                after.as_secs_f64()
            ),
            format!(
                "{upstream} is slow or overloaded; retry in a minute, or narrow the request \
                 (a smaller limit or region)."
            ),
        ),
        UpstreamFailure::Connect { .. } => (
            format!("{upstream} could not be reached{tries}."),
            format!(
                "Check the network connection and the configured base URL of {upstream}; \
                 retry in a minute."
            ),
        ),
        UpstreamFailure::Transport { .. } => (
            format!("The connection to {upstream} broke during the request{tries}."),
            retry_later,
        ),
        UpstreamFailure::TooLarge { limit } => (
            format!(
                "{upstream} sent a response larger than {} MiB, which this server refuses.",
                limit / (1024 * 1024)
            ),
            "Narrow the request (a smaller limit, page size or region) and call again.".to_owned(),
        ),
        UpstreamFailure::Offline => (
            format!(
                "This server runs offline (LIFESCIENCES_OFFLINE=1) and has no stored answer \
                 from {upstream} to this request: it was never asked while online, or the \
                 store dropped it to stay within its size."
            ),
            "Ask what was asked before while online (the same arguments), or ask the user to \
             unset LIFESCIENCES_OFFLINE when the network is back."
                .to_owned(),
        ),
        UpstreamFailure::Redirect { detail } => (
            format!(
                "{upstream} answered with a redirect this server does not follow: {detail}. \
                 Redirects are followed only within {upstream}'s own host, at most 3 in a row."
            ),
            format!(
                "{upstream} may have moved; check the configured base URL of {upstream}, and \
                 report it if the default URL is the one redirected."
            ),
        ),
        // The decoder's own words ("invalid type: map, expected a sequence") and the JSON
        // path are for the log, where the HTTP client wrote them; the agent gets the fact.
        // A model that recognises what the upstream said instead (STRING's error reports)
        // words it for the agent, starting with the upstream's name, and that is kept.
        UpstreamFailure::Decode { detail, .. } => (
            if detail.starts_with(&format!("{upstream} ")) {
                format!("{}.", detail.trim_end_matches('.'))
            } else {
                format!("{upstream} answered with a body that is not the JSON it documents.")
            },
            format!(
                "{upstream} may be having trouble or may have changed its response format; \
                 retry later, and report it if it persists."
            ),
        ),
    }
}

/// The most of the caller's own input an envelope echoes in `invalid_input`.
const MAX_ECHO_CHARS: usize = 200;
/// The longest message or hint of an envelope (a message may quote the caller's input).
const MAX_MESSAGE_CHARS: usize = 1000;

/// `text` cut to `max` characters, an ellipsis marking the cut.
fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// What an upstream's error body adds to a message: up to 200 characters of its text, or
/// nothing useful from an HTML page (a proxy's or a load balancer's error page) but that
/// it was one.
fn excerpt(body: &str) -> String {
    let trimmed = body.trim();
    if trimmed.is_empty() {
        return String::new();
    }
    let lower: String = trimmed
        .chars()
        .take(100)
        .collect::<String>()
        .to_ascii_lowercase();
    if lower.starts_with("<!doctype html")
        || lower.starts_with("<html")
        || lower.starts_with("<head")
    {
        return " (an HTML error page)".to_owned();
    }
    format!(": {}", shorten(trimmed, 200))
}

/// Lets a `#[tool]` fn return `Result<Json<T>, ApiError>`: errors become `isError: true`
/// results whose text is the `ErrorEnvelope`.
impl IntoCallToolResult for ApiError {
    fn into_call_tool_result(self) -> Result<CallToolResponse, rmcp::ErrorData> {
        match self.code() {
            ErrorCode::RateLimited | ErrorCode::UpstreamError => {
                tracing::warn!(code = %self.code(), error = %self, "tool failed upstream");
            }
            _ => tracing::debug!(code = %self.code(), error = %self, "tool rejected input"),
        }
        Ok(self.to_call_tool_result().into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upstream(failure: UpstreamFailure, attempts: u32) -> ApiError {
        ApiError::Upstream {
            upstream: "STRING".into(),
            failure,
            attempts,
        }
    }

    #[test]
    fn transient_failures_are_the_ones_core_retries() {
        let failed_with = |status: u16| {
            upstream(
                UpstreamFailure::Status {
                    status,
                    body: String::new(),
                    retry_after: None,
                },
                1,
            )
        };
        for code in [429, 500, 502, 503, 504] {
            assert!(failed_with(code).is_transient(), "{code}");
        }
        for code in [400, 404, 422, 501, 505] {
            assert!(!failed_with(code).is_transient(), "{code}");
        }
        assert!(
            upstream(
                UpstreamFailure::Timeout {
                    after: Duration::from_secs(1)
                },
                4
            )
            .is_transient()
        );
        assert!(
            upstream(
                UpstreamFailure::Connect {
                    detail: "refused".into()
                },
                4
            )
            .is_transient()
        );
        assert!(
            upstream(
                UpstreamFailure::Transport {
                    detail: "reset".into()
                },
                4
            )
            .is_transient()
        );
        assert!(!upstream(UpstreamFailure::TooLarge { limit: 1 }, 1).is_transient());
        assert!(
            !upstream(
                UpstreamFailure::Decode {
                    path: ".".into(),
                    detail: "x".into()
                },
                1
            )
            .is_transient()
        );
        assert!(
            ApiError::RateLimited {
                upstream: "UniChem".into(),
                retry_after: Duration::from_secs(1)
            }
            .is_transient()
        );
        assert!(!ApiError::not_found("no", "check", "X").is_transient());
    }

    #[test]
    fn a_persistent_429_becomes_rate_limited_with_the_wait() {
        let failure = |retry_after| UpstreamFailure::Status {
            status: 429,
            body: "You have exceeded your limit".into(),
            retry_after,
        };
        assert_eq!(
            ApiError::from_failure("Ensembl", failure(Some(Duration::from_secs(40))), 1),
            ApiError::RateLimited {
                upstream: "Ensembl".into(),
                retry_after: Duration::from_secs(40)
            }
        );
        assert_eq!(
            ApiError::from_failure("Ensembl", failure(None), 4),
            ApiError::RateLimited {
                upstream: "Ensembl".into(),
                retry_after: Duration::from_secs(5)
            }
        );
        let unavailable = UpstreamFailure::Status {
            status: 503,
            body: String::new(),
            retry_after: None,
        };
        assert_eq!(
            ApiError::from_failure("Ensembl", unavailable.clone(), 4),
            upstream_named("Ensembl", unavailable, 4)
        );
    }

    fn upstream_named(name: &str, failure: UpstreamFailure, attempts: u32) -> ApiError {
        ApiError::Upstream {
            upstream: name.into(),
            failure,
            attempts,
        }
    }

    #[test]
    fn rate_limited_rounds_up_and_never_says_zero() {
        let e = ApiError::RateLimited {
            upstream: "Ensembl".into(),
            retry_after: Duration::from_millis(400),
        };
        let body = e.to_envelope().error;
        assert_eq!(body.code, ErrorCode::RateLimited);
        assert_eq!(body.retry_after_secs, Some(1));
        let e = ApiError::RateLimited {
            upstream: "Ensembl".into(),
            retry_after: Duration::from_millis(2100),
        };
        assert_eq!(e.to_envelope().error.retry_after_secs, Some(3));
    }

    #[test]
    fn upstream_errors_snapshot() {
        let cases = [
            upstream(
                UpstreamFailure::Status {
                    status: 503,
                    body: "Service Unavailable".into(),
                    retry_after: None,
                },
                4,
            ),
            upstream(
                UpstreamFailure::Timeout {
                    after: Duration::from_secs(30),
                },
                4,
            ),
            upstream(
                UpstreamFailure::TooLarge {
                    limit: 32 * 1024 * 1024,
                },
                1,
            ),
            upstream(
                UpstreamFailure::Decode {
                    path: "[0].score".into(),
                    detail: "invalid type: string \"x\", expected f64".into(),
                },
                1,
            ),
        ];
        let envelopes: Vec<_> = cases.iter().map(ApiError::to_envelope).collect();
        insta::assert_json_snapshot!(envelopes);
    }

    #[test]
    fn a_call_stopped_by_a_shutdown_says_so_and_to_call_again() {
        let e = ApiError::ShuttingDown;
        assert!(!e.is_transient(), "the upstream was not unwell");
        let result = e.to_call_tool_result();
        assert_eq!(result.is_error, Some(true));
        assert_eq!(result.structured_content, None);
        let text = result.content[0].as_text().unwrap().text.clone();
        let envelope: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            envelope,
            serde_json::json!({"success": false, "error": {
                "code": "UPSTREAM_ERROR",
                "message": "This server is shutting down and stopped the call before the \
                            upstream answered.",
                "recovery_hint": "Call the tool again with the same arguments: a restarted \
                                  server, or another replica of it, will take the call."
            }})
        );
    }

    #[test]
    fn caller_mistakes_keep_the_input_and_suggestions() {
        let e = ApiError::not_found(
            "ChEMBL has no compound 'CHEMBL:99999999'.",
            "Check the ID, or search with chembl_search_compounds.",
            "CHEMBL:99999999",
        )
        .with_suggestions(vec!["CHEMBL:25".to_owned()]);
        let body = e.to_envelope().error;
        assert_eq!(body.code, ErrorCode::EntityNotFound);
        assert_eq!(body.invalid_input.as_deref(), Some("CHEMBL:99999999"));
        assert_eq!(body.suggestions, vec!["CHEMBL:25"]);
    }

    #[test]
    fn an_error_result_is_marked_and_carries_the_envelope_as_text_only() {
        let err = ApiError::invalid_input("The cursor is not valid.", "Omit it.", "zzz")
            .to_call_tool_result();
        assert_eq!(err.is_error, Some(true));
        // No structured content: strict clients would check it against the success schema.
        assert_eq!(err.structured_content, None);
        let text = err.content[0].as_text().unwrap().text.clone();
        let envelope: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(envelope["success"], false);
        assert_eq!(envelope["error"]["code"], "INVALID_INPUT");
        assert_eq!(envelope["error"]["invalid_input"], "zzz");
    }

    #[test]
    fn a_huge_input_is_echoed_cut_to_200_characters() {
        let huge = "x".repeat(1_000_000);
        let e =
            ApiError::invalid_input(format!("'{huge}' is not valid."), "Fix it.", huge.as_str());
        let body = e.to_envelope().error;
        let echoed = body.invalid_input.unwrap();
        assert_eq!(echoed.chars().count(), 201);
        assert!(echoed.ends_with('…'));
        assert!(body.message.chars().count() <= 1001);
    }

    #[test]
    fn excerpt_is_short_and_marks_truncation() {
        assert_eq!(excerpt("  "), "");
        assert_eq!(excerpt("boom"), ": boom");
        assert_eq!(
            excerpt("<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1>"),
            " (an HTML error page)"
        );
        let long = "x".repeat(500);
        let e = excerpt(&long);
        assert!(e.ends_with('…'));
        assert!(e.chars().count() < 210);
    }
}
