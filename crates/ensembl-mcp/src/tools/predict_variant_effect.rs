//! `ensembl_predict_variant_effect`: Ensembl's Variant Effect Predictor for 1–200
//! variants written any common way. Variants are sorted by form and sent in the fewest
//! requests: one `POST vep/:species/id` for rsIDs, one `POST vep/:species/hgvs` for HGVS
//! (Ensembl, RefSeq or genomic) and SPDI (sent as genomic HGVS, see `crate::spdi`), one
//! `POST vep/:species/region` for `chr:pos:ref:alt`; a variant given as place and allele
//! (`16:89279135-89279135/C`) is a `GET vep/:species/region/…` of its own. A variant that
//! cannot be read or placed is reported in its item; the call fails only when none of its
//! variants can be sent.
//!
//! Invariant: every answer is on Ensembl transcripts and genes (`ENST…`, `ENSG…`), RefSeq
//! HGVS included, because no request carries `refseq=1` (why: `EnsemblClient::vep_post`).
//! SPDI positions are 0-based, `chr:pos:ref:alt` ones 1-based as in VCF.
//!
//! Compact by default: per variant the canonical and MANE transcripts only (VEP lists
//! every overlapping transcript: 25 for one DMD variant in the recordings), or, when VEP
//! marks none of them, up to three with the variant's most severe consequence; the
//! `note` says which of these the answer holds.

use std::future::Future;
use std::pin::Pin;

use futures::future::join_all;
use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{ApiError, ErrorCode, Parameters, Reply};
use serde::{Deserialize, Serialize};

use crate::client::{MAX_VEP_BATCH, Refusal, VepForm};
use crate::models::{VepColocated, VepResult, VepTranscript};
use crate::server::EnsemblServer;
use crate::tools::unknown_species;
use crate::{spdi, species};

/// Most known variants listed per variant (COSMIC and HGMD records pile up).
const MAX_KNOWN: usize = 10;
/// Most transcripts listed per variant with `all_transcripts`.
const MAX_TRANSCRIPTS: usize = 100;
/// Most transcripts shown when none is canonical or MANE.
const FALLBACK_TRANSCRIPTS: usize = 3;

/// Arguments of `ensembl_predict_variant_effect`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PredictArgs {
    /// 1–200 variants: rsIDs; HGVS (genomic, Ensembl or RefSeq transcript); SPDI on a
    /// GRCh38 chromosome accession, whose position is 0-based (`NC_000017.11:7676153:G:C`
    /// is 17:7676154 G>C, as the IGVF Catalog gives it); `chr:pos:ref:alt` with a
    /// chromosome name and a 1-based position as in VCF (`17:7676154:G:C`); or
    /// `chr:start-end/allele`.
    #[serde(deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    #[schemars(length(min = 1, max = 200))]
    pub variants: Vec<String>,
    /// Species name or alias, e.g. `human`, `mus_musculus`.
    #[serde(default)]
    #[schemars(extend("default" = "homo_sapiens"))]
    pub species: Option<String>,
    /// Every transcript VEP reports (at most 100 per variant), not only canonical and
    /// MANE ones.
    #[serde(default)]
    #[schemars(extend("default" = false))]
    pub all_transcripts: bool,
}

/// A known variant at the same place.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct KnownVariant {
    /// rsID, COSMIC or HGMD ID.
    pub id: String,
    /// The minor allele (1000 Genomes).
    pub minor_allele: Option<String>,
    /// Its global frequency, 0–0.5.
    pub minor_allele_freq: Option<f64>,
    /// ClinVar significances, e.g. `pathogenic`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clinical_significance: Vec<String>,
}

/// The variant's effect on one transcript.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct TranscriptEffect {
    /// Ensembl transcript (`ENST…`), also for RefSeq HGVS input.
    pub transcript_id: String,
    /// Ensembl gene ID (`ENSG…`): pass it to ensembl_get_gene.
    pub gene_id: Option<String>,
    pub gene_symbol: Option<String>,
    pub biotype: Option<String>,
    /// Sequence Ontology terms, e.g. `missense_variant`.
    pub consequences: Vec<String>,
    /// `HIGH`, `MODERATE`, `LOW` or `MODIFIER`.
    pub impact: Option<String>,
    /// True on the gene's canonical transcript.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub canonical: bool,
    /// On the MANE Select transcript: its RefSeq counterpart (`NM_…`).
    pub mane_select: Option<String>,
    pub hgvsc: Option<String>,
    pub hgvsp: Option<String>,
    /// The protein (`ENSP…`, `NP_…`): pass it to ensembl_get_sequence.
    pub protein_id: Option<String>,
    /// Protein change, e.g. `S85G`.
    pub protein_change: Option<String>,
    /// `exon/exons`, e.g. `69/79`.
    pub exon: Option<String>,
    /// `intron/introns`.
    pub intron: Option<String>,
    /// SIFT prediction (score), e.g. `deleterious (0.01)`.
    pub sift: Option<String>,
    /// PolyPhen prediction (score).
    pub polyphen: Option<String>,
}

