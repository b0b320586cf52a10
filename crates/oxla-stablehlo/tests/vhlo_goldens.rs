//! StableHLO's VHLO compatibility goldens (`../shared/vhlo`, 0.9.0 to 1.20.0, bytecode
//! versions 0 to 6): every `X.mlir.bc` decodes, and each function imports to the same HLO as
//! the function of the text twin `X.mlir` (or fails the same way).

use std::path::{Path, PathBuf};

use oxla_hlo::text::printer::print_module;
use oxla_stablehlo::{import, parse_module, parse_program};

fn dir() -> Option<PathBuf> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vhlo");
    if d.is_dir() {
        Some(d)
    } else {
        eprintln!("note: {} absent; VHLO golden tests skipped", d.display());
        None
    }
}

fn bc_files(d: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(d)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".mlir.bc"))
        .collect();
    v.sort();
    v
}

/// Functions of the goldens whose text the text parser does not read (so there is nothing to
/// compare with); their bytecode still decodes. Only ever shrinks.
const TEXT_UNPARSABLE: &[(&str, &str)] = &[
    ("mesh", "a body-less declaration"),
    ("type_buffer_function_input_output", "memref types"),
    ("type_buffer_to_tensor", "memref types"),
    ("type_tensor_to_buffer", "memref types"),
    ("type_buffer_special_custom_calls", "memref types"),
    ("type_future", "!stablehlo.future types"),
    ("type_future_ranked", "!stablehlo.future types"),
    ("type_future_dynamic", "!stablehlo.future types"),
    ("type_future_multiple", "!stablehlo.future types"),
    ("op_async_start_all_reduce", "async ops (!stablehlo.future)"),
    ("op_async_start_all_gather", "async ops (!stablehlo.future)"),
    ("op_async_start_all_to_all", "async ops (!stablehlo.future)"),
    (
        "op_async_start_collective_permute",
        "async ops (!stablehlo.future)",
    ),
    (
        "op_async_start_collective_broadcast",
        "async ops (!stablehlo.future)",
    ),
    (
        "op_async_start_reduce_scatter",
        "async ops (!stablehlo.future)",
    ),
    ("op_async_done", "async ops (!stablehlo.future)"),
    (
        "attr_replica_group_mesh_axes",
        "#stablehlo.replica_group_mesh_axes",
    ),
];

