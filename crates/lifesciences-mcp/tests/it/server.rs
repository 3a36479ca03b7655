//! The gateway as a whole: every tool of every server, toolsets, shared clients.

use lifesciences_core::rmcp::model::{CallToolRequestParams, Tool};
use lifesciences_core::testing::{McpTestClient, assert_tool_definitions, mock_env, mock_upstream};
use lifesciences_core::{Env, McpServer, tools};
use lifesciences_mcp::{EachServer, Gateway, Toolset, each_server};
use serde_json::json;

use crate::{gateway, paths};

/// Every server's tools, with the toolset they belong to.
fn every_server_s_tools() -> Vec<(Toolset, Vec<Tool>)> {
    struct Collect(Vec<(Toolset, Vec<Tool>)>);
    impl EachServer for Collect {
        fn server<S: McpServer>(&mut self, toolset: Toolset) {
            self.0.push((toolset, tools::<S>()));
        }
    }
    let mut collect = Collect(Vec::new());
    each_server(&mut collect);
    collect.0
}

#[test]
fn every_tool_of_every_server_is_served_unchanged() {
    let served = tools::<Gateway>();
    let mut expected = vec!["lifesciences_map_ids".to_owned()];
    for (toolset, own) in every_server_s_tools() {
        for tool in own {
            // Same definition as the server's own, under its toolset's prefix.
            let mine = served.iter().find(|t| t.name == tool.name);
            assert_eq!(mine, Some(&tool), "{}", tool.name);
            assert!(tool.name.starts_with(&format!("{}_", toolset.name())));
            expected.push(tool.name.to_string());
        }
    }
    let mut all: Vec<String> = served.iter().map(|t| t.name.to_string()).collect();
    all.sort();
    expected.sort();
    assert_eq!(all, expected);
}

/// Cursor passes only the first 40 tools of a server to the model: every toolset
/// together must fit, or a user of it loses tools without a word.
#[test]
fn the_gateway_serves_at_most_40_tools() {
    let served = tools::<Gateway>().len();
    assert!(served <= 40, "the gateway serves {served} tools");
}

#[test]
fn the_gateway_keeps_the_promises_of_a_tool_definition() {
    assert_tool_definitions::<Gateway>();
}

#[tokio::test]
async fn toolsets_choose_the_tools_served_and_the_others_are_unknown() {
    let upstream = mock_upstream().await;
    let server = gateway(
        &upstream.uri(),
        &[("LIFESCIENCES_TOOLSETS", "ensembl, IGVF")],
    );
    let names: Vec<_> = server.toolsets().map(|t| t.name()).collect();
    assert_eq!(names, ["ensembl", "igvf"]);
    let client = McpTestClient::connect(server).await;
    let listed = client.tool_names().await;
    assert!(listed.iter().all(|n| n.starts_with("ensembl_")
        || n.starts_with("igvf_")
        || n == "lifesciences_map_ids"));
    assert_eq!(
        listed.len(),
        tools::<ensembl_mcp::EnsemblServer>().len() + tools::<igvf_mcp::IgvfServer>().len() + 1,
        "{listed:?}"
    );
    // A tool of another toolset is not there to call.
    let e = client
        .peer()
        .call_tool(CallToolRequestParams::new("string_search_proteins"))
        .await;
    assert!(e.is_err(), "{e:?}");
    assert!(
        upstream
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
    );
    client.close().await;
}

#[test]
fn an_unknown_toolset_is_a_configuration_error() {
    let e = Gateway::from_env(&mock_env(&[("LIFESCIENCES_TOOLSETS", "string,nosuchdb")]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("'nosuchdb' is not one"), "{e}");
}

#[test]
fn each_source_has_one_client() {
    // Every server's sources, each once, in the order the servers build them.
    struct Sources(Vec<String>);
    impl EachServer for Sources {
        fn server<S: McpServer>(&mut self, _: Toolset) {
            for upstream in lifesciences_core::server::upstreams::<S>().unwrap() {
                let var = upstream.url_var();
                if !self.0.contains(&var) {
                    self.0.push(var);
                }
            }
        }
    }
    let mut sources = Sources(Vec::new());
    each_server(&mut sources);
    // STRING, Ensembl, EBI Search, ChEMBL, UniChem and the IGVF Catalog at least; each
    // built once for the gateway, however many of its servers use it.
    assert!(sources.0.len() >= 6, "{:?}", sources.0);
    let env = Env::from_pairs(&[]);
    Gateway::from_env(&env).unwrap();
    let built: Vec<String> = env
        .built()
        .iter()
        .map(|h| h.config().upstream.url_var())
        .collect();
    assert_eq!(built, sources.0);
    // A second server of the same environment reuses the clients.
    Gateway::from_env(&env).unwrap();
    assert_eq!(env.built().len(), sources.0.len());
}

/// One cache per source: the gene record `lifesciences_map_ids` fetched is not fetched
/// again when `ensembl_get_gene` asks for it.
#[tokio::test]
async fn a_request_two_toolsets_make_reaches_the_upstream_once() {
    let upstream = mock_upstream().await;
    crate::map_ids::mount_tp53(&upstream).await;
    let client = McpTestClient::connect(gateway(&upstream.uri(), &[])).await;
    client
        .call_ok("lifesciences_map_ids", json!({"ids": "ENSG00000141510"}))
        .await;
    let gene = client
        .call_ok("ensembl_get_gene", json!({"ensembl_id": "ENSG00000141510"}))
        .await;
    assert_eq!(gene["symbol"], "TP53");
    let sent = paths(&upstream).await;
    let lookups = sent
        .iter()
        .filter(|p| *p == "/ensembl/lookup/id/ENSG00000141510")
        .count();
    assert_eq!(lookups, 1, "{sent:?}");
    client.close().await;
}

#[tokio::test]
async fn the_command_line_takes_toolsets_and_other_servers_refuse_them() {
    let mut out: Vec<u8> = Vec::new();
    let code = lifesciences_core::cli::run::<Gateway>(
        ["lifesciences-mcp", "tools", "--toolsets", "chembl"],
        Env::from_pairs(&[]),
        &mut out,
    )
    .await;
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    let listed = String::from_utf8(out).unwrap();
    let names: Vec<&str> = listed
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(names.contains(&"chembl_get_compound"), "{listed}");
    assert!(names.contains(&"lifesciences_map_ids"), "{listed}");
    assert!(!names.iter().any(|n| n.starts_with("string_")), "{listed}");
    let mut out: Vec<u8> = Vec::new();
    let code = lifesciences_core::cli::run::<igvf_mcp::IgvfServer>(
        ["igvf-mcp", "tools", "--toolsets", "chembl"],
        Env::from_pairs(&[]),
        &mut out,
    )
    .await;
    assert_eq!(code, std::process::ExitCode::from(2));
}
