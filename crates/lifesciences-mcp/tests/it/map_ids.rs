//! `lifesciences_map_ids`: each identifier kind, the path it took, and what could not be
//! mapped.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::matchers::{body_json, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::{fixture, paths, setup};

fn ids_of(mapping: &Value, namespace: &str) -> Vec<String> {
    mapping["equivalents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["namespace"] == namespace)
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect()
}

/// The tool that takes the equivalent `id` of `namespace` next.
fn next_tool_of<'a>(mapping: &'a Value, namespace: &str, id: &str) -> &'a str {
    let next = mapping["equivalents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["namespace"] == namespace && e["id"] == id)
        .and_then(|e| e["next_tool"].as_str());
    assert!(
        next.is_some(),
        "no next tool for {namespace} {id}: {mapping:#}"
    );
    next.unwrap()
}

/// Every tool a mapping names, in its path or as an equivalent's next tool, is one the
/// gateway serves: an agent can call it.
async fn assert_names_served(client: &lifesciences_core::testing::McpTestClient, out: &Value) {
    let served = client.tool_names().await;
    for m in out["results"].as_array().unwrap() {
        let path = m["path"].as_array().unwrap().iter();
        let next = m["equivalents"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e.get("next_tool"));
        for name in path.chain(next) {
            let name = name.as_str().unwrap();
            assert!(
                name.starts_with("UniChem") || served.iter().any(|s| s == name),
                "{name} is not a served tool: {m:#}"
            );
        }
    }
}

/// TP53's Ensembl record and STRING name (recorded), and a ChEMBL answer with no target
/// for P04637 (constructed: ChEMBL's empty page).
pub(crate) async fn mount_tp53(upstream: &MockServer) {
    Mock::given(method("GET"))
        .and(path("/ensembl/lookup/id/ENSG00000141510"))
        .respond_with(fixture("ensembl-mcp", "lookup_id__ENSG00000141510.json"))
        .mount(upstream)
        .await;
    Mock::given(method("GET"))
        .and(path("/ensembl/xrefs/id/ENSG00000141510"))
        .respond_with(fixture("ensembl-mcp", "xrefs_id__ENSG00000141510.json"))
        .mount(upstream)
        .await;
    Mock::given(method("GET"))
        .and(path("/string/json/get_string_ids"))
        .and(query_param("identifiers", "TP53"))
        .respond_with(fixture("string-mcp", "get_string_ids__TP53.json"))
        .mount(upstream)
        .await;
    Mock::given(method("GET"))
        .and(path("/chembl/target.json"))
        .and(query_param("target_components__accession", "P04637"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "page_meta": {"limit": 10, "next": null, "offset": 0, "previous": null, "total_count": 0},
            "targets": []
        })))
        .mount(upstream)
        .await;
}

