//! Shardy's attribute codes (0-17, Shardy's `bytecode.td`), read into the `Attr` forms of
//! [`crate::sdy`], the same the text parser gives. Nested Shardy attributes (a sharding's
//! dimensions, a dimension's axes) are references into the attribute table; strings are
//! references into the string section; sizes are signed varints and lists of them a count
//! then the values (`Array<SignedVarIntList>` is one flat list); booleans one byte.

use oxla_hlo::Result;

use super::cursor::{malformed, Cursor};
use super::table::Table;
use crate::ast::Attr;

fn st(name: &str, fields: Vec<(&str, Attr)>) -> Attr {
    Attr::Struct(
        name.to_string(),
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

fn svarints(c: &mut Cursor<'_>, what: &str) -> Result<Vec<i64>> {
    let n = c.count(what)?;
    (0..n).map(|_| c.svarint(what)).collect()
}

fn boolean(c: &mut Cursor<'_>, what: &str) -> Result<Attr> {
    let at = c.offset();
    match c.byte(what)? {
        0 => Ok(Attr::Bool(false)),
        1 => Ok(Attr::Bool(true)),
        b => Err(malformed(at, format!("{what}: 0 or 1, found {b}"))),
    }
}

fn string<'a>(t: &Table<'_, 'a>, c: &mut Cursor<'a>, what: &str) -> Result<Attr> {
    Ok(Attr::Str(t.string(c, what)?.to_string()))
}

/// A tensor sharding: mesh (or its name), dimensions, replicated axes, then (from V2)
/// unreduced axes and (V3) the reduction.
fn sharding<'a>(t: &mut Table<'_, 'a>, c: &mut Cursor<'a>, version: u8) -> Result<Attr> {
    // `@mesh` (a builtin symbol reference) or the mesh itself.
    let mesh = t.read_attr(c)?;
    let dims = t.read_attrs(c)?;
    let replicated = t.read_attrs(c)?;
    let mut fields = vec![
        ("mesh", mesh),
        ("dim_shardings", Attr::Array(dims)),
        ("replicated_axes", Attr::Array(replicated)),
    ];
    let unreduced = if version >= 2 {
        t.read_attrs(c)?
    } else {
        Vec::new()
    };
    fields.push(("unreduced_axes", Attr::Array(unreduced)));
    if version >= 3 {
        let op = c.svarint("a sharding's reduction")?;
        fields.push(("reduction", Attr::Int(op as i128)));
    }
    Ok(st("sdy.sharding", fields))
}

