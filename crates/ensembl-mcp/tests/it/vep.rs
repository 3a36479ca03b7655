//! `ensembl_predict_variant_effect` as an agent sees it: variants written every common
//! way answered in one call, one request per form (POST batches for rsIDs, HGVS and SPDI,
//! and `chr:pos:ref:alt`; a GET for a place and allele), never with `refseq=1`, so every
//! gene is an Ensembl gene; SPDI read 0-based; compact to canonical and MANE transcripts;
//! and a variant VEP cannot read reported in its item.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

use crate::support::{Upstream, VepAnswers, fixture, mount_vep};

/// The VEP options every request carries, and nothing else (no `refseq`).
const VEP_FLAGS: [(&str, &str); 6] = [
    ("canonical", "1"),
    ("mane", "1"),
    ("hgvs", "1"),
    ("numbers", "1"),
    ("variant_class", "1"),
    ("protein", "1"),
];

fn query(request: &wiremock::Request) -> Vec<(String, String)> {
    request.url.query_pairs().into_owned().collect()
}

fn flags() -> Vec<(String, String)> {
    VEP_FLAGS
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

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
    // RefSeq HGVS: MC4R S85G, deleterious and probably damaging, on its Ensembl MANE
    // transcript.
    let mc4r = &items[1]["transcripts"][0];
    assert_eq!(mc4r["transcript_id"], "ENST00000299766.5");
    assert_eq!(mc4r["gene_id"], "ENSG00000166603");
    assert_eq!(mc4r["mane_select"], "NM_005912.3");
    assert_eq!(mc4r["gene_symbol"], "MC4R");
    assert_eq!(mc4r["protein_change"], "S85G");
    assert_eq!(mc4r["sift"], "deleterious (0.01)");
    assert_eq!(mc4r["polyphen"], "probably_damaging (0.975)");
    // chr:pos:ref:alt: DMD, compact to the one canonical MANE transcript of 25 (this
    // recorded answer is on RefSeq transcripts, whose MANE twin is the Ensembl one).
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
    assert_eq!(query(hgvs), flags());
    let ids = &upstream.requests_to("/ensembl/vep/homo_sapiens/id").await[0];
    assert_eq!(body(ids), json!({"ids": ["rs186950277"]}));
    assert_eq!(query(ids), flags());
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

/// `variants` as one string is split on commas and line breaks and each item trimmed, as
/// every list argument is; a list holding a number is refused in a sentence before any
/// request (it used to be serde's "did not match any variant of untagged enum" text).
#[tokio::test]
async fn variants_as_one_string_are_split_and_a_number_among_them_is_refused() {
    let upstream = Upstream::empty().await;
    mount_vep(&upstream).await;
    let client = upstream.client().await;

    let answer = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": " rs186950277 ,\r\nRS186950277\n"}),
        )
        .await;

    let inputs: Vec<&str> = answer["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["input"].as_str().unwrap())
        .collect();
    assert_eq!(inputs, ["rs186950277", "RS186950277"]);
    let ids = &upstream.requests_to("/ensembl/vep/homo_sapiens/id").await[0];
    assert_eq!(body(ids), json!({"ids": ["rs186950277"]}));

    let before = upstream.requests().await.len();
    let err = client
        .call_err(
            "ensembl_predict_variant_effect",
            json!({"variants": ["rs699", 699]}),
        )
        .await;
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert_eq!(
        err.message,
        "Argument 'variants' has the wrong type: expected a list of strings, or one string of \
         comma-separated items, got a list whose item 2 is the number 699."
    );
    assert_eq!(upstream.requests().await.len(), before);
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

#[tokio::test]
async fn a_mixed_batch_is_one_post_per_form_without_refseq_and_names_ensembl_genes_only() {
    // RefSeq and Ensembl HGVS go in the same POST: VEP finds NM_ transcripts without
    // refseq=1, which would only switch the answers to RefSeq transcripts and NCBI gene
    // IDs (the recorded answer this trap serves, should such a request ever come).
    let upstream = Upstream::empty().await;
    let m = &upstream.mock;
    Mock::given(method("POST"))
        .and(query_param("refseq", "1"))
        .respond_with(fixture("vep_hgvs__NM_005912.3_c.253A-G__refseq=1.json"))
        .with_priority(1)
        .mount(m)
        .await;
    Mock::given(method("POST"))
        .and(path("/ensembl/vep/homo_sapiens/hgvs"))
        .respond_with(VepAnswers::from("vep_hgvs__ensembl_transcripts.json"))
        .mount(m)
        .await;
    Mock::given(method("POST"))
        .and(path("/ensembl/vep/homo_sapiens/region"))
        .respond_with(fixture(
            "vep_region__X_31180437_C_T__ensembl_transcripts.json",
        ))
        .mount(m)
        .await;
    Mock::given(method("POST"))
        .and(path("/ensembl/vep/homo_sapiens/id"))
        .respond_with(fixture("vep_id__rs186950277__testdb.json"))
        .mount(m)
        .await;
    let client = upstream.client().await;

    let answer = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": ["rs186950277", "X:31180437:C:T", "NM_005912.3:c.253A>G",
                                "ENST00000269305.9:c.215C>G"],
                   "all_transcripts": true}),
        )
        .await;

    assert_eq!(answer["failed"], 0, "{answer:#}");
    let transcripts: Vec<&Value> = answer["variants"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|v| v["transcripts"].as_array().into_iter().flatten())
        .collect();
    // DMD, MC4R and TP53: one Ensembl gene and transcript each.
    let genes: Vec<&str> = transcripts
        .iter()
        .map(|t| t["gene_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        genes,
        ["ENSG00000198947", "ENSG00000166603", "ENSG00000141510"]
    );
    assert!(
        transcripts
            .iter()
            .all(|t| t["transcript_id"].as_str().unwrap().starts_with("ENST")),
        "{transcripts:#?}"
    );
    assert_eq!(
        answer["variants"][2]["transcripts"][0]["protein_change"],
        "S85G"
    );
    assert_eq!(
        answer["variants"][3]["transcripts"][0]["protein_change"],
        "P72R"
    );

    // One POST per form; the HGVS one holds both notations; no refseq anywhere.
    let requests = upstream.requests().await;
    assert_eq!(requests.len(), 3);
    let hgvs = upstream.requests_to("/ensembl/vep/homo_sapiens/hgvs").await;
    assert_eq!(hgvs.len(), 1);
    assert_eq!(
        body(&hgvs[0]),
        json!({"hgvs_notations": ["NM_005912.3:c.253A>G", "ENST00000269305.9:c.215C>G"]})
    );
    assert_eq!(upstream.count("/ensembl/vep/homo_sapiens/region").await, 1);
    assert_eq!(upstream.count("/ensembl/vep/homo_sapiens/id").await, 1);
    for request in &requests {
        assert_eq!(query(request), flags(), "{}", request.url);
    }
    client.close().await;
}

