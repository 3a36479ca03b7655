//! The upstream configuration of STRING protein interactions (CONTRACT §6). The only module that will know
//! the upstream's URLs and query parameters.

use lifesciences_core::{ConfigError, SourceConfig};

/// The sources this server talks to, with their politeness defaults and the
/// environment applied.
pub fn source_configs() -> Result<Vec<SourceConfig>, ConfigError> {
    Ok(vec![
        SourceConfig::new("STRING", "STRING", "https://string-db.org/api")?
            .with_rate(1.0)
            .with_max_concurrent(1)
            .with_default_query(
                "caller_identity",
                std::env::var("STRING_CALLER_IDENTITY")
                    .ok()
                    .filter(|v| !v.trim().is_empty())
                    .unwrap_or_else(|| "lifesciences-mcp".to_owned()),
            )
            .from_env()?,
    ])
}
