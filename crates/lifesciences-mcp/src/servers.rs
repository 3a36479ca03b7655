//! The servers the gateway serves, each named once in [`servers!`]: its toolset (its
//! name on the command line and the prefix of its tools), and its type. From that list
//! follow the [`Toolset`]s, the [`Servers`] built from one environment, and each
//! toolset's tools as the gateway serves them.

use lifesciences_core::{ConfigError, Declared, Env, McpServer};

/// One line per server: `Variant name: Type, "what its tools are about"`.
macro_rules! servers {
    ($($variant:ident $name:ident: $server:ty, $about:literal;)+) => {
        /// One database's tools.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
        pub enum Toolset {
            $(#[doc = $about] $variant,)+
        }

        impl Toolset {
            /// Every toolset, in the order tools are listed.
            pub const ALL: &'static [Toolset] = &[$(Self::$variant),+];

            /// Every toolset's name, in that order.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),+];

            /// Its name on the command line, and the prefix of its tools.
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => stringify!($name),)+
                }
            }
        }

        /// Every server, built from one environment, so a source two of them use has
        /// one client. Cheap to clone: clones share the upstream clients.
        #[derive(Debug, Clone)]
        pub(crate) struct Servers {
            $(pub(crate) $name: $server,)+
        }

        impl Servers {
            pub(crate) fn from_env(env: &Env) -> Result<Self, ConfigError> {
                Ok(Self {
                    $($name: <$server>::from_env(env)?,)+
                })
            }

            /// A toolset's tools: its server's, each call handed to that server.
            pub(crate) fn tools(toolset: Toolset) -> Vec<Declared<Self>> {
                match toolset {
                    $(Toolset::$variant => project(<$server>::tools(), |s| &s.$name),)+
                }
            }
        }

        /// `visit` called with each server's type and toolset, in the order tools are
        /// listed: how tests and the workspace's tasks (docs, demo, measurements) go
        /// over every server without naming one.
        pub fn each_server(visit: &mut impl EachServer) {
            $(visit.server::<$server>(Toolset::$variant);)+
        }
    };
}

/// Something done with each server's type in turn (see [`each_server`]).
pub trait EachServer {
    /// Do it for the server `S`, whose tools are the toolset `toolset`.
    fn server<S: McpServer>(&mut self, toolset: Toolset);
}

servers! {
    String string: string_mcp::StringServer, "`string_*`: STRING protein interactions.";
    Ensembl ensembl: ensembl_mcp::EnsemblServer, "`ensembl_*`: Ensembl genes, transcripts, variants.";
    Chembl chembl: chembl_mcp::ChemblServer, "`chembl_*`: ChEMBL compounds, targets, activities.";
    Igvf igvf: igvf_mcp::IgvfServer, "`igvf_*`: the IGVF Catalog knowledge graph.";
    Uniprot uniprot: uniprot_mcp::UniprotServer, "`uniprot_*`: UniProt proteins: function, features, ID mapping.";
}

fn project<S: Send + Sync + 'static>(
    tools: Vec<Declared<S>>,
    pick: fn(&Servers) -> &S,
) -> Vec<Declared<Servers>> {
    tools.into_iter().map(|tool| tool.project(pick)).collect()
}
