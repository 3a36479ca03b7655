//! `ensembl_predict_variant_effect` as an agent sees it: variants written every common
//! way answered in one call, one request per form (POST batches for rsIDs, HGVS and
//! `chr:pos:ref:alt`; a GET for a place and allele), compact to canonical and MANE
//! transcripts, and a variant VEP cannot read reported in its item.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, ResponseTemplate};

use crate::support::{Upstream, mount_vep};

fn body(request: &wiremock::Request) -> Value {
    serde_json::from_slice(&request.body).unwrap()
}

#[tokio::test]
async fn what_five_variants_written_five_ways_do_takes_one_request_per_form() {
    let upstream = Upstream::empty().await;
    mount_vep(&upstream).await;
    let client = upstream.client().await;

    let answer = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": ["rs186950277", "NM_005912.3:c.253A>G", "chrX:31180437:C:T",
                                "16:89279135-89279135/C", "TP53 R175H"]}),
        )
        .await;

    let items = answer["variants"].as_array().unwrap();
    assert_eq!(items.len(), 5);
    assert_eq!(answer["failed"], 1);
    // rsID: an intergenic test-database variant with its minor allele frequency.
    assert_eq!(items[0]["most_severe_consequence"], "intergenic_variant");
    assert_eq!(
        items[0]["known_variants"][0],
        json!({"id": "rs186950277", "minor_allele": "A", "minor_allele_freq": 0.0014})
    );
    // RefSeq HGVS: MC4R S85G, deleterious and probably damaging.
    let mc4r = &items[1]["transcripts"][0];
    assert_eq!(mc4r["transcript_id"], "NM_005912.3");
    assert_eq!(mc4r["gene_symbol"], "MC4R");
    assert_eq!(mc4r["protein_change"], "S85G");
    assert_eq!(mc4r["sift"], "deleterious (0.01)");
    assert_eq!(mc4r["polyphen"], "probably_damaging (0.975)");
    // chr:pos:ref:alt: DMD, compact to the one canonical MANE transcript of 25.
    let dmd = &items[2];
    assert_eq!(dmd["location"], "X:31180437-31180437");
    assert_eq!(dmd["transcript_count"], 25);
    assert_eq!(dmd["transcripts"].as_array().unwrap().len(), 1);
    assert_eq!(dmd["transcripts"][0]["canonical"], true);
    assert_eq!(dmd["transcripts"][0]["mane_select"], "ENST00000357033.9");
    assert_eq!(dmd["transcripts"][0]["exon"], "69/79");
    let clinvar = dmd["known_variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["id"] == "rs104894788")
        .unwrap();
    assert_eq!(clinvar["clinical_significance"], json!(["pathogenic"]));
    // Place and allele: ANKRD11 stop gained.
    assert_eq!(items[3]["most_severe_consequence"], "stop_gained");
    assert_eq!(items[3]["transcripts"][0]["protein_change"], "Y2469*");
    // Not a variant form: said in its item, nothing sent for it.
    assert_eq!(items[4]["input"], "TP53 R175H");
    assert!(items[4]["error"].as_str().unwrap().contains("rsID"));
    assert!(answer["note"].as_str().unwrap().contains("all_transcripts"));

    // Four requests: three POST batches and one GET.
    let requests = upstream.requests().await;
    assert_eq!(requests.len(), 4);
    let hgvs = &upstream.requests_to("/ensembl/vep/homo_sapiens/hgvs").await[0];
    assert_eq!(
        body(hgvs),
        json!({"hgvs_notations": ["NM_005912.3:c.253A>G"]})
    );
    assert!(hgvs.url.query().unwrap().contains("refseq=1"));
    let ids = &upstream.requests_to("/ensembl/vep/homo_sapiens/id").await[0];
    assert_eq!(body(ids), json!({"ids": ["rs186950277"]}));
    assert!(!ids.url.query().unwrap().contains("refseq"));
    let region = &upstream
        .requests_to("/ensembl/vep/homo_sapiens/region")
        .await[0];
    assert_eq!(
        body(region),
        json!({"variants": ["X 31180437 . C T . . ."]})
    );
    client.close().await;
}

#[tokio::test]
async fn two_spellings_of_one_variant_are_sent_once_and_share_the_answer() {
    let upstream = Upstream::empty().await;
    mount_vep(&upstream).await;
    let client = upstream.client().await;

    let answer = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": ["rs186950277", "RS186950277"]}),
        )
        .await;

    let items = answer["variants"].as_array().unwrap();
    assert_eq!(items[1]["input"], "RS186950277");
    assert_eq!(items[1]["most_severe_consequence"], "intergenic_variant");
    assert_eq!(answer["failed"], 0);
    let ids = &upstream.requests_to("/ensembl/vep/homo_sapiens/id").await[0];
    assert_eq!(body(ids), json!({"ids": ["rs186950277"]}));
    client.close().await;
}

