//! `GET /health`: that the server is up, which build it is, and the state of the store
//! its sources share.

use crate::store::StoreHealth;

/// What `GET /health` answers: `status` (`ok`, or `degraded` while the shared store
/// cannot be used), the server, its version and the git revision it was built from
/// (`unknown` for a development build), and, when the server has a store, its state:
/// `kind` (`memory`, `sqlite` or `redis`), `peers` (processes or replicas seen sharing
/// it), `offline`, and `degraded` with the reason while it cannot be used.
///
/// Degraded is still answered with 200: the replica answers every call (from its own
/// cache and a local share of each upstream's budget), so a load balancer must keep
/// sending it requests; a monitor reads `status`.
pub(super) fn answer(
    server: &str,
    version: &str,
    revision: &str,
    store: Option<&StoreHealth>,
) -> String {
    let degraded = store.is_some_and(|s| s.degraded.is_some());
    let mut answer = serde_json::json!({
        "status": if degraded { "degraded" } else { "ok" },
        "server": server,
        "version": version,
        "revision": revision,
    });
    if let (Some(store), serde_json::Value::Object(map)) = (store, &mut answer) {
        let mut health = serde_json::json!({
            "kind": store.kind,
            "peers": store.peers,
            "offline": store.offline,
        });
        if let (Some(why), serde_json::Value::Object(fields)) = (&store.degraded, &mut health) {
            fields.insert("degraded".to_owned(), why.clone().into());
        }
        map.insert("store".to_owned(), health);
    }
    answer.to_string()
}

#[cfg(test)]
mod tests {
    use super::answer;
    use crate::store::{Shared, StoreHealth};

    fn read(text: &str) -> serde_json::Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn health_names_the_server_its_version_and_revision() {
        assert_eq!(
            read(&answer("lifesciences-mcp", "0.1.0", "77516ee0ab12", None)),
            serde_json::json!({"status": "ok", "server": "lifesciences-mcp",
                               "version": "0.1.0", "revision": "77516ee0ab12"})
        );
    }

    #[test]
    fn health_reports_the_store_and_is_degraded_when_the_store_is() {
        let memory = Shared::memory().health();
        assert_eq!(
            read(&answer("string-mcp", "0.1.0", "unknown", Some(&memory))),
            serde_json::json!({"status": "ok", "server": "string-mcp", "version": "0.1.0",
                               "revision": "unknown",
                               "store": {"kind": "memory", "peers": 1, "offline": false}})
        );
        let down = StoreHealth {
            kind: "redis",
            degraded: Some("redis: connection refused".to_owned()),
            peers: 3,
            offline: false,
        };
        assert_eq!(
            read(&answer("string-mcp", "0.1.0", "unknown", Some(&down))),
            serde_json::json!({"status": "degraded", "server": "string-mcp", "version": "0.1.0",
                               "revision": "unknown",
                               "store": {"kind": "redis", "peers": 3, "offline": false,
                                         "degraded": "redis: connection refused"}})
        );
    }
}
