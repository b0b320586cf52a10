//! The IR section: operations, their regions and blocks, and the value numbering that names
//! operands. Values are numbered per isolated-from-above scope; a region reserves its values
//! after its parent's. From bytecode version 2 an isolated op's regions sit in a nested IR
//! section (lazily loadable in MLIR; read eagerly here). VHLO ops are renamed to their
//! StableHLO ops (`upgrade`), so the module matches what the text parser gives.

use std::collections::HashMap;

use oxla_hlo::{Error, Result};

use super::container::SECTION_IR;
use super::cursor::Cursor;
use super::table::{loc_line_col, Table};
use super::upgrade;
use crate::ast::{Attr, Block, Module, Operation, Region, Type};

const HAS_ATTRS: u8 = 0x01;
const HAS_RESULTS: u8 = 0x02;
const HAS_OPERANDS: u8 = 0x04;
const HAS_SUCCESSORS: u8 = 0x08;
const HAS_REGIONS: u8 = 0x10;
const HAS_USE_LIST_ORDERS: u8 = 0x20;
const HAS_PROPERTIES: u8 = 0x40;

/// How deep regions may nest.
const MAX_REGION_DEPTH: usize = 128;

/// The values of one isolated-from-above scope: each region reserves a range, filled as its
/// block arguments and op results are defined. A use before the definition (a forward
/// reference) names the slot, and the definition takes that name.
#[derive(Default)]
struct Scope {
    values: Vec<Option<String>>,
    next: Vec<usize>,
    /// Block arguments named so far (`arg0`, `arg1`... as MLIR prints them).
    args: usize,
}

pub struct IrReader<'t, 'c, 'a> {
    table: &'t mut Table<'c, 'a>,
    version: u64,
    producer: &'a str,
    counter: usize,
    depth: usize,
    /// Every value's type by name (for the operand types the text path records).
    types: HashMap<String, Type>,
}

impl<'t, 'c, 'a> IrReader<'t, 'c, 'a> {
    pub fn new(table: &'t mut Table<'c, 'a>) -> Self {
        let version = table.container.version;
        let producer = table.container.producer;
        IrReader {
            table,
            version,
            producer,
            counter: 0,
            depth: 0,
            types: HashMap::new(),
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}", self.counter)
    }

    /// Gives the next value of the current region a name (its forward-reference name, if
    /// it was used before being defined).
    fn define(
        &mut self,
        scope: &mut Scope,
        c: &Cursor<'a>,
        name: Option<String>,
    ) -> Result<String> {
        let id = scope
            .next
            .last_mut()
            .ok_or_else(|| c.err("a region to define values in"))?;
        let slot = scope
            .values
            .get_mut(*id)
            .ok_or_else(|| c.err("no more values than the region declares"))?;
        *id += 1;
        if let Some(name) = slot {
            return Ok(name.clone());
        }
        let name = match name {
            Some(n) => n,
            None => {
                self.counter += 1;
                format!("v{}", self.counter)
            }
        };
        *slot = Some(name.clone());
        Ok(name)
    }

    fn operand(&mut self, scope: &mut Scope, c: &mut Cursor<'a>) -> Result<String> {
        let i = c.index(scope.values.len(), "a value index")?;
        if let Some(n) = &scope.values[i] {
            return Ok(n.clone());
        }
        let n = self.fresh("v");
        scope.values[i] = Some(n.clone());
        Ok(n)
    }

    /// The IR section: one block (the top level) holding the module op.
    pub fn read_module(&mut self, mut c: Cursor<'a>) -> Result<Module> {
        let mut scope = Scope::default();
        let (n_ops, args) = self.block_header(&mut c, &mut scope, false)?;
        if !args.is_empty() {
            return Err(c.err("no arguments on the top-level block"));
        }
        let mut top = Vec::new();
        for _ in 0..n_ops {
            top.push(self.op(&mut c, &mut scope, false)?);
        }
        let module_op = top
            .into_iter()
            .find(|o| o.name == "builtin.module")
            .ok_or_else(|| Error::invalid("MLIR bytecode: no builtin.module at the top level"))?;
        crate::module_op::module_from_op(module_op, "MLIR bytecode")
    }

