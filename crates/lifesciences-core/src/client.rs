//! `LifeSciencesClient`, the trait every source client implements, and `Env`, the
//! environment servers are built from.
//!
//! A source client describes its upstream once ([`LifeSciencesClient::UPSTREAM`]) and is
//! built from an [`HttpClient`] that core configured from that description and the
//! environment. Generic code uses the descriptions: [`Env`] builds any client, and
//! remembers the ones it built, so `<bin> check` can probe every upstream a server uses
//! and `cargo xtask docs` can write the configuration tables.
//!
//! **Invariant:** every variable a server reads goes through [`Env`] (the log filter and
//! the proxy variables included), which reads a blank value or an unexpanded
//! placeholder as unset and remembers the placeholders it met for the start-up warning.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::config::{
    self, ConfigError, ENV_CA_FILE, ExtraRoots, Network, Proxies, SourceConfig, Upstream,
};
use crate::http::HttpClient;
use crate::store::Shared;

/// A client of one upstream. It knows the upstream's URLs and parameters; core knows how
/// to reach it politely.
pub trait LifeSciencesClient: Sized {
    /// The upstream: name, base URL and its variable, politeness defaults, health check.
    const UPSTREAM: &'static Upstream;

    /// The client over `http`, which core built from [`UPSTREAM`](Self::UPSTREAM) and the
    /// environment. Fails only on a source setting of the wrong form.
    fn new(http: HttpClient) -> Result<Self, ConfigError>;
}

type Lookup = dyn Fn(&str) -> Option<String> + Send + Sync;
type Tuning = dyn Fn(SourceConfig) -> SourceConfig + Send + Sync;

/// The environment a server is built from: variables (the process's, or given pairs in
/// tests), and the upstream clients built from it so far.
pub struct Env {
    lookup: Box<Lookup>,
    /// The names of the variables set, where known (for spotting misspellings).
    names: Vec<String>,
    tuning: Option<Arc<Tuning>>,
    built: Mutex<Vec<HttpClient>>,
    /// The variables read so far whose values were unexpanded placeholders.
    placeholders: Mutex<BTreeSet<String>>,
    /// Proxies and extra roots, read once on the first source's configuration.
    network: OnceLock<Result<Arc<Network>, ConfigError>>,
    shared: OnceLock<Result<Arc<Shared>, ConfigError>>,
}

impl std::fmt::Debug for Env {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Env")
            .field("built", &self.built())
            .finish_non_exhaustive()
    }
}

impl Env {
    /// The process environment, as it is now: read once, so every part of the server
    /// sees the same values.
    pub fn process() -> Self {
        let vars: std::collections::HashMap<String, String> = std::env::vars_os()
            .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
            .collect();
        let names = vars.keys().cloned().collect();
        let mut env = Self::from_lookup(move |var| vars.get(var).cloned());
        env.names = names;
        env
    }

    /// An environment made of `pairs` only (tests; the docs use the empty one).
    pub fn from_pairs(pairs: &[(&str, &str)]) -> Self {
        let map: std::collections::HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let names = map.keys().cloned().collect();
        let mut env = Self::from_lookup(move |var| map.get(var).cloned());
        env.names = names;
        env
    }

