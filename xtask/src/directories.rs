//! The entries of the directories researchers search, each parsed and held to the fields
//! its directory publishes (packaging/README.md, "Where researchers look"), and to what
//! the gateway serves: the BioContextAI registry's `meta.yaml` and `mcp.json` (against the
//! registry's own JSON schemas, copied to `packaging/directories/biocontextai/`), Docker's
//! MCP catalog `server.yaml` (the rules of its `cmd/validate`), `smithery.yaml` and
//! `glama.json` at the repository's root. Every tool the gateway serves is named in the
//! feature list, and every field the directories show names only what the tools answer.
//! Each tool's title and read-only hints are held by `assert_tool_definitions`, which every
//! server's and the gateway's tests run.

use std::collections::BTreeSet;
use std::path::PathBuf;

use lifesciences_mcp::{Gateway, Toolset};
use serde_json::Value;

const BIOCONTEXT: &str = "packaging/directories/biocontextai";
const DOCKER: &str = "packaging/directories/docker";

fn path(relative: &str) -> PathBuf {
    crate::workspace_root().join(relative)
}

fn yaml(relative: &str) -> Value {
    let text = std::fs::read_to_string(path(relative)).unwrap();
    serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

fn json(relative: &str) -> Value {
    let text = std::fs::read_to_string(path(relative)).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The errors of `instance` against the JSON schema at `schema` (formats checked).
fn schema_errors(schema: &str, instance: &Value) -> Vec<String> {
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&json(schema))
        .unwrap();
    validator
        .iter_errors(instance)
        .map(|e| format!("at {}: {e}", e.instance_path()))
        .collect()
}

fn served_tools() -> BTreeSet<String> {
    lifesciences_core::server::tools::<Gateway>()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect()
}

/// Every word the gateway's tools say to a model: names, titles, descriptions, schemas.
fn served_text() -> String {
    serde_json::to_string(&lifesciences_core::server::tools::<Gateway>())
        .unwrap()
        .to_lowercase()
}

/// What the entries claim the tools answer, each a term a tool definition must name.
const CLAIMS: [&str; 12] = [
    "GWAS",
    "eQTL",
    "sQTL",
    "gnomAD",
    "ClinGen",
    "Reactome",
    "KEGG",
    "VEP",
    "linkage",
    "bioactivit",
    "homolog",
    "enrichment",
];

#[test]
fn the_biocontextai_entry_follows_the_registry_schema_and_names_every_tool() {
    let folder = "lifesciences-mcp-lifesciences-mcp";
    let meta = yaml(&format!("{BIOCONTEXT}/{folder}/meta.yaml"));
    let errors = schema_errors(&format!("{BIOCONTEXT}/schema.json"), &meta);
    assert!(errors.is_empty(), "{errors:#?}");
    // The registry's folder-name rule (src/schema_validation/check_folder_names.py).
    assert_eq!(
        meta["identifier"].as_str().unwrap().replace('/', "-"),
        folder
    );
    let workspace = std::fs::read_to_string(path("Cargo.toml")).unwrap();
    assert!(workspace.contains(&format!(
        "repository = \"{}\"",
        meta["codeRepository"].as_str().unwrap()
    )));
    // The feature list names each served tool once, and nothing else.
    let named: BTreeSet<String> = meta["featureList"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().split_once(": ").unwrap().0.to_owned())
        .collect();
    assert_eq!(named, served_tools());
    assert_eq!(meta["featureList"].as_array().unwrap().len(), named.len());

    let launch = json(&format!("{BIOCONTEXT}/{folder}/mcp.json"));
    let errors = schema_errors(&format!("{BIOCONTEXT}/mcp_schema.json"), &launch);
    assert!(errors.is_empty(), "{errors:#?}");
    let server = &launch["mcpServers"][meta["identifier"].as_str().unwrap()];
    assert_eq!(server["command"], "uvx");
    // The PyPI package, whose command starts the server over stdio.
    let pyproject = std::fs::read_to_string(path("pyproject.toml")).unwrap();
    assert!(pyproject.contains("name = \"lifesciences-mcp\""));
    assert_eq!(server["args"], serde_json::json!(["lifesciences-mcp"]));
}

#[test]
fn the_docker_catalog_entry_follows_the_catalogs_rules() {
    let name = "lifesciences-mcp";
    let server = yaml(&format!("{DOCKER}/{name}/server.yaml"));
    // cmd/validate: the name is lower case letters, digits and hyphens, and the folder's.
    assert_eq!(server["name"], name);
    assert!(
        name.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    );
    // A local server, built from the repository's Dockerfile at a pinned commit.
    assert_eq!(server["type"], "server");
    assert!(path("Dockerfile").is_file());
    let commit = server["source"]["commit"].as_str().unwrap();
    assert!(
        commit.len() == 40
            && commit
                .chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)),
        "{commit}"
    );
    let workspace = std::fs::read_to_string(path("Cargo.toml")).unwrap();
    assert!(workspace.contains(&format!(
        "repository = \"{}\"",
        server["source"]["project"].as_str().unwrap()
    )));
    // The title: no "MCP" or "Server", every word capitalised but "and" and "for".
    let title = server["about"]["title"].as_str().unwrap();
    assert!(
        !title.contains("MCP") && !title.contains("Server"),
        "{title}"
    );
    assert!(
        title
            .split_whitespace()
            .all(|w| ["and", "for"].contains(&w) || w.starts_with(|c: char| c.is_uppercase())),
        "{title}"
    );
    // A category its tools offer (cmd/wizard).
    let categories = [
        "ai",
        "data-visualization",
        "database",
        "devops",
        "ecommerce",
        "finance",
        "games",
        "communication",
        "monitoring",
        "productivity",
        "search",
    ];
    assert!(categories.contains(&server["meta"]["category"].as_str().unwrap()));
    // The catalog runs the image with stdin attached: the command serves over stdio (the
    // image's default command serves HTTP).
    assert_eq!(server["run"]["command"], serde_json::json!(["serve"]));
    assert!(server.get("config").is_none(), "nothing to configure");
}

