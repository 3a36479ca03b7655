//! Serde types mirroring STRING's JSON answers, tolerant of what varies between STRING
//! versions and methods (docs/sources/string.md, "Quirks handled"):
//! `ncbiTaxonId` is a number in some answers and a string in others, channel scores of 0
//! come as integer `0` or are missing, and `queryIndex` may be a string. Every field is
//! optional here; the tools decide what a usable row needs.
//!
//! A list whose first row carries an `error` key, or a JSON body that is not a list, is
//! STRING reporting a problem with status 200 (a client's report; docs/sources/string.md):
//! decoding [`Rows`] fails for it, so core reports `UPSTREAM_ERROR` and does not cache it.

use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny};
use serde_json::Value;

/// A number STRING may send as a JSON number or as a string (`9606` or `"9606"`,
/// `0.999` or `"0.999"`). Anything else is kept as unusable rather than failing the row.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum Lenient {
    /// A JSON number.
    Number(f64),
    /// A JSON string, parsed on use.
    Text(String),
    /// null, a boolean, a list or an object: present but unusable.
    Other(IgnoredAny),
}

impl Lenient {
    /// The value as a float, when it is one.
    pub(crate) fn as_f64(&self) -> Option<f64> {
        match self {
            Self::Number(n) => Some(*n),
            Self::Text(s) => s.trim().parse::<f64>().ok(),
            Self::Other(_) => None,
        }
        .filter(|f| f.is_finite())
    }

    /// The value as a non-negative integer, when it is a whole one.
    pub(crate) fn as_u64(&self) -> Option<u64> {
        match self {
            Self::Text(s) => s.trim().parse::<u64>().ok(),
            other => other
                .as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 9e15)
                .map(|f| f as u64),
        }
    }
}

/// A row that may be STRING's error report instead of data.
pub(crate) trait MaybeError {
    /// The `error` value of the row, if it has one.
    fn error(&self) -> Option<&Value>;
}

/// The rows of a STRING JSON answer. Fails to decode (with STRING's own words) when the
/// answer is an error report rather than rows.
#[derive(Debug)]
pub(crate) struct Rows<T>(pub Vec<T>);

impl<'de, T> Deserialize<'de> for Rows<T>
where
    T: Deserialize<'de> + MaybeError,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Answer<T> {
            List(Vec<T>),
            Other(Value),
        }
        match Answer::<T>::deserialize(deserializer)? {
            Answer::List(rows) => match rows.first().and_then(MaybeError::error) {
                Some(error) => Err(serde::de::Error::custom(format!(
                    "STRING answered with an error instead of results: {}",
                    describe(error)
                ))),
                None => Ok(Self(rows)),
            },
            Answer::Other(value) => Err(serde::de::Error::custom(format!(
                "STRING answered with {} instead of a list of results",
                describe(&value)
            ))),
        }
    }
}

/// A list of rows none of which is usable (`[{"unexpected": 1}]`) is not an empty answer:
/// it is an upstream error, and the body is not cached.
impl<T> lifesciences_core::Answer for Rows<T>
where
    T: serde::de::DeserializeOwned + MaybeError + lifesciences_core::Row,
{
    fn unusable(&self) -> Option<String> {
        lifesciences_core::Answer::unusable(&self.0)
    }
}

/// A short rendering of what STRING said, for the error message.
fn describe(value: &Value) -> String {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Object(map) => ["error", "Error", "message", "ErrorMessage"]
            .iter()
            .find_map(|k| map.get(*k))
            .map_or_else(
                || value.to_string(),
                |v| v.as_str().map_or_else(|| v.to_string(), str::to_owned),
            ),
        other => other.to_string(),
    };
    let short: String = text.chars().take(200).collect();
    if short.len() < text.len() {
        format!("{short}…")
    } else {
        short
    }
}

/// One row of `get_string_ids`: a match of one query item, best first.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StringIdRow {
    /// The identifier this row answers, as sent (with `echo_query=1`).
    pub query_item: Option<String>,
    /// 0-based position of the query item this row answers (sometimes a string).
    pub query_index: Option<Lenient>,
    /// The STRING protein, e.g. `9606.ENSP00000269305`.
    pub string_id: Option<String>,
    /// NCBI taxon, number or string.
    pub ncbi_taxon_id: Option<Lenient>,
    /// e.g. `Homo sapiens`.
    pub taxon_name: Option<String>,
    /// STRING's preferred name, e.g. `TP53`.
    pub preferred_name: Option<String>,
    /// Free text, "Name; description…".
    pub annotation: Option<String>,
    /// Present when the row is an error report.
    pub error: Option<Value>,
}

