//! Static tokens, for a lab without an identity provider: a file of named principals,
//! each with the SHA-256 of its token and an optional weight, re-read when it changes.
//!
//! ```text
//! # name     SHA-256 of the token (never the token)                           weight
//! ada        sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae  weight=2
//! grace      sha256:fcde2b2edba56bf408601fb721fe9b5c338d10ee429ea04fae5511b68fbf8fb9
//! ```
//!
//! **Invariant:** a presented token is hashed and its digest compared with every entry's,
//! each comparison taking the same time whatever the bytes, and all of them made whatever
//! matched; the file holds digests only, so reading it gives no one a token.
//!
//! **Invariant:** a file that breaks while the server runs (unreadable, malformed) leaves
//! the last good one in use, with one warning per broken version; one malformed at start
//! stops the server.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

/// The largest file read.
const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// The heaviest weight.
pub(crate) const MAX_WEIGHT: u32 = 1000;
/// How often the file is looked at.
pub(crate) const CHECK_EVERY: Duration = Duration::from_secs(1);

/// A SHA-256 digest.
pub(crate) type Digest = [u8; 32];

/// The SHA-256 of `token`.
pub(crate) fn digest(token: &str) -> Digest {
    let mut out = [0; 32];
    out.copy_from_slice(ring::digest::digest(&ring::digest::SHA256, token.as_bytes()).as_ref());
    out
}

/// The first 8 hexadecimal digits of a digest, for logs.
pub(crate) fn prefix(digest: &Digest) -> String {
    digest[..4].iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether two digests are equal, in a time that does not depend on where they differ.
/// (`ring::constant_time::verify_slices_are_equal` does the same, but ring 0.17.14
/// deprecates it as internal, with no promise about side channels.)
fn same(a: &Digest, b: &Digest) -> bool {
    let difference = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(difference) == 0
}

/// One principal's token.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    name: Arc<str>,
    digest: Digest,
    weight: u32,
}

/// The principals of one version of the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Table {
    entries: Vec<Entry>,
}

impl Table {
    /// Read the file's text: one principal per line, `<name> sha256:<64 hex digits>
    /// [weight=<1–1000>]`; blank lines and `#` comments ignored. A name may have several
    /// tokens (one being replaced), all of one weight.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let mut entries: Vec<Entry> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let at = |problem: String| format!("line {}: {problem}", n + 1);
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (name, hash, weight) = match fields.as_slice() {
                [name, hash] => (*name, *hash, None),
                [name, hash, weight] => (*name, *hash, Some(*weight)),
                _ => {
                    return Err(at(
                        "expected `<name> sha256:<SHA-256 of the token in hex> [weight=N]`"
                            .to_owned(),
                    ));
                }
            };
            if name.len() > 64
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._@+-".contains(c))
            {
                return Err(at(format!(
                    "the name {name:?} must be 1 to 64 letters, digits or . _ @ + -"
                )));
            }
            if name == "anonymous" {
                return Err(at(
                    "`anonymous` is the name of every caller without a credential; choose another"
                        .to_owned(),
                ));
            }
            let digest = hash
                .strip_prefix("sha256:")
                .and_then(hex_digest)
                .ok_or_else(|| {
                    // Not a word of what is there: it may be a token pasted by mistake.
                    at(
                        "the second field must be `sha256:` and the 64 hexadecimal digits of \
                        the token's SHA-256 (`printf %s \"$TOKEN\" | sha256sum`), never the \
                        token itself"
                            .to_owned(),
                    )
                })?;
            let weight = match weight {
                None => 1,
                Some(raw) => raw
                    .strip_prefix("weight=")
                    .and_then(|w| w.parse::<u32>().ok())
                    .filter(|w| (1..=MAX_WEIGHT).contains(w))
                    .ok_or_else(|| {
                        at(format!(
                            "{raw:?} is not `weight=N` with N from 1 to {MAX_WEIGHT}"
                        ))
                    })?,
            };
            if entries.iter().any(|e| e.digest == digest) {
                return Err(at("this token's digest is listed twice".to_owned()));
            }
            if let Some(other) = entries.iter().find(|e| &*e.name == name)
                && other.weight != weight
            {
                return Err(at(format!(
                    "{name} has another token of weight {}; one principal has one weight",
                    other.weight
                )));
            }
            entries.push(Entry {
                name: Arc::from(name),
                digest,
                weight,
            });
        }
        Ok(Self { entries })
    }

    /// The principal whose token has `digest`, by name and weight. Every entry is
    /// compared, in constant time each, whichever matches.
    pub(crate) fn find(&self, digest: &Digest) -> Option<(Arc<str>, u32)> {
        let mut found = None;
        for entry in &self.entries {
            if same(&entry.digest, digest) {
                found = Some((Arc::clone(&entry.name), entry.weight));
            }
        }
        found
    }

    /// How many tokens it lists.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}