/// VEP's answer for one variant, or why there is none.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct VariantEffect {
    /// The variant as given.
    pub input: String,
    /// VEP's name of it.
    pub id: Option<String>,
    /// `chr:start-end` on `assembly`.
    pub location: Option<String>,
    pub assembly: Option<String>,
    /// Reference/alternative alleles, e.g. `A/G`.
    pub allele_string: Option<String>,
    /// `SNV`, `insertion`, `deletion`…
    pub variant_class: Option<String>,
    pub most_severe_consequence: Option<String>,
    /// Known variants at the place (the first 10).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub known_variants: Vec<KnownVariant>,
    /// Canonical and MANE transcripts; when VEP marks none, up to 3 with the most
    /// severe consequence; every one (at most 100) with `all_transcripts`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transcripts: Vec<TranscriptEffect>,
    /// Transcripts VEP reported; `transcripts` shows some.
    pub transcript_count: Option<usize>,
    /// Regulatory features hit.
    pub regulatory_feature_count: Option<usize>,
    /// Why VEP gave nothing for this variant.
    pub error: Option<String>,
    /// Which transcripts `transcripts` holds, for the note; not part of the answer.
    #[serde(skip)]
    #[schemars(skip)]
    pub shown: Shown,
}

/// Which of a variant's transcripts are listed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Shown {
    /// None: the variant failed, or VEP reported no transcript.
    #[default]
    Nothing,
    /// The canonical and MANE ones.
    Flagged,
    /// VEP marked none canonical or MANE: those with the most severe consequence, at
    /// most [`FALLBACK_TRANSCRIPTS`].
    MostSevere,
    /// Every one, at most [`MAX_TRANSCRIPTS`].
    All,
}

/// The effects of a list of variants.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct VariantEffects {
    /// Ensembl species, e.g. `homo_sapiens`.
    pub species: String,
    /// One item per variant, in input order.
    pub variants: Vec<VariantEffect>,
    /// Variants with an `error`.
    pub failed: usize,
    /// What the result leaves out, and why.
    pub note: Option<String>,
}

/// How a variant is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Request {
    /// In the POST batch of `form`, as `text`.
    Batch { form: VepForm, text: String },
    /// A GET of its own.
    Place { region: String, allele: String },
}

fn is_chromosome(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.'))
}

fn strip_chr(s: &str) -> &str {
    s.strip_prefix("chr")
        .or_else(|| s.strip_prefix("Chr"))
        .or_else(|| s.strip_prefix("CHR"))
        .filter(|rest| !rest.is_empty())
        .unwrap_or(s)
}

fn is_alleles(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| "ACGTNacgtn".contains(c))
}

/// How `raw` is sent for `species`, or why it cannot be.
fn classify(raw: &str, species: &str) -> Result<Request, ApiError> {
    let text = raw.trim();
    let batch = |form, text: String| Request::Batch { form, text };
    let unreadable = || not_a_variant(text);
    if let Some(digits) = text
        .strip_prefix("rs")
        .or_else(|| text.strip_prefix("RS"))
        .or_else(|| text.strip_prefix("Rs"))
        && !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
    {
        return Ok(batch(VepForm::Id, format!("rs{digits}")));
    }
    if let Some((_, change)) = text.split_once(':')
        && [".c", ".g", ".n", ".p", ".m", ".r"]
            .iter()
            .any(|kind| format!(".{change}").starts_with(&format!("{kind}.")))
    {
        return Ok(batch(VepForm::Hgvs, text.to_owned()));
    }
    // Before chr:pos:ref:alt, which it resembles: its first field is an accession.
    if let Some(read) = spdi::read(text) {
        let variant = read?;
        // The common spellings of human; Ensembl knows more aliases, which are refused
        // here with a hint to leave the species out.
        if !["homo_sapiens", "human", "9606", "hsapiens", "hsap"].contains(&species) {
            return Err(ApiError::unresolved(
                format!(
                    "The SPDI '{text}' is on a human chromosome (GRCh38), but the species \
                     is '{species}'."
                ),
                "Leave species out (human) for SPDI; for another species give the variant \
                 as chr:pos:ref:alt (1-based) or HGVS.",
                text,
            ));
        }
        return Ok(batch(VepForm::Hgvs, variant.hgvs(text)?));
    }
    if let Some((place, allele)) = text.rsplit_once('/') {
        let allele = allele.trim();
        let parts: Vec<&str> = place.trim().split(':').collect();
        let (chromosome, span, strand) = match parts.as_slice() {
            [c, span] => (*c, *span, None),
            [c, span, strand] if matches!(*strand, "1" | "-1") => (*c, *span, Some(*strand)),
            _ => return Err(unreadable()),
        };
        let chromosome = strip_chr(chromosome.trim());
        let (start, end) = span.split_once('-').unwrap_or((span, span));
        let numbers = [start, end].map(|n| n.trim().parse::<u64>().ok());
        let [Some(start), Some(end)] = numbers else {
            return Err(unreadable());
        };
        if !is_chromosome(chromosome) || !(is_alleles(allele) || allele == "-") {
            return Err(unreadable());
        }
        let region = match strand {
            Some(s) => format!("{chromosome}:{start}-{end}:{s}"),
            None => format!("{chromosome}:{start}-{end}"),
        };
        return Ok(Request::Place {
            region,
            allele: allele.to_ascii_uppercase(),
        });
    }
    let parts: Vec<&str> = text.split([':', '-']).map(str::trim).collect();
    if let [chromosome, ..] = parts.as_slice()
        && spdi::is_accession(chromosome)
    {
        // `NC_000017.11-7676153-G-C`: an accession names SPDI, whose position is 0-based;
        // read as chr:pos:ref:alt it would be one base off.
        return Err(ApiError::invalid_input(
            format!("'{text}' names a sequence accession but is not written as SPDI."),
            "Write SPDI with colons and its 0-based position (NC_000017.11:7676153:G:C), or \
             name the chromosome for a 1-based position (17:7676154:G:C).",
            text,
        ));
    }
    if let [chromosome, position, reference, alternative] = parts.as_slice()
        && is_chromosome(strip_chr(chromosome))
        && position.parse::<u64>().is_ok_and(|p| p > 0)
        && is_alleles(reference)
        && is_alleles(alternative)
    {
        let line = format!(
            "{} {position} . {} {} . . .",
            strip_chr(chromosome),
            reference.to_ascii_uppercase(),
            alternative.to_ascii_uppercase()
        );
        return Ok(batch(VepForm::Region, line));
    }
    Err(unreadable())
}

