//! The STRING demo script: a systems biologist's agent searches "TP53", takes its CURIE to
//! the evidence-weighted interaction network (high confidence, top 5), trips over STRING's
//! bare ID form and reads the fix, then hands over a link to the network image. Then a
//! gene list from a screen: how the four genes connect and whether they are a module,
//! what they share (compact enrichment), their mouse counterparts, and a picture. The
//! mock serves `crates/string-mcp/tests/fixtures` (see their README for provenance).

use serde_json::json;
use wiremock::Mock;
use wiremock::matchers::{body_string_contains, method, path, query_param};

/// The gene list of the second scenario (hits of a screen).
const GENE_LIST: [&str; 4] = ["POSTN", "SERPINB2", "CXCL10", "IFNA1"];

/// A POST of one STRING method on the mock.
fn post(method_name: &str) -> wiremock::MockBuilder {
    Mock::given(method("POST")).and(path(format!("/string/json/{method_name}")))
}

use super::script::{Expect, Script, Step, fixture};

const KRATE: &str = "string-mcp";

pub(crate) fn script() -> Script {
    Script {
        upstreams: vec![("STRING_API_URL", "/string")],
        mocks: vec![
            Mock::given(method("GET"))
                .and(path("/string/json/get_string_ids"))
                .and(query_param("identifiers", "TP53"))
                .and(query_param("species", "9606"))
                .respond_with(fixture(KRATE, "get_string_ids__TP53.json")),
            Mock::given(method("GET"))
                .and(path("/string/json/interaction_partners"))
                .and(query_param("identifiers", "9606.ENSP00000269305"))
                .respond_with(fixture(KRATE, "interaction_partners__TP53.json")),
            // The homologs' names: the mouse resolution, before the human one.
            post("get_string_ids")
                .and(body_string_contains("species=10090"))
                .respond_with(fixture(KRATE, "get_string_ids__set4_mouse.json")),
            post("get_string_ids").respond_with(fixture(KRATE, "get_string_ids__set4.json")),
            post("homology_best").respond_with(fixture(KRATE, "homology_best__set4_mouse.json")),
            Mock::given(method("POST"))
                .and(path("/string/image/network"))
                .respond_with(
                    fixture(KRATE, "network__set4.png").insert_header("content-type", "image/png"),
                ),
            post("network").respond_with(fixture(KRATE, "network__set4.json")),
            post("ppi_enrichment").respond_with(fixture(KRATE, "ppi_enrichment__set4.json")),
            post("enrichment").respond_with(fixture(KRATE, "enrichment__set4.json")),
        ],
        steps: vec![
            Step {
                say: "Search human proteins for \"TP53\": ranked candidates with STRING CURIEs",
                tool: "string_search_proteins",
                arguments: json!({"query": "TP53", "species": 9606, "limit": 5}),
                expect: Expect::Ok,
            },
            Step {
                say: "TP53's high-confidence partners (combined ≥ 0.7), top 5, with evidence",
                tool: "string_get_interactions",
                arguments: json!({
                    "string_id": "STRING:9606.ENSP00000269305",
                    "required_score": 700,
                    "limit": 5
                }),
                expect: Expect::Ok,
            },
            Step {
                say: "STRING's bare ID form is refused, with the corrected CURIE in the hint",
                tool: "string_get_interactions",
                arguments: json!({"string_id": "9606.ENSP00000269305"}),
                expect: Expect::Error("UNRESOLVED_ENTITY"),
            },
            Step {
                say: "A link to the network as an SVG image (the older, link-only tool)",
                tool: "string_get_network_image_url",
                arguments: json!({
                    "identifiers": ["STRING:9606.ENSP00000269305", "MDM2", "ATM", "BRCA1"],
                    "format": "svg",
                    "required_score": 700
                }),
                expect: Expect::Ok,
            },
            Step {
                say: "A screen's four hits: how they connect, and whether they are a module",
                tool: "string_get_network",
                arguments: json!({"identifiers": GENE_LIST}),
                expect: Expect::Ok,
            },
            Step {
                say: "What they share: 111 enriched terms, compact (best of each category first)",
                tool: "string_get_enrichment",
                arguments: json!({"identifiers": GENE_LIST, "limit": 6}),
                expect: Expect::Ok,
            },
            Step {
                say: "Their mouse counterparts, named, with bitscores (three requests)",
                tool: "string_get_homologs",
                arguments: json!({"identifiers": GENE_LIST, "target_species": "mouse"}),
                expect: Expect::Ok,
            },
            Step {
                say: "A picture of their network, in the result for clients that show images",
                tool: "string_get_network_image",
                arguments: json!({"identifiers": GENE_LIST}),
                expect: Expect::Ok,
            },
        ],
    }
}
