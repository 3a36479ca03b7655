//! SPDI variants (NCBI's `sequence:position:deletion:insertion`, the form the IGVF Catalog
//! keys variants by, e.g. `NC_000017.11:7676153:G:C`) and the genomic HGVS that asks VEP
//! about them.
//!
//! Invariant: an SPDI position is 0-based, the count of bases before the edit (NCBI's
//! definition: <https://www.ncbi.nlm.nih.gov/variation/notation/>), so the first deleted
//! base is position + 1 on Ensembl's 1-based chromosome: `NC_000017.11:7676153:G:C`
//! (rs1042522) is 17:7676154 G>C. Only the GRCh38 accessions of the human chromosomes are
//! read; any other sequence is refused, never guessed.
//!
//! Why genomic HGVS: VEP's HGVS POST takes any number of them in one request and echoes
//! each as the answer's `input`; its parser (`get_hgvs_alleles` and `_hgvs_from_components`
//! in Ensembl/ensembl-variation, `Utils/Sequence.pm` and `DBSQL/VariationFeatureAdaptor.pm`)
//! checks the reference base of a substitution against the genome, reads the deleted bases
//! of a `del` or `delins` from the genome ("delins, the reference allele is optional"), and
//! takes an insertion between its two flanking positions. So an SPDI whose deletion is a
//! length, without its bases, needs no guess either.

use lifesciences_core::ApiError;

/// The RefSeq accessions of GRCh38's chromosomes and their Ensembl names (the GRCh38.p14
/// assembly report, NCBI assembly GCF_000001405.40: `NC_000001.11` … `NC_000024.10`, and
/// the mitochondrion, `NC_012920.1`, which Ensembl names `MT`).
const GRCH38: [(&str, &str); 25] = [
    ("NC_000001.11", "1"),
    ("NC_000002.12", "2"),
    ("NC_000003.12", "3"),
    ("NC_000004.12", "4"),
    ("NC_000005.10", "5"),
    ("NC_000006.12", "6"),
    ("NC_000007.14", "7"),
    ("NC_000008.11", "8"),
    ("NC_000009.12", "9"),
    ("NC_000010.11", "10"),
    ("NC_000011.10", "11"),
    ("NC_000012.12", "12"),
    ("NC_000013.11", "13"),
    ("NC_000014.9", "14"),
    ("NC_000015.10", "15"),
    ("NC_000016.10", "16"),
    ("NC_000017.11", "17"),
    ("NC_000018.10", "18"),
    ("NC_000019.10", "19"),
    ("NC_000020.11", "20"),
    ("NC_000021.9", "21"),
    ("NC_000022.11", "22"),
    ("NC_000023.11", "X"),
    ("NC_000024.10", "Y"),
    ("NC_012920.1", "MT"),
];

/// What an SPDI deletes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Deleted {
    /// The reference bases, e.g. `G` (empty for a pure insertion).
    Bases(String),
    /// Only how many bases: the reference is not known here.
    Length(u64),
}

/// An SPDI on a GRCh38 human chromosome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Spdi {
    /// Ensembl's name of the chromosome, e.g. `17`.
    pub chromosome: &'static str,
    /// Bases before the edit (0-based).
    pub position: u64,
    pub deleted: Deleted,
    /// The inserted bases (empty for a pure deletion).
    pub inserted: String,
}

/// Whether `accession` is shaped like a RefSeq accession (`NC_000017.11`, `NT_187361.1`,
/// `NM_000546`): two letters, `_`, digits, maybe a version. No Ensembl chromosome or
/// scaffold name has that shape (`17`, `X`, `KI270728.1`, `CHR_HSCHR6_MHC_COX_CTG1`).
pub(crate) fn is_accession(accession: &str) -> bool {
    let Some((prefix, rest)) = accession.split_once('_') else {
        return false;
    };
    let (number, version) = rest.split_once('.').unwrap_or((rest, "1"));
    prefix.len() == 2
        && prefix.chars().all(|c| c.is_ascii_alphabetic())
        && !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit())
        && !version.is_empty()
        && version.chars().all(|c| c.is_ascii_digit())
}

fn is_bases(s: &str) -> bool {
    s.chars().all(|c| "ACGTNacgtn".contains(c))
}

/// The hint for an SPDI that cannot be sent as it is: the 1-based forms to use instead.
fn other_forms(position: u64) -> String {
    format!(
        "Give the variant as an rsID, as HGVS, or as chr:pos:ref:alt on a GRCh38 chromosome \
         (1-based: position {} here); igvf_resolve_id turns a catalog SPDI into its rsID \
         and HGVS.",
        position.saturating_add(1)
    )
}

