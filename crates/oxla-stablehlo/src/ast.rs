//! The parsed form of an MLIR module as StableHLO programs use it. Pretty and generic op
//! syntax parse to the same `Operation`, with attributes under their generic names.

use oxla_hlo::op::QuantParams;
use oxla_hlo::PrimitiveType;

#[derive(Clone, Debug, PartialEq)]
/// An element type: a primitive type or a quantized type.
pub enum ElemType {
    /// A primitive element type.
    Prim(PrimitiveType),
    /// `!quant.uniform<storage:expressed, scale:zp>` (per-tensor or per-axis).
    Quant(QuantParams),
}

#[derive(Clone, Debug, PartialEq)]
/// An MLIR type as StableHLO programs use it.
pub enum Type {
    /// `tensor<2x?x3xf32>`; a dynamic dim is -1 (with an optional bound).
    Tensor {
        /// Dimension sizes.
        dims: Vec<i64>,
        /// Per dimension, the bound of a dynamic size (if given).
        bounds: Vec<Option<i64>>,
        /// The element type.
        elem: ElemType,
    },
    /// `!stablehlo.token`.
    Token,
    /// `tuple<...>`.
    Tuple(Vec<Type>),
    /// `(a, b) -> c` as an attribute value (function_type).
    Function(Vec<Type>, Vec<Type>),
    /// A type Oxla has no use for (unranked tensors, `none`, buffers...), described in text;
    /// read so that a module decodes, refused where a value needs it.
    Unsupported(String),
}

/// One element of a `dense<...>` literal, before it is given a type.
#[derive(Clone, Debug, PartialEq)]
pub enum DenseValue {
    /// An integer.
    Int(i128),
    /// A float.
    Float(f64),
    /// `true` / `false`.
    Bool(bool),
    /// A hex literal: raw bits for float types, the value for integers.
    Hex(u128),
    /// A complex number `(re, im)`.
    Complex(Box<DenseValue>, Box<DenseValue>),
}

#[derive(Clone, Debug, PartialEq)]
/// An attribute value.
pub enum Attr {
    /// An integer (`1 : i64`).
    Int(i128),
    /// A float.
    Float(f64),
    /// `true` / `false`.
    Bool(bool),
    /// A string.
    Str(String),
    /// `unit`: present without a value.
    Unit,
    /// A symbol reference `@name`.
    Symbol(String),
    /// `[a, b, ...]`.
    Array(Vec<Attr>),
    /// `array<i64: 1, 2>` (and i1/bool arrays as 0/1).
    I64Array(Vec<i64>),
    /// `dense<...> : tensor<..>`: the values flattened (one value = splat), or raw bytes.
    Dense {
        /// The values, flattened (one value is a splat).
        values: Vec<DenseValue>,
        /// The raw bytes of a hex blob (`dense<"0x...">`).
        hex_blob: Option<Vec<u8>>,
        /// The tensor type after the literal, if any.
        ty: Option<Type>,
    },
    /// `{key = value, ...}`.
    Dict(Vec<(String, Attr)>),
    /// An enum keyword such as `LT`, `FLOAT`, `THREE_FRY`, `DEFAULT`.
    Enum(String),
    /// A type used as an attribute.
    Type(Type),
    /// A `#dialect.name<key = value, ...>` attribute with its fields.
    Struct(String, Vec<(String, Attr)>),
    /// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`
    ConvLabels(Vec<String>, Vec<String>, Vec<String>),
}

