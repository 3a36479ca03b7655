//! The genomic region parser: one forgiving grammar for every way people write a
//! region, and the one place coordinates cross between the caller's convention and the
//! catalog's.
//!
//! Accepted: `chr1:1000000-2000000`, `1:1000000-2000000`, `chr1:1,000,000-2,000,000`,
//! `chrX:1M-2M`, `chr17:41.2M-41.3M`, `chr2:150kb-200kb`, `chrM`/`MT`, `..` or an en dash
//! as the range separator, and a single position (`chr1:12345`, one base).
//!
//! **Invariant:** every region and position igvf-mcp takes or returns is 1-based and
//! inclusive, as Ensembl, UCSC's display, VCF and HGVS write them (`chr17:7661779-7687538`
//! is TP53 in all of them). The catalog stores 0-based, half-open coordinates (the
//! spec's `info.description`: "Our database uses 0-based, half-open coordinates"), so
//! the conversion happens here and nowhere else: a region goes to the catalog as
//! `start - 1` to `end` ([`Region::catalog`]), and a catalog start comes back as
//! `start + 1` ([`one_based`]); the end of a half-open interval is already the inclusive
//! end. Regions the server builds from catalog records for the catalog (a gene's windows,
//! a variant's own base) stay in the catalog's convention and are never shown. SPDI
//! strings are identifiers, not positions: their 0-based position is left as it is.

use std::fmt;

use lifesciences_core::ApiError;

use crate::ids::Organism;

/// A parsed region: chromosome name without `chr`, 1-based inclusive coordinates (the
/// convention of every argument and result; the catalog's is 0-based half-open, see
/// [`Region::catalog`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Region {
    /// `1`…`22`, `X`, `Y`, `M` (mouse: `1`…`19`, `X`, `Y`, `M`).
    pub chromosome: String,
    /// First base, 1-based (at least 1).
    pub start: u64,
    /// Last base, 1-based and inclusive; at least `start` (equal for one base).
    pub end: u64,
}

/// Positions beyond this are not on any chromosome of either assembly (chr1 is 248 Mb).
const MAX_POSITION: u64 = 1_000_000_000;

impl Region {
    /// The span in base pairs (both ends included).
    pub(crate) fn span(&self) -> u64 {
        self.end - self.start + 1
    }

    /// The region as the catalog reads it: `chr<N>:<start - 1>-<end>`, 0-based and
    /// half-open (TP53's `chr17:7661779-7687538` is the catalog's
    /// `chr17:7661778-7687538`).
    pub(crate) fn catalog(&self) -> String {
        format!(
            "chr{}:{}-{}",
            self.chromosome,
            self.start.saturating_sub(1),
            self.end
        )
    }

    /// Whether the catalog interval `[start0, end0)` (0-based, half-open) on `chr`
    /// overlaps this region. `chr` may carry the `chr` prefix.
    pub(crate) fn overlaps(&self, chr: &str, start0: u64, end0: u64) -> bool {
        same_chromosome(&self.chromosome, chr)
            && start0 < self.end
            && end0 > self.start.saturating_sub(1)
    }

    /// Whether the catalog's 0-based position `pos0` lies inside.
    pub(crate) fn contains(&self, chr: &str, pos0: u64) -> bool {
        same_chromosome(&self.chromosome, chr)
            && pos0 >= self.start.saturating_sub(1)
            && pos0 < self.end
    }

