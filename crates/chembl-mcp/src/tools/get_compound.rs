//! `chembl_get_compound`: one compound by CURIE, with cross-references to follow into other
//! databases.
//!
//! Upstream calls for a full record: the molecule, the mechanisms filed under the ID as a
//! parent (`parent_molecule_chembl_id`: the parent and every salt and hydrate of it) and
//! its UniChem records at the same time; then the mechanisms' targets (one request), and
//! for a salt or other form its parent's mechanisms first (and the parent's UniChem
//! records when its own fill no key). A slim record is the molecule request alone. An
//! unknown ID (ChEMBL: 404 with an empty body) costs
//! one more request: ChEMBL's ID lookup, which says when the ID names another kind of
//! entity (a target, an assay…). No close matches are suggested: a text search for an
//! unknown ID finds only compounds whose IDs share digits with it, which would send an
//! agent after the wrong compound. That not-found error is `tools/mod.rs`'s
//! `not_found`, shared with `chembl_get_drug_profile`.

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{ApiError, Parameters, lenient};
use serde::Deserialize;

use crate::compound::{Compound, fetch_one};
use crate::ids::ChemblId;
use crate::server::ChemblServer;
use crate::tools::not_found;

/// Arguments of `chembl_get_compound`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetCompoundArgs {
    /// The compound's CURIE, exactly `CHEMBL:<number>`, e.g. `CHEMBL:25` (aspirin) or
    /// `CHEMBL:941` (imatinib). Find it by name with `chembl_search_compounds`.
    pub chembl_id: String,
    /// `true` returns only `id`, `name` and `molecular_formula` (one upstream request);
    /// default `false`: the full record with cross-references.
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    #[schemars(extend("default" = false))]
    pub slim: Option<bool>,
}

impl ChemblServer {
    /// Fetch one ChEMBL compound by CURIE: name, formula, weight, SMILES, InChI and key,
    /// official name, synonyms, max phase, type, and `cross_references` to follow into
    /// other databases (UniProt targets for uniprot_get_protein, PubChem CID and SIDs,
    /// DrugBank, PDB ligand, KEGG, Guide to Pharmacology). Biologics and other
    /// structureless molecules come without structure fields. Example:
    /// `{"chembl_id": "CHEMBL:25"}`.
    #[tool(
        title = "Get a ChEMBL compound",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn chembl_get_compound(
        &self,
        Parameters(args): Parameters<GetCompoundArgs>,
    ) -> Result<Json<Compound>, ApiError> {
        let args = args?;
        let id: ChemblId = args.chembl_id.parse()?;
        if args.slim.unwrap_or(false) {
            let Some(molecule) = self.chembl.molecule(&id).await? else {
                return Err(not_found(self, &id, &args.chembl_id).await);
            };
            return Ok(Json(Compound::slim(&molecule)));
        }
        let Some((molecule, extras)) = fetch_one(&self.chembl, &self.unichem, &id).await? else {
            return Err(not_found(self, &id, &args.chembl_id).await);
        };
        Ok(Json(Compound::full(&molecule, &extras)))
    }
}
