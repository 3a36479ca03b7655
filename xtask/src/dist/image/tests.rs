//! The image's two builds agree: the Dockerfile at the repository's root (what `docker
//! build .` and Docker's MCP catalog build) declares the configuration, build.sh (what the
//! release publishes, with buildah) applies what it reads from it, and the image smoke test
//! of `cargo xtask dist` expects the same user, entrypoint and command; both stage the
//! image's files with rootfs.sh, at the path the entrypoint names.

use std::collections::BTreeMap;
use std::process::Command;

use super::{CMD, ENTRYPOINT, USER};

/// The final stage of the Dockerfile: each instruction's arguments, in order.
fn final_stage() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(crate::workspace_root().join("Dockerfile")).unwrap();
    let mut stages: Vec<Vec<(String, String)>> = Vec::new();
    let mut pending = String::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        // A line ending in a backslash goes on.
        if let Some(open) = line.strip_suffix('\\') {
            pending.push_str(open);
            pending.push(' ');
            continue;
        }
        pending.push_str(line);
        let whole = std::mem::take(&mut pending);
        let (name, args) = whole.split_once(' ').unwrap();
        if name == "FROM" {
            stages.push(Vec::new());
        }
        if let Some(stage) = stages.last_mut() {
            stage.push((name.to_owned(), args.trim().to_owned()));
        }
    }
    stages.pop().unwrap()
}

/// The one argument of the final stage's `name` instruction.
fn one(stage: &[(String, String)], name: &str) -> String {
    let found: Vec<&String> = stage
        .iter()
        .filter(|(n, _)| n == name)
        .map(|(_, a)| a)
        .collect();
    assert_eq!(found.len(), 1, "{name}: {found:?}");
    found[0].clone()
}

/// The final stage's labels, `key` → value.
fn labels(stage: &[(String, String)]) -> BTreeMap<String, String> {
    stage
        .iter()
        .filter(|(n, _)| n == "LABEL")
        .map(|(_, a)| {
            let (key, value) = a.split_once('=').unwrap();
            let value = value.strip_prefix('"').unwrap().strip_suffix('"').unwrap();
            (key.to_owned(), value.to_owned())
        })
        .collect()
}

/// What build.sh says it applies, read from the Dockerfile by packaging/image/config.sh.
fn build_sh_config() -> BTreeMap<String, String> {
    let script = crate::workspace_root().join("packaging/image/build.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg("--print-config")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let (k, v) = line.split_once('=').unwrap();
            (k.to_owned(), v.to_owned())
        })
        .collect()
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn the_dockerfile_declares_the_image_the_smoke_test_expects() {
    let stage = final_stage();
    assert_eq!(one(&stage, "FROM"), "scratch");
    assert_eq!(one(&stage, "USER"), USER, "non-root");
    assert_eq!(
        json(&one(&stage, "ENTRYPOINT")),
        serde_json::json!([ENTRYPOINT])
    );
    assert_eq!(json(&one(&stage, "CMD")), serde_json::json!(CMD));
    assert_eq!(one(&stage, "EXPOSE"), "8000/tcp", "the port CMD serves on");
    assert_eq!(one(&stage, "STOPSIGNAL"), "SIGTERM");
    let labels = labels(&stage);
    assert_eq!(
        labels["io.modelcontextprotocol.server.name"],
        crate::bundle::REGISTRY_NAME,
        "the MCP registry's ownership label names the server server.json lists"
    );
    // The gateway's package: its name, description, licence and repository.
    let manifest =
        std::fs::read_to_string(crate::workspace_root().join("crates/lifesciences-mcp/Cargo.toml"))
            .unwrap();
    let description = manifest
        .lines()
        .find_map(|l| l.strip_prefix("description = \""))
        .and_then(|d| d.strip_suffix('"'))
        .unwrap();
    assert_eq!(labels["org.opencontainers.image.title"], "lifesciences-mcp");
    assert_eq!(labels["org.opencontainers.image.description"], description);
    assert_eq!(
        labels["org.opencontainers.image.licenses"],
        env!("CARGO_PKG_LICENSE")
    );
    let workspace = std::fs::read_to_string(crate::workspace_root().join("Cargo.toml")).unwrap();
    let repository = workspace
        .lines()
        .find_map(|l| l.strip_prefix("repository = \""))
        .and_then(|r| r.strip_suffix('"'))
        .unwrap();
    assert_eq!(labels["org.opencontainers.image.source"], repository);
    // The CA certificates and the rest come from rootfs.sh, in the build stage, built
    // from the official Rust image with the workspace's release profile.
    let text = std::fs::read_to_string(crate::workspace_root().join("Dockerfile")).unwrap();
    assert!(
        text.contains("ARG RUST_IMAGE=rust:"),
        "the official Rust image"
    );
    assert!(
        text.contains("cargo build --release --locked -p lifesciences-mcp --bin lifesciences-mcp")
    );
    assert!(text.contains("packaging/image/rootfs.sh target/release/lifesciences-mcp /rootfs"));
    assert!(
        stage
            .iter()
            .any(|(n, a)| n == "COPY" && a == "--from=build /rootfs/ /")
    );
}

