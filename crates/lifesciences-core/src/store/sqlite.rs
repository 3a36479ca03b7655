//! The embedded store: one SQLite file in WAL mode, shared by every process of a user.
//!
//! SQLite locks the file for each write transaction and WAL lets readers go on meanwhile,
//! so any number of processes may open it at once (each its own connection); a busy file
//! is waited for (`busy_timeout`), never an error on the first try. Every budget step is
//! one `BEGIN IMMEDIATE` transaction, so two processes can never both take the last
//! permit of a window. The clock is the machine's (every process shares it).
//!
//! Calls are blocking, so each runs on tokio's blocking pool; one connection per process,
//! behind a mutex, is enough (an operation takes tens of microseconds).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use rusqlite::{Connection, OptionalExtension as _, TransactionBehavior, params};

use super::{
    Backend, Members, Permit, Rule, StoreError, StoreFuture, Stored, epoch_ms, from_epoch_ms,
};

/// How long a process waits for another's write transaction before an operation fails.
const BUSY_TIMEOUT: Duration = Duration::from_millis(400);
/// The store is trimmed (stale entries beyond what offline use needs, then the oldest
/// entries over the size cap) once every this many writes.
const TRIM_EVERY: u64 = 64;
/// Entries older than this are dropped even below the size cap.
const KEEP_AT_MOST: Duration = Duration::from_secs(30 * 24 * 3600);

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    body BLOB NOT NULL,
    retrieved_ms INTEGER NOT NULL,
    fresh_until_ms INTEGER NOT NULL,
    size INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS answers_by_age ON answers (retrieved_ms);
CREATE TABLE IF NOT EXISTS permits (
    host TEXT NOT NULL,
    ticket TEXT NOT NULL,
    counts_until_ms INTEGER NOT NULL,
    PRIMARY KEY (host, ticket)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pauses (
    host TEXT PRIMARY KEY,
    until_ms INTEGER NOT NULL,
    status INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS locks (
    key TEXT PRIMARY KEY,
    until_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS members (
    member TEXT PRIMARY KEY,
    seen_until_ms INTEGER NOT NULL
) WITHOUT ROWID;
";

/// Columns added to `answers` since its first layout: added to a file that lacks them, and
/// left empty by an older version that shares the file (it neither reads nor writes them).
const ADDED_COLUMNS: &[(&str, &str)] = &[("release", "TEXT"), ("meta", "TEXT")];

pub(crate) struct SqliteBackend {
    path: PathBuf,
    connection: Arc<Mutex<Connection>>,
    max_bytes: u64,
    writes: std::sync::atomic::AtomicU64,
}

impl SqliteBackend {
    /// Open (or create) the store file at `path`, creating its folder. Fails when the
    /// folder or the file cannot be used, or the file is not a store.
    pub(crate) fn open(path: &Path, max_bytes: u64) -> Result<Self, StoreError> {
        let fail = |what: &str, e: &dyn std::fmt::Display| {
            StoreError(format!("{what} {}: {e}", path.display()))
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| fail("cannot create the folder of", &e))?;
        }
        let connection = Connection::open(path).map_err(|e| fail("cannot open", &e))?;
        connection
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| fail("cannot set up", &e))?;
        // WAL: readers never wait for a writer, and a commit costs no fsync of the main
        // file; `NORMAL` syncs at checkpoints only (a power cut may lose the last answers,
        // never corrupt the file).
        let mode: String = connection
            .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
            .map_err(|e| fail("cannot read", &e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(fail("cannot use write-ahead logging for", &mode));
        }
        connection
            .execute_batch("PRAGMA synchronous = NORMAL;")
            .and_then(|()| connection.execute_batch(SCHEMA))
            .and_then(|()| add_columns(&connection))
            .map_err(|e| fail("cannot set up", &e))?;
        Ok(Self {
            path: path.to_owned(),
            connection: Arc::new(Mutex::new(connection)),
            max_bytes,
            writes: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// Run `work` with the connection on the blocking pool.
    fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> StoreFuture<'_, T> {
        let connection = Arc::clone(&self.connection);
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let mut connection = connection.lock().unwrap_or_else(PoisonError::into_inner);
                work(&mut connection)
            })
            .await
            .map_err(|e| StoreError(format!("the store task failed: {e}")))?
            .map_err(|e| StoreError(e.to_string()))
        })
    }
}

