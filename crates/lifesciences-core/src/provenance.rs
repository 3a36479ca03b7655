//! Where an answer came from: for each source that contributed to a tool call's result,
//! the database, its data release when the source says, the exact upstream requests the
//! answer was built from, when they were retrieved, and whether the cache served them.
//!
//! [`Served`](crate::server::Served) runs every tool call inside `scope`; the HTTP
//! client notes every request a call makes (`asking`) and every answer it reads
//! (`answered`: fetched, joined in flight or served from the cache) without knowing
//! about calls. When the call succeeds, the
//! record becomes the result's `provenance` (`attach`), so no tool can forget it and
//! none builds it itself.
//!
//! **Invariant:** only requests a call made and read an answer to are named, each once
//! (as first asked, in the order asked), with the time the upstream sent the answer: an answer served from the cache keeps its original retrieval time.
//! Requests a call did not make (a source's daily release look-up, which runs in a task
//! of its own) are never recorded.

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use futures::future::BoxFuture;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::schemars::{self, JsonSchema};
use serde::Serialize;
use serde_with::skip_serializing_none;

/// The longest request text kept: a POST's body beyond it is cut (`…`).
const MAX_REQUEST_CHARS: usize = 2000;

/// A source that can say which data release it serves (the HTTP client of one upstream).
pub(crate) trait ReleaseSource: Send + Sync {
    /// The release, if known or found out in time; never an error.
    fn release(&self) -> BoxFuture<'_, Option<Arc<str>>>;
}

/// One upstream request a call made, and its answer once read.
#[derive(Clone)]
struct Record {
    source: &'static str,
    release: Arc<dyn ReleaseSource>,
    request: String,
    /// When the upstream sent the answer, and whether the cache served it; `None` until
    /// an answer is read (a request that failed is never named).
    answer: Option<(SystemTime, Origin)>,
}

/// The upstream requests one tool call made, in the order it made them (so requests sent
/// together, in a join, are named in the order they were written, whichever answered
/// first).
#[derive(Clone, Default)]
pub(crate) struct Recorder(Arc<Mutex<Vec<Record>>>);

/// A request's place in the current call's record (see [`asking`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Slot(usize);

tokio::task_local! {
    static CALL: Recorder;
}

/// Run `call` (one tool call) recording the upstream answers it reads; returns its output
/// and the record.
pub(crate) async fn scope<F: Future>(call: F) -> (F::Output, Recorder) {
    let recorder = Recorder::default();
    let output = CALL.scope(recorder.clone(), call).await;
    (output, recorder)
}

/// Note that the current tool call asks `source` for `request` (built only inside a
/// call): its place in the record. The same request asked again in one call (the cache
/// then serves it) keeps its first place. Outside a tool call (`check`, a release
/// look-up) nothing happens and there is no place.
pub(crate) fn asking(
    source: &'static str,
    release: impl FnOnce() -> Arc<dyn ReleaseSource>,
    request: impl FnOnce() -> String,
) -> Option<Slot> {
    CALL.try_with(|recorder| {
        let mut records = recorder.0.lock().unwrap_or_else(PoisonError::into_inner);
        let request = request();
        if let Some(at) = records
            .iter()
            .position(|r| r.source == source && r.request == request)
        {
            return Slot(at);
        }
        let release = records
            .iter()
            .find(|r| r.source == source)
            .map_or_else(release, |r| Arc::clone(&r.release));
        records.push(Record {
            source,
            release,
            request,
            answer: None,
        });
        Slot(records.len() - 1)
    })
    .ok()
}

/// The request at `slot` was answered: when the upstream sent the answer, and whether
/// the cache served it. The first answer read stands.
/// Where an answer a call read came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// The upstream, for this call (or an identical one in flight).
    Upstream,
    /// A cache: this process's, or the store it shares with others.
    Cache,
    /// The store, without asking the upstream whatever the answer's age (offline mode).
    Offline,
}

pub(crate) fn answered(slot: Option<Slot>, retrieved_at: SystemTime, origin: Origin) {
    let Some(Slot(at)) = slot else {
        return;
    };
    let _ = CALL.try_with(|recorder| {
        let mut records = recorder.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(record) = records.get_mut(at)
            && record.answer.is_none()
        {
            record.answer = Some((retrieved_at, origin));
        }
    });
}

/// How a request is written in the provenance: a GET is its URL; any other method is
/// the method, the URL and the body as sent (form-encoded or JSON), cut at 2,000
/// characters.
pub(crate) fn describe_request(method: &str, url: &str, body: Option<&[u8]>) -> String {
    if method == "GET" {
        return url.to_owned();
    }
    let mut text = format!("{method} {url}");
    if let Some(body) = body.filter(|b| !b.is_empty()) {
        text.push(' ');
        text.push_str(&String::from_utf8_lossy(body));
    }
    match text.char_indices().nth(MAX_REQUEST_CHARS) {
        Some((cut, _)) => {
            text.truncate(cut);
            text.push('…');
            text
        }
        None => text,
    }
}

