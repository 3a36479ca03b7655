//! Fixture files: trimmed real responses under `<crate>/tests/fixtures/`, whose README
//! gives each file's provenance.

use std::path::PathBuf;

use serde_json::Value;

/// Fixture files of a crate, under `<crate>/tests/fixtures/`.
///
/// ```ignore
/// let fixtures = Fixtures::of(env!("CARGO_MANIFEST_DIR"));
/// let body = fixtures.text("get_string_ids__TP53.json");
/// ```
#[derive(Debug, Clone)]
pub struct Fixtures {
    dir: PathBuf,
}

impl Fixtures {
    /// The fixtures of the crate whose manifest directory is `manifest_dir`.
    pub fn of(manifest_dir: &str) -> Self {
        Self {
            dir: PathBuf::from(manifest_dir).join("tests").join("fixtures"),
        }
    }

    /// The fixtures of the crate under test: `cargo test` runs a test binary with
    /// `CARGO_MANIFEST_DIR` set to its crate.
    pub fn here() -> Self {
        let dir = std::env::var("CARGO_MANIFEST_DIR")
            .expect("CARGO_MANIFEST_DIR is set by cargo when it runs tests");
        Self::of(&dir)
    }

    /// A fixture's text.
    pub fn text(&self, name: &str) -> String {
        let path = self.dir.join(name);
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()))
    }

    /// A fixture's bytes (an image, say).
    pub fn bytes(&self, name: &str) -> Vec<u8> {
        let path = self.dir.join(name);
        std::fs::read(&path)
            .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()))
    }

    /// A fixture parsed as JSON.
    pub fn json(&self, name: &str) -> Value {
        serde_json::from_str(&self.text(name))
            .unwrap_or_else(|e| panic!("fixture {name} is not JSON: {e}"))
    }
}

/// A fixture of the crate under test as the upstream's 200 JSON answer.
pub fn fixture(name: &str) -> wiremock::ResponseTemplate {
    wiremock::ResponseTemplate::new(200)
        .insert_header("content-type", "application/json")
        .set_body_string(Fixtures::here().text(name))
}
