//! Text filetests: every `tests/filetests/**/*.hlo` file is an HLO module with header
//! comments saying what to run (a pass, a pipeline, or the JIT against the interpreter) and
//! an expectation section (the expected HLO after the passes, or the expected outputs).
//! `OXLA_BLESS=1` rewrites the expectation sections from what the code now produces;
//! `OXLA_FILETEST=substring` runs only the files whose path contains it. The format is
//! described in `tests/filetests/README.md`.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use oxla::hlo::literal::ulp_distance_bits;
use oxla::hlo::text::{parse_module, parse_shape, print_module};
use oxla::hlo::{HloModule, Literal, Op, PrimitiveType, Shape};
use oxla::interp::Interpreter;
use oxla::passes::Pipeline;
use oxla::runtime::{Client, CompileOptions};

const EXPECTED_MARKER: &str = "// ----- expected";
const OUTPUTS_MARKER: &str = "// ----- outputs";
/// Output arrays with more elements than this are recorded as a hash of their text.
const MAX_PRINTED_ELEMENTS: i64 = 256;

type PassFn = fn(&mut HloModule) -> oxla::hlo::Result<bool>;

enum Kind {
    /// Passes run once each, in order.
    Passes(Vec<(String, PassFn)>),
    /// `Pipeline::standard()` or `Pipeline::with_fusion()`, to a fixed point.
    Pipeline(String),
    JitVsInterp,
}

#[derive(Clone, Copy, Default)]
struct Tolerance {
    ulp: u64,
    /// Absolute error allowed relative to the largest magnitude of the reference.
    rel: f64,
}

impl Tolerance {
    fn exact(&self) -> bool {
        self.ulp == 0 && self.rel == 0.0
    }
}

enum Check {
    Check(String),
    Not(String),
}

struct TestFile {
    kind: Kind,
    opt_levels: Vec<u32>,
    fold_constants: bool,
    threads: usize,
    tolerance: Tolerance,
    runs: Vec<Vec<String>>,
    /// One value (any pass changed the module) or one per pass.
    changed: Option<Vec<bool>>,
    rerun_unchanged: bool,
    checks: Vec<Check>,
    /// The module text (comment lines removed).
    module: String,
    /// The file up to the expectation section.
    head: String,
    /// The expectation section's lines, `// ` removed; `None` when the file has none.
    expected: Option<Vec<String>>,
}

fn pass_by_name(name: &str) -> Option<PassFn> {
    use oxla::passes::*;
    Some(match name {
        "simplify" => simplify,
        "constant-folding" | "fold-constants" => fold_constants,
        "cse" => cse,
        "dce" => dce,
        "inline" | "call-inlining" => inline_calls,
        "conv-canon" | "convolution-canonicalization" => canonicalize_convolutions,
        "conv-gemm" | "convolution-to-gemm" => convolution_to_gemm,
        "dot-canon" | "dot-canonicalization" => canonicalize_dots,
        "fusion" => fuse,
        "horizontal-fusion" => fuse_scalars,
        "multi-output-fusion" => fuse_multi_output,
        "unroll" | "loop-unrolling" => unroll_loops,
        "sink-updates" => sink_updates,
        "sub-byte-bitcasts" => expand_sub_byte_bitcasts,
        "layout" | "layout-assignment" => assign_layouts,
        "plan" | "execution-plan" => plan_execution,
        "spmd" | "spmd-partitioning" => partition_spmd,
        _ => return None,
    })
}