impl MaybeError for StringIdRow {
    fn error(&self) -> Option<&Value> {
        self.error.as_ref()
    }
}

/// One row of `interaction_partners` (and `network`): an undirected edge, A being the
/// query protein, with the combined score and the seven channel scores, all 0–1.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct PartnerRow {
    #[serde(rename = "stringId_A")]
    pub string_id_a: Option<String>,
    #[serde(rename = "stringId_B")]
    pub string_id_b: Option<String>,
    #[serde(rename = "preferredName_A")]
    pub preferred_name_a: Option<String>,
    #[serde(rename = "preferredName_B")]
    pub preferred_name_b: Option<String>,
    #[serde(rename = "ncbiTaxonId")]
    pub ncbi_taxon_id: Option<Lenient>,
    /// The combined score.
    pub score: Option<Lenient>,
    /// Neighborhood.
    pub nscore: Option<Lenient>,
    /// Gene fusion.
    pub fscore: Option<Lenient>,
    /// Phylogenetic profile (co-occurrence).
    pub pscore: Option<Lenient>,
    /// Co-expression.
    pub ascore: Option<Lenient>,
    /// Experiments.
    pub escore: Option<Lenient>,
    /// Curated databases.
    pub dscore: Option<Lenient>,
    /// Text mining.
    pub tscore: Option<Lenient>,
    /// Present when the row is an error report.
    pub error: Option<Value>,
}

impl MaybeError for PartnerRow {
    fn error(&self) -> Option<&Value> {
        self.error.as_ref()
    }
}

/// A partner row names the partner and carries the combined score.
impl lifesciences_core::Row for PartnerRow {
    fn usable(&self) -> bool {
        self.string_id_b.is_some() && self.score.is_some()
    }
}

/// A match names its STRING identifier.
impl lifesciences_core::Row for StringIdRow {
    fn usable(&self) -> bool {
        self.string_id.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_arrive_as_numbers_strings_or_junk() {
        let v: Vec<Option<Lenient>> =
            serde_json::from_str(r#"[9606, "9606", 0.543, "0.543", 0, null, true, "x"]"#).unwrap();
        let u: Vec<_> = v
            .iter()
            .map(|l| l.as_ref().and_then(Lenient::as_u64))
            .collect();
        assert_eq!(
            u,
            [
                Some(9606),
                Some(9606),
                None,
                None,
                Some(0),
                None,
                None,
                None
            ]
        );
        let f: Vec<_> = v
            .iter()
            .map(|l| l.as_ref().and_then(Lenient::as_f64))
            .collect();
        assert_eq!(
            f,
            [
                Some(9606.0),
                Some(9606.0),
                Some(0.543),
                Some(0.543),
                Some(0.0),
                None,
                None,
                None
            ]
        );
    }

    #[test]
    fn partner_rows_tolerate_missing_channels_and_string_taxa() {
        let rows: Rows<PartnerRow> = serde_json::from_str(
            r#"[{"stringId_A": "7227.FBpp0074940", "stringId_B": "7227.FBpp0082908",
                 "ncbiTaxonId": "7227", "score": 0.817, "tscore": 0.533}]"#,
        )
        .unwrap();
        let row = &rows.0[0];
        assert_eq!(
            row.ncbi_taxon_id.as_ref().and_then(Lenient::as_u64),
            Some(7227)
        );
        assert!(row.nscore.is_none() && row.escore.is_none());
        assert_eq!(row.tscore.as_ref().and_then(Lenient::as_f64), Some(0.533));
    }

    #[test]
    fn an_error_report_fails_to_decode_with_strings_words() {
        let err = serde_json::from_str::<Rows<StringIdRow>>(
            r#"[{"error": "background_error", "message": "not in background"}]"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("STRING answered with an error instead of results: background_error"),
            "{err}"
        );
        let err = serde_json::from_str::<Rows<PartnerRow>>(r#"{"Error": "species not found"}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("species not found"), "{err}");
        assert!(err.contains("instead of a list of results"), "{err}");
        assert!(
            serde_json::from_str::<Rows<PartnerRow>>("[]")
                .unwrap()
                .0
                .is_empty()
        );
    }
}

/// A list STRING may send as a JSON list or as one comma-joined string (`inputGenes` and
/// `preferredNames` of enrichment and annotation rows; recordings and clients disagree).
#[derive(Debug, Clone, Default)]
pub(crate) struct NameList(pub Vec<String>);

impl<'de> Deserialize<'de> for NameList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            List(Vec<Value>),
            Text(String),
            Other(IgnoredAny),
        }
        let names = match Form::deserialize(deserializer)? {
            Form::List(items) => items
                .into_iter()
                .filter_map(|v| match v {
                    Value::String(s) => Some(s),
                    Value::Number(n) => Some(n.to_string()),
                    _ => None,
                })
                .collect(),
            Form::Text(text) => text.split(',').map(str::to_owned).collect(),
            Form::Other(_) => Vec::new(),
        };
        Ok(Self(
            names
                .into_iter()
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect(),
        ))
    }
}

