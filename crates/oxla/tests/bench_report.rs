//! `oxla bench --compare` / `--report` on small synthetic JSON: ratios and verdicts checked
//! by hand, the anchors file read as run_anchors.py writes it, the SVG chart's bars and
//! labels, and the command line end to end.

use std::path::PathBuf;

use oxla::bench_report::*;
use serde_json::json;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("oxla-bench-report-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn base_json() -> serde_json::Value {
    json!([
        {"name": "softmax", "compile_ms": 10.0, "run_ms": 2.0, "runs": 50, "peak_bytes": 4096, "check": "ok", "gbs": 12.5},
        {"name": "matmul", "compile_ms": 20.0, "run_ms": 8.0, "runs": 20, "peak_bytes": 0, "check": "ok", "gflops": 100.0},
        {"name": "gone", "compile_ms": 5.0, "run_ms": 1.0, "runs": 10, "peak_bytes": 0, "check": "ok"}
    ])
}

fn now_json() -> serde_json::Value {
    json!([
        {"name": "softmax", "compile_ms": 10.2, "run_ms": 1.0, "runs": 50, "peak_bytes": 4096, "check": "ok"},
        {"name": "matmul", "compile_ms": 30.0, "run_ms": 8.3, "runs": 20, "peak_bytes": 0, "check": "ok"},
        {"name": "new", "compile_ms": 1.0, "run_ms": 0.5, "runs": 10, "peak_bytes": 0, "check": "ok"},
        {"name": "broken", "compile_ms": null, "run_ms": null, "runs": 0, "peak_bytes": null, "check": "compile: Unimplemented"}
    ])
}

fn anchors_json() -> serde_json::Value {
    json!({
        "machine": {"cpu": "test"},
        "workloads": {
            "softmax": {
                "flops": null, "metric": "GB/s",
                "jax": {"median_ms": 0.5, "min_ms": 0.4, "reps": 10, "compile_ms": 40.0},
                "jax_1thread": {"median_ms": 1.5},
                "iree": {"compile_ms": 900.0, "local-task": {"median_ms": 0.8}, "local-sync": {"median_ms": 2.0}},
                "iree_datatiling": {"local-task": {"median_ms": 0.6}},
                "numpy": {"skipped": "no direct numpy equivalent"}
            },
            "matmul": {
                "jax": {"median_ms": 4.0},
                "iree": {"compile_error": "boom"},
                "numpy": {"median_ms": 5.0}
            }
        }
    })
}

#[test]
fn rows_read_back_from_bench_json() {
    let rows = rows_from_json(&base_json()).unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0].name, "softmax");
    assert_eq!(rows[0].run_ms, Some(2.0));
    assert_eq!(rows[0].metric.as_deref(), Some("GB/s"));
    assert_eq!(rows[1].rate, Some(100.0));
    assert!(rows_from_json(&json!({"name": "x"})).is_err());
    assert!(rows_from_json(&json!([{"run_ms": 1.0}]))
        .unwrap_err()
        .to_string()
        .contains("row 0"));
    // A row written by Row::to_json reads back the same.
    let back = rows_from_json(&serde_json::Value::Array(
        rows.iter().map(|r| r.to_json()).collect(),
    ))
    .unwrap();
    assert_eq!(back[1].compile_ms, Some(20.0));
    assert_eq!(back[1].rate, Some(100.0));
}

#[test]
fn compare_ratios_and_verdicts() {
    assert_eq!(change(2.0, 1.0, 0.05), Some((0.5, Change::Faster)));
    assert_eq!(change(8.0, 8.3, 0.05).unwrap().1, Change::Same); // +3.75%
    assert_eq!(change(20.0, 30.0, 0.05), Some((1.5, Change::Slower)));
    assert_eq!(change(0.0, 1.0, 0.05), None);
    let base = rows_from_json(&base_json()).unwrap();
    let now = rows_from_json(&now_json()).unwrap();
    let d = compare(&base, &now, 0.05);
    let names: Vec<&str> = d.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["softmax", "matmul", "new", "broken", "gone"]);
    assert_eq!(d[0].run, Some((0.5, Change::Faster)));
    assert_eq!(d[0].compile.unwrap().1, Change::Same); // 10 -> 10.2: +2%
    assert_eq!(d[1].compile, Some((1.5, Change::Slower)));
    assert!((d[1].run.unwrap().0 - 8.3 / 8.0).abs() < 1e-12);
    assert_eq!(d[2].run, None);
    assert_eq!(d[2].run_ms, (None, Some(0.5)));
    assert_eq!(d[4].run_ms, (Some(1.0), None));
    let text = format_compare(&d, 0.05);
    let line = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} missing:\n{text}"))
            .to_string()
    };
    assert!(line("softmax").contains("2.000 → 1.000") && line("softmax").contains("0.50x faster"));
    assert!(line("matmul").contains("1.50x slower") && line("matmul").contains("1.04x"));
    assert!(line("new").contains("not in base"), "{text}");
    assert!(line("gone").contains("not in this run"), "{text}");
    // Geometric means over the workloads in both runs: compile sqrt(1.02 * 1.5), run
    // sqrt(0.5 * 1.0375).
    let gm = line("geo-mean");
    assert!(
        gm.contains("compile 1.237x") && gm.contains("run 0.720x"),
        "{gm}"
    );
    assert!(
        gm.contains("1 faster, 0 slower, 1 within ±5% noise"),
        "{gm}"
    );
}