fn hex_digest(hex: &str) -> Option<Digest> {
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// The file and the table last read well from it.
#[derive(Debug)]
pub(crate) struct StaticTokens {
    path: PathBuf,
    table: RwLock<Arc<Table>>,
    /// The file's contents last seen, read well or not (a digest of them).
    seen: std::sync::Mutex<Digest>,
}

impl StaticTokens {
    /// Read the file at `path`; any problem is an error naming it.
    pub(crate) fn open(path: &Path) -> Result<Self, String> {
        let bytes = read(path)?;
        let table = parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        if table.len() == 0 {
            tracing::warn!(
                file = %path.display(),
                "the static tokens file lists no token: no one is let in with one"
            );
        }
        Ok(Self {
            path: path.to_owned(),
            table: RwLock::new(Arc::new(table)),
            seen: std::sync::Mutex::new(digest_bytes(&bytes)),
        })
    }

    /// The principal whose token has `digest`.
    pub(crate) fn find(&self, digest: &Digest) -> Option<(Arc<str>, u32)> {
        self.table
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .find(digest)
    }

    /// Read the file again if it changed: a good version replaces the table, a broken one
    /// is warned about once and the table kept.
    #[cfg(test)]
    fn reread(&self) {
        self.take(read(&self.path));
    }

    /// The file as just read: a new good version replaces the table, a new broken one is
    /// warned about once and the table kept.
    fn take(&self, bytes: Result<Vec<u8>, String>) {
        let seen = bytes.as_ref().map_or([0; 32], |b| digest_bytes(b));
        {
            let mut last = self
                .seen
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if *last == seen {
                return;
            }
            *last = seen;
        }
        match bytes.and_then(|b| parse(&b)) {
            Ok(table) => {
                tracing::info!(
                    file = %self.path.display(),
                    tokens = table.len(),
                    "static tokens file re-read"
                );
                *self
                    .table
                    .write()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(table);
            }
            Err(e) => tracing::warn!(
                file = %self.path.display(),
                error = %e,
                "the static tokens file cannot be used: the last good version stays in use"
            ),
        }
    }

    /// Look at the file every [`CHECK_EVERY`] until `stop`.
    pub(crate) async fn watch(self: Arc<Self>, stop: CancellationToken) {
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                () = tokio::time::sleep(CHECK_EVERY) => {}
            }
            self.take(read_async(&self.path).await);
        }
    }
}

fn digest_bytes(bytes: &[u8]) -> Digest {
    let mut out = [0; 32];
    out.copy_from_slice(ring::digest::digest(&ring::digest::SHA256, bytes).as_ref());
    out
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(format!(
            "{} is larger than {} bytes",
            path.display(),
            MAX_FILE_BYTES
        ));
    }
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// [`read`] on a thread of the blocking pool.
async fn read_async(path: &Path) -> Result<Vec<u8>, String> {
    let path = path.to_owned();
    tokio::task::spawn_blocking(move || read(&path))
        .await
        .unwrap_or_else(|e| Err(format!("the file could not be read: {e}")))
}

