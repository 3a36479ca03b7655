//! A disease or trait term stands for itself and its direct children: the one bounded
//! expansion both association tools apply to an ontology-term anchor (one
//! `/ontology-terms/{id}/children` request, the first [`MAX_CHILDREN`]), what the result
//! says about it ([`CoveredTerms`]), and the genes of those terms (`/diseases/genes`),
//! which a term stands for on data sets read gene by gene.

use futures::future::join_all;
use lifesciences_core::ApiError;
use lifesciences_core::schemars::{self, JsonSchema};
use serde::Serialize;

use crate::client::{Endpoint, IgvfClient, Request};
use crate::ids::ontology_curie;
use crate::models::{Edge, TermChild};

/// Children of a disease or trait term covered besides the term itself.
pub(crate) const MAX_CHILDREN: u32 = 10;
/// Genes a disease or trait anchor stands for on data sets queried by gene.
pub(crate) const MAX_TERM_GENES: usize = 20;

/// The terms an ontology-term anchor covered.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct CoveredTerms {
    /// The term asked for, then its direct children, as CURIEs.
    pub terms: Vec<String>,
    /// False when the term has more children than were covered, or they could not be
    /// read (then only the term itself was).
    pub complete: bool,
}

/// A term with its direct children, as the catalog keys them (`MONDO_0007915`).
#[derive(Debug, Clone)]
pub(crate) struct Expansion {
    /// The term first, then its children.
    pub terms: Vec<String>,
    /// Whether every child was covered.
    pub complete: bool,
    /// What to tell the caller about it, when there is something to tell.
    pub note: Option<String>,
}

impl Expansion {
    /// The part of a result that names the covered terms.
    pub(crate) fn covered(&self) -> CoveredTerms {
        CoveredTerms {
            terms: self.terms.iter().map(|t| ontology_curie(t)).collect(),
            complete: self.complete,
        }
    }
}

/// The term and its direct children (at most [`MAX_CHILDREN`]). Children that cannot be
/// read leave the term alone, said in the note, never a failed call.
pub(crate) async fn expand(client: &IgvfClient, term: &str) -> Expansion {
    let request = Request::new(Endpoint::OntologyTermChildren).path_id(term);
    let mut terms = vec![term.to_owned()];
    match client.fetch::<TermChild>(&request, MAX_CHILDREN).await {
        Ok(f) => {
            let n = f.items.len();
            for child in f.items {
                if !terms.contains(&child.term.term_id) {
                    terms.push(child.term.term_id);
                }
            }
            let note = (n > 0).then(|| {
                format!(
                    "Covered the term and {n} direct child term(s){}.",
                    if f.more {
                        format!(" (the first {MAX_CHILDREN}; it has more)")
                    } else {
                        String::new()
                    }
                )
            });
            Expansion {
                terms,
                complete: !f.more,
                note,
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "children of the term could not be read");
            Expansion {
                terms,
                complete: false,
                note: Some(format!(
                    "The term's child terms could not be read ({}); only the term itself was covered.",
                    e.code()
                )),
            }
        }
    }
}

/// The genes associated with the terms (Orphanet, GenCC), at most [`MAX_TERM_GENES`],
/// and whether there were more.
pub(crate) async fn genes_of_terms(
    client: &IgvfClient,
    terms: &[String],
) -> Result<(Vec<String>, bool), ApiError> {
    let fetched = join_all(terms.iter().map(|t| {
        let request = Request::new(Endpoint::DiseasesGenes).param("disease_id", t.clone());
        async move { client.fetch::<Edge>(&request, 100).await }
    }))
    .await;
    let mut genes: Vec<String> = Vec::new();
    let mut more = false;
    let mut errors = Vec::new();
    for f in fetched {
        match f {
            Ok(f) => {
                more |= f.more;
                for edge in f.items {
                    if let Some(g) = edge.gene.as_ref().map(|g| g.key.clone())
                        && !genes.contains(&g)
                    {
                        genes.push(g);
                    }
                }
            }
            Err(e) => errors.push(e),
        }
    }
    if genes.is_empty()
        && let Some(e) = errors.into_iter().next()
    {
        return Err(e);
    }
    more |= genes.len() > MAX_TERM_GENES;
    genes.truncate(MAX_TERM_GENES);
    Ok((genes, more))
}