#[test]
fn anchors_as_run_anchors_writes_them() {
    let a = anchors_from_json(&anchors_json()).unwrap();
    let s = &a["softmax"];
    assert_eq!(s.xla, Some(0.5));
    assert_eq!(s.xla_1thread, Some(1.5));
    assert_eq!(s.iree, Some(0.6)); // the better IREE configuration
    assert_eq!(s.numpy, None); // skipped
    let m = &a["matmul"];
    assert_eq!((m.xla, m.iree, m.numpy), (Some(4.0), None, Some(5.0)));
    assert!(anchors_from_json(&json!([])).is_err());
}

#[test]
fn report_chart_has_a_bar_per_time_and_labelled_rows() {
    let rows = rows_from_json(&now_json()).unwrap();
    let anchors = anchors_from_json(&anchors_json()).unwrap();
    let svg = report_svg(&rows, &anchors).unwrap();
    assert!(svg.starts_with("<svg") || svg.contains("<svg"), "{svg}");
    // Rows with a run time, each labelled; Oxla / best of XLA and IREE: softmax 1.0 / 0.5,
    // matmul 8.3 / 4.0 = 2.075.
    assert!(svg.contains("softmax (2.00x)"), "{svg}");
    assert!(svg.contains("matmul (2.08x)"), "{svg}");
    assert!(svg.contains("\nnew\n"), "{svg}");
    assert!(!svg.contains("broken"));
    for series in ["Oxla", "XLA (JAX)", "XLA, 1 thread", "IREE", "numpy"] {
        assert!(svg.contains(series), "legend lacks {series}");
    }
    // Bars: Oxla 3, XLA 2, XLA 1 thread 1, IREE 1, numpy 1 = 8 (filled rectangles beyond
    // the background, the plotting area's and the legend's own).
    let fills = ["#D95F02", "#1B9E77", "#66A61E", "#7570B3", "#999999"];
    let count = |c: &str| svg.matches(&format!("fill=\"{c}\"")).count();
    let counts: Vec<usize> = fills.iter().map(|c| count(c)).collect();
    // Each series' bars plus its legend swatch.
    assert_eq!(counts, [4, 3, 2, 2, 2], "{svg}");
    // Nothing to draw is an error.
    assert!(report_svg(&rows[3..], &anchors).is_err());
}

#[test]
fn the_command_line_compares_and_reports_saved_runs() {
    let d = scratch("cli");
    let (base, now, anchors) = (d.join("base.json"), d.join("now.json"), d.join("a.json"));
    std::fs::write(&base, base_json().to_string()).unwrap();
    std::fs::write(&now, now_json().to_string()).unwrap();
    std::fs::write(&anchors, anchors_json().to_string()).unwrap();
    let p = |p: &PathBuf| p.to_str().unwrap().to_string();
    for (ext, marker) in [("svg", "<svg"), ("html", "<table")] {
        let report = d.join(format!("report.{ext}"));
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_oxla"))
            .args(["bench", "--load", &p(&now), "--compare", &p(&base)])
            .args(["--anchors", &p(&anchors), "--report", &p(&report)])
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{o:?}");
        assert!(
            out.contains("0.50x faster") && out.contains("1.50x slower"),
            "{out}"
        );
        let text = std::fs::read_to_string(&report).unwrap();
        assert!(text.contains(marker) && text.contains("softmax"), "{ext}");
    }
    // A malformed base file is an error naming it (exit 1); DIR and --load together are a
    // usage error (exit 2).
    std::fs::write(&base, "{").unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_oxla"))
        .args(["bench", "--load", &p(&now), "--compare", &p(&base)])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("base.json"));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_oxla"))
        .args(["bench", "somedir", "--load", &p(&now)])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&d);
}
