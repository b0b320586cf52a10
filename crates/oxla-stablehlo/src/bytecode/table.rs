//! The attribute and type table: entries are decoded on first use (by their dialect's reader,
//! or from their textual form) and remembered.
//!
//! Decoding recurses through nested entries (arrays, dictionaries, tensor types...), bounded
//! by [`MAX_DEPTH`], so a cyclic or absurdly deep table is an error rather than a stack
//! overflow. The one nesting that grows with the producer's input rather than the program's
//! structure is a chain of call-site locations: JAX writes a Python traceback as
//! `callsite(frame at callsite(frame at ...))`, one level per Python frame and per inlined
//! call. Such chains are walked with an explicit stack (`Table::call_site`), so their length
//! costs no recursion.
//!
//! A decoded entry is a tree, while the table is a graph: an entry that refers to another
//! twice is materialized with two copies of it, so a few hundred bytes of entries that each
//! double the last would expand to 2^60 values. Every value materialized is counted against
//! a budget (`WORK_BASE`), and running out is an error.

use oxla_hlo::{Error, Result};

use super::container::{Container, Entry};
use super::cursor::Cursor;
use super::{builtin, sdy, vhlo};
use crate::ast::{Attr, Type};

/// How deep attributes and types may nest (through arrays, dictionaries, tensor types...),
/// not counting call-site chains. A level takes a few KiB of stack; the reader runs on a
/// thread whose stack holds this many (`bytecode::READER_STACK`), whatever the caller's
/// stack is (test `nesting_limit_fits_a_small_stack`).
pub const MAX_DEPTH: usize = 4096;

/// How many of the outermost references an error names (each error in deep nesting would
/// otherwise carry one line per level).
const CONTEXT_LEVELS: usize = 8;

pub struct Table<'c, 'a> {
    pub container: &'c Container<'a>,
    /// Decoded entries, with the number of values each one materializes when copied.
    attrs: Vec<Option<(Attr, usize)>>,
    types: Vec<Option<(Type, usize)>>,
    depth: usize,
    /// Values materialized so far (decoded, remembered, or copied from an earlier decode).
    work: usize,
    /// Values in the trees handed out so far: an entry's size is what this grows by while
    /// it is decoded.
    made: usize,
    /// Most values the file may expand to (see [`WORK_BASE`]).
    budget: usize,
}

/// The values a file may expand to: this many, plus [`WORK_PER_BYTE`] a byte of input. A
/// program's attributes are mostly locations, small dictionaries and dense blobs (one value
/// each), far inside it.
const WORK_BASE: usize = 1 << 20;
const WORK_PER_BYTE: usize = 16;

/// The location an op or block argument carries: file line and column, when known.
pub fn loc_line_col(a: &Attr) -> (usize, usize) {
    let line = a.field("line").and_then(Attr::as_int).unwrap_or(0);
    let col = a.field("column").and_then(Attr::as_int).unwrap_or(0);
    (line as usize, col as usize)
}

impl<'c, 'a> Table<'c, 'a> {
    pub fn new(container: &'c Container<'a>) -> Self {
        Table {
            container,
            attrs: vec![None; container.attrs.len()],
            types: vec![None; container.types.len()],
            depth: 0,
            work: 0,
            made: 0,
            budget: WORK_BASE.saturating_add(WORK_PER_BYTE.saturating_mul(container.len)),
        }
    }

