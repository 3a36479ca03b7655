//! A protein search in UniProt's query syntax (<https://www.uniprot.org/help/query-fields>,
//! <https://www.uniprot.org/help/text-search>): free text or the caller's own query, a
//! gene symbol matched exactly (`gene_exact:`) or as any gene name (`gene:`), the
//! organism (`organism_id:` for a taxon, `organism_name:` for a name), ANDed; and the two
//! sections UniProtKB is made of, reviewed (`reviewed:true`) and unreviewed, asked apart
//! so that reviewed entries come first. A free-text gene search without these matches
//! synonyms and other species: `FUBP3` alone returned 999 rows, `RBPMS2` and `QKI` among
//! them (recorded, 2022, `tests/fixtures/uniprotkb_search__FUBP3__page1.http.json`).

use lifesciences_core::ApiError;
use serde::{Deserialize, Serialize};

use crate::ids::Organism;

/// Which entries a list covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Section {
    /// Reviewed (Swiss-Prot) entries.
    #[serde(rename = "r")]
    Reviewed,
    /// Unreviewed (TrEMBL) entries.
    #[serde(rename = "u")]
    Unreviewed,
    /// Both, in UniProt's order (the caller's query says `reviewed:` itself).
    #[serde(rename = "a")]
    Any,
}

/// A search as the tool asks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Search {
    /// Free text or UniProt query syntax, trimmed.
    pub text: Option<String>,
    /// A gene symbol, checked by [`Search::gene_term`].
    pub gene: Option<String>,
    /// Match the gene as any of an entry's gene names and synonyms, not only exactly.
    pub any_gene_name: bool,
    pub organism: Option<Organism>,
    pub reviewed_only: bool,
}

impl Search {
    /// The gene symbol as a query term: `gene_exact:DNASE2`, quoted when it holds more
    /// than letters, digits and `_` (`gene_exact:"HLA-A"`). A symbol with spaces, quotes,
    /// parentheses or query operators is `INVALID_INPUT`.
    pub(crate) fn gene_term(symbol: &str, any_name: bool) -> Result<String, ApiError> {
        let s = symbol.trim();
        let allowed = |c: char| c.is_ascii_alphanumeric() || "-._/@'".contains(c);
        if s.is_empty() || s.len() > 50 || !s.chars().all(allowed) {
            return Err(ApiError::invalid_input(
                format!("'{symbol}' is not a gene symbol UniProt can match."),
                "Give one gene symbol (letters, digits, '-', '.', '_', '/'), e.g. 'DNASE2' or \
                 'HLA-A'; put other words in 'query'.",
                symbol,
            ));
        }
        let field = if any_name { "gene" } else { "gene_exact" };
        let plain = s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        Ok(if plain {
            format!("{field}:{s}")
        } else {
            format!("{field}:\"{s}\"")
        })
    }

    /// The sections asked, in the order listed: reviewed then unreviewed entries, only
    /// reviewed ones, or UniProt's order when the caller's query says `reviewed:` itself.
    pub(crate) fn sections(&self) -> &'static [Section] {
        let own = self
            .text
            .as_deref()
            .is_some_and(|t| t.to_ascii_lowercase().contains("reviewed:"));
        match (self.reviewed_only, own) {
            (true, _) => &[Section::Reviewed],
            (false, true) => &[Section::Any],
            (false, false) => &[Section::Reviewed, Section::Unreviewed],
        }
    }

    /// The query for one section: every clause ANDed, the caller's text in parentheses.
    pub(crate) fn query(&self, section: Section) -> Result<String, ApiError> {
        let mut clauses: Vec<String> = Vec::new();
        if let Some(text) = &self.text {
            clauses.push(format!("({text})"));
        }
        if let Some(gene) = &self.gene {
            clauses.push(Self::gene_term(gene, self.any_gene_name)?);
        }
        match &self.organism {
            Some(Organism::Taxon(taxon)) => clauses.push(format!("organism_id:{taxon}")),
            Some(Organism::Name(name)) => clauses.push(format!("organism_name:\"{name}\"")),
            None => {}
        }
        match section {
            Section::Reviewed => clauses.push("reviewed:true".to_owned()),
            Section::Unreviewed => clauses.push("reviewed:false".to_owned()),
            Section::Any => {}
        }
        if clauses.len() == 1 {
            // The caller's text alone is sent as written.
            if let Some(text) = &self.text
                && section == Section::Any
            {
                return Ok(text.clone());
            }
        }
        Ok(clauses.join(" AND "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;

    fn search(text: Option<&str>, gene: Option<&str>, organism: Option<Organism>) -> Search {
        Search {
            text: text.map(str::to_owned),
            gene: gene.map(str::to_owned),
            any_gene_name: false,
            organism,
            reviewed_only: false,
        }
    }

    #[test]
    fn gene_x_in_organism_y_asks_reviewed_entries_first() {
        let s = search(None, Some("DNASE2"), Some(Organism::Taxon(9606)));
        assert_eq!(s.sections(), [Section::Reviewed, Section::Unreviewed]);
        assert_eq!(
            s.query(Section::Reviewed).unwrap(),
            "gene_exact:DNASE2 AND organism_id:9606 AND reviewed:true"
        );
        assert_eq!(
            s.query(Section::Unreviewed).unwrap(),
            "gene_exact:DNASE2 AND organism_id:9606 AND reviewed:false"
        );
        let any = Search {
            any_gene_name: true,
            reviewed_only: true,
            ..s
        };
        assert_eq!(any.sections(), [Section::Reviewed]);
        assert_eq!(
            any.query(Section::Reviewed).unwrap(),
            "gene:DNASE2 AND organism_id:9606 AND reviewed:true"
        );
    }

    #[test]
    fn free_text_is_grouped_names_are_phrases_and_odd_symbols_quoted() {
        let s = search(
            Some("adenosine receptor"),
            Some("HLA-A"),
            Some(Organism::Name("Saccharomyces cerevisiae".into())),
        );
        assert_eq!(
            s.query(Section::Reviewed).unwrap(),
            "(adenosine receptor) AND gene_exact:\"HLA-A\" AND \
             organism_name:\"Saccharomyces cerevisiae\" AND reviewed:true"
        );
        // The caller's own `reviewed:` wins: one list, the query as written.
        let own = search(Some("kinase AND reviewed:false"), None, None);
        assert_eq!(own.sections(), [Section::Any]);
        assert_eq!(
            own.query(Section::Any).unwrap(),
            "kinase AND reviewed:false"
        );
        for bad in ["TP 53", "TP53\"", "A:B", "", "(x)"] {
            let e = Search::gene_term(bad, false).unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidInput, "{bad}");
        }
    }
}
