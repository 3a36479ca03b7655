//! Unit tests of provenance: what a call's record says, how it stays small, and how it
//! joins a result.

use std::time::Duration;

use super::*;
use crate::config::Licence;

/// Sources as their clients describe them: a name, and a licence and citation or none.
static ENSEMBL: Upstream = Upstream {
    licence: Some(Licence {
        spdx: "LicenseRef-Ensembl",
        url: "https://www.ensembl.org/info/about/legal/disclaimer.html",
    }),
    cite: Some("10.1093/nar/gkae1071"),
    ..Upstream::new("Ensembl", "ENSEMBL", "https://rest.ensembl.org")
};
static CHEMBL: Upstream = Upstream {
    licence: Some(Licence {
        spdx: "CC-BY-SA-3.0",
        url: "https://chembl.gitbook.io/chembl-interface-documentation/about",
    }),
    cite: Some("10.1093/nar/gkad1004"),
    ..Upstream::new("ChEMBL", "CHEMBL", "https://www.ebi.ac.uk/chembl/api/data")
};
static STRING: Upstream = Upstream {
    licence: Some(Licence {
        spdx: "CC-BY-4.0",
        url: "https://string-db.org/cgi/access",
    }),
    cite: Some("10.1093/nar/gkae1113"),
    ..Upstream::new("STRING", "STRING", "https://string-db.org/api")
};
/// A source that states neither.
static PLAIN: Upstream = Upstream::new("Plain", "PLAIN", "https://plain.example.org");

