//! The parsed form of an MLIR module as StableHLO programs use it. Pretty and generic op
//! syntax parse to the same `Operation`, with attributes under their generic names.

use oxla_hlo::op::QuantParams;
use oxla_hlo::PrimitiveType;

#[derive(Clone, Debug, PartialEq)]
pub enum ElemType {
    Prim(PrimitiveType),
    /// `!quant.uniform<storage:expressed, scale:zp>` (per-tensor or per-axis).
    Quant(QuantParams),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// `tensor<2x?x3xf32>`; a dynamic dim is -1 (with an optional bound).
    Tensor {
        dims: Vec<i64>,
        bounds: Vec<Option<i64>>,
        elem: ElemType,
    },
    Token,
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
    Int(i128),
    Float(f64),
    Bool(bool),
    /// A hex literal: raw bits for float types, the value for integers.
    Hex(u128),
    Complex(Box<DenseValue>, Box<DenseValue>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Attr {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(String),
    Unit,
    Symbol(String),
    Array(Vec<Attr>),
    /// `array<i64: 1, 2>` (and i1/bool arrays as 0/1).
    I64Array(Vec<i64>),
    /// `dense<...> : tensor<..>`: the values flattened (one value = splat), or raw bytes.
    Dense {
        values: Vec<DenseValue>,
        hex_blob: Option<Vec<u8>>,
        ty: Option<Type>,
    },
    Dict(Vec<(String, Attr)>),
    /// An enum keyword such as `LT`, `FLOAT`, `THREE_FRY`, `DEFAULT`.
    Enum(String),
    Type(Type),
    /// A `#dialect.name<key = value, ...>` attribute with its fields.
    Struct(String, Vec<(String, Attr)>),
    /// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`
    ConvLabels(Vec<String>, Vec<String>, Vec<String>),
}

impl Attr {
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
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Attr::Bool(b) => Some(*b),
            Attr::Unit => Some(true),
            Attr::Int(i) => Some(*i != 0),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Attr::Str(s) | Attr::Enum(s) | Attr::Symbol(s) => Some(s),
            _ => None,
        }
    }
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
pub struct Block {
    pub args: Vec<(String, Type)>,
    pub ops: Vec<Operation>,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Region {
    pub blocks: Vec<Block>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Operation {
    /// Result names, multi-results expanded (`%x:2` gives `x#0`, `x#1`), without `%`.
    pub results: Vec<String>,
    pub name: String,
    /// Operand names without `%` (`x#1` for a result of a multi-result op).
    pub operands: Vec<String>,
    pub attrs: Vec<(String, Attr)>,
    pub regions: Vec<Region>,
    pub operand_types: Vec<Type>,
    pub result_types: Vec<Type>,
    pub line: usize,
    pub column: usize,
}

impl Operation {
    pub fn attr(&self, name: &str) -> Option<&Attr> {
        self.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    pub name: String,
    pub args: Vec<(String, Type)>,
    /// Each argument's attributes (`{tf.aliasing_output = 0 : i32, jax.buffer_donor = true}`),
    /// one list per argument (empty when it has none; may be shorter than `args`).
    pub arg_attrs: Vec<Vec<(String, Attr)>>,
    pub results: Vec<Type>,
    pub body: Region,
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
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    pub name: Option<String>,
    pub attrs: Vec<(String, Attr)>,
    pub funcs: Vec<Func>,
}
