//! `igvf_find_associations`, one module per concern: edges read from either side, filters,
//! fan-out (`all` and a disease term's children), proteins and transcripts, and the errors
//! an agent is told. The TP53 helpers below are shared by all of them.

mod edges;
mod errors;
mod fan_out;
mod filters;
mod proteins;

use crate::{fixture, route};

const TP53: &str = "ENSG00000141510";

async fn tp53(upstream: &wiremock::MockServer) {
    route(
        upstream,
        "genes",
        &[("name", "TP53")],
        fixture("genes__name=TP53.json"),
    )
    .await;
}

async fn tp53_proteins(upstream: &wiremock::MockServer) {
    tp53(upstream).await;
    route(
        upstream,
        "proteins",
        &[("name", "TP53")],
        fixture("proteins__name=TP53.json"),
    )
    .await;
    route(
        upstream,
        "proteins/proteins",
        &[("protein_name", "TP53")],
        fixture("proteins_proteins__protein_name=TP53.json"),
    )
    .await;
}