/// Why the sequence of an SPDI cannot be read, when it cannot.
fn chromosome(accession: &str, raw: &str, position: u64) -> Result<&'static str, ApiError> {
    let upper = accession.to_ascii_uppercase();
    if let Some((_, name)) = GRCH38.iter().find(|(a, _)| *a == upper) {
        return Ok(name);
    }
    let unversioned = upper.split('.').next().unwrap_or(&upper);
    if let Some((current, name)) = GRCH38
        .iter()
        .find(|(a, _)| a.split('.').next() == Some(unversioned))
    {
        let message = if upper.contains('.') {
            format!(
                "{accession} is not the GRCh38 version of chromosome {name}: VEP here reads \
                 GRCh38, whose chromosome {name} is {current}."
            )
        } else {
            format!(
                "{accession} has no version, so its assembly is unknown (GRCh38's chromosome \
                 {name} is {current})."
            )
        };
        return Err(ApiError::unresolved(
            message,
            format!(
                "If the variant is on GRCh38, write {current}; if it is on GRCh37, map its \
                 place with ensembl_map_coordinates (from_assembly GRCh37, region {name}:{}) \
                 and pass it as chr:pos:ref:alt.",
                position.saturating_add(1)
            ),
            raw,
        ));
    }
    let what = match upper.get(..3) {
        Some("NT_" | "NW_") => "a contig or patch, not a chromosome",
        Some("NC_") => "not a human GRCh38 chromosome",
        _ => "not a chromosome",
    };
    Err(ApiError::unresolved(
        format!(
            "{accession} is {what}: SPDI is read on the RefSeq accessions of GRCh38's \
             chromosomes only (NC_000001.11 to NC_000024.10, NC_012920.1 for MT)."
        ),
        other_forms(position),
        raw,
    ))
}

/// `Some` when `raw` is written as SPDI (four `:`-separated fields, the first a RefSeq
/// accession), with the variant or why it cannot be used; `None` for anything else.
pub(crate) fn read(raw: &str) -> Option<Result<Spdi, ApiError>> {
    let fields: Vec<&str> = raw.trim().split(':').map(str::trim).collect();
    let accession = fields.first()?;
    if !is_accession(accession) {
        return None;
    }
    let malformed = || {
        ApiError::invalid_input(
            format!("'{raw}' is not a valid SPDI (sequence:position:deletion:insertion)."),
            "Write SPDI as NC_000017.11:7676153:G:C: a GRCh38 chromosome accession, the \
             number of bases before the change (0-based), the deleted bases (or their count, \
             or nothing) and the inserted bases (or nothing).",
            raw,
        )
    };
    let [_, position, deleted, inserted] = fields.as_slice() else {
        return Some(Err(malformed()));
    };
    let Ok(position) = position.parse::<u64>() else {
        return Some(Err(malformed()));
    };
    let deleted = if let Ok(length) = deleted.parse::<u64>() {
        Deleted::Length(length)
    } else if is_bases(deleted) {
        Deleted::Bases(deleted.to_ascii_uppercase())
    } else {
        return Some(Err(malformed()));
    };
    if !is_bases(inserted) {
        return Some(Err(malformed()));
    }
    Some(chromosome(accession, raw, position).map(|chromosome| Spdi {
        chromosome,
        position,
        deleted,
        inserted: inserted.to_ascii_uppercase(),
    }))
}

