//! Which build a binary is: its version and the git revision it was built from, as
//! `--version`, `check` and `/health` report them.
//!
//! The revision is baked in by core's build script (see `build.rs`): the
//! `LIFESCIENCES_GIT_REVISION` a release build sets, or the `.cargo_vcs_info.json` of a
//! package built from crates.io. A development build does not know it.

/// The variable a release build sets to the commit it builds (read at build time only).
pub const REVISION_VAR: &str = "LIFESCIENCES_GIT_REVISION";

/// The full git revision this build comes from, when the build knew it.
pub const GIT_REVISION: Option<&str> = option_env!("LIFESCIENCES_BUILD_REVISION");

/// The revision as reported: the commit's hash as the build got it, or `unknown`.
pub fn revision() -> &'static str {
    GIT_REVISION.unwrap_or("unknown")
}

/// `name version (rev 77516ee0ab12)`: the first 12 digits of the revision, or
/// `(rev unknown)` for a development build.
pub fn version_line(name: &str, version: &str) -> String {
    format_version_line(name, version, GIT_REVISION)
}

fn format_version_line(name: &str, version: &str, revision: Option<&str>) -> String {
    let short = revision.map_or("unknown", |r| r.get(..12).unwrap_or(r));
    format!("{name} {version} (rev {short})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_line_names_twelve_digits_of_the_revision_or_says_unknown() {
        assert_eq!(
            format_version_line(
                "lifesciences-mcp",
                "0.1.0",
                Some("77516ee0ab12c1f5d7e0c4b2a9f3e8d6c5b4a3f2")
            ),
            "lifesciences-mcp 0.1.0 (rev 77516ee0ab12)"
        );
        assert_eq!(
            format_version_line("string-mcp", "0.2.0", Some("77516ee")),
            "string-mcp 0.2.0 (rev 77516ee)"
        );
        assert_eq!(
            format_version_line("string-mcp", "0.2.0", None),
            "string-mcp 0.2.0 (rev unknown)"
        );
    }

    #[test]
    fn this_build_reports_what_its_build_script_found() {
        // A release build sets the variable; a test build normally does not.
        let published =
            std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.cargo_vcs_info.json"))
                .exists();
        match option_env!("LIFESCIENCES_GIT_REVISION") {
            Some(given) => assert_eq!(revision(), given.trim().to_ascii_lowercase()),
            None if published => assert_ne!(revision(), "unknown"),
            None => assert_eq!(revision(), "unknown"),
        }
        assert!(version_line("x", "1").starts_with("x 1 (rev "));
    }
}