#[tokio::test]
async fn an_ensembl_gene_maps_to_every_gene_namespace_and_says_what_it_could_not() {
    let (upstream, client) = setup().await;
    mount_tp53(&upstream).await;
    let out = client
        .call_ok("lifesciences_map_ids", json!({"ids": ["ENSG00000141510"]}))
        .await;
    let m = &out["results"][0];
    assert_eq!(m["detected_as"], "Ensembl gene ID");
    assert_eq!(ids_of(m, "ensembl_gene"), ["ENSG00000141510"]);
    assert_eq!(ids_of(m, "symbol"), ["TP53"]);
    assert_eq!(ids_of(m, "hgnc"), ["HGNC:11998"]);
    assert_eq!(ids_of(m, "uniprot"), ["P04637"]);
    assert_eq!(ids_of(m, "ncbi_gene"), ["7157"]);
    assert_eq!(ids_of(m, "refseq"), ["NM_000546.6", "NP_000537.3"]);
    assert_eq!(ids_of(m, "string"), ["STRING:9606.ENSP00000269305"]);
    // Each equivalent names the tool that takes it next, in the form it takes.
    let string = m["equivalents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["namespace"] == "string")
        .unwrap();
    assert_eq!(string["next_tool"], "string_get_interactions");
    assert_eq!(next_tool_of(m, "uniprot", "P04637"), "uniprot_get_protein");
    assert_eq!(
        m["path"],
        json!([
            "ensembl_get_gene",
            "string_search_proteins",
            "chembl_search_targets"
        ])
    );
    assert_eq!(m["unmapped"][0]["namespace"], "chembl_target");
    assert!(
        m["unmapped"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("P04637"),
        "{m:#}"
    );
    assert_eq!(out["mapped"], 1);
    assert_eq!(out["failed"], 0);
    assert_names_served(&client, &out).await;
    client.close().await;
}

#[tokio::test]
async fn a_variant_maps_through_the_catalog() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/igvf/variants"))
        .and(query_param("rsid", "rs80357906"))
        .respond_with(fixture("igvf-mcp", "variants__rsid=rs80357906.json"))
        .mount(&upstream)
        .await;
    let out = client
        .call_ok("lifesciences_map_ids", json!({"ids": "rs80357906"}))
        .await;
    let m = &out["results"][0];
    assert_eq!(m["detected_as"], "rsID");
    assert_eq!(ids_of(m, "spdi"), ["NC_000017.11:43057062:GGG:GGGG"]);
    assert_eq!(ids_of(m, "hgvs"), ["NC_000017.11:g.43057065dup"]);
    assert_eq!(m["path"], json!(["igvf_resolve_id"]));
    assert_names_served(&client, &out).await;
    client.close().await;
}

/// Aspirin's full ChEMBL record (recorded molecule, mechanisms, targets, UniChem answer).
pub(crate) async fn mount_aspirin(upstream: &MockServer) {
    let chembl = |p: &str| Mock::given(method("GET")).and(path(format!("/chembl{p}")));
    chembl("/molecule/CHEMBL25.json")
        .respond_with(fixture("chembl-mcp", "molecule__CHEMBL25.json"))
        .mount(upstream)
        .await;
    chembl("/mechanism.json")
        .and(query_param("parent_molecule_chembl_id", "CHEMBL25"))
        .respond_with(fixture(
            "chembl-mcp",
            "mechanism__molecule_chembl_id=CHEMBL25.json",
        ))
        .mount(upstream)
        .await;
    chembl("/target.json")
        .and(query_param("target_chembl_id__in", "CHEMBL221,CHEMBL230"))
        .respond_with(fixture(
            "chembl-mcp",
            "target__target_chembl_id__in=CHEMBL221,CHEMBL230.json",
        ))
        .mount(upstream)
        .await;
    Mock::given(method("POST"))
        .and(path("/unichem/compounds"))
        .and(body_json(
            json!({"type": "sourceID", "compound": "CHEMBL25", "sourceID": 1}),
        ))
        .respond_with(fixture("chembl-mcp", "unichem_compounds__CHEMBL25.json"))
        .mount(upstream)
        .await;
}

#[tokio::test]
async fn an_inchikey_maps_to_its_compound_pubchem_and_target_proteins() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/chembl/molecule.json"))
        .and(query_param(
            "molecule_structures__standard_inchi_key",
            "BSYNRYMUTXBXSQ-UHFFFAOYSA-N",
        ))
        .respond_with(fixture(
            "chembl-mcp",
            "molecule__standard_inchi_key=BSYNRYMUTXBXSQ-UHFFFAOYSA-N.json",
        ))
        .mount(&upstream)
        .await;
    mount_aspirin(&upstream).await;
    let out = client
        .call_ok(
            "lifesciences_map_ids",
            json!({"ids": ["bsynrymutxbxsq-uhfffaoysa-n"]}),
        )
        .await;
    let m = &out["results"][0];
    assert_eq!(m["detected_as"], "ChEMBL compound");
    assert_eq!(ids_of(m, "chembl_compound"), ["CHEMBL:25"]);
    assert_eq!(ids_of(m, "inchikey"), ["BSYNRYMUTXBXSQ-UHFFFAOYSA-N"]);
    assert_eq!(ids_of(m, "pubchem_compound"), ["2244"]);
    assert!(!ids_of(m, "uniprot").is_empty(), "{m:#}");
    for accession in ids_of(m, "uniprot") {
        assert_eq!(
            next_tool_of(m, "uniprot", &accession),
            "uniprot_get_protein"
        );
    }
    assert_eq!(
        m["path"],
        json!(["chembl_search_compounds", "chembl_get_compound"])
    );
    assert_names_served(&client, &out).await;
    client.close().await;
}