/// Add the [`ADDED_COLUMNS`] a file does not have yet. Two processes may both try; the
/// loser's "duplicate column" is no failure.
fn add_columns(connection: &Connection) -> rusqlite::Result<()> {
    let mut have = Vec::new();
    {
        let mut columns = connection.prepare("PRAGMA table_info(answers)")?;
        let mut rows = columns.query([])?;
        while let Some(row) = rows.next()? {
            have.push(row.get::<_, String>(1)?);
        }
    }
    for (name, kind) in ADDED_COLUMNS {
        if have.iter().any(|c| c == name) {
            continue;
        }
        match connection.execute_batch(&format!("ALTER TABLE answers ADD COLUMN {name} {kind}")) {
            Err(e) if e.to_string().contains("duplicate column") => {}
            other => other?,
        }
    }
    Ok(())
}

fn now_ms() -> i64 {
    epoch_ms(SystemTime::now())
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Backend for SqliteBackend {
    fn kind(&self) -> &'static str {
        "sqlite"
    }

    fn location(&self) -> String {
        self.path.display().to_string()
    }

    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<Stored>> {
        let key = key.to_owned();
        self.blocking(move |c| {
            c.prepare_cached(
                "SELECT body, retrieved_ms, fresh_until_ms, release, meta FROM answers \
                 WHERE key = ?1",
            )?
            .query_row(params![key], |row| {
                Ok(Stored {
                    body: bytes::Bytes::from(row.get::<_, Vec<u8>>(0)?),
                    retrieved_at: from_epoch_ms(row.get(1)?),
                    fresh_until: from_epoch_ms(row.get(2)?),
                    release: row.get(3)?,
                    meta: row.get(4)?,
                })
            })
            .optional()
        })
    }

    fn put<'a>(&'a self, key: &'a str, stored: &'a Stored) -> StoreFuture<'a, ()> {
        let key = key.to_owned();
        let body = stored.body.clone();
        let retrieved = epoch_ms(stored.retrieved_at);
        let fresh_until = epoch_ms(stored.fresh_until);
        let (release, meta) = (stored.release.clone(), stored.meta.clone());
        let trim = self
            .writes
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            .is_multiple_of(TRIM_EVERY);
        let max_bytes = i64::try_from(self.max_bytes).unwrap_or(i64::MAX);
        self.blocking(move |c| {
            let extra =
                release.as_ref().map_or(0, String::len) + meta.as_ref().map_or(0, String::len);
            let size = i64::try_from(key.len() + body.len() + extra).unwrap_or(i64::MAX);
            c.prepare_cached(
                "INSERT OR REPLACE INTO answers \
                 (key, body, retrieved_ms, fresh_until_ms, size, release, meta) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                key,
                body.as_ref(),
                retrieved,
                fresh_until,
                size,
                release,
                meta
            ])?;
            if trim {
                trim_answers(c, max_bytes)?;
            }
            Ok(())
        })
    }

    fn forget<'a>(&'a self, key: &'a str) -> StoreFuture<'a, ()> {
        let key = key.to_owned();
        self.blocking(move |c| {
            c.prepare_cached("DELETE FROM answers WHERE key = ?1")?
                .execute(params![key])?;
            Ok(())
        })
    }

    fn permit<'a>(&'a self, host: &'a str, rule: Rule) -> StoreFuture<'a, Permit> {
        let host = host.to_owned();
        self.blocking(move |c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let now = now_ms();
            let paused: Option<(i64, u16)> = tx
                .prepare_cached("SELECT until_ms, status FROM pauses WHERE host = ?1")?
                .query_row(params![host], |row| Ok((row.get(0)?, row.get(1)?)))
                .optional()?;
            if let Some((until, status)) = paused.filter(|(until, _)| *until > now) {
                return Ok(Permit::Paused {
                    left: Duration::from_millis(u64::try_from(until - now).unwrap_or(0)),
                    status,
                });
            }
            let window = ms(rule.window);
            tx.prepare_cached("DELETE FROM permits WHERE host = ?1 AND counts_until_ms <= ?2")?
                .execute(params![host, now - window])?;
            let (count, oldest): (i64, Option<i64>) = tx
                .prepare_cached(
                    "SELECT COUNT(*), MIN(counts_until_ms) FROM permits WHERE host = ?1",
                )?
                .query_row(params![host], |row| Ok((row.get(0)?, row.get(1)?)))?;
            if count < i64::from(rule.allowed) {
                let ticket = format!("{:016x}", fastrand::u64(..));
                tx.prepare_cached(
                    "INSERT INTO permits (host, ticket, counts_until_ms) VALUES (?1, ?2, ?3)",
                )?
                .execute(params![host, ticket, now + ms(rule.hold)])?;
                tx.commit()?;
                return Ok(Permit::Granted { ticket });
            }
            tx.commit()?;
            let free_at = oldest.unwrap_or(now) + window;
            Ok(Permit::Wait(Duration::from_millis(
                u64::try_from(free_at - now).unwrap_or(0).max(1),
            )))
        })
    }

    fn answered<'a>(&'a self, host: &'a str, ticket: &'a str) -> StoreFuture<'a, ()> {
        let (host, ticket) = (host.to_owned(), ticket.to_owned());
        self.blocking(move |c| {
            c.prepare_cached(
                "UPDATE permits SET counts_until_ms = MIN(counts_until_ms, ?3) \
                 WHERE host = ?1 AND ticket = ?2",
            )?
            .execute(params![host, ticket, now_ms()])?;
            Ok(())
        })
    }

    fn pause<'a>(&'a self, host: &'a str, wait: Duration, status: u16) -> StoreFuture<'a, ()> {
        let host = host.to_owned();
        self.blocking(move |c| {
            c.prepare_cached(
                "INSERT INTO pauses (host, until_ms, status) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (host) DO UPDATE SET until_ms = excluded.until_ms, \
                 status = excluded.status WHERE excluded.until_ms > pauses.until_ms",
            )?
            .execute(params![host, now_ms() + ms(wait), status])?;
            Ok(())
        })
    }

    fn lock<'a>(&'a self, key: &'a str, hold: Duration) -> StoreFuture<'a, bool> {
        let key = key.to_owned();
        self.blocking(move |c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let now = now_ms();
            tx.prepare_cached("DELETE FROM locks WHERE key = ?1 AND until_ms <= ?2")?
                .execute(params![key, now])?;
            let taken = tx
                .prepare_cached("INSERT OR IGNORE INTO locks (key, until_ms) VALUES (?1, ?2)")?
                .execute(params![key, now + ms(hold)])?
                == 1;
            tx.commit()?;
            Ok(taken)
        })
    }

    fn unlock<'a>(&'a self, key: &'a str) -> StoreFuture<'a, ()> {
        let key = key.to_owned();
        self.blocking(move |c| {
            c.prepare_cached("DELETE FROM locks WHERE key = ?1")?
                .execute(params![key])?;
            Ok(())
        })
    }

    fn heartbeat<'a>(&'a self, member: &'a str, alive_for: Duration) -> StoreFuture<'a, Members> {
        let member = member.to_owned();
        self.blocking(move |c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let now = now_ms();
            tx.prepare_cached(
                "INSERT OR REPLACE INTO members (member, seen_until_ms) VALUES (?1, ?2)",
            )?
            .execute(params![member, now + ms(alive_for)])?;
            tx.prepare_cached("DELETE FROM members WHERE seen_until_ms <= ?1")?
                .execute(params![now])?;
            let (alive, rank): (i64, i64) = tx
                .prepare_cached(
                    "SELECT COUNT(*), COUNT(CASE WHEN member < ?1 THEN 1 END) FROM members",
                )?
                .query_row(params![member], |row| Ok((row.get(0)?, row.get(1)?)))?;
            tx.commit()?;
            Ok(Members {
                alive: usize::try_from(alive).unwrap_or(1),
                rank: usize::try_from(rank).unwrap_or(0),
            })
        })
    }
}