fn not_a_variant(raw: &str) -> ApiError {
    ApiError::invalid_input(
        format!("'{raw}' is not a variant form VEP takes."),
        "Use an rsID (rs699), HGVS (ENST00000366667.6:c.803T>C, NM_005912.3:c.253A>G, \
         17:g.7676154G>A), SPDI with a 0-based position (NC_000017.11:7676153:G:C), \
         chr:pos:ref:alt with a 1-based position (17:7676154:G:C) or chr:start-end/allele \
         (16:89279135-89279135/C).",
        raw,
    )
}

/// A refusal as an item's `error`: what is wrong, then what to do.
fn refusal_text(e: &ApiError) -> String {
    let body = e.to_envelope().error;
    format!("{} {}", body.message, body.recovery_hint)
}

/// The call's error when none of its variants can be sent: the refusal itself for one
/// variant; for several, the first one's, said of all.
fn nothing_to_send(inputs: &[String], refusals: &[&ApiError]) -> Option<ApiError> {
    let first = refusals.first()?;
    if refusals.len() != inputs.len() {
        return None;
    }
    if inputs.len() == 1 {
        return Some((*first).clone());
    }
    let body = first.to_envelope().error;
    let message = format!(
        "None of the {} variants can be sent to VEP; the first: {}",
        inputs.len(),
        body.message
    );
    let input = inputs.first().cloned().unwrap_or_default();
    Some(match body.code {
        ErrorCode::UnresolvedEntity => ApiError::unresolved(message, body.recovery_hint, input),
        _ => ApiError::invalid_input(message, body.recovery_hint, input),
    })
}

/// VEP's refusal of a variant as its item's `error`: VEP's own words, shortened.
fn refused_in_words(words: &str) -> String {
    let words: String = words.chars().take(200).collect();
    if words.is_empty() {
        "VEP refused it".to_owned()
    } else {
        format!("VEP refused it: {words}")
    }
}

fn known(colocated: &VepColocated) -> Option<KnownVariant> {
    Some(KnownVariant {
        id: colocated.id.clone()?,
        minor_allele: colocated.minor_allele.clone(),
        minor_allele_freq: colocated.minor_allele_freq,
        clinical_significance: colocated.clin_sig.clone(),
    })
}

fn prediction(label: Option<&String>, score: Option<f64>) -> Option<String> {
    match (label, score) {
        (Some(l), Some(s)) => Some(format!("{l} ({s})")),
        (Some(l), None) => Some(l.clone()),
        (None, Some(s)) => Some(s.to_string()),
        (None, None) => None,
    }
}

fn protein_change(t: &VepTranscript) -> Option<String> {
    let (from, to) = t.amino_acids.as_deref()?.split_once('/')?;
    let start = t.protein_start?;
    let place = match t.protein_end {
        Some(end) if end != start => format!("{start}_{end}"),
        _ => start.to_string(),
    };
    Some(format!("{from}{place}{to}"))
}

