//! The upstream configuration of Ensembl genes and transcripts (CONTRACT §6). The only module that will know
//! the upstream's URLs and query parameters.

use lifesciences_core::{ConfigError, SourceConfig};

/// The sources this server talks to, with their politeness defaults and the
/// environment applied.
pub fn source_configs() -> Result<Vec<SourceConfig>, ConfigError> {
    Ok(vec![
        SourceConfig::new("Ensembl", "ENSEMBL", "https://rest.ensembl.org")?
            .with_rate(15.0)
            .with_max_concurrent(15)
            .from_env()?,
        SourceConfig::new(
            "EBI Search",
            "EBI_SEARCH",
            "https://www.ebi.ac.uk/ebisearch/ws/rest",
        )?
        .with_rate(10.0)
        .with_max_concurrent(10)
        .from_env()?,
    ])
}
