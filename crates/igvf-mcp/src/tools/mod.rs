//! The tools, one per file, and the argument types they share.
//! Each file is named once below, in the order tools are listed; that list is the
//! server's tools.

lifesciences_core::tool_files! {
    crate::server::IgvfServer, igvf:
    get_entity,
    search_region,
    find_associations as capped(associations, limit),
    query_associations as capped(associations, limit),
    find_ld as capped(ld, limit),
    resolve_id,
    list_sources,
}

use std::borrow::Cow;

use lifesciences_core::schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer};

use crate::ids::Organism;

/// The `organism` argument: `human` (default) or `mouse`, forgiving about spelling.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct OrganismArg(pub Organism);

impl<'de> Deserialize<'de> for OrganismArg {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(d)?;
        Organism::parse(&raw).map(Self).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "'{raw}' is not an organism the IGVF Catalog covers; use 'human' (Homo \
                 sapiens, GRCh38) or 'mouse' (Mus musculus, GRCm39)"
            ))
        })
    }
}

impl JsonSchema for OrganismArg {
    fn schema_name() -> Cow<'static, str> {
        "Organism".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "enum": ["human", "mouse"],
            "description": "`human` (Homo sapiens, GRCh38; default) or `mouse` (Mus musculus, \
                GRCm39). `Homo sapiens`, `Mus musculus`, 9606 and 10090 are accepted too."
        })
    }
}
