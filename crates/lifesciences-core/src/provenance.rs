//! Where an answer came from: for each source that contributed to a tool call's result,
//! the database, the data release its answers were retrieved under (when the source
//! says), the licence its data are under and the paper it asks to be cited by (from its
//! [`Upstream`] description), the upstream requests the answer was built from, when they
//! were retrieved, and whether the cache served them.
//!
//! [`Served`](crate::server::Served) runs every tool call inside `scope`; the HTTP
//! client notes every request a call makes (`asking`) and every answer it reads
//! (`answered`: fetched, joined in flight or served from the cache, with its release)
//! without knowing about calls. When the call succeeds, the record becomes the result's
//! `provenance` (`attach`), so no tool can forget it and none builds it itself.
//!
//! **Invariant:** only requests a call made and read an answer to are named, each once
//! (as first asked, in the order asked), with the time the upstream sent the answer: an
//! answer served from the cache keeps its original retrieval time and release. Requests a
//! call did not make (a source's daily release look-up, which runs in a task of its own)
//! are never recorded. Building it never waits: it is plain bookkeeping on the answer path.
//!
//! **Invariant:** provenance stays within 1 KB ([`MAX_BYTES`]) whatever the call asked
//! and however many sources answered: a request longer than [`MAX_REQUEST_CHARS`] is
//! named by its method, URL, body length and the SHA-256 of its body, never cut; a
//! source's many requests are summarised as the first few and their count, fewer while
//! the whole is over 1 KB, and, for an answer from many databases, none: each source is
//! then named with its release, licence, citation and retrieval time only. The licence
//! and citation are never dropped. The full record then stays reachable (`full`: a
//! `provenance://` resource, and `call --provenance full`), kept in this process and in
//! the store.

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use bytes::Bytes;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::schemars::{self, JsonSchema};
use serde::Serialize;
use serde_with::skip_serializing_none;

use crate::config::Upstream;

/// A request whose text is longer than this is named by its method, URL, body length and
/// the SHA-256 of its body instead (a 2,000-identifier POST would otherwise fill the
/// answer with a body no one can read).
pub const MAX_REQUEST_CHARS: usize = 200;
/// The most requests named per source before the rest are only counted.
const MAX_LISTED: usize = 3;
/// What provenance may take in an answer (its JSON, in bytes): beyond it, fewer requests
/// are listed per source, down to none.
pub const MAX_BYTES: usize = 1024;
/// The scheme of a full record's resource URI: `provenance://<id>`.
pub const RESOURCE_SCHEME: &str = "provenance://";

/// A source that can say which data release an answer retrieved at a given time was
/// served under (the HTTP client of one upstream): what it knows now, never waiting.
pub(crate) trait ReleaseSource: Send + Sync {
    fn release_at(&self, at: SystemTime) -> Option<Arc<str>>;
}

/// One request as sent: enough to name it, briefly or in full.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Asked {
    pub(crate) method: String,
    pub(crate) url: String,
    pub(crate) body: Option<Bytes>,
}

/// One upstream request a call made, and its answer once read.
#[derive(Clone)]
struct Record {
    source: &'static Upstream,
    release_of: Arc<dyn ReleaseSource>,
    asked: Asked,
    /// When the upstream sent the answer, whether the cache served it, and the release
    /// it was retrieved under (when known then); `None` until an answer is read (a
    /// request that failed is never named).
    answer: Option<(SystemTime, Origin, Option<Arc<str>>)>,
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

/// Note that the current tool call asks `source` for a request (built only inside a
/// call): its place in the record. The same request asked again in one call (the cache
/// then serves it) keeps its first place. Outside a tool call (`check`, a release
/// look-up) nothing happens and there is no place.
pub(crate) fn asking(
    source: &'static Upstream,
    release_of: impl FnOnce() -> Arc<dyn ReleaseSource>,
    request: impl FnOnce() -> Asked,
) -> Option<Slot> {
    CALL.try_with(|recorder| {
        let mut records = recorder.0.lock().unwrap_or_else(PoisonError::into_inner);
        let asked = request();
        if let Some(at) = records
            .iter()
            .position(|r| r.source.name == source.name && r.asked == asked)
        {
            return Slot(at);
        }
        let release_of = records
            .iter()
            .find(|r| r.source.name == source.name)
            .map_or_else(release_of, |r| Arc::clone(&r.release_of));
        records.push(Record {
            source,
            release_of,
            asked,
            answer: None,
        });
        Slot(records.len() - 1)
    })
    .ok()
}

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

/// The request at `slot` was answered: when the upstream sent the answer, whether the
/// cache served it, and the release it was retrieved under. The first answer read stands.
pub(crate) fn answered(
    slot: Option<Slot>,
    retrieved_at: SystemTime,
    origin: Origin,
    release: Option<Arc<str>>,
) {
    let Some(Slot(at)) = slot else {
        return;
    };
    let _ = CALL.try_with(|recorder| {
        let mut records = recorder.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(record) = records.get_mut(at)
            && record.answer.is_none()
        {
            record.answer = Some((retrieved_at, origin, release));
        }
    });
}

impl Asked {
    /// The request in full: a GET is its URL; any other method is the method, the URL
    /// and the body as sent (form-encoded or JSON).
    pub(crate) fn full(&self) -> String {
        let body = self.body.as_ref().filter(|b| !b.is_empty());
        match body {
            None if self.method == "GET" => self.url.clone(),
            None => format!("{} {}", self.method, self.url),
            Some(body) => format!(
                "{} {} {}",
                self.method,
                self.url,
                String::from_utf8_lossy(body)
            ),
        }
    }

