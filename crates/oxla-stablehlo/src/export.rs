//! `jax.export` artifacts: `Exported.serialize()` is a flatbuffer (JAX's
//! `jax/_src/export/serialization.fbs`) around the portable artifact. This reads the fields
//! Oxla needs with a small bounds-checked flatbuffer reader: the serialization and calling
//! convention versions, the function name, platforms, argument and result types, the
//! indices of the arguments the module kept, and the module bytes.
//!
//! [`module_of`] turns an export into a module whose `main` takes exactly the exported
//! arguments: a multi-platform export's leading `_platform_index` argument becomes the
//! constant index of `cpu`, and arguments JAX dropped as unused come back as parameters.

use oxla_hlo::{Error, PrimitiveType, Result};

use crate::ast::{Attr, DenseValue, ElemType, Module, Operation, Type};

/// Calling-convention versions this reader accepts (JAX's supported range at 0.10).
pub const CALLING_CONVENTIONS: std::ops::RangeInclusive<u16> = 9..=10;

/// What a `jax.export` flatbuffer says about the exported function.
#[derive(Clone, Debug, PartialEq)]
pub struct Exported {
    /// The `serialization_version` field (JAX writes 3 for format 11, for old readers).
    pub serialization_version: u16,
    /// The calling convention version (how arguments and effects are passed).
    pub calling_convention_version: u16,
    /// The exported function's name.
    pub function_name: String,
    /// Platforms the module was lowered for (`cpu`, ...).
    pub platforms: Vec<String>,
    /// Argument and result types (shapes as JAX writes them: integers, or symbolic names).
    pub in_avals: Vec<Aval>,
    /// Result types.
    pub out_avals: Vec<Aval>,
    /// The arguments (indices into `in_avals`) the module kept; the others were unused.
    pub module_kept_var_idx: Vec<usize>,
    /// Devices the function was exported for.
    pub nr_devices: u32,
    /// Whether the function has ordered effects (a token argument and result).
    pub has_ordered_effects: bool,
    /// The portable artifact (MLIR bytecode).
    pub module: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq)]
/// An abstract value: a shape and a dtype.
pub struct Aval {
    /// Dimension sizes (integers, or symbolic names).
    pub shape: Vec<String>,
    /// JAX's `DType` enum value.
    pub dtype: u8,
}

impl Aval {
    /// The element type, for the dtypes Oxla has.
    pub fn element_type(&self) -> Option<PrimitiveType> {
        use PrimitiveType::*;
        Some(match self.dtype {
            0 => Pred,
            1 => S8,
            2 => S16,
            3 => S32,
            4 => S64,
            5 => U8,
            6 => U16,
            7 => U32,
            8 => U64,
            9 => F16,
            10 => F32,
            11 => F64,
            12 => C64,
            13 => C128,
            14 => BF16,
            15 => S4,
            16 => U4,
            17 => F8E4M3B11FNUZ,
            18 => F8E4M3FN,
            19 => F8E4M3FNUZ,
            20 => F8E5M2,
            21 => F8E5M2FNUZ,
            23 => F8E4M3,
            24 => F8E3M4,
            25 => F8E8M0FNU,
            26 => F4E2M1FN,
            _ => return None,
        })
    }