    /// A block header: its op count and (when flagged) its arguments, which it defines.
    fn block_header(
        &mut self,
        c: &mut Cursor<'a>,
        scope: &mut Scope,
        define: bool,
    ) -> Result<(u64, Vec<(String, Type)>)> {
        let (n_ops, has_args) = c.varint_flag("a block's op count")?;
        let mut args = Vec::new();
        if has_args {
            let n = c.count("the number of block arguments")?;
            for _ in 0..n {
                let ty = if self.version >= 4 {
                    let at = c.offset();
                    let (ti, has_loc) = c.varint_flag("a block argument type")?;
                    if ti as usize >= self.table.container.types.len() {
                        return Err(super::cursor::malformed(at, "a type index in range"));
                    }
                    let ty = self.table.ty(ti as usize)?;
                    if has_loc {
                        self.table.read_attr(c)?;
                    }
                    ty
                } else {
                    let ty = self.table.read_type(c)?;
                    self.table.read_attr(c)?;
                    ty
                };
                let name = if define {
                    let proposed = format!("arg{}", scope.args);
                    scope.args += 1;
                    self.define(scope, c, Some(proposed))?
                } else {
                    self.fresh("a")
                };
                self.types.insert(name.clone(), ty.clone());
                args.push((name, ty));
            }
            if self.version >= 3 && c.byte("a use-list order flag")? != 0 {
                skip_use_lists(c, n as u64)?;
            }
        }
        Ok((n_ops, args))
    }

    /// A region: its block count, value count, then each block's header and ops.
    fn region(&mut self, c: &mut Cursor<'a>, scope: &mut Scope) -> Result<Region> {
        let n_blocks = c.count("the number of blocks in a region")?;
        if n_blocks == 0 {
            return Ok(Region::default());
        }
        let n_values = c.count("the number of values in a region")?;
        let start = scope.values.len();
        scope.next.push(start);
        scope.values.resize(start + n_values, None);
        let mut blocks = Vec::with_capacity(n_blocks);
        for _ in 0..n_blocks {
            let (n_ops, args) = self.block_header(c, scope, true)?;
            let mut ops = Vec::new();
            for _ in 0..n_ops {
                ops.push(self.op(c, scope, true)?);
            }
            blocks.push(Block { args, ops });
        }
        scope.values.truncate(start);
        scope.next.pop();
        Ok(Region { blocks })
    }

    fn op(&mut self, c: &mut Cursor<'a>, scope: &mut Scope, define: bool) -> Result<Operation> {
        let at = c.offset();
        let ni = c.index(self.table.container.op_names.len(), "an op name index")?;
        let on = &self.table.container.op_names[ni];
        let dialect = self.table.container.dialects[on.dialect].name;
        let (short, registered) = (on.name, on.registered);
        let full = format!("{dialect}.{short}");
        self.op_body(c, scope, define, &full, dialect, short, registered)
            .map_err(|e| e.context(format!("{full} (op at byte {at})")))
    }