    /// Parse `raw` for `organism` (which decides the valid chromosomes).
    pub(crate) fn parse(raw: &str, organism: Organism) -> Result<Self, ApiError> {
        let compact: String = raw
            .chars()
            .filter(|c| !c.is_whitespace() && *c != ',' && *c != '_')
            .collect();
        let Some((chrom_part, range_part)) = compact.split_once(':') else {
            return Err(format_error(
                raw,
                "The colon separates chromosome from position range.",
            ));
        };
        let chromosome = chromosome(chrom_part, organism).ok_or_else(|| {
            let valid = match organism {
                Organism::Human => "chr1–chr22, chrX, chrY or chrM",
                Organism::Mouse => "chr1–chr19, chrX, chrY or chrM",
            };
            invalid(
                raw,
                format!(
                    "Invalid chromosome '{chrom_part}' in region '{raw}'. {} chromosomes are {valid}.",
                    match organism {
                        Organism::Human => "Human",
                        Organism::Mouse => "Mouse",
                    }
                ),
                format!("Use a region such as 'chr17:41000000-42000000'; chromosomes are {valid}."),
            )
        })?;
        let (start_text, end_text) = split_range(range_part);
        let start = position(start_text).ok_or_else(|| bad_position(raw, start_text))?;
        let end = match end_text {
            Some(text) => position(text).ok_or_else(|| bad_position(raw, text))?,
            // A single position: that one base.
            None => start,
        };
        // Checked first: past it, positions are small enough for the arithmetic below.
        if let Some(beyond) = [start, end].into_iter().find(|p| *p > MAX_POSITION) {
            return Err(invalid(
                raw,
                format!(
                    "Invalid region '{raw}': position {beyond} is beyond the end of every chromosome."
                ),
                "Positions are base pairs on GRCh38 (human) or GRCm39 (mouse); chr1, the longest, \
                 has about 248 million."
                    .to_owned(),
            ));
        }
        if start == 0 {
            return Err(invalid(
                raw,
                format!(
                    "Invalid region '{raw}': positions are 1-based, so the first base of a \
                     chromosome is 1, not 0."
                ),
                format!(
                    "Write the region 1-based and inclusive, as Ensembl, UCSC and VCF do, e.g. \
                     'chr{chromosome}:1-{}'; from a 0-based BED interval, add 1 to its start.",
                    end.max(1)
                ),
            ));
        }
        if start > end {
            return Err(invalid(
                raw,
                format!(
                    "Invalid region '{raw}': the start ({start}) must not be past the end ({end})."
                ),
                format!(
                    "Write the smaller position first, e.g. 'chr{chromosome}:{end}-{start}' \
                     (1-based, both ends included)."
                ),
            ));
        }
        Ok(Self {
            chromosome,
            start,
            end,
        })
    }
}

/// The region as the caller reads it: `chr<N>:<start>-<end>`, 1-based and inclusive.
impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "chr{}:{}-{}", self.chromosome, self.start, self.end)
    }
}

/// A catalog start or position (0-based) as the 1-based position every result carries.
/// Ends of the catalog's half-open intervals need no conversion: the exclusive 0-based
/// end is the inclusive 1-based end.
pub(crate) fn one_based(start0: u64) -> u64 {
    start0.saturating_add(1)
}

/// A catalog interval `[start0, end0)` on `chr`, written 1-based and inclusive
/// (`chr8:101557365-101557713` is `chr8:101557366-101557713`).
pub(crate) fn interval(chr: &str, start0: u64, end0: u64) -> String {
    format!("{chr}:{}-{end0}", one_based(start0))
}

fn same_chromosome(ours: &str, theirs: &str) -> bool {
    let theirs = theirs.trim();
    let bare = theirs
        .strip_prefix("chr")
        .or_else(|| theirs.strip_prefix("CHR"))
        .unwrap_or(theirs);
    let bare = if bare.eq_ignore_ascii_case("MT") {
        "M"
    } else {
        bare
    };
    bare.eq_ignore_ascii_case(ours)
}

fn chromosome(text: &str, organism: Organism) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let bare = lower.strip_prefix("chr").unwrap_or(&lower);
    let autosomes = match organism {
        Organism::Human => 22,
        Organism::Mouse => 19,
    };
    match bare {
        "x" => Some("X".into()),
        "y" => Some("Y".into()),
        "m" | "mt" => Some("M".into()),
        digits if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            let n: u32 = digits.parse().ok()?;
            (1..=autosomes).contains(&n).then(|| n.to_string())
        }
        _ => None,
    }
}

/// Split `start-end` (also `start..end` and `start–end`); no separator is one position.
fn split_range(text: &str) -> (&str, Option<&str>) {
    for sep in ["..", "-", "–", "—"] {
        if let Some((a, b)) = text.split_once(sep) {
            return (a, Some(b));
        }
    }
    (text, None)
}

