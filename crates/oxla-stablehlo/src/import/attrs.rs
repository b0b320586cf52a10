//! Readers for op attributes, regions and declared result types.

use oxla_hlo::{Error, Result, Shape};

use crate::ast::*;
use crate::convert::shape_of;

/// The declared type of result `i` as a shape.
pub(super) fn result_shape(op: &Operation, i: usize) -> Result<Shape> {
    op.result_types
        .get(i)
        .map(shape_of)
        .unwrap_or_else(|| Err(Error::invalid("missing result type")))
}

pub(super) fn attr_ints(op: &Operation, name: &str) -> Result<Vec<i64>> {
    op.attr(name)
        .and_then(Attr::as_ints)
        .ok_or_else(|| Error::invalid(format!("{}: missing or bad attribute {name}", op.name)))
}

pub(super) fn attr_ints_or(op: &Operation, name: &str, default: Vec<i64>) -> Vec<i64> {
    op.attr(name).and_then(Attr::as_ints).unwrap_or(default)
}

pub(super) fn attr_int(op: &Operation, name: &str) -> Result<i64> {
    op.attr(name)
        .and_then(Attr::as_int)
        .map(|v| v as i64)
        .ok_or_else(|| Error::invalid(format!("{}: missing or bad attribute {name}", op.name)))
}

pub(super) fn attr_bool(op: &Operation, name: &str) -> bool {
    op.attr(name).and_then(Attr::as_bool).unwrap_or(false)
}

pub(super) fn enum_str<'a>(op: &'a Operation, name: &str) -> Option<&'a str> {
    match op.attr(name)? {
        Attr::Enum(s) | Attr::Str(s) => Some(s),
        Attr::Struct(_, f) => f.first().and_then(|(_, v)| v.as_str()),
        _ => None,
    }
}

pub(super) fn first_region(op: &Operation) -> Result<&Region> {
    region_at(op, 0)
}

pub(super) fn region_at(op: &Operation, i: usize) -> Result<&Region> {
    op.regions
        .get(i)
        .ok_or_else(|| Error::invalid(format!("{} needs region {i}", op.name)))
}

pub(super) fn field_ints(a: &Attr, name: &str) -> Vec<i64> {
    a.field(name)
        .and_then(Attr::as_ints)
        .or_else(|| a.field(name).and_then(Attr::as_int).map(|v| vec![v as i64]))
        .unwrap_or_default()
}

pub(super) fn fint(a: &Attr, name: &str) -> i64 {
    a.field(name).and_then(Attr::as_int).unwrap_or(0) as i64
}

/// `padding = dense<[[lo, hi], ...]>` or `[[lo, hi], ...]`.
pub(super) fn pairs(op: &Operation, name: &str, n: usize) -> Vec<(i64, i64)> {
    let flat = match op.attr(name) {
        Some(Attr::Array(rows)) => rows
            .iter()
            .flat_map(|r| r.as_ints().unwrap_or_default())
            .collect(),
        Some(a) => a.as_ints().unwrap_or_default(),
        None => vec![],
    };
    if flat.len() == 2 * n {
        flat.chunks(2).map(|c| (c[0], c[1])).collect()
    } else {
        vec![(0, 0); n]
    }
}
