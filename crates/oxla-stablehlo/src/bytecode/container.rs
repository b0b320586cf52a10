//! The bytecode container: header (magic, version, producer), the top-level sections indexed
//! by id, and the tables every other part refers to by index: strings, dialects, op names,
//! properties and the attribute/type entry offsets.
//!
//! Bytecode versions 0 to 6 differ here: from 1 dialects may carry a version (a nested
//! DialectVersions section); from 4 the dialect section starts with the op-name count; from 5
//! op names carry an "was registered" flag and ops may have native properties (section 8).

use oxla_hlo::Result;

use super::cursor::{malformed, Cursor};

/// The newest bytecode version this reader understands.
pub const MAX_VERSION: u64 = 6;

pub const SECTION_STRING: u8 = 0;
pub const SECTION_DIALECT: u8 = 1;
pub const SECTION_ATTR_TYPE: u8 = 2;
pub const SECTION_ATTR_TYPE_OFFSET: u8 = 3;
pub const SECTION_IR: u8 = 4;
pub const SECTION_DIALECT_VERSIONS: u8 = 7;
pub const SECTION_PROPERTIES: u8 = 8;

const SECTION_NAMES: [&str; 9] = [
    "String",
    "Dialect",
    "AttrType",
    "AttrTypeOffset",
    "IR",
    "Resource",
    "ResourceOffset",
    "DialectVersions",
    "Properties",
];

/// A dialect of the file. Its version entry (VHLO: major, minor, patch), when present, is
/// skipped: VHLO ops carry their own version in their names (`gather_v2`).
pub struct Dialect<'a> {
    pub name: &'a str,
}

pub struct OpName<'a> {
    pub dialect: usize,
    pub name: &'a str,
    /// Whether the producer had the op registered (version >= 5 only).
    pub registered: Option<bool>,
}

/// An attribute or type entry: its dialect, whether it uses the dialect's own encoding (else
/// it is the textual assembly form, NUL-terminated) and its bytes.
#[derive(Clone, Copy)]
pub struct Entry<'a> {
    pub dialect: usize,
    pub custom: bool,
    pub data: Cursor<'a>,
}

pub struct Container<'a> {
    pub version: u64,
    pub producer: &'a str,
    pub strings: Vec<&'a str>,
    pub dialects: Vec<Dialect<'a>>,
    pub op_names: Vec<OpName<'a>>,
    pub attrs: Vec<Entry<'a>>,
    pub types: Vec<Entry<'a>>,
    /// Each op's native properties, by index (version >= 5).
    pub properties: Vec<Cursor<'a>>,
    pub ir: Cursor<'a>,
    /// The file's length in bytes.
    pub len: usize,
}

impl<'a> Container<'a> {
    pub fn read(bytes: &'a [u8]) -> Result<Self> {
        let mut c = Cursor::new(bytes);
        let magic = c.bytes(4, "the magic number ML\\xefR")?;
        if magic != super::MAGIC {
            return Err(malformed(0, "the magic number ML\\xefR"));
        }
        let at = c.offset();
        let version = c.varint("the bytecode version")?;
        if version > MAX_VERSION {
            return Err(malformed(
                at,
                format!("a bytecode version 0..={MAX_VERSION}, found {version} (newer than this reader)"),
            ));
        }
        let producer = c.cstr("the producer string")?;
        let mut sections: [Option<Cursor<'a>>; 9] = [None; 9];
        while !c.is_empty() {
            let at = c.offset();
            let (id, data) = c.section()?;
            if sections[id as usize].is_some() {
                return Err(malformed(
                    at,
                    format!("one {} section, found a second", SECTION_NAMES[id as usize]),
                ));
            }
            sections[id as usize] = Some(data);
        }
        let end = c.offset();
        let need = |id: u8| {
            sections[id as usize].ok_or_else(|| {
                malformed(
                    end,
                    format!(
                        "a {} section before the end of the file",
                        SECTION_NAMES[id as usize]
                    ),
                )
            })
        };
        let strings = read_strings(need(SECTION_STRING)?)?;
        let (dialects, op_names) = read_dialects(need(SECTION_DIALECT)?, version, &strings)?;
        let (attrs, types) = read_attr_type_offsets(
            need(SECTION_ATTR_TYPE)?,
            need(SECTION_ATTR_TYPE_OFFSET)?,
            dialects.len(),
        )?;
        let properties = match sections[SECTION_PROPERTIES as usize] {
            Some(p) => read_properties(p)?,
            None => vec![],
        };
        Ok(Container {
            version,
            producer,
            strings,
            dialects,
            op_names,
            attrs,
            types,
            properties,
            ir: need(SECTION_IR)?,
            len: bytes.len(),
        })
    }

    pub fn string(&self, c: &mut Cursor<'a>, what: &str) -> Result<&'a str> {
        let i = c.index(self.strings.len(), what)?;
        Ok(self.strings[i])
    }
}

/// What a string table entry that is not UTF-8 reads as.
pub const NOT_UTF8: &str = "<bytes that are not UTF-8>";

/// The string table: a count, then each string's size (NUL included) from the last string to
/// the first, then the strings' bytes, which end the section.
fn read_strings(mut c: Cursor<'_>) -> Result<Vec<&str>> {
    let n = c.count("the number of strings")?;
    let total = c.remaining();
    let mut sizes = Vec::with_capacity(n);
    for _ in 0..n {
        sizes.push(c.varint("a string size")?);
    }
    // The data is what follows the sizes; string i ends where string i+1 begins.
    let data_start = total - c.remaining();
    let data = c.sub(c.remaining() as u64, "string data")?;
    let bytes = data_bytes(&data);
    let mut end = bytes.len();
    let mut out = vec![""; n];
    for (slot, size) in out.iter_mut().rev().zip(&sizes) {
        let size = *size as usize;
        if size == 0 || size > end {
            return Err(data.err(format!(
                "string sizes that fit the {} bytes of string data",
                bytes.len()
            )));
        }
        let s = &bytes[end - size..end - 1];
        // Names are ASCII; a string of other bytes is an attribute's opaque payload (JAX's
        // `InspectSharding` custom call carries a native callback's address as its
        // backend_config), which the importer never interprets: it reads as a marker, so
        // the module still parses and the op is refused by name.
        *slot = std::str::from_utf8(s).unwrap_or(NOT_UTF8);
        end -= size;
    }
    if end != 0 {
        return Err(malformed(
            data.offset() - data_start,
            "no bytes between the string sizes and the string data",
        ));
    }
    Ok(out)
}

/// All bytes a cursor has left (without consuming them).
fn data_bytes<'a>(c: &Cursor<'a>) -> &'a [u8] {
    let mut d = *c;
    d.bytes(d.remaining() as u64, "").unwrap_or(&[])
}