#[test]
fn build_sh_applies_what_the_dockerfile_declares() {
    let stage = final_stage();
    let applied = build_sh_config();
    assert_eq!(applied["user"], one(&stage, "USER"));
    assert_eq!(applied["workdir"], one(&stage, "WORKDIR"));
    assert_eq!(
        format!("PATH={}", applied["path"]),
        one(&stage, "ENV"),
        "the image's PATH"
    );
    assert_eq!(
        json(&applied["entrypoint"]),
        json(&one(&stage, "ENTRYPOINT"))
    );
    assert_eq!(json(&applied["cmd"]), json(&one(&stage, "CMD")));
    assert_eq!(applied["port"], one(&stage, "EXPOSE"));
    assert_eq!(applied["stopsignal"], one(&stage, "STOPSIGNAL"));
    // Every label, but the two that build.sh sets itself (from the binary and the
    // commit) and the Dockerfile takes as build arguments.
    let declared: BTreeMap<String, String> = labels(&stage)
        .into_iter()
        .filter(|(_, v)| !v.contains('$'))
        .collect();
    let applied_labels: BTreeMap<String, String> = applied
        .iter()
        .filter_map(|(k, v)| Some((k.strip_prefix("label.")?.to_owned(), v.clone())))
        .collect();
    assert_eq!(applied_labels, declared);
    assert_eq!(declared.len(), 7, "{declared:?}");
    let dynamic: Vec<String> = labels(&stage)
        .into_iter()
        .filter(|(_, v)| v.contains('$'))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        dynamic,
        [
            "org.opencontainers.image.revision",
            "org.opencontainers.image.version"
        ]
    );
}

#[test]
fn rootfs_sh_stages_the_binary_where_the_entrypoint_names_it() {
    // A Linux binary at hand: this test's own (dynamically linked, so its libraries and
    // their licences are staged too).
    if !cfg!(target_os = "linux") {
        return;
    }
    let binary = std::env::current_exe().unwrap();
    let rootfs = std::env::temp_dir().join(format!("rootfs-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&rootfs);
    let out = Command::new("bash")
        .arg(crate::workspace_root().join("packaging/image/rootfs.sh"))
        .arg(&binary)
        .arg(&rootfs)
        .output()
        .unwrap();
    let staged = |path: &str| rootfs.join(path.trim_start_matches('/'));
    let result = std::panic::catch_unwind(|| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(staged(ENTRYPOINT).is_file());
        assert!(staged(super::CA_BUNDLE).is_file());
        let passwd = std::fs::read_to_string(staged("/etc/passwd")).unwrap();
        assert!(
            passwd.contains(&format!("nonroot:x:{USER}:nonroot:/home/nonroot:")),
            "{passwd}"
        );
        assert!(staged("/home/nonroot").is_dir());
        assert!(staged("/usr/share/doc/ca-certificates/copyright").is_file());
        assert!(staged("/usr/share/doc/lifesciences-mcp/LICENSE-MIT").is_file());
    });
    let _ = std::fs::remove_dir_all(&rootfs);
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}
