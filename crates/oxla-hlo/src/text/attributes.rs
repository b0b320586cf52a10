//! Attribute values in HLO text, both directions: `{1,0}`, `window={size=3x3 pad=1_1x1_1}`,
//! `dim_labels=b01f_01io->b01f`, `padding=0_1_0x1_2_1`, `slice={[0:2], [1:3]}`,
//! `replica_groups={{0,1},{2,3}}` (and the iota form `[2,2]<=[4]T(1,0)` when reading),
//! `source_target_pairs={{0,1}}`, `operand_precision={default,high}`, quoted strings,
//! and Oxla's own `quant={...}` for uniform quantization parameters.

use std::fmt::Write;

use super::lexer::{scan_value, Cursor};
use super::literal_text::fmt_f64;
use crate::error::Result;
use crate::op::*;
use crate::types::PrimitiveType;

/// Largest replica-group / iota expansion accepted from text.
const MAX_IOTA_DEVICES: i64 = 1 << 20;

// ---------------------------------------------------------------- printing

pub(crate) fn fmt_dims(v: &[i64]) -> String {
    let mut s = String::from("{");
    for (i, d) in v.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{d}");
    }
    s.push('}');
    s
}

/// `"..."` with C escapes (XLA's CEscape: `\"`, `\\`, `\n`, `\t`, `\r`, octal controls).
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A free-form value (backend_config, composite attributes): written raw when it is one
/// brace-balanced `{...}` group (as XLA does for dictionaries), else quoted. Reading
/// gives back the same string either way.
pub(crate) fn fmt_free_form(s: &str) -> String {
    let raw_ok = s.starts_with('{')
        && s.ends_with('}')
        && !s.contains('\n')
        && scan_value(s, 0, s.len()) == s.len()
        && brace_group_len(s) == Some(s.len());
    if raw_ok {
        s.to_string()
    } else {
        quote(s)
    }
}

/// Length of the leading balanced `{...}` group (strings respected).
fn brace_group_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// `size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=.. rhs_dilate=.. rhs_reversal=1x0`, each
/// field only when it differs from the default (size always).
pub(crate) fn fmt_window(w: &Window) -> String {
    let field = |name: &str, f: &dyn Fn(&WindowDimension) -> String| -> String {
        let parts: Vec<String> = w.dimensions.iter().map(f).collect();
        format!("{name}={}", parts.join("x"))
    };
    let mut fields = vec![field("size", &|d| d.size.to_string())];
    if w.dimensions.iter().any(|d| d.stride != 1) {
        fields.push(field("stride", &|d| d.stride.to_string()));
    }
    if w.dimensions
        .iter()
        .any(|d| d.padding_low != 0 || d.padding_high != 0)
    {
        fields.push(field("pad", &|d| {
            format!("{}_{}", d.padding_low, d.padding_high)
        }));
    }
    if w.dimensions.iter().any(|d| d.base_dilation != 1) {
        fields.push(field("lhs_dilate", &|d| d.base_dilation.to_string()));
    }
    if w.dimensions.iter().any(|d| d.window_dilation != 1) {
        fields.push(field("rhs_dilate", &|d| d.window_dilation.to_string()));
    }
    if w.dimensions.iter().any(|d| d.window_reversal) {
        fields.push(field("rhs_reversal", &|d| {
            if d.window_reversal { "1" } else { "0" }.to_string()
        }));
    }
    format!("{{{}}}", fields.join(" "))
}