    /// The request as a summary names it: in full up to [`MAX_REQUEST_CHARS`]; beyond,
    /// the method and URL (a long query named like a body) with the length and SHA-256 of
    /// the body. Whether it was shortened.
    pub(crate) fn brief(&self) -> (String, bool) {
        let full = self.full();
        if full.chars().count() <= MAX_REQUEST_CHARS {
            return (full, false);
        }
        let (url, query) = match self.url.split_once('?') {
            Some((path, query)) if self.url.chars().count() > MAX_REQUEST_CHARS => {
                (path, Some(query))
            }
            _ => (self.url.as_str(), None),
        };
        let mut parts = Vec::new();
        if let Some(query) = query {
            parts.push(format!(
                "query {} bytes, sha256 {}",
                query.len(),
                sha256(query.as_bytes())
            ));
        }
        if let Some(body) = self.body.as_ref().filter(|b| !b.is_empty()) {
            parts.push(format!(
                "body {} bytes, sha256 {}",
                body.len(),
                sha256(body)
            ));
        }
        (
            format!("{} {url} ({})", self.method, parts.join("; ")),
            true,
        )
    }
}

fn sha256(bytes: &[u8]) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, bytes);
    let mut hex = String::with_capacity(64);
    for byte in digest.as_ref() {
        hex.push_str(&format!("{byte:02x}"));
    }
    hex
}

/// One source's answered requests, in the order asked.
struct Group {
    source: &'static Upstream,
    release_of: Arc<dyn ReleaseSource>,
    answers: Vec<(Asked, SystemTime, Origin, Option<Arc<str>>)>,
}

impl Recorder {
    /// What the record says: the provenance an answer carries, and, when that one had to
    /// summarise, the full record with its id (what its `full` URI names). Never waits.
    pub(crate) fn provenance(&self) -> (Provenance, Option<(String, Provenance)>) {
        let groups = {
            let records = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            let mut groups: Vec<Group> = Vec::new();
            for record in records.iter() {
                let Some((at, origin, release)) = &record.answer else {
                    continue;
                };
                let answer = (record.asked.clone(), *at, *origin, release.clone());
                match groups
                    .iter_mut()
                    .find(|g| g.source.name == record.source.name)
                {
                    Some(group) => group.answers.push(answer),
                    None => groups.push(Group {
                        source: record.source,
                        release_of: Arc::clone(&record.release_of),
                        answers: vec![answer],
                    }),
                }
            }
            groups
        };
        let full = Provenance {
            sources: groups
                .iter()
                .map(|g| g.source_provenance(Asked::full))
                .collect(),
            full: None,
        };
        // Each round lists fewer requests per source, down to none: the answer then
        // names its sources only (what each is, its release, licence and citation), and
        // the full record every request.
        let mut listed = MAX_LISTED;
        loop {
            let mut shortened = false;
            let sources = groups
                .iter()
                .map(|group| {
                    let mut source = group.source_provenance(|asked| {
                        let (brief, short) = asked.brief();
                        shortened |= short;
                        brief
                    });
                    let count = source.requests.len();
                    if listed == 0 && count > 0 {
                        source.requests.clear();
                        shortened = true;
                    } else if count > listed + 1 {
                        // Many requests: the first few, and how many there were.
                        source.requests_total = Some(count);
                        source.requests.truncate(listed);
                        shortened = true;
                    }
                    source
                })
                .collect();
            let mut provenance = Provenance {
                sources,
                full: None,
            };
            if shortened {
                let id = record_id(&full);
                provenance.full = Some(format!("{RESOURCE_SCHEME}{id}"));
                if listed == 0 || size_of(&provenance) <= MAX_BYTES {
                    return (provenance, Some((id, full)));
                }
            } else if listed == 0 || size_of(&provenance) <= MAX_BYTES {
                return (provenance, None);
            }
            listed -= 1;
        }
    }
}

/// The bytes `provenance` takes in an answer (its JSON).
fn size_of(provenance: &Provenance) -> usize {
    serde_json::to_vec(provenance).map_or(0, |v| v.len())
}