/// Functions both paths refuse to import (the ops or types Oxla does not support), with the
/// reason. Only ever shrinks: a function that imports now must leave the list.
const BOTH_REFUSED: &[(&str, &str)] = &[
    (
        "attr_comparison_type_signed",
        "SIGNED comparison of f32 is invalid",
    ),
    (
        "attr_comparison_type_unsigned",
        "UNSIGNED comparison of f32 is invalid",
    ),
    ("attr_precision_config_default", "stablehlo.dot"),
    ("attr_precision_config_high", "stablehlo.dot"),
    ("attr_precision_config_highest", "stablehlo.dot"),
    (
        "attr_rng_algorithm_default",
        "rng_bit_generator on an f32 state",
    ),
    (
        "attr_rng_algorithm_philox",
        "rng_bit_generator on an f32 state",
    ),
    (
        "attr_rng_algorithm_three_fry",
        "rng_bit_generator on an f32 state",
    ),
    ("op_rng_bit_generator", "rng_bit_generator on an f32 state"),
    (
        "attr_type_extensions_bounds",
        "unbounded dynamic dimensions",
    ),
    (
        "default_dynamic_broadcast_in_dim",
        "unbounded dynamic dimensions",
    ),
    (
        "op_dynamic_broadcast_in_dim",
        "unbounded dynamic dimensions",
    ),
    ("op_dynamic_iota", "unbounded dynamic dimensions"),
    ("op_dynamic_pad", "unbounded dynamic dimensions"),
    ("op_dynamic_reshape", "unbounded dynamic dimensions"),
    ("op_get_dimension_size", "unbounded dynamic dimensions"),
    ("op_real_dynamic_slice", "unbounded dynamic dimensions"),
    ("op_set_dimension_size", "unbounded dynamic dimensions"),
    ("type_dynamism_ranked", "unbounded dynamic dimensions"),
    (
        "default_all_gather",
        "all_gather result shape the golden declares",
    ),
    (
        "default_all_gather_variadic",
        "all_gather result shape the golden declares",
    ),
    (
        "op_all_gather",
        "all_gather result shape the golden declares",
    ),
    ("default_dot", "stablehlo.dot"),
    ("op_dot", "stablehlo.dot"),
    ("default_dynamic_conv", "run-time shape operands"),
    ("op_dynamic_conv", "run-time shape operands"),
    ("default_dynamic_gather", "run-time shape operands"),
    ("op_dynamic_gather", "run-time shape operands"),
    (
        "op_dynamic_gather_with_batching_dims",
        "run-time shape operands",
    ),
    (
        "op_all_reduce_with_promotable_types",
        "promotable reduction types",
    ),
    (
        "op_reduce_scatter_with_promotable_types",
        "promotable reduction types",
    ),
    (
        "op_reduce_window_with_promotable_types",
        "promotable reduction types",
    ),
    (
        "op_reduce_with_promotable_types",
        "promotable reduction types",
    ),
    (
        "op_scatter_with_promotable_types",
        "promotable reduction types",
    ),
    (
        "op_select_and_scatter_with_promotable_types",
        "promotable reduction types",
    ),
    ("op_broadcast", "stablehlo.broadcast"),
    ("op_cross_replica_sum", "stablehlo.cross-replica-sum"),
    ("op_einsum", "stablehlo.einsum"),
    ("op_unary_einsum", "stablehlo.unary_einsum"),
    ("op_torch_index_select", "stablehlo.torch_index_select"),
];

/// Functions the bytecode path imports but the text path refuses, with the reason (a gap of
/// the text path). Only ever shrinks.
const TEXT_ONLY_REFUSED: &[(&str, &str)] = &[
    (
        "op_convolution",
        "text path drops a splat `padding = dense<1> : tensor<2x2xi64>`",
    ),
    (
        "op_select_and_scatter",
        "text path drops a splat `padding = dense<...>`",
    ),
];

fn listed(list: &[(&str, &str)], f: &str) -> bool {
    list.iter().any(|(n, _)| *n == f)
}

/// The module text without the functions the text parser cannot read on their own, and
/// those functions' names.
fn parsable_functions(text: &str) -> (String, Vec<String>) {
    let mut chunks: Vec<String> = vec![String::new()];
    for line in text.lines() {
        if line.starts_with("func.func ") {
            chunks.push(String::new());
        }
        let last = chunks.last_mut().unwrap();
        last.push_str(line);
        last.push('\n');
    }
    let mut kept = String::new();
    let mut dropped = Vec::new();
    for c in chunks {
        if !c.starts_with("func.func ") || parse_module(&c).is_ok() {
            kept.push_str(&c);
        } else {
            let name = c
                .split('@')
                .nth(1)
                .and_then(|s| s.split(|ch: char| ch == '(' || ch.is_whitespace()).next())
                .unwrap_or("?")
                .to_string();
            dropped.push(name);
        }
    }
    (kept, dropped)
}