struct Known(&'static str);

impl ReleaseSource for Known {
    fn release_at(&self, _at: SystemTime) -> Option<Arc<str>> {
        Some(Arc::from(self.0))
    }
}

struct Unknown;

impl ReleaseSource for Unknown {
    fn release_at(&self, _at: SystemTime) -> Option<Arc<str>> {
        None
    }
}

fn get(url: &str) -> Asked {
    Asked {
        method: "GET".into(),
        url: url.into(),
        body: None,
    }
}

fn post(url: &str, body: &str) -> Asked {
    Asked {
        method: "POST".into(),
        url: url.into(),
        body: Some(Bytes::from(body.to_owned())),
    }
}

#[test]
fn times_are_utc_to_the_millisecond() {
    let t = SystemTime::UNIX_EPOCH + Duration::from_micros(1_764_153_600_900_700);
    assert_eq!(rfc3339(t), "2025-11-26T10:40:00.900Z");
}

#[test]
fn a_get_is_its_url_and_a_post_carries_its_body_in_full_or_its_digest() {
    assert_eq!(
        get("https://x.org/a?b=1").brief(),
        ("https://x.org/a?b=1".to_owned(), false)
    );
    assert_eq!(
        post("https://x.org/vep", r#"{"ids":["rs1"]}"#).brief(),
        (
            r#"POST https://x.org/vep {"ids":["rs1"]}"#.to_owned(),
            false
        )
    );
    // Longer than 200 characters: named by length and digest, never cut.
    let long = "identifiers=".to_owned() + &"P04637%0D".repeat(300);
    let asked = post("https://string-db.org/api/json/enrichment", &long);
    let (brief, short) = asked.brief();
    assert!(short);
    assert_eq!(
        brief,
        format!(
            "POST https://string-db.org/api/json/enrichment (body {} bytes, sha256 {})",
            long.len(),
            sha256(long.as_bytes())
        )
    );
    assert_eq!(
        asked.full(),
        format!("POST https://string-db.org/api/json/enrichment {long}")
    );
    // A long query is named the same way.
    let url = format!(
        "https://c.org/target.json?target_chembl_id__in={}",
        "CHEMBL1,".repeat(40)
    );
    let (brief, short) = get(&url).brief();
    assert!(short);
    let query = url.split_once('?').unwrap().1;
    assert_eq!(
        brief,
        format!(
            "GET https://c.org/target.json (query {} bytes, sha256 {})",
            query.len(),
            sha256(query.as_bytes())
        )
    );
}

#[test]
fn answers_are_grouped_by_source_once_each_with_the_oldest_time_and_their_release() {
    let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_764_153_600);
    let later = t0 + Duration::from_secs(5);
    let release = || -> Arc<dyn ReleaseSource> { Arc::new(Unknown) };
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let ((), recorder) = rt.block_on(scope(async {
        let a = asking(&ENSEMBL, release, || get("https://e/a"));
        let chembl = asking(
            &CHEMBL,
            || Arc::new(Known("ChEMBL_35")),
            || get("https://c/m"),
        );
        let b = asking(&ENSEMBL, release, || get("https://e/b"));
        // Asked, never answered (it failed): not named.
        let _failed = asking(&ENSEMBL, release, || get("https://e/gone"));
        // Answered in another order than asked; a from the cache, first sent at t0 under
        // release 114, b under 115.
        answered(b, later, Origin::Upstream, Some(Arc::from("115")));
        answered(chembl, later, Origin::Upstream, None);
        answered(a, t0, Origin::Cache, Some(Arc::from("114")));
        // Asked and read again in the same call: the first read stands.
        let again = asking(&ENSEMBL, release, || get("https://e/a"));
        answered(again, later, Origin::Upstream, None);
    }));
    let (provenance, full) = recorder.provenance();
    assert!(full.is_none(), "nothing was summarised");
    assert_eq!(
        serde_json::to_value(&provenance).unwrap(),
        serde_json::json!({"sources": [
            {"database": "Ensembl", "release": "114, 115",
             "licence": "LicenseRef-Ensembl", "cite": "doi:10.1093/nar/gkae1071",
             "requests": ["https://e/a", "https://e/b"],
             "retrieved_at": "2025-11-26T10:40:00.000Z", "cached": true},
            {"database": "ChEMBL", "release": "ChEMBL_35",
             "licence": "CC-BY-SA-3.0", "cite": "doi:10.1093/nar/gkad1004",
             "requests": ["https://c/m"],
             "retrieved_at": "2025-11-26T10:40:05.000Z"}
        ]})
    );
}

#[test]
fn many_requests_are_summarised_within_a_kilobyte_and_the_full_record_keeps_them_all() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let long = "identifiers=".to_owned() + &"P04637%0D".repeat(250);
    let ((), recorder) = rt.block_on(scope(async {
        for i in 0..40 {
            let slot = asking(&ENSEMBL, || Arc::new(Unknown), || {
                get(&format!("https://rest.ensembl.org/lookup/id/ENSG{i:011}?content-type=application/json&expand=1"))
            });
            answered(slot, SystemTime::now(), Origin::Upstream, None);
        }
        for _ in 0..2 {
            let slot = asking(&STRING, || Arc::new(Known("12.0")), || {
                post("https://string-db.org/api/json/enrichment", &long)
            });
            answered(slot, SystemTime::now(), Origin::Upstream, None);
        }
        let slot = asking(&STRING, || Arc::new(Known("12.0")), || {
            post("https://string-db.org/api/json/get_string_ids", &format!("{long}&x=1"))
        });
        answered(slot, SystemTime::now(), Origin::Upstream, None);
    }));
    let (provenance, full) = recorder.provenance();
    let size = serde_json::to_vec(&provenance).unwrap().len();
    assert!(size <= MAX_BYTES, "{size} bytes: {provenance:#?}");
    let ensembl = &provenance.sources[0];
    assert_eq!(ensembl.requests_total, Some(40));
    assert!(!ensembl.requests.is_empty() && ensembl.requests.len() < 40);
    assert!(
        ensembl.requests[0].ends_with("ENSG00000000000?content-type=application/json&expand=1")
    );
    // The same POST asked twice is one request; each long one named by its digest.
    assert_eq!(provenance.sources[1].requests.len(), 2);
    assert!(
        provenance.sources[1]
            .requests
            .iter()
            .all(|r| r.contains("sha256 "))
    );
    let (id, full) = full.expect("a full record");
    assert_eq!(
        provenance.full.as_deref(),
        Some(format!("provenance://{id}").as_str())
    );
    assert_eq!(full.sources[0].requests.len(), 40);
    assert_eq!(
        full.sources[1].requests[0],
        format!("POST https://string-db.org/api/json/enrichment {long}")
    );
    assert!(full.full.is_none() && full.sources[0].requests_total.is_none());
}

#[test]
fn a_source_that_states_no_licence_or_citation_is_named_without_them() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let ((), recorder) = rt.block_on(scope(async {
        let slot = asking(&PLAIN, || Arc::new(Unknown), || get("https://plain/a"));
        answered(slot, SystemTime::UNIX_EPOCH, Origin::Upstream, None);
    }));
    let value = serde_json::to_value(recorder.provenance().0).unwrap();
    assert_eq!(
        value["sources"][0],
        serde_json::json!({"database": "Plain", "requests": ["https://plain/a"],
                           "retrieved_at": "1970-01-01T00:00:00.000Z"})
    );
}

/// The longest licence and citation a source of this workspace states, for budgets.
static WORDY: Upstream = Upstream {
    licence: Some(Licence {
        spdx: "LicenseRef-EMBL-EBI",
        url: "https://www.ebi.ac.uk/about/terms-of-use",
    }),
    cite: Some("10.1186/1758-2946-5-3"),
    ..Upstream::new("IGVF Catalog", "WORDY", "https://wordy.example.org")
};