/// A position: digits, or a decimal with a `k`/`kb`/`M`/`Mb`/`G`/`Gb` suffix
/// (case-insensitive), or plain digits with `bp`. The result must be a whole base.
fn position(text: &str) -> Option<u64> {
    let lower = text.to_ascii_lowercase();
    let (number, multiplier): (&str, u64) = if let Some(n) = lower.strip_suffix("bp") {
        (n, 1)
    } else if let Some(n) = lower.strip_suffix("kb").or_else(|| lower.strip_suffix('k')) {
        (n, 1_000)
    } else if let Some(n) = lower.strip_suffix("mb").or_else(|| lower.strip_suffix('m')) {
        (n, 1_000_000)
    } else if let Some(n) = lower.strip_suffix("gb").or_else(|| lower.strip_suffix('g')) {
        (n, 1_000_000_000)
    } else {
        (lower.as_str(), 1)
    };
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let (whole, fraction) = match number.split_once('.') {
        Some((w, f)) => (w, f),
        None => (number, ""),
    };
    if whole.is_empty() && fraction.is_empty() || fraction.contains('.') {
        return None;
    }
    // Exact decimal arithmetic: 41.2M is 41,200,000, never 41,199,999.99.
    let whole_value: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut value = whole_value.checked_mul(multiplier)?;
    if !fraction.is_empty() {
        let digits = u32::try_from(fraction.len()).ok()?;
        let scale = 10u64.checked_pow(digits)?;
        let frac_value: u64 = fraction.parse().ok()?;
        let scaled = frac_value.checked_mul(multiplier)?;
        if scaled % scale != 0 {
            return None;
        }
        value = value.checked_add(scaled / scale)?;
    }
    Some(value)
}

fn invalid(raw: &str, message: String, hint: String) -> ApiError {
    ApiError::invalid_input(message, hint, raw)
}

fn format_error(raw: &str, why: &str) -> ApiError {
    invalid(
        raw,
        format!("Invalid region format '{raw}'. Expected format: 'chr1:1000-2000'. {why}"),
        "Write the region as chromosome:start-end, e.g. 'chr17:41000000-42000000', \
         '17:41,000,000-42,000,000', 'chr17:41M-42M' or 'chr17:41.2M-41.3M' (k/kb/M/Mb \
         suffixes and commas are accepted)."
            .to_owned(),
    )
}