#[tokio::test]
async fn a_pubchem_cid_maps_through_unichem_to_its_chembl_compound() {
    let (upstream, client) = setup().await;
    mount_aspirin(&upstream).await;
    // UniChem's answer for aspirin (recorded for its ChEMBL ID; the same compound's
    // records, so the same answer for its PubChem CID).
    Mock::given(method("POST"))
        .and(path("/unichem/compounds"))
        .and(body_json(
            json!({"type": "sourceID", "compound": "2244", "sourceID": 22}),
        ))
        .respond_with(fixture("chembl-mcp", "unichem_compounds__CHEMBL25.json"))
        .mount(&upstream)
        .await;
    let out = client
        .call_ok("lifesciences_map_ids", json!({"ids": "CID:2244"}))
        .await;
    let m = &out["results"][0];
    assert_eq!(ids_of(m, "chembl_compound"), ["CHEMBL:25"], "{m:#}");
    assert_eq!(ids_of(m, "inchikey"), ["BSYNRYMUTXBXSQ-UHFFFAOYSA-N"]);
    assert_eq!(
        m["path"],
        json!(["UniChem (PubChem → ChEMBL)", "chembl_get_compound"])
    );
    assert_names_served(&client, &out).await;
    client.close().await;
}

#[tokio::test]
async fn an_input_that_fails_fails_alone() {
    let (upstream, client) = setup().await;
    mount_tp53(&upstream).await;
    // Ensembl's answer for an ID it does not know.
    for at in ["lookup/id", "xrefs/id"] {
        Mock::given(method("GET"))
            .and(path(format!("/ensembl/{at}/ENSG00000000001")))
            .respond_with(
                ResponseTemplate::new(400)
                    .set_body_json(json!({"error": "ID 'ENSG00000000001' not found"})),
            )
            .mount(&upstream)
            .await;
    }
    let out = client
        .call_ok(
            "lifesciences_map_ids",
            json!({"ids": ["ENSG00000141510", "%%%", "ENSG00000000001"]}),
        )
        .await;
    assert_eq!(out["mapped"], 1);
    assert_eq!(out["failed"], 2);
    assert_eq!(out["results"][1]["detected_as"], "unrecognised");
    assert_eq!(out["results"][1]["error"]["code"], "UNRESOLVED_ENTITY");
    assert!(out["results"][2]["error"]["code"].is_string(), "{out:#}");
    let sent = paths(&upstream).await;
    assert!(sent.iter().all(|p| !p.contains("%%%")), "{sent:?}");
    let e = client
        .call_err(
            "lifesciences_map_ids",
            json!({"ids": (0..21).map(|i| format!("rs{i}")).collect::<Vec<_>>()}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    client.close().await;
}

/// Ensembl's exact look-up of `query` (a symbol or another database's ID) in human,
/// answering TP53's gene (the ID as Ensembl's `xrefs/symbol` gives it), and what a search
/// asks besides: the species list (recorded), EBI Search (no hits), the batch look-up
/// (TP53's recorded entry).
pub(crate) async fn mount_tp53_search(upstream: &MockServer, query: &str) {
    Mock::given(method("GET"))
        .and(path("/ensembl/info/species"))
        .respond_with(fixture("ensembl-mcp", "info_species.json"))
        .mount(upstream)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/ensembl/xrefs/symbol/homo_sapiens/{query}")))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!([{"id": "ENSG00000141510", "type": "gene"}])),
        )
        .mount(upstream)
        .await;
    Mock::given(method("GET"))
        .and(path("/ebisearch/ensembl_gene"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"hitCount": 0, "entries": [], "facets": []})),
        )
        .mount(upstream)
        .await;
    let batch = crate::fixtures_of("ensembl-mcp").json("lookup_id_batch.json");
    Mock::given(method("POST"))
        .and(path("/ensembl/lookup/id"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"ENSG00000141510": batch["ENSG00000141510"]})),
        )
        .mount(upstream)
        .await;
}

