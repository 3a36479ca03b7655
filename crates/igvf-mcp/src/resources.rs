//! The server's MCP resources: entity schemas (field descriptions, generated from the
//! output types so they never drift), the identifier guide (written from the detection
//! table) and example queries.

use lifesciences_core::{StaticResource, schemars};

use crate::entities::{GeneEntity, VariantEntity};
use crate::ids::FORMS;

/// Every resource, in listing order.
pub(crate) const RESOURCES: &[StaticResource] = &[
    StaticResource {
        uri: "igvf://schemas/gene",
        name: "gene-schema",
        title: "Gene entity schema",
        description: "JSON Schema of a gene as igvf_get_entity returns it, with field descriptions",
        mime_type: "application/schema+json",
        text: schema::<GeneEntity>,
    },
    StaticResource {
        uri: "igvf://schemas/variant",
        name: "variant-schema",
        title: "Variant entity schema",
        description: "JSON Schema of a variant as igvf_get_entity returns it, with field descriptions",
        mime_type: "application/schema+json",
        text: schema::<VariantEntity>,
    },
    StaticResource {
        uri: "igvf://guide/identifiers",
        name: "identifier-guide",
        title: "Identifier guide",
        description: "Every identifier form the tools detect, with examples, and how ambiguities are settled",
        mime_type: "text/markdown",
        text: identifier_guide,
    },
    StaticResource {
        uri: "igvf://examples/queries",
        name: "example-queries",
        title: "Example queries",
        description: "Worked tool calls for common questions (gene lookup, region, regulation, variant IDs, LD)",
        mime_type: "text/markdown",
        text: examples,
    },
];

fn examples() -> String {
    EXAMPLES.to_owned()
}

fn schema<T: schemars::JsonSchema>() -> String {
    let schema = schemars::schema_for!(T);
    serde_json::to_string_pretty(&schema).unwrap_or_default()
}

fn identifier_guide() -> String {
    let mut out = String::from(
        "# Identifiers the IGVF tools recognise\n\n\
         Every tool that takes an entity (`igvf_get_entity`, `igvf_resolve_id`, \
         `igvf_find_associations`, `igvf_find_ld`) detects its type from the form. The \
         forms are tried in this order; the first that fits wins.\n\n\
         | form | example | type | notes |\n|---|---|---|---|\n",
    );
    for f in FORMS {
        out.push_str(&format!(
            "| {} | `{}` | {} | {} |\n",
            f.form, f.example, f.kind, f.note
        ));
    }
    out.push_str(
        "\n## Hints\n\n\
         `hint` (`gene`, `variant`, `protein`, `transcript`, `disease`, `drug`, `complex`, \
         `pathway`) restricts detection to one type and allows names: `{\"id\": \"aspirin\", \
         \"hint\": \"drug\"}`, `{\"id\": \"phenylketonuria\", \"hint\": \"disease\"}`, \
         `{\"id\": \"CA1\", \"hint\": \"variant\"}` (a ClinGen ID, not the gene CA1). An \
         identifier of another type with a hint is refused rather than searched as a name.\n\n\
         ## Exact matches only\n\n\
         The catalog's name search falls back to fuzzy matching, and it silently ignores \
         query parameters it does not know. These tools only return a record that carries \
         the identifier or the exact name (case-insensitive; for names, an exact synonym is \
         accepted and reported as `matched_synonym`). Anything else is `ENTITY_NOT_FOUND` \
         with the catalog's closest records as suggestions.\n\n\
         ## Coordinates\n\n\
         Every region and position the tools take or return is 1-based and inclusive, on \
         GRCh38 (human) or GRCm39 (mouse), as Ensembl, UCSC's browser, VCF and HGVS write \
         them: TP53 is `chr17:7661779-7687538` here, in `ensembl_get_gene` (`17`, \
         7661779–7687538) and in the browser. Chromosomes are `chr`-prefixed (`chr17`); \
         `17:41M-42M`, commas and k/kb/M/Mb suffixes are accepted. The catalog itself \
         stores 0-based, half-open coordinates; the tools convert at their boundary (a \
         region goes to the catalog as `start - 1` to `end`). SPDI identifiers are not \
         converted: an SPDI's position is 0-based, so `NC_000017.11:43057062:GGG:GGGG` \
         sits at 1-based `position` 43057063 of the same record. From a 0-based BED \
         interval, add 1 to its start.\n",
    );
    out
}