#[tokio::test]
async fn every_transcript_on_request() {
    let upstream = Upstream::empty().await;
    mount_vep(&upstream).await;
    let client = upstream.client().await;

    let answer = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": "X:31180437:C:T", "all_transcripts": true}),
        )
        .await;

    assert_eq!(
        answer["variants"][0]["transcripts"]
            .as_array()
            .unwrap()
            .len(),
        25
    );
    assert!(answer.get("note").is_none());
    client.close().await;
}

#[tokio::test]
async fn a_variant_vep_leaves_out_of_a_batch_fails_alone() {
    let upstream = Upstream::empty().await;
    mount_vep(&upstream).await;
    let client = upstream.client().await;

    let answer = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": ["NM_005912.3:c.253A>G", "NM_005912.3:c.99999A>G"]}),
        )
        .await;

    let items = answer["variants"].as_array().unwrap();
    assert_eq!(items[0]["most_severe_consequence"], "missense_variant");
    assert_eq!(items[1]["input"], "NM_005912.3:c.99999A>G");
    assert!(
        items[1]["error"]
            .as_str()
            .unwrap()
            .contains("could not read")
    );
    assert_eq!(answer["failed"], 1);
    assert_eq!(upstream.requests().await.len(), 1, "one batch for both");
    client.close().await;
}

#[tokio::test]
async fn a_refused_place_is_reported_with_veps_words() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({
            "error": "Could not get a Slice object for 99:1-1"
        })))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let answer = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": ["99:1-1/A"]}),
        )
        .await;

    let error = answer["variants"][0]["error"].as_str().unwrap();
    assert!(error.contains("Could not get a Slice"), "{error}");
    client.close().await;
}

#[tokio::test]
async fn an_unknown_species_or_too_many_variants_is_invalid_input() {
    let upstream = Upstream::empty().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({
            "error": "Can not find internal name for species 'martian'"
        })))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let err = client
        .call_err(
            "ensembl_predict_variant_effect",
            json!({"variants": ["rs699"], "species": "martian"}),
        )
        .await;
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(err.message.contains("martian"), "{}", err.message);

    let many: Vec<String> = (0..201).map(|i| format!("rs{i}")).collect();
    let before = upstream.requests().await.len();
    let err = client
        .call_err("ensembl_predict_variant_effect", json!({"variants": many}))
        .await;
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(err.message.contains("201"), "{}", err.message);
    assert_eq!(upstream.requests().await.len(), before);
    client.close().await;
}

/// VEP as reported when a batch holds an rsID it does not know: the whole POST is
/// refused with that variant's warning (ensembl-rest issue 675); the others alone answer.
struct RefusesBatchesWith(&'static str);

impl wiremock::Respond for RefusesBatchesWith {
    fn respond(&self, request: &wiremock::Request) -> ResponseTemplate {
        let ids: Vec<String> = serde_json::from_slice::<Value>(&request.body).unwrap()["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
        if ids.iter().any(|id| id == self.0) {
            return ResponseTemplate::new(400)
                .set_body_json(json!({"error": format!("No variant found with ID '{}'", self.0)}));
        }
        let answers: Vec<Value> = ids
            .iter()
            .map(|id| json!({"input": id, "id": id, "most_severe_consequence": "intron_variant"}))
            .collect();
        ResponseTemplate::new(200).set_body_json(answers)
    }
}

#[tokio::test]
async fn one_unknown_rsid_that_fails_its_batch_is_split_out_and_fails_alone() {
    let upstream = Upstream::empty().await;
    Mock::given(method("POST"))
        .respond_with(RefusesBatchesWith("rs1057517146"))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let answer = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": ["rs1057517146", "rs75660264", "rs123"]}),
        )
        .await;

    let items = answer["variants"].as_array().unwrap();
    assert!(
        items[0]["error"]
            .as_str()
            .unwrap()
            .contains("No variant found")
    );
    assert_eq!(items[1]["most_severe_consequence"], "intron_variant");
    assert_eq!(items[2]["most_severe_consequence"], "intron_variant");
    assert_eq!(answer["failed"], 1);
    // The batch, then its halves: [rs1057517146] and [rs75660264, rs123].
    assert_eq!(upstream.requests().await.len(), 3);
    client.close().await;
}
