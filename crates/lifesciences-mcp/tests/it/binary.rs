//! The built gateway started as Claude Desktop starts it from its extension: every
//! setting the user left blank arrives as the literal `${user_config.<key>}`.

use std::collections::BTreeSet;

use lifesciences_core::config::{self, PROXY_VARIABLES};
use lifesciences_core::testing::assert_binary_speaks_mcp_with_stderr;
use lifesciences_mcp::Gateway;

#[tokio::test]
async fn the_gateway_starts_with_every_variable_left_as_a_placeholder_and_says_so_once() {
    let upstreams = lifesciences_core::server::upstreams::<Gateway>().unwrap();
    // Every variable the gateway reads: each source's, the shared ones (the CA file and
    // RUST_LOG among them), the toolsets and the proxies.
    let mut names: BTreeSet<String> = config::variables(&upstreams)
        .into_iter()
        .map(|v| v.name)
        .collect();
    names.insert(lifesciences_core::cli::TOOLSETS_VAR.to_owned());
    // Read only when serving HTTP; this start is over stdio.
    for http_only in [
        "LIFESCIENCES_ALLOW_HOSTS",
        "LIFESCIENCES_STATELESS",
        "LIFESCIENCES_AUTH_TOKENS_FILE",
        "LIFESCIENCES_AUTH_ISSUER",
        "LIFESCIENCES_PUBLIC_URL",
        "LIFESCIENCES_AUTH_SCOPES",
        "LIFESCIENCES_AUTH_ACCEPT_TYP_JWT",
        "LIFESCIENCES_AUTH_RATE_LIMIT",
    ] {
        assert!(names.remove(http_only), "{http_only} is a variable");
    }
    names.extend(PROXY_VARIABLES.iter().map(|v| (*v).to_owned()));
    for expected in [
        "STRING_RATE_LIMIT",
        "ENSEMBL_API_URL",
        "UNICHEM_TIMEOUT_SECS",
        "STRING_CALLER_IDENTITY",
        "LIFESCIENCES_CA_FILE",
        "LIFESCIENCES_CACHE_DIR",
        "LIFESCIENCES_REDIS_URL",
        "RUST_LOG",
        "HTTPS_PROXY",
        "NO_PROXY",
    ] {
        assert!(names.contains(expected), "{expected} in {names:?}");
    }
    let values: Vec<(String, String)> = names
        .iter()
        .map(|name| {
            let key = name.to_ascii_lowercase();
            (name.clone(), format!("${{user_config.{key}}}"))
        })
        .collect();
    let env: Vec<(&str, &str)> = values
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();

    let stderr = assert_binary_speaks_mcp_with_stderr::<Gateway>(
        env!("CARGO_BIN_EXE_lifesciences-mcp"),
        &env,
    )
    .await;

    // One line, naming every variable (all of them were read, and all were placeholders).
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains(" WARN "), "{stderr}");
    let listed = names.iter().cloned().collect::<Vec<_>>().join(", ");
    assert!(
        lines[0].ends_with(&format!(
            "lifesciences-mcp: settings left as unexpanded placeholders (${{…}}) are read as \
             unset, using their defaults: {listed}"
        )),
        "{stderr}"
    );
}
