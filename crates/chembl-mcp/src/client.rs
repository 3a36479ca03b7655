//! The upstream configuration of ChEMBL compounds (CONTRACT §6). The only module that will know
//! the upstream's URLs and query parameters.

use lifesciences_core::{ConfigError, SourceConfig};

/// The sources this server talks to, with their politeness defaults and the
/// environment applied.
pub fn source_configs() -> Result<Vec<SourceConfig>, ConfigError> {
    Ok(vec![
        SourceConfig::new("ChEMBL", "CHEMBL", "https://www.ebi.ac.uk/chembl/api/data")?
            .with_rate(10.0)
            .with_max_concurrent(10)
            .from_env()?,
        SourceConfig::new("UniChem", "UNICHEM", "https://www.ebi.ac.uk/unichem/api/v1")?
            .with_rate(5.0)
            .with_max_concurrent(5)
            .from_env()?,
    ])
}