fn transcript(t: &VepTranscript) -> Option<TranscriptEffect> {
    Some(TranscriptEffect {
        transcript_id: t.transcript_id.clone()?,
        gene_id: t.gene_id.clone(),
        gene_symbol: t.gene_symbol.clone(),
        biotype: t.biotype.clone(),
        consequences: t.consequence_terms.clone(),
        impact: t.impact.clone(),
        canonical: t.canonical == Some(true),
        mane_select: t.mane_select.clone(),
        hgvsc: t.hgvsc.clone(),
        hgvsp: t.hgvsp.clone(),
        protein_id: t.protein_id.clone(),
        protein_change: protein_change(t),
        exon: t.exon.clone(),
        intron: t.intron.clone(),
        sift: prediction(t.sift_prediction.as_ref(), t.sift_score),
        polyphen: prediction(t.polyphen_prediction.as_ref(), t.polyphen_score),
    })
}

/// The item for `input` from VEP's element.
fn effect(input: &str, r: &VepResult, all: bool) -> VariantEffect {
    let every: Vec<TranscriptEffect> = r
        .transcript_consequences
        .iter()
        .filter_map(transcript)
        .collect();
    let (shown, which): (Vec<TranscriptEffect>, Shown) = if all {
        let listed = every.iter().take(MAX_TRANSCRIPTS).cloned().collect();
        (listed, Shown::All)
    } else {
        let flagged: Vec<TranscriptEffect> = r
            .transcript_consequences
            .iter()
            .filter(|t| {
                t.canonical == Some(true)
                    || t.mane_select.is_some()
                    || t.mane_plus_clinical.is_some()
            })
            .filter_map(transcript)
            .collect();
        if flagged.is_empty() {
            let worst = r.most_severe_consequence.as_deref().unwrap_or("");
            let listed = every
                .iter()
                .filter(|t| t.consequences.iter().any(|c| c == worst))
                .take(FALLBACK_TRANSCRIPTS)
                .cloned()
                .collect();
            (listed, Shown::MostSevere)
        } else {
            (flagged, Shown::Flagged)
        }
    };
    let location = match (&r.seq_region_name, r.start, r.end) {
        (Some(c), Some(s), Some(e)) => Some(format!("{c}:{s}-{e}")),
        _ => None,
    };
    VariantEffect {
        input: input.to_owned(),
        id: r.id.clone(),
        location,
        assembly: r.assembly_name.clone(),
        allele_string: r.allele_string.clone(),
        variant_class: r.variant_class.clone(),
        most_severe_consequence: r.most_severe_consequence.clone(),
        known_variants: r
            .colocated_variants
            .iter()
            .filter_map(known)
            .take(MAX_KNOWN)
            .collect(),
        transcripts: shown,
        transcript_count: (!every.is_empty()).then_some(every.len()),
        regulatory_feature_count: (!r.regulatory_feature_consequences.is_empty())
            .then_some(r.regulatory_feature_consequences.len()),
        error: None,
        shown: if every.is_empty() {
            Shown::Nothing
        } else {
            which
        },
    }
}

/// What the answer leaves out of the transcripts VEP reported, in the words of what it
/// shows; `None` when every variant lists all of its transcripts.
fn transcripts_note(variants: &[VariantEffect]) -> Option<String> {
    let cut = |which: Shown| -> Vec<&str> {
        variants
            .iter()
            .filter(|v| v.shown == which && v.transcript_count.unwrap_or(0) > v.transcripts.len())
            .map(|v| v.input.as_str())
            .collect()
    };
    let (flagged, most_severe, all) = (
        cut(Shown::Flagged),
        cut(Shown::MostSevere),
        cut(Shown::All),
    );
    if !all.is_empty() {
        return Some(format!(
            "At most {MAX_TRANSCRIPTS} transcripts are listed per variant; transcript_count \
             says how many VEP reported ({}).",
            named(&all)
        ));
    }
    let fallback = || {
        format!(
            "VEP marks no transcript canonical or MANE for {}: listed are those with the \
             variant's most severe consequence, at most {FALLBACK_TRANSCRIPTS}",
            named(&most_severe)
        )
    };
    let whole = "pass all_transcripts: true for every one.";
    match (flagged.is_empty(), most_severe.is_empty()) {
        (true, true) => None,
        (false, true) => Some(format!("Canonical and MANE transcripts only; {whole}")),
        (true, false) => Some(format!("{}; {whole}", fallback())),
        (false, false) => Some(format!(
            "Canonical and MANE transcripts only. {}; {whole}",
            fallback()
        )),
    }
}

