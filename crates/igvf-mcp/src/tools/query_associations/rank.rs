//! Ranking the gathered rows: sorted by the field asked for (the catalog has no sort
//! parameter), rows without that field last, then cut to the first `limit` entities,
//! each with all its rows (`by_entity`).

use std::cmp::Ordering;

use super::by_entity;
use super::kind::{Order, SortBy};
use crate::associations::Association;

/// The ranked rows of the first entities, and what was ranked.
pub(super) struct Ranked {
    /// The rows of the first `limit` entities, in rank order.
    pub associations: Vec<Association>,
    /// Rows that passed every filter (before the cut).
    pub matched: usize,
    /// The field ranked by, and its direction (none: upstream order).
    pub sort: Option<SortBy>,
    pub order: Option<Order>,
}

/// Rank `all` by `sort` (in `order`, or the field's own direction) and keep the first
/// `limit` entities; `anchored` says whether an anchor was given (its side is not
/// counted). What the caller should know about the cut goes in `notes`.
pub(super) fn rank(
    mut all: Vec<Association>,
    sort: Option<SortBy>,
    order: Option<Order>,
    limit: u32,
    anchored: bool,
    notes: &mut Vec<String>,
) -> Ranked {
    let order = sort.map(|s| order.unwrap_or(s.default_order()));
    if let (Some(sort), Some(order)) = (sort, order) {
        let missing = all.iter().filter(|a| sort.key(a).is_none()).count();
        all.sort_by(|a, b| match (sort.key(a), sort.key(b)) {
            (Some(x), Some(y)) => {
                let o = x.partial_cmp(&y).unwrap_or(Ordering::Equal);
                if order == Order::Asc { o } else { o.reverse() }
            }
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        });
        if missing > 0 {
            notes.push(format!(
                "{missing} matching row(s) have no {} and rank last.",
                sort.as_str()
            ));
        }
    }
    let matched = all.len();
    // `limit` counts entities: the first `limit` in rank order, each with all its rows.
    let kept = by_entity::first_entities(all, limit as usize, anchored);
    if kept.rows.len() > kept.entities || kept.matched_entities > kept.entities {
        notes.push(format!(
            "{} distinct entit{} matched; the first {} are returned with all their rows \
             ({} association(s)).",
            kept.matched_entities,
            if kept.matched_entities == 1 {
                "y"
            } else {
                "ies"
            },
            kept.entities,
            kept.rows.len()
        ));
    }
    Ranked {
        associations: kept.rows,
        matched,
        sort,
        order,
    }
}