/// `b01f_01io->b01f`.
pub(crate) fn fmt_dim_labels(d: &ConvDimensionNumbers) -> String {
    fn labels(rank: usize, a: (i64, char), b: (i64, char), spatial: &[i64]) -> String {
        let mut v = vec!['?'; rank];
        let mut set = |i: i64, c: char| {
            if let Some(slot) = usize::try_from(i).ok().and_then(|i| v.get_mut(i)) {
                *slot = c;
            }
        };
        set(a.0, a.1);
        set(b.0, b.1);
        for (k, &s) in spatial.iter().enumerate() {
            set(s, char::from_digit(k as u32 % 10, 10).unwrap_or('?'));
        }
        v.into_iter().collect()
    }
    let input = labels(
        2 + d.input_spatial_dimensions.len(),
        (d.input_batch_dimension, 'b'),
        (d.input_feature_dimension, 'f'),
        &d.input_spatial_dimensions,
    );
    let kernel = labels(
        2 + d.kernel_spatial_dimensions.len(),
        (d.kernel_input_feature_dimension, 'i'),
        (d.kernel_output_feature_dimension, 'o'),
        &d.kernel_spatial_dimensions,
    );
    let output = labels(
        2 + d.output_spatial_dimensions.len(),
        (d.output_batch_dimension, 'b'),
        (d.output_feature_dimension, 'f'),
        &d.output_spatial_dimensions,
    );
    format!("{input}_{kernel}->{output}")
}

/// `lo_hi` per dimension, `_interior` on all of them when any is non-zero, joined by `x`.
pub(crate) fn fmt_padding(p: &PaddingConfig) -> String {
    let interior = p.dimensions.iter().any(|d| d.interior_padding != 0);
    let parts: Vec<String> = p
        .dimensions
        .iter()
        .map(|d| {
            if interior {
                format!(
                    "{}_{}_{}",
                    d.edge_padding_low, d.edge_padding_high, d.interior_padding
                )
            } else {
                format!("{}_{}", d.edge_padding_low, d.edge_padding_high)
            }
        })
        .collect();
    parts.join("x")
}

/// `{[0:2], [1:3]}`, with `:stride` on every dimension when any stride is not 1.
pub(crate) fn fmt_slice(start: &[i64], limit: &[i64], strides: &[i64]) -> String {
    let with_stride = strides.iter().any(|&s| s != 1);
    let parts: Vec<String> = start
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let l = limit.get(i).copied().unwrap_or(0);
            if with_stride {
                format!("[{s}:{l}:{}]", strides.get(i).copied().unwrap_or(1))
            } else {
                format!("[{s}:{l}]")
            }
        })
        .collect();
    format!("{{{}}}", parts.join(", "))
}

pub(crate) fn fmt_groups(g: &[Vec<i64>]) -> String {
    let parts: Vec<String> = g.iter().map(|x| fmt_dims(x)).collect();
    format!("{{{}}}", parts.join(","))
}

pub(crate) fn fmt_pairs(p: &[(i64, i64)]) -> String {
    let parts: Vec<String> = p.iter().map(|(a, b)| format!("{{{a},{b}}}")).collect();
    format!("{{{}}}", parts.join(","))
}

pub(crate) fn precision_name(p: Precision) -> &'static str {
    match p {
        Precision::Default => "default",
        Precision::High => "high",
        Precision::Highest => "highest",
    }
}

pub(crate) fn fmt_precision(p: &PrecisionConfig) -> String {
    let parts: Vec<&str> = p
        .operand_precision
        .iter()
        .map(|&x| precision_name(x))
        .collect();
    format!("{{{}}}", parts.join(","))
}

/// Oxla extension: `{storage=s8, min=-128, max=127, expressed=f32, scales={0.5},
/// zero_points={0}, dim=1}` (`dim` only for per-axis quantization).
pub(crate) fn fmt_quant(q: &QuantParams) -> String {
    let scales: Vec<String> = q.scales.iter().map(|&s| fmt_f64(s)).collect();
    let mut s = format!(
        "{{storage={}, min={}, max={}, expressed={}, scales={{{}}}, zero_points={}",
        q.storage_type,
        q.storage_min,
        q.storage_max,
        q.expressed_type,
        scales.join(","),
        fmt_dims(&q.zero_points)
    );
    if let Some(d) = q.quantized_dimension {
        let _ = write!(s, ", dim={d}");
    }
    s.push('}');
    s
}

