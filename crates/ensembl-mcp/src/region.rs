//! Genomic regions as the tools take them: `chr:start-end[:strand]` (also with `..`, a
//! `chr` prefix or thousands separators) read into chromosome, start, end and strand.
//! Shared by `ensembl_get_sequence`, `ensembl_query_region` and `ensembl_map_coordinates`.

use lifesciences_core::ApiError;

/// `chr:start-end[:strand]` (or `..`) → (chromosome, start, end, strand).
pub(crate) fn parse_region(raw: &str) -> Result<(String, u64, u64, i8), ApiError> {
    let bad = || {
        ApiError::invalid_input(
            format!("'{raw}' is not a region."),
            "Write it as chromosome:start-end, optionally :1 or :-1 for the strand, e.g. \
             'X:1000000-1000100:1'.",
            raw,
        )
    };
    let text = raw.trim().replace("..", "-");
    let parts: Vec<&str> = text.split(':').collect();
    let (chromosome, span, strand) = match parts.as_slice() {
        [c, span] => (*c, *span, 1),
        [c, span, "1" | "+1" | "+"] => (*c, *span, 1),
        [c, span, "-1" | "-"] => (*c, *span, -1),
        _ => return Err(bad()),
    };
    let chromosome = chromosome.trim();
    let chromosome = chromosome.strip_prefix("chr").unwrap_or(chromosome);
    let (start, end) = span.split_once('-').ok_or_else(bad)?;
    let (Ok(start), Ok(end)) = (
        start.trim().replace(',', "").parse::<u64>(),
        end.trim().replace(',', "").parse::<u64>(),
    ) else {
        return Err(bad());
    };
    // No chromosome is near 10 Gb: larger numbers are typos (and would overflow).
    if chromosome.is_empty() || start == 0 || end < start || end > 10_000_000_000 {
        return Err(bad());
    }
    Ok((chromosome.to_owned(), start, end, strand))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_read_in_the_usual_forms() {
        assert_eq!(
            parse_region("X:1000000-1000100:1").unwrap(),
            ("X".into(), 1_000_000, 1_000_100, 1)
        );
        assert_eq!(
            parse_region("chr17:7,661,779..7,687,538:-1").unwrap(),
            ("17".into(), 7_661_779, 7_687_538, -1)
        );
        for bad in ["X", "X:5-1", "X:0-10", "X:1-10:2", "rs699"] {
            assert!(parse_region(bad).is_err(), "{bad}");
        }
    }
}
