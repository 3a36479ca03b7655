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
    /// The form `raw` is written in, each matched on the whole input: a form is never
    /// assumed from a prefix or from what precedes a dot (`AL033381.1` is a gene's name,
    /// not a UniProt accession; `CYP2D6` a symbol, not one either).
    pub(super) fn detect(raw: &str) -> Option<Self> {
        let s = raw.trim();
        let upper = s.to_ascii_uppercase();
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        // The registry's patterns, on the value as the registry normalises it (Ensembl
        // IDs upper case, a numeric `.version` dropped).
        let registry = |key: XrefKey| key.is_valid(&key.normalise(s));
        let cid = ["CID:", "PUBCHEM:", "PUBCHEM.COMPOUND:", "PUBCHEM_COMPOUND:"]
            .iter()
            .find_map(|p| upper.strip_prefix(p));
        let chembl = upper
            .strip_prefix("CHEMBL")
            .map(|rest| rest.strip_prefix(':').unwrap_or(rest));
        let ncbi = ["NCBIGENE:", "GENEID:"]
            .iter()
            .find_map(|p| upper.strip_prefix(p))
            .unwrap_or(&upper);
        Some(if cid.is_some_and(digits) {
            Self::PubchemCid
        } else if upper.strip_prefix("RS").is_some_and(digits) {
            Self::Rsid
        } else if is_spdi(&upper) {
            Self::Spdi
        } else if is_inchikey(&upper) {
            Self::InchiKey
        } else if chembl.is_some_and(digits) {
            Self::Chembl
        } else if is_string_id(s) {
            Self::StringId
        } else if registry(XrefKey::EnsemblGene) {
            Self::EnsemblGene
        } else if registry(XrefKey::EnsemblTranscript) {
            Self::EnsemblTranscript
        } else if registry(XrefKey::EnsemblProtein) {
            Self::EnsemblProtein
        } else if upper.strip_prefix("HGNC:").is_some_and(digits) {
            Self::Hgnc
        } else if XrefKey::Uniprot.is_valid(&upper) {
            Self::Uniprot
        } else if XrefKey::Refseq.is_valid(&upper) {
            Self::Refseq
        } else if digits(ncbi) {
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

/// SPDI on a RefSeq chromosome, the form the IGVF Catalog keys variants by:
/// `NC_000017.11:43057062:GGG:GGGG` (accession with its version, position, deleted and
/// inserted bases).
fn is_spdi(upper: &str) -> bool {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let bases = |t: &str| t.bytes().all(|b| b"ACGTN".contains(&b));
    match upper.split(':').collect::<Vec<_>>().as_slice() {
        [sequence, position, deleted, inserted] => {
            sequence
                .strip_prefix("NC_")
                .and_then(|rest| rest.split_once('.'))
                .is_some_and(|(number, version)| {
                    number.len() == 6 && digits(number) && digits(version)
                })
                && digits(position)
                && bases(deleted)
                && bases(inserted)
        }
        _ => false,
    }
}

/// A standard InChIKey: 14 letters, `-`, 10 letters, `-`, one letter.
fn is_inchikey(upper: &str) -> bool {
    let letters = |t: &str, n: usize| t.len() == n && t.bytes().all(|b| b.is_ascii_uppercase());
    matches!(upper.split('-').collect::<Vec<_>>().as_slice(),
        [a, b, c] if letters(a, 14) && letters(b, 10) && letters(c, 1))
}

/// A STRING protein: `STRING:9606.ENSP00000269305` (the prefix in any case) or STRING's
/// bare `9606.ENSP00000269305`; a decimal number (`9606.5`) is none.
fn is_string_id(s: &str) -> bool {
    let bare = strip_string_prefix(s);
    XrefKey::String.is_valid(bare)
        && (bare.len() != s.len()
            || bare
                .split_once('.')
                .is_some_and(|(_, protein)| !protein.bytes().all(|b| b.is_ascii_digit())))
}

/// `s` without a `STRING:` prefix written in any case.
pub(super) fn strip_string_prefix(s: &str) -> &str {
    const PREFIX: &str = "STRING:";
    match (s.get(..PREFIX.len()), s.get(PREFIX.len()..)) {
        (Some(head), Some(rest)) if head.eq_ignore_ascii_case(PREFIX) => rest,
        _ => s,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn detected(raw: &str) -> Option<Form> {
        Form::detect(raw)
    }

    #[test]
    fn every_form_is_read_from_its_whole_spelling() {
        for (raw, form) in [
            ("CID:2244", Form::PubchemCid),
            ("rs80357906", Form::Rsid),
            ("NC_000017.11:43057062:GGG:GGGG", Form::Spdi),
            ("BSYNRYMUTXBXSQ-UHFFFAOYSA-N", Form::InchiKey),
            ("CHEMBL25", Form::Chembl),
            ("chembl:25", Form::Chembl),
            ("9606.ENSP00000269305", Form::StringId),
            ("String:9606.ENSP00000269305", Form::StringId),
            ("ENSG00000141510.17", Form::EnsemblGene),
            ("ENST00000269305", Form::EnsemblTranscript),
            ("ensp00000269305", Form::EnsemblProtein),
            ("HGNC:11998", Form::Hgnc),
            ("P04637", Form::Uniprot),
            ("P04637-2", Form::Uniprot),
            ("NM_000546.6", Form::Refseq),
            ("7157", Form::NcbiGene),
            ("NCBIGene:7157", Form::NcbiGene),
            ("TP53", Form::Symbol),
        ] {
            assert_eq!(detected(raw), Some(form), "{raw}");
        }
    }

    /// A form read from part of the input sent it the wrong way: a gene's name with a dot
    /// to UniProt, a six-character symbol to UniProt, a chicken gene ID nowhere, a RefSeq
    /// prefix followed by anything to RefSeq. Each now reaches the symbol search whole, or
    /// is refused as no known form.
    #[test]
    fn a_form_is_never_assumed_from_part_of_the_input() {
        for (raw, form) in [
            // ENSG00000176515's name in Ensembl.
            ("AL033381.1", Some(Form::Symbol)),
            ("CYP2D6", Some(Form::Symbol)),
            ("ADORA2A", Some(Form::Symbol)),
            ("PIK3CA", Some(Form::Symbol)),
            // Chicken: a gene ID whose species code starts with the gene letter.
            ("ENSGALG00000000001", Some(Form::EnsemblGene)),
            ("ENSGALT00000000001", Some(Form::EnsemblTranscript)),
            // Near misses of an ID are no ID; a symbol search says Ensembl has no such gene.
            ("ENSG123", Some(Form::Symbol)),
            ("ENSG00000141510.x", Some(Form::Symbol)),
            ("ENSA", Some(Form::Symbol)),
            ("NM_HELLO", Some(Form::Symbol)),
            ("NM_000546.6.1", Some(Form::Symbol)),
            ("CHEMBL::25", None),
            ("STRING:TP53", None),
            ("NC_000017.11:abc:G:C", None),
            ("NC_000017.11:7676153:G:C:T", None),
            ("BSYNRYMUTXBXSQ-UHFFFAOYSA-NN", Some(Form::Symbol)),
            ("NCBIGENE:NCBIGENE:7157", None),
        ] {
            assert_eq!(detected(raw), form, "{raw}");
        }
    }
}
