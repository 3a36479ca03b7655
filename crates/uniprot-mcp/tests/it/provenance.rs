//! Where a UniProt answer came from, as the agent sees it in `provenance`: the release
//! UniProt named in the answer's own `X-UniProt-Release` header (no request of its own,
//! on the first answer already), and exactly the requests UniProt answered, a redirect
//! followed included.

use lifesciences_core::testing::{requests_named, requests_seen};
use serde_json::json;

use crate::support::{answered, get, see_other, setup, with_headers};

/// The headers of a recorded entry answer (release 2022_05).
const ENTRY_HEADERS: &str = "uniprotkb__P99999__headers.http.json";

#[tokio::test]
async fn the_first_answer_names_the_release_from_uniprot_s_header() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/P30542")
        .respond_with(answered(
            "uniprotkb__P30542.json",
            ENTRY_HEADERS,
            &upstream.uri(),
        ))
        .expect(1)
        .mount(&upstream)
        .await;

    let (_, provenance) = client
        .call_ok_with_provenance("uniprot_get_protein", json!({"ids": ["P30542"]}))
        .await;

    let [uniprot] = provenance["sources"].as_array().unwrap().as_slice() else {
        panic!("one source: {provenance:#}")
    };
    assert_eq!(uniprot["database"], "UniProt");
    assert_eq!(uniprot["licence"], "CC-BY-4.0");
    assert_eq!(uniprot["cite"], "doi:10.1093/nar/gkae1010");
    assert_eq!(uniprot["release"], "2022_05", "{provenance:#}");
    assert_eq!(
        requests_named(&provenance),
        requests_seen(&upstream, &[]).await
    );
    assert_eq!(
        requests_seen(&upstream, &[]).await.len(),
        1,
        "nothing else asked"
    );

    // Asked again: the cache answers, with the release it was retrieved under.
    let (_, again) = client
        .call_ok_with_provenance("uniprot_get_protein", json!({"ids": ["P30542"]}))
        .await;
    assert_eq!(again["sources"][0]["release"], "2022_05");
    assert_eq!(again["sources"][0]["cached"], true);
    client.close().await;
}

/// A merged accession's answer names both requests: the one redirected and the one
/// followed, in that order.
#[tokio::test]
async fn a_redirect_followed_is_named_with_the_request_it_followed() {
    let (upstream, client) = setup().await;
    let base = upstream.uri();
    get("/uniprotkb/O43910")
        .respond_with(with_headers(
            see_other(
                "/uniprotkb/O00115?from=O43910",
                Some("uniprotkb__O43910__inactive_MERGED.json"),
            ),
            ENTRY_HEADERS,
            &base,
        ))
        .expect(1)
        .mount(&upstream)
        .await;
    get("/uniprotkb/O00115")
        .respond_with(answered("uniprotkb__O00115.json", ENTRY_HEADERS, &base))
        .expect(1)
        .mount(&upstream)
        .await;

    let (_, provenance) = client
        .call_ok_with_provenance(
            "uniprot_get_features",
            json!({"id": "O43910", "types": "variants"}),
        )
        .await;

    let named = requests_named(&provenance);
    assert_eq!(named, requests_seen(&upstream, &[]).await);
    assert_eq!(named.len(), 2);
    assert!(
        named[0].starts_with(&format!("{base}/uniprotkb/O43910?fields=")),
        "{named:?}"
    );
    assert!(
        named[1].starts_with(&format!("{base}/uniprotkb/O00115?from=O43910&fields=")),
        "{named:?}"
    );
    assert_eq!(provenance["sources"][0]["release"], "2022_05");
    client.close().await;
}