impl Spdi {
    /// The genomic HGVS VEP reads this variant from (`17:g.7676154G>C`); bases shared by
    /// the deletion and the insertion are trimmed first, leading then trailing, which
    /// describes the same change. `raw` is the SPDI as given, for the error.
    pub(crate) fn hgvs(&self, raw: &str) -> Result<String, ApiError> {
        let (mut start, deleted_length, mut deleted, mut inserted) = match &self.deleted {
            Deleted::Bases(bases) => (self.position, 0, bases.as_str(), self.inserted.as_str()),
            Deleted::Length(n) => (self.position, *n, "", self.inserted.as_str()),
        };
        let known = matches!(self.deleted, Deleted::Bases(_));
        if known {
            let lead = deleted
                .bytes()
                .zip(inserted.bytes())
                .take_while(|(a, b)| a == b)
                .count();
            deleted = &deleted[lead..];
            inserted = &inserted[lead..];
            start = start.saturating_add(lead as u64);
            let trail = deleted
                .bytes()
                .rev()
                .zip(inserted.bytes().rev())
                .take_while(|(a, b)| a == b)
                .count();
            deleted = &deleted[..deleted.len() - trail];
            inserted = &inserted[..inserted.len() - trail];
        }
        let length = if known {
            deleted.len() as u64
        } else {
            deleted_length
        };
        // Mitochondrial HGVS is `m.`; VEP reads `g.` and `m.` alike.
        let kind = if self.chromosome == "MT" { "m" } else { "g" };
        let chromosome = self.chromosome;
        // 1-based: the first deleted base is the one after `start` bases.
        let first = start.saturating_add(1);
        let last = start.saturating_add(length);
        let span = if length == 1 {
            first.to_string()
        } else {
            format!("{first}_{last}")
        };
        match (length, inserted.is_empty()) {
            (0, true) => Err(ApiError::invalid_input(
                format!("The SPDI '{raw}' describes no change: what it deletes it inserts."),
                "Pass a variant whose deleted and inserted sequences differ.",
                raw,
            )),
            (0, false) if start == 0 => Err(ApiError::invalid_input(
                format!("The SPDI '{raw}' inserts before the first base of the chromosome."),
                "HGVS, which VEP reads, cannot place an insertion there.",
                raw,
            )),
            // Between the last base before the edit and the next one.
            (0, false) => Ok(format!("{chromosome}:{kind}.{start}_{first}ins{inserted}")),
            (1, false) if known && inserted.len() == 1 => {
                Ok(format!("{chromosome}:{kind}.{first}{deleted}>{inserted}"))
            }
            (_, true) => Ok(format!("{chromosome}:{kind}.{span}del")),
            (_, false) => Ok(format!("{chromosome}:{kind}.{span}delins{inserted}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;

    fn hgvs(raw: &str) -> Result<String, ErrorCode> {
        read(raw)
            .unwrap()
            .and_then(|s| s.hgvs(raw))
            .map_err(|e| e.code())
    }

    #[test]
    fn every_edit_becomes_the_genomic_hgvs_of_its_1_based_place() {
        // rs1042522, TP53 P72R: 7,676,153 bases before the G, so the G is 17:7676154.
        assert_eq!(
            hgvs("NC_000017.11:7676153:G:C").as_deref(),
            Ok("17:g.7676154G>C")
        );
        // A multi-base substitution (MNV) is a delins over its span.
        assert_eq!(
            hgvs("NC_000017.11:7676153:GG:CC").as_deref(),
            Ok("17:g.7676154_7676155delinsCC")
        );
        // Deletions: by bases, one or several.
        assert_eq!(
            hgvs("NC_000001.11:156114920:G:").as_deref(),
            Ok("1:g.156114921del")
        );
        assert_eq!(
            hgvs("NC_000001.11:156115215:GCC:").as_deref(),
            Ok("1:g.156115216_156115218del")
        );
        // An insertion lies between the base at the position and the next one.
        assert_eq!(
            hgvs("NC_000001.11:156114920::A").as_deref(),
            Ok("1:g.156114920_156114921insA")
        );
        // A delins.
        assert_eq!(
            hgvs("NC_000023.11:31180436:CA:T").as_deref(),
            Ok("X:g.31180437_31180438delinsT")
        );
        // A deletion given as a length: the reference is left to VEP, never guessed.
        assert_eq!(
            hgvs("NC_000017.11:7676153:1:C").as_deref(),
            Ok("17:g.7676154delinsC")
        );
        assert_eq!(
            hgvs("NC_000016.10:89284128:6:C").as_deref(),
            Ok("16:g.89284129_89284134delinsC")
        );
        assert_eq!(
            hgvs("NC_000016.10:89284128:3:").as_deref(),
            Ok("16:g.89284129_89284131del")
        );
        assert_eq!(
            hgvs("NC_000016.10:89284128:0:TT").as_deref(),
            Ok("16:g.89284128_89284129insTT")
        );
        // Shared bases are trimmed: the IGVF Catalog's contextual insertion GGG → GGGG
        // is one G inserted after the run.
        assert_eq!(
            hgvs("NC_000017.11:43057062:GGG:GGGG").as_deref(),
            Ok("17:g.43057065_43057066insG")
        );
        assert_eq!(
            hgvs("NC_000017.11:100:AGT:ACT").as_deref(),
            Ok("17:g.102G>C")
        );
        // The mitochondrion, lower case.
        assert_eq!(hgvs("nc_012920.1:8992:g:a").as_deref(), Ok("MT:m.8993G>A"));
    }

    #[test]
    fn what_cannot_be_placed_on_grch38_is_refused_not_guessed() {
        // GRCh37's chromosome 17, an unversioned accession, a contig, a transcript, a
        // mouse chromosome.
        for raw in [
            "NC_000017.10:7579471:G:C",
            "NC_000017:7676153:G:C",
            "NT_187361.1:100:A:G",
            "NW_003315950.2:100:A:G",
            "NM_000546.6:100:A:G",
            "NC_000077.7:100:A:G",
        ] {
            assert_eq!(hgvs(raw), Err(ErrorCode::UnresolvedEntity), "{raw}");
        }
        let e = read("NC_000017.10:7579471:G:C").unwrap().unwrap_err();
        let body = e.to_envelope().error;
        assert!(body.message.contains("NC_000017.11"), "{}", body.message);
        assert!(
            body.recovery_hint.contains("ensembl_map_coordinates"),
            "{}",
            body.recovery_hint
        );
        assert!(
            body.recovery_hint.contains("17:7579472"),
            "{}",
            body.recovery_hint
        );
        // Malformed, and no change at all.
        for raw in [
            "NC_000017.11:x:G:C",
            "NC_000017.11:7676153:G",
            "NC_000017.11:7676153:G:Z",
            "NC_000017.11:7676153:G:G",
            "NC_000017.11:7676153::",
            "NC_000017.11:7676153:0:",
            "NC_000017.11:0::A",
        ] {
            assert_eq!(hgvs(raw), Err(ErrorCode::InvalidInput), "{raw}");
        }
        // Not SPDI at all: other forms are read elsewhere.
        for raw in [
            "17:7676154:G:C",
            "chrX:31180437:C:T",
            "KI270728.1:5:A:G",
            "rs699",
        ] {
            assert!(read(raw).is_none(), "{raw}");
        }
    }
}
