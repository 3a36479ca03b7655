//! The entity an association query starts from (a [`Subject`]), resolved to what the
//! edge endpoints need: the exact gene or protein of a name or accession, a gene's symbol
//! and its proteins' Ensembl IDs. Shared by `igvf_find_associations` and
//! `igvf_query_associations`.

use lifesciences_core::ApiError;

use crate::associations::{Dataset, Subject};
use crate::client::IgvfClient;
use crate::ids::{EntityKind, Identifier};
use crate::lookup::{Record, gene_proteins, lookup};

/// Resolve what the edge endpoints need: names, HGNC and Entrez IDs to the exact gene,
/// UniProt accessions, entry names and protein symbols to the Ensembl protein, a gene
/// to its symbol and its proteins' Ensembl IDs when protein data sets are queried. The
/// second value is a failure of the gene's protein lookup (only the protein data sets
/// depend on it).
pub(crate) async fn subject(
    client: &IgvfClient,
    id: &Identifier,
    raw: &str,
    datasets: &[&'static Dataset],
) -> Result<(Subject, Option<ApiError>), ApiError> {
    let direct = match id {
        Identifier::EnsemblGene { id, .. } | Identifier::EnsemblProtein { id, .. } => {
            Some(id.clone())
        }
        Identifier::OntologyTerm { .. }
        | Identifier::PharmGkb(_)
        | Identifier::Complex(_)
        | Identifier::Reactome(_)
        | Identifier::Spdi(_) => Some(id.value()),
        _ => None,
    };
    let mut subject = Subject::unresolved(id.clone(), direct);
    let wants_proteins =
        id.kind() == EntityKind::Gene && datasets.iter().any(|d| subject.needs_symbol(d.endpoint));
    let needs_lookup = match id {
        Identifier::GeneSymbol(_)
        | Identifier::Hgnc(_)
        | Identifier::Entrez(_)
        | Identifier::Uniprot(_)
        | Identifier::UniprotName(_)
        | Identifier::ProteinSymbol(_)
        | Identifier::OntologyName(_)
        | Identifier::DrugName(_)
        | Identifier::ComplexName(_)
        | Identifier::PathwayName(_) => true,
        Identifier::EnsemblGene { .. } => wants_proteins,
        _ => false,
    };
    if needs_lookup {
        let found = lookup(client, id, raw).await?;
        subject.id = Some(found.best.api_id());
        subject.symbol = found.best.symbol();
        subject.verified = true;
        if id.kind() == EntityKind::Protein {
            subject.proteins = std::iter::once(&found.best)
                .chain(found.others.iter())
                .filter(|r| matches!(r, Record::Protein(_)))
                .map(Record::id)
                .collect();
        }
    } else if let Identifier::EnsemblProtein { id, .. } = id {
        subject.proteins = vec![id.clone()];
    }
    let mut protein_error = None;
    if wants_proteins && let Some(symbol) = subject.symbol.clone() {
        match gene_proteins(client, &symbol).await {
            Ok(proteins) => subject.proteins = proteins,
            Err(e) => protein_error = Some(e),
        }
    }
    Ok((subject, protein_error))
}