fn parse_file(text: &str) -> Result<TestFile, String> {
    let mut t = TestFile {
        kind: Kind::JitVsInterp,
        opt_levels: vec![0, 1],
        fold_constants: false,
        threads: 0,
        tolerance: Tolerance::default(),
        runs: Vec::new(),
        changed: None,
        rerun_unchanged: false,
        checks: Vec::new(),
        module: String::new(),
        head: String::new(),
        expected: None,
    };
    let mut kind = None;
    let mut in_header = true;
    let mut lines = text.lines();
    for line in lines.by_ref() {
        let trimmed = line.trim();
        if trimmed == EXPECTED_MARKER || trimmed == OUTPUTS_MARKER {
            t.expected = Some(Vec::new());
            break;
        }
        t.head.push_str(line);
        t.head.push('\n');
        let Some(comment) = trimmed.strip_prefix("//") else {
            if !trimmed.is_empty() {
                in_header = false;
            }
            t.module.push_str(line);
            t.module.push('\n');
            continue;
        };
        if !in_header {
            continue;
        }
        let comment = comment.trim();
        let Some((key, value)) = comment.split_once(':') else {
            continue;
        };
        let value = value.trim();
        // Only the directives below are read; other comments are free text.
        const KEYS: [&str; 8] = [
            "test",
            "options",
            "tolerance",
            "args",
            "changed",
            "rerun",
            "CHECK",
            "CHECK-NOT",
        ];
        if !KEYS.contains(&key) {
            continue;
        }
        match key {
            "test" => kind = Some(value.to_string()),
            "options" => {
                for opt in value.split_whitespace() {
                    let (k, v) = opt
                        .split_once('=')
                        .ok_or_else(|| format!("options: `{opt}` is not key=value"))?;
                    let bad = || format!("options: bad value in `{opt}`");
                    match k {
                        "opt_level" | "opt_levels" => {
                            t.opt_levels = v
                                .split(',')
                                .map(|x| x.parse::<u32>().map_err(|_| bad()))
                                .collect::<Result<_, _>>()?
                        }
                        "fold_constants" => t.fold_constants = v.parse().map_err(|_| bad())?,
                        "threads" => t.threads = v.parse().map_err(|_| bad())?,
                        _ => return Err(format!("options: unknown option `{k}`")),
                    }
                }
            }
            "tolerance" => {
                for opt in value.split_whitespace() {
                    let bad = || format!("tolerance: bad `{opt}`");
                    match opt.split_once('=') {
                        Some(("ulp", v)) => t.tolerance.ulp = v.parse().map_err(|_| bad())?,
                        Some(("rel", v)) => t.tolerance.rel = v.parse().map_err(|_| bad())?,
                        _ if opt == "exact" => t.tolerance = Tolerance::default(),
                        _ => return Err(bad()),
                    }
                }
            }
            "args" => t
                .runs
                .push(value.split(';').map(|s| s.trim().to_string()).collect()),
            "changed" => {
                let mut v = Vec::new();
                for w in value.split(',').map(str::trim) {
                    v.push(match w {
                        "yes" | "true" => true,
                        "no" | "false" => false,
                        _ => return Err(format!("changed: expected yes or no, got `{w}`")),
                    });
                }
                t.changed = Some(v);
            }
            "rerun" => match value {
                "unchanged" => t.rerun_unchanged = true,
                _ => return Err(format!("rerun: expected `unchanged`, got `{value}`")),
            },
            "CHECK" => t.checks.push(Check::Check(value.to_string())),
            "CHECK-NOT" => t.checks.push(Check::Not(value.to_string())),
            _ => unreachable!("directive {key}"),
        }
    }
    if let Some(exp) = t.expected.as_mut() {
        for line in lines {
            let l = line.trim_end();
            let body = l
                .strip_prefix("// ")
                .or_else(|| l.strip_prefix("//"))
                .ok_or_else(|| {
                    format!("expectation section: line `{l}` does not start with `//`")
                })?;
            exp.push(body.to_string());
        }
        while exp.last().is_some_and(|l| l.is_empty()) {
            exp.pop();
        }
    }
    let kind = kind.ok_or("missing `// test:` header")?;
    let mut words = kind.split_whitespace();
    t.kind = match words.next() {
        Some("jit-vs-interp") => Kind::JitVsInterp,
        Some("pipeline") => {
            let p = words.next().unwrap_or("standard");
            if p != "standard" && p != "fusion" {
                return Err(format!("unknown pipeline `{p}` (standard or fusion)"));
            }
            Kind::Pipeline(p.to_string())
        }
        Some("pass") | Some("passes") => {
            let rest: Vec<&str> = words.collect();
            let mut passes = Vec::new();
            for name in rest.join(" ").split([',', ' ']).filter(|s| !s.is_empty()) {
                let f = pass_by_name(name).ok_or_else(|| format!("unknown pass `{name}`"))?;
                passes.push((name.to_string(), f));
            }
            if passes.is_empty() {
                return Err("`test: pass` names no pass".into());
            }
            Kind::Passes(passes)
        }
        _ => return Err(format!("unknown test kind `{kind}`")),
    };
    Ok(t)
}

