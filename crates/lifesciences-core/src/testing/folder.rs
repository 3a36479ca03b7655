//! A fresh folder for one test (a store file, a Redis socket), removed when dropped.

use std::path::{Path, PathBuf};

/// A new empty folder under the system's temporary folder, named after `purpose`, this
/// process and a random number, so tests running at once never share one.
#[derive(Debug)]
pub struct TempFolder(PathBuf);

impl TempFolder {
    /// Create it.
    pub fn new(purpose: &str) -> std::io::Result<Self> {
        let dir = std::env::temp_dir().join(format!(
            "lifesciences-{purpose}-{}-{:016x}",
            std::process::id(),
            fastrand::u64(..)
        ));
        std::fs::create_dir_all(&dir)?;
        Ok(Self(dir))
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
