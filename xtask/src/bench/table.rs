//! The bench's output: a markdown table per server, and one line per server in a summary.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use super::measure::{BACK_TO_BACK, BURST, CACHED, COLD_STARTS, LONE, Measured};
use super::mock::Arrival;
use lifesciences_core::testing::busiest_within;

/// One upstream of a server, as the busiest-window row reports it.
#[derive(Debug, Clone)]
pub(crate) struct Limit {
    /// Its human name, e.g. `Ensembl`.
    pub name: String,
    /// Its path prefix on the mock, e.g. `/ensembl`.
    pub prefix: String,
    /// The rate the server was configured with (requests per second).
    pub rate: f64,
}

/// What the table of one server shows.
#[derive(Debug, Clone)]
pub(crate) struct Report {
    /// e.g. `string-mcp`.
    pub name: String,
    /// The tool and its argument template.
    pub call: String,
    /// What one distinct call costs upstream, when known.
    pub about: Option<String>,
    pub binary_bytes: Option<u64>,
    /// The server's upstreams; empty when not known (a generic command).
    pub limits: Vec<Limit>,
    pub measured: Measured,
}

/// The p-th percentile (0–100) of `samples` by nearest rank.
pub(crate) fn percentile(samples: &[Duration], p: f64) -> Option<Duration> {
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.saturating_sub(1)).copied()
}

pub(crate) fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms >= 100.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{ms:.1} ms")
    }
}

fn wall(d: Duration) -> String {
    if d >= Duration::from_secs(2) {
        format!("{:.1} s", d.as_secs_f64())
    } else {
        ms(d)
    }
}

fn mib(kib: Option<u64>) -> String {
    kib.map_or_else(
        || "n/a".to_owned(),
        |k| format!("{:.1} MiB", k as f64 / 1024.0),
    )
}

fn p50_p95(samples: &[Duration]) -> String {
    match (percentile(samples, 50.0), percentile(samples, 95.0)) {
        (Some(p50), Some(p95)) => format!("{} / {}", ms(p50), ms(p95)),
        _ => "n/a".to_owned(),
    }
}

pub(crate) fn rate(r: f64) -> String {
    if r.fract() == 0.0 {
        format!("{r:.0}/s")
    } else {
        format!("{r}/s")
    }
}

/// The busiest second of `arrivals`, per upstream (by path prefix) when they are known.
fn busiest_second(arrivals: &[Arrival], limits: &[Limit]) -> String {
    let second = Duration::from_secs(1);
    let times = |filter: &dyn Fn(&Arrival) -> bool| -> Vec<Instant> {
        arrivals
            .iter()
            .filter(|a| filter(a))
            .map(|a| a.at)
            .collect()
    };
    let mut parts = Vec::new();
    for limit in limits {
        let prefix = limit.prefix.trim_end_matches('/');
        let within = |a: &Arrival| a.path == prefix || a.path.starts_with(&format!("{prefix}/"));
        let at = times(&within);
        if at.is_empty() {
            continue;
        }
        parts.push(format!(
            "{} {} (limit {})",
            limit.name,
            busiest_within(&at, second),
            rate(limit.rate)
        ));
    }
    let unrouted = times(&|a: &Arrival| {
        !limits.iter().any(|l| {
            let prefix = l.prefix.trim_end_matches('/');
            a.path == prefix || a.path.starts_with(&format!("{prefix}/"))
        })
    });
    if !unrouted.is_empty() {
        let label = if limits.is_empty() {
            "all"
        } else {
            "other paths"
        };
        parts.push(format!("{label} {}", busiest_within(&unrouted, second)));
    }
    if parts.is_empty() {
        "no upstream requests".to_owned()
    } else {
        parts.join("; ")
    }
}

/// The markdown table of one server.
pub(crate) fn table(report: &Report) -> String {
    let m = &report.measured;
    let mut rows: Vec<(String, String)> = vec![
        (
            format!("cold start → initialize answered (median of {COLD_STARTS})"),
            percentile(&m.cold_starts, 50.0).map_or_else(|| "n/a".to_owned(), ms),
        ),
        (
            "binary size".to_owned(),
            report.binary_bytes.map_or_else(
                || "n/a".to_owned(),
                |b| format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0)),
            ),
        ),
        (
            "RSS idle (after initialize + tools/list)".to_owned(),
            mib(m.rss_idle_kib),
        ),
        (
            format!("RSS after {} calls", m.calls_made),
            mib(m.rss_after_kib),
        ),
        (
            format!("lone uncached call p50 / p95 ({LONE})"),
            p50_p95(&m.lone),
        ),
        (
            format!("cached call p50 / p95 ({CACHED})"),
            p50_p95(&m.cached),
        ),
        (
            format!("back-to-back uncached p50 / p95 ({BACK_TO_BACK})"),
            p50_p95(&m.back_to_back),
        ),
        (
            format!("{BURST} identical concurrent calls"),
            format!(
                "{} wall, {} upstream request(s)",
                wall(m.identical.wall),
                m.identical.arrivals.len()
            ),
        ),
        (
            format!("{BURST} distinct concurrent calls"),
            format!(
                "{} wall, {} upstream request(s)",
                wall(m.distinct.wall),
                m.distinct.arrivals.len()
            ),
        ),
        (
            format!("busiest 1 s of upstream arrivals ({BURST} distinct)"),
            busiest_second(&m.distinct.arrivals, &report.limits),
        ),
    ];
    if m.errors > 0 {
        let first = m.first_error.as_deref().unwrap_or_default();
        let first: String = first.chars().take(160).collect();
        rows.push((
            "calls that failed".to_owned(),
            format!("{} (first: {})", m.errors, first.replace('|', "\\|")),
        ));
    }
    let mut out = String::new();
    let _ = writeln!(out, "### {}\n", report.name);
    let _ = writeln!(out, "`{}`", report.call);
    if let Some(about) = &report.about {
        let _ = writeln!(out, "(each distinct call: {about})");
    }
    let _ = writeln!(out, "\n| measure | value |\n|---|---|");
    for (measure, value) in rows {
        let _ = writeln!(out, "| {measure} | {value} |");
    }
    out
}

/// One line per server: the headline numbers side by side.
pub(crate) fn summary(reports: &[Report]) -> String {
    let mut out = String::from(
        "| server | cold start | binary | RSS idle → after | lone p50 | cached p50 | \
         back-to-back p50 | 100 identical | 100 distinct |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in reports {
        let m = &r.measured;
        let p50 = |s: &[Duration]| percentile(s, 50.0).map_or_else(|| "n/a".to_owned(), ms);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} → {} | {} | {} | {} | {} ({} req) | {} ({} req) |",
            r.name,
            p50(&m.cold_starts),
            r.binary_bytes.map_or_else(
                || "n/a".to_owned(),
                |b| format!("{:.1} MiB", b as f64 / 1048576.0)
            ),
            mib(m.rss_idle_kib),
            mib(m.rss_after_kib),
            p50(&m.lone),
            p50(&m.cached),
            p50(&m.back_to_back),
            wall(m.identical.wall),
            m.identical.arrivals.len(),
            wall(m.distinct.wall),
            m.distinct.arrivals.len(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let samples: Vec<Duration> = (1..=10).map(Duration::from_millis).collect();
        assert_eq!(percentile(&samples, 50.0), Some(Duration::from_millis(5)));
        assert_eq!(percentile(&samples, 95.0), Some(Duration::from_millis(10)));
        assert_eq!(percentile(&[], 50.0), None);
    }
}
