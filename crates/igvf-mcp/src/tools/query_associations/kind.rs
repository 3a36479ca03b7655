//! What `igvf_query_associations` ranks (one kind per call), by which field, in which
//! direction: the kinds' names and synonyms, what each can be anchored on, and the
//! method and sort each implies.

use lifesciences_core::ApiError;
use lifesciences_core::schemars::{self, JsonSchema};
use serde::{Deserialize, Serialize};

use crate::associations::Association;

/// What to rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Kind {
    /// Expression QTLs (variant → gene).
    Eqtl,
    /// Splicing QTLs.
    Sqtl,
    /// Regulatory element → gene links (ENCODE-rE2G, scE2G, CRISPR, Perturb-seq).
    ElementGene,
    /// Co-expressed genes (COXPRESdb).
    Coexpression,
    /// Genes whose expression changes when the gene is perturbed.
    RegulatoryNetwork,
    /// GWAS and other variant–trait associations.
    Gwas,
    /// ClinGen variant–disease assertions.
    Clinical,
    /// Coding-variant effect scores of a gene (SGE, VAMP-seq, ESM-1v, MutPred2…).
    CodingVariantEffect,
    /// Genes of a disease or phenotype term and its child terms (Orphanet, GenCC), or a
    /// gene's diseases.
    DiseaseGene,
}

impl Kind {
    /// Every kind, for the tests.
    #[cfg(test)]
    pub(super) const ALL: [Kind; 9] = [
        Self::Eqtl,
        Self::Sqtl,
        Self::ElementGene,
        Self::Coexpression,
        Self::RegulatoryNetwork,
        Self::Gwas,
        Self::Clinical,
        Self::CodingVariantEffect,
        Self::DiseaseGene,
    ];

    pub(super) fn parse(raw: &str) -> Result<Self, ApiError> {
        let key = raw.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        Ok(match key.as_str() {
            "eqtl" | "eqtls" => Self::Eqtl,
            "sqtl" | "sqtls" | "splice_qtl" | "spliceqtl" => Self::Sqtl,
            "element_gene" | "elements" | "enhancer_gene" | "genomic_element" => Self::ElementGene,
            "coexpression" | "co_expression" | "coexpressed" => Self::Coexpression,
            "regulatory_network" | "grn" | "perturbation" | "perturb_seq" => {
                Self::RegulatoryNetwork
            }
            "gwas" | "phenotype" | "trait" => Self::Gwas,
            "clinical" | "clingen" | "clinvar" => Self::Clinical,
            "coding_variant_effect" | "coding" | "mave" | "coding_variant" => {
                Self::CodingVariantEffect
            }
            "disease_gene" | "disease_genes" | "gene_disease" | "gene_diseases" => {
                Self::DiseaseGene
            }
            _ => {
                return Err(ApiError::invalid_input(
                    format!("'{raw}' is not a kind of association this tool ranks."),
                    "Use one of 'eqtl', 'sqtl', 'element_gene', 'coexpression', \
                     'regulatory_network', 'gwas', 'clinical', 'coding_variant_effect', \
                     'disease_gene'.",
                    raw,
                ));
            }
        })
    }

    pub(super) fn as_str(self) -> &'static str {
        match self {
            Self::Eqtl => "eqtl",
            Self::Sqtl => "sqtl",
            Self::ElementGene => "element_gene",
            Self::Coexpression => "coexpression",
            Self::RegulatoryNetwork => "regulatory_network",
            Self::Gwas => "gwas",
            Self::Clinical => "clinical",
            Self::CodingVariantEffect => "coding_variant_effect",
            Self::DiseaseGene => "disease_gene",
        }
    }

    /// The entity kinds this kind can be anchored on, in words.
    pub(super) fn anchors(self) -> &'static str {
        match self {
            Self::Eqtl | Self::Sqtl => "a gene, a variant, or a disease term (its genes)",
            Self::Clinical => "a variant, a disease term, or a gene (variants in its span)",
            Self::Gwas => "a variant or a trait/disease term",
            Self::ElementGene | Self::Coexpression => "a gene, or a disease term (its genes)",
            Self::CodingVariantEffect => {
                "a gene, a protein change ('XRCC2 p.Met1Ile'), or a disease term (its genes)"
            }
            Self::RegulatoryNetwork => "a gene (as the perturbed regulator)",
            Self::DiseaseGene => {
                "a disease or phenotype term (its genes), or a gene (its diseases)"
            }
        }
    }

    /// The upstream `method` a kind fixes.
    pub(super) fn fixed_method(self) -> Option<&'static str> {
        match self {
            Self::Eqtl => Some("eQTL"),
            Self::Sqtl => Some("spliceQTL"),
            _ => None,
        }
    }

    /// The sort applied when none is asked for.
    pub(super) fn default_sort(self) -> Option<SortBy> {
        match self {
            Self::Eqtl | Self::Sqtl | Self::Gwas => Some(SortBy::PValue),
            Self::ElementGene => Some(SortBy::Score),
            Self::Coexpression => Some(SortBy::ZScore),
            Self::RegulatoryNetwork => Some(SortBy::AbsEffectSize),
            Self::Clinical | Self::CodingVariantEffect | Self::DiseaseGene => None,
        }
    }
}

/// The field to rank by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum SortBy {
    #[serde(alias = "pvalue", alias = "p")]
    PValue,
    Score,
    #[serde(alias = "zscore")]
    ZScore,
    EffectSize,
    AbsEffectSize,
}

impl SortBy {
    pub(super) fn key(self, a: &Association) -> Option<f64> {
        match self {
            Self::PValue => a.p_value,
            Self::Score => a.score,
            Self::ZScore => a.z_score,
            Self::EffectSize => a.effect_size,
            Self::AbsEffectSize => a.effect_size.map(f64::abs),
        }
    }

    pub(super) fn as_str(self) -> &'static str {
        match self {
            Self::PValue => "p_value",
            Self::Score => "score",
            Self::ZScore => "z_score",
            Self::EffectSize => "effect_size",
            Self::AbsEffectSize => "abs_effect_size",
        }
    }

    /// p-values rank ascending, everything else descending, unless told otherwise.
    pub(super) fn default_order(self) -> Order {
        if self == Self::PValue {
            Order::Asc
        } else {
            Order::Desc
        }
    }
}

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Order {
    #[serde(alias = "ascending", alias = "ASC")]
    Asc,
    #[serde(alias = "descending", alias = "DESC")]
    Desc,
}