type DialectTables<'a> = (Vec<Dialect<'a>>, Vec<OpName<'a>>);

fn read_dialects<'a>(
    mut c: Cursor<'a>,
    version: u64,
    strings: &[&'a str],
) -> Result<DialectTables<'a>> {
    let n = c.count("the number of dialects")?;
    let mut dialects = Vec::with_capacity(n);
    for _ in 0..n {
        if version < 1 {
            let i = c.index(strings.len(), "a dialect name (string index)")?;
            dialects.push(Dialect { name: strings[i] });
            continue;
        }
        let at = c.offset();
        let (i, has_version) = c.varint_flag("a dialect name (string index)")?;
        let name = *strings
            .get(i as usize)
            .ok_or_else(|| malformed(at, format!("a string index below {}", strings.len())))?;
        if has_version {
            let at = c.offset();
            let (id, _) = c.section()?;
            if id != SECTION_DIALECT_VERSIONS {
                return Err(malformed(at, "a DialectVersions section"));
            }
        }
        dialects.push(Dialect { name });
    }
    if version >= 4 {
        c.count("the number of op names")?;
    }
    let mut ops = Vec::new();
    while !c.is_empty() {
        let dialect = c.index(dialects.len(), "a dialect index")?;
        let k = c.count("the number of op names in a dialect group")?;
        for _ in 0..k {
            let (name, registered) = if version < 5 {
                let i = c.index(strings.len(), "an op name (string index)")?;
                (strings[i], None)
            } else {
                let at = c.offset();
                let (i, reg) = c.varint_flag("an op name (string index)")?;
                let s = *strings.get(i as usize).ok_or_else(|| {
                    malformed(at, format!("a string index below {}", strings.len()))
                })?;
                (s, Some(reg))
            };
            ops.push(OpName {
                dialect,
                name,
                registered,
            });
        }
    }
    Ok((dialects, ops))
}

type EntryTables<'a> = (Vec<Entry<'a>>, Vec<Entry<'a>>);

/// The offset section lists, grouped by dialect, each entry's size and encoding flag; the
/// entries' bytes follow one another in the AttrType section, attributes first.
fn read_attr_type_offsets<'a>(
    data: Cursor<'a>,
    mut offs: Cursor<'a>,
    num_dialects: usize,
) -> Result<EntryTables<'a>> {
    let num_attrs = offs.count("the number of attributes")?;
    let num_types = offs.count("the number of types")?;
    let mut data = data;
    let mut read = |n: usize, what: &str| -> Result<Vec<Entry<'a>>> {
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let dialect = offs.index(num_dialects, "a dialect index")?;
            let k = offs.count(what)?;
            if out.len() + k > n {
                return Err(offs.err(format!("at most {n} {what} in all")));
            }
            for _ in 0..k {
                let (size, custom) = offs.varint_flag("an attribute/type entry size")?;
                let d = data.sub(size, "attribute/type entry bytes")?;
                out.push(Entry {
                    dialect,
                    custom,
                    data: d,
                });
            }
        }
        Ok(out)
    };
    let attrs = read(num_attrs, "attributes")?;
    let types = read(num_types, "types")?;
    if !offs.is_empty() {
        return Err(offs.err("the end of the AttrTypeOffset section"));
    }
    Ok((attrs, types))
}

/// The properties section: a count, then that many `size, bytes` blobs.
fn read_properties(mut c: Cursor<'_>) -> Result<Vec<Cursor<'_>>> {
    let n = c.count("the number of property blobs")?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let size = c.varint("a property blob size")?;
        out.push(c.sub(size, "property blob bytes")?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of "op" and the byte 0xFF (not UTF-8): the count, the sizes (NUL included)
    /// last to first, as prefix varints (`n << 1 | 1`), then the data.
    #[test]
    fn a_string_of_other_bytes_reads_as_the_marker() {
        let table = [5u8, 5, 7, b'o', b'p', 0, 0xff, 0];
        let strings = read_strings(Cursor::new(&table)).unwrap();
        assert_eq!(strings, vec!["op", NOT_UTF8]);
    }
}