impl Recorder {
    /// What the record says, with each source's release (asked concurrently; see
    /// [`ReleaseSource`]).
    pub(crate) async fn provenance(&self) -> Provenance {
        // Source by source, in the order each was first asked; answered requests only.
        let groups: Vec<Vec<(Record, SystemTime, Origin)>> = {
            let records = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            let mut groups: Vec<Vec<(Record, SystemTime, Origin)>> = Vec::new();
            for record in records.iter() {
                let Some((at, origin)) = record.answer else {
                    continue;
                };
                let record = (record.clone(), at, origin);
                match groups.iter_mut().find(|g| g[0].0.source == record.0.source) {
                    Some(group) => group.push(record),
                    None => groups.push(vec![record]),
                }
            }
            groups
        };
        let releases =
            futures::future::join_all(groups.iter().map(|group| group[0].0.release.release()))
                .await;
        let sources = groups
            .into_iter()
            .zip(releases)
            .map(|(group, release)| SourceProvenance {
                database: group[0].0.source.to_owned(),
                release: release.map(|r| r.to_string()),
                retrieved_at: rfc3339(
                    group
                        .iter()
                        .map(|(_, at, _)| *at)
                        .min()
                        .unwrap_or_else(SystemTime::now),
                ),
                cached: group
                    .iter()
                    .any(|(_, _, origin)| *origin != Origin::Upstream),
                offline: group
                    .iter()
                    .any(|(_, _, origin)| *origin == Origin::Offline),
                requests: group.into_iter().map(|(r, ..)| r.request).collect(),
            })
            .collect();
        Provenance { sources }
    }
}

/// Where a result came from, source by source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Provenance {
    /// Every source that contributed to the result, in the order it was first asked; empty
    /// when the answer needed no upstream (a listing the server holds itself).
    pub sources: Vec<SourceProvenance>,
}

/// What one source contributed.
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SourceProvenance {
    /// The database, e.g. `Ensembl`, `ChEMBL`, `STRING`, `IGVF Catalog`.
    pub database: String,
    /// The data release it served, as the source names it (`115`, `ChEMBL_35`, `12.0`);
    /// absent when the source does not say or has not said yet.
    pub release: Option<String>,
    /// The exact requests the result was built from, to re-run or cite: a GET as its URL,
    /// a POST as `POST <url> <body>` (the body cut at 2,000 characters).
    pub requests: Vec<String>,
    /// When the upstream sent the oldest of these answers (UTC, RFC 3339, to the
    /// millisecond): for an answer served from the cache, its original retrieval time.
    #[schemars(extend("format" = "date-time"))]
    pub retrieved_at: String,
    /// True when at least one answer came from the cache (see `retrieved_at`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[schemars(default)]
    pub cached: bool,
    /// True when this server runs offline (`LIFESCIENCES_OFFLINE=1`) and answered from
    /// its store without asking the upstream, however old the answer (see
    /// `retrieved_at`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[schemars(default)]
    pub offline: bool,
}

impl Provenance {
    /// One line for a result a model reads as text only (a picture): each source, its
    /// release and retrieval time, and its requests.
    pub fn as_text(&self) -> String {
        let sources: Vec<String> = self
            .sources
            .iter()
            .map(|s| {
                let release = s
                    .release
                    .as_deref()
                    .map(|r| format!(" release {r}"))
                    .unwrap_or_default();
                let cached = match (s.offline, s.cached) {
                    (true, _) => ", offline, from the store",
                    (false, true) => ", from the cache",
                    (false, false) => "",
                };
                format!(
                    "{}{release}, retrieved {}{cached}: {}",
                    s.database,
                    s.retrieved_at,
                    s.requests.join(" ; ")
                )
            })
            .collect();
        format!("Provenance: {}", sources.join(" | "))
    }
}

/// Add `provenance` to a successful result: into its structured content (and the text
/// that mirrors it), or, for a result without structured content (a picture), as a line
/// of text after its blocks. Error results are left as they are.
pub(crate) fn attach(result: &mut CallToolResult, provenance: &Provenance) {
    if result.is_error == Some(true) {
        return;
    }
    let Ok(value) = serde_json::to_value(provenance) else {
        return;
    };
    match result.structured_content.as_mut() {
        Some(serde_json::Value::Object(map)) => {
            // The text that mirrors the structured content (rmcp writes it compact) is
            // written again with the provenance in it.
            let before = serde_json::to_string(&*map).unwrap_or_default();
            map.insert("provenance".to_owned(), value);
            let after = serde_json::to_string(&*map).unwrap_or_default();
            for block in &mut result.content {
                if block.as_text().is_some_and(|t| t.text == before) {
                    *block = ContentBlock::text(after.clone());
                }
            }
        }
        Some(_) => {}
        None => result
            .content
            .push(ContentBlock::text(provenance.as_text())),
    }
}

