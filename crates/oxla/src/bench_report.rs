//! `oxla bench --compare` and `--report`: per-workload deltas against an earlier `--json`
//! output, and a chart of run times against the anchors (`anchors.json` from
//! `../shared/bench/anchors/run_anchors.py`: per workload `jax.median_ms`,
//! `jax_1thread.median_ms`, `iree` / `iree_datatiling` `local-task.median_ms`,
//! `numpy.median_ms`).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use oxla_hlo::{Error, Result};

use crate::bench::Row;

fn read_json(path: &Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text)
        .map_err(|e| Error::invalid(format!("{}: not JSON: {e}", path.display())))
}

/// The rows of an `oxla bench --json` file.
pub fn load_rows(path: &Path) -> Result<Vec<Row>> {
    rows_from_json(&read_json(path)?).map_err(|e| {
        e.context(format!(
            "{} (an `oxla bench --json` output)",
            path.display()
        ))
    })
}

/// The rows of an `oxla bench --json` value: an array of objects with `name` and optional
/// `compile_ms`, `run_ms`, `runs`, `peak_bytes`, `check`, `gflops` / `gbs`.
pub fn rows_from_json(v: &serde_json::Value) -> Result<Vec<Row>> {
    let arr = v
        .as_array()
        .ok_or_else(|| Error::invalid("expected an array of workload rows"))?;
    arr.iter()
        .enumerate()
        .map(|(i, r)| {
            let name = r["name"]
                .as_str()
                .ok_or_else(|| Error::invalid(format!("row {i}: no \"name\"")))?;
            let (metric, rate) = match (r["gflops"].as_f64(), r["gbs"].as_f64()) {
                (Some(g), _) => (Some("GFLOPS".to_string()), Some(g)),
                (_, Some(b)) => (Some("GB/s".to_string()), Some(b)),
                _ => (None, None),
            };
            Ok(Row {
                name: name.to_string(),
                compile_ms: r["compile_ms"].as_f64(),
                run_ms: r["run_ms"].as_f64(),
                runs: r["runs"].as_u64().unwrap_or(0) as usize,
                metric,
                rate,
                peak_bytes: r["peak_bytes"].as_u64().map(|b| b as usize),
                check: r["check"].as_str().unwrap_or("").to_string(),
            })
        })
        .collect()
}

/// How a time changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Faster beyond the noise threshold.
    Faster,
    /// Slower beyond the noise threshold.
    Slower,
    /// Within the noise threshold.
    Same,
}

/// `now / base` and its verdict: slower when the ratio exceeds `1 + noise`, faster when it
/// is below `1 / (1 + noise)`.
pub fn change(base: f64, now: f64, noise: f64) -> Option<(f64, Change)> {
    if !(base > 0.0 && now >= 0.0 && base.is_finite() && now.is_finite()) {
        return None;
    }
    let r = now / base;
    let c = if r > 1.0 + noise {
        Change::Slower
    } else if r < 1.0 / (1.0 + noise) {
        Change::Faster
    } else {
        Change::Same
    };
    Some((r, c))
}

/// One workload in both runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Delta {
    /// The workload.
    pub name: String,
    /// Compile ms (base, now).
    pub compile_ms: (Option<f64>, Option<f64>),
    /// Median run ms (base, now).
    pub run_ms: (Option<f64>, Option<f64>),
    /// `now / base` compile time and its verdict.
    pub compile: Option<(f64, Change)>,
    /// `now / base` run time and its verdict.
    pub run: Option<(f64, Change)>,
}

/// Per workload of `now` (and those only in `base`, last), its change from `base`.
pub fn compare(base: &[Row], now: &[Row], noise: f64) -> Vec<Delta> {
    let by_name: BTreeMap<&str, &Row> = base.iter().map(|r| (r.name.as_str(), r)).collect();
    let pair = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => change(a, b, noise),
        _ => None,
    };
    let mut v: Vec<Delta> = now
        .iter()
        .map(|n| {
            let b = by_name.get(n.name.as_str());
            let (bc, br) = (b.and_then(|b| b.compile_ms), b.and_then(|b| b.run_ms));
            Delta {
                name: n.name.clone(),
                compile_ms: (bc, n.compile_ms),
                run_ms: (br, n.run_ms),
                compile: pair(bc, n.compile_ms),
                run: pair(br, n.run_ms),
            }
        })
        .collect();
    for b in base {
        if !now.iter().any(|n| n.name == b.name) {
            v.push(Delta {
                name: b.name.clone(),
                compile_ms: (b.compile_ms, None),
                run_ms: (b.run_ms, None),
                compile: None,
                run: None,
            });
        }
    }
    v
}

fn geo_mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp())
}

