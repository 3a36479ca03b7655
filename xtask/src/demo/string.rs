//! The STRING demo script. Partial: the server has no tools yet, so the session shows
//! `initialize` and an empty tool list; issue #3 adds the calls.

use super::Script;

pub fn script() -> Script {
    Script {
        upstreams: vec![("STRING_API_URL", "/string")],
        ..Script::default()
    }
}
