//! Where a cross-database answer came from: `lifesciences_map_ids` calls other servers'
//! tools in one process, and its `provenance` names each database with its release (once
//! looked up, in the background), its licence and citation, and exactly the requests each
//! answered, in the order each was first asked; from six databases, within 1 KB.

use lifesciences_core::McpServer;
use lifesciences_core::testing::{
    McpTestClient, mock_env_with_releases, mock_upstream, requests_named, requests_seen,
};
use lifesciences_mcp::Gateway;
use serde_json::json;
use wiremock::Mock;
use wiremock::matchers::{body_json, method, path, query_param};

use crate::map_ids::{mount_aspirin, mount_tp53, mount_tp53_search};
use crate::{env_pairs, fixture};

const RELEASES: [&str; 3] = [
    "/ensembl/info/data",
    "/string/json/version",
    "/chembl/status.json",
];

#[tokio::test]
async fn a_gene_mapped_across_three_databases_names_each_release_and_request() {
    let upstream = mock_upstream().await;
    mount_tp53(&upstream).await;
    for (at, krate, name) in [
        (RELEASES[0], "ensembl-mcp", "info_data.json"),
        (RELEASES[1], "string-mcp", "version.json"),
        (RELEASES[2], "chembl-mcp", "status.json"),
    ] {
        Mock::given(method("GET"))
            .and(path(at))
            .respond_with(fixture(krate, name))
            .expect(1)
            .mount(&upstream)
            .await;
    }
    let pairs = env_pairs(&upstream.uri());
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let gateway = Gateway::from_env(&mock_env_with_releases(&pairs)).unwrap();
    let client = McpTestClient::connect(gateway).await;

    let (_, first) = client
        .call_ok_with_provenance("lifesciences_map_ids", json!({"ids": ["ENSG00000141510"]}))
        .await;
    let mut named = requests_named(&first);
    let mut seen = requests_seen(&upstream, &RELEASES).await;
    named.sort();
    seen.sort();
    assert_eq!(named, seen);
    // Each release is looked up in the background and never waited for: the mapping,
    // asked again (from the cache), names all three once they are known.
    let mut provenance = first;
    for _ in 0..250 {
        let released = provenance["sources"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s.get("release").is_some());
        if released {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        provenance = client
            .call_ok_with_provenance("lifesciences_map_ids", json!({"ids": ["ENSG00000141510"]}))
            .await
            .1;
    }

    let sources = provenance["sources"].as_array().unwrap();
    let named: Vec<(&str, &str)> = sources
        .iter()
        .map(|s| {
            (
                s["database"].as_str().unwrap(),
                s["release"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        named,
        [
            ("Ensembl", "115"),
            ("STRING", "12.0"),
            ("ChEMBL", "ChEMBL_35")
        ],
        "{provenance:#}"
    );
    let mut again = requests_named(&provenance);
    again.sort();
    assert_eq!(
        again, seen,
        "the repeat names the same requests, from the cache"
    );
    client.close().await;
}

#[tokio::test]
async fn an_answer_from_six_databases_names_each_licence_and_citation_within_a_kilobyte() {
    // A symbol (Ensembl, EBI Search, STRING, ChEMBL), a variant (the IGVF Catalog) and a
    // PubChem compound (UniChem, ChEMBL): the most databases one call reads.
    let (upstream, client) = crate::setup().await;
    mount_tp53(&upstream).await;
    mount_tp53_search(&upstream, "TP53").await;
    mount_aspirin(&upstream).await;
    Mock::given(method("POST"))
        .and(path("/unichem/compounds"))
        .and(body_json(
            json!({"type": "sourceID", "compound": "2244", "sourceID": 22}),
        ))
        .respond_with(fixture("chembl-mcp", "unichem_compounds__CHEMBL25.json"))
        .mount(&upstream)
        .await;
    Mock::given(method("GET"))
        .and(path("/igvf/variants"))
        .and(query_param("rsid", "rs80357906"))
        .respond_with(fixture("igvf-mcp", "variants__rsid=rs80357906.json"))
        .mount(&upstream)
        .await;

    let (out, provenance) = client
        .call_ok_with_provenance(
            "lifesciences_map_ids",
            json!({"ids": ["TP53", "rs80357906", "CID:2244"]}),
        )
        .await;
    assert_eq!(out["mapped"], 3, "{out:#}");
    let upstreams = lifesciences_core::server::upstreams::<Gateway>().unwrap();
    let sources = provenance["sources"].as_array().unwrap();
    let mut named: Vec<&str> = sources
        .iter()
        .map(|s| s["database"].as_str().unwrap())
        .collect();
    named.sort_unstable();
    assert_eq!(
        named,
        [
            "ChEMBL",
            "EBI Search",
            "Ensembl",
            "IGVF Catalog",
            "STRING",
            "UniChem"
        ],
        "{provenance:#}"
    );
    // Each as its client describes it: the licence always, the citation where the
    // database names one.
    for source in sources {
        let upstream = upstreams
            .iter()
            .find(|u| u.name == source["database"])
            .unwrap();
        let licence = upstream.licence.unwrap();
        assert_eq!(source["licence"], licence.spdx, "{source:#}");
        match upstream.cite {
            Some(doi) => assert_eq!(source["cite"], format!("doi:{doi}"), "{source:#}"),
            None => assert_eq!(source.get("cite"), None, "{source:#}"),
        }
    }
    let size = serde_json::to_vec(&provenance).unwrap().len();
    assert!(
        size <= lifesciences_core::provenance::MAX_BYTES,
        "{size} bytes: {provenance:#}"
    );
    client.close().await;
}

#[test]
fn every_source_states_its_licence_where_it_can_be_read_and_cites_a_doi() {
    for upstream in lifesciences_core::server::upstreams::<Gateway>().unwrap() {
        let licence = upstream
            .licence
            .unwrap_or_else(|| panic!("{}: no licence", upstream.name));
        assert!(licence.url.starts_with("https://"), "{licence:?}");
        let listed = ["CC-BY-4.0", "CC-BY-SA-3.0", "CC0-1.0"].contains(&licence.spdx);
        let own = licence.spdx.strip_prefix("LicenseRef-").is_some_and(|id| {
            !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-.".contains(c))
        });
        assert!(listed || own, "{}: {licence:?}", upstream.name);
        if let Some(doi) = upstream.cite {
            let (prefix, suffix) = doi.split_once('/').unwrap();
            assert!(
                prefix.starts_with("10.") && prefix[3..].chars().all(|c| c.is_ascii_digit()),
                "{doi}"
            );
            assert!(
                !suffix.is_empty() && !doi.contains(char::is_whitespace),
                "{doi}"
            );
        }
    }
}