/// Parameter names as `arg` (MLIR numbers block arguments through a function; the
/// goldens' hand-written text reuses names in sibling regions).
fn normalize_names(hlo: &str) -> String {
    let b = hlo.as_bytes();
    let mut out = String::with_capacity(hlo.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            // An instruction or computation name: without its `.N` numbering.
            let start = i;
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b"_-.".contains(&b[i])) {
                i += 1;
            }
            let name = hlo[start..i].trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
            out.push_str(name);
        } else if hlo[i..].starts_with("arg") && b.get(i + 3).is_some_and(u8::is_ascii_digit) {
            out.push_str("arg");
            i += 3;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
        } else {
            let ch = hlo[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn hlo(m: &oxla_stablehlo::ast::Module, f: &str) -> Result<String, String> {
    import(m, Some(f))
        .map(|i| normalize_names(&print_module(i.computation.module())))
        .map_err(|e| e.to_string())
}

#[test]
fn every_golden_decodes_and_matches_its_text_twin() {
    let Some(d) = dir() else { return };
    let mut report = Vec::new();
    let mut counts = (0, 0, 0);
    let mut refused = std::collections::HashSet::new();
    for bc in bc_files(&d) {
        let name = bc.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&bc).unwrap();
        let decoded = parse_program(&bytes);
        if name.starts_with("invalid_vhlo_future") {
            let e = decoded
                .expect_err("a future op must be refused")
                .to_string();
            assert!(e.contains("constant_v99"), "{e}");
            continue;
        }
        let m = match decoded {
            Ok(m) => m,
            Err(e) => {
                report.push(format!("{name}: decode error: {e}"));
                continue;
            }
        };
        let text = std::fs::read_to_string(bc.with_extension("")).unwrap();
        let (text, dropped) = parsable_functions(&text);
        for f in dropped {
            if !listed(TEXT_UNPARSABLE, &f) {
                report.push(format!(
                    "{name} @{f}: the text twin's function does not parse"
                ));
            }
        }
        let t = match parse_module(&text) {
            Ok(t) => t,
            Err(e) => {
                report.push(format!("{name}: text twin does not parse: {e}"));
                continue;
            }
        };
        for f in &t.funcs {
            let want = hlo(&t, &f.name);
            let got = hlo(&m, &f.name);
            match (&want, &got) {
                (Ok(a), Ok(b)) if a == b => counts.0 += 1,
                (Err(e), Err(_)) => {
                    counts.1 += 1;
                    refused.insert(f.name.clone());
                    if !listed(BOTH_REFUSED, &f.name) {
                        report.push(format!("{name} @{}: refused (not listed): {e}", f.name));
                    }
                }
                (Err(_), Ok(_)) if listed(TEXT_ONLY_REFUSED, &f.name) => {
                    counts.1 += 1;
                    refused.insert(f.name.clone());
                }
                _ => {
                    counts.2 += 1;
                    let first_diff = match (&want, &got) {
                        (Ok(a), Ok(b)) => a
                            .lines()
                            .zip(b.lines())
                            .find(|(x, y)| x != y)
                            .map(|(x, y)| format!("text: {x}\n   bytecode: {y}"))
                            .unwrap_or_default(),
                        _ => format!("text: {want:?}\n   bytecode: {got:?}"),
                    };
                    report.push(format!("{name} @{}: {first_diff}", f.name));
                }
            }
        }
    }
    for (f, why) in BOTH_REFUSED.iter().chain(TEXT_ONLY_REFUSED) {
        if !refused.contains(*f) {
            report.push(format!("@{f} imports now ({why}): take it off the list"));
        }
    }
    eprintln!(
        "matched {} / refused (listed) {} / differ {}",
        counts.0, counts.1, counts.2
    );
    for r in &report {
        eprintln!("{r}");
    }
    assert!(report.is_empty(), "{} problems", report.len());
}

/// Damaged artifacts (truncated, or with bytes changed) decode to errors, never panics.
#[test]
fn damaged_goldens_never_panic() {
    let Some(d) = dir() else { return };
    for bc in bc_files(&d).iter().step_by(4) {
        let bytes = std::fs::read(bc).unwrap();
        for cut in (0..bytes.len()).step_by(bytes.len() / 97 + 1) {
            let _ = parse_program(&bytes[..cut]);
        }
        for (k, i) in (0..bytes.len()).step_by(bytes.len() / 211 + 1).enumerate() {
            let mut m = bytes.clone();
            m[i] = m[i].wrapping_add(1 + k as u8 % 200);
            // Decoding only: importing huge damaged dimensions is the importer's concern.
            let _ = parse_program(&m);
        }
    }
}