pub(crate) const API_VERSIONS: [(i32, &str); 5] = [
    (0, "API_VERSION_UNSPECIFIED"),
    (1, "API_VERSION_ORIGINAL"),
    (2, "API_VERSION_STATUS_RETURNING"),
    (3, "API_VERSION_STATUS_RETURNING_UNIFIED"),
    (4, "API_VERSION_TYPED_FFI"),
];

/// XLA's enum name, or the plain number for values XLA does not define.
pub(crate) fn fmt_api_version(v: i32) -> String {
    API_VERSIONS
        .iter()
        .find(|(n, _)| *n == v)
        .map(|(_, s)| s.to_string())
        .unwrap_or_else(|| v.to_string())
}

pub(crate) fn rng_distribution_name(d: RngDistribution) -> &'static str {
    match d {
        RngDistribution::Uniform => "rng_uniform",
        RngDistribution::Normal => "rng_normal",
    }
}

// ---------------------------------------------------------------- parsing

/// `true` / `false`.
pub(crate) fn parse_bool(c: &mut Cursor) -> Result<bool> {
    if c.eat_keyword("true") {
        Ok(true)
    } else if c.eat_keyword("false") {
        Ok(false)
    } else {
        Err(c.expected("true or false"))
    }
}

/// `{1,2,3}` (possibly empty).
pub(crate) fn parse_dims(c: &mut Cursor) -> Result<Vec<i64>> {
    c.expect("{")?;
    let mut v = Vec::new();
    if c.eat("}") {
        return Ok(v);
    }
    loop {
        v.push(c.int()?);
        if c.eat("}") {
            return Ok(v);
        }
        if !c.eat(",") {
            return Err(c.expected("',' or '}'"));
        }
    }
}

/// A word naming an enum value, matched case-insensitively against `options`.
pub(crate) fn parse_enum<T: Copy>(c: &mut Cursor, what: &str, options: &[(&str, T)]) -> Result<T> {
    c.skip_ws();
    let start = c.pos;
    let word = c.word().unwrap_or("");
    for (name, v) in options {
        if name.eq_ignore_ascii_case(word) {
            return Ok(*v);
        }
    }
    let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
    Err(c.err_at(
        start,
        format!(
            "expected {what} (one of {}), found '{word}'",
            names.join(", ")
        ),
    ))
}

pub(crate) fn parse_window(c: &mut Cursor) -> Result<Window> {
    c.expect("{")?;
    let start = c.pos;
    let mut dims: Vec<WindowDimension> = Vec::new();
    let mut have_size = false;
    while !c.eat("}") {
        c.skip_ws();
        let key_pos = c.pos;
        let key = c
            .word()
            .ok_or_else(|| c.expected("a window field (size, stride, pad, ...)"))?;
        c.expect("=")?;
        let mut items: Vec<Vec<i64>> = Vec::new();
        loop {
            let mut item = vec![c.int()?];
            while c.peek_raw() == Some('_') {
                c.pos += 1;
                item.push(c.int()?);
            }
            items.push(item);
            if c.peek_raw() == Some('x') {
                c.pos += 1;
            } else {
                break;
            }
        }
        if key == "size" {
            have_size = true;
            dims = items.iter().map(|_| WindowDimension::default()).collect();
        } else if !have_size {
            return Err(c.err_at(key_pos, "window 'size' must come first"));
        }
        if items.len() != dims.len() {
            return Err(c.err_at(
                key_pos,
                format!(
                    "window field '{key}' has {} dimensions, size has {}",
                    items.len(),
                    dims.len()
                ),
            ));
        }
        let want = if key == "pad" { 2 } else { 1 };
        for (d, item) in dims.iter_mut().zip(&items) {
            if item.len() != want {
                return Err(c.err_at(key_pos, format!("bad value in window field '{key}'")));
            }
            match key {
                "size" => d.size = item[0],
                "stride" => d.stride = item[0],
                "pad" => {
                    d.padding_low = item[0];
                    d.padding_high = item[1];
                }
                "lhs_dilate" => d.base_dilation = item[0],
                "rhs_dilate" => d.window_dilation = item[0],
                "rhs_reversal" => d.window_reversal = item[0] != 0,
                other => return Err(c.err_at(key_pos, format!("unknown window field '{other}'"))),
            }
        }
    }
    if !have_size && !dims.is_empty() {
        return Err(c.err_at(start, "window without size"));
    }
    Ok(Window { dimensions: dims })
}