    #[allow(clippy::too_many_arguments)]
    fn op_body(
        &mut self,
        c: &mut Cursor<'a>,
        scope: &mut Scope,
        define: bool,
        full: &str,
        dialect: &str,
        short: &str,
        registered: Option<bool>,
    ) -> Result<Operation> {
        // Property names come first so an unknown (future) op fails before its operands.
        let prop_names: &[&str] = match (dialect, short) {
            ("vhlo", s) => upgrade::attr_names(s, self.producer)?,
            ("builtin", "module") => &["sym_name", "sym_visibility"],
            _ => &[],
        };
        let mask = c.byte("an op's encoding mask")?;
        let loc = self.table.read_attr(c)?;
        let (line, column) = loc_line_col(&loc);
        let mut attrs: Vec<(String, Attr)> = Vec::new();
        if mask & HAS_ATTRS != 0 {
            match self.table.read_attr(c)? {
                Attr::Dict(d) => attrs.extend(d),
                other => {
                    return Err(c.err(format!("a dictionary of op attributes, found {other:?}")))
                }
            }
        }
        if mask & HAS_PROPERTIES != 0 {
            match registered {
                None => return Err(c.err("no properties before bytecode version 5")),
                Some(false) => match self.table.read_attr(c)? {
                    Attr::Dict(d) => attrs.extend(d),
                    other => return Err(c.err(format!("a properties dictionary, found {other:?}"))),
                },
                Some(true) => {
                    let i = c.index(self.table.container.properties.len(), "a properties index")?;
                    let blob = self.table.container.properties[i];
                    attrs.extend(self.properties(blob, full, dialect, prop_names)?);
                }
            }
        }
        let mut result_types = Vec::new();
        if mask & HAS_RESULTS != 0 {
            result_types = self.table.read_types(c)?;
        }
        let mut operands = Vec::new();
        if mask & HAS_OPERANDS != 0 {
            let n = c.count("the number of operands")?;
            for _ in 0..n {
                operands.push(self.operand(scope, c)?);
            }
        }
        if mask & HAS_SUCCESSORS != 0 {
            let n = c.count("the number of successors")?;
            for _ in 0..n {
                c.varint("a successor block index")?;
            }
            return Err(Error::unimplemented(
                "ops with successor blocks (unstructured control flow)",
            ));
        }
        if self.version >= 3 && mask & HAS_USE_LIST_ORDERS != 0 {
            skip_use_lists(c, result_types.len() as u64)?;
        }
        let (n_regions, isolated) = if mask & HAS_REGIONS != 0 {
            let (n, iso) = c.varint_flag("the number of regions")?;
            if n > c.remaining() as u64 {
                return Err(c.err("a region count that fits the remaining bytes"));
            }
            (n as usize, iso)
        } else {
            (0, false)
        };
        let mut results = Vec::with_capacity(result_types.len());
        for _ in 0..result_types.len() {
            results.push(if define && !scope.next.is_empty() {
                self.define(scope, c, None)?
            } else {
                self.fresh("v")
            });
        }
        let mut regions = Vec::with_capacity(n_regions);
        if n_regions > 0 {
            if self.depth >= MAX_REGION_DEPTH {
                return Err(c.err(format!("regions nested at most {MAX_REGION_DEPTH} deep")));
            }
            self.depth += 1;
            let is_func = full == "vhlo.func_v1";
            let r = if isolated {
                // Block arguments are numbered through the whole function, nested isolated
                // regions included, as MLIR prints them.
                let mut own = Scope {
                    args: if is_func { 0 } else { scope.args },
                    ..Scope::default()
                };
                let r = if self.version >= 2 {
                    let at = c.offset();
                    let (id, mut sub) = c.section()?;
                    if id != SECTION_IR {
                        return Err(super::cursor::malformed(
                            at,
                            "an IR section holding the op's regions",
                        ));
                    }
                    (0..n_regions)
                        .map(|_| self.region(&mut sub, &mut own))
                        .collect::<Result<Vec<_>>>()
                } else {
                    (0..n_regions)
                        .map(|_| self.region(c, &mut own))
                        .collect::<Result<Vec<_>>>()
                };
                if !is_func {
                    scope.args = own.args;
                }
                r
            } else {
                (0..n_regions)
                    .map(|_| self.region(c, scope))
                    .collect::<Result<Vec<_>>>()
            };
            self.depth -= 1;
            let sym = attrs.iter().find(|(k, _)| k == "sym_name");
            regions = match (r, sym) {
                (Err(e), Some((_, Attr::Str(s)))) => return Err(e.context(format!("@{s}"))),
                (r, _) => r?,
            };
        }
        let (name, attrs) = if dialect == "vhlo" {
            let name = upgrade::op_name(short);
            let base = name
                .trim_start_matches("stablehlo.")
                .trim_start_matches("func.");
            let attrs = upgrade::convert_attrs(base, attrs);
            (name, attrs)
        } else {
            (full.to_string(), attrs)
        };
        for (n, t) in results.iter().zip(&result_types) {
            self.types.insert(n.clone(), t.clone());
        }
        let operand_types = operands
            .iter()
            .map(|o| self.types.get(o).cloned())
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default();
        Ok(Operation {
            results,
            name,
            operands,
            attrs,
            regions,
            operand_types,
            result_types,
            line,
            column,
        })
    }

