//! `uniprot_get_protein`: accessions (or CURIEs, isoforms, entry names) → what each
//! protein is, in brief, with more sections on request. One entry is one request
//! (`GET /uniprotkb/{accession}` with only the fields read); several are one search
//! request, and only those it does not return are asked one by one, to say what became
//! of them (merged, demerged, deleted, unknown).

use futures::future::join_all;
use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, ErrorCode, Parameters, Reply};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::client::{EntryReply, Parts};
use crate::ids::ProteinRef;
use crate::models::Entry;
use crate::protein::{Include, Protein, protein};
use crate::server::UniprotServer;
use crate::tools::{no_entry, refused_id};

/// The most proteins one call looks up.
const MAX_IDS: usize = 20;

/// Arguments of `uniprot_get_protein`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetProteinArgs {
    /// 1–20 proteins: accessions (`P30542`), CURIEs (`UniProt:P30542`), isoforms
    /// (`P30542-2`) or entry names (`AA1R_HUMAN`).
    #[serde(deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>", length(min = 1, max = 20))]
    pub ids: Vec<String>,
    /// Sections to add: `variants`, `ptms`, `domains`, `sites`, `isoforms`,
    /// `structures`, `comments` (UniProt's text in full), `sequence`.
    #[serde(default, deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    pub include: Vec<String>,
}

/// The proteins asked for, in the order asked.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct ProteinsResult {
    pub proteins: Vec<Protein>,
    /// Proteins of a batch UniProt has no active entry for, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unavailable: Vec<Unavailable>,
}

/// A protein of a batch that could not be returned.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Unavailable {
    /// As asked.
    pub id: String,
    /// `ENTITY_NOT_FOUND` (unknown, merged, demerged or deleted) or `UPSTREAM_ERROR`.
    pub code: String,
    pub message: String,
    /// Its successors, for a merged or demerged accession.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub successors: Vec<String>,
}

/// The sections `include` names, in the order listed; an unknown one is `INVALID_INPUT`.
fn includes(raw: &[String]) -> Result<Vec<Include>, ApiError> {
    let mut out: Vec<Include> = Vec::new();
    for name in raw {
        let wanted = name.trim().to_ascii_lowercase();
        let Some(found) = Include::ALL.into_iter().find(|i| i.name() == wanted) else {
            return Err(ApiError::invalid_input(
                format!("'{name}' is not a section uniprot_get_protein can include."),
                format!(
                    "Use any of {}.",
                    Include::ALL.map(Include::name).join(", ")
                ),
                name.clone(),
            ));
        };
        if !out.contains(&found) {
            out.push(found);
        }
    }
    out.sort();
    Ok(out)
}

/// What to ask UniProt for: the summary, and the parts of the sections included.
fn parts(include: &[Include]) -> Parts {
    Parts {
        summary: true,
        comments: include.contains(&Include::Comments),
        diseases: false,
        sequence: include.contains(&Include::Sequence),
        features: include.iter().flat_map(|i| i.kinds()).collect(),
    }
}

/// The protein asked as `asked` (given as `raw`), from its entry: an isoform must be
/// one the entry describes; what was asked is said when it is not the accession.
fn answer(
    asked: &ProteinRef,
    raw: &str,
    entry: &Entry,
    include: &[Include],
    merged_from: Option<&str>,
) -> Result<Protein, ApiError> {
    let mut p = protein(entry, include);
    if let ProteinRef::Isoform { number, .. } = asked {
        let listed: Vec<String> = entry
            .comments_of("ALTERNATIVE PRODUCTS")
            .flat_map(|c| &c.isoforms)
            .flat_map(|i| i.isoform_ids.clone())
            .collect();
        let id = asked.to_string();
        let known = listed.contains(&id) || (listed.is_empty() && *number == 1);
        if !known {
            return Err(ApiError::not_found(
                format!(
                    "UniProt's {} describes no isoform {number}{}.",
                    p.accession,
                    if listed.is_empty() {
                        " (it lists no isoforms)".to_owned()
                    } else {
                        format!("; its isoforms are {}", listed.join(", "))
                    }
                ),
                format!("Ask for the entry itself: {{\"ids\": [\"{}\"]}}.", p.accession),
                raw,
            )
            .with_suggestions(listed));
        }
        let canonical = crate::xrefs::canonical_isoform(entry).unwrap_or(&p.accession);
        p.note = Some(format!(
            "{id} is an isoform of {}: this describes the entry, whose positions are on the \
             canonical isoform {canonical}; include `isoforms` for how {id} differs.",
            p.accession
        ));
    }
    if let Some(from) = merged_from {
        p.note = Some(format!(
            "{from} was merged into {}: UniProt answers it with this entry.",
            p.accession
        ));
    }
    if raw.trim() != p.accession {
        p.requested = Some(raw.trim().to_owned());
    }
    Ok(p)
}