/// `b01f_01io->b01f` into dimension numbers.
pub(crate) fn parse_dim_labels(c: &mut Cursor) -> Result<ConvDimensionNumbers> {
    c.skip_ws();
    let start = c.pos;
    let take = |c: &mut Cursor| -> String {
        let s: String = c
            .rest()
            .chars()
            .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '?')
            .collect();
        c.pos += s.len();
        s
    };
    let input = take(c);
    if c.peek_raw() != Some('_') {
        return Err(c.expected("'_' in dim_labels (like b01f_01io->b01f)"));
    }
    c.pos += 1;
    let kernel = take(c);
    if !c.rest().starts_with("->") {
        return Err(c.expected("'->' in dim_labels (like b01f_01io->b01f)"));
    }
    c.pos += 2;
    let output = take(c);
    let split = |labels: &str, a: char, b: char, what: &str| -> Result<(i64, i64, Vec<i64>)> {
        let mut pa = None;
        let mut pb = None;
        let mut spatial: Vec<Option<i64>> = vec![None; labels.len().saturating_sub(2)];
        for (i, ch) in labels.chars().enumerate() {
            let i = i as i64;
            let slot = if ch == a {
                &mut pa
            } else if ch == b {
                &mut pb
            } else if let Some(k) = ch.to_digit(10) {
                match spatial.get_mut(k as usize) {
                    Some(s) => s,
                    None => {
                        return Err(c.err_at(
                            start,
                            format!("dim_labels: {what} spatial label {ch} out of range"),
                        ))
                    }
                }
            } else {
                return Err(c.err_at(
                    start,
                    format!("dim_labels: unexpected label '{ch}' in {what} '{labels}'"),
                ));
            };
            if slot.is_some() {
                return Err(c.err_at(
                    start,
                    format!("dim_labels: repeated label '{ch}' in {what}"),
                ));
            }
            *slot = Some(i);
        }
        match (
            pa,
            pb,
            spatial.iter().copied().collect::<Option<Vec<i64>>>(),
        ) {
            (Some(x), Some(y), Some(s)) => Ok((x, y, s)),
            _ => Err(c.err_at(
                start,
                format!("dim_labels: {what} '{labels}' needs '{a}', '{b}' and spatial labels 0..n"),
            )),
        }
    };
    let (ib, if_, is) = split(&input, 'b', 'f', "input")?;
    let (ki, ko, ks) = split(&kernel, 'i', 'o', "kernel")?;
    let (ob, of, os) = split(&output, 'b', 'f', "output")?;
    if is.len() != ks.len() || is.len() != os.len() {
        return Err(c.err_at(start, "dim_labels: input, kernel and output ranks differ"));
    }
    Ok(ConvDimensionNumbers {
        input_batch_dimension: ib,
        input_feature_dimension: if_,
        input_spatial_dimensions: is,
        kernel_input_feature_dimension: ki,
        kernel_output_feature_dimension: ko,
        kernel_spatial_dimensions: ks,
        output_batch_dimension: ob,
        output_feature_dimension: of,
        output_spatial_dimensions: os,
    })
}

