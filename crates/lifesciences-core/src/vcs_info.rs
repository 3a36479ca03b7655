//! Reading a git revision as core's build script finds it (the script includes this
//! file; the library compiles it only for its tests).

/// The value of `"sha1"` in a `.cargo_vcs_info.json` (`{"git": {"sha1": "…"}, …}`),
/// lower case, read without a JSON parser: a build script's dependencies would be built
/// before everything else.
pub(crate) fn sha1_of(text: &str) -> Option<String> {
    let key = "\"sha1\"";
    let after_key = &text[text.find(key)? + key.len()..];
    let value = after_key.trim_start().strip_prefix(':')?.trim_start();
    let value = value.strip_prefix('"')?;
    Some(value[..value.find('"')?].to_ascii_lowercase())
}

/// Whether `text` is a git revision: 7 to 40 hexadecimal digits.
pub(crate) fn is_revision(text: &str) -> bool {
    (7..=40).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_revision_is_read_from_what_cargo_publish_writes() {
        let written = r#"{
  "git": {
    "sha1": "77516EE0AB12c1f5d7e0c4b2a9f3e8d6c5b4a3f2",
    "dirty": true
  },
  "path_in_vcs": "crates/lifesciences-core"
}"#;
        let sha1 = sha1_of(written).unwrap();
        assert_eq!(sha1, "77516ee0ab12c1f5d7e0c4b2a9f3e8d6c5b4a3f2");
        assert!(is_revision(&sha1));
        assert_eq!(sha1_of(r#"{"path_in_vcs": ""}"#), None);
        assert_eq!(sha1_of(r#"{"git": {"sha1": 12}}"#), None);
    }

    #[test]
    fn a_revision_is_seven_to_forty_hex_digits() {
        assert!(is_revision("77516ee"));
        assert!(!is_revision("77516e"));
        assert!(!is_revision("main"));
        assert!(!is_revision(&"a".repeat(41)));
    }
}