impl Attr {
    /// The value of an integer (or bool, or one-element dense integer) attribute.
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Attr::Int(i) => Some(*i),
            Attr::Bool(b) => Some(*b as i128),
            Attr::Dense { values, .. } if values.len() == 1 => match &values[0] {
                DenseValue::Int(i) => Some(*i),
                DenseValue::Hex(h) => Some(*h as i128),
                _ => None,
            },
            _ => None,
        }
    }
    /// A list of integers from `array<i64: ...>`, `[1, 2]` or `dense<[1, 2]>`.
    pub fn as_ints(&self) -> Option<Vec<i64>> {
        match self {
            Attr::I64Array(v) => Some(v.clone()),
            Attr::Array(v) => v.iter().map(|a| a.as_int().map(|i| i as i64)).collect(),
            Attr::Dense { values, .. } => values
                .iter()
                .map(|v| match v {
                    DenseValue::Int(i) => Some(*i as i64),
                    DenseValue::Bool(b) => Some(*b as i64),
                    DenseValue::Hex(h) => Some(*h as i64),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }
    /// The value of a bool attribute (or integer 0 / 1).
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Attr::Bool(b) => Some(*b),
            Attr::Unit => Some(true),
            Attr::Int(i) => Some(*i != 0),
            _ => None,
        }
    }
    /// The text of a string, symbol or enum attribute.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Attr::Str(s) | Attr::Enum(s) | Attr::Symbol(s) => Some(s),
            _ => None,
        }
    }
    /// The value of a float (or integer) attribute.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Attr::Float(f) => Some(*f),
            Attr::Int(i) => Some(*i as f64),
            _ => None,
        }
    }
    /// A field of a `Struct` or `Dict`.
    pub fn field(&self, name: &str) -> Option<&Attr> {
        match self {
            Attr::Struct(_, f) | Attr::Dict(f) => f.iter().find(|(k, _)| k == name).map(|(_, v)| v),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
/// A block: its arguments and operations.
pub struct Block {
    /// Argument names (without `%`) and types.
    pub args: Vec<(String, Type)>,
    /// The operations in order.
    pub ops: Vec<Operation>,
}

#[derive(Clone, Debug, PartialEq, Default)]
/// A region: its blocks (StableHLO regions have one).
pub struct Region {
    /// The blocks.
    pub blocks: Vec<Block>,
}

#[derive(Clone, Debug, PartialEq)]
/// One operation, from the pretty or the generic syntax.
pub struct Operation {
    /// Result names, multi-results expanded (`%x:2` gives `x#0`, `x#1`), without `%`.
    pub results: Vec<String>,
    /// The op name with its dialect (`stablehlo.add`).
    pub name: String,
    /// Operand names without `%` (`x#1` for a result of a multi-result op).
    pub operands: Vec<String>,
    /// Attributes under their generic names.
    pub attrs: Vec<(String, Attr)>,
    /// Nested regions (bodies, branches, reducers).
    pub regions: Vec<Region>,
    /// Operand types.
    pub operand_types: Vec<Type>,
    /// Result types.
    pub result_types: Vec<Type>,
    /// Source line (1-based).
    pub line: usize,
    /// Source column (1-based).
    pub column: usize,
}

impl Operation {
    /// The attribute `name`, if present.
    pub fn attr(&self, name: &str) -> Option<&Attr> {
        self.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
}

#[derive(Clone, Debug, PartialEq)]
/// A function (`func.func`).
pub struct Func {
    /// The symbol name.
    pub name: String,
    /// Argument names (without `%`) and types.
    pub args: Vec<(String, Type)>,
    /// Each argument's attributes (`{tf.aliasing_output = 0 : i32, jax.buffer_donor = true}`),
    /// one list per argument (empty when it has none; may be shorter than `args`).
    pub arg_attrs: Vec<Vec<(String, Attr)>>,
    /// Result types.
    pub results: Vec<Type>,
    /// Each result's attributes (`{jax.result_info = "", sdy.sharding = ...}`), one list per
    /// result (may be shorter than `results`).
    pub res_attrs: Vec<Vec<(String, Attr)>>,
    /// The body.
    pub body: Region,
    /// Source line (1-based).
    pub line: usize,
}

impl Func {
    /// The attribute `name` of argument `i`.
    pub fn arg_attr(&self, i: usize, name: &str) -> Option<&Attr> {
        self.arg_attrs
            .get(i)?
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }

    /// The attribute `name` of result `i`.
    pub fn res_attr(&self, i: usize, name: &str) -> Option<&Attr> {
        self.res_attrs
            .get(i)?
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
/// A parsed module: its functions.
pub struct Module {
    /// The module's symbol name, if any.
    pub name: Option<String>,
    /// Module attributes.
    pub attrs: Vec<(String, Attr)>,
    /// The functions, in source order.
    pub funcs: Vec<Func>,
    /// Shardy's device meshes (`sdy.mesh @name = <...>`): name and `sdy.mesh` attribute
    /// (see [`crate::sdy`]).
    pub meshes: Vec<(String, Attr)>,
}