#[test]
fn smithery_starts_the_images_entrypoint_over_stdio_with_variables_it_reads() {
    let smithery = yaml("smithery.yaml");
    let start = &smithery["startCommand"];
    assert_eq!(start["type"], "stdio");
    assert_eq!(start["configSchema"]["type"], "object");
    let function = start["commandFunction"].as_str().unwrap();
    // The Dockerfile's entrypoint, and the subcommand that serves over stdio.
    let dockerfile = std::fs::read_to_string(path("Dockerfile")).unwrap();
    let entrypoint = "/usr/local/bin/lifesciences-mcp";
    assert!(dockerfile.contains(&format!("ENTRYPOINT [\"{entrypoint}\"]")));
    assert!(
        function.contains(&format!("command: \"{entrypoint}\"")),
        "{function}"
    );
    assert!(function.contains("args: [\"serve\"]"), "{function}");
    // Each variable it sets is one the gateway reads; each setting names its variable.
    let upstreams = lifesciences_core::server::upstreams::<Gateway>().unwrap();
    let mut read: BTreeSet<String> = lifesciences_core::config::variables(&upstreams)
        .into_iter()
        .map(|v| v.name)
        .collect();
    read.insert(lifesciences_core::cli::TOOLSETS_VAR.to_owned());
    let set: Vec<&str> = function
        .split('"')
        .filter(|w| w.starts_with("LIFESCIENCES_"))
        .collect();
    assert_eq!(set.len(), 2, "{function}");
    for var in set {
        assert!(read.contains(var), "{var} is no variable the gateway reads");
    }
    let toolsets = start["configSchema"]["properties"]["toolsets"]["description"]
        .as_str()
        .unwrap();
    assert!(
        toolsets.contains(&format!("({})", Toolset::NAMES.join(", "))),
        "{toolsets}"
    );
    // The build it names is this repository's.
    assert!(
        path(smithery["build"]["dockerfile"].as_str().unwrap()).is_file(),
        "{smithery:#}"
    );
}

#[test]
fn glama_reads_its_schema_and_a_list_of_maintainers() {
    let glama = json("glama.json");
    assert_eq!(glama["$schema"], "https://glama.ai/mcp/schemas/server.json");
    // GitHub user names: letters, digits and single hyphens, at most 39 characters.
    for user in glama["maintainers"].as_array().unwrap() {
        let user = user.as_str().unwrap();
        assert!(
            !user.is_empty()
                && user.len() <= 39
                && user.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
            "{user}"
        );
    }
    let keys: BTreeSet<&str> = glama
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(keys, BTreeSet::from(["$schema", "maintainers"]));
}

#[test]
fn what_the_entries_say_the_tools_answer_the_tools_say_too() {
    let served = served_text();
    let entries = [
        yaml(&format!(
            "{BIOCONTEXT}/lifesciences-mcp-lifesciences-mcp/meta.yaml"
        )),
        yaml(&format!("{DOCKER}/lifesciences-mcp/server.yaml")),
    ];
    for claim in CLAIMS {
        let claim = claim.to_lowercase();
        let mentioned = entries.iter().any(|e| {
            serde_json::to_string(e)
                .unwrap()
                .to_lowercase()
                .contains(&claim)
        });
        assert!(mentioned, "no entry says {claim}");
        assert!(
            served.contains(&claim),
            "an entry says {claim}, which no tool definition names"
        );
    }
    // The keywords and tags, but for the words that describe the field rather than an
    // answer, are each in a tool definition.
    let general = [
        "protein interactions",
        "pathway enrichment",
        "variant effects",
        "identifier mapping",
        "life-sciences",
        "bioinformatics",
        "genomics",
        "proteins",
        "protein-interactions",
        "pathway-enrichment",
        "variant-effects",
        "drug-discovery",
    ];
    let mut words: Vec<String> = Vec::new();
    for (entry, field) in [(&entries[0], "/keywords"), (&entries[1], "/meta/tags")] {
        for word in entry.pointer(field).unwrap().as_array().unwrap() {
            words.push(word.as_str().unwrap().to_owned());
        }
    }
    for word in words {
        if general.contains(&word.as_str()) {
            continue;
        }
        let stem = word.to_lowercase().trim_end_matches('y').to_owned();
        assert!(served.contains(&stem), "{word} is in no tool definition");
    }
}
