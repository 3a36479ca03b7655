//! The bench's mock upstream: one wiremock server whose every response waits a fixed
//! latency, serves a recorded fixture (optionally with the fixture's own ID rewritten to
//! the one asked for, so a server that checks the answer against its request accepts
//! it), and logs when each request arrived and at which path. Anything no route matches
//! is logged too, and answered by a catch-all: 404 for the built-in servers (a bench
//! route is missing: the verification call fails loudly), `{}` for a generic command.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use wiremock::matchers::{any, method, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// Where the ID a request asks for sits in it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum IdFrom {
    /// The last path segment, without this suffix (e.g. `CHEMBL7.json` → `CHEMBL7`).
    LastSegment { strip_suffix: &'static str },
    /// A query parameter.
    Query(&'static str),
    /// A top-level string field of a JSON body.
    BodyField(&'static str),
}

impl IdFrom {
    fn find(self, request: &Request) -> Option<String> {
        match self {
            Self::LastSegment { strip_suffix } => {
                let last = request.url.path_segments()?.next_back()?;
                Some(last.strip_suffix(strip_suffix).unwrap_or(last).to_owned())
            }
            Self::Query(name) => request
                .url
                .query_pairs()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.into_owned()),
            Self::BodyField(name) => request
                .body_json::<serde_json::Value>()
                .ok()?
                .get(name)?
                .as_str()
                .map(str::to_owned),
        }
    }
}

/// Rewrite every whole-word occurrence of `token` in the fixture into the ID the request
/// asks for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rewrite {
    /// The fixture's own ID, e.g. `ENSG00000141510`.
    pub token: &'static str,
    /// Where the request carries the ID to put in its place.
    pub from: IdFrom,
}

/// One route of the mock: requests with this method (any when `None`) whose path matches
/// the regex get the fixture.
#[derive(Debug, Clone)]
pub(crate) struct Route {
    pub method: Option<&'static str>,
    /// A regex over the whole path, e.g. `^/ensembl/lookup/id/[^/]+$`.
    pub path_regex: String,
    /// The fixture file.
    pub fixture: PathBuf,
    pub rewrite: Option<Rewrite>,
}

impl Route {
    /// A route serving `crates/<krate>/tests/fixtures/<name>`.
    pub(crate) fn fixture(
        method: &'static str,
        path_regex: &str,
        krate: &str,
        name: &str,
        rewrite: Option<Rewrite>,
    ) -> Self {
        Self {
            method: Some(method),
            path_regex: path_regex.to_owned(),
            fixture: crate::workspace_root()
                .join("crates")
                .join(krate)
                .join("tests/fixtures")
                .join(name),
            rewrite,
        }
    }

    /// `<path-regex>=<file>` from the command line (split at the first `=`: file names
    /// may hold one, as fixtures named after their query do): any method, no rewriting.
    pub(crate) fn parse_pair(pair: &str) -> anyhow::Result<Self> {
        let Some((regex, file)) = pair.split_once('=') else {
            bail!("--route-fixture {pair:?}: expected <path-regex>=<file>");
        };
        Ok(Self {
            method: None,
            path_regex: regex.to_owned(),
            fixture: PathBuf::from(file),
            rewrite: None,
        })
    }
}

/// What unmatched requests get.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CatchAll {
    /// 404 with a message naming the missing route.
    NotFound,
    /// 200 `{}`.
    EmptyObject,
}

/// One request, as the mock saw it arrive.
#[derive(Debug, Clone)]
pub(crate) struct Arrival {
    pub at: Instant,
    pub path: String,
}

/// Every arrival so far, shared by all the routes of one mock.
#[derive(Debug, Clone, Default)]
pub(crate) struct Log(Arc<Mutex<Vec<Arrival>>>);

impl Log {
    fn push(&self, path: &str) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Arrival {
                at: Instant::now(),
                path: path.to_owned(),
            });
    }

    /// Requests received so far.
    pub(crate) fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// The arrivals from the `from`-th on.
    pub(crate) fn since(&self, from: usize) -> Vec<Arrival> {
        let all = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        all.get(from..).map(<[Arrival]>::to_vec).unwrap_or_default()
    }
}

