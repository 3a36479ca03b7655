//! The diseases an entry's `DISEASE` comments name, and how a natural variant's
//! description refers to them: UniProt writes `in AIPCS; complete loss of DNase
//! activity…; dbSNP:rs201030953`, the acronym being defined only in the comment
//! (`disease.acronym`, with the full name in `disease.diseaseId`).

use lifesciences_core::schemars::{self, JsonSchema};
use serde::Serialize;

use crate::models::Entry;

/// A disease the protein is involved in, as `uniprot_get_protein` lists it.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Disease {
    /// The disease's name, e.g. `Autoinflammatory-pancytopenia syndrome`.
    pub name: String,
    /// UniProt's acronym, which variant descriptions use, e.g. `AIPCS`.
    pub acronym: Option<String>,
    /// The disease's OMIM number (phenotype), e.g. `619858`.
    pub omim: Option<String>,
}

/// The diseases of one entry.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Diseases(Vec<Disease>);

impl Diseases {
    /// The diseases `entry`'s `DISEASE` comments name, in UniProt's order, each once.
    pub(crate) fn of(entry: &Entry) -> Self {
        let mut all: Vec<Disease> = Vec::new();
        for d in entry
            .comments_of("DISEASE")
            .filter_map(|c| c.disease.as_ref())
        {
            let Some(name) = d
                .disease_id
                .as_deref()
                .map(str::trim)
                .filter(|n| !n.is_empty())
            else {
                continue;
            };
            if all.iter().any(|known| known.name == name) {
                continue;
            }
            let omim = d
                .disease_cross_reference
                .as_ref()
                .filter(|x| x.database.as_deref() == Some("MIM"))
                .and_then(|x| x.id.clone());
            all.push(Disease {
                name: name.to_owned(),
                acronym: d.acronym.clone().filter(|a| !a.trim().is_empty()),
                omim,
            });
        }
        Self(all)
    }

    pub(crate) fn list(&self) -> &[Disease] {
        &self.0
    }

    fn by_acronym(&self, acronym: &str) -> Option<&Disease> {
        self.0
            .iter()
            .find(|d| d.acronym.as_deref() == Some(acronym))
    }

    /// A variant's description read: the diseases (`Name (ACRONYM)`) its leading `in …`
    /// clause names by acronym (`in AIPCS`, `in AIPCS and XYZ`, `in AIPCS, XYZ`), and what remains of the
    /// text without that clause and without `dbSNP:rs…` parts (given apart). A clause
    /// naming no known acronym (`in a colorectal cancer sample`) stays in the text.
    pub(crate) fn read_variant(&self, description: &str) -> (Vec<String>, Option<String>) {
        let mut parts: Vec<&str> = description
            .split(';')
            .map(str::trim)
            .filter(|p| !p.is_empty() && !is_dbsnp(p))
            .collect();
        let mut named = Vec::new();
        if let Some(clause) = parts.first().and_then(|p| p.strip_prefix("in ")) {
            let tokens: Vec<&str> = clause
                .split([',', ' '])
                .map(str::trim)
                .filter(|t| !t.is_empty() && *t != "and")
                .collect();
            let found: Vec<&Disease> = tokens.iter().filter_map(|t| self.by_acronym(t)).collect();
            if !found.is_empty() && found.len() == tokens.len() {
                named = found
                    .into_iter()
                    .map(|d| match &d.acronym {
                        Some(acronym) => format!("{} ({acronym})", d.name),
                        None => d.name.clone(),
                    })
                    .collect();
                parts.remove(0);
            }
        }
        let rest = parts.join("; ");
        (named, (!rest.is_empty()).then_some(rest))
    }
}

/// `dbSNP:rs…`, or a polymorphism's whole clause `in dbSNP:rs…`.
fn is_dbsnp(part: &str) -> bool {
    let id = part.strip_prefix("in ").unwrap_or(part);
    id.strip_prefix("dbSNP:rs")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::tests::entry;

    fn aipcs() -> Diseases {
        Diseases::of(&entry("uniprotkb__O00115.json"))
    }

    #[test]
    fn the_disease_comment_gives_name_acronym_and_omim() {
        assert_eq!(
            aipcs().list(),
            [Disease {
                name: "Autoinflammatory-pancytopenia syndrome".into(),
                acronym: Some("AIPCS".into()),
                omim: Some("619858".into()),
            }]
        );
        assert!(
            Diseases::of(&entry("uniprotkb__P30542.json"))
                .list()
                .is_empty()
        );
    }

    #[test]
    fn a_variant_description_is_split_into_diseases_and_text() {
        let d = aipcs();
        let (named, rest) = d.read_variant("in AIPCS; reduced DNase activity");
        assert_eq!(named, ["Autoinflammatory-pancytopenia syndrome (AIPCS)"]);
        assert_eq!(rest.as_deref(), Some("reduced DNase activity"));

        let (named, rest) = d.read_variant("in dbSNP:rs36075196");
        assert!(named.is_empty() && rest.is_none());

        // Recorded in P30542: a clause naming no acronym of the entry stays as written.
        let (named, rest) =
            d.read_variant("in a colorectal cancer sample; somatic mutation; dbSNP:rs899207013");
        assert!(named.is_empty());
        assert_eq!(
            rest.as_deref(),
            Some("in a colorectal cancer sample; somatic mutation")
        );

        // Two acronyms, one unknown: the clause is kept whole rather than half read.
        let (named, rest) = d.read_variant("in AIPCS and XYZ; benign");
        assert!(named.is_empty());
        assert_eq!(rest.as_deref(), Some("in AIPCS and XYZ; benign"));
    }
}