/// `0_1_0x1_2_1` or `0_1x1_2` (empty for rank 0).
pub(crate) fn parse_padding(c: &mut Cursor) -> Result<PaddingConfig> {
    let mut dims = Vec::new();
    if c.at_end() {
        return Ok(PaddingConfig { dimensions: dims });
    }
    loop {
        let lo = c.int()?;
        if c.peek_raw() != Some('_') {
            return Err(c.expected("'_' in padding (lo_hi or lo_hi_interior)"));
        }
        c.pos += 1;
        let hi = c.int()?;
        let interior = if c.peek_raw() == Some('_') {
            c.pos += 1;
            c.int()?
        } else {
            0
        };
        dims.push(PaddingDimension {
            edge_padding_low: lo,
            edge_padding_high: hi,
            interior_padding: interior,
        });
        if c.peek_raw() == Some('x') {
            c.pos += 1;
        } else {
            return Ok(PaddingConfig { dimensions: dims });
        }
    }
}

/// `{[0:2], [1:3:2]}` into (start, limit, strides).
pub(crate) fn parse_slice(c: &mut Cursor) -> Result<(Vec<i64>, Vec<i64>, Vec<i64>)> {
    c.expect("{")?;
    let (mut s, mut l, mut t) = (Vec::new(), Vec::new(), Vec::new());
    if c.eat("}") {
        return Ok((s, l, t));
    }
    loop {
        c.expect("[")?;
        s.push(c.int()?);
        c.expect(":")?;
        l.push(c.int()?);
        t.push(if c.eat(":") { c.int()? } else { 1 });
        c.expect("]")?;
        if c.eat("}") {
            return Ok((s, l, t));
        }
        c.expect(",")?;
    }
}

/// `{{0,1},{2,3}}`, `{}`, or the iota form `[G,S]<=[d0,d1,...]` with optional `T(perm)`.
pub(crate) fn parse_replica_groups(c: &mut Cursor) -> Result<ReplicaGroups> {
    c.skip_ws();
    if c.peek() == Some('[') {
        return parse_iota_groups(c);
    }
    c.expect("{")?;
    let mut groups = Vec::new();
    if c.eat("}") {
        return Ok(groups);
    }
    loop {
        groups.push(parse_dims(c)?);
        if c.eat("}") {
            return Ok(groups);
        }
        c.expect(",")?;
    }
}

fn bracket_list(c: &mut Cursor, open: &str, close: &str) -> Result<Vec<i64>> {
    c.expect(open)?;
    let mut v = Vec::new();
    if c.eat(close) {
        return Ok(v);
    }
    loop {
        v.push(c.int()?);
        if c.eat(close) {
            return Ok(v);
        }
        c.expect(",")?;
    }
}