/// Answers one route (or the catch-all): logs the arrival, then the fixture after the
/// latency.
struct Serve {
    status: u16,
    body: Arc<str>,
    rewrite: Option<Rewrite>,
    latency: Duration,
    log: Log,
}

impl Respond for Serve {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        self.log.push(request.url.path());
        let body = match self
            .rewrite
            .and_then(|rw| rw.from.find(request).map(|id| (rw.token, id)))
        {
            Some((token, id)) => replace_word(&self.body, token, &id),
            None => self.body.to_string(),
        };
        ResponseTemplate::new(self.status)
            .insert_header("content-type", "application/json")
            .set_body_string(body)
            .set_delay(self.latency)
    }
}

/// `text` with every occurrence of `token` that is not part of a longer word (letters,
/// digits, `_`) replaced by `with`: `CHEMBL25` is rewritten, `CHEMBL250` is not.
pub(crate) fn replace_word(text: &str, token: &str, with: &str) -> String {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(token) {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let after = &from[token.len()..];
        let whole = !word(out.chars().next_back()) && !word(after.chars().next());
        out.push_str(if whole { with } else { token });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// A running mock upstream and its log.
pub(crate) struct Upstream {
    pub server: MockServer,
    pub log: Log,
}

impl Upstream {
    /// Start a mock serving `routes` with `latency` per response.
    pub(crate) async fn start(
        routes: &[Route],
        catch_all: CatchAll,
        latency: Duration,
    ) -> anyhow::Result<Self> {
        let server = MockServer::start().await;
        let log = Log::default();
        for route in routes {
            let body = read_fixture(&route.fixture)?;
            let matcher = path_matcher(&route.path_regex)?;
            let mock = match route.method {
                Some(m) => Mock::given(method(m)).and(matcher),
                None => Mock::given(matcher),
            };
            mock.respond_with(Serve {
                status: 200,
                body: body.into(),
                rewrite: route.rewrite,
                latency,
                log: log.clone(),
            })
            .mount(&server)
            .await;
        }
        let (status, body) = match catch_all {
            CatchAll::NotFound => (404, "\"no bench route for this request\""),
            CatchAll::EmptyObject => (200, "{}"),
        };
        Mock::given(any())
            .respond_with(Serve {
                status,
                body: body.into(),
                rewrite: None,
                latency,
                log: log.clone(),
            })
            .with_priority(u8::MAX)
            .mount(&server)
            .await;
        Ok(Self { server, log })
    }

    /// The base URL, e.g. `http://127.0.0.1:41234`.
    pub(crate) fn uri(&self) -> String {
        self.server.uri()
    }
}

fn read_fixture(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path)
        .with_context(|| format!("cannot read bench fixture {}", path.display()))
}

/// wiremock's path regex matcher, which panics on a regex it cannot compile: a bad
/// `--route-fixture` is reported as an error instead.
fn path_matcher(regex: &str) -> anyhow::Result<wiremock::matchers::PathRegexMatcher> {
    let owned = regex.to_owned();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let matcher = std::panic::catch_unwind(move || path_regex(owned.as_str()));
    std::panic::set_hook(previous);
    matcher.map_err(|_| anyhow::anyhow!("{regex:?} is not a valid path regex"))
}

#[cfg(test)]
mod tests {
    use super::replace_word;

    #[test]
    fn only_whole_words_are_rewritten() {
        assert_eq!(
            replace_word(
                r#"{"a": "CHEMBL25", "b": "CHEMBL250", "c": "xCHEMBL25"}"#,
                "CHEMBL25",
                "CHEMBL7"
            ),
            r#"{"a": "CHEMBL7", "b": "CHEMBL250", "c": "xCHEMBL25"}"#
        );
        assert_eq!(replace_word("CHEMBL25/CHEMBL25", "CHEMBL25", "X"), "X/X");
        assert_eq!(replace_word("none here", "CHEMBL25", "X"), "none here");
    }
}