    /// An op's native properties: for VHLO ops every attribute, as an attribute index, in
    /// the order of `names`; for `builtin.module` optional attributes (`index << 1 | present`).
    fn properties(
        &mut self,
        mut b: Cursor<'a>,
        full: &str,
        dialect: &str,
        names: &[&str],
    ) -> Result<Vec<(String, Attr)>> {
        let mut out = Vec::new();
        if dialect == "builtin" {
            for name in names {
                if b.is_empty() {
                    break;
                }
                let at = b.offset();
                let (i, present) = b.varint_flag("an optional attribute")?;
                if present {
                    if i as usize >= self.table.container.attrs.len() {
                        return Err(super::cursor::malformed(at, "an attribute index in range"));
                    }
                    out.push((name.to_string(), self.table.attr(i as usize)?));
                }
            }
        } else if dialect == "vhlo" {
            for name in names {
                if b.is_empty() {
                    return Err(b.err(format!(
                        "{} properties for {full} ({}), found fewer",
                        names.len(),
                        names.join(", ")
                    )));
                }
                let a = self.table.read_attr(&mut b)?;
                out.push((name.to_string(), a));
            }
        } else if dialect == "sdy" {
            // Shardy's ops: their meshes, shardings and manual axes (bytecode/sdy.rs).
            let Some(names) = super::sdy::property_names(full.trim_start_matches("sdy.")) else {
                return Ok(out);
            };
            for name in names {
                if b.is_empty() {
                    break;
                }
                let (name, a) = match name.strip_suffix('?') {
                    Some(n) => {
                        let at = b.offset();
                        let (i, present) = b.varint_flag("an optional attribute")?;
                        if !present {
                            continue;
                        }
                        if i as usize >= self.table.container.attrs.len() {
                            return Err(super::cursor::malformed(
                                at,
                                "an attribute index in range",
                            ));
                        }
                        (n, self.table.attr(i as usize)?)
                    }
                    None => (*name, self.table.read_attr(&mut b)?),
                };
                out.push((name.to_string(), a));
            }
        } else {
            return Err(Error::unimplemented(format!(
                "{full}: native properties of a {dialect} op (only builtin, vhlo and sdy are \
                 read)"
            )));
        }
        if !b.is_empty() {
            return Err(b.err(format!(
                "the end of {full}'s properties after {} attributes ({})",
                names.len(),
                names.join(", ")
            )));
        }
        Ok(out)
    }
}

/// Use-list orders only reorder uses in MLIR's in-memory lists; they are read and dropped.
fn skip_use_lists(c: &mut Cursor<'_>, n_values: u64) -> Result<()> {
    let n = if n_values > 1 {
        c.count("the number of use-list orders")? as u64
    } else {
        1
    };
    for _ in 0..n {
        if n_values > 1 {
            c.varint("a use-list value index")?;
        }
        let at = c.offset();
        let (k, _pairs) = c.varint_flag("the number of use-list indices")?;
        if k > c.remaining() as u64 {
            return Err(super::cursor::malformed(
                at,
                "a use-list length that fits the remaining bytes",
            ));
        }
        for _ in 0..k {
            c.varint("a use-list index")?;
        }
    }
    Ok(())
}