    /// The tensor type, when every dimension is a number (no shape polymorphism).
    pub fn tensor_type(&self) -> Result<Type> {
        let p = self.element_type().ok_or_else(|| {
            Error::unimplemented(format!("jax.export: argument dtype #{}", self.dtype))
        })?;
        let dims = self
            .shape
            .iter()
            .map(|d| {
                d.parse::<i64>().map_err(|_| {
                    Error::unimplemented(format!(
                        "jax.export: symbolic dimension '{d}' (shape polymorphism)"
                    ))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Type::Tensor {
            bounds: vec![None; dims.len()],
            dims,
            elem: ElemType::Prim(p),
        })
    }
}

/// A bounds-checked view of a flatbuffer.
struct Fb<'a> {
    buf: &'a [u8],
}

fn bad(at: usize, what: &str) -> Error {
    Error::invalid(format!("jax.export flatbuffer: byte {at}: expected {what}"))
}

impl<'a> Fb<'a> {
    fn bytes(&self, at: usize, n: usize, what: &str) -> Result<&'a [u8]> {
        at.checked_add(n)
            .and_then(|end| self.buf.get(at..end))
            .ok_or_else(|| bad(at, what))
    }
    fn u8(&self, at: usize, what: &str) -> Result<u8> {
        Ok(self.bytes(at, 1, what)?[0])
    }
    fn u16(&self, at: usize, what: &str) -> Result<u16> {
        let b = self.bytes(at, 2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&self, at: usize, what: &str) -> Result<u32> {
        let b = self.bytes(at, 4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    /// The target of the unsigned offset stored at `at`.
    fn deref(&self, at: usize, what: &str) -> Result<usize> {
        let off = self.u32(at, what)? as usize;
        let t = at.checked_add(off).ok_or_else(|| bad(at, what))?;
        if t >= self.buf.len() {
            return Err(bad(at, &format!("{what} (an offset inside the buffer)")));
        }
        Ok(t)
    }
    /// The position of field `slot` of the table at `table`, if present.
    fn field(&self, table: usize, slot: usize, what: &str) -> Result<Option<usize>> {
        let soff = self.u32(table, "a table's vtable offset")? as i32 as i64;
        let vt = table as i64 - soff;
        if vt < 0 || vt as usize >= self.buf.len() {
            return Err(bad(table, "a vtable inside the buffer"));
        }
        let vt = vt as usize;
        let vt_len = self.u16(vt, "a vtable size")? as usize;
        let entry = 4 + 2 * slot;
        if entry + 2 > vt_len {
            return Ok(None);
        }
        let off = self.u16(vt + entry, what)? as usize;
        Ok((off != 0).then_some(table + off))
    }
    /// A vector's element count and the position of its first element.
    fn vector(&self, at: usize, elem_size: usize, what: &str) -> Result<(usize, usize)> {
        let v = self.deref(at, what)?;
        let n = self.u32(v, what)? as usize;
        let start = v + 4;
        if n.checked_mul(elem_size)
            .and_then(|s| start.checked_add(s))
            .is_none_or(|end| end > self.buf.len())
        {
            return Err(bad(v, &format!("{what}: {n} elements inside the buffer")));
        }
        Ok((n, start))
    }
    fn string(&self, at: usize, what: &str) -> Result<String> {
        let (n, start) = self.vector(at, 1, what)?;
        let b = self.bytes(start, n, what)?;
        String::from_utf8(b.to_vec()).map_err(|_| bad(start, &format!("{what} as UTF-8")))
    }
    fn strings(&self, at: usize, what: &str) -> Result<Vec<String>> {
        let (n, start) = self.vector(at, 4, what)?;
        (0..n).map(|i| self.string(start + 4 * i, what)).collect()
    }
    /// The tables of a vector of tables.
    fn tables(&self, at: usize, what: &str) -> Result<Vec<usize>> {
        let (n, start) = self.vector(at, 4, what)?;
        (0..n).map(|i| self.deref(start + 4 * i, what)).collect()
    }
}

fn aval(fb: &Fb, t: usize) -> Result<Aval> {
    let shape = match fb.field(t, 1, "an aval shape")? {
        Some(p) => fb.strings(p, "an aval shape")?,
        None => vec![],
    };
    let dtype = match fb.field(t, 2, "an aval dtype")? {
        Some(p) => fb.u8(p, "an aval dtype")?,
        None => 0,
    };
    Ok(Aval { shape, dtype })
}

/// Reads a `jax.export` flatbuffer; refuses serialization formats and calling conventions
/// this reader does not know.
pub fn read(bytes: &[u8]) -> Result<Exported> {
    let fb = Fb { buf: bytes };
    let root = fb.deref(0, "the root table offset")?;
    let u16_field = |slot, what| -> Result<u16> {
        match fb.field(root, slot, what)? {
            Some(p) => fb.u16(p, what),
            None => Ok(0),
        }
    };
    let serialization_version = u16_field(0, "the serialization version")?;
    if !(2..=11).contains(&serialization_version) {
        return Err(Error::unimplemented(format!(
            "jax.export: serialization version {serialization_version} (this reader knows 2 to 11)"
        )));
    }
    let calling_convention_version = u16_field(14, "the calling convention version")?;
    if !CALLING_CONVENTIONS.contains(&calling_convention_version) {
        return Err(Error::unimplemented(format!(
            "jax.export: calling convention version {calling_convention_version} (supported: \
             {} to {})",
            CALLING_CONVENTIONS.start(),
            CALLING_CONVENTIONS.end()
        )));
    }
    let function_name = match fb.field(root, 1, "the function name")? {
        Some(p) => fb.string(p, "the function name")?,
        None => String::new(),
    };
    let avals = |slot, what| -> Result<Vec<Aval>> {
        match fb.field(root, slot, what)? {
            Some(p) => fb
                .tables(p, what)?
                .into_iter()
                .map(|t| aval(&fb, t))
                .collect(),
            None => Ok(vec![]),
        }
    };
    let in_avals = avals(3, "the argument avals")?;
    let out_avals = avals(5, "the result avals")?;
    let platforms = match fb.field(root, 9, "the platforms")? {
        Some(p) => fb.strings(p, "the platforms")?,
        None => vec![],
    };
    let has_ordered_effects = match fb.field(root, 10, "the ordered effects")? {
        Some(p) => fb.vector(p, 4, "the ordered effects")?.0 > 0,
        None => false,
    };
    let module = match fb.field(root, 13, "the module")? {
        Some(p) => {
            let (n, start) = fb.vector(p, 1, "the module bytes")?;
            fb.bytes(start, n, "the module bytes")?.to_vec()
        }
        None => return Err(bad(root, "a serialized module")),
    };
    let module_kept_var_idx = match fb.field(root, 15, "the kept argument indices")? {
        Some(p) => {
            let (n, start) = fb.vector(p, 2, "the kept argument indices")?;
            (0..n)
                .map(|i| {
                    fb.u16(start + 2 * i, "a kept argument index")
                        .map(usize::from)
                })
                .collect::<Result<Vec<_>>>()?
        }
        None => (0..in_avals.len()).collect(),
    };
    let nr_devices = match fb.field(root, 18, "the device count")? {
        Some(p) => fb.u32(p, "the device count")?,
        None => 1,
    };
    Ok(Exported {
        serialization_version,
        calling_convention_version,
        function_name,
        platforms,
        in_avals,
        out_avals,
        module_kept_var_idx,
        nr_devices,
        has_ordered_effects,
        module,
    })
}

/// The module of an export, its `main` taking exactly the exported arguments (see the module
/// documentation), ready for `import`.
pub fn module_of(e: &Exported) -> Result<Module> {
    if e.has_ordered_effects {
        return Err(Error::unimplemented(
            "jax.export: ordered effects (token arguments)",
        ));
    }
    let mut m = crate::bytecode::read_module(&e.module)?;
    let main = m
        .funcs
        .iter_mut()
        .find(|f| f.name == "main")
        .ok_or_else(|| Error::invalid("jax.export: the module has no main function"))?;
    let mut args = std::mem::take(&mut main.args);
    if e.platforms.len() > 1 {
        let idx = e.platforms.iter().position(|p| p == "cpu").ok_or_else(|| {
            Error::unimplemented(format!(
                "jax.export: exported for platforms {:?}, not cpu",
                e.platforms
            ))
        })?;
        if args.is_empty() {
            return Err(Error::invalid("jax.export: no _platform_index argument"));
        }
        let (name, ty) = args.remove(0);
        let constant = Operation {
            results: vec![name],
            name: "stablehlo.constant".into(),
            operands: vec![],
            attrs: vec![(
                "value".into(),
                Attr::Dense {
                    values: vec![DenseValue::Int(idx as i128)],
                    hex_blob: None,
                    ty: Some(ty.clone()),
                },
            )],
            regions: vec![],
            operand_types: vec![],
            result_types: vec![ty],
            line: main.line,
            column: 0,
        };
        if let Some(b) = main.body.blocks.first_mut() {
            b.ops.insert(0, constant);
        }
    } else if e.platforms.first().is_some_and(|p| p != "cpu") {
        return Err(Error::unimplemented(format!(
            "jax.export: exported for platform {}, not cpu",
            e.platforms[0]
        )));
    }
    if args.len() != e.module_kept_var_idx.len() {
        return Err(Error::unimplemented(format!(
            "jax.export: main takes {} arguments for {} kept ones (dimension or token arguments)",
            args.len(),
            e.module_kept_var_idx.len()
        )));
    }
    let mut kept = args.into_iter();
    let mut all = Vec::with_capacity(e.in_avals.len());
    for (i, a) in e.in_avals.iter().enumerate() {
        if e.module_kept_var_idx.contains(&i) {
            all.extend(kept.next());
        } else {
            all.push((format!("unused_arg{i}"), a.tensor_type()?));
        }
    }
    main.args = all.clone();
    if let Some(b) = main.body.blocks.first_mut() {
        b.args = all;
    }
    Ok(m)
}
