//! Ensembl's refusals (HTTP 400 with `{"error": "…"}`) as an agent sees them: a species
//! Ensembl does not know is the caller's error on every tool that sends one; a region or
//! an assembly pair Ensembl refuses is said in the tool's words; a 400 no tool expects on
//! a named record stays an upstream error.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::matchers::any;
use wiremock::{Mock, ResponseTemplate};

use crate::support::Upstream;

/// Every request answered with a 400 carrying `error`.
async fn refusing(error: &str) -> Upstream {
    let upstream = Upstream::empty().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({ "error": error })))
        .mount(&upstream.mock)
        .await;
    upstream
}

/// One call of each tool that puts a species in its path, for the species `martian`.
fn calls_for_martians() -> Vec<(&'static str, Value)> {
    vec![
        (
            "ensembl_query_region",
            json!({"region": "17:7661779-7687538", "species": "martian"}),
        ),
        (
            "ensembl_get_sequence",
            json!({"region": "X:1000000-1000100", "species": "martian"}),
        ),
        (
            "ensembl_map_coordinates",
            json!({"region": "17:7577121-7577121", "from_assembly": "GRCh37",
                   "species": "martian"}),
        ),
        (
            "ensembl_get_variant",
            json!({"id": "rs699", "species": "martian"}),
        ),
        (
            "ensembl_get_homologs",
            json!({"gene": "TP53", "species": "martian"}),
        ),
        (
            "ensembl_predict_variant_effect",
            json!({"variants": ["16:89279135-89279135/C"], "species": "martian"}),
        ),
    ]
}

#[tokio::test]
async fn an_unknown_species_is_invalid_input_on_every_tool_that_sends_one() {
    // The words of the Ensembl core API's registry (`Bio::EnsEMBL::Registry`).
    let upstream = refusing("Can not find internal name for species 'martian'").await;
    let client = upstream.client().await;

    let calls = calls_for_martians();
    for (tool, args) in &calls {
        let err = client.call_err(tool, args.clone()).await;
        assert_eq!(err.code, ErrorCode::InvalidInput, "{tool}");
        assert_eq!(
            err.message, "Ensembl does not know the species 'martian'.",
            "{tool}"
        );
        assert!(
            err.recovery_hint.contains("'homo_sapiens'"),
            "{tool}: {}",
            err.recovery_hint
        );
    }
    // One request each: a refusal is not retried.
    let sent = upstream.requests().await;
    assert_eq!(sent.len(), calls.len());
    assert!(sent.iter().all(|r| r.url.path().contains("/martian/")));
    client.close().await;
}

#[tokio::test]
async fn a_refused_region_is_not_found_and_a_refused_assembly_pair_invalid() {
    // Constructed: Ensembl's words for a chromosome it does not have; the tools say it in
    // their own.
    let upstream = refusing("Could not get a Slice object for 99:1-1000").await;
    let client = upstream.client().await;

    let err = client
        .call_err("ensembl_query_region", json!({"region": "99:1-1000"}))
        .await;
    assert_eq!(err.code, ErrorCode::EntityNotFound);
    assert_eq!(
        err.message,
        "Ensembl has no region 99:1-1000 in homo_sapiens."
    );
    assert!(err.recovery_hint.contains("ensembl_map_coordinates"));

    let err = client
        .call_err("ensembl_get_sequence", json!({"region": "99:1-1000"}))
        .await;
    assert_eq!(err.code, ErrorCode::EntityNotFound);
    assert_eq!(
        err.message,
        "Ensembl has no sequence for 99:1-1000 in homo_sapiens."
    );

    let err = client
        .call_err(
            "ensembl_map_coordinates",
            json!({"region": "99:1-1000", "from_assembly": "GRCh36"}),
        )
        .await;
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert_eq!(
        err.message,
        "Ensembl cannot map 99:1-1000:1 from GRCh36 to GRCh38 in homo_sapiens."
    );
    assert!(err.recovery_hint.contains("GRCh37"));
    assert_eq!(upstream.requests().await.len(), 3);
    client.close().await;
}

#[tokio::test]
async fn a_400_no_tool_expects_on_a_named_record_stays_an_upstream_error() {
    // Ensembl's refusal of an option (source: `Model/Lookup.pm`), neither an unknown
    // record nor an unknown species.
    let upstream = refusing("Expand option only available for Genes and Transcripts").await;
    let client = upstream.client().await;

    for (tool, args) in [
        ("ensembl_get_variant", json!({"id": "rs699"})),
        ("ensembl_get_homologs", json!({"gene": "ENSG00000141510"})),
        ("ensembl_get_gene", json!({"ensembl_id": "ENSG00000141510"})),
    ] {
        let err = client.call_err(tool, args).await;
        assert_eq!(err.code, ErrorCode::UpstreamError, "{tool}");
    }
    client.close().await;
}