/// Up to three variants by their input, and how many more.
fn named(inputs: &[&str]) -> String {
    let shown: Vec<&str> = inputs.iter().take(3).copied().collect();
    match inputs.len().saturating_sub(shown.len()) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// The item of an SPDI: its chromosome accession is GRCh38's, so an answer on another
/// assembly (`ENSEMBL_API_URL` pointed at the GRCh37 service) is at the wrong place.
fn grch38_only(input: &str, r: &VepResult, all: bool) -> VariantEffect {
    match r.assembly_name.as_deref() {
        Some(assembly) if assembly != "GRCh38" => failure(
            input,
            format!(
                "VEP answered on {assembly}, but this SPDI names a GRCh38 chromosome, so the \
                 answer would be for another place: give the variant as chr:pos:ref:alt on \
                 {assembly}, or ask a GRCh38 Ensembl."
            ),
        ),
        _ => effect(input, r, all),
    }
}

fn failure(input: &str, why: String) -> VariantEffect {
    VariantEffect {
        input: input.to_owned(),
        id: None,
        location: None,
        assembly: None,
        allele_string: None,
        variant_class: None,
        most_severe_consequence: None,
        known_variants: Vec::new(),
        transcripts: Vec::new(),
        transcript_count: None,
        regulatory_feature_count: None,
        error: Some(why),
        shown: Shown::Nothing,
    }
}

/// Chromosome and position of a VCF-like line `chrom pos id ref alt …`.
fn line_place(line: &str) -> Option<(&str, i64)> {
    let mut words = line.split_whitespace();
    let chromosome = words.next()?;
    let position = words.next()?.parse().ok()?;
    Some((chromosome, position))
}

/// Pair a batch's answers with its variants: by `input` as echoed (rsIDs and HGVS come
/// back as sent); for a VCF-like line, which VEP rewrites in its own format, by
/// chromosome and position (the position after the line's, for an indel whose shared
/// first base VEP trims); a lone variant with a lone answer pairs as it is.
fn pair<'a>(sent: &[String], answers: &'a [VepResult]) -> Vec<Option<&'a VepResult>> {
    let mut out: Vec<Option<&VepResult>> = vec![None; sent.len()];
    let mut used = vec![false; answers.len()];
    for (i, text) in sent.iter().enumerate() {
        if let Some(j) = answers.iter().enumerate().position(|(j, a)| {
            !used[j] && (a.input.as_deref().map(str::trim) == Some(text.as_str()))
        }) {
            out[i] = Some(&answers[j]);
            used[j] = true;
        }
    }
    for (i, text) in sent.iter().enumerate() {
        if out[i].is_some() {
            continue;
        }
        let Some((chromosome, position)) = line_place(text) else {
            continue;
        };
        let at = |a: &VepResult, p: i64| {
            a.seq_region_name.as_deref() == Some(chromosome) && a.start == Some(p)
        };
        let found = (0..answers.len())
            .find(|j| !used[*j] && at(&answers[*j], position))
            .or_else(|| (0..answers.len()).find(|j| !used[*j] && at(&answers[*j], position + 1)));
        if let Some(j) = found {
            out[i] = Some(&answers[j]);
            used[j] = true;
        }
    }
    if let ([open], [left]) = (
        &(0..sent.len())
            .filter(|i| out[*i].is_none())
            .collect::<Vec<_>>()[..],
        &(0..answers.len()).filter(|j| !used[*j]).collect::<Vec<_>>()[..],
    ) && sent.len() == 1
    {
        out[*open] = Some(&answers[*left]);
    }
    out
}

/// What one variant of a batch came to: VEP's element, or why there is none.
type Outcome = Result<VepResult, String>;

impl EnsemblServer {
    /// One POST batch, each variant's outcome in order. VEP leaves out variants it cannot
    /// read when others succeed, and refuses the whole batch (400, with its first warning)
    /// when none do, or at times when the first one is bad: a refused batch is split in
    /// halves tried apart, so a bad variant fails alone (at most 2n − 1 requests for n).
    fn vep_batch<'a>(
        &'a self,
        species: &'a str,
        form: VepForm,
        sent: &'a [String],
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Outcome>, ApiError>> + Send + 'a>> {
        Box::pin(async move {
            let answers = match self.ensembl.vep_post(species, form, sent).await? {
                Reply::Found(answers) => answers,
                // No status reads as missing from VEP: as if it placed none.
                Reply::Missing => Vec::new(),
                Reply::Refused(Refusal::UnknownSpecies) => return Err(unknown_species(species)),
                Reply::Refused(Refusal::Other(words)) if sent.len() == 1 => {
                    return Ok(vec![Err(refused_in_words(&words))]);
                }
                Reply::Refused(Refusal::Other(_)) => {
                    let (left, right) = sent.split_at(sent.len() / 2);
                    let (left, right) = tokio::join!(
                        self.vep_batch(species, form, left),
                        self.vep_batch(species, form, right)
                    );
                    let mut out = left?;
                    out.extend(right?);
                    return Ok(out);
                }
            };
            Ok(pair(sent, &answers)
                .into_iter()
                .map(|found| {
                    found.cloned().ok_or_else(|| {
                        "VEP could not read or place this variant (check the reference \
                         allele, the transcript version and the species)."
                            .to_owned()
                    })
                })
                .collect())
        })
    }
}