/// The comparison as a table, with the geometric means of the ratios last.
pub fn format_compare(deltas: &[Delta], noise: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<24} {:>22} {:>15}   {:>22} {:>15}",
        "workload", "compile_ms base → now", "ratio", "run_ms base → now", "ratio"
    );
    let ms = |v: Option<f64>, p: usize| v.map_or("-".to_string(), |v| format!("{v:.p$}"));
    let verdict = |c: Option<(f64, Change)>| match c {
        None => "-".to_string(),
        Some((r, Change::Faster)) => format!("{r:.2}x faster"),
        Some((r, Change::Slower)) => format!("{r:.2}x slower"),
        Some((r, Change::Same)) => format!("{r:.2}x"),
    };
    for d in deltas {
        let note = match (d.run_ms, d.compile_ms) {
            ((None, Some(_)), _) | ((_, _), (None, Some(_))) if d.run.is_none() => {
                "  (not in base)"
            }
            ((Some(_), None), _) if d.run.is_none() => "  (not in this run)",
            _ => "",
        };
        let _ = writeln!(
            s,
            "{:<24} {:>22} {:>15}   {:>22} {:>15}{note}",
            d.name,
            format!("{} → {}", ms(d.compile_ms.0, 1), ms(d.compile_ms.1, 1)),
            verdict(d.compile),
            format!("{} → {}", ms(d.run_ms.0, 3), ms(d.run_ms.1, 3)),
            verdict(d.run),
        );
    }
    let ratios = |f: fn(&Delta) -> Option<(f64, Change)>| -> Vec<f64> {
        deltas.iter().filter_map(|d| f(d).map(|c| c.0)).collect()
    };
    let (cr, rr) = (ratios(|d| d.compile), ratios(|d| d.run));
    let count = |c: Change| {
        deltas
            .iter()
            .filter(|d| d.run.is_some_and(|r| r.1 == c))
            .count()
    };
    if let (Some(c), Some(r)) = (geo_mean(&cr), geo_mean(&rr)) {
        let _ = writeln!(
            s,
            "geo-mean now/base: compile {c:.3}x, run {r:.3}x; run: {} faster, {} slower, {} \
             within ±{:.0}% noise",
            count(Change::Faster),
            count(Change::Slower),
            count(Change::Same),
            noise * 100.0
        );
    }
    s
}

/// One workload's anchor run times (median ms).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Anchor {
    /// JAX (XLA CPU), default threading.
    pub xla: Option<f64>,
    /// JAX with one thread.
    pub xla_1thread: Option<f64>,
    /// IREE llvm-cpu, local-task (all cores): the better of the default and data-tiling
    /// configurations.
    pub iree: Option<f64>,
    /// numpy, where the workload has a direct equivalent.
    pub numpy: Option<f64>,
}

/// The anchors of a `run_anchors.py` results file, by workload.
pub fn load_anchors(path: &Path) -> Result<BTreeMap<String, Anchor>> {
    anchors_from_json(&read_json(path)?)
        .map_err(|e| e.context(format!("{} (a run_anchors.py output)", path.display())))
}

/// The anchors of a `run_anchors.py` results value (`{"workloads": {NAME: {...}}}`).
pub fn anchors_from_json(v: &serde_json::Value) -> Result<BTreeMap<String, Anchor>> {
    let w = v["workloads"]
        .as_object()
        .ok_or_else(|| Error::invalid("no \"workloads\" object"))?;
    let ms = |v: &serde_json::Value| v["median_ms"].as_f64().filter(|x| *x > 0.0);
    Ok(w.iter()
        .map(|(name, r)| {
            let iree = ["iree", "iree_datatiling"]
                .iter()
                .filter_map(|c| ms(&r[*c]["local-task"]))
                .reduce(f64::min);
            let a = Anchor {
                xla: ms(&r["jax"]),
                xla_1thread: ms(&r["jax_1thread"]),
                iree,
                numpy: ms(&r["numpy"]),
            };
            (name.clone(), a)
        })
        .collect())
}

/// The series of the report chart: name, colour, value per workload.
type Series<'a> = (&'static str, plotters::style::RGBColor, Vec<Option<f64>>);