#[test]
fn an_answer_from_the_most_databases_stays_within_a_kilobyte_with_every_licence_and_citation() {
    // Six databases, the most one call reads (lifesciences_map_ids: STRING, Ensembl, EBI
    // Search, ChEMBL, UniChem, the IGVF Catalog), each named at its longest: its release
    // (for the three that name one), answers from the cache, many requests, each near 200
    // characters.
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let sources: [&'static Upstream; 6] = [&STRING, &ENSEMBL, &CHEMBL, &WORDY, &WORDY, &WORDY];
    let names = [
        "STRING",
        "Ensembl",
        "ChEMBL",
        "EBI Search",
        "UniChem",
        "IGVF Catalog",
    ];
    let leaked: Vec<&'static Upstream> = sources
        .iter()
        .zip(names)
        .map(|(u, name)| &*Box::leak(Box::new(Upstream { name, ..**u })))
        .collect();
    let releases = ["12.0", "115", "ChEMBL_35"];
    let ((), recorder) = rt.block_on(scope(async {
        for (n, upstream) in leaked.iter().enumerate() {
            let release_of = || -> Arc<dyn ReleaseSource> {
                match releases.get(n) {
                    Some(release) => Arc::new(Known(release)),
                    None => Arc::new(Unknown),
                }
            };
            for i in 0..12 {
                let slot = asking(upstream, release_of, || {
                    get(&format!(
                        "https://rest.example.org/lookup/id/{i:0>150}?expand=1"
                    ))
                });
                answered(slot, SystemTime::now(), Origin::Cache, None);
            }
        }
    }));
    let (provenance, full) = recorder.provenance();
    let size = serde_json::to_vec(&provenance).unwrap().len();
    assert!(size <= MAX_BYTES, "{size} bytes: {provenance:#?}");
    assert_eq!(provenance.sources.len(), 6);
    for (source, upstream) in provenance.sources.iter().zip(&leaked) {
        assert_eq!(
            source.licence.as_deref(),
            upstream.licence.map(|l| l.spdx),
            "{source:?}"
        );
        assert_eq!(
            source.cite,
            upstream.cite.map(|doi| format!("doi:{doi}")),
            "{source:?}"
        );
        assert!(source.cached);
    }
    let named: Vec<Option<&str>> = provenance
        .sources
        .iter()
        .map(|s| s.release.as_deref())
        .collect();
    assert_eq!(
        named,
        [
            Some("12.0"),
            Some("115"),
            Some("ChEMBL_35"),
            None,
            None,
            None
        ]
    );
    // Nothing is lost: the full record names every request of every source.
    let (id, full) = full.expect("a full record");
    assert_eq!(provenance.full, Some(format!("provenance://{id}")));
    assert!(full.sources.iter().all(|s| s.requests.len() == 12));
}

#[test]
fn outside_a_call_nothing_is_recorded() {
    // No task-local: must neither panic nor build the request.
    let slot = asking(
        &PLAIN,
        || unreachable!("not built outside a call"),
        || unreachable!("not built outside a call"),
    );
    assert!(slot.is_none());
    answered(slot, SystemTime::now(), Origin::Upstream, None);
}

#[test]
fn a_success_gains_provenance_in_both_forms_and_an_error_none() {
    let provenance = Provenance {
        sources: vec![SourceProvenance {
            database: "STRING".into(),
            release: Some("12.0".into()),
            licence: Some("CC-BY-4.0".into()),
            cite: Some("doi:10.1093/nar/gkae1113".into()),
            requests: vec!["https://s/api/json/network".into()],
            requests_total: None,
            retrieved_at: "2025-11-26T10:40:00Z".into(),
            cached: false,
            offline: false,
        }],
        full: None,
    };
    for structured in [
        serde_json::json!({"a": 1, "b": [1, {"c": "}"}]}),
        serde_json::json!({}),
    ] {
        let mut ok = CallToolResult::structured(structured);
        attach(&mut ok, &provenance);
        let structured = ok.structured_content.clone().unwrap();
        assert_eq!(structured["provenance"]["sources"][0]["release"], "12.0");
        let text = ok.content[0].as_text().unwrap().text.clone();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            structured
        );
    }

    let mut picture = CallToolResult::success(vec![ContentBlock::text("a network")]);
    attach(&mut picture, &provenance);
    assert_eq!(picture.content.len(), 2);
    assert!(picture.content[1].as_text().unwrap().text.starts_with(
        "Provenance: STRING release 12.0 (CC-BY-4.0; cite doi:10.1093/nar/gkae1113), \
                 retrieved 2025-11-26T10:40:00Z: https://s/api/json/network"
    ));

    let mut failed = CallToolResult::error(vec![ContentBlock::text("{}")]);
    attach(&mut failed, &provenance);
    assert_eq!(failed.content.len(), 1);
}