#[tokio::test]
async fn every_gene_identifier_kind_reaches_the_same_gene() {
    // (input, how it is read, first tool, what Ensembl's exact look-up is asked)
    for (input, form, first, lookup) in [
        ("TP53", "gene symbol", "ensembl_search_genes", "TP53"),
        (
            "HGNC:11998",
            "HGNC ID",
            "ensembl_search_genes",
            "HGNC%3A11998",
        ),
        ("7157", "NCBI Gene ID", "ensembl_search_genes", "7157"),
        (
            "NM_000546.6",
            "RefSeq accession",
            "ensembl_search_genes",
            "NM_000546",
        ),
        (
            "ENST00000269305",
            "Ensembl transcript ID",
            "ensembl_get_transcript",
            "",
        ),
        (
            "9606.ENSP00000269305",
            "STRING protein",
            "string_search_proteins",
            "TP53",
        ),
        (
            "ENSP00000269305",
            "Ensembl protein ID",
            "string_search_proteins",
            "TP53",
        ),
    ] {
        let (upstream, client) = setup().await;
        mount_tp53(&upstream).await;
        if lookup.is_empty() {
            // TP53-201 as Ensembl's look-up of a transcript answers (the recorded KRAS-202
            // record with its ID, parent and name changed).
            let mut record =
                crate::fixtures_of("ensembl-mcp").json("lookup_id__ENST00000311936.json");
            record["id"] = json!("ENST00000269305");
            record["Parent"] = json!("ENSG00000141510");
            record["display_name"] = json!("TP53-201");
            Mock::given(method("GET"))
                .and(path("/ensembl/lookup/id/ENST00000269305"))
                .respond_with(ResponseTemplate::new(200).set_body_json(record))
                .mount(&upstream)
                .await;
            Mock::given(method("GET"))
                .and(path("/ensembl/xrefs/id/ENST00000269305"))
                .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
                .mount(&upstream)
                .await;
        } else {
            mount_tp53_search(&upstream, lookup).await;
        }
        Mock::given(method("GET"))
            .and(path("/string/json/get_string_ids"))
            .and(query_param("identifiers", "9606.ENSP00000269305"))
            .respond_with(fixture("string-mcp", "get_string_ids__TP53.json"))
            .mount(&upstream)
            .await;
        let out = client
            .call_ok("lifesciences_map_ids", json!({"ids": [input]}))
            .await;
        let m = &out["results"][0];
        assert_eq!(m["detected_as"], form, "{input}");
        assert_eq!(
            ids_of(m, "ensembl_gene"),
            ["ENSG00000141510"],
            "{input}: {m:#}"
        );
        assert_eq!(
            ids_of(m, "string"),
            ["STRING:9606.ENSP00000269305"],
            "{input}"
        );
        assert_eq!(m["path"][0], first, "{input}");
        client.close().await;
    }
}

#[tokio::test]
async fn a_chembl_id_that_is_no_compound_is_read_as_a_target() {
    let (upstream, client) = setup().await;
    let chembl = |p: &str| Mock::given(method("GET")).and(path(format!("/chembl{p}")));
    // ChEMBL's 404 for an unknown molecule (an empty body); the compound look-up asks
    // for the ID's mechanisms and UniChem records alongside it: none.
    chembl("/molecule/CHEMBL203.json")
        .respond_with(ResponseTemplate::new(404))
        .mount(&upstream)
        .await;
    chembl("/mechanism.json")
        .and(query_param("parent_molecule_chembl_id", "CHEMBL203"))
        .respond_with(fixture("chembl-mcp", "mechanism__empty.json"))
        .mount(&upstream)
        .await;
    Mock::given(method("POST"))
        .and(path("/unichem/compounds"))
        .respond_with(fixture("chembl-mcp", "unichem_compounds__not_found.json"))
        .mount(&upstream)
        .await;
    // What the ID is, as ChEMBL's look-up answers (the recorded CHEMBL221 answer's
    // shape).
    chembl("/chembl_id_lookup/CHEMBL203.json")
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "chembl_id": "CHEMBL203", "entity_type": "TARGET",
            "resource_url": "/chembl/api/data/target/CHEMBL203", "status": "ACTIVE"
        })))
        .mount(&upstream)
        .await;
    chembl("/target/CHEMBL203.json")
        .respond_with(fixture("chembl-mcp", "target__CHEMBL203.json"))
        .mount(&upstream)
        .await;
    chembl("/mechanism.json")
        .and(query_param("target_chembl_id", "CHEMBL203"))
        .respond_with(fixture(
            "chembl-mcp",
            "mechanism__target_chembl_id=CHEMBL203.json",
        ))
        .mount(&upstream)
        .await;
    chembl("/molecule.json")
        .and(query_param("molecule_chembl_id__in", "CHEMBL939,CHEMBL553"))
        .respond_with(fixture(
            "chembl-mcp",
            "molecule__in=CHEMBL939,CHEMBL553__only=slim.json",
        ))
        .mount(&upstream)
        .await;
    let out = client
        .call_ok("lifesciences_map_ids", json!({"ids": "CHEMBL203"}))
        .await;
    let m = &out["results"][0];
    assert_eq!(m["detected_as"], "ChEMBL target");
    assert_eq!(ids_of(m, "chembl_target"), ["CHEMBL:203"]);
    assert_eq!(ids_of(m, "uniprot"), ["P00533"]);
    assert_eq!(next_tool_of(m, "uniprot", "P00533"), "uniprot_get_protein");
    assert_eq!(ids_of(m, "symbol"), ["EGFR"]);
    assert_eq!(m["path"], json!(["chembl_get_target"]));
    assert_names_served(&client, &out).await;
    client.close().await;
}

