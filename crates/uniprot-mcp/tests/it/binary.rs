//! The built binary, driven over stdio by a real MCP client.

use lifesciences_core::testing::{
    McpTestClient, assert_binary_speaks_mcp, mock_upstream, run_check,
};
use serde_json::json;
use uniprot_mcp::UniprotServer;
use wiremock::matchers::query_param;

use crate::support::{answered, get, json_answer, page_of};

/// A port nothing listens on: the smoke test must not reach the network.
const CLOSED: &str = "http://127.0.0.1:9";
/// The headers of a recorded entry answer (release 2022_05).
const ENTRY_HEADERS: &str = "uniprotkb__P99999__headers.http.json";

#[tokio::test]
async fn the_binary_speaks_mcp_over_stdio() {
    let env = [("UNIPROT_API_URL", CLOSED)];
    assert_binary_speaks_mcp::<UniprotServer>(env!("CARGO_BIN_EXE_uniprot-mcp"), &env).await;
}

/// The user's path through the binary: the entry of gene ADORA1 in human, what the
/// protein is, what lies in its first transmembrane helix. Every request names the
/// project and the operator's contact in its User-Agent, as UniProt asks; the answer
/// names UniProt's release from its header.
#[tokio::test]
async fn the_binary_walks_the_users_path_over_stdio() {
    let upstream = mock_upstream().await;
    let uri = upstream.uri();
    get("/uniprotkb/search")
        .and(query_param(
            "query",
            "gene_exact:ADORA1 AND organism_id:9606 AND reviewed:true",
        ))
        .respond_with(
            json_answer(&page_of(&["uniprotkb__P30542.json"]))
                .insert_header("X-Total-Results", "1"),
        )
        .expect(1)
        .mount(&upstream)
        .await;
    get("/uniprotkb/search")
        .and(query_param(
            "query",
            "gene_exact:ADORA1 AND organism_id:9606 AND reviewed:false",
        ))
        .respond_with(json_answer(&json!({"results": []})).insert_header("X-Total-Results", "0"))
        .expect(1)
        .mount(&upstream)
        .await;
    get("/uniprotkb/P30542")
        .respond_with(answered("uniprotkb__P30542.json", ENTRY_HEADERS, &uri))
        .expect(2)
        .mount(&upstream)
        .await;
    let env = [
        ("UNIPROT_API_URL", uri.as_str()),
        ("LIFESCIENCES_CONTACT", "lab@example.org"),
    ];
    let client = McpTestClient::spawn_binary(env!("CARGO_BIN_EXE_uniprot-mcp"), &env).await;

    let page = client
        .call_ok(
            "uniprot_search_proteins",
            json!({"gene": "ADORA1", "organism": "Homo sapiens"}),
        )
        .await;
    let accession = page["items"][0]["accession"].as_str().unwrap().to_owned();
    assert_eq!(accession, "P30542");

    let (protein, provenance) = client
        .call_ok_with_provenance("uniprot_get_protein", json!({"ids": [accession]}))
        .await;
    assert_eq!(protein["proteins"][0]["name"], "Adenosine receptor A1");
    assert_eq!(provenance["sources"][0]["release"], "2022_05");

    let features = client
        .call_ok(
            "uniprot_get_features",
            json!({"id": accession, "types": ["topology"], "position": 20}),
        )
        .await;
    assert_eq!(features["features"][0]["type"], "transmembrane");
    assert_eq!(features["features"][0]["start"], 11);

    let e = client
        .call_err("uniprot_get_protein", json!({"ids": ["ENSG00000163485"]}))
        .await;
    assert!(
        e.recovery_hint.contains("uniprot_map_ids"),
        "{}",
        e.recovery_hint
    );
    client.close().await;

    for request in upstream.received_requests().await.unwrap() {
        let agent = request.headers.get("user-agent").unwrap().to_str().unwrap();
        assert!(
            agent.starts_with("lifesciences-mcp/") && agent.ends_with("; lab@example.org)"),
            "{agent}"
        );
    }
}

/// `check` sends UniProt's health check (the smallest search) and says it is reachable;
/// against a closed port it says why not and exits 1.
#[tokio::test]
async fn check_probes_uniprot_and_says_whether_it_answers() {
    let upstream = mock_upstream().await;
    get("/uniprotkb/search")
        .and(query_param("query", "accession:P99999"))
        .and(query_param("fields", "accession"))
        .and(query_param("size", "1"))
        .respond_with(answered(
            "uniprotkb_search__F1MAB7_OR_O14975.json",
            ENTRY_HEADERS,
            &upstream.uri(),
        ))
        .expect(1)
        .mount(&upstream)
        .await;
    let program = env!("CARGO_BIN_EXE_uniprot-mcp");
    let uri = upstream.uri();
    let (code, out) = run_check(program, &[("UNIPROT_API_URL", uri.as_str())]).await;
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("UniProt") && out.contains("/uniprotkb/search"),
        "{out}"
    );
    assert!(out.contains("All upstreams are reachable."), "{out}");
    let (code, out) = run_check(program, &[("UNIPROT_API_URL", CLOSED)]).await;
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("NOT reachable"), "{out}");
}