// ------------------------------------------------------------------------ inputs

/// Random values mixing NaN, ±inf, ±0, subnormals and extreme integers.
fn random(t: PrimitiveType, dims: &[i64], seed: u64) -> Result<Literal, String> {
    oxla_fuzz::inputs::input(t, dims, seed)
}

/// Reads a literal of `shape` from its value text through a one-constant module.
fn parse_literal(shape: &str, value: &str) -> Result<Literal, String> {
    let text = format!("HloModule v\nENTRY e {{\n  ROOT c = {shape} constant({value})\n}}\n");
    let m = parse_module(&text).map_err(|e| format!("literal `{shape} {value}`: {e}"))?;
    match &m.entry_computation().root_instr().op {
        Op::Constant(l) => Ok(l.clone()),
        _ => Err("not a constant".into()),
    }
}

fn call_args<'a>(s: &'a str, name: &str) -> Option<Vec<&'a str>> {
    let inner = s
        .strip_prefix(name)?
        .trim()
        .strip_prefix('(')?
        .strip_suffix(')')?;
    Some(
        inner
            .split(',')
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .collect(),
    )
}

fn num(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .map_err(|_| format!("`{s}` is not a number"))
}

/// One argument from its spec (see the README), for a parameter of `shape`.
fn make_arg(
    spec: &str,
    shape: &Shape,
    index: usize,
    earlier: &[Literal],
) -> Result<Literal, String> {
    let mut parts = spec.split('|').map(str::trim);
    let generator = parts.next().unwrap_or("");
    let (t, dims) = (shape.element_type(), shape.dims().to_vec());
    let n: i64 = dims.iter().product();
    let from_f64s = |v: Vec<f64>| -> Result<Literal, String> {
        if t.is_float() || t.is_complex() {
            Literal::from_f64s(t, &dims, &v)
        } else {
            Literal::from_i64s(t, &dims, &v.iter().map(|&x| x as i64).collect::<Vec<_>>())
        }
        .map_err(|e| e.to_string())
    };
    let mut lit = if generator.is_empty() {
        random(t, &dims, index as u64)?
    } else if let Some(a) = call_args(generator, "random") {
        let seed = a.first().map_or(Ok(index as f64), |s| num(s))?;
        random(t, &dims, seed as u64)?
    } else if let Some(a) = call_args(generator, "same") {
        let k = num(a.first().ok_or("same(k) needs k")?)? as usize;
        earlier
            .get(k)
            .ok_or(format!("same({k}): no such earlier argument"))?
            .clone()
    } else if let Some(a) = call_args(generator, "pattern") {
        // ((i + seed) * mul) % modulus + add
        let [seed, mul, modulus, add] = a[..] else {
            return Err("pattern(seed, mul, mod, add)".into());
        };
        let (seed, mul, modulus, add) = (num(seed)?, num(mul)?, num(modulus)?, num(add)?);
        let (seed, mul, modulus) = (seed as i64, mul as i64, modulus as i64);
        from_f64s(
            (0..n)
                .map(|i| (((i + seed) * mul) % modulus) as f64 + add)
                .collect(),
        )?
    } else if let Some(a) = call_args(generator, "ramp") {
        // (i + offset) * step
        let [offset, step] = a[..] else {
            return Err("ramp(offset, step)".into());
        };
        let (offset, step) = (num(offset)?, num(step)?);
        from_f64s((0..n).map(|i| (i as f64 + offset) * step).collect())?
    } else if let Some(a) = call_args(generator, "pow2") {
        // 2^(start + i * step)
        let [start, step] = a[..] else {
            return Err("pow2(start, step)".into());
        };
        let (start, step) = (num(start)?, num(step)?);
        from_f64s((0..n).map(|i| (start + i as f64 * step).exp2()).collect())?
    } else if generator == "iota" {
        from_f64s((0..n).map(|i| i as f64).collect())?
    } else {
        parse_literal(&shape.to_string(), generator)?
    };
    for m in parts {
        if !t.is_float() {
            return Err(format!(
                "modifier `{m}` applies to real float arguments only"
            ));
        }
        let v = lit.to_f64s();
        let f: Box<dyn Fn(f64) -> f64> = if let Some(a) = call_args(m, "clamp") {
            let [lo, hi] = a[..] else {
                return Err("clamp(lo, hi)".into());
            };
            let (lo, hi) = (num(lo)?, num(hi)?);
            Box::new(move |x: f64| if x.is_finite() { x.clamp(lo, hi) } else { x })
        } else if let Some(a) = call_args(m, "finite") {
            let r = num(a.first().ok_or("finite(v)")?)?;
            Box::new(move |x: f64| if x.is_finite() { x } else { r })
        } else if let Some(a) = call_args(m, "scale") {
            let k = num(a.first().ok_or("scale(k)")?)?;
            Box::new(move |x: f64| x * k)
        } else if m == "round" {
            Box::new(|x: f64| x.round())
        } else {
            return Err(format!("unknown modifier `{m}`"));
        };
        lit = from_f64s(v.into_iter().map(f).collect())?;
    }
    if lit.shape().without_layout() != shape.without_layout() {
        return Err(format!(
            "argument {index}: `{spec}` gives {}, the parameter is {shape}",
            lit.shape()
        ));
    }
    Ok(lit)
}