    /// An environment read through `lookup`.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String> + Send + Sync + 'static) -> Self {
        Self {
            lookup: Box::new(lookup),
            names: Vec::new(),
            tuning: None,
            built: Mutex::new(Vec::new()),
            placeholders: Mutex::default(),
            network: OnceLock::new(),
            shared: OnceLock::new(),
        }
    }

    /// Change every source's defaults before the variables apply (tests shorten retry
    /// waits this way; variables still win).
    #[must_use]
    pub fn with_tuning(
        mut self,
        tuning: impl Fn(SourceConfig) -> SourceConfig + Send + Sync + 'static,
    ) -> Self {
        self.tuning = Some(Arc::new(tuning));
        self
    }

    /// The names of the variables set, when the environment can list them (the
    /// process's and `from_pairs` can; `from_lookup` cannot).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// A variable's value; blank, or an unexpanded placeholder such as
    /// `${user_config.rate}` ([`config::is_placeholder`]), counts as unset.
    pub fn var(&self, name: &str) -> Option<String> {
        config::usable(self.raw(name))
    }

    /// A variable's value as set, noting it when it is a placeholder.
    fn raw(&self, name: &str) -> Option<String> {
        let value = (self.lookup)(name);
        if value.as_deref().is_some_and(config::is_placeholder) {
            self.placeholders
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(name.to_owned());
        }
        value
    }

    /// The variables read so far that held unexpanded placeholders and so were read as
    /// unset, by name.
    pub fn placeholders(&self) -> Vec<String> {
        self.placeholders
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .cloned()
            .collect()
    }

    /// Proxies and extra trusted roots in this environment, read once: the proxy
    /// variables, and the certificates of the file `LIFESCIENCES_CA_FILE` names. A proxy
    /// that is not a URL, or a CA file that cannot be read or holds no certificate, is a
    /// configuration error.
    pub fn network(&self) -> Result<Arc<Network>, ConfigError> {
        self.network
            .get_or_init(|| {
                let proxies = Proxies::from_env_with(|var| self.raw(var))?;
                let extra_roots = self.var(ENV_CA_FILE).map(read_ca_file).transpose()?;
                Ok(Arc::new(Network {
                    proxies,
                    extra_roots,
                }))
            })
            .clone()
    }

    /// The configuration of `upstream` in this environment.
    /// The store every source of this server shares (answers, budgets, pauses), as the
    /// environment chooses it ([`Shared::from_env`]); opened once, on first use.
    pub fn shared(&self) -> Result<Arc<Shared>, ConfigError> {
        self.shared
            .get_or_init(|| Shared::from_env(|var| self.raw(var)).map(Arc::new))
            .clone()
    }

    pub fn source_config(&self, upstream: &'static Upstream) -> Result<SourceConfig, ConfigError> {
        let mut config = SourceConfig::new(upstream)?;
        if let Some(tuning) = &self.tuning {
            config = tuning(config);
        }
        config
            .with_network(self.network()?)
            .from_env_with(|var| self.raw(var))
    }

    /// The HTTP machinery of `upstream` in this environment (remembered for [`built`](Self::built)).
    /// Built once per upstream: a second server asking for the same upstream (a gateway
    /// serving several) shares its cache, coalescing and politeness budget.
    pub fn http(&self, upstream: &'static Upstream) -> Result<HttpClient, ConfigError> {
        let mut built = self.built.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(http) = built
            .iter()
            .find(|h| std::ptr::eq(h.config().upstream, upstream))
        {
            return Ok(http.clone());
        }
        let http = HttpClient::with_store(self.source_config(upstream)?, self.shared()?);
        built.push(http.clone());
        Ok(http)
    }

    /// This environment with `name` set to `value` (a command-line option standing for a
    /// variable).
    #[must_use]
    pub fn with_var(mut self, name: &'static str, value: String) -> Self {
        let lookup = self.lookup;
        self.lookup = Box::new(move |var| {
            if var == name {
                Some(value.clone())
            } else {
                lookup(var)
            }
        });
        if !self.names.iter().any(|n| n == name) {
            self.names.push(name.to_owned());
        }
        self
    }

    /// A source client in this environment.
    pub fn client<C: LifeSciencesClient>(&self) -> Result<C, ConfigError> {
        C::new(self.http(C::UPSTREAM)?)
    }

    /// The HTTP clients built from this environment so far, in order.
    pub fn built(&self) -> Vec<HttpClient> {
        self.built
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// The certificates of the CA file `raw` names.
fn read_ca_file(raw: String) -> Result<ExtraRoots, ConfigError> {
    let file = PathBuf::from(raw.trim());
    match std::fs::read(&file) {
        Ok(pem) => ExtraRoots::from_pem(ENV_CA_FILE, file, &pem),
        Err(e) => Err(ConfigError::CaFile {
            var: ENV_CA_FILE.to_owned(),
            file: file.display().to_string(),
            problem: format!("cannot read the file: {e}"),
        }),
    }
}
