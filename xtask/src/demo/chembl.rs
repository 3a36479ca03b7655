//! The ChEMBL demo script: search by drug name and by trade name, fetch aspirin's full
//! record with its cross-references (ChEMBL's mechanisms → targets → UniProt, UniChem's
//! DrugBank, PDB ligand, KEGG and PubChem CID), show the errors that steer an agent back
//! (a bare ChEMBL ID, an unknown ID), and look up several compounds in one call. Then a
//! target scenario: a gene symbol to its target, the most potent compounds measured on
//! it, and a drug's profile with its boxed warning. The mock serves the fixtures of
//! `crates/chembl-mcp/tests/fixtures` (provenance in their README).

use serde_json::json;
use wiremock::matchers::{body_partial_json, method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

use super::script::{Expect, Script, Step, fixture};

const CRATE: &str = "chembl-mcp";

fn get(route: &str, name: &str) -> Mock {
    Mock::given(method("GET"))
        .and(path(route.to_owned()))
        .respond_with(fixture(CRATE, name))
}

fn search(q: &str, name: &str) -> Mock {
    Mock::given(method("GET"))
        .and(path("/chembl/molecule/search.json"))
        .and(query_param("q", q))
        .respond_with(fixture(CRATE, name))
}

fn unichem(compound: &str, name: &str) -> Mock {
    Mock::given(method("POST"))
        .and(path("/unichem/compounds"))
        .and(body_partial_json(json!({"compound": compound})))
        .respond_with(fixture(CRATE, name))
}

pub(crate) fn script() -> Script {
    let mocks = vec![
        Mock::given(method("GET"))
            .and(path("/chembl/target/search.json"))
            .and(query_param("q", "MTOR"))
            .respond_with(fixture(CRATE, "target_search__q=MTOR.json")),
        Mock::given(method("GET"))
            .and(path("/chembl/activity.json"))
            .and(query_param("target_chembl_id", "CHEMBL2842"))
            .respond_with(fixture(
                CRATE,
                "activity__target_chembl_id=CHEMBL2842__limit=5.json",
            )),
        get(
            "/chembl/molecule/CHEMBL419213.json",
            "molecule__CHEMBL419213.json",
        ),
        Mock::given(method("GET"))
            .and(path("/chembl/mechanism.json"))
            .and(query_param("parent_molecule_chembl_id", "CHEMBL1237"))
            .respond_with(fixture(
                CRATE,
                "mechanism__parent_molecule_chembl_id=CHEMBL1237.json",
            )),
        get(
            "/chembl/drug_indication.json",
            "drug_indication__parent_molecule_chembl_id=CHEMBL1237.json",
        ),
        get(
            "/chembl/drug_warning.json",
            "drug_warning__parent_molecule_chembl_id=CHEMBL1237.json",
        ),
        Mock::given(method("GET"))
            .and(path("/chembl/target.json"))
            .and(query_param("target_chembl_id__in", "CHEMBL1808"))
            .respond_with(fixture(CRATE, "target__summary__CHEMBL1808.json")),
        search("imatinib", "molecule_search__q=imatinib.json"),
        search("Gleevec", "molecule_search__q=Gleevec.json"),
        search("CHEMBL99999999", "molecule_search__empty.json"),
        get("/chembl/molecule/CHEMBL25.json", "molecule__CHEMBL25.json"),
        Mock::given(method("GET"))
            .and(path("/chembl/molecule/CHEMBL99999999.json"))
            .respond_with(ResponseTemplate::new(404)),
        Mock::given(method("GET"))
            .and(path("/chembl/mechanism.json"))
            .and(query_param("parent_molecule_chembl_id", "CHEMBL25"))
            .respond_with(fixture(
                CRATE,
                "mechanism__molecule_chembl_id=CHEMBL25.json",
            )),
        Mock::given(method("GET"))
            .and(path("/chembl/target.json"))
            .and(query_param("target_chembl_id__in", "CHEMBL221,CHEMBL230"))
            .respond_with(fixture(
                CRATE,
                "target__target_chembl_id__in=CHEMBL221,CHEMBL230.json",
            )),
        unichem("CHEMBL25", "unichem_compounds__CHEMBL25.json"),
        Mock::given(method("GET"))
            .and(path("/chembl/molecule.json"))
            .and(query_param(
                "molecule_chembl_id__in",
                "CHEMBL192,CHEMBL27,CHEMBL25,CHEMBL99999999",
            ))
            .respond_with(fixture(
                CRATE,
                "molecule__in=CHEMBL25,CHEMBL192,CHEMBL27__only=id,name.json",
            )),
    ];
    Script {
        upstreams: vec![
            ("CHEMBL_API_URL", "/chembl"),
            ("UNICHEM_API_URL", "/unichem"),
        ],
        mocks,
        steps: vec![
            Step {
                say: "Find a drug by name: ChEMBL's ranking, scores normalised to 0-1",
                tool: "chembl_search_compounds",
                arguments: json!({"query": "imatinib", "page_size": 5}),
                expect: Expect::Ok,
            },
            Step {
                say: "A trade name works too; slim mode for quick triage",
                tool: "chembl_search_compounds",
                arguments: json!({"query": "Gleevec", "slim": true}),
                expect: Expect::Ok,
            },
            Step {
                say: "The full record of aspirin, with cross-references to follow elsewhere",
                tool: "chembl_get_compound",
                arguments: json!({"chembl_id": "CHEMBL:25"}),
                expect: Expect::Ok,
            },
            Step {
                say: "A bare ChEMBL ID is answered with the exact CURIE to use",
                tool: "chembl_get_compound",
                arguments: json!({"chembl_id": "CHEMBL25"}),
                expect: Expect::Error("UNRESOLVED_ENTITY"),
            },
            Step {
                say: "An ID ChEMBL does not have",
                tool: "chembl_get_compound",
                arguments: json!({"chembl_id": "CHEMBL:99999999"}),
                expect: Expect::Error("ENTITY_NOT_FOUND"),
            },
            Step {
                say: "Several compounds in one call (one upstream request), in request order",
                tool: "chembl_get_compounds_batch",
                arguments: json!({"chembl_ids":
                    ["CHEMBL:192", "CHEMBL:27", "CHEMBL:25", "CHEMBL:99999999", "CHEMBL25"]}),
                expect: Expect::Ok,
            },
            Step {
                say: "A gene symbol to its ChEMBL target (human, single protein)",
                tool: "chembl_search_targets",
                arguments: json!({"query": "MTOR", "organism": "human"}),
                expect: Expect::Ok,
            },
            Step {
                say: "Compounds measured on it, ranked by pChEMBL upstream (the recorded page keeps its source's order)",
                tool: "chembl_get_bioactivities",
                arguments: json!({"target": "CHEMBL:2842", "limit": 5}),
                expect: Expect::Ok,
            },
            Step {
                say: "A drug's profile from its salt: mechanism, indication, boxed warning",
                tool: "chembl_get_drug_profile",
                arguments: json!({"chembl_id": "CHEMBL:419213"}),
                expect: Expect::Ok,
            },
        ],
    }
}
