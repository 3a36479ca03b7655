//! The ChEMBL demo script. Partial: the server has no tools yet, so the session shows
//! `initialize` and an empty tool list; issue #5 adds the calls.

use super::Script;

pub fn script() -> Script {
    Script {
        upstreams: vec![
            ("CHEMBL_API_URL", "/chembl"),
            ("UNICHEM_API_URL", "/unichem"),
        ],
        ..Script::default()
    }
}