/// Drop entries older than [`KEEP_AT_MOST`], then the oldest ones while the store holds
/// more than `max_bytes` of answers.
fn trim_answers(c: &mut Connection, max_bytes: i64) -> rusqlite::Result<()> {
    let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.prepare_cached("DELETE FROM answers WHERE retrieved_ms < ?1")?
        .execute(params![now_ms() - ms(KEEP_AT_MOST)])?;
    let total: i64 = tx
        .prepare_cached("SELECT COALESCE(SUM(size), 0) FROM answers")?
        .query_row([], |row| row.get(0))?;
    if total > max_bytes {
        // Oldest first, until a tenth under the cap, so the next writes do not trim again.
        let target = max_bytes - max_bytes / 10;
        let mut over = total - target;
        let mut doomed = Vec::new();
        {
            let mut oldest =
                tx.prepare_cached("SELECT key, size FROM answers ORDER BY retrieved_ms")?;
            let mut rows = oldest.query([])?;
            while over > 0
                && let Some(row) = rows.next()?
            {
                doomed.push(row.get::<_, String>(0)?);
                over -= row.get::<_, i64>(1)?;
            }
        }
        let mut delete = tx.prepare_cached("DELETE FROM answers WHERE key = ?1")?;
        for key in doomed {
            delete.execute(params![key])?;
        }
    }
    tx.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(dir: &Path) -> SqliteBackend {
        SqliteBackend::open(&dir.join("store.sqlite3"), 1_000_000).unwrap()
    }

    /// A fresh folder, removed with the test.
    fn temp_dir(name: &str) -> crate::testing::TempFolder {
        crate::testing::TempFolder::new(&format!("store-{name}")).unwrap()
    }

    #[tokio::test]
    async fn two_connections_to_one_file_share_one_store() {
        let dir = temp_dir("conformance");
        let (a, b) = (open(dir.path()), open(dir.path()));
        crate::store::conformance::conformance(&a, &b).await;
    }

    #[tokio::test]
    async fn the_oldest_answers_go_when_the_store_is_over_its_size() {
        let dir = temp_dir("trim");
        let store = SqliteBackend::open(&dir.path().join("s.sqlite3"), 2_500).unwrap();
        for i in 0..(TRIM_EVERY + 1) {
            let stored = Stored {
                body: bytes::Bytes::from(vec![b'x'; 100]),
                retrieved_at: SystemTime::now() - Duration::from_secs(1000 - i),
                fresh_until: SystemTime::now(),
                release: None,
                meta: None,
            };
            store.put(&format!("k{i:03}"), &stored).await.unwrap();
        }
        assert_eq!(store.get("k000").await.unwrap(), None, "the oldest went");
        assert!(
            store
                .get(&format!("k{TRIM_EVERY:03}"))
                .await
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn a_file_that_is_not_a_store_is_refused() {
        let dir = temp_dir("broken");
        let path = dir.path().join("store.sqlite3");
        std::fs::write(
            &path,
            b"this is not a database, just some text of some length....",
        )
        .unwrap();
        assert!(SqliteBackend::open(&path, 1_000).is_err());
    }
}