#[tokio::test]
async fn when_every_input_fails_the_failure_is_the_answer() {
    let (upstream, client) = setup().await;
    // Every source down, answering a proxy's HTML page.
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(503)
                .insert_header("content-type", "text/html")
                .set_body_string("<html><body>Service Unavailable</body></html>"),
        )
        .mount(&upstream)
        .await;
    let e = client
        .call_err("lifesciences_map_ids", json!({"ids": "ENSG00000141510"}))
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert!(e.message.contains("Ensembl"), "{}", e.message);
    assert!(!e.message.contains("<html"), "{}", e.message);
    let e = client
        .call_err("lifesciences_map_ids", json!({"ids": ["%%%"]}))
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    client.close().await;
}

/// `ids` as one string is split on commas and line breaks, each trimmed, as every list
/// argument is (it used to be one identifier: `"rs80357906, %%%"` was one unrecognised
/// input, so the whole call failed); a list holding a number, and `null`, are refused in a
/// sentence (the first used to be serde's "did not match any variant" text).
#[tokio::test]
async fn ids_as_one_string_are_split_on_commas_and_line_breaks() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/igvf/variants"))
        .and(query_param("rsid", "rs80357906"))
        .respond_with(fixture("igvf-mcp", "variants__rsid=rs80357906.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let out = client
        .call_ok(
            "lifesciences_map_ids",
            json!({"ids": " rs80357906 ,\n%%%\n"}),
        )
        .await;

    let inputs: Vec<&str> = out["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["input"].as_str().unwrap())
        .collect();
    assert_eq!(inputs, ["rs80357906", "%%%"]);
    assert_eq!(out["mapped"], 1);
    assert_eq!(out["failed"], 1);
    assert_eq!(
        ids_of(&out["results"][0], "spdi"),
        ["NC_000017.11:43057062:GGG:GGGG"]
    );
    assert_eq!(out["results"][1]["error"]["code"], "UNRESOLVED_ENTITY");
    assert_eq!(paths(&upstream).await, ["/igvf/variants"]);

    let e = client
        .call_err("lifesciences_map_ids", json!({"ids": ["rs80357906", 7157]}))
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(
        e.message,
        "Argument 'ids' has the wrong type: expected a list of strings, or one string of \
         comma-separated items, got a list whose item 2 is the number 7157."
    );
    let e = client
        .call_err("lifesciences_map_ids", json!({"ids": null}))
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.message, "'ids' holds 0 identifiers; give 1 to 20.");
    assert_eq!(paths(&upstream).await.len(), 1);
    client.close().await;
}

/// A UniProt accession (or an isoform's) is one hop: its entry names the gene, its
/// Ensembl gene and protein, HGNC, NCBI Gene, RefSeq proteins, STRING protein and ChEMBL
/// target (ADORA1's recorded entry), each with the tool that takes it; nothing is asked
/// of Ensembl, STRING or ChEMBL, and the species given does not matter.
#[tokio::test]
async fn a_uniprot_accession_maps_through_its_uniprot_entry_in_one_hop() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/uniprot/uniprotkb/P30542"))
        .respond_with(fixture("uniprot-mcp", "uniprotkb__P30542.json"))
        .expect(1..=2)
        .mount(&upstream)
        .await;

    let out = client
        .call_ok(
            "lifesciences_map_ids",
            json!({"ids": ["P30542", "p30542-2"], "species": "mouse"}),
        )
        .await;

    let m = &out["results"][0];
    assert_eq!(m["detected_as"], "UniProt accession");
    assert_eq!(m["path"], json!(["uniprot_get_protein"]));
    assert_eq!(ids_of(m, "uniprot"), ["P30542"]);
    assert_eq!(next_tool_of(m, "uniprot", "P30542"), "uniprot_get_protein");
    assert_eq!(ids_of(m, "symbol"), ["ADORA1"]);
    assert_eq!(ids_of(m, "ensembl_gene"), ["ENSG00000163485"]);
    // MANE Select's protein, without its version.
    assert_eq!(ids_of(m, "ensembl_protein"), ["ENSP00000338435"]);
    assert_eq!(ids_of(m, "hgnc"), ["HGNC:262"]);
    assert_eq!(ids_of(m, "ncbi_gene"), ["134"]);
    assert_eq!(ids_of(m, "refseq"), ["NP_000665.1", "NP_001041695.1"]);
    assert_eq!(ids_of(m, "string"), ["STRING:9606.ENSP00000356205"]);
    assert_eq!(ids_of(m, "chembl_target"), ["CHEMBL:226"]);
    assert_eq!(
        next_tool_of(m, "chembl_target", "CHEMBL:226"),
        "chembl_get_target"
    );
    assert!(m.get("unmapped").is_none(), "{m:#}");
    // An isoform maps through its entry.
    let isoform = &out["results"][1];
    assert_eq!(isoform["detected_as"], "UniProt accession");
    assert_eq!(ids_of(isoform, "uniprot"), ["P30542"]);
    assert_eq!(ids_of(isoform, "symbol"), ["ADORA1"]);
    assert_eq!(out["mapped"], 2);
    // Only UniProt was asked (the isoform's entry is the same request, perhaps
    // answered once for both).
    let sent = paths(&upstream).await;
    assert!(
        sent.iter().all(|p| p == "/uniprot/uniprotkb/P30542"),
        "{sent:?}"
    );
    assert_names_served(&client, &out).await;
    client.close().await;
}

