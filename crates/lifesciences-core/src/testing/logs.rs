//! Capturing what the process logs through `tracing`, for the few operator-facing lines a
//! test checks (a start-up warning, the JSON path of an undecodable body). What an agent
//! sees is asserted on the MCP log notifications [`McpTestClient`](super::McpTestClient)
//! records, never here.
//!
//! A capture per thread with `tracing::subscriber::set_default` is not reliable when tests
//! run in parallel: `tracing` caches, per call site and for the whole process, whether any
//! subscriber wants its events, and that cache was built from whichever scoped subscribers
//! other tests' threads held at the moment. Here one subscriber is installed as the global
//! default, once for the whole test binary, and never replaced. Its filter answers
//! "sometimes" for every call site, so the cache never holds "never" or "always" for one,
//! and `tracing` asks the filter at every event; the filter enables an event only on a
//! thread with a live [`LogCapture`], and the writer appends it to that thread's buffer.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, Once};

use tracing::subscriber::Interest;
use tracing::{Metadata, level_filters::LevelFilter};
use tracing_subscriber::Layer as _;
use tracing_subscriber::layer::{Context, Filter, SubscriberExt as _};

type Buffer = Arc<Mutex<Vec<u8>>>;

thread_local! {
    /// The buffer of the capture live on this thread, if any.
    static CAPTURE: RefCell<Option<Buffer>> = const { RefCell::new(None) };
}

fn this_threads_buffer() -> Option<Buffer> {
    CAPTURE.with(|c| c.borrow().clone())
}

/// Enables every event and span of a capturing thread, nothing elsewhere; never lets a
/// call site's interest be cached.
struct CapturingThreadsOnly;

impl<S> Filter<S> for CapturingThreadsOnly {
    fn enabled(&self, _meta: &Metadata<'_>, _cx: &Context<'_, S>) -> bool {
        CAPTURE.with(|c| c.borrow().is_some())
    }

    fn callsite_enabled(&self, _meta: &'static Metadata<'static>) -> Interest {
        Interest::sometimes()
    }

    fn max_level_hint(&self) -> Option<LevelFilter> {
        Some(LevelFilter::TRACE)
    }
}

/// Writes a formatted event to the buffer of the thread that logged it.
struct ThreadBuffer;

impl std::io::Write for ThreadBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(buffer) = this_threads_buffer() {
            buffer.lock().unwrap().extend_from_slice(buf);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

static INSTALL: Once = Once::new();

/// Install the capturing subscriber as the global default, once per process. Panics if
/// another global default was installed first: a capture that silently captured nothing
/// would let a test of "nothing was logged" pass for the wrong reason.
fn install() {
    INSTALL.call_once(|| {
        let layer = tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .with_writer(|| ThreadBuffer)
            .with_filter(CapturingThreadsOnly);
        let subscriber = tracing_subscriber::registry().with(layer);
        tracing::subscriber::set_global_default(subscriber).expect(
            "LogCapture installs the global tracing subscriber of a test binary; \
             something else installed one first",
        );
    });
    // A call site first hit while the default was being installed may have cached the
    // interest of the no-op subscriber before it: ask every call site again.
    tracing::callsite::rebuild_interest_cache();
}

/// Captures, at every level, what `tracing` logs on this thread while it lives. Code run
/// by a current-thread runtime (the `#[tokio::test]` default) runs on this thread,
/// spawned tasks included; events of other threads are not captured.
pub struct LogCapture {
    buffer: Buffer,
}

impl LogCapture {
    /// Start capturing on this thread (one capture per thread at a time).
    pub fn start() -> Self {
        install();
        let buffer = Buffer::default();
        CAPTURE.with(|c| {
            let previous = c.borrow_mut().replace(buffer.clone());
            assert!(
                previous.is_none(),
                "a LogCapture is already live on this thread"
            );
        });
        Self { buffer }
    }

    /// Everything logged on this thread since [`start`](Self::start).
    pub fn contents(&self) -> String {
        String::from_utf8_lossy(&self.buffer.lock().unwrap()).into_owned()
    }
}

impl Drop for LogCapture {
    fn drop(&mut self) {
        CAPTURE.with(|c| c.borrow_mut().take());
    }
}