impl EnsemblServer {
    /// Predict what variants do (Ensembl VEP): per variant its location, alleles, most
    /// severe consequence, known variants there (rsID, minor allele frequency, ClinVar
    /// significance) and the effect on canonical and MANE Ensembl transcripts
    /// (consequence, impact, HGVS, protein change, exon, SIFT, PolyPhen), RefSeq HGVS
    /// input included. Up to 200 variants in one call; one that cannot be read is reported
    /// in its item. Example: `{"variants": ["rs699", "NM_005912.3:c.253A>G",
    /// "NC_000017.11:7676153:G:C"]}`.
    #[tool(
        title = "Predict variant effects (VEP)",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn ensembl_predict_variant_effect(
        &self,
        Parameters(args): Parameters<PredictArgs>,
    ) -> Result<Json<VariantEffects>, ApiError> {
        let args = args?;
        let mut inputs: Vec<String> = Vec::new();
        for v in args
            .variants
            .iter()
            .map(|v| v.trim())
            .filter(|v| !v.is_empty())
        {
            if !inputs.iter().any(|seen| seen == v) {
                inputs.push(v.to_owned());
            }
        }
        if inputs.is_empty() || inputs.len() > MAX_VEP_BATCH {
            return Err(ApiError::invalid_input(
                format!(
                    "Argument 'variants' holds {} variants; 1 to {MAX_VEP_BATCH} are accepted.",
                    inputs.len()
                ),
                format!(
                    "Pass 1 to {MAX_VEP_BATCH} variants, e.g. [\"rs699\"]; split a longer list."
                ),
                format!("{} variants", inputs.len()),
            ));
        }
        let species = species::production_name(args.species.as_deref().unwrap_or("homo_sapiens"));
        let requests: Vec<Result<Request, ApiError>> =
            inputs.iter().map(|v| classify(v, &species)).collect();
        let refusals: Vec<&ApiError> = requests.iter().filter_map(|r| r.as_ref().err()).collect();
        if let Some(e) = nothing_to_send(&inputs, &refusals) {
            return Err(e);
        }

        // The batches: form → the indices of its variants (one POST per form).
        let mut batches: Vec<(VepForm, Vec<usize>)> = Vec::new();
        for (i, r) in requests.iter().enumerate() {
            if let Ok(Request::Batch { form, .. }) = r {
                match batches.iter_mut().find(|(k, _)| k == form) {
                    Some((_, members)) => members.push(i),
                    None => batches.push((*form, vec![i])),
                }
            }
        }
        let text = |i: usize| match &requests[i] {
            Ok(Request::Batch { text, .. }) => text.clone(),
            _ => String::new(),
        };
        // Each text once: two spellings of one variant (rs699, RS699) share its answer.
        let posts = batches.iter().map(|(form, members)| {
            let mut sent: Vec<String> = Vec::new();
            for t in members.iter().map(|i| text(*i)) {
                if !sent.contains(&t) {
                    sent.push(t);
                }
            }
            let species = species.as_str();
            async move {
                let outcomes = self.vep_batch(species, *form, &sent).await;
                (sent, outcomes)
            }
        });
        let places = requests.iter().enumerate().filter_map(|(i, r)| match r {
            Ok(Request::Place { region, allele }) => {
                let species = species.clone();
                Some(async move { (i, self.ensembl.vep_region(&species, region, allele).await) })
            }
            _ => None,
        });
        let (posted, placed) = tokio::join!(join_all(posts), join_all(places));

        let mut items: Vec<Option<VariantEffect>> = vec![None; inputs.len()];
        for (i, r) in requests.iter().enumerate() {
            if let Err(why) = r {
                items[i] = Some(failure(&inputs[i], refusal_text(why)));
            }
        }
        for ((_, members), (sent, outcomes)) in batches.iter().zip(posted) {
            let outcomes = outcomes?;
            for at in members {
                let outcome = sent
                    .iter()
                    .position(|t| *t == text(*at))
                    .and_then(|k| outcomes.get(k));
                items[*at] = Some(match outcome {
                    Some(Ok(r)) if spdi::read(&inputs[*at]).is_some() => {
                        grch38_only(&inputs[*at], r, args.all_transcripts)
                    }
                    Some(Ok(r)) => effect(&inputs[*at], r, args.all_transcripts),
                    Some(Err(why)) => failure(&inputs[*at], why.clone()),
                    None => failure(&inputs[*at], "No answer for this variant.".to_owned()),
                });
            }
        }
        for (at, answer) in placed {
            items[at] = Some(match answer? {
                Reply::Found(answers) => match answers.first() {
                    Some(r) => effect(&inputs[at], r, args.all_transcripts),
                    None => failure(&inputs[at], "VEP placed nothing here.".to_owned()),
                },
                Reply::Missing => failure(&inputs[at], "VEP placed nothing here.".to_owned()),
                Reply::Refused(Refusal::UnknownSpecies) => return Err(unknown_species(&species)),
                Reply::Refused(Refusal::Other(words)) => {
                    failure(&inputs[at], refused_in_words(&words))
                }
            });
        }
        let variants: Vec<VariantEffect> = items
            .into_iter()
            .zip(&inputs)
            .map(|(item, input)| {
                item.unwrap_or_else(|| failure(input, "No answer for this variant.".to_owned()))
            })
            .collect();
        let failed = variants.iter().filter(|v| v.error.is_some()).count();
        let note = transcripts_note(&variants);
        Ok(Json(VariantEffects {
            species,
            variants,
            failed,
            note,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_common_form_is_sent_the_right_way() {
        let batch = |form, text: &str| {
            Some(Request::Batch {
                form,
                text: text.to_owned(),
            })
        };
        let human = |raw: &str| classify(raw, "homo_sapiens").ok();
        assert_eq!(human(" RS699 "), batch(VepForm::Id, "rs699"));
        // RefSeq and Ensembl HGVS alike, in the one HGVS batch.
        assert_eq!(
            human("NM_005912.3:c.253A>G"),
            batch(VepForm::Hgvs, "NM_005912.3:c.253A>G")
        );
        assert_eq!(
            human("ENST00000366667.6:c.803T>C"),
            batch(VepForm::Hgvs, "ENST00000366667.6:c.803T>C")
        );
        assert_eq!(
            human("17:g.7676154G>A"),
            batch(VepForm::Hgvs, "17:g.7676154G>A")
        );
        // SPDI (0-based) and chr:pos:ref:alt (1-based) name the same base differently.
        assert_eq!(
            human("NC_000017.11:7676153:G:C"),
            batch(VepForm::Hgvs, "17:g.7676154G>C")
        );
        assert_eq!(
            human("chr17-7676154-g-c"),
            batch(VepForm::Region, "17 7676154 . G C . . .")
        );
        assert_eq!(
            human("16:89279135-89279135/C"),
            Some(Request::Place {
                region: "16:89279135-89279135".into(),
                allele: "C".into()
            })
        );
        assert_eq!(
            human("1:156114921:1/-"),
            Some(Request::Place {
                region: "1:156114921-156114921:1".into(),
                allele: "-".into()
            })
        );
        for bad in ["TP53", "rs", "17:abc/C", "17:1:G:Z", "../x/C"] {
            let e = classify(bad, "homo_sapiens").unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidInput, "{bad}");
        }
        // An accession written the chr-pos-ref-alt way is neither form: refused, not read
        // 1-based.
        let e = classify("NC_000017.11-7676153-G-C", "homo_sapiens").unwrap_err();
        assert!(refusal_text(&e).contains("NC_000017.11:7676153:G:C"));
        // SPDI names human chromosomes: refused for another species.
        assert_eq!(
            human("NC_000017.11:7676153:G:C"),
            classify("NC_000017.11:7676153:G:C", "human").ok()
        );
        let e = classify("NC_000017.11:7676153:G:C", "mus_musculus").unwrap_err();
        assert_eq!(e.code(), ErrorCode::UnresolvedEntity);
    }

    #[test]
    fn a_call_fails_only_when_none_of_its_variants_can_be_sent() {
        let inputs = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let grch37 = classify("NC_000017.10:7579471:G:C", "homo_sapiens").unwrap_err();
        let junk = classify("TP53 R175H", "homo_sapiens").unwrap_err();
        // Some can be sent: no call error, the refusals go into their items.
        assert!(nothing_to_send(&inputs(&["rs699", "TP53 R175H"]), &[&junk]).is_none());
        assert!(nothing_to_send(&inputs(&["rs699"]), &[]).is_none());
        // One variant: its own refusal.
        let one = nothing_to_send(&inputs(&["NC_000017.10:7579471:G:C"]), &[&grch37]).unwrap();
        assert_eq!(one, grch37);
        // Several: the first one's code and hint, said of all.
        let all = nothing_to_send(
            &inputs(&["NC_000017.10:7579471:G:C", "TP53 R175H"]),
            &[&grch37, &junk],
        )
        .unwrap();
        assert_eq!(all.code(), ErrorCode::UnresolvedEntity);
        let body = all.to_envelope().error;
        assert!(
            body.message.starts_with("None of the 2 variants"),
            "{}",
            body.message
        );
        assert!(body.recovery_hint.contains("ensembl_map_coordinates"));
    }

    #[test]
    fn an_spdi_answered_on_another_assembly_is_not_reported_as_its_effect() {
        let answer = |assembly: &str| VepResult {
            input: Some("17:g.7676154G>C".into()),
            assembly_name: Some(assembly.into()),
            most_severe_consequence: Some("missense_variant".into()),
            ..VepResult::default()
        };
        let spdi = "NC_000017.11:7676153:G:C";
        let on_grch37 = grch38_only(spdi, &answer("GRCh37"), false);
        assert!(on_grch37.most_severe_consequence.is_none());
        assert!(on_grch37.error.unwrap().contains("GRCh37"));
        let on_grch38 = grch38_only(spdi, &answer("GRCh38"), false);
        assert_eq!(
            on_grch38.most_severe_consequence.as_deref(),
            Some("missense_variant")
        );
    }

    /// The note names what each variant lists: canonical and MANE transcripts, those
    /// with the most severe consequence when VEP marks none, or the first 100 of all.
    #[test]
    fn the_note_says_what_was_shown() {
        let transcript = |id: &str, canonical: bool| VepTranscript {
            transcript_id: Some(id.to_owned()),
            consequence_terms: vec!["missense_variant".to_owned()],
            canonical: canonical.then_some(true),
            ..VepTranscript::default()
        };
        let answer = |input: &str, transcripts: Vec<VepTranscript>| VepResult {
            input: Some(input.to_owned()),
            most_severe_consequence: Some("missense_variant".into()),
            transcript_consequences: transcripts,
            ..VepResult::default()
        };
        let flagged = answer(
            "rs1",
            vec![transcript("ENST1", true), transcript("ENST2", false)],
        );
        let unflagged = answer(
            "rs2",
            (0..5).map(|i| transcript(&format!("ENST{i}"), false)).collect(),
        );
        let few = answer("rs3", vec![transcript("ENST9", false)]);

        let one = effect("rs2", &unflagged, false);
        assert_eq!((one.shown, one.transcripts.len()), (Shown::MostSevere, 3));
        let note = transcripts_note(&[one]).unwrap();
        assert!(note.starts_with("VEP marks no transcript canonical or MANE for rs2:"), "{note}");
        assert!(!note.contains("Canonical and MANE transcripts only"), "{note}");

        let note = transcripts_note(&[effect("rs1", &flagged, false)]).unwrap();
        assert_eq!(
            note,
            "Canonical and MANE transcripts only; pass all_transcripts: true for every one."
        );
        // Nothing left out: no note, whatever was chosen.
        assert_eq!(transcripts_note(&[effect("rs3", &few, false)]), None);
        assert_eq!(transcripts_note(&[effect("rs2", &unflagged, true)]), None);
        assert_eq!(transcripts_note(&[failure("rs4", "no".into())]), None);

        let many = answer(
            "rs5",
            (0..150).map(|i| transcript(&format!("ENST{i}"), i == 0)).collect(),
        );
        let all = effect("rs5", &many, true);
        assert_eq!(all.transcripts.len(), MAX_TRANSCRIPTS);
        let note = transcripts_note(&[all]).unwrap();
        assert!(note.starts_with("At most 100 transcripts are listed per variant"), "{note}");
        assert!(note.contains("(rs5)"), "{note}");

        assert_eq!(named(&["a", "b", "c", "d", "e"]), "a, b, c and 2 more");
    }

    #[test]
    fn answers_pair_by_input_then_by_order() {
        let answer = |input: &str| VepResult {
            input: Some(input.to_owned()),
            most_severe_consequence: Some("x".into()),
            ..VepResult::default()
        };
        let sent = vec!["rs1".to_owned(), "rs2".to_owned(), "rs3".to_owned()];
        let answers = vec![answer("rs3"), answer("rs1")];
        let paired: Vec<Option<&str>> = pair(&sent, &answers)
            .into_iter()
            .map(|a| a.and_then(|a| a.input.as_deref()))
            .collect();
        assert_eq!(paired, [Some("rs1"), None, Some("rs3")]);
        // VCF lines come back rewritten, in VEP's order: paired by place, and a line
        // VEP left out is not given another's answer.
        let placed = |input: &str, chromosome: &str, start: i64| VepResult {
            seq_region_name: Some(chromosome.to_owned()),
            start: Some(start),
            ..answer(input)
        };
        let lines = vec![
            "17 7676154 . G A . . .".to_owned(),
            "99 1 . A G . . .".to_owned(),
            "1 156115215 . CGCC C . . .".to_owned(),
        ];
        let answers = vec![
            placed("1 156115216 156115218 GCC/- 1", "1", 156_115_216),
            placed("17 7676154 7676154 G/A 1", "17", 7_676_154),
        ];
        let paired: Vec<Option<&str>> = pair(&lines, &answers)
            .into_iter()
            .map(|a| a.and_then(|a| a.input.as_deref()))
            .collect();
        assert_eq!(
            paired,
            [
                Some("17 7676154 7676154 G/A 1"),
                None,
                Some("1 156115216 156115218 GCC/- 1")
            ]
        );
        let lone = vec![answer("X 31180437 31180437 C/T 1")];
        assert!(pair(&["X 31180437 . C T . . .".to_owned()], &lone)[0].is_some());
    }
}
