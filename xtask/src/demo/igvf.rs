//! The IGVF Catalog demo script. Partial: the server has no tools yet, so the session shows
//! `initialize` and an empty tool list; issue #6 adds the calls.

use super::Script;

pub fn script() -> Script {
    Script {
        upstreams: vec![("IGVF_CATALOG_API_URL", "/igvf")],
        ..Script::default()
    }
}
