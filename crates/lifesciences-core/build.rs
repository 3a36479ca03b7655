//! Bakes into core the git revision a build comes from, for `--version` and `/health`:
//! `LIFESCIENCES_GIT_REVISION` when the build sets it (release builds: `cargo xtask dist`
//! and the release workflow), else the `git.sha1` of `.cargo_vcs_info.json`, which
//! `cargo publish` writes at the root of every package (a build from crates.io). A
//! development build has neither and says "unknown".
//!
//! It never looks at `.git`: a script that reran on every commit would rebuild core, and
//! with it every crate of the workspace. It reruns only when this file, the variable or
//! (in a published package, where it never changes) `.cargo_vcs_info.json` changes.
use std::path::Path;

#[path = "src/vcs_info.rs"]
mod vcs_info;

use vcs_info::{is_revision, sha1_of};

/// The variable a release build sets to the commit it builds.
const REVISION_VAR: &str = "LIFESCIENCES_GIT_REVISION";

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed={REVISION_VAR}");
    let vcs_info = Path::new(".cargo_vcs_info.json");
    let from_package = if vcs_info.exists() {
        println!("cargo::rerun-if-changed=.cargo_vcs_info.json");
        std::fs::read_to_string(vcs_info)
            .ok()
            .and_then(|text| sha1_of(&text))
    } else {
        None
    };
    let given = std::env::var(REVISION_VAR)
        .ok()
        .map(|r| r.trim().to_ascii_lowercase())
        .filter(|r| !r.is_empty());
    match given.or(from_package) {
        Some(revision) if is_revision(&revision) => {
            println!("cargo::rustc-env=LIFESCIENCES_BUILD_REVISION={revision}");
        }
        Some(other) => println!(
            "cargo::warning={REVISION_VAR}={other:?} is not a git revision (7 to 40 hexadecimal digits): the build says its revision is unknown"
        ),
        None => {}
    }
}
