//! The UniProt demo script: a gene in an organism to its reviewed entry (the adenosine A1
//! receptor, ADORA1), the protein in brief with its structures, what lies at one residue,
//! a disease variant named in full (DNASE2's Y95C), a merged accession answered by its
//! successor and a deleted one saying why, and UniProt's own ID mapping run to the end.
//! The mock serves `crates/uniprot-mcp/tests/fixtures` (provenance in their README), with
//! the headers UniProt recorded where they say something of its own (release, total).

use serde_json::{Value, json};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

use super::script::{Expect, Script, Step, fixture};

const KRATE: &str = "uniprot-mcp";

/// The recorded ID-mapping job `P99999,P99998` from UniProtKB to Ensembl.
const JOB: &str = "de23a0319d53da61bfa0e594bb15fefbb754af7c";

/// A fixture of this crate as parsed JSON, `Null` when it cannot be read (the demo step
/// that needs it then fails, saying what UniProt's mock answered).
fn json_of(name: &str) -> Value {
    let file = crate::workspace_root()
        .join("crates")
        .join(KRATE)
        .join("tests/fixtures")
        .join(name);
    std::fs::read(file)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or(Value::Null)
}

/// `template` with UniProt's own headers of a recording (`*.http.json`): its release and
/// dates and a page's total (`X-…`). A `Link` or `Location` names rest.uniprot.org, not
/// the mock, and is left out.
fn with_recorded_headers(mut template: ResponseTemplate, recording: &str) -> ResponseTemplate {
    let saved = json_of(recording);
    for pair in saved["headers"].as_array().into_iter().flatten() {
        if let (Some(name), Some(value)) = (pair[0].as_str(), pair[1].as_str())
            && name.to_ascii_lowercase().starts_with("x-")
        {
            template = template.insert_header(name, value);
        }
    }
    template
}

fn get(at: &str) -> wiremock::MockBuilder {
    Mock::given(method("GET")).and(path(format!("/uniprot{at}")))
}

/// UniProt's `303 See Other` to `location` (a path on the mock, as UniProt's own are on
/// rest.uniprot.org), with a recorded body.
fn see_other(location: &str, body: &str) -> ResponseTemplate {
    let bytes = serde_json::to_vec(&json_of(body)).unwrap_or_default();
    ResponseTemplate::new(303)
        .insert_header("Location", location)
        .set_body_raw(bytes, "application/json")
}

pub(crate) fn script() -> Script {
    // A search page holding the recorded ADORA1 entry, in the shape every search page
    // has (`{"results": [entry]}`, as the recorded F1MAB7/O14975 page): the one reviewed
    // human entry whose gene name is exactly ADORA1.
    let adora1 = json!({"results": [json_of("uniprotkb__P30542.json")]});
    let mocks = vec![
        get("/uniprotkb/search")
            .and(query_param(
                "query",
                "gene_exact:ADORA1 AND organism_id:9606 AND reviewed:true",
            ))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_raw(adora1.to_string().into_bytes(), "application/json")
                    .insert_header("X-Total-Results", "1"),
            ),
        get("/uniprotkb/P30542").respond_with(fixture(KRATE, "uniprotkb__P30542.json")),
        get("/uniprotkb/O00115").respond_with(fixture(KRATE, "uniprotkb__O00115.json")),
        get("/uniprotkb/O43910").respond_with(see_other(
            "/uniprot/uniprotkb/O00115?from=O43910",
            "uniprotkb__O43910__inactive_MERGED.json",
        )),
        get("/uniprotkb/O00597")
            .respond_with(fixture(KRATE, "uniprotkb__O00597__inactive_DELETED.json")),
        Mock::given(method("POST"))
            .and(path("/uniprot/idmapping/run"))
            .respond_with(with_recorded_headers(
                fixture(KRATE, "idmapping_run__P99999_P99998.json"),
                "idmapping_run__P99999_P99998.http.json",
            )),
        get(&format!("/idmapping/status/{JOB}")).respond_with(see_other(
            &format!("/uniprot/idmapping/results/{JOB}"),
            "idmapping_status__FINISHED.json",
        )),
        get(&format!("/idmapping/results/{JOB}")).respond_with(with_recorded_headers(
            fixture(KRATE, "idmapping_results__to_Ensembl.json"),
            "idmapping_status__followed_to_results.http.json",
        )),
    ];
    Script {
        upstreams: vec![("UNIPROT_API_URL", "/uniprot")],
        mocks,
        steps: vec![
            Step {
                say: "Which entry is gene ADORA1 in human? The exact gene name, reviewed entries",
                tool: "uniprot_search_proteins",
                arguments: json!({"gene": "ADORA1", "organism": "human", "reviewed_only": true}),
                expect: Expect::Ok,
            },
            Step {
                say: "What the protein is, in brief, with its solved structures best resolution first",
                tool: "uniprot_get_protein",
                arguments: json!({"ids": ["P30542"], "include": ["structures"]}),
                expect: Expect::Ok,
            },
            Step {
                say: "What lies at residue 279: a transmembrane helix, and a variant found in a family with parkinsonism",
                tool: "uniprot_get_features",
                arguments: json!({"id": "P30542", "position": 279}),
                expect: Expect::Ok,
            },
            Step {
                say: "A disease variant, the disease named in full (UniProt's feature gives only its acronym)",
                tool: "uniprot_get_features",
                arguments: json!({"id": "O00115", "types": ["variants"], "position": 95}),
                expect: Expect::Ok,
            },
            Step {
                say: "A merged accession is answered by its successor, and says so",
                tool: "uniprot_get_protein",
                arguments: json!({"ids": ["O43910"]}),
                expect: Expect::Ok,
            },
            Step {
                say: "A deleted accession says what became of it and why, never an empty answer",
                tool: "uniprot_get_protein",
                arguments: json!({"ids": ["O00597"]}),
                expect: Expect::Error("ENTITY_NOT_FOUND"),
            },
            Step {
                say: "UniProt's own ID mapping: the job submitted, its redirect followed, the pairs read",
                tool: "uniprot_map_ids",
                arguments: json!({"ids": "P99999, P99998", "to": "ensembl"}),
                expect: Expect::Ok,
            },
        ],
    }
}
