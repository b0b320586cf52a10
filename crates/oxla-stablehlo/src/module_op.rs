//! A `builtin.module` operation (from MLIR bytecode or the generic text syntax) as a
//! [`Module`]: its `func.func`s with their argument and result attributes, and Shardy's
//! `sdy.mesh`es. Other top-level ops are dropped.

use oxla_hlo::{Error, Result};

use crate::ast::{Attr, Func, Module, Operation, Type};

/// Per-argument (or per-result) attribute dictionaries from `arg_attrs` / `res_attrs`.
fn attr_lists(op: &Operation, name: &str) -> Vec<Vec<(String, Attr)>> {
    match op.attr(name) {
        Some(Attr::Array(a)) => a
            .iter()
            .map(|d| match d {
                Attr::Dict(kv) => kv.clone(),
                _ => Vec::new(),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Builds the module from its op: `what` names the source in errors.
pub(crate) fn module_from_op(op: Operation, what: &str) -> Result<Module> {
    let name = op
        .attr("sym_name")
        .and_then(Attr::as_str)
        .map(str::to_string);
    let attrs = op
        .attrs
        .iter()
        .filter(|(k, _)| k != "sym_name" && k != "sym_visibility")
        .cloned()
        .collect();
    let mut m = Module {
        name,
        attrs,
        ..Module::default()
    };
    let ops = op
        .regions
        .into_iter()
        .next()
        .and_then(|r| r.blocks.into_iter().next())
        .map(|b| b.ops)
        .unwrap_or_default();
    for f in ops {
        if f.name == "sdy.mesh" {
            let name = f.attr("sym_name").and_then(Attr::as_str);
            if let (Some(n), Some(mesh)) = (name, f.attr("mesh")) {
                m.meshes.push((n.to_string(), mesh.clone()));
            }
            continue;
        }
        if f.name != "func.func" {
            continue;
        }
        let name = f
            .attr("sym_name")
            .and_then(Attr::as_str)
            .ok_or_else(|| Error::invalid(format!("{what}: a function without sym_name")))?
            .to_string();
        let results = match f.attr("function_type") {
            Some(Attr::Type(Type::Function(_, r))) => r.clone(),
            _ => vec![],
        };
        let arg_attrs = attr_lists(&f, "arg_attrs");
        let res_attrs = attr_lists(&f, "res_attrs");
        let mut body = f.regions.into_iter().next().unwrap_or_default();
        // The body's own return is the function's.
        if let Some(last) = body.blocks.first_mut().and_then(|b| b.ops.last_mut()) {
            if last.name == "stablehlo.return" {
                last.name = "func.return".into();
            }
        }
        let args = body
            .blocks
            .first()
            .map(|b| b.args.clone())
            .unwrap_or_default();
        m.funcs.push(Func {
            name,
            args,
            arg_attrs,
            results,
            res_attrs,
            body,
            line: f.line,
        });
    }
    Ok(m)
}
