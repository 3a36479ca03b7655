//! What an input is: the identifier forms `lifesciences_map_ids` reads.

use lifesciences_core::XrefKey;

/// What an input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    PubchemCid,
    Rsid,
    Spdi,
    InchiKey,
    Chembl,
    StringId,
    EnsemblGene,
    EnsemblTranscript,
    EnsemblProtein,
    Hgnc,
    Uniprot,
    Refseq,
    NcbiGene,
    Symbol,
}

impl Form {
    pub(super) fn detect(raw: &str) -> Option<Self> {
        let s = raw.trim();
        let upper = s.to_ascii_uppercase();
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let ensembl = |kind: char| {
            upper.starts_with("ENS")
                && upper
                    .trim_start_matches("ENS")
                    .trim_start_matches(|c: char| c.is_ascii_alphabetic() && c != kind)
                    .strip_prefix(kind)
                    .is_some_and(|rest| digits(rest.split('.').next().unwrap_or_default()))
        };
        let cid = ["CID:", "PUBCHEM:", "PUBCHEM.COMPOUND:", "PUBCHEM_COMPOUND:"]
            .iter()
            .find_map(|p| upper.strip_prefix(p));
        Some(if cid.is_some_and(digits) {
            Self::PubchemCid
        } else if upper.starts_with("RS") && digits(&upper[2..]) {
            Self::Rsid
        } else if upper.starts_with("NC_") && s.matches(':').count() == 3 {
            Self::Spdi
        } else if s.len() == 27
            && s.as_bytes()[14] == b'-'
            && s.as_bytes()[25] == b'-'
            && s.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
        {
            Self::InchiKey
        } else if upper.starts_with("CHEMBL")
            && digits(upper.trim_start_matches("CHEMBL").trim_start_matches(':'))
        {
            Self::Chembl
        } else if upper.starts_with("STRING:")
            || s.split_once('.')
                .is_some_and(|(taxon, rest)| digits(taxon) && !rest.is_empty() && !digits(rest))
        {
            Self::StringId
        } else if ensembl('G') {
            Self::EnsemblGene
        } else if ensembl('T') {
            Self::EnsemblTranscript
        } else if ensembl('P') {
            Self::EnsemblProtein
        } else if upper.starts_with("HGNC:") && digits(&upper[5..]) {
            Self::Hgnc
        } else if XrefKey::Uniprot.is_valid(&upper) {
            Self::Uniprot
        } else if ["NM_", "NR_", "NP_", "XM_", "XR_", "XP_"]
            .iter()
            .any(|p| upper.starts_with(p))
        {
            Self::Refseq
        } else if digits(
            upper
                .trim_start_matches("NCBIGENE:")
                .trim_start_matches("GENEID:"),
        ) {
            Self::NcbiGene
        } else if !s.is_empty()
            && s.len() <= 30
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
        {
            Self::Symbol
        } else {
            return None;
        })
    }

    pub(super) fn words(self) -> &'static str {
        match self {
            Self::PubchemCid => "PubChem compound ID",
            Self::Rsid => "rsID",
            Self::Spdi => "SPDI",
            Self::InchiKey => "InChIKey",
            Self::Chembl => "ChEMBL ID",
            Self::StringId => "STRING protein",
            Self::EnsemblGene => "Ensembl gene ID",
            Self::EnsemblTranscript => "Ensembl transcript ID",
            Self::EnsemblProtein => "Ensembl protein ID",
            Self::Hgnc => "HGNC ID",
            Self::Uniprot => "UniProt accession",
            Self::Refseq => "RefSeq accession",
            Self::NcbiGene => "NCBI Gene ID",
            Self::Symbol => "gene symbol",
        }
    }
}

/// The STRING taxon of an Ensembl protein ID, for the species STRING names by Ensembl
/// protein IDs (human, mouse, rat, zebrafish).
pub(super) fn string_taxon_of(ensp: &str) -> Option<&'static str> {
    [
        ("ENSP", "9606"),
        ("ENSMUSP", "10090"),
        ("ENSRNOP", "10116"),
        ("ENSDARP", "7955"),
    ]
    .iter()
    .find(|(prefix, _)| {
        ensp.strip_prefix(prefix)
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|c| c.is_ascii_digit()))
    })
    .map(|(_, taxon)| *taxon)
}
