//! The paths from one input to its equivalents: which tools are called, in which order,
//! and what each answer adds. Every hop is a call of one of the gateway's tools by name
//! ([`Mapper::hop`]), in-process, through the shared upstream clients (so a hop another
//! call made already is answered from the cache).

use lifesciences_core::rmcp::RoleServer;
use lifesciences_core::rmcp::service::RequestContext;
use lifesciences_core::{ApiError, ErrorCode, call_tool};

use super::Builder;
use super::form::{Form, string_taxon_of, strip_string_prefix};
use super::hops::{
    GetCompound, GetGene, GetProtein, GetTarget, GetTranscript, Hop, ResolveId, SearchCompounds,
    SearchGenes, SearchProteins, SearchTargets,
};
use crate::server::Gateway;

/// Maps inputs for one call of `lifesciences_map_ids`.
pub(super) struct Mapper<'a> {
    pub(super) gateway: &'a Gateway,
    /// The calling tool's context: a cancelled call cancels its hops.
    pub(super) context: &'a RequestContext<RoleServer>,
    /// The species of gene symbols and other gene IDs.
    pub(super) species: &'a str,
}

impl Mapper<'_> {
    /// Call the tool of `args` by its name, noting it in the path.
    async fn hop<A: Hop>(&self, b: &mut Builder, args: &A) -> Result<A::Answer, ApiError> {
        b.called(A::TOOL);
        call_tool(self.gateway, self.context, A::TOOL, args).await
    }

    /// Map one input: the path its form takes. An error is the input's own failure (not
    /// found, not readable, its first hop failed); a later hop that fails is an
    /// `unmapped` namespace instead.
    pub(super) async fn map(
        &self,
        b: &mut Builder,
        form: Form,
        input: &str,
    ) -> Result<(), ApiError> {
        match form {
            Form::Rsid | Form::Spdi => self.variant_path(b, input).await,
            Form::PubchemCid => self.pubchem_path(b, input).await,
            Form::InchiKey => self.inchikey_path(b, input).await,
            Form::Chembl => self.chembl_path(b, input).await,
            Form::StringId | Form::EnsemblProtein => self.string_path(b, form, input).await,
            Form::EnsemblGene => {
                let ensg = input.to_ascii_uppercase();
                let ensg = ensg.split('.').next().unwrap_or_default().to_owned();
                self.gene_path(b, &ensg).await
            }
            Form::EnsemblTranscript => self.transcript_path(b, input).await,
            Form::Uniprot => self.uniprot_path(b, input).await,
            Form::Hgnc | Form::Refseq | Form::NcbiGene | Form::Symbol => {
                self.gene_id_path(b, form, input).await
            }
        }
    }

    /// An rsID or SPDI: the IGVF Catalog's forms of the variant.
    async fn variant_path(&self, b: &mut Builder, input: &str) -> Result<(), ApiError> {
        let ids = self.hop(b, &ResolveId { id: input }).await?.identifiers;
        if let Some(r) = &ids.rsid {
            b.add("rsid", r, Some("ensembl_get_variant"));
        }
        if let Some(s) = &ids.spdi {
            b.add("spdi", s, Some("igvf_get_entity"));
        }
        if let Some(h) = &ids.hgvs {
            b.add("hgvs", h, Some("ensembl_predict_variant_effect"));
        }
        if let Some(c) = &ids.ca_id {
            b.add("clingen_allele", c, Some("igvf_get_entity"));
        }
        Ok(())
    }

    /// A PubChem CID: its ChEMBL compound by UniChem, then the compound path.
    async fn pubchem_path(&self, b: &mut Builder, input: &str) -> Result<(), ApiError> {
        let cid = input
            .rsplit(':')
            .next()
            .unwrap_or_default()
            .trim()
            .to_owned();
        b.add("pubchem_compound", &cid, None);
        b.called("UniChem (PubChem → ChEMBL)");
        match self
            .gateway
            .servers
            .chembl
            .chembl_ids_of_pubchem(&cid)
            .await
        {
            None => b.missing(
                "chembl_compound",
                "UniChem could not be asked; try again later",
            ),
            Some(ids) => match ids.first() {
                Some(id) => return self.compound_path(b, id).await,
                None => b.missing(
                    "chembl_compound",
                    "UniChem links no ChEMBL compound to this CID",
                ),
            },
        }
        Ok(())
    }

    /// An InChIKey: its ChEMBL compound, then the compound path.
    async fn inchikey_path(&self, b: &mut Builder, input: &str) -> Result<(), ApiError> {
        let key = input.to_ascii_uppercase();
        let found = self.hop(b, &SearchCompounds { query: &key }).await?;
        b.add("inchikey", &key, Some("chembl_search_compounds"));
        match found.items.first() {
            Some(hit) => self.compound_path(b, &hit.id).await,
            None => {
                b.missing(
                    "chembl_compound",
                    "ChEMBL has no compound with this InChIKey",
                );
                Ok(())
            }
        }
    }

    /// A ChEMBL ID: a compound, or else a target.
    async fn chembl_path(&self, b: &mut Builder, input: &str) -> Result<(), ApiError> {
        let id = format!(
            "CHEMBL:{}",
            input
                .to_ascii_uppercase()
                .trim_start_matches("CHEMBL")
                .trim_start_matches(':')
        );
        match self.compound_path(b, &id).await {
            // Not a compound (ChEMBL says what it is, or has no such molecule): a
            // target, perhaps.
            Err(e)
                if matches!(
                    e.code(),
                    ErrorCode::EntityNotFound | ErrorCode::UnresolvedEntity
                ) =>
            {
                b.mapping.path.clear();
                self.target_path(b, &id).await
            }
            other => other,
        }
    }

    /// A STRING protein, or an Ensembl protein of a species STRING names by Ensembl ID:
    /// its preferred name, then the symbol's gene.
    async fn string_path(&self, b: &mut Builder, form: Form, input: &str) -> Result<(), ApiError> {
        let id = if form == Form::EnsemblProtein {
            let ensp = input.to_ascii_uppercase();
            let ensp = ensp.split('.').next().unwrap_or_default().to_owned();
            let Some(taxon) = string_taxon_of(&ensp) else {
                return Err(ApiError::unresolved(
                    format!(
                        "'{input}' is an Ensembl protein of a species whose proteins STRING \
                         does not name by Ensembl ID."
                    ),
                    "Map its gene (ENSG…) or its transcript (ENST…) instead.",
                    input,
                ));
            };
            b.add("ensembl_protein", &ensp, Some("igvf_get_entity"));
            format!("{taxon}.{ensp}")
        } else {
            strip_string_prefix(input).to_owned()
        };
        let taxon = id.split('.').next().unwrap_or("9606");
        let found = self
            .hop(
                b,
                &SearchProteins {
                    query: &id,
                    species: taxon,
                    limit: 1,
                },
            )
            .await?;
        b.add(
            "string",
            &format!("STRING:{id}"),
            Some("string_get_interactions"),
        );
        let Some(name) = found.items.into_iter().find_map(|p| p.preferred_name) else {
            b.missing("symbol", "STRING does not name this protein");
            return Ok(());
        };
        let species = if taxon == "9606" { self.species } else { taxon };
        match self.find_gene(b, &name, species).await? {
            Some(ensg) => self.gene_path(b, &ensg).await,
            None => {
                b.add("symbol", &name, Some("ensembl_search_genes"));
                b.missing("ensembl_gene", format!("Ensembl has no gene named {name}"));
                Ok(())
            }
        }
    }

    /// An Ensembl transcript: its gene, then the gene path.
    async fn transcript_path(&self, b: &mut Builder, input: &str) -> Result<(), ApiError> {
        let transcript = self
            .hop(
                b,
                &GetTranscript {
                    transcript_id: input,
                },
            )
            .await?;
        if let Some(t) = &transcript.id {
            b.add("ensembl_transcript", t, Some("ensembl_get_transcript"));
        }
        match &transcript.parent_gene {
            Some(g) => self.gene_path(b, g).await,
            None => {
                b.missing("ensembl_gene", "Ensembl names no gene for this transcript");
                Ok(())
            }
        }
    }

    /// A UniProt accession (or an isoform's): its UniProt entry, whose cross-references
    /// name the protein's gene, Ensembl gene and protein, HGNC, NCBI Gene, RefSeq, STRING
    /// and ChEMBL target, in one hop. The accession fixes the organism: `species` is not
    /// asked. A merged accession answers with its successor; a demerged or deleted one is
    /// the input's failure, saying what became of it.
    async fn uniprot_path(&self, b: &mut Builder, input: &str) -> Result<(), ApiError> {
        let asked = input.to_ascii_uppercase();
        let found = self.hop(b, &GetProtein { ids: [&asked] }).await?;
        let Some(entry) = found.proteins.into_iter().next() else {
            return Err(ApiError::not_found(
                format!("UniProt has no active entry for '{input}'."),
                "Search the protein with uniprot_search_proteins.",
                input,
            ));
        };
        let accession = entry.accession.as_str();
        b.add("uniprot", accession, Some("uniprot_get_protein"));
        match &entry.gene {
            Some(gene) => b.add("symbol", gene, Some("ensembl_search_genes")),
            None => b.missing("symbol", format!("UniProt names no gene for {accession}")),
        }
        let xrefs = &entry.cross_references;
        match &xrefs.ensembl_gene {
            Some(g) => b.add("ensembl_gene", g, Some("ensembl_get_gene")),
            None => b.missing(
                "ensembl_gene",
                format!("UniProt lists no Ensembl gene for {accession}"),
            ),
        }
        if let Some(p) = &xrefs.ensembl_protein {
            b.add("ensembl_protein", p, Some("igvf_get_entity"));
        }
        if let Some(h) = &xrefs.hgnc {
            b.add("hgnc", h, Some("igvf_get_entity"));
        }
        if let Some(e) = &xrefs.entrez {
            b.add("ncbi_gene", e, Some("ensembl_search_genes"));
        }
        for r in &xrefs.refseq {
            b.add("refseq", r, Some("ensembl_search_genes"));
        }
        match &xrefs.string {
            Some(id) => b.add(
                "string",
                &format!("STRING:{id}"),
                Some("string_get_interactions"),
            ),
            None => b.missing(
                "string",
                format!("UniProt lists no STRING protein for {accession}"),
            ),
        }
        match &xrefs.chembl {
            Some(id) => b.add(
                "chembl_target",
                &format!("CHEMBL:{}", id.trim_start_matches("CHEMBL")),
                Some("chembl_get_target"),
            ),
            None => b.missing(
                "chembl_target",
                format!("UniProt lists no ChEMBL target for {accession}"),
            ),
        }
        Ok(())
    }

    /// A symbol or another database's gene ID: its Ensembl gene, then the gene path.
    async fn gene_id_path(&self, b: &mut Builder, form: Form, input: &str) -> Result<(), ApiError> {
        let query = if form == Form::NcbiGene {
            input
                .to_ascii_uppercase()
                .trim_start_matches("NCBIGENE:")
                .trim_start_matches("GENEID:")
                .to_owned()
        } else {
            input.to_owned()
        };
        match self.find_gene(b, &query, self.species).await? {
            Some(ensg) => self.gene_path(b, &ensg).await,
            None => Err(ApiError::not_found(
                format!(
                    "Ensembl has no {} gene for the {} '{input}'.",
                    self.species,
                    form.words()
                ),
                "Check the spelling and the species (species: 'mouse', '10090'…), or search \
                 words with ensembl_search_genes.",
                input,
            )),
        }
    }

    /// The Ensembl gene of a symbol or another database's gene ID: the first hit
    /// scored 0.9 or more.
    async fn find_gene(
        &self,
        b: &mut Builder,
        query: &str,
        species: &str,
    ) -> Result<Option<String>, ApiError> {
        let found = self
            .hop(
                b,
                &SearchGenes {
                    query,
                    species,
                    page_size: 5,
                },
            )
            .await?;
        Ok(found
            .items
            .into_iter()
            .find(|hit| hit.score >= 0.9)
            .map(|hit| hit.id))
    }

    /// The gene path from an Ensembl gene ID: its record's cross-references, then
    /// STRING and ChEMBL.
    async fn gene_path(&self, b: &mut Builder, ensg: &str) -> Result<(), ApiError> {
        let gene = self.hop(b, &GetGene { ensembl_id: ensg }).await?;
        b.add("ensembl_gene", ensg, Some("ensembl_get_gene"));
        if let Some(s) = &gene.symbol {
            b.add("symbol", s, Some("ensembl_search_genes"));
        }
        let xrefs = &gene.cross_references;
        if let Some(h) = &xrefs.hgnc {
            b.add("hgnc", h, Some("igvf_get_entity"));
        }
        for u in &xrefs.uniprot {
            b.add("uniprot", u, Some("uniprot_get_protein"));
        }
        if let Some(e) = &xrefs.entrez {
            b.add("ncbi_gene", e, Some("ensembl_search_genes"));
        }
        for r in &xrefs.refseq {
            b.add("refseq", r, Some("ensembl_search_genes"));
        }
        match &gene.symbol {
            Some(symbol) => {
                self.string_of_symbol(b, symbol, gene.species.as_deref())
                    .await
            }
            None => b.missing("string", "the gene has no symbol to ask STRING by"),
        }
        match xrefs.uniprot.first() {
            Some(accession) => self.targets_of(b, accession).await,
            None => b.missing("chembl_target", "the gene has no UniProt accession"),
        }
        Ok(())
    }

    /// The STRING protein named `symbol` in the gene's species (Ensembl's name, e.g.
    /// `homo_sapiens`).
    async fn string_of_symbol(&self, b: &mut Builder, symbol: &str, species: Option<&str>) {
        let species = match species {
            Some("homo_sapiens") | None => "9606".to_owned(),
            Some(other) => other.replace('_', " "),
        };
        let asked = SearchProteins {
            query: symbol,
            species: &species,
            limit: 5,
        };
        match self.hop(b, &asked).await {
            Ok(found) => {
                let exact = found.items.into_iter().find(|p| {
                    p.preferred_name
                        .as_deref()
                        .is_some_and(|n| n.eq_ignore_ascii_case(symbol))
                });
                match exact {
                    Some(p) => b.add("string", &p.id, Some("string_get_interactions")),
                    None => b.missing("string", format!("STRING has no protein named {symbol}")),
                }
            }
            Err(e) => b.missing(
                "string",
                format!(
                    "STRING could not be asked: {}",
                    e.to_envelope().error.message
                ),
            ),
        }
    }

    /// The ChEMBL single-protein targets of a UniProt accession.
    async fn targets_of(&self, b: &mut Builder, accession: &str) {
        let asked = SearchTargets {
            query: accession,
            limit: 10,
        };
        match self.hop(b, &asked).await {
            Ok(found) => {
                let ids: Vec<String> = found
                    .items
                    .into_iter()
                    .filter(|t| t.kind.as_deref() == Some("SINGLE PROTEIN"))
                    .map(|t| t.id)
                    .collect();
                if ids.is_empty() {
                    b.missing(
                        "chembl_target",
                        format!("ChEMBL has no single-protein target for {accession}"),
                    );
                }
                for id in ids {
                    b.add("chembl_target", &id, Some("chembl_get_target"));
                }
            }
            Err(e) => b.missing(
                "chembl_target",
                format!(
                    "ChEMBL could not be asked: {}",
                    e.to_envelope().error.message
                ),
            ),
        }
    }

    /// A compound's InChIKey, PubChem CID and target accessions.
    async fn compound_path(&self, b: &mut Builder, id: &str) -> Result<(), ApiError> {
        let compound = self.hop(b, &GetCompound { chembl_id: id }).await?;
        "ChEMBL compound".clone_into(&mut b.mapping.detected_as);
        b.add("chembl_compound", id, Some("chembl_get_compound"));
        if let Some(k) = &compound.inchi_key {
            b.add("inchikey", k, Some("chembl_search_compounds"));
        }
        let xrefs = &compound.cross_references;
        match &xrefs.pubchem_compound {
            Some(cid) => b.add("pubchem_compound", cid, None),
            None => b.missing("pubchem_compound", "UniChem gave no PubChem CID"),
        }
        for u in &xrefs.uniprot {
            b.add("uniprot", u, Some("uniprot_get_protein"));
        }
        Ok(())
    }

    /// A target's component accessions and gene symbols.
    async fn target_path(&self, b: &mut Builder, id: &str) -> Result<(), ApiError> {
        let target = self.hop(b, &GetTarget { target_id: id }).await?;
        "ChEMBL target".clone_into(&mut b.mapping.detected_as);
        b.add("chembl_target", id, Some("chembl_get_target"));
        for u in &target.uniprot {
            b.add("uniprot", u, Some("uniprot_get_protein"));
        }
        for s in &target.gene_symbols {
            b.add("symbol", s, Some("ensembl_search_genes"));
        }
        Ok(())
    }
}
