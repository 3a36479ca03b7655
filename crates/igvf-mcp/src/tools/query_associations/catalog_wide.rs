//! Queries with no anchor entity: the endpoint each kind reads when nothing anchors it,
//! and whether the catalog answers such a query at all. That is decided by the spec, not
//! by a list kept here: each endpoint's description names the parameters of which it
//! needs one ("At least one of these properties must be defined: spdi, …, method, or
//! files_filesets", read by `EndpointSpec::needs_one_of`). A query whose filters fill one
//! of them is sent (`/variants/genes?method=spliceQTL&source=EBI`); one that fills none
//! is refused before any request, with a hint naming the arguments that would.

use lifesciences_core::ApiError;

use super::{Filters, Kind, Query, Rows, VARIANT_GENES, dataset};
use crate::client::{Endpoint, Request, quoted};
use crate::ids::EntityKind;
use crate::spec::spec;

/// The endpoint a kind reads with no anchor, and how its rows are read: the one of the
/// kind's endpoints that takes the most of this tool's filters.
pub(super) fn source_of(kind: Kind) -> (Endpoint, Rows) {
    use Endpoint as E;
    use EntityKind as K;
    let edges = |endpoint, from| (endpoint, Rows::Edges(dataset(endpoint, from)));
    match kind {
        // Variant → gene rows, every QTL method and source.
        Kind::Eqtl | Kind::Sqtl => (E::VariantsGenes, Rows::Edges(VARIANT_GENES)),
        Kind::ElementGene => edges(E::GenesGenomicElements, K::Gene),
        Kind::Coexpression => edges(E::GenesGenes, K::Gene),
        Kind::RegulatoryNetwork => edges(E::GeneRegulatoryNetwork, K::Gene),
        // /phenotypes/variants takes `method` and `source`; /variants/phenotypes no source.
        Kind::Gwas => edges(E::PhenotypesVariants, K::OntologyTerm),
        Kind::Clinical => edges(E::DiseasesVariants, K::OntologyTerm),
        Kind::CodingVariantEffect => (E::CodingVariantsPhenotypes, Rows::ChangeScores),
        Kind::DiseaseGene => edges(E::DiseasesGenes, K::OntologyTerm),
    }
}

/// The query of `kind` with no anchor, with the filters given, when the catalog answers
/// it; else `INVALID_INPUT` naming what would make it answerable. `raw_kind` is what the
/// caller sent as `kind`.
pub(super) fn query(
    kind: Kind,
    method: Option<&str>,
    filters: &Filters,
    raw_kind: &str,
) -> Result<Query, ApiError> {
    let (endpoint, rows) = source_of(kind);
    let built = Query::new(Request::new(endpoint), rows, kind, method, filters, true);
    // A filter value the endpoint refuses is reported as such, unless the query could
    // not be answered even with a valid one.
    let sent: Vec<&str> = match &built {
        Ok(q) => q.request.param_names(),
        Err(_) => {
            let mut names = Vec::new();
            if method.is_some() || kind.fixed_method().is_some() {
                names.push("method");
            }
            if filters.tissue.is_some() {
                names.push("biological_context");
            }
            names
        }
    };
    let Some(described) = spec().endpoint(endpoint.path()) else {
        return built;
    };
    if let Err(needed) = described.answers(&sent) {
        return Err(refusal(kind, endpoint, &needed, raw_kind));
    }
    built
}

/// `INVALID_INPUT` for a query the endpoint cannot answer: which of its parameters it
/// needs, and the arguments of this tool that set them.
fn refusal(kind: Kind, endpoint: Endpoint, needed: &[String], raw_kind: &str) -> ApiError {
    let mut ways: Vec<String> = Vec::new();
    if needed.iter().any(|n| n == "method") && kind.fixed_method().is_none() {
        let values = endpoint.enum_values("method");
        ways.push(if values.is_empty() {
            "'method'".to_owned()
        } else {
            format!("'method' (one of {})", quoted(values))
        });
    }
    if needed.iter().any(|n| n == "biological_context") {
        ways.push("'tissue'".to_owned());
    }
    // Every other parameter it names identifies an entity (gene_id, disease_id,
    // variant_id, region…): an anchor.
    ways.push(format!("'entity_id': {}", kind.anchors()));
    ApiError::invalid_input(
        format!(
            "'{}' needs an entity_id for these filters: the catalog's /{} answers only when \
             one of {} is set, and no argument given sets one.",
            kind.as_str(),
            endpoint.path(),
            needed.join(", ")
        ),
        format!("Give {}.", ways.join(", or ")),
        raw_kind,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filters() -> Filters {
        Filters::default()
    }

    #[test]
    fn every_kind_reads_an_endpoint_of_the_spec_with_no_anchor() {
        for kind in Kind::ALL {
            let (endpoint, _) = source_of(kind);
            assert!(
                spec().endpoint(endpoint.path()).is_some(),
                "{kind:?}: /{}",
                endpoint.path()
            );
        }
    }

    #[test]
    fn what_the_spec_answers_is_sent_and_what_it_cannot_is_refused() {
        // QTLs: the kind's own method fills `method`, so any filters go.
        let sqtl = Filters {
            source: Some("EBI".to_owned()),
            ..filters()
        };
        let q = query(Kind::Sqtl, None, &sqtl, "sqtl").unwrap();
        assert_eq!(
            q.request.query(),
            [
                ("method", "spliceQTL".to_owned()),
                ("source", "EBI".to_owned())
            ]
        );
        assert!(query(Kind::Eqtl, None, &filters(), "eqtl").is_ok());
        // Element links and GWAS need a method; co-expression and ClinGen an entity.
        let e = query(Kind::ElementGene, None, &filters(), "element_gene").unwrap_err();
        let body = e.to_envelope().error;
        assert!(
            body.recovery_hint.contains("'ENCODE-rE2G'"),
            "{}",
            body.recovery_hint
        );
        assert!(
            body.recovery_hint.contains("'entity_id'"),
            "{}",
            body.recovery_hint
        );
        assert_eq!(body.invalid_input.as_deref(), Some("element_gene"));
        assert!(query(Kind::ElementGene, Some("scE2G"), &filters(), "x").is_ok());
        assert!(query(Kind::Gwas, Some("GWAS"), &filters(), "gwas").is_ok());
        assert!(query(Kind::CodingVariantEffect, Some("SGE"), &filters(), "x").is_ok());
        for kind in [
            Kind::Coexpression,
            Kind::Clinical,
            Kind::DiseaseGene,
            Kind::RegulatoryNetwork,
        ] {
            let e = query(kind, None, &filters(), kind.as_str()).unwrap_err();
            let hint = e.to_envelope().error.recovery_hint;
            assert!(hint.starts_with("Give 'entity_id'"), "{kind:?}: {hint}");
        }
        // An invalid method where a valid one would not help either: the refusal.
        let e = query(Kind::Coexpression, Some("nonsense"), &filters(), "x").unwrap_err();
        assert!(e.to_envelope().error.message.contains("needs an entity_id"));
        // An invalid method where a valid one would help: the accepted values.
        let e = query(Kind::ElementGene, Some("nonsense"), &filters(), "x").unwrap_err();
        assert!(e.to_envelope().error.recovery_hint.contains("scE2G"));
    }
}