/// One protein's answer as this tool gives it.
fn read_one(
    asked: &ProteinRef,
    raw: &str,
    reply: EntryReply,
    include: &[Include],
) -> Result<Protein, ApiError> {
    match reply {
        EntryReply::Found(entry) => answer(asked, raw, &entry, include, None),
        EntryReply::Merged { from, entry } => {
            answer(asked, raw, &entry, include, Some(from.as_str()))
        }
        EntryReply::Inactive(record) => Err(no_entry(asked, raw, Some(&record))),
        EntryReply::Missing => Err(no_entry(asked, raw, None)),
        EntryReply::Refused(refusal) => Err(refused_id(raw, &refusal)),
    }
}

/// Whether `entry` is the one `asked` names.
fn is_for(asked: &ProteinRef, entry: &Entry) -> bool {
    match asked {
        ProteinRef::EntryName(name) => entry
            .uni_protkb_id
            .as_deref()
            .is_some_and(|id| id.eq_ignore_ascii_case(name)),
        _ => entry
            .primary_accession
            .eq_ignore_ascii_case(asked.entry_key()),
    }
}

/// A failed protein of a batch, as listed.
fn unavailable(raw: &str, e: &ApiError) -> Unavailable {
    let body = e.to_envelope().error;
    let successors = if body.code == ErrorCode::EntityNotFound {
        body.suggestions.clone()
    } else {
        Vec::new()
    };
    Unavailable {
        id: raw.trim().to_owned(),
        code: body.code.as_str().to_owned(),
        message: body.message,
        successors,
    }
}

