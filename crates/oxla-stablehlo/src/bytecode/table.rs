//! The attribute and type table: entries are decoded on first use (by their dialect's reader,
//! or from their textual form) and remembered. Nesting is bounded, so a cyclic or very deep
//! table is an error rather than a stack overflow.

use oxla_hlo::{Error, Result};

use super::container::{Container, Entry};
use super::cursor::Cursor;
use super::{builtin, sdy, vhlo};
use crate::ast::{Attr, Type};

/// How deep attributes and types may nest (through arrays, dictionaries, tensor types...).
const MAX_DEPTH: usize = 64;

pub struct Table<'c, 'a> {
    pub container: &'c Container<'a>,
    attrs: Vec<Option<Attr>>,
    types: Vec<Option<Type>>,
    depth: usize,
}

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
        }
    }

    pub fn string(&self, c: &mut Cursor<'a>, what: &str) -> Result<&'a str> {
        self.container.string(c, what)
    }

    /// An attribute reference (a varint index) read from `c`.
    pub fn read_attr(&mut self, c: &mut Cursor<'a>) -> Result<Attr> {
        let at = c.offset();
        let i = c.index(self.attrs.len(), "an attribute index")?;
        self.attr(i)
            .map_err(|e| e.context(format!("attribute #{i} (referenced at byte {at})")))
    }

    /// A type reference (a varint index) read from `c`.
    pub fn read_type(&mut self, c: &mut Cursor<'a>) -> Result<Type> {
        let at = c.offset();
        let i = c.index(self.types.len(), "a type index")?;
        self.ty(i)
            .map_err(|e| e.context(format!("type #{i} (referenced at byte {at})")))
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
        if let Some(a) = &self.attrs[i] {
            return Ok(a.clone());
        }
        let e = self.container.attrs[i];
        let a = self.nested(|t| t.decode(e, true).map(|d| d.0))?;
        self.attrs[i] = Some(a.clone());
        Ok(a)
    }

    pub fn ty(&mut self, i: usize) -> Result<Type> {
        if let Some(t) = &self.types[i] {
            return Ok(t.clone());
        }
        let e = self.container.types[i];
        let t = self.nested(|t| t.decode(e, false).map(|d| d.1))?;
        self.types[i] = Some(t.clone());
        Ok(t)
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