#[tokio::test]
async fn an_igvf_spdi_is_read_0_based_and_asked_of_vep_as_its_1_based_base() {
    // rs1042522 (TP53 P72R) as the IGVF Catalog keys it: 7,676,153 bases of chromosome
    // 17 come before the G, so the G is 17:7676154.
    let upstream = Upstream::empty().await;
    mount_vep(&upstream).await;
    let client = upstream.client().await;

    let answer = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": "NC_000017.11:7676153:G:C"}),
        )
        .await;

    let requests = upstream.requests().await;
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].url.path(), "/ensembl/vep/homo_sapiens/hgvs");
    assert_eq!(
        body(&requests[0]),
        json!({"hgvs_notations": ["17:g.7676154G>C"]})
    );
    assert_eq!(query(&requests[0]), flags());
    let item = &answer["variants"][0];
    assert_eq!(item["input"], "NC_000017.11:7676153:G:C");
    assert_eq!(item["location"], "17:7676154-7676154");
    assert_eq!(item["allele_string"], "G/C");
    assert_eq!(item["known_variants"][0]["id"], "rs1042522");
    let tp53 = &item["transcripts"][0];
    assert_eq!(tp53["transcript_id"], "ENST00000269305.9");
    assert_eq!(tp53["gene_id"], "ENSG00000141510");
    assert_eq!(tp53["protein_change"], "P72R");
    assert_eq!(tp53["hgvsp"], "ENSP00000269305.4:p.Pro72Arg");
    client.close().await;
}

