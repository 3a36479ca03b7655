//! The gateway demo: questions across the five databases in one server, each hop taking
//! the identifier the previous hop returned. TP53's Ensembl record → its equivalents in
//! the other databases (`lifesciences_map_ids`) → its STRING partners by the STRING ID
//! that step gave → what regulates it in the IGVF Catalog. Then a drug to the proteins it
//! acts on: aspirin's targets as UniProt accessions, each with `uniprot_get_protein` as
//! its next tool; UniProt's entries recorded here are another drug target's, the
//! adenosine A1 receptor (ADORA1, P30542), so the protein part follows it: what it is,
//! its ChEMBL target, structures and AlphaFold model, its sites and variants, and its
//! keys in the other databases in one hop. The mock serves the five servers' own
//! fixtures (see their `tests/fixtures/README.md`).

use serde_json::json;
use wiremock::matchers::{body_partial_json, method, path, query_param};
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
            ("UNIPROT_API_URL", "/uniprot"),
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
                .and(query_param("target_components__accession", "P04637"))
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
            // Aspirin: its record, its mechanisms, their targets, UniChem's records.
            get(
                "/chembl/molecule/CHEMBL25.json",
                "chembl-mcp",
                "molecule__CHEMBL25.json",
            ),
            Mock::given(method("GET"))
                .and(path("/chembl/mechanism.json"))
                .and(query_param("parent_molecule_chembl_id", "CHEMBL25"))
                .respond_with(fixture(
                    "chembl-mcp",
                    "mechanism__molecule_chembl_id=CHEMBL25.json",
                )),
            Mock::given(method("GET"))
                .and(path("/chembl/target.json"))
                .and(query_param("target_chembl_id__in", "CHEMBL221,CHEMBL230"))
                .respond_with(fixture(
                    "chembl-mcp",
                    "target__target_chembl_id__in=CHEMBL221,CHEMBL230.json",
                )),
            Mock::given(method("POST"))
                .and(path("/unichem/compounds"))
                .and(body_partial_json(json!({"compound": "CHEMBL25"})))
                .respond_with(fixture("chembl-mcp", "unichem_compounds__CHEMBL25.json")),
            // The adenosine A1 receptor's UniProt entry.
            get(
                "/uniprot/uniprotkb/P30542",
                "uniprot-mcp",
                "uniprotkb__P30542.json",
            ),
        ],
        steps: vec![
            Step {
                say: "One server, five databases: a gene's Ensembl record",
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
            Step {
                say: "A drug to the proteins it acts on: aspirin's targets as UniProt accessions, uniprot_get_protein their next tool",
                tool: "lifesciences_map_ids",
                arguments: json!({"ids": ["CHEMBL25"]}),
                expect: Expect::Ok,
            },
            Step {
                say: "A target protein (UniProt's recorded entry here is the adenosine A1 receptor's): what it is, its ChEMBL target, PDB structures best resolution first, its AlphaFold model",
                tool: "uniprot_get_protein",
                arguments: json!({"ids": ["P30542"], "include": ["structures"]}),
                expect: Expect::Ok,
            },
            Step {
                say: "Its binding sites and natural variants, with their evidence (UniProt records no binding site for it; six variants)",
                tool: "uniprot_get_features",
                arguments: json!({"id": "P30542", "types": ["sites", "variants"]}),
                expect: Expect::Ok,
            },
            Step {
                say: "Back to its gene, STRING protein and ChEMBL target, in one hop through its UniProt entry",
                tool: "lifesciences_map_ids",
                arguments: json!({"ids": ["P30542"]}),
                expect: Expect::Ok,
            },
        ],
    }
}
