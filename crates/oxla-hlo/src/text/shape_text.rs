//! Shapes in HLO text: `f32[2,3]{1,0}`, `(f32[2], s32[])`, `f32[<=10]`, `f32[?]`,
//! `token[]`, with XLA's tiling/memory-space suffixes in layouts (`{1,0:T(8,128)}`)
//! accepted and dropped.

use std::fmt::Write;
use std::str::FromStr;

use super::lexer::Cursor;
use crate::error::{Error, Result};
use crate::shape::{ArrayShape, Layout, Shape, UNBOUNDED_SIZE};
use crate::types::PrimitiveType;

/// Deepest tuple nesting accepted, so hostile text cannot overflow the stack.
const MAX_TUPLE_DEPTH: usize = 64;

/// Parses a whole string as one shape.
pub fn parse_shape(text: &str) -> Result<Shape> {
    let mut c = Cursor::new(text);
    let s = shape(&mut c)?;
    if !c.at_end() {
        return Err(c.expected("end of shape"));
    }
    Ok(s)
}

impl FromStr for Shape {
    type Err = Error;
    fn from_str(s: &str) -> Result<Shape> {
        parse_shape(s)
    }
}

/// True if the cursor is at the start of a shape (`(` or `<type>[`).
pub(crate) fn at_shape(c: &mut Cursor) -> bool {
    c.skip_ws();
    let rest = c.rest();
    if rest.starts_with('(') {
        return true;
    }
    let word: &str = &rest[..rest
        .find(|ch: char| !ch.is_ascii_alphanumeric())
        .unwrap_or(rest.len())];
    !word.is_empty() && rest[word.len()..].starts_with('[') && PrimitiveType::from_str(word).is_ok()
}

pub(crate) fn shape(c: &mut Cursor) -> Result<Shape> {
    shape_depth(c, 0)
}

fn shape_depth(c: &mut Cursor, depth: usize) -> Result<Shape> {
    c.skip_ws();
    if c.eat("(") {
        if depth >= MAX_TUPLE_DEPTH {
            return Err(c.err("tuple shape nested too deeply"));
        }
        let mut elems = Vec::new();
        if !c.eat(")") {
            loop {
                elems.push(shape_depth(c, depth + 1)?);
                if c.eat(")") {
                    break;
                }
                if !c.eat(",") {
                    return Err(c.expected("',' or ')' in tuple shape"));
                }
            }
        }
        return Ok(Shape::Tuple(elems));
    }
    let start = c.pos;
    let word: String = c
        .rest()
        .chars()
        .take_while(|ch| ch.is_ascii_alphanumeric())
        .collect();
    let element_type = match PrimitiveType::from_str(&word) {
        Ok(t) if !word.is_empty() && word == word.to_ascii_lowercase() => t,
        _ => return Err(c.expected("a shape (element type such as f32, or '(')")),
    };
    c.pos += word.len();
    if c.peek_raw() != Some('[') {
        return Err(c.expected("'[' after the element type"));
    }
    c.pos += 1;
    let mut dims = Vec::new();
    let mut dynamic = Vec::new();
    if !c.eat("]") {
        loop {
            if c.eat("?") {
                dims.push(UNBOUNDED_SIZE);
                dynamic.push(true);
            } else {
                let is_dyn = c.eat("<=");
                c.skip_ws();
                let dpos = c.pos;
                let d = c.int()?;
                if d < 0 {
                    return Err(c.err_at(dpos, format!("negative dimension size {d}")));
                }
                dims.push(d);
                dynamic.push(is_dyn);
            }
            if c.eat("]") {
                break;
            }
            if !c.eat(",") {
                return Err(c.expected("',' or ']' in dimensions"));
            }
        }
    }
    match element_type {
        PrimitiveType::Token => {
            if !dims.is_empty() {
                return Err(c.err_at(start, "token shapes have no dimensions: write token[]"));
            }
            return Ok(Shape::Token);
        }
        PrimitiveType::Tuple => {
            return Err(c.err_at(start, "tuple shapes are written (a, b), not tuple[]"));
        }
        _ => {}
    }
    // A layout follows immediately (no blank) as `{...}`; a `{` after a blank belongs to
    // whatever comes next (e.g. a literal value).
    let layout = if c.peek_raw() == Some('{') {
        c.pos += 1;
        Some(layout(c, dims.len())?)
    } else {
        None
    };
    Ok(Shape::Array(ArrayShape {
        element_type,
        dims,
        dynamic,
        layout,
    }))
}

/// The inside of `{...}` after the `{`: minor-to-major dims, then optionally `:` and
/// tiling / memory-space / sparsity text that Oxla ignores.
fn layout(c: &mut Cursor, rank: usize) -> Result<Layout> {
    let start = c.pos;
    let mut minor_to_major = Vec::new();
    c.skip_ws();
    if c.peek() != Some('}') && c.peek() != Some(':') {
        loop {
            minor_to_major.push(c.int()?);
            if !c.eat(",") {
                break;
            }
        }
    }
    if c.eat(":") {
        // Skip to the matching '}' (nested parens and braces allowed).
        let mut depth = 0i32;
        loop {
            match c.bump() {
                None => return Err(c.err_at(start, "unterminated layout")),
                Some('(') | Some('{') | Some('[') => depth += 1,
                Some(')') | Some(']') => depth -= 1,
                Some('}') => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                }
                Some(_) => {}
            }
        }
    } else if !c.eat("}") {
        return Err(c.expected("',' or '}' in layout"));
    }
    if !minor_to_major.is_empty() && minor_to_major.len() != rank {
        return Err(c.err_at(
            start,
            format!(
                "layout has {} dimensions but the shape has rank {rank}",
                minor_to_major.len()
            ),
        ));
    }
    let mut seen = vec![false; rank];
    for &d in &minor_to_major {
        match usize::try_from(d).ok().and_then(|i| seen.get_mut(i)) {
            Some(s) if !*s => *s = true,
            _ => {
                return Err(c.err_at(
                    start,
                    format!("layout {minor_to_major:?} is not a permutation of 0..{rank}"),
                ))
            }
        }
    }
    Ok(Layout { minor_to_major })
}

/// Writes a shape as XLA does: like `Display`, plus `/*index=N*/` before every fifth
/// tuple element.
pub(crate) fn write_shape(out: &mut String, s: &Shape) {
    match s {
        Shape::Tuple(elems) => {
            out.push('(');
            for (i, e) in elems.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                    if i % 5 == 0 {
                        let _ = write!(out, "/*index={i}*/");
                    }
                }
                write_shape(out, e);
            }
            out.push(')');
        }
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

pub(crate) fn shape_string(s: &Shape) -> String {
    let mut out = String::new();
    write_shape(&mut out, s);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_display() {
        for t in [
            "f32[2,3]{1,0}",
            "(f32[2], s32[])",
            "((f32[], (pred[])), token[])",
            "f32[<=10]",
            "f32[?,3]",
            "token[]",
            "pred[]",
            "()",
            "s4[3]{0}",
        ] {
            assert_eq!(parse_shape(t).unwrap().to_string(), t);
        }
    }
}
