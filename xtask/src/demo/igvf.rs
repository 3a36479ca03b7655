//! The IGVF Catalog demo script: a genetics agent that knows no endpoint names or ID
//! formats looks BRCA1 up by symbol, lists what lies in chr17:41M–42M (and is told why
//! variants need a smaller region), asks what regulates TP53, converts rs80357906 to its
//! SPDI, checks LD partners, trips over an ancestry TopLD lacks, and discovers the valid
//! source values. Then a locus, step by step: a variant's record with its context (CADD,
//! gnomAD, nearest genes, containing elements), the gene a variant regulates in one
//! tissue, the genes most co-expressed with BRCA1 ranked by z-score, and every liver
//! eQTL the catalog returns, with no starting entity. The mock serves `crates/igvf-mcp/tests/fixtures` (see their README for
//! provenance).

use serde_json::json;
use wiremock::Mock;
use wiremock::matchers::{method, path, query_param};

use super::script::{Expect, Script, Step, fixture};

const KRATE: &str = "igvf-mcp";

fn route(at: &str, query: &[(&str, &str)], file: &str) -> Mock {
    let mut mock = Mock::given(method("GET")).and(path(format!("/igvf/{at}")));
    for (name, value) in query {
        mock = mock.and(query_param(*name, *value));
    }
    mock.respond_with(fixture(KRATE, file))
}

fn empty(at: &str) -> Mock {
    Mock::given(method("GET"))
        .and(path(format!("/igvf/{at}")))
        .respond_with(
            wiremock::ResponseTemplate::new(200)
                .insert_header("content-type", "application/json")
                .set_body_string("[]"),
        )
}

pub(crate) fn script() -> Script {
    // chr17:41M-42M (1-based, inclusive) as igvf-mcp asks the catalog: 0-based, half-open.
    let region = "chr17:40999999-42000000";
    let tp53 = "ENSG00000141510";
    Script {
        upstreams: vec![("IGVF_CATALOG_API_URL", "/igvf")],
        mocks: vec![
            route("genes", &[("name", "BRCA1")], "genes__name=BRCA1.json"),
            route("genes", &[("name", "TP53")], "genes__name=TP53.json"),
            route(
                "genes",
                &[("region", region)],
                "genes__region=chr17_41000000-42000000.json",
            ),
            empty("genomic-elements"),
            empty("gene-regulatory-network"),
            route(
                "genes/variants",
                &[("gene_id", tp53)],
                "genes_variants__gene_id=ENSG00000141510.json",
            ),
            route(
                "genes/genomic-elements",
                &[("gene_id", tp53)],
                "genes_genomic-elements__gene_id=ENSG00000141510.json",
            ),
            route(
                "variants",
                &[("rsid", "rs80357906")],
                "variants__rsid=rs80357906.json",
            ),
            route(
                "variants/variant-ld",
                &[("rsid", "rs60960132")],
                "variants_variant-ld__rsid=rs60960132.json",
            ),
            route(
                "variants",
                &[("spdi", "NC_000020.11:3658947:A:G")],
                "variants__spdi=NC_000020.11_3658947_A_G.json",
            ),
            route(
                "variants/summary",
                &[("variant_id", "NC_000020.11:3658947:A:G")],
                "variants_summary__variant_id=NC_000020.11_3658947_A_G.json",
            ),
            route(
                "variants/genes",
                &[("rsid", "rs1152591"), ("method", "spliceQTL")],
                "variants_genes__rsid=rs1152591.json",
            ),
            route(
                "variants/genes",
                &[("method", "eQTL"), ("biological_context", "liver")],
                "variants_genes__method=eQTL_biological_context=liver.json",
            ),
            route(
                "genes/genes",
                &[("gene_id", "ENSG00000012048"), ("source", "COXPRESdb")],
                "genes_genes__gene_id=ENSG00000012048.json",
            ),
        ],
        steps: vec![
            Step {
                say: "A gene by symbol: the exact gene, typed, with coordinates and cross-references",
                tool: "igvf_get_entity",
                arguments: json!({"id": "BRCA1"}),
                expect: Expect::Ok,
            },
            Step {
                say: "What lies in chr17:41M-42M: genes and regulatory elements in parallel; variants need ≤ 10 kb",
                tool: "igvf_search_region",
                arguments: json!({"region": "chr17:41M-42M", "limit": 5}),
                expect: Expect::Ok,
            },
            Step {
                say: "What regulates TP53: the symbol resolved exactly, then QTLs and element links with context",
                tool: "igvf_find_associations",
                arguments: json!({"entity_id": "TP53", "relationship": "regulatory"}),
                expect: Expect::Ok,
            },
            Step {
                say: "rs80357906 to its SPDI (and every other alias the catalog has)",
                tool: "igvf_resolve_id",
                arguments: json!({"id": "rs80357906", "target_type": "spdi"}),
                expect: Expect::Ok,
            },
            Step {
                say: "Variants in LD with rs60960132 among Europeans, r² ≥ 0.2",
                tool: "igvf_find_ld",
                arguments: json!({"variant_id": "rs60960132", "r2_threshold": 0.2}),
                expect: Expect::Ok,
            },
            Step {
                say: "TopLD has no AMR panel: refused with the ancestries the API accepts",
                tool: "igvf_find_ld",
                arguments: json!({"variant_id": "rs60960132", "ancestry": "AMR"}),
                expect: Expect::Error("INVALID_INPUT"),
            },
            Step {
                say: "A malformed region gets the expected form",
                tool: "igvf_search_region",
                arguments: json!({"region": "chr1-1000-2000"}),
                expect: Expect::Error("INVALID_INPUT"),
            },
            Step {
                say: "Valid source values for QTL filters, from the API's own OpenAPI enums",
                tool: "igvf_list_sources",
                arguments: json!({"category": "gene_expression"}),
                expect: Expect::Ok,
            },
            Step {
                say: "A locus: a variant with its CADD score, gnomAD by population, nearest genes and containing elements, in one call",
                tool: "igvf_get_entity",
                arguments: json!({"id": "NC_000020.11:3658947:A:G"}),
                expect: Expect::Ok,
            },
            Step {
                say: "The gene a variant regulates in one tissue: its splicing QTLs in thyroid",
                tool: "igvf_query_associations",
                arguments: json!({"kind": "sqtl", "entity_id": "rs1152591", "tissue": "thyroid"}),
                expect: Expect::Ok,
            },
            Step {
                say: "The top 5 genes co-expressed with BRCA1, by z-score ascending, ranked across every upstream page",
                tool: "igvf_query_associations",
                arguments: json!({"kind": "coexpression", "entity_id": "BRCA1", "sort_by": "z_score", "order": "asc", "limit": 5}),
                expect: Expect::Ok,
            },
            Step {
                say: "No starting entity: eQTLs active in liver, smallest p-value first",
                tool: "igvf_query_associations",
                arguments: json!({"kind": "eqtl", "tissue": "liver", "limit": 5}),
                expect: Expect::Ok,
            },
        ],
    }
}
