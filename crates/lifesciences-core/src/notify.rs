//! MCP logging: what an agent or its user may want to know about a tool call while it
//! runs, sent to the client as `notifications/message` at the level the client chose with
//! `logging/setLevel` (warnings and errors until it chooses).
//!
//! [`Served`](crate::server::Served) runs every tool call inside `scope`, which names
//! the session to tell; code anywhere below the tool (the HTTP client's retries and
//! pauses, the cross-reference registry, a server's fallbacks) calls [`notify`] without
//! knowing about sessions. Outside a tool call (`check`, unit tests) [`notify`] does
//! nothing. The same events also go to the server's own log (stderr) through `tracing`
//! at their call sites.
//!
//! MCP logging is deprecated in the newest protocol revision, in favour of nothing yet
//! for servers; clients of the 2025-11-25 revision still use it, and supporting it costs
//! a server nothing when the client does not listen.
#![expect(
    deprecated,
    reason = "MCP logging is deprecated in the newest protocol revision; clients of the previous revision still use it"
)]

use std::future::Future;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::{Peer, RoleServer};

/// How much an event matters, least first (the MCP levels a server of this project uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Detail for whoever debugs a call.
    Debug,
    /// What happened, e.g. a list of the result was cut, a request was retried.
    Info,
    /// Normal but significant, e.g. an upstream asked us to wait and every request to it
    /// pauses.
    Notice,
    /// The answer is less than it could be, e.g. a cross-reference was dropped, a
    /// secondary source failed.
    Warning,
    /// The call failed.
    Error,
}

impl Level {
    const fn rank(self) -> u8 {
        match self {
            Self::Debug => 0,
            Self::Info => 1,
            Self::Notice => 2,
            Self::Warning => 3,
            Self::Error => 4,
        }
    }

    /// The least severe of our levels a client's `logging/setLevel` asks for (`critical`
    /// and above ask for errors only: a server of this project sends nothing graver).
    pub(crate) const fn from_mcp(level: LoggingLevel) -> Self {
        match level {
            LoggingLevel::Debug => Self::Debug,
            LoggingLevel::Info => Self::Info,
            LoggingLevel::Notice => Self::Notice,
            LoggingLevel::Warning => Self::Warning,
            LoggingLevel::Error
            | LoggingLevel::Critical
            | LoggingLevel::Alert
            | LoggingLevel::Emergency => Self::Error,
        }
    }

    const fn to_mcp(self) -> LoggingLevel {
        match self {
            Self::Debug => LoggingLevel::Debug,
            Self::Info => LoggingLevel::Info,
            Self::Notice => LoggingLevel::Notice,
            Self::Warning => LoggingLevel::Warning,
            Self::Error => LoggingLevel::Error,
        }
    }
}

/// The level one session's client asked for; shared by its calls. Warnings and errors
/// until the client sets it.
#[derive(Debug, Clone)]
pub(crate) struct SessionLevel(Arc<AtomicU8>);

impl SessionLevel {
    pub(crate) fn new() -> Self {
        Self(Arc::new(AtomicU8::new(Level::Warning.rank())))
    }

    pub(crate) fn set(&self, level: Level) {
        self.0.store(level.rank(), Ordering::Relaxed);
    }

    pub(crate) fn allows(&self, level: Level) -> bool {
        level.rank() >= self.0.load(Ordering::Relaxed)
    }
}

#[derive(Clone)]
struct CallLog {
    peer: Peer<RoleServer>,
    level: SessionLevel,
    logger: &'static str,
    /// The notifications of this call still being sent, each from its own task.
    sending: Arc<Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

/// How long a call's result waits for its notifications to be sent.
const FLUSH: Duration = Duration::from_secs(1);

tokio::task_local! {
    static CALL: CallLog;
}

/// Run `call` (one tool call) so that [`notify`] inside it reaches `peer` at `level`.
/// Its notifications are sent before it returns (within a second), so they precede its
/// result on the wire: over stateless HTTP the result ends the response, and a
/// notification sent after it would have nothing left to travel on.
pub(crate) async fn scope<F: Future>(
    peer: Peer<RoleServer>,
    level: SessionLevel,
    logger: &'static str,
    call: F,
) -> F::Output {
    let sending = Arc::new(Mutex::new(Vec::new()));
    let output = CALL
        .scope(
            CallLog {
                peer,
                level,
                logger,
                sending: Arc::clone(&sending),
            },
            call,
        )
        .await;
    let pending = std::mem::take(&mut *sending.lock().unwrap_or_else(PoisonError::into_inner));
    if !pending.is_empty() {
        let _ = tokio::time::timeout(FLUSH, futures::future::join_all(pending)).await;
    }
    output
}

/// Tell the client of the current tool call, if it listens at `level`. The message is
/// a plain sentence naming the source; it never replaces what the result says.
pub fn notify(level: Level, message: impl std::fmt::Display) {
    let _ = CALL.try_with(|log| {
        if !log.level.allows(level) {
            return;
        }
        let param = LoggingMessageNotificationParam::new(
            level.to_mcp(),
            serde_json::Value::String(message.to_string()),
        )
        .with_logger(log.logger);
        let peer = log.peer.clone();
        // Sent from its own task: a caller deep in a synchronous helper cannot await, and
        // a slow client must not hold the tool call up (its result waits at most `FLUSH`).
        let sent = tokio::spawn(async move {
            if let Err(e) = peer.notify_logging_message(param).await {
                tracing::debug!(error = %e, "could not send a log notification");
            }
        });
        log.sending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(sent);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_hears_its_level_and_above() {
        let level = SessionLevel::new();
        assert!(!level.allows(Level::Notice));
        assert!(level.allows(Level::Warning));
        level.set(Level::from_mcp(LoggingLevel::Debug));
        assert!(level.allows(Level::Debug));
        level.set(Level::from_mcp(LoggingLevel::Emergency));
        assert!(!level.allows(Level::Warning));
        assert!(level.allows(Level::Error));
    }

    #[test]
    fn outside_a_tool_call_nothing_is_sent() {
        // No runtime, no session: must not panic.
        notify(Level::Error, "nobody listens");
    }
}