impl Group {
    fn source_provenance(&self, name: impl FnMut(&Asked) -> String) -> SourceProvenance {
        let mut releases: Vec<Arc<str>> = Vec::new();
        for (_, at, _, release) in &self.answers {
            if let Some(release) = release.clone().or_else(|| self.release_of.release_at(*at))
                && !releases.contains(&release)
            {
                releases.push(release);
            }
        }
        SourceProvenance {
            database: self.source.name.to_owned(),
            release: (!releases.is_empty()).then(|| releases.join(", ")),
            licence: self.source.licence.map(|l| l.spdx.to_owned()),
            cite: self.source.cite.map(|doi| format!("doi:{doi}")),
            retrieved_at: rfc3339(
                self.answers
                    .iter()
                    .map(|(_, at, ..)| *at)
                    .min()
                    .unwrap_or_else(SystemTime::now),
            ),
            cached: self
                .answers
                .iter()
                .any(|(_, _, origin, _)| *origin != Origin::Upstream),
            offline: self
                .answers
                .iter()
                .any(|(_, _, origin, _)| *origin == Origin::Offline),
            requests: self
                .answers
                .iter()
                .map(|(asked, ..)| asked)
                .map(name)
                .collect(),
            requests_total: None,
        }
    }
}

/// Where a result came from, source by source.
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Provenance {
    /// Every source that contributed to the result, in the order it was first asked; empty
    /// when the answer needed no upstream (a listing the server holds itself).
    pub sources: Vec<SourceProvenance>,
    /// When a request is named briefly or left out (see `requests`), the full record: a
    /// resource (`provenance://…`) to read with `resources/read`, with every request in
    /// full; kept for a day.
    pub full: Option<String>,
}

/// What one source contributed.
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SourceProvenance {
    /// The database, e.g. `Ensembl`, `ChEMBL`, `STRING`, `IGVF Catalog`.
    pub database: String,
    /// The data release its answers were retrieved under, as the source names it (`115`,
    /// `ChEMBL_35`, `12.0`; several, comma-separated, when cached answers of an earlier
    /// release were used); absent when the source does not say or had not said yet.
    pub release: Option<String>,
    /// The terms its data are used under, as an SPDX licence expression (`CC-BY-4.0`), or
    /// `LicenseRef-<name>` for terms on no licence list (the source's own statement,
    /// quoted in this project's `docs/citing.md`); absent when the source states none.
    pub licence: Option<String>,
    /// The paper the database asks its users to cite, as `doi:<DOI>`; absent when it
    /// names none.
    pub cite: Option<String>,
    /// The requests the result was built from, to re-run or cite: a GET as its URL, a POST
    /// as `POST <url> <body>`. One longer than 200 characters is named as `<method> <url>
    /// (body <n> bytes, sha256 <hex>)` (a long query likewise); the full text is in the
    /// record `full` names. Absent when the answer, from many databases, names its
    /// sources only: `full` then names the record with every request.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schemars(default)]
    pub requests: Vec<String>,
    /// How many requests there were, when only the first of them are listed.
    #[schemars(range(min = 1))]
    pub requests_total: Option<usize>,
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
    /// release, licence and citation, its retrieval time, and its requests.
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
                let terms: Vec<String> = [
                    s.licence.clone(),
                    s.cite.as_deref().map(|doi| format!("cite {doi}")),
                ]
                .into_iter()
                .flatten()
                .collect();
                let terms = if terms.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", terms.join("; "))
                };
                let more = s
                    .requests_total
                    .map(|total| format!(" (first {} of {total})", s.requests.len()))
                    .unwrap_or_default();
                let requests = if s.requests.is_empty() {
                    String::new()
                } else {
                    format!(": {}{more}", s.requests.join(" ; "))
                };
                format!(
                    "{}{release}{terms}, retrieved {}{cached}{requests}",
                    s.database, s.retrieved_at,
                )
            })
            .collect();
        let full = self
            .full
            .as_deref()
            .map(|uri| format!(" | full record: {uri}"))
            .unwrap_or_default();
        format!("Provenance: {}{full}", sources.join(" | "))
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
            // The text that mirrors the structured content (rmcp writes it compact, as
            // one text block) gains the same member at its end, without writing the
            // whole answer again.
            let added = serde_json::to_string(&value).unwrap_or_default();
            let was_empty = map.is_empty();
            map.insert("provenance".to_owned(), value);
            if let [block] = result.content.as_mut_slice()
                && let Some(text) = block.as_text()
                && text.text.ends_with('}')
                && text.text.starts_with('{')
            {
                let open = &text.text[..text.text.len() - 1];
                let joined = if was_empty {
                    format!("{open}\"provenance\":{added}}}")
                } else {
                    format!("{open},\"provenance\":{added}}}")
                };
                *block = ContentBlock::text(joined);
            }
        }
        Some(_) => {}
        None => result
            .content
            .push(ContentBlock::text(provenance.as_text())),
    }
}

/// The id of a full record: the first 16 hex digits of the SHA-256 of its JSON.
fn record_id(full: &Provenance) -> String {
    let json = serde_json::to_vec(full).unwrap_or_default();
    sha256(&json)[..16].to_owned()
}

/// `time` as RFC 3339 in UTC, to the millisecond (`2026-11-26T10:40:00.123Z`).
pub(crate) fn rfc3339(time: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(time).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests;
