//! Opt-in checks against the real Ensembl REST and EBI Search (`cargo xtask live`):
//! ignored by default, and they return at once unless `LIFESCIENCES_LIVE=1`. They check
//! what the fixtures could not prove: field names and behaviour of today's upstreams
//! (docs/sources/ensembl.md lists what is not verified against the live API).

use ensembl_mcp::EnsemblServer;
use lifesciences_core::testing::McpTestClient;
use lifesciences_core::{ErrorCode, McpServer};
use serde_json::json;

fn live() -> bool {
    std::env::var("LIFESCIENCES_LIVE").is_ok_and(|v| v == "1")
}

async fn client() -> McpTestClient {
    McpTestClient::connect(EnsemblServer::from_env(&lifesciences_core::Env::process()).unwrap())
        .await
}

#[tokio::test]
#[ignore = "live: needs the network; run with cargo xtask live"]
async fn live_search_brca1_in_human_lists_the_gene_first() {
    if !live() {
        return;
    }
    let client = client().await;
    let page = client
        .call_ok(
            "ensembl_search_genes",
            json!({"query": "BRCA1", "species": "human", "page_size": 5}),
        )
        .await;
    assert_eq!(page["items"][0]["id"], "ENSG00000012048");
    assert_eq!(page["items"][0]["score"], 1.0);
    assert!(
        page["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["species"] == "homo_sapiens"),
        "EBI Search's species filter holds: {page:#}"
    );
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network; run with cargo xtask live"]
async fn live_free_text_finds_several_genes() {
    if !live() {
        return;
    }
    let client = client().await;
    let page = client
        .call_ok(
            "ensembl_search_genes",
            json!({"query": "tumor protein", "page_size": 10}),
        )
        .await;
    assert!(page["items"].as_array().unwrap().len() >= 3, "{page:#}");
    assert!(page["pagination"]["total_count"].as_u64().unwrap_or(0) >= 3);
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network; run with cargo xtask live"]
async fn live_tp53_gene_transcript_and_unknown_id() {
    if !live() {
        return;
    }
    let client = client().await;
    let gene = client
        .call_ok(
            "ensembl_get_gene",
            json!({"ensembl_id": "ensg00000141510.17"}),
        )
        .await;
    assert_eq!(gene["id"], "ENSG00000141510");
    assert_eq!(gene["symbol"], "TP53");
    assert_eq!(gene["cross_references"]["hgnc"], "HGNC:11998");
    assert_eq!(gene["cross_references"]["entrez"], "7157");
    assert!(
        gene["cross_references"]["uniprot"]
            .as_array()
            .is_some_and(|u| u.iter().any(|a| a == "P04637")),
        "{gene:#}"
    );
    let transcript_id = gene["canonical_transcript"].as_str().unwrap().to_owned();
    let t = client
        .call_ok(
            "ensembl_get_transcript",
            json!({"transcript_id": transcript_id}),
        )
        .await;
    assert_eq!(t["parent_gene"], "ENSG00000141510");
    assert_eq!(t["is_canonical"], true);
    let e = client
        .call_err("ensembl_get_gene", json!({"ensembl_id": "ENSG99999999999"}))
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network; run with cargo xtask live"]
async fn live_species_names_resolve_and_unknown_ones_are_refused() {
    if !live() {
        return;
    }
    let client = client().await;
    let page = client
        .call_ok(
            "ensembl_search_genes",
            json!({"query": "Trp53", "species": "mouse", "page_size": 3}),
        )
        .await;
    assert_eq!(page["items"][0]["species"], "mus_musculus", "{page:#}");
    let e = client
        .call_err(
            "ensembl_search_genes",
            json!({"query": "TP53", "species": "klingon"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.recovery_hint.contains("homo_sapiens"),
        "{}",
        e.recovery_hint
    );
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network; run with cargo xtask live"]
async fn live_vep_post_forms_answer_each_variant_and_fail_one_alone() {
    if !live() {
        return;
    }
    let client = client().await;
    // The POST forms (no production recording): an rsID, RefSeq and genomic HGVS, a VCF
    // line, and one unknown rsID that must fail alone.
    let answer = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": ["rs699", "NM_005912.3:c.253A>G", "17:g.7676154G>A",
                                "17:7676154:G:C", "rs1057517146999"]}),
        )
        .await;
    let items = answer["variants"].as_array().unwrap();
    for item in &items[..4] {
        assert!(item.get("error").is_none(), "{item:#}");
        assert!(item["most_severe_consequence"].is_string(), "{item:#}");
    }
    assert!(items[4]["error"].is_string(), "{:#}", items[4]);
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network; run with cargo xtask live"]
async fn live_spdi_and_refseq_hgvs_come_back_on_ensembl_genes() {
    if !live() {
        return;
    }
    let client = client().await;
    // SPDI as genomic HGVS (0-based position + 1), with the places the recorded region
    // answers give for the same variants; and RefSeq HGVS without refseq=1.
    let answer = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": ["NC_000017.11:7676153:G:C", "NC_000001.11:156115215:GCC:",
                                "NC_000001.11:156114920::A", "NC_000016.10:89284128:6:C",
                                "NM_005912.3:c.253A>G"],
                   "all_transcripts": true}),
        )
        .await;
    let items = answer["variants"].as_array().unwrap();
    let places = [
        ("17:7676154-7676154", "G/C"),
        ("1:156115216-156115218", "GCC/-"),
        ("1:156114921-156114920", "-/A"),
        ("16:89284130-89284134", "TTTTT/-"),
    ];
    for (item, (location, alleles)) in items.iter().zip(places) {
        assert_eq!(item["location"], location, "{item:#}");
        assert_eq!(item["allele_string"], alleles, "{item:#}");
    }
    assert!(
        items[0]["known_variants"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k["id"] == "rs1042522"),
        "{:#}",
        items[0]
    );
    assert_eq!(
        items[4]["location"], "18:60372097-60372097",
        "{:#}",
        items[4]
    );
    for item in items {
        for t in item["transcripts"].as_array().into_iter().flatten() {
            assert!(t["gene_id"].as_str().unwrap().starts_with("ENSG"), "{t:#}");
            assert!(
                t["transcript_id"].as_str().unwrap().starts_with("ENST"),
                "{t:#}"
            );
        }
    }
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network; run with cargo xtask live"]
async fn live_variant_sequence_homologs_region_and_map_have_the_fields_the_fixtures_assume() {
    if !live() {
        return;
    }
    let client = client().await;
    let v = client
        .call_ok(
            "ensembl_get_variant",
            json!({"id": "rs699", "phenotypes": true}),
        )
        .await;
    assert!(v["locations"][0]["location"].is_string(), "{v:#}");
    assert!(v["minor_allele_freq"].is_number(), "{v:#}");

    let s = client
        .call_ok(
            "ensembl_get_sequence",
            json!({"ids": ["ENSP00000269305"], "start": 1, "end": 10}),
        )
        .await;
    assert_eq!(s["sequences"][0]["sequence"], "MEEPQSDPSV", "{s:#}");

    let h = client
        .call_ok(
            "ensembl_get_homologs",
            json!({"gene": "TP53", "target_species": ["mouse"]}),
        )
        .await;
    assert_eq!(h["homologs"][0]["gene_id"], "ENSMUSG00000059552", "{h:#}");
    assert!(h["homologs"][0]["identity"].is_number(), "{h:#}");

    let r = client
        .call_ok(
            "ensembl_query_region",
            json!({"region": "17:7675000-7677000", "features": ["gene", "variation"]}),
        )
        .await;
    assert!(r["counts"][1]["count"].as_u64().unwrap() > 0, "{r:#}");

    let m = client
        .call_ok(
            "ensembl_map_coordinates",
            json!({"region": "17:7577121-7577121", "from_assembly": "GRCh37"}),
        )
        .await;
    assert_eq!(m["mappings"][0]["assembly"], "GRCh38", "{m:#}");
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network; run with cargo xtask live"]
async fn live_other_databases_ids_find_tp53() {
    if !live() {
        return;
    }
    let client = client().await;
    for query in ["P04637", "NM_000546.6", "HGNC:11998", "7157", "OMIM:191170"] {
        let page = client
            .call_ok("ensembl_search_genes", json!({"query": query}))
            .await;
        assert_eq!(
            page["items"][0]["id"], "ENSG00000141510",
            "{query}: {page:#}"
        );
    }
    let batch = client
        .call_ok(
            "ensembl_get_gene",
            json!({"ensembl_ids": ["ENSG00000141510", "ENSG00000012048"]}),
        )
        .await;
    assert_eq!(batch["genes"].as_array().unwrap().len(), 2, "{batch:#}");
    client.close().await;
}