/// One row of `enrichment`: a term enriched in the input set (STRING returns only terms
/// with p < 0.1; FDR is computed per category).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct EnrichmentRow {
    /// `Process`, `Function`, `Component`, `KEGG`, `RCTM`, `PMID`…
    pub category: Option<String>,
    /// The term's ID, e.g. `GO:0006954`, `hsa04620`, `PMID:36873050`.
    pub term: Option<String>,
    /// Input proteins annotated with the term.
    pub number_of_genes: Option<Lenient>,
    /// Background proteins annotated with the term.
    pub number_of_genes_in_background: Option<Lenient>,
    /// The input identifiers carrying the term, as given.
    #[serde(rename = "inputGenes", default)]
    pub input_genes: NameList,
    /// STRING's names of those proteins.
    #[serde(rename = "preferredNames", default)]
    pub preferred_names: NameList,
    pub p_value: Option<Lenient>,
    pub fdr: Option<Lenient>,
    pub description: Option<String>,
    /// Present when the row is an error report.
    pub error: Option<Value>,
}

/// One row of `functional_annotation`: a term carried by some of the input proteins.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct AnnotationRow {
    pub category: Option<String>,
    pub term: Option<String>,
    pub number_of_genes: Option<Lenient>,
    /// The share of input proteins carrying the term (`1`, `0.5`).
    pub ratio_in_set: Option<Lenient>,
    #[serde(rename = "inputGenes", default)]
    pub input_genes: NameList,
    #[serde(rename = "preferredNames", default)]
    pub preferred_names: NameList,
    pub description: Option<String>,
    /// Present when the row is an error report.
    pub error: Option<Value>,
}

/// The one row of `ppi_enrichment`: is the set more connected than a random set of its size?
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct PpiEnrichmentRow {
    pub number_of_nodes: Option<Lenient>,
    pub number_of_edges: Option<Lenient>,
    pub average_node_degree: Option<Lenient>,
    pub local_clustering_coefficient: Option<Lenient>,
    pub expected_number_of_edges: Option<Lenient>,
    pub p_value: Option<Lenient>,
    /// Present when the row is an error report.
    pub error: Option<Value>,
}

/// One row of `homology` / `homology_best`: protein A (the query) is similar to B.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct HomologyRow {
    #[serde(rename = "stringId_A")]
    pub string_id_a: Option<String>,
    #[serde(rename = "ncbiTaxonId_B")]
    pub ncbi_taxon_id_b: Option<Lenient>,
    #[serde(rename = "stringId_B")]
    pub string_id_b: Option<String>,
    /// The alignment's bitscore, e.g. `671.0`.
    pub bitscore: Option<Lenient>,
    /// Present when the row is an error report.
    pub error: Option<Value>,
}

macro_rules! maybe_error {
    ($($row:ty),*) => {$(
        impl MaybeError for $row {
            fn error(&self) -> Option<&Value> {
                self.error.as_ref()
            }
        }
    )*};
}
maybe_error!(EnrichmentRow, AnnotationRow, PpiEnrichmentRow, HomologyRow);

/// A term row names its category and term.
impl lifesciences_core::Row for EnrichmentRow {
    fn usable(&self) -> bool {
        self.category.is_some() && self.term.is_some()
    }
}

/// A term row names its category and term.
impl lifesciences_core::Row for AnnotationRow {
    fn usable(&self) -> bool {
        self.category.is_some() && self.term.is_some()
    }
}

/// The statistics row counts nodes and edges.
impl lifesciences_core::Row for PpiEnrichmentRow {
    fn usable(&self) -> bool {
        self.number_of_nodes.is_some() && self.number_of_edges.is_some()
    }
}

/// A homology row names both proteins.
impl lifesciences_core::Row for HomologyRow {
    fn usable(&self) -> bool {
        self.string_id_a.is_some() && self.string_id_b.is_some()
    }
}