fn parse_iota_groups(c: &mut Cursor) -> Result<ReplicaGroups> {
    let start = c.pos;
    let shape = bracket_list(c, "[", "]")?;
    c.expect("<=")?;
    let dims = bracket_list(c, "[", "]")?;
    let perm = if c.eat("T") {
        bracket_list(c, "(", ")")?
    } else {
        (0..dims.len() as i64).collect()
    };
    let bad = |m: &str| c.err_at(start, format!("iota replica groups: {m}"));
    let [g, s] = shape[..] else {
        return Err(bad("the group shape must be [groups,size]"));
    };
    if dims.iter().any(|&d| d <= 0) || g <= 0 || s <= 0 {
        return Err(bad("sizes must be positive"));
    }
    let total = dims
        .iter()
        .try_fold(1i64, |acc, &d| {
            acc.checked_mul(d).filter(|&p| p <= MAX_IOTA_DEVICES)
        })
        .ok_or_else(|| bad("too many devices"))?;
    if g.checked_mul(s) != Some(total) {
        return Err(bad(&format!("{g}x{s} groups do not cover {total} devices")));
    }
    let mut seen = vec![false; dims.len()];
    for &p in &perm {
        match usize::try_from(p).ok().and_then(|i| seen.get_mut(i)) {
            Some(x) if !*x => *x = true,
            _ => return Err(bad("T(...) is not a permutation of the reshape dimensions")),
        }
    }
    if perm.len() != dims.len() {
        return Err(bad("T(...) is not a permutation of the reshape dimensions"));
    }
    // Transposed dims; walk them in row-major order and map back to the iota index.
    let tdims: Vec<i64> = perm.iter().map(|&p| dims[p as usize]).collect();
    let mut strides = vec![1i64; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * dims[i + 1];
    }
    let mut flat = Vec::with_capacity(total as usize);
    let mut idx = vec![0i64; dims.len()];
    for _ in 0..total {
        let v: i64 = idx
            .iter()
            .zip(&perm)
            .map(|(&x, &p)| x * strides[p as usize])
            .sum();
        flat.push(v);
        for k in (0..idx.len()).rev() {
            idx[k] += 1;
            if idx[k] < tdims[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    Ok(flat.chunks(s as usize).map(|ch| ch.to_vec()).collect())
}

pub(crate) fn parse_pairs(c: &mut Cursor) -> Result<Vec<(i64, i64)>> {
    c.skip_ws();
    let start = c.pos;
    let groups = parse_replica_groups(c)?;
    groups
        .into_iter()
        .map(|p| match p[..] {
            [a, b] => Ok((a, b)),
            _ => Err(c.err_at(start, "source_target_pairs entries must be {source,target}")),
        })
        .collect()
}

pub(crate) fn parse_precision(c: &mut Cursor) -> Result<PrecisionConfig> {
    c.expect("{")?;
    let mut v = Vec::new();
    if !c.eat("}") {
        loop {
            v.push(parse_enum(
                c,
                "a precision",
                &[
                    ("default", Precision::Default),
                    ("high", Precision::High),
                    ("highest", Precision::Highest),
                ],
            )?);
            if c.eat("}") {
                break;
            }
            c.expect(",")?;
        }
    }
    Ok(PrecisionConfig {
        operand_precision: v,
    })
}

fn parse_type(c: &mut Cursor) -> Result<PrimitiveType> {
    c.skip_ws();
    let start = c.pos;
    let w = c.word().unwrap_or("");
    w.parse::<PrimitiveType>()
        .ok()
        .filter(|t| t.is_array())
        .ok_or_else(|| c.err_at(start, format!("expected an element type, found '{w}'")))
}

fn parse_f64(c: &mut Cursor) -> Result<f64> {
    let (start, text) = c.number_text()?;
    let core = if text.ends_with("nan") { "NaN" } else { text };
    core.parse::<f64>()
        .map_err(|_| c.err_at(start, format!("expected a number, found '{text}'")))
}

/// A float attribute (epsilon) read exactly as f32.
pub(crate) fn parse_f32(c: &mut Cursor) -> Result<f32> {
    let (start, text) = c.number_text()?;
    let core = if text.ends_with("nan") { "NaN" } else { text };
    core.parse::<f32>()
        .map_err(|_| c.err_at(start, format!("expected a number, found '{text}'")))
}

pub(crate) fn parse_quant(c: &mut Cursor) -> Result<QuantParams> {
    c.expect("{")?;
    let start = c.pos;
    let (mut storage, mut min, mut max, mut expressed) = (None, None, None, None);
    let (mut scales, mut zero_points, mut dim) = (None, None, None);
    if !c.eat("}") {
        loop {
            c.skip_ws();
            let key_pos = c.pos;
            let key = c.word().ok_or_else(|| c.expected("a quant field"))?;
            c.expect("=")?;
            match key {
                "storage" => storage = Some(parse_type(c)?),
                "min" => min = Some(c.int()?),
                "max" => max = Some(c.int()?),
                "expressed" => expressed = Some(parse_type(c)?),
                "scales" => {
                    c.expect("{")?;
                    let mut v = Vec::new();
                    if !c.eat("}") {
                        loop {
                            v.push(parse_f64(c)?);
                            if c.eat("}") {
                                break;
                            }
                            c.expect(",")?;
                        }
                    }
                    scales = Some(v);
                }
                "zero_points" => zero_points = Some(parse_dims(c)?),
                "dim" => dim = Some(c.int()?),
                other => return Err(c.err_at(key_pos, format!("unknown quant field '{other}'"))),
            }
            if c.eat("}") {
                break;
            }
            c.expect(",")?;
        }
    }
    match (storage, min, max, expressed, scales, zero_points) {
        (Some(st), Some(mn), Some(mx), Some(ex), Some(sc), Some(zp)) => Ok(QuantParams {
            storage_type: st,
            storage_min: mn,
            storage_max: mx,
            expressed_type: ex,
            scales: sc,
            zero_points: zp,
            quantized_dimension: dim,
        }),
        _ => Err(c.err_at(
            start,
            "quant needs storage, min, max, expressed, scales and zero_points",
        )),
    }
}

/// A free-form value: a quoted string, or raw text (kept exactly, e.g. `{key: "v"}`).
pub(crate) fn parse_free_form(c: &mut Cursor) -> Result<String> {
    c.skip_ws();
    if c.peek_raw() == Some('"') {
        c.string()
    } else {
        let s = c.rest().trim_end().to_string();
        c.pos = c.end;
        Ok(s)
    }
}

/// `{key=value,key=value}` where values are quoted strings or raw `{...}` groups.
pub(crate) fn parse_string_map(c: &mut Cursor) -> Result<Vec<(String, String)>> {
    c.expect("{")?;
    let mut out = Vec::new();
    if c.eat("}") {
        return Ok(out);
    }
    loop {
        c.skip_ws();
        let key = c
            .word()
            .ok_or_else(|| c.expected("an attribute name"))?
            .to_string();
        c.expect("=")?;
        c.skip_ws();
        let value = if c.peek_raw() == Some('"') {
            c.string()?
        } else {
            let end = scan_value(c.src, c.pos, c.end);
            // A value ends at the first top-level ',' or the map's closing '}'.
            let v = c.src.get(c.pos..end).unwrap_or("").trim_end().to_string();
            c.pos = end;
            v
        };
        out.push((key, value));
        if c.eat("}") {
            return Ok(out);
        }
        c.expect(",")?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iota_groups_expand() {
        let mut c = Cursor::new("[2,2]<=[4]");
        assert_eq!(
            parse_replica_groups(&mut c).unwrap(),
            vec![vec![0, 1], vec![2, 3]]
        );
        let mut c = Cursor::new("[2,2]<=[2,2]T(1,0)");
        assert_eq!(
            parse_replica_groups(&mut c).unwrap(),
            vec![vec![0, 2], vec![1, 3]]
        );
        let mut c = Cursor::new("[3,2]<=[4]");
        assert!(parse_replica_groups(&mut c)
            .unwrap_err()
            .to_string()
            .contains("do not cover"));
    }

    #[test]
    fn window_round_trip() {
        let text =
            "{size=3x3 stride=2x1 pad=1_1x0_-1 lhs_dilate=1x2 rhs_dilate=2x1 rhs_reversal=1x0}";
        let w = parse_window(&mut Cursor::new(text)).unwrap();
        assert_eq!(w.dimensions[1].padding_high, -1);
        assert!(w.dimensions[0].window_reversal);
        assert_eq!(fmt_window(&w), text);
    }

    #[test]
    fn dim_labels_round_trip() {
        for t in [
            "b01f_01io->b01f",
            "bf_io->bf",
            "f01b_i01o->01bf",
            "b0f_0io->b0f",
        ] {
            let d = parse_dim_labels(&mut Cursor::new(t)).unwrap();
            assert_eq!(fmt_dim_labels(&d), t);
        }
        let e = parse_dim_labels(&mut Cursor::new("b01f_01io->b0f")).unwrap_err();
        assert!(e.to_string().contains("ranks differ"), "{e}");
    }

    #[test]
    fn free_form_raw_or_quoted() {
        assert_eq!(fmt_free_form("{a = 1 : i32}"), "{a = 1 : i32}");
        assert_eq!(fmt_free_form("{a}, {b}"), "\"{a}, {b}\"");
        assert_eq!(fmt_free_form("x\"y"), "\"x\\\"y\"");
    }
}