#[tokio::test]
async fn every_kind_of_spdi_edit_goes_in_one_hgvs_post_at_its_exact_place() {
    let upstream = Upstream::empty().await;
    mount_vep(&upstream).await;
    let client = upstream.client().await;

    // (SPDI, the HGVS VEP is asked, the place and alleles it answers)
    let cases = [
        // SNV
        (
            "NC_000017.11:7676153:G:C",
            "17:g.7676154G>C",
            "17:7676154-7676154",
            "G/C",
        ),
        // MNV: two bases substituted
        (
            "NC_000017.11:7676153:GG:CC",
            "17:g.7676154_7676155delinsCC",
            "17:7676154-7676155",
            "GG/CC",
        ),
        // deletion, bases given
        (
            "NC_000001.11:156115215:GCC:",
            "1:g.156115216_156115218del",
            "1:156115216-156115218",
            "GCC/-",
        ),
        // insertion (nothing deleted): between the two flanking bases
        (
            "NC_000001.11:156114920::A",
            "1:g.156114920_156114921insA",
            "1:156114921-156114920",
            "-/A",
        ),
        // delins
        (
            "NC_000017.11:7676153:G:TA",
            "17:g.7676154delinsTA",
            "17:7676154-7676154",
            "G/TA",
        ),
        // deletion given as a length: VEP reads the six reference bases (CTTTTT) and
        // trims the shared C
        (
            "NC_000016.10:89284128:6:C",
            "16:g.89284129_89284134delinsC",
            "16:89284130-89284134",
            "TTTTT/-",
        ),
        // rs1042522 with its deletion as a length: the same base and change as the SNV
        (
            "NC_000017.11:7676153:1:C",
            "17:g.7676154delinsC",
            "17:7676154-7676154",
            "G/C",
        ),
    ];
    let spdis: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let answer = client
        .call_ok("ensembl_predict_variant_effect", json!({"variants": spdis}))
        .await;

    let requests = upstream.requests().await;
    assert_eq!(requests.len(), 1, "one POST for all");
    assert_eq!(requests[0].url.path(), "/ensembl/vep/homo_sapiens/hgvs");
    let sent: Vec<&str> = cases.iter().map(|c| c.1).collect();
    assert_eq!(body(&requests[0]), json!({"hgvs_notations": sent}));
    assert_eq!(query(&requests[0]), flags());
    assert_eq!(answer["failed"], 0, "{answer:#}");
    for (item, (spdi, _, location, alleles)) in
        answer["variants"].as_array().unwrap().iter().zip(cases)
    {
        assert_eq!(item["input"], spdi);
        assert_eq!(item["location"], location, "{spdi}");
        assert_eq!(item["allele_string"], alleles, "{spdi}");
    }
    let items = answer["variants"].as_array().unwrap();
    assert_eq!(items[1]["transcripts"][0]["protein_change"], "P72G");
    assert_eq!(items[2]["most_severe_consequence"], "inframe_deletion");
    assert_eq!(items[3]["variant_class"], "insertion");
    assert_eq!(items[4]["most_severe_consequence"], "frameshift_variant");
    assert_eq!(items[5]["variant_class"], "deletion");
    client.close().await;
}

