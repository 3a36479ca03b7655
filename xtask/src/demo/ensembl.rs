//! The Ensembl demo script: search by symbol and by free text in one species, fetch the
//! gene and its canonical transcript, and show the errors that steer an agent back
//! (a symbol given as an ID, an unknown ID, an unknown species). Then a variant
//! interpretation (a known rsID's place and frequency; what a variant does to the
//! canonical transcript; the protein around the change) and a mouse orthologue. The mock
//! serves the fixtures of `crates/ensembl-mcp/tests/fixtures` (provenance in their
//! README).

use serde_json::json;
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

use super::script::{Expect, Script, Step, fixture};

const CRATE: &str = "ensembl-mcp";

fn get(route: &str, name: &str) -> Mock {
    Mock::given(method("GET"))
        .and(path(route.to_owned()))
        .respond_with(fixture(CRATE, name))
}

pub(crate) fn script() -> Script {
    let mut mocks = vec![
        get("/ensembl/info/species", "info_species.json"),
        get(
            "/ensembl/xrefs/symbol/homo_sapiens/KRAS",
            "xrefs_symbol__homo_sapiens__KRAS.json",
        ),
        Mock::given(method("POST"))
            .and(path("/ensembl/lookup/id"))
            .respond_with(fixture(CRATE, "lookup_id_batch.json")),
        Mock::given(method("GET"))
            .and(path("/ebisearch/ensembl_gene"))
            .and(query_param("query", "KRAS"))
            .respond_with(fixture(CRATE, "ebisearch__KRAS.json")),
        Mock::given(method("GET"))
            .and(path("/ebisearch/ensembl_gene"))
            .and(query_param(
                "query",
                r#"(tumor protein) AND species:"Homo sapiens""#,
            ))
            .respond_with(fixture(CRATE, "ebisearch__tumor_protein__human.json")),
        Mock::given(method("GET"))
            .and(path("/ensembl/lookup/id/ENSG99999999999"))
            .respond_with(
                ResponseTemplate::new(400)
                    .set_body_json(json!({"error": "ID 'ENSG99999999999' not found"})),
            ),
    ];
    mocks.extend([
        get(
            "/ensembl/variation/homo_sapiens/rs699",
            "variation__rs699.json",
        ),
        get(
            "/ensembl/vep/homo_sapiens/region/16%3A89279135-89279135/C",
            "vep_region__16_89279135_C.json",
        ),
        Mock::given(method("POST"))
            .and(path("/ensembl/sequence/id"))
            .respond_with(fixture(CRATE, "sequence_id__ENST00000301030__protein.json")),
        get(
            "/ensembl/homology/id/homo_sapiens/ENSG00000141510",
            "homology__ENSG00000141510.json",
        ),
    ]);
    for id in ["ENSG00000133703", "ENST00000311936", "ENSMUSG00000059552"] {
        mocks.push(get(
            &format!("/ensembl/lookup/id/{id}"),
            &format!("lookup_id__{id}.json"),
        ));
        mocks.push(get(
            &format!("/ensembl/xrefs/id/{id}"),
            &format!("xrefs_id__{id}.json"),
        ));
    }
    Script {
        upstreams: vec![
            ("ENSEMBL_API_URL", "/ensembl"),
            ("EBI_SEARCH_API_URL", "/ebisearch"),
        ],
        mocks,
        steps: vec![
            Step {
                say: "Find a gene by its symbol: the exact match first, then other species",
                tool: "ensembl_search_genes",
                arguments: json!({"query": "KRAS"}),
                expect: Expect::Ok,
            },
            Step {
                say: "Free text, in one species",
                tool: "ensembl_search_genes",
                arguments: json!({"query": "tumor protein", "species": "human", "page_size": 3}),
                expect: Expect::Ok,
            },
            Step {
                say: "Fetch the gene: coordinates, canonical transcript, cross-references",
                tool: "ensembl_get_gene",
                arguments: json!({"ensembl_id": "ENSG00000133703"}),
                expect: Expect::Ok,
            },
            Step {
                say: "Fetch its canonical transcript",
                tool: "ensembl_get_transcript",
                arguments: json!({"transcript_id": "ENST00000311936"}),
                expect: Expect::Ok,
            },
            Step {
                say: "A symbol is not an ID: the hint points to the search",
                tool: "ensembl_get_gene",
                arguments: json!({"ensembl_id": "KRAS"}),
                expect: Expect::Error("UNRESOLVED_ENTITY"),
            },
            Step {
                say: "A well-formed ID Ensembl does not know",
                tool: "ensembl_get_gene",
                arguments: json!({"ensembl_id": "ENSG99999999999"}),
                expect: Expect::Error("ENTITY_NOT_FOUND"),
            },
            Step {
                say: "An unknown species: the hint lists valid ones",
                tool: "ensembl_search_genes",
                arguments: json!({"query": "KRAS", "species": "klingon"}),
                expect: Expect::Error("INVALID_INPUT"),
            },
            Step {
                say: "A known variant by rsID: where it is, how common, its significance",
                tool: "ensembl_get_variant",
                arguments: json!({"id": "rs699"}),
                expect: Expect::Ok,
            },
            Step {
                say: "What a variant does: stop gained in ANKRD11's canonical (MANE) transcript",
                tool: "ensembl_predict_variant_effect",
                arguments: json!({"variants": ["16:89279135-89279135/C"]}),
                expect: Expect::Ok,
            },
            Step {
                say: "The protein around the change (Tyr2469), from the MANE transcript's ID",
                tool: "ensembl_get_sequence",
                arguments: json!({
                    "ids": ["ENST00000301030.10"], "type": "protein", "start": 2460, "end": 2478
                }),
                expect: Expect::Ok,
            },
            Step {
                say: "TP53's orthologues (mouse, zebrafish), with percent identity both ways",
                tool: "ensembl_get_homologs",
                arguments: json!({"gene": "ENSG00000141510"}),
                expect: Expect::Ok,
            },
            Step {
                say: "The mouse gene itself",
                tool: "ensembl_get_gene",
                arguments: json!({"ensembl_id": "ENSMUSG00000059552"}),
                expect: Expect::Ok,
            },
        ],
    }
}