fn parse(bytes: &[u8]) -> Result<Table, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "the file is not UTF-8 text".to_owned())?;
    Table::parse(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(name: &str, token: &str, weight: &str) -> String {
        let hex: String = digest(token).iter().map(|b| format!("{b:02x}")).collect();
        format!("{name} sha256:{hex} {weight}\n")
    }

    #[test]
    fn a_token_finds_its_principal_and_weight() {
        let text = format!(
            "# the lab\n\n{}{}{}",
            line("ada", "tok-ada", "weight=2"),
            line("grace", "tok-grace", ""),
            line("ada", "tok-ada-new", "weight=2  # being replaced"),
        );
        let table = Table::parse(&text).unwrap();
        assert_eq!(table.len(), 3);
        let found = |token: &str| table.find(&digest(token)).map(|(n, w)| (n.to_string(), w));
        assert_eq!(found("tok-ada"), Some(("ada".to_owned(), 2)));
        assert_eq!(found("tok-ada-new"), Some(("ada".to_owned(), 2)));
        assert_eq!(found("tok-grace"), Some(("grace".to_owned(), 1)));
        assert_eq!(found("tok-ad"), None);
        assert_eq!(found(""), None);
    }

    #[test]
    fn a_malformed_file_is_refused_with_its_line() {
        let ada = line("ada", "t", "");
        for (text, says) in [
            ("ada".to_owned(), "line 1: expected"),
            ("ada sha256:abc".to_owned(), "never the token itself"),
            // A token pasted where its digest belongs is refused, and not repeated.
            (
                "ada s3cr3t-token-value-abcdef".to_owned(),
                "never the token itself",
            ),
            (line("ada", "t", "weight=0"), "weight=N"),
            (line("ada", "t", "weight=heavy"), "weight=N"),
            (
                format!("{ada}{}", line("bob", "t", "")),
                "line 2: this token's digest is listed twice",
            ),
            (
                format!("{ada}{}", line("ada", "u", "weight=3")),
                "one principal has one weight",
            ),
            (line("anonymous", "t", ""), "`anonymous`"),
            (line("a b", "t", ""), "line 1: the second field"),
            (line("ada/", "t", ""), "letters, digits"),
        ] {
            let refused = Table::parse(&text).unwrap_err();
            assert!(refused.contains(says), "{text:?}: {refused}");
            assert!(!refused.contains("s3cr3t"), "{refused}");
        }
    }

    #[test]
    fn a_file_that_breaks_keeps_the_last_good_version() {
        let folder = crate::testing::TempFolder::new("tokens").unwrap();
        let path = folder.path().join("tokens");
        std::fs::write(&path, line("ada", "one", "")).unwrap();
        let tokens = StaticTokens::open(&path).unwrap();
        assert!(tokens.find(&digest("one")).is_some());

        std::fs::write(
            &path,
            format!("{}{}", line("ada", "one", ""), line("bob", "two", "")),
        )
        .unwrap();
        tokens.reread();
        assert!(tokens.find(&digest("two")).is_some(), "a change is read");

        std::fs::write(&path, "bob not-a-digest\n").unwrap();
        tokens.reread();
        assert!(
            tokens.find(&digest("two")).is_some(),
            "the last good version stays"
        );
        std::fs::remove_file(&path).unwrap();
        tokens.reread();
        assert!(tokens.find(&digest("one")).is_some(), "a file gone too");

        std::fs::write(&path, line("cy", "three", "")).unwrap();
        tokens.reread();
        assert!(tokens.find(&digest("three")).is_some());
        assert!(
            tokens.find(&digest("one")).is_none(),
            "a token taken out is out"
        );

        std::fs::write(&path, "bad").unwrap();
        let at_start = StaticTokens::open(&path).unwrap_err();
        assert!(at_start.contains("tokens: line 1"), "{at_start}");
    }

    #[test]
    fn a_digest_prefix_is_eight_hex_digits() {
        assert_eq!(prefix(&digest("test")), "9f86d081");
    }
}
