//! The gateway demo: one question across the four databases in one server, each hop
//! taking the identifier the previous hop returned. TP53's Ensembl record → its
//! equivalents in the other databases (`lifesciences_map_ids`) → its STRING partners by
//! the STRING ID that step gave → what regulates it in the IGVF Catalog. The mock serves
//! the four servers' own fixtures (see their `tests/fixtures/README.md`).

use serde_json::json;
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

use super::script::{Expect, Script, Step, fixture};

fn get(at: &str, krate: &str, file: &str) -> Mock {
    Mock::given(method("GET"))
        .and(path(at.to_owned()))
        .respond_with(fixture(krate, file))
}

fn empty_list() -> ResponseTemplate {
    ResponseTemplate::new(200)
        .insert_header("content-type", "application/json")
        .set_body_string("[]")
}

pub(crate) fn script() -> Script {
    let tp53 = "ENSG00000141510";
    Script {
        upstreams: vec![
            ("STRING_API_URL", "/string"),
            ("ENSEMBL_API_URL", "/ensembl"),
            ("EBI_SEARCH_API_URL", "/ebisearch"),
            ("CHEMBL_API_URL", "/chembl"),
            ("UNICHEM_API_URL", "/unichem"),
            ("IGVF_CATALOG_API_URL", "/igvf"),
        ],
        mocks: vec![
            get(
                "/ensembl/lookup/id/ENSG00000141510",
                "ensembl-mcp",
                "lookup_id__ENSG00000141510.json",
            ),
            get(
                "/ensembl/xrefs/id/ENSG00000141510",
                "ensembl-mcp",
                "xrefs_id__ENSG00000141510.json",
            ),
            Mock::given(method("GET"))
                .and(path("/string/json/get_string_ids"))
                .and(query_param("identifiers", "TP53"))
                .respond_with(fixture("string-mcp", "get_string_ids__TP53.json")),
            Mock::given(method("GET"))
                .and(path("/string/json/interaction_partners"))
                .and(query_param("identifiers", "9606.ENSP00000269305"))
                .respond_with(fixture("string-mcp", "interaction_partners__TP53.json")),
            // ChEMBL's empty page: no target recorded for P04637 here.
            Mock::given(method("GET"))
                .and(path("/chembl/target.json"))
                .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                    "page_meta": {"limit": 10, "next": null, "offset": 0, "previous": null,
                                  "total_count": 0},
                    "targets": []
                }))),
            Mock::given(method("GET"))
                .and(path("/igvf/genes/variants"))
                .and(query_param("gene_id", tp53))
                .respond_with(fixture(
                    "igvf-mcp",
                    "genes_variants__gene_id=ENSG00000141510.json",
                )),
            Mock::given(method("GET"))
                .and(path("/igvf/genes/genomic-elements"))
                .and(query_param("gene_id", tp53))
                .respond_with(fixture(
                    "igvf-mcp",
                    "genes_genomic-elements__gene_id=ENSG00000141510.json",
                )),
            Mock::given(method("GET"))
                .and(path("/igvf/gene-regulatory-network"))
                .respond_with(empty_list()),
        ],
        steps: vec![
            Step {
                say: "One server, four databases: a gene's Ensembl record",
                tool: "ensembl_get_gene",
                arguments: json!({"ensembl_id": tp53}),
                expect: Expect::Ok,
            },
            Step {
                say: "Carry it across: its STRING, UniProt, HGNC, NCBI Gene and RefSeq IDs, each with the tool that takes it next, and what ChEMBL lacks",
                tool: "lifesciences_map_ids",
                arguments: json!({"ids": [tp53]}),
                expect: Expect::Ok,
            },
            Step {
                say: "Its interaction partners, by the STRING ID the previous step returned",
                tool: "string_get_interactions",
                arguments: json!({"string_id": "STRING:9606.ENSP00000269305", "required_score": 700, "limit": 5}),
                expect: Expect::Ok,
            },
            Step {
                say: "What regulates it, in the IGVF Catalog, by the same Ensembl ID",
                tool: "igvf_find_associations",
                arguments: json!({"entity_id": tp53, "relationship": "regulatory", "limit": 3}),
                expect: Expect::Ok,
            },
        ],
    }
}