/// `time` as RFC 3339 in UTC, to the millisecond (`2026-11-26T10:40:00.123Z`).
pub(crate) fn rfc3339(time: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(time).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    struct Known(&'static str);

    impl ReleaseSource for Known {
        fn release(&self) -> BoxFuture<'_, Option<Arc<str>>> {
            Box::pin(async move { Some(Arc::from(self.0)) })
        }
    }

    #[test]
    fn times_are_utc_to_the_millisecond() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_micros(1_764_153_600_900_700);
        assert_eq!(rfc3339(t), "2025-11-26T10:40:00.900Z");
    }

    #[test]
    fn a_get_is_its_url_and_a_post_carries_its_body_cut_to_size() {
        assert_eq!(
            describe_request("GET", "https://x.org/a?b=1", None),
            "https://x.org/a?b=1"
        );
        assert_eq!(
            describe_request("POST", "https://x.org/vep", Some(br#"{"ids":["rs1"]}"#)),
            r#"POST https://x.org/vep {"ids":["rs1"]}"#
        );
        let long = "é".repeat(3000);
        let cut = describe_request("POST", "u", Some(long.as_bytes()));
        assert_eq!(cut.chars().count(), MAX_REQUEST_CHARS + 1);
        assert!(cut.ends_with('…'));
    }

    #[tokio::test]
    async fn answers_are_grouped_by_source_once_each_with_the_oldest_time() {
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_764_153_600);
        let later = t0 + Duration::from_secs(5);
        let release = || -> Arc<dyn ReleaseSource> { Arc::new(Known("115")) };
        let ((), recorder) = scope(async {
            let a = asking("Ensembl", release, || "https://e/a".into());
            let chembl = asking(
                "ChEMBL",
                || Arc::new(Known("ChEMBL_35")),
                || "https://c/m".into(),
            );
            let b = asking("Ensembl", release, || "https://e/b".into());
            // Asked, never answered (it failed): not named.
            let _failed = asking("Ensembl", release, || "https://e/gone".into());
            // Answered in another order than asked; a from the cache, first sent at t0.
            answered(b, later, Origin::Upstream);
            answered(chembl, later, Origin::Upstream);
            answered(a, t0, Origin::Cache);
            // Asked and read again in the same call: the first read stands.
            let again = asking("Ensembl", release, || "https://e/a".into());
            answered(again, later, Origin::Upstream);
        })
        .await;
        let provenance = recorder.provenance().await;
        assert_eq!(
            serde_json::to_value(&provenance).unwrap(),
            serde_json::json!({"sources": [
                {"database": "Ensembl", "release": "115", "requests": ["https://e/a", "https://e/b"],
                 "retrieved_at": "2025-11-26T10:40:00.000Z", "cached": true},
                {"database": "ChEMBL", "release": "ChEMBL_35", "requests": ["https://c/m"],
                 "retrieved_at": "2025-11-26T10:40:05.000Z"}
            ]})
        );
    }

    #[test]
    fn outside_a_call_nothing_is_recorded() {
        // No task-local: must neither panic nor build the request text.
        let slot = asking(
            "X",
            || unreachable!("not built outside a call"),
            || unreachable!("not built outside a call"),
        );
        assert!(slot.is_none());
        answered(slot, SystemTime::now(), Origin::Upstream);
    }

    #[test]
    fn a_success_gains_provenance_in_both_forms_and_an_error_none() {
        let provenance = Provenance {
            sources: vec![SourceProvenance {
                database: "STRING".into(),
                release: Some("12.0".into()),
                requests: vec!["https://s/api/json/network".into()],
                retrieved_at: "2025-11-26T10:40:00Z".into(),
                cached: false,
                offline: false,
            }],
        };
        let mut ok = CallToolResult::structured(serde_json::json!({"a": 1}));
        attach(&mut ok, &provenance);
        let structured = ok.structured_content.clone().unwrap();
        assert_eq!(structured["provenance"]["sources"][0]["release"], "12.0");
        let text = ok.content[0].as_text().unwrap().text.clone();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            structured
        );

        let mut picture = CallToolResult::success(vec![ContentBlock::text("a network")]);
        attach(&mut picture, &provenance);
        assert_eq!(picture.content.len(), 2);
        assert!(
            picture.content[1]
                .as_text()
                .unwrap()
                .text
                .starts_with("Provenance: STRING release 12.0")
        );

        let mut failed = CallToolResult::error(vec![ContentBlock::text("{}")]);
        attach(&mut failed, &provenance);
        assert_eq!(failed.content.len(), 1);
    }
}
