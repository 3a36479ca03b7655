//! The upstream configuration of IGVF Catalog knowledge graph (CONTRACT §6). The only module that will know
//! the upstream's URLs and query parameters.

use lifesciences_core::{ConfigError, SourceConfig};

/// The sources this server talks to, with their politeness defaults and the
/// environment applied.
pub fn source_configs() -> Result<Vec<SourceConfig>, ConfigError> {
    Ok(vec![
        SourceConfig::new(
            "IGVF Catalog",
            "IGVF_CATALOG",
            "https://api.catalogkg.igvf.org/api",
        )?
        .with_rate(10.0)
        .with_max_concurrent(10)
        .from_env()?,
    ])
}