/// An SVG chart: per workload (one row each), horizontal bars of the median run time on a
/// log scale — Oxla and, where `anchors` has the workload, XLA, XLA on one thread, IREE and
/// numpy; each row's label ends with Oxla's ratio to the best of XLA and IREE.
pub fn report_svg(rows: &[Row], anchors: &BTreeMap<String, Anchor>) -> Result<String> {
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let rows: Vec<&Row> = rows.iter().filter(|r| r.run_ms.is_some()).collect();
    if rows.is_empty() {
        return Err(Error::invalid(
            "no workload has a run time to draw (every row failed)",
        ));
    }
    let anchor = |r: &Row| anchors.get(&r.name).cloned().unwrap_or_default();
    let series: Vec<Series> = vec![
        (
            "Oxla",
            RGBColor(0xd9, 0x5f, 0x02),
            rows.iter().map(|r| r.run_ms).collect(),
        ),
        (
            "XLA (JAX)",
            RGBColor(0x1b, 0x9e, 0x77),
            rows.iter().map(|r| anchor(r).xla).collect(),
        ),
        (
            "XLA, 1 thread",
            RGBColor(0x66, 0xa6, 0x1e),
            rows.iter().map(|r| anchor(r).xla_1thread).collect(),
        ),
        (
            "IREE",
            RGBColor(0x75, 0x70, 0xb3),
            rows.iter().map(|r| anchor(r).iree).collect(),
        ),
        (
            "numpy",
            RGBColor(0x99, 0x99, 0x99),
            rows.iter().map(|r| anchor(r).numpy).collect(),
        ),
    ];
    let series: Vec<Series> = series
        .into_iter()
        .filter(|s| s.2.iter().any(Option::is_some))
        .collect();
    let labels: Vec<String> = rows
        .iter()
        .map(|r| {
            let a = anchor(r);
            let best = [a.xla, a.iree].into_iter().flatten().reduce(f64::min);
            match (r.run_ms, best) {
                (Some(o), Some(b)) => format!("{} ({:.2}x)", r.name, o / b),
                _ => r.name.clone(),
            }
        })
        .collect();
    let values: Vec<f64> = series
        .iter()
        .flat_map(|s| s.2.iter().flatten().copied())
        .collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(0.0, f64::max);
    let (lo, hi) = (
        10f64.powf((lo.log10()).floor()),
        10f64.powf((hi.log10()).ceil()),
    );
    let hi = if hi <= lo { lo * 10.0 } else { hi };
    let n = rows.len();
    let height = 90 + 26 * n as u32 * series.len().max(2) as u32 / 2;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, height)).into_drawing_area();
        let draw = |e: &dyn std::fmt::Display| Error::internal(format!("report chart: {e}"));
        root.fill(&WHITE).map_err(|e| draw(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Median run time per workload (ms, log scale; label: Oxla / best of XLA, IREE)",
                ("sans-serif", 18),
            )
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(250)
            .build_cartesian_2d((lo..hi).log_scale(), 0f64..n as f64)
            .map_err(|e| draw(&e))?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_desc("ms")
            .draw()
            .map_err(|e| draw(&e))?;
        // Workload names beside their rows (in pixels: the y axis has no labels of its own).
        let style = ("sans-serif", 13)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Right, VPos::Center));
        for (i, label) in labels.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(lo, (n - 1 - i) as f64 + 0.5));
            root.draw(&Text::new(label.clone(), (px - 6, py), style.clone()))
                .map_err(|e| draw(&e))?;
        }
        let k = series.len() as f64;
        for (j, (name, colour, vals)) in series.iter().enumerate() {
            let colour = *colour;
            let bars = vals.iter().enumerate().filter_map(|(i, v)| {
                // Row i from the top: y = n - 1 - i.
                let y0 = (n - 1 - i) as f64 + 0.9 - (j as f64 + 1.0) * 0.8 / k;
                v.map(|v| Rectangle::new([(lo, y0), (v, y0 + 0.8 / k)], colour.filled()))
            });
            chart
                .draw_series(bars)
                .map_err(|e| draw(&e))?
                .label(*name)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled())
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .position(SeriesLabelPosition::LowerRight)
            .draw()
            .map_err(|e| draw(&e))?;
        root.present().map_err(|e| draw(&e))?;
    }
    Ok(svg)
}

/// Writes the report: an `.svg` file, or an `.html` page with the chart and a table.
pub fn write_report(path: &Path, rows: &[Row], anchors: &BTreeMap<String, Anchor>) -> Result<()> {
    let svg = report_svg(rows, anchors)?;
    let html = path.extension().is_some_and(|e| e == "html" || e == "htm");
    let text = if html {
        let mut t = String::from(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>oxla bench</title>\
             </head><body>\n<h1>oxla bench</h1>\n",
        );
        t.push_str(&svg);
        t.push_str(
            "\n<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n<tr><th>workload</th>\
             <th>compile ms</th><th>run ms</th><th>XLA ms</th><th>IREE ms</th><th>check</th></tr>\n",
        );
        let f = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.3}"));
        for r in rows {
            let a = anchors.get(&r.name).cloned().unwrap_or_default();
            let _ = writeln!(
                t,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&r.name),
                f(r.compile_ms),
                f(r.run_ms),
                f(a.xla),
                f(a.iree),
                escape(&r.check)
            );
        }
        t.push_str("</table>\n</body></html>\n");
        t
    } else {
        svg
    };
    std::fs::write(path, text)
        .map_err(|e| Error::invalid(format!("cannot write {}: {e}", path.display())))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
