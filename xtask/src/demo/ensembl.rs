//! The Ensembl demo script. Partial: the server has no tools yet, so the session shows
//! `initialize` and an empty tool list; issue #4 adds the calls.

use super::Script;

pub fn script() -> Script {
    Script {
        upstreams: vec![
            ("ENSEMBL_API_URL", "/ensembl"),
            ("EBI_SEARCH_API_URL", "/ebisearch"),
        ],
        ..Script::default()
    }
}