fn make_args(t: &TestFile, m: &HloModule) -> Result<Vec<Vec<Literal>>, String> {
    let params = m.entry_computation().program_shape().parameters;
    let runs = if t.runs.is_empty() {
        vec![Vec::new()]
    } else {
        t.runs.clone()
    };
    let mut out = Vec::new();
    for specs in runs {
        let specs: Vec<String> = specs.into_iter().filter(|s| !s.is_empty()).collect();
        if specs.len() > params.len() {
            return Err(format!(
                "args: {} given, the entry computation has {} parameter(s)",
                specs.len(),
                params.len()
            ));
        }
        let mut args = Vec::new();
        for (i, p) in params.iter().enumerate() {
            let spec = specs.get(i).map_or("", String::as_str);
            let a = make_arg(spec, p, i, &args).map_err(|e| format!("argument {i}: {e}"))?;
            args.push(a);
        }
        out.push(args);
    }
    Ok(out)
}

// -------------------------------------------------------------------- comparison

/// Float components of an array leaf widened to f64 with their ULP distance function, or
/// `None` for exactly compared types.
fn float_parts(l: &Literal) -> Option<(Vec<f64>, bool)> {
    match l.element_type() {
        PrimitiveType::F32 => Some((
            l.data_as::<f32>().ok()?.iter().map(|&x| x as f64).collect(),
            true,
        )),
        PrimitiveType::F64 => Some((l.data_as::<f64>().ok()?.to_vec(), false)),
        PrimitiveType::C64 => Some((
            l.data_as::<num_complex::Complex32>()
                .ok()?
                .iter()
                .flat_map(|c| [c.re as f64, c.im as f64])
                .collect(),
            true,
        )),
        PrimitiveType::C128 => Some((
            l.data_as::<num_complex::Complex64>()
                .ok()?
                .iter()
                .flat_map(|c| [c.re, c.im])
                .collect(),
            false,
        )),
        _ => None,
    }
}

fn element_desc(l: &Literal, i: usize) -> String {
    l.get_linear(i)
        .map(|s| format!("{s:?}"))
        .unwrap_or_else(|_| "?".into())
}