/// One Shardy attribute in its own encoding.
pub fn attr<'a>(t: &mut Table<'_, 'a>, c: &mut Cursor<'a>) -> Result<Attr> {
    let at = c.offset();
    let code = c.varint("an sdy attribute code")?;
    Ok(match code {
        0 => {
            let n = c.count("the number of manual axes")?;
            let axes = (0..n).map(|_| t.read_attr(c)).collect::<Result<Vec<_>>>()?;
            st("sdy.manual_axes", vec![("axes", Attr::Array(axes))])
        }
        1 => {
            let name = string(t, c, "a mesh axis name")?;
            let size = c.svarint("a mesh axis size")?;
            st(
                "sdy.mesh_axis",
                vec![("name", name), ("size", Attr::Int(size as i128))],
            )
        }
        2 => {
            let axes = t.read_attrs(c)?;
            let ids = svarints(c, "a mesh's device ids")?;
            let mut fields = vec![("axes", Attr::Array(axes))];
            if !ids.is_empty() {
                fields.push(("device_ids", Attr::I64Array(ids)));
            }
            st("sdy.mesh", fields)
        }
        3 => {
            let pre = c.svarint("a sub-axis pre-size")?;
            let size = c.svarint("a sub-axis size")?;
            st(
                "sdy.sub_axis_info",
                vec![
                    ("pre_size", Attr::Int(pre as i128)),
                    ("size", Attr::Int(size as i128)),
                ],
            )
        }
        4 => {
            let name = string(t, c, "an axis name")?;
            let (i, present) = c.varint_flag("an optional sub-axis")?;
            let mut fields = vec![("name", name)];
            if present {
                let n = usize::try_from(i).unwrap_or(usize::MAX);
                if n >= t.container.attrs.len() {
                    return Err(malformed(at, "a sub-axis attribute index in range"));
                }
                fields.push(("sub_axis_info", t.attr(n)?));
            }
            st("sdy.axis_ref", fields)
        }
        5 => {
            let axes = t.read_attrs(c)?;
            let closed = boolean(c, "whether a dimension sharding is closed")?;
            let (p, present) = c.varint_flag("an optional priority")?;
            let mut fields = vec![("axes", Attr::Array(axes)), ("is_closed", closed)];
            if present {
                fields.push(("priority", Attr::Int(p as i128)));
            }
            st("sdy.dimension_sharding", fields)
        }
        6 => sharding(t, c, 1)?,
        15 => sharding(t, c, 2)?,
        17 => sharding(t, c, 3)?,
        7 | 16 => st(
            "sdy.sharding_per_value",
            vec![("shardings", Attr::Array(t.read_attrs(c)?))],
        ),
        8 => Attr::I64Array(svarints(c, "a dimension's factor indices")?),
        9 => Attr::Array(t.read_attrs(c)?),
        10 => {
            let factor_sizes = Attr::I64Array(svarints(c, "a rule's factor sizes")?);
            let operands = Attr::Array(t.read_attrs(c)?);
            let results = Attr::Array(t.read_attrs(c)?);
            let mut fields = vec![
                ("factor_sizes", factor_sizes),
                ("operand_mappings", operands),
                ("result_mappings", results),
            ];
            for k in [
                "reduction_factors",
                "need_replication_factors",
                "permutation_factors",
                "blocked_propagation_factors",
            ] {
                fields.push((k, Attr::I64Array(svarints(c, k)?)));
            }
            fields.push(("is_custom_rule", boolean(c, "whether a rule is custom")?));
            st("sdy.op_sharding_rule", fields)
        }
        11 => st(
            "sdy.axis_ref_list",
            vec![("axes", Attr::Array(t.read_attrs(c)?))],
        ),
        12 => st(
            "sdy.list_of_axis_ref_lists",
            vec![("lists", Attr::Array(t.read_attrs(c)?))],
        ),
        13 => {
            let axes = t.read_attrs(c)?;
            let src = c.svarint("an all-to-all source dimension")?;
            let tgt = c.svarint("an all-to-all target dimension")?;
            st(
                "sdy.all_to_all_param",
                vec![
                    ("axes", Attr::Array(axes)),
                    ("src_dim", Attr::Int(src as i128)),
                    ("tgt_dim", Attr::Int(tgt as i128)),
                ],
            )
        }
        14 => st(
            "sdy.all_to_all_param_list",
            vec![("params", Attr::Array(t.read_attrs(c)?))],
        ),
        _ => {
            return Err(malformed(
                at,
                format!("a known sdy attribute code (0 to 17), found {code}"),
            ))
        }
    })
}

/// The native properties of Shardy's ops, in the order MLIR writes them (sorted by name); a
/// trailing `?` marks an optional one (written as `index << 1 | present`). `None` for ops
/// Oxla does not know: their properties are left undecoded and the importer names the op.
pub fn property_names(op: &str) -> Option<&'static [&'static str]> {
    Some(match op {
        "mesh" => &["mesh", "sym_name"],
        "sharding_constraint" | "reshard" => &["sharding"],
        "manual_computation" => &["in_shardings", "manual_axes", "out_shardings"],
        "named_computation" => &["in_shardings?", "name", "out_shardings?"],
        "sharding_group" => &["group_id"],
        "propagation_barrier" => &["allowed_direction"],
        "constant" => &["value"],
        "data_flow_edge" => &["sharding?"],
        _ => return None,
    })
}