#[tokio::test]
async fn an_spdi_off_grch38_is_refused_with_what_to_do_and_never_sent() {
    let upstream = Upstream::empty().await;
    mount_vep(&upstream).await;
    let client = upstream.client().await;

    // With a good variant: the others fail in their items, only the good one is sent.
    let answer = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": ["NC_000017.10:7579471:G:C", "NT_187361.1:100:A:G",
                                "NC_000017.11:7676153:G:C"]}),
        )
        .await;
    let items = answer["variants"].as_array().unwrap();
    assert_eq!(answer["failed"], 2);
    let grch37 = items[0]["error"].as_str().unwrap();
    assert!(grch37.contains("NC_000017.11"), "{grch37}");
    assert!(grch37.contains("ensembl_map_coordinates"), "{grch37}");
    let contig = items[1]["error"].as_str().unwrap();
    assert!(contig.contains("contig"), "{contig}");
    assert!(contig.contains("position 101"), "{contig}");
    assert_eq!(items[2]["location"], "17:7676154-7676154");
    let requests = upstream.requests().await;
    assert_eq!(requests.len(), 1);
    assert_eq!(
        body(&requests[0]),
        json!({"hgvs_notations": ["17:g.7676154G>C"]})
    );

    // Alone: the call fails, nothing is sent.
    let err = client
        .call_err(
            "ensembl_predict_variant_effect",
            json!({"variants": ["NC_000017.10:7579471:G:C"]}),
        )
        .await;
    assert_eq!(err.code, ErrorCode::UnresolvedEntity);
    assert!(err.recovery_hint.contains("ensembl_map_coordinates"));
    let err = client
        .call_err(
            "ensembl_predict_variant_effect",
            json!({"variants": ["NC_000017.11:7676153:G:C"], "species": "mouse"}),
        )
        .await;
    assert_eq!(err.code, ErrorCode::UnresolvedEntity);
    assert_eq!(upstream.requests().await.len(), 1);
    client.close().await;
}

/// When VEP marks no transcript canonical or MANE, the variant lists the transcripts with
/// its most severe consequence, and the note says so instead of claiming canonical and
/// MANE ones: a recorded SURF2 answer without those flags (6 of its 20 transcripts kept,
/// 2 of them with the in-frame deletion) beside the DMD variant, one canonical MANE
/// transcript of 25.
#[tokio::test]
async fn the_note_says_which_transcripts_each_variant_lists() {
    let upstream = Upstream::empty().await;
    Mock::given(method("POST"))
        .and(path("/ensembl/vep/homo_sapiens/hgvs"))
        .respond_with(VepAnswers::from(
            "vep_hgvs__NM_017503.5_c.334_336del__refseq=1.json",
        ))
        .mount(&upstream.mock)
        .await;
    Mock::given(method("POST"))
        .and(path("/ensembl/vep/homo_sapiens/region"))
        .respond_with(fixture("vep_region__X_31180437_C_T.json"))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let answer = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": ["NM_017503.5:c.334_336del", "X:31180437:C:T"]}),
        )
        .await;

    let surf2 = &answer["variants"][0];
    assert_eq!(surf2["transcript_count"], 6);
    let listed: Vec<(&str, bool)> = surf2["transcripts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["transcript_id"].as_str().unwrap(),
                t["consequences"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|c| c == "inframe_deletion"),
            )
        })
        .collect();
    assert_eq!(listed, [("NM_001278928.2", true), ("NM_017503.5", true)]);
    assert_eq!(answer["variants"][1]["transcripts"][0]["canonical"], true);
    let note = answer["note"].as_str().unwrap();
    assert_eq!(
        note,
        "Canonical and MANE transcripts only. VEP marks no transcript canonical or MANE for \
         NM_017503.5:c.334_336del: listed are those with the variant's most severe \
         consequence, at most 3; pass all_transcripts: true for every one."
    );

    // Alone, the variant without flags is not said to show canonical and MANE ones.
    let alone = client
        .call_ok(
            "ensembl_predict_variant_effect",
            json!({"variants": ["NM_017503.5:c.334_336del"]}),
        )
        .await;
    let note = alone["note"].as_str().unwrap();
    assert!(
        !note.contains("Canonical and MANE transcripts only"),
        "{note}"
    );
    assert!(
        note.starts_with("VEP marks no transcript canonical or MANE"),
        "{note}"
    );
    client.close().await;
}