/// Compares one array leaf `got` against `want`: floats exactly (NaN equal to NaN) or within
/// `tol`; everything else bit for bit.
fn compare_leaf(got: &Literal, want: &Literal, tol: Tolerance) -> Result<(), String> {
    if got.shape().without_layout() != want.shape().without_layout() {
        return Err(format!("shape {} vs {}", got.shape(), want.shape()));
    }
    let mut errors = Vec::new();
    let mut count = 0;
    if let (Some((a, is32)), Some((b, _))) = (float_parts(got), float_parts(want)) {
        let scale = b
            .iter()
            .filter(|x| x.is_finite())
            .fold(0f64, |m, x| m.max(x.abs()));
        let per = if got.element_type().is_complex() {
            2
        } else {
            1
        };
        for (i, (&x, &y)) in a.iter().zip(&b).enumerate() {
            let ok = if x.is_nan() || y.is_nan() {
                x.is_nan() && y.is_nan()
            } else if x.to_bits() == y.to_bits() {
                true
            } else {
                let d = if is32 {
                    ulp_distance_bits((x as f32).to_bits() as u64, (y as f32).to_bits() as u64, 32)
                } else {
                    ulp_distance_bits(x.to_bits(), y.to_bits(), 64)
                } as u128;
                // Subnormal results of approximations may flush; allow a tiny absolute
                // error when any ULP error is allowed.
                let tiny = is32 && tol.ulp > 0 && (x - y).abs() < 1e-37;
                // d == 0 with different bits is -0 against +0: a difference unless some
                // error is allowed.
                (d <= tol.ulp as u128 && (d > 0 || tol.ulp > 0))
                    || tiny
                    || (tol.rel > 0.0 && (x - y).abs() <= tol.rel * scale.max(1.0))
            };
            if !ok {
                count += 1;
                if errors.len() < 8 {
                    let e = i / per;
                    let part = if per == 2 {
                        if i % 2 == 0 {
                            " (re)"
                        } else {
                            " (im)"
                        }
                    } else {
                        ""
                    };
                    errors.push(format!("element {e}{part}: got {x:e}, want {y:e}"));
                }
            }
        }
    } else {
        let (ta, tb) = (got.to_le_bytes(), want.to_le_bytes());
        let t = got.element_type();
        let is_float = t.is_float();
        let n = got.element_count();
        for i in 0..n {
            let same = if is_float {
                let (x, y) = (
                    got.get_linear(i).map(|s| s.as_f64()).unwrap_or(0.0),
                    want.get_linear(i).map(|s| s.as_f64()).unwrap_or(0.0),
                );
                x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
            } else {
                let w = ta.len() / n.max(1);
                ta.get(i * w..(i + 1) * w) == tb.get(i * w..(i + 1) * w)
            };
            if !same {
                count += 1;
                if errors.len() < 8 {
                    errors.push(format!(
                        "element {i}: got {}, want {}",
                        element_desc(got, i),
                        element_desc(want, i)
                    ));
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{count} element(s) differ:\n      {}",
            errors.join("\n      ")
        ))
    }
}

fn leaves(l: &Literal, out: &mut Vec<Literal>) {
    match l.tuple_elements() {
        Some(elems) => elems.iter().for_each(|e| leaves(e, out)),
        None => out.push(l.clone()),
    }
}

fn shape_text(l: &Literal) -> String {
    let dims: Vec<String> = l.shape().dims().iter().map(|d| d.to_string()).collect();
    format!("{}[{}]", l.element_type().name(), dims.join(","))
}

fn fnv1a(text: &str) -> u64 {
    let mut h = 0xcbf29ce484222325u64;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// The hash recorded for large outputs: of the value text, NaN signs ignored.
fn value_hash(l: &Literal) -> u64 {
    fnv1a(&l.to_hlo_text_value().replace("-nan", "nan"))
}

/// The expectation line of one output leaf.
fn leaf_line(l: &Literal) -> String {
    if l.shape().element_count() > MAX_PRINTED_ELEMENTS {
        format!("{} hash={:016x}", shape_text(l), value_hash(l))
    } else {
        format!("{} {}", shape_text(l), l.to_hlo_text_value())
    }
}

enum Expected {
    Value(Literal),
    Hash(String, u64),
}

fn parse_expected_leaf(line: &str) -> Result<Expected, String> {
    let (shape, value) = line
        .split_once(' ')
        .ok_or_else(|| format!("expected output `{line}`: want `SHAPE VALUE`"))?;
    parse_shape(shape).map_err(|e| format!("expected output `{line}`: {e}"))?;
    if let Some(h) = value.trim().strip_prefix("hash=") {
        let h = u64::from_str_radix(h, 16).map_err(|_| format!("bad hash in `{line}`"))?;
        return Ok(Expected::Hash(shape.to_string(), h));
    }
    Ok(Expected::Value(parse_literal(shape, value)?))
}

fn check_expected(got: &Literal, want: &Expected, tol: Tolerance) -> Result<(), String> {
    match want {
        Expected::Value(w) => compare_leaf(got, w, tol),
        Expected::Hash(shape, h) => {
            if shape_text(got) != *shape {
                return Err(format!("shape {} vs {shape}", shape_text(got)));
            }
            if tol.exact() && value_hash(got) != *h {
                return Err(format!(
                    "hash {:016x} vs {h:016x} (values changed)",
                    value_hash(got)
                ));
            }
            Ok(())
        }
    }
}

/// The expectation section's per-run blocks (`run N:` lines separate runs).
fn expected_runs(lines: &[String]) -> Vec<Vec<String>> {
    let mut runs: Vec<Vec<String>> = Vec::new();
    for l in lines {
        let l = l.trim();
        if l.is_empty() {
            continue;
        }
        if l.starts_with("run ") && l.ends_with(':') {
            runs.push(Vec::new());
            continue;
        }
        if runs.is_empty() {
            runs.push(Vec::new());
        }
        if let Some(r) = runs.last_mut() {
            r.push(l.to_string());
        }
    }
    runs
}

// ----------------------------------------------------------------------- running

/// Line diff (longest common subsequence) of expected vs actual text.
fn diff(expected: &[String], actual: &[String]) -> String {
    let (n, m) = (expected.len(), actual.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if expected[i] == actual[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < n || j < m {
        if i < n && j < m && expected[i] == actual[j] {
            let _ = writeln!(out, "      {}", expected[i]);
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            let _ = writeln!(out, "    - {}", expected[i]);
            i += 1;
        } else {
            let _ = writeln!(out, "    + {}", actual[j]);
            j += 1;
        }
    }
    out
}

fn run_checks(checks: &[Check], text: &str) -> Result<(), String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut pos = 0;
    let mut nots: Vec<&str> = Vec::new();
    let not_in = |nots: &[&str], range: &[&str]| -> Result<(), String> {
        for n in nots {
            if let Some(l) = range.iter().find(|l| l.contains(n)) {
                return Err(format!("CHECK-NOT: `{n}` found in `{}`", l.trim()));
            }
        }
        Ok(())
    };
    for c in checks {
        match c {
            Check::Not(s) => nots.push(s),
            Check::Check(s) => {
                let found = lines[pos..].iter().position(|l| l.contains(s.as_str()));
                let Some(k) = found else {
                    return Err(format!(
                        "CHECK: `{s}` not found after line {pos} of:\n{text}"
                    ));
                };
                not_in(&nots, &lines[pos..pos + k])
                    .map_err(|e| format!("{e} (before `{s}`) in:\n{text}"))?;
                nots.clear();
                pos += k + 1;
            }
        }
    }
    not_in(&nots, &lines[pos..]).map_err(|e| format!("{e} in:\n{text}"))
}

/// Replaces the file's expectation section; returns whether the file changed.
fn bless(path: &Path, t: &TestFile, marker: &str, lines: &[String]) -> Result<bool, String> {
    let mut out = t.head.trim_end().to_string();
    out.push_str("\n\n");
    out.push_str(marker);
    out.push('\n');
    for l in lines {
        if l.is_empty() {
            out.push_str("//\n");
        } else {
            let _ = writeln!(out, "// {l}");
        }
    }
    let old = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    if old == out {
        return Ok(false);
    }
    std::fs::write(path, out).map_err(|e| format!("writing: {e}"))?;
    Ok(true)
}

/// Runs the file's passes; returns whether each pass (or the pipeline) changed the module.
fn run_passes(t: &TestFile, m: &mut HloModule) -> Result<Vec<bool>, String> {
    match &t.kind {
        Kind::Passes(passes) => {
            let mut changed = Vec::new();
            for (name, pass) in passes {
                changed.push(pass(m).map_err(|e| format!("pass {name}: {e}"))?);
                oxla::hlo::verify_module(m).map_err(|e| format!("after pass {name}: {e}"))?;
            }
            Ok(changed)
        }
        Kind::Pipeline(p) => {
            let mut pipeline = if p == "fusion" {
                Pipeline::with_fusion()
            } else {
                Pipeline::standard()
            };
            pipeline.verify = true;
            Ok(vec![pipeline
                .run(m)
                .map_err(|e| format!("pipeline {p}: {e}"))?])
        }
        Kind::JitVsInterp => Ok(Vec::new()),
    }
}

fn run_pass_test(path: &Path, t: &TestFile, blessing: bool) -> Result<bool, String> {
    let before = parse_module(&t.module).map_err(|e| format!("parse: {e}"))?;
    let mut after = before.clone();
    let changed = run_passes(t, &mut after)?;
    if let Some(want) = &t.changed {
        let got = if want.len() == 1 {
            vec![changed.iter().any(|&c| c)]
        } else {
            changed.clone()
        };
        if *want != got {
            return Err(format!(
                "the passes reported changed = {got:?}, the file says {want:?}"
            ));
        }
    }
    let printed = print_module(&after);
    if t.rerun_unchanged {
        let mut again = after.clone();
        if run_passes(t, &mut again)?.iter().any(|&c| c) {
            return Err(format!(
                "a second run changed the module again:\n{}",
                print_module(&again)
            ));
        }
    }
    // The printed module reads back to the same text.
    let reparsed = parse_module(&printed).map_err(|e| format!("re-parse: {e}\n{printed}"))?;
    if print_module(&reparsed) != printed {
        return Err(format!(
            "print → parse → print differs:\n{}",
            diff(
                &printed.lines().map(String::from).collect::<Vec<_>>(),
                &print_module(&reparsed)
                    .lines()
                    .map(String::from)
                    .collect::<Vec<_>>()
            )
        ));
    }
    // Same values on the interpreter before and after.
    if !t.runs.is_empty() {
        let interp = Interpreter::new();
        for (r, args) in make_args(t, &before)?.iter().enumerate() {
            let a = interp
                .run(&before, args)
                .map_err(|e| format!("interpreter (before): {e}"))?;
            let b = interp
                .run(&after, args)
                .map_err(|e| format!("interpreter (after): {e}"))?;
            if !a.bitwise_eq(&b) {
                return Err(format!(
                    "run {}: the values changed: before {a}, after {b}",
                    r + 1
                ));
            }
        }
    }
    run_checks(&t.checks, &printed)?;
    let mut actual: Vec<String> = printed.lines().map(|l| l.trim_end().to_string()).collect();
    while actual.last().is_some_and(|l| l.is_empty()) {
        actual.pop();
    }
    match &t.expected {
        _ if blessing && (t.expected.is_some() || t.checks.is_empty()) => {
            bless(path, t, EXPECTED_MARKER, &actual)
        }
        Some(exp) => {
            if *exp != actual {
                return Err(format!(
                    "the module after the passes differs from the expected text (- expected, + actual; OXLA_BLESS=1 to accept):\n{}",
                    diff(exp, &actual)
                ));
            }
            Ok(false)
        }
        None if t.checks.is_empty() => {
            Err("no expected module yet: run with OXLA_BLESS=1 to record it".into())
        }
        None => Ok(false),
    }
}

fn run_jit_test(
    path: &Path,
    t: &TestFile,
    client: &Client,
    blessing: bool,
) -> Result<bool, String> {
    let m = parse_module(&t.module).map_err(|e| format!("parse: {e}"))?;
    let all_args = make_args(t, &m)?;
    let expected = t.expected.as_deref().map(expected_runs);
    if let Some(e) = &expected {
        if !blessing && e.len() != all_args.len() {
            return Err(format!(
                "{} run(s) of expected outputs for {} run(s) of arguments (OXLA_BLESS=1 to re-record)",
                e.len(),
                all_args.len()
            ));
        }
    }
    let mut executables = Vec::new();
    for &opt in &t.opt_levels {
        let options = CompileOptions {
            opt_level: opt,
            fold_constants: t.fold_constants,
            threads: t.threads,
            ..Default::default()
        };
        let exe = client
            .compile(&m, &options)
            .map_err(|e| format!("compile (opt {opt}): {e}"))?;
        executables.push((opt, exe));
    }
    let interp = Interpreter::new();
    let mut produced = Vec::new();
    let mut errors = Vec::new();
    let multi = all_args.len() > 1;
    for (r, args) in all_args.iter().enumerate() {
        let run = if multi {
            format!("run {}: ", r + 1)
        } else {
            String::new()
        };
        let want = interp
            .run(&m, args)
            .map_err(|e| format!("{run}interpreter: {e}"))?;
        let mut want_leaves = Vec::new();
        leaves(&want, &mut want_leaves);
        let exp: Option<Vec<Expected>> = match expected.as_ref().and_then(|e| e.get(r)) {
            Some(lines) if !blessing => Some(
                lines
                    .iter()
                    .map(|l| parse_expected_leaf(l))
                    .collect::<Result<_, _>>()?,
            ),
            _ => None,
        };
        if let Some(exp) = &exp {
            if exp.len() != want_leaves.len() {
                return Err(format!(
                    "{run}{} expected output(s), the module has {} (OXLA_BLESS=1 to re-record)",
                    exp.len(),
                    want_leaves.len()
                ));
            }
            for (k, (w, e)) in want_leaves.iter().zip(exp).enumerate() {
                if let Err(d) = check_expected(w, e, Tolerance::default()) {
                    errors.push(format!("{run}output {k}: interpreter vs expected: {d}"));
                }
            }
        }
        for (opt, exe) in &executables {
            let got = exe
                .execute_literals(args)
                .map_err(|e| format!("{run}execute (opt {opt}): {e}"))?;
            let mut got_leaves = Vec::new();
            leaves(&got, &mut got_leaves);
            if got_leaves.len() != want_leaves.len() {
                errors.push(format!(
                    "{run}opt {opt}: {} outputs from the JIT, {} from the interpreter",
                    got_leaves.len(),
                    want_leaves.len()
                ));
                continue;
            }
            for (k, (g, w)) in got_leaves.iter().zip(&want_leaves).enumerate() {
                if let Err(d) = compare_leaf(g, w, t.tolerance) {
                    errors.push(format!(
                        "{run}output {k}: JIT (opt {opt}) vs interpreter: {d}"
                    ));
                }
                if let Some(e) = exp.as_ref().and_then(|e| e.get(k)) {
                    if let Err(d) = check_expected(g, e, t.tolerance) {
                        errors.push(format!("{run}output {k}: JIT (opt {opt}) vs expected: {d}"));
                    }
                }
            }
        }
        if multi {
            produced.push(format!("run {}:", r + 1));
        }
        produced.extend(want_leaves.iter().map(leaf_line));
    }
    if !errors.is_empty() {
        return Err(errors.join("\n  "));
    }
    if blessing {
        return bless(path, t, OUTPUTS_MARKER, &produced);
    }
    if expected.is_none() {
        return Err("no expected outputs yet: run with OXLA_BLESS=1 to record them".into());
    }
    Ok(false)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "hlo") {
            out.push(p);
        }
    }
}

#[test]
fn filetests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let blessing = std::env::var("OXLA_BLESS").is_ok_and(|v| v == "1");
    let filter = std::env::var("OXLA_FILETEST").ok();
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no .hlo files under {}", root.display());
    let client = Client::cpu().expect("CPU client");
    let (mut failures, mut ran, mut blessed) = (Vec::new(), 0, 0);
    for path in &files {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        ran += 1;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
            let t = parse_file(&text)?;
            match t.kind {
                Kind::JitVsInterp => run_jit_test(path, &t, &client, blessing),
                _ => run_pass_test(path, &t, blessing),
            }
        }));
        match result {
            Ok(Ok(true)) => blessed += 1,
            Ok(Ok(false)) => {}
            Ok(Err(e)) => failures.push(format!("{name}:\n  {e}")),
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!("{name}: panicked: {msg}"));
            }
        }
    }
    if blessing {
        eprintln!("filetests: {ran} run, {blessed} file(s) rewritten");
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} filetest(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
