//! What the bench calls on each server of the workspace, and what the mock answers.
//!
//! Each server gets one representative tool whose arguments carry a number (`{n}`), so
//! every call can be made distinct and miss the server's cache. The routes answer any
//! ID (a path regex) with a recorded fixture from `crates/<server>/tests/fixtures`; where
//! the server checks the answer against what it asked for (IGVF keeps only records that
//! carry the ID; ChEMBL keeps only mechanisms of the parent it asked about), the fixture's
//! own ID is rewritten into the requested one, so each distinct call costs the upstream
//! requests a real one would.

use super::mock::{IdFrom, Rewrite, Route};

/// How the bench drives one server.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    /// The tool called.
    pub tool: &'static str,
    /// Its arguments, JSON with `{n}` for a number that makes calls distinct. The numbers
    /// have 11 digits (see [`super::measure::FIRST_N`]), as an Ensembl stable ID needs.
    pub args: &'static str,
    /// `(environment variable, path prefix on the mock)` for each upstream.
    pub upstreams: Vec<(&'static str, &'static str)>,
    /// The mock's routes (paths include the prefix).
    pub routes: Vec<Route>,
    /// What one distinct call costs upstream, in words (for the report).
    pub about: &'static str,
}

/// The spec of the server named `name` (a package name, e.g. `string-mcp`).
pub(crate) fn spec(name: &str) -> Option<Spec> {
    match name {
        "string-mcp" => Some(string()),
        "ensembl-mcp" => Some(ensembl()),
        "chembl-mcp" => Some(chembl()),
        "igvf-mcp" => Some(igvf()),
        "uniprot-mcp" => Some(uniprot()),
        _ => None,
    }
}

/// STRING: a search sends one GET `json/get_string_ids?identifiers=…`; the answer is
/// used as is (STRING's rows need not echo the query).
fn string() -> Spec {
    Spec {
        tool: "string_search_proteins",
        args: r#"{"query": "Q{n}"}"#,
        upstreams: vec![("STRING_API_URL", "/string")],
        routes: vec![Route::fixture(
            "GET",
            "^/string/json/get_string_ids$",
            "string-mcp",
            "get_string_ids__TP53.json",
            None,
        )],
        about: "1 GET get_string_ids",
    }
}

/// Ensembl: a gene is `lookup/id/{id}` and `xrefs/id/{id}`, at the same time.
fn ensembl() -> Spec {
    let id = Rewrite {
        token: "ENSG00000141510",
        from: IdFrom::LastSegment { strip_suffix: "" },
    };
    Spec {
        tool: "ensembl_get_gene",
        args: r#"{"ensembl_id": "ENSG{n}"}"#,
        upstreams: vec![
            ("ENSEMBL_API_URL", "/ensembl"),
            ("EBI_SEARCH_API_URL", "/ebisearch"),
        ],
        routes: vec![
            Route::fixture(
                "GET",
                "^/ensembl/lookup/id/[^/]+$",
                "ensembl-mcp",
                "lookup_id__ENSG00000141510.json",
                Some(id),
            ),
            Route::fixture(
                "GET",
                "^/ensembl/xrefs/id/[^/]+$",
                "ensembl-mcp",
                "xrefs_id__ENSG00000141510.json",
                None,
            ),
        ],
        about: "2 Ensembl GETs (lookup and xrefs, in parallel)",
    }
}

/// ChEMBL: the molecule, then its mechanisms (then their targets) and UniChem at the same
/// time. The molecule's, the mechanisms' and UniChem's `CHEMBL25` become the requested
/// ID, so each of these misses the cache; the targets (CHEMBL221, CHEMBL230) are the
/// same for every compound, so only the first call asks for them.
fn chembl() -> Spec {
    let rewrite = |from| {
        Some(Rewrite {
            token: "CHEMBL25",
            from,
        })
    };
    Spec {
        tool: "chembl_get_compound",
        args: r#"{"chembl_id": "CHEMBL:{n}"}"#,
        upstreams: vec![
            ("CHEMBL_API_URL", "/chembl"),
            ("UNICHEM_API_URL", "/unichem"),
        ],
        routes: vec![
            Route::fixture(
                "GET",
                r"^/chembl/molecule/CHEMBL[0-9]+\.json$",
                "chembl-mcp",
                "molecule__CHEMBL25.json",
                rewrite(IdFrom::LastSegment {
                    strip_suffix: ".json",
                }),
            ),
            Route::fixture(
                "GET",
                r"^/chembl/mechanism\.json$",
                "chembl-mcp",
                "mechanism__molecule_chembl_id=CHEMBL25.json",
                rewrite(IdFrom::Query("parent_molecule_chembl_id")),
            ),
            Route::fixture(
                "GET",
                r"^/chembl/target\.json$",
                "chembl-mcp",
                "target__target_chembl_id__in=CHEMBL221,CHEMBL230.json",
                None,
            ),
            Route::fixture(
                "POST",
                "^/unichem/compounds$",
                "chembl-mcp",
                "unichem_compounds__CHEMBL25.json",
                rewrite(IdFrom::BodyField("compound")),
            ),
        ],
        about: "2 ChEMBL GETs (molecule, mechanisms; targets shared) + 1 UniChem POST",
    }
}

/// IGVF Catalog: an Ensembl gene ID is one GET `genes?gene_id=…`; only records carrying
/// that ID are kept, so TP53's record is given the requested one.
fn igvf() -> Spec {
    Spec {
        tool: "igvf_get_entity",
        args: r#"{"id": "ENSG{n}"}"#,
        upstreams: vec![("IGVF_CATALOG_API_URL", "/igvf")],
        routes: vec![Route::fixture(
            "GET",
            "^/igvf/genes$",
            "igvf-mcp",
            "genes__name=TP53.json",
            Some(Rewrite {
                token: "ENSG00000141510",
                from: IdFrom::Query("gene_id"),
            }),
        )],
        about: "1 GET genes",
    }
}

/// UniProt: a search of reviewed entries is one GET `uniprotkb/search?query=…`, answered
/// with a recorded page of two entries (UniProt's rows need not echo the query). A search
/// rather than an entry look-up: no accession or entry name can hold the 11 digits a
/// distinct call carries.
fn uniprot() -> Spec {
    Spec {
        tool: "uniprot_search_proteins",
        args: r#"{"query": "Q{n}", "reviewed_only": true}"#,
        upstreams: vec![("UNIPROT_API_URL", "/uniprot")],
        routes: vec![Route::fixture(
            "GET",
            "^/uniprot/uniprotkb/search$",
            "uniprot-mcp",
            "uniprotkb_search__F1MAB7_OR_O14975.json",
            None,
        )],
        about: "1 GET uniprotkb/search",
    }
}