    pub fn string(&self, c: &mut Cursor<'a>, what: &str) -> Result<&'a str> {
        self.container.string(c, what)
    }

    /// An attribute reference (a varint index) read from `c`.
    pub fn read_attr(&mut self, c: &mut Cursor<'a>) -> Result<Attr> {
        let at = c.offset();
        let i = c.index(self.attrs.len(), "an attribute index")?;
        let outer = self.depth < CONTEXT_LEVELS;
        self.attr(i).map_err(|e| match outer {
            true => e.context(format!("attribute #{i} (referenced at byte {at})")),
            false => e,
        })
    }

    /// A type reference (a varint index) read from `c`.
    pub fn read_type(&mut self, c: &mut Cursor<'a>) -> Result<Type> {
        let at = c.offset();
        let i = c.index(self.types.len(), "a type index")?;
        let outer = self.depth < CONTEXT_LEVELS;
        self.ty(i).map_err(|e| match outer {
            true => e.context(format!("type #{i} (referenced at byte {at})")),
            false => e,
        })
    }

    /// A list of attribute references.
    pub fn read_attrs(&mut self, c: &mut Cursor<'a>) -> Result<Vec<Attr>> {
        let n = c.count("the number of attributes in a list")?;
        (0..n).map(|_| self.read_attr(c)).collect()
    }

    /// A list of type references.
    pub fn read_types(&mut self, c: &mut Cursor<'a>) -> Result<Vec<Type>> {
        let n = c.count("the number of types in a list")?;
        (0..n).map(|_| self.read_type(c)).collect()
    }

    pub fn attr(&mut self, i: usize) -> Result<Attr> {
        if let Some((a, w)) = &self.attrs[i] {
            let (a, w) = (a.clone(), *w);
            self.made += w;
            self.spend(w)?;
            return Ok(a);
        }
        let e = self.container.attrs[i];
        let before = self.made;
        let a = self.nested(|t| t.decode(e, true).map(|d| d.0))?;
        self.made += 1;
        let w = self.made - before;
        // The value and its remembered copy: a chain of entries each holding the last keeps
        // n^2 / 2 values.
        self.spend(1 + w)?;
        self.attrs[i] = Some((a.clone(), w));
        Ok(a)
    }

    pub fn ty(&mut self, i: usize) -> Result<Type> {
        if let Some((t, w)) = &self.types[i] {
            let (t, w) = (t.clone(), *w);
            self.made += w;
            self.spend(w)?;
            return Ok(t);
        }
        let e = self.container.types[i];
        let before = self.made;
        let t = self.nested(|t| t.decode(e, false).map(|d| d.1))?;
        self.made += 1;
        let w = self.made - before;
        // The value and its remembered copy: a chain of entries each holding the last keeps
        // n^2 / 2 values.
        self.spend(1 + w)?;
        self.types[i] = Some((t.clone(), w));
        Ok(t)
    }

    /// Counts `n` values materialized against the budget.
    fn spend(&mut self, n: usize) -> Result<()> {
        self.work = self.work.saturating_add(n);
        if self.work > self.budget {
            return Err(Error::invalid(format!(
                "MLIR bytecode: attributes/types expand to more than {} values (entries that \
                 refer to the same entry many times over)",
                self.budget
            )));
        }
        Ok(())
    }

    /// The location a `CallSiteLoc` stands for, given its callee (decoded) and the index of its
    /// caller: the callee if it knows its line, else the caller's. A caller that is itself a
    /// call site is followed iteratively down the chain (each link decoded, checked and
    /// remembered, with only its callee decoded recursively), so a traceback of any length
    /// needs no more stack than one frame does.
    pub fn call_site(&mut self, callee: Attr, caller: usize) -> Result<Attr> {
        // Whatever the chain holds, its value is one small location.
        let made = self.made;
        let mut links = vec![callee];
        let mut pending = Vec::new();
        let mut i = caller;
        let base = loop {
            if let Some((a, w)) = &self.attrs[i] {
                let (a, w) = (a.clone(), *w);
                self.spend(w)?;
                break a;
            }
            let Some((callee, next)) = self.call_site_link(i)? else {
                break self.attr(i)?;
            };
            // A chain longer than the table revisits an entry: a cycle in malformed input.
            if pending.len() > self.attrs.len() {
                return Err(Error::invalid(
                    "MLIR bytecode: a call-site location chain that loops back on itself",
                ));
            }
            let callee = self
                .attr(callee)
                .map_err(|e| e.context(format!("the callee of call-site location #{i}")))?;
            pending.push(i);
            links.push(callee);
            // Each link walked counts: malformed tables whose callees re-enter the chain
            // would otherwise walk it again at every level of nesting.
            self.spend(1)?;
            i = next;
        };
        let mut loc = base;
        while let Some(callee) = links.pop() {
            loc = builtin::first_known(vec![callee, loc]);
            if let Some(j) = pending.pop() {
                // A location is one small value whatever its chain held.
                self.spend(1)?;
                self.attrs[j] = Some((loc.clone(), 1));
            }
        }
        self.made = made;
        Ok(loc)
    }

    /// Entry `i` read as a builtin `CallSiteLoc` (code 10: callee and caller indices), or
    /// `None` when it is another kind of entry.
    fn call_site_link(&self, i: usize) -> Result<Option<(usize, usize)>> {
        let e = self.container.attrs[i];
        if !e.custom || self.container.dialects[e.dialect].name != "builtin" {
            return Ok(None);
        }
        let mut c = e.data;
        if c.varint("a builtin attribute code")? != builtin::CALL_SITE_LOC {
            return Ok(None);
        }
        let n = self.attrs.len();
        let callee = c.index(n, "an attribute index")?;
        let caller = c.index(n, "an attribute index")?;
        if !c.is_empty() {
            return Err(c.err("the end of a builtin attribute entry"));
        }
        Ok(Some((callee, caller)))
    }

    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::invalid(format!(
                "MLIR bytecode: attributes/types nest deeper than {MAX_DEPTH} levels"
            )));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    /// Decodes an entry as an attribute (`is_attr`) or a type; the other half is a dummy.
    fn decode(&mut self, e: Entry<'a>, is_attr: bool) -> Result<(Attr, Type)> {
        let mut c = e.data;
        let dialect = self.container.dialects[e.dialect].name;
        let dummy_t = Type::Tuple(vec![]);
        let out = if !e.custom {
            let text = c.cstr("an attribute/type in textual form")?;
            if is_attr {
                (textual_attr(text), dummy_t)
            } else {
                (Attr::Unit, textual_type(text))
            }
        } else {
            match (dialect, is_attr) {
                ("builtin", true) => (builtin::attr(self, &mut c)?, dummy_t),
                ("builtin", false) => (Attr::Unit, builtin::ty(self, &mut c)?),
                ("vhlo", true) => (vhlo::attr(self, &mut c)?, dummy_t),
                ("vhlo", false) => (Attr::Unit, vhlo::ty(self, &mut c)?),
                ("sdy", true) => (sdy::attr(self, &mut c)?, dummy_t),
                // StableHLO's own types, where a portable artifact keeps them outside VHLO (a
                // token crossing a Shardy region: an ordered callback in a shard_map). Its
                // bytecode interface has one type, code 0, the token.
                ("stablehlo", false) => match c.varint("a stablehlo type code")? {
                    0 => (Attr::Unit, Type::Token),
                    code => {
                        return Err(Error::unimplemented(format!(
                            "MLIR bytecode: byte {}: stablehlo type code {code} (only 0, the \
                             token, is known)",
                            c.offset()
                        )))
                    }
                },
                (d, _) => {
                    return Err(Error::unimplemented(format!(
                        "MLIR bytecode: byte {}: {} of dialect '{d}' in that dialect's own \
                         encoding (only builtin, vhlo and sdy are read)",
                        c.offset(),
                        if is_attr { "an attribute" } else { "a type" }
                    )))
                }
            }
        };
        if !c.is_empty() {
            return Err(c.err(format!(
                "the end of a {dialect} {} entry",
                if is_attr { "attribute" } else { "type" }
            )));
        }
        Ok(out)
    }
}

/// An attribute stored as text: parsed by the text parser when it can, else kept as a string.
fn textual_attr(text: &str) -> Attr {
    crate::parser::Parser::new(text)
        .attr()
        .unwrap_or_else(|_| Attr::Str(text.to_string()))
}

/// A type stored as text: parsed by the text parser when it can.
fn textual_type(text: &str) -> Type {
    crate::parser::Parser::new(text)
        .ty()
        .unwrap_or_else(|_| Type::Unsupported(text.to_string()))
}