fn bad_position(raw: &str, text: &str) -> ApiError {
    invalid(
        raw,
        format!(
            "Invalid region format '{raw}'. Expected format: 'chr1:1000-2000'. '{text}' is not a \
             position: use whole base pairs, optionally with a k/kb/M/Mb suffix (e.g. '41.2M')."
        ),
        "Write the region as chromosome:start-end, e.g. 'chr17:41000000-42000000' or \
         'chr17:41.2M-41.3M'."
            .to_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;
    use proptest::prelude::*;

    fn human(raw: &str) -> Result<Region, ApiError> {
        Region::parse(raw, Organism::Human)
    }

    fn ok(raw: &str) -> String {
        human(raw)
            .unwrap_or_else(|e| panic!("{raw}: {e}"))
            .to_string()
    }

    #[test]
    fn every_documented_form_parses() {
        assert_eq!(ok("chr1:1000000-2000000"), "chr1:1000000-2000000");
        assert_eq!(ok("1:1000000-2000000"), "chr1:1000000-2000000");
        assert_eq!(ok("chr1:1,000,000-2,000,000"), "chr1:1000000-2000000");
        assert_eq!(ok("chrX:1M-2M"), "chrX:1000000-2000000");
        assert_eq!(ok("chr17:41.2M-41.3M"), "chr17:41200000-41300000");
        assert_eq!(ok("chr2:150kb-200kb"), "chr2:150000-200000");
        assert_eq!(ok("chr17:41M-42M"), "chr17:41000000-42000000");
        assert_eq!(ok("chrY:10k-20K"), "chrY:10000-20000");
        assert_eq!(ok("chrM:100-200"), "chrM:100-200");
        assert_eq!(ok("MT:100-200"), "chrM:100-200");
        assert_eq!(
            ok("CHR17 : 41,000,000 - 42,000,000"),
            "chr17:41000000-42000000"
        );
        assert_eq!(ok("chr1:100..200"), "chr1:100-200");
        assert_eq!(ok("chr1:100–200"), "chr1:100-200");
        assert_eq!(ok("chr1:1.5kb-2kb"), "chr1:1500-2000");
        assert_eq!(ok("chr1:500bp-900bp"), "chr1:500-900");
        assert_eq!(ok("chr1:12345"), "chr1:12345-12345");
        assert_eq!(ok("chr1:100-100"), "chr1:100-100");
    }

    #[test]
    fn regions_are_read_1_based_and_sent_0_based_half_open() {
        // TP53 as Ensembl, UCSC and `ensembl_get_gene` write it.
        let tp53 = human("chr17:7661779-7687538").unwrap();
        assert_eq!(tp53.to_string(), "chr17:7661779-7687538");
        assert_eq!(tp53.catalog(), "chr17:7661778-7687538");
        assert_eq!(tp53.span(), 25_760);
        // One base: the catalog's interval of length 1.
        let base = human("chr1:12345").unwrap();
        assert_eq!(base.catalog(), "chr1:12344-12345");
        assert_eq!(base.span(), 1);
        assert_eq!(human("17:1-1").unwrap().catalog(), "chr17:0-1");
        // A catalog start comes back one higher; an interval's end stays.
        assert_eq!(one_based(7_661_778), 7_661_779);
        assert_eq!(
            interval("chr8", 101_557_365, 101_557_713),
            "chr8:101557366-101557713"
        );
    }

    #[test]
    fn the_colon_error_explains_the_expected_form() {
        let e = human("chr1-1000-2000").unwrap_err();
        let body = e.to_envelope().error;
        assert_eq!(body.code, ErrorCode::InvalidInput);
        assert_eq!(
            body.message,
            "Invalid region format 'chr1-1000-2000'. Expected format: 'chr1:1000-2000'. \
             The colon separates chromosome from position range."
        );
        assert_eq!(body.invalid_input.as_deref(), Some("chr1-1000-2000"));
    }

    #[test]
    fn reversed_empty_and_malformed_regions_are_invalid_input() {
        for raw in [
            "chr1:2000-1000",
            "chr1:0-1000",
            "chr1:0",
            "chr23:1-2",
            "chrZ:1-2",
            "chr1:abc-200",
            "chr1:1.5-2",
            "chr1:1.2345k-2k",
            "chr1:-200",
            "chr1:100-",
            "chr1:1M-5G",
            // `start == end == u64::MAX` once overflowed building the hint.
            "chr1:18446744073709551615-18446744073709551615",
            "chr1:18446744073709551615",
            "chr1:5000000000-1",
            ":1-2",
            "",
            "BRCA1",
        ] {
            let e = human(raw).unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidInput, "{raw}");
            let body = e.to_envelope().error;
            assert_eq!(body.invalid_input.as_deref(), Some(raw));
            assert!(!body.recovery_hint.is_empty());
        }
        let reversed = human("chr1:2000-1000").unwrap_err().to_envelope().error;
        assert!(
            reversed.message.contains("must not be past the end"),
            "{}",
            reversed.message
        );
        assert!(reversed.recovery_hint.contains("chr1:1000-2000"));
        let zero = human("chr1:0-1000").unwrap_err().to_envelope().error;
        assert!(zero.message.contains("1-based"), "{}", zero.message);
        assert!(zero.recovery_hint.contains("BED"), "{}", zero.recovery_hint);
    }

    #[test]
    fn mouse_has_nineteen_autosomes() {
        assert!(Region::parse("chr19:1-2", Organism::Mouse).is_ok());
        assert!(Region::parse("chr20:1-2", Organism::Mouse).is_err());
        assert!(Region::parse("chr20:1-2", Organism::Human).is_ok());
    }

    #[test]
    fn overlap_and_containment_compare_catalog_coordinates() {
        // Bases 100..=200 (1-based) are the catalog's [99, 200).
        let r = human("chr17:100-200").unwrap();
        assert!(r.overlaps("chr17", 150, 250));
        assert!(r.overlaps("17", 50, 100));
        assert!(!r.overlaps("17", 50, 99));
        assert!(r.overlaps("chr17", 199, 300));
        assert!(!r.overlaps("chr17", 200, 300));
        assert!(!r.overlaps("chr1", 150, 160));
        assert!(r.contains("chr17", 99));
        assert!(!r.contains("chr17", 98));
        assert!(r.contains("chr17", 199));
        assert!(!r.contains("chr17", 200));
        assert_eq!(r.span(), 101);
    }

    fn chromosome_strategy() -> impl Strategy<Value = String> {
        prop_oneof![
            (1u32..=22).prop_map(|n| n.to_string()),
            Just("X".to_owned()),
            Just("Y".to_owned()),
            Just("M".to_owned()),
        ]
    }

    /// Write `n` in one of the accepted styles; every style must read back as `n`.
    fn styled(n: u64, style: u8) -> String {
        match style % 5 {
            0 => n.to_string(),
            1 => {
                // Thousands separators.
                let digits = n.to_string();
                let mut out = String::new();
                for (i, c) in digits.chars().enumerate() {
                    if i > 0 && (digits.len() - i).is_multiple_of(3) {
                        out.push(',');
                    }
                    out.push(c);
                }
                out
            }
            2 if n.is_multiple_of(1_000) => format!("{}k", n / 1_000),
            3 if n.is_multiple_of(100_000) => {
                let whole = n / 1_000_000;
                let tenth = (n % 1_000_000) / 100_000;
                if tenth == 0 {
                    format!("{whole}Mb")
                } else {
                    format!("{whole}.{tenth}M")
                }
            }
            4 => format!("{n}bp"),
            _ => n.to_string(),
        }
    }

    /// Positions at the edges that matter: anywhere, the largest, around the cap, tiny.
    fn edge_position() -> impl Strategy<Value = u64> {
        prop_oneof![
            any::<u64>(),
            Just(u64::MAX),
            (MAX_POSITION - 2)..=(MAX_POSITION + 2),
            0u64..3,
        ]
    }

    proptest! {
        #[test]
        fn any_valid_form_round_trips(
            chrom in chromosome_strategy(),
            start in 1u64..300_000_000,
            len in 0u64..5_000_000,
            prefix in any::<bool>(),
            style_start in any::<u8>(),
            style_end in any::<u8>(),
        ) {
            let end = start + len;
            let raw = format!(
                "{}{}:{}-{}",
                if prefix { "chr" } else { "" },
                chrom,
                styled(start, style_start),
                styled(end, style_end)
            );
            let region = human(&raw).map_err(|e| TestCaseError::fail(format!("{raw}: {e}")))?;
            prop_assert_eq!(&region.chromosome, &chrom);
            prop_assert_eq!(region.start, start);
            prop_assert_eq!(region.end, end);
            // The normalised form parses back to itself.
            let again = human(&region.to_string()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(again, region);
        }

        #[test]
        fn no_input_panics(raw in "\\PC{0,40}") {
            let _ = human(&raw);
            let _ = Region::parse(&raw, Organism::Mouse);
        }

        #[test]
        fn any_pair_of_positions_is_a_region_or_invalid_input(start in edge_position(), end in edge_position()) {
            for raw in [format!("chr1:{start}-{end}"), format!("chr1:{start}")] {
                match human(&raw) {
                    Ok(region) => {
                        prop_assert!(region.start >= 1);
                        prop_assert!(region.start <= region.end);
                        prop_assert!(region.end <= MAX_POSITION);
                    }
                    Err(e) => prop_assert_eq!(e.code(), ErrorCode::InvalidInput),
                }
            }
        }

        #[test]
        fn region_like_noise_never_panics(raw in "[chrXYM0-9:.,kKmMbB\\-–]{0,30}") {
            if let Ok(region) = human(&raw) {
                prop_assert!(region.start >= 1 && region.start <= region.end);
            }
        }
    }
}