const EXAMPLES: &str = "# Example queries\n\n\
## A gene by symbol\n\
`igvf_get_entity {\"id\": \"BRCA1\"}` → the gene `ENSG00000012048` with its coordinates, \
HGNC and Entrez IDs. Symbols match exactly: never a neighbouring gene.\n\n\
## What regulates a gene\n\
`igvf_find_associations {\"entity_id\": \"TP53\", \"relationship\": \"regulatory\"}` → eQTL/sQTL \
variants and regulatory elements linked to TP53, with p-values, effect sizes and tissues. Add \
`\"filters\": {\"p_value\": 5e-8, \"tissue\": \"liver\"}` to narrow.\n\n\
## What is in a locus\n\
`igvf_search_region {\"region\": \"chr17:41M-42M\"}` → genes and regulatory elements of the \
megabase. Variants are listed for regions up to 10 kb: \
`igvf_search_region {\"region\": \"chr17:41000001-41010000\", \"include\": [\"variants\"]}`. \
Regions are 1-based and inclusive, as `ensembl_get_gene` gives them: TP53's \
`chr17:7661779-7687538` is TP53.\n\n\
## A variant's other identifiers\n\
`igvf_resolve_id {\"id\": \"rs80357906\"}` → its SPDI, genomic HGVS and ClinGen allele ID; \
`\"target_type\": \"spdi\"` returns just the SPDI as `resolved`.\n\n\
## Variants in LD\n\
`igvf_find_ld {\"variant_id\": \"rs60960132\", \"r2_threshold\": 0.2, \"ancestry\": \"EUR\"}`.\n\n\
## A variant's disease and GWAS associations\n\
`igvf_find_associations {\"entity_id\": \"NC_000012.12:102917129:T:C\", \"relationship\": \
\"genetic\"}`.\n\n\
## The top few of one kind\n\
`igvf_query_associations {\"kind\": \"eqtl\", \"tissue\": \"liver\", \"limit\": 5}` → liver \
eQTLs with no starting entity, smallest p-value first; `{\"kind\": \"coexpression\", \
\"entity_id\": \"BRCA1\", \"sort_by\": \"z_score\", \"order\": \"asc\", \"limit\": 5}` → \
co-expressed genes; `{\"kind\": \"clinical\", \"entity_id\": \"BRCA1\"}` → ClinGen variants in \
the gene (`limit` counts variants, each with all its assertions); `{\"kind\": \"disease_gene\", \
\"entity_id\": \"MONDO:0007915\"}` → the genes of a disease and its child terms; \
`{\"kind\": \"sqtl\", \"source\": \"EBI\"}` → splicing QTLs with no starting entity (the \
catalog answers them by method). `complete` says whether every matching row was ranked.\n\n\
## A protein's transcripts\n\
`igvf_find_associations {\"entity_id\": \"CTCF\", \"hint\": \"protein\", \"relationship\": \
\"transcripts\"}`.\n\n\
## Valid filter values\n\
`igvf_list_sources {\"category\": \"gene_expression\"}` → the sources and methods the QTL \
data sets accept.\n";

#[cfg(test)]
mod tests {
    use super::*;

    fn read(uri: &str) -> Option<String> {
        RESOURCES.iter().find(|r| r.uri == uri).map(|r| (r.text)())
    }

    #[test]
    fn every_resource_reads_and_unknown_ones_do_not() {
        for r in RESOURCES {
            let text = read(r.uri).unwrap();
            assert!(text.len() > 200, "{}", r.uri);
        }
        assert!(read("igvf://schemas/protein").is_none());
    }

    #[test]
    fn schemas_describe_the_fields() {
        let gene: serde_json::Value =
            serde_json::from_str(&read("igvf://schemas/gene").unwrap()).unwrap();
        assert!(gene["properties"]["symbol"]["description"].is_string());
        let variant: serde_json::Value =
            serde_json::from_str(&read("igvf://schemas/variant").unwrap()).unwrap();
        assert!(variant["properties"]["spdi"]["description"].is_string());
        assert!(variant["properties"]["ref"].is_object());
    }

    #[test]
    fn the_guide_lists_every_form() {
        let guide = read("igvf://guide/identifiers").unwrap();
        for f in FORMS {
            assert!(guide.contains(f.example), "{}", f.example);
        }
        // The one convention, and the one exception.
        assert!(guide.contains("1-based and inclusive"), "{guide}");
        assert!(guide.contains("`start - 1` to `end`"), "{guide}");
        assert!(
            guide.contains("SPDI identifiers are not converted"),
            "{guide}"
        );
    }
}