/// An entry that lists fewer databases says which it does not list (the unreviewed
/// *C. briggsae* A8Y1C3: no gene name, no Ensembl gene, no STRING, no ChEMBL target).
#[tokio::test]
async fn what_a_uniprot_entry_does_not_list_is_said_unmapped() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/uniprot/uniprotkb/A8Y1C3"))
        .respond_with(fixture("uniprot-mcp", "uniprotkb__A8Y1C3.json"))
        .mount(&upstream)
        .await;

    let out = client
        .call_ok("lifesciences_map_ids", json!({"ids": "A8Y1C3"}))
        .await;

    let m = &out["results"][0];
    assert_eq!(ids_of(m, "uniprot"), ["A8Y1C3"]);
    let unmapped: Vec<&str> = m["unmapped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["namespace"].as_str().unwrap())
        .collect();
    assert!(unmapped.contains(&"chembl_target"), "{m:#}");
    for u in m["unmapped"].as_array().unwrap() {
        assert!(u["reason"].as_str().unwrap().contains("A8Y1C3"), "{m:#}");
    }
    assert_eq!(out["failed"], 0);
    client.close().await;
}

/// A deleted accession fails alone, in UniProt's words (the recorded shape of an
/// inactive record), while the other input maps.
#[tokio::test]
async fn a_deleted_uniprot_accession_fails_saying_what_became_of_it() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/uniprot/uniprotkb/O00597"))
        .respond_with(fixture(
            "uniprot-mcp",
            "uniprotkb__O00597__inactive_DELETED.json",
        ))
        .mount(&upstream)
        .await;
    Mock::given(method("GET"))
        .and(path("/uniprot/uniprotkb/P30542"))
        .respond_with(fixture("uniprot-mcp", "uniprotkb__P30542.json"))
        .mount(&upstream)
        .await;

    let out = client
        .call_ok("lifesciences_map_ids", json!({"ids": ["O00597", "P30542"]}))
        .await;

    let deleted = &out["results"][0];
    assert_eq!(deleted["error"]["code"], "ENTITY_NOT_FOUND");
    let message = deleted["error"]["message"].as_str().unwrap();
    assert!(message.contains("deleted O00597"), "{message}");
    assert!(message.contains("UPI000013C29B"), "{message}");
    assert_eq!(deleted["path"], json!(["uniprot_get_protein"]));
    assert_eq!(out["mapped"], 1);
    assert_eq!(out["failed"], 1);
    client.close().await;
}