impl UniprotServer {
    /// What proteins are, in brief (under 4 KB each): names, gene, organism, function,
    /// location, keywords, diseases, feature counts, Ensembl/PDB/STRING/ChEMBL/OMIM
    /// cross-references, Reactome pathways, and which sections `include` can add.
    /// Example: `{"ids": ["P30542"], "include": ["variants"]}` → ADORA1, Adenosine
    /// receptor A1, Homo sapiens, with its 6 natural variants.
    #[tool(
        title = "Get UniProt proteins",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn uniprot_get_protein(
        &self,
        Parameters(args): Parameters<GetProteinArgs>,
    ) -> Result<Json<ProteinsResult>, ApiError> {
        let args = args?;
        if args.ids.is_empty() || args.ids.len() > MAX_IDS {
            return Err(ApiError::invalid_input(
                format!(
                    "uniprot_get_protein takes 1 to {MAX_IDS} proteins; got {}.",
                    args.ids.len()
                ),
                "Split the list into calls of at most 20 proteins.",
                format!("{} ids", args.ids.len()),
            ));
        }
        let include = includes(&args.include)?;
        let mut asked: Vec<(ProteinRef, String)> = Vec::new();
        for raw in &args.ids {
            let parsed = ProteinRef::parse(raw)?;
            if !asked.iter().any(|(p, _)| *p == parsed) {
                asked.push((parsed, raw.clone()));
            }
        }
        let parts = parts(&include);
        if let [(one, raw)] = asked.as_slice() {
            let reply = self.uniprot.entry(one, &parts).await?;
            let protein = read_one(one, raw, reply, &include)?;
            return Ok(Json(ProteinsResult {
                proteins: vec![protein],
                unavailable: Vec::new(),
            }));
        }
        let refs: Vec<ProteinRef> = asked.iter().map(|(p, _)| p.clone()).collect();
        let found = match self.uniprot.entries(&refs, &parts).await? {
            Reply::Found(entries) => entries,
            Reply::Missing => Vec::new(),
            Reply::Refused(refusal) => {
                return Err(ApiError::invalid_input(
                    format!("UniProt refused the batch: {}.", refusal.words()),
                    "Check each identifier's form, or look the proteins up one at a time.",
                    args.ids.join(", "),
                ));
            }
        };
        // Those the search did not return are asked one by one, at once.
        let missing: Vec<&(ProteinRef, String)> = asked
            .iter()
            .filter(|(p, _)| !found.iter().any(|e| is_for(p, e)))
            .collect();
        let singles = join_all(missing.iter().map(|(p, _)| self.uniprot.entry(p, &parts))).await;
        let mut proteins = Vec::new();
        let mut failed = Vec::new();
        let mut outage: Option<ApiError> = None;
        let mut singles = singles.into_iter();
        for (p, raw) in &asked {
            let outcome = match found.iter().find(|e| is_for(p, e)) {
                Some(entry) => answer(p, raw, entry, &include, None),
                None => match singles.next() {
                    Some(Ok(reply)) => read_one(p, raw, reply, &include),
                    Some(Err(e)) => Err(e),
                    None => Err(no_entry(p, raw, None)),
                },
            };
            match outcome {
                Ok(protein) => proteins.push(protein),
                Err(e) => {
                    failed.push(unavailable(raw, &e));
                    if e.is_transient() && outage.is_none() {
                        outage = Some(e);
                    }
                }
            }
        }
        // Nothing to show and UniProt unwell: its failure, not a list of it.
        if let Some(e) = outage
            && proteins.is_empty()
        {
            return Err(e);
        }
        Ok(Json(ProteinsResult {
            proteins,
            unavailable: failed,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::tests::entry;

    #[test]
    fn includes_are_read_in_any_case_once_and_unknown_ones_refused() {
        let raw = |s: &[&str]| s.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            includes(&raw(&["Sequence", "variants", "variants"])).unwrap(),
            [Include::Variants, Include::Sequence]
        );
        let e = includes(&raw(&["references"])).unwrap_err().to_envelope().error;
        assert_eq!(e.code, ErrorCode::InvalidInput);
        assert!(e.recovery_hint.contains("variants, ptms, domains"));
        // Sections ask UniProt for their features only.
        let p = parts(&[Include::Sites]);
        assert!(p.fields().ends_with("ft_binding,ft_act_site,ft_site"), "{}", p.fields());
    }

    #[test]
    fn an_isoform_is_answered_by_its_entry_with_a_note_and_an_unknown_one_refused() {
        let e = entry("uniprotkb__O00115.json");
        let asked = ProteinRef::parse("O00115-2").unwrap();
        let p = answer(&asked, "O00115-2", &e, &[], None).unwrap();
        assert_eq!(p.requested.as_deref(), Some("O00115-2"));
        assert!(p.note.unwrap().contains("canonical isoform O00115-1"));
        let nine = ProteinRef::parse("O00115-9").unwrap();
        let err = answer(&nine, "O00115-9", &e, &[], None).unwrap_err().to_envelope().error;
        assert_eq!(err.code, ErrorCode::EntityNotFound);
        assert!(err.message.contains("its isoforms are O00115-1, O00115-2"), "{}", err.message);
    }

    #[test]
    fn a_merged_accession_is_answered_by_its_successor_and_says_so() {
        let e = entry("uniprotkb__O00115.json");
        let asked = ProteinRef::parse("O43910").unwrap();
        let reply = EntryReply::Merged {
            from: asked.accession().unwrap().clone(),
            entry: e,
        };
        let p = read_one(&asked, "O43910", reply, &[]).unwrap();
        assert_eq!(p.accession, "O00115");
        assert_eq!(p.requested.as_deref(), Some("O43910"));
        assert_eq!(
            p.note.as_deref(),
            Some("O43910 was merged into O00115: UniProt answers it with this entry.")
        );
    }

    #[test]
    fn batch_rows_are_matched_by_accession_or_entry_name() {
        let e = entry("uniprotkb__P30542.json");
        assert!(is_for(&ProteinRef::parse("p30542").unwrap(), &e));
        assert!(is_for(&ProteinRef::parse("P30542-2").unwrap(), &e));
        assert!(is_for(&ProteinRef::parse("aa1r_human").unwrap(), &e));
        assert!(!is_for(&ProteinRef::parse("O00115").unwrap(), &e));
        let listed = unavailable(
            " P00001 ",
            &no_entry(&ProteinRef::parse("P00001").unwrap(), "P00001", None),
        );
        assert_eq!(listed.id, "P00001");
        assert_eq!(listed.code, "ENTITY_NOT_FOUND");
    }
}
