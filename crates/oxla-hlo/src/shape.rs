//! Shapes (array, tuple, token), layouts and program shapes.
//!
//! The text form is XLA's: `f32[2,3]{1,0}`, `(f32[2], s32[])`, `f32[<=10]`, `f32[?]`, `token[]`.
//! Parsing lives in `text::parser` (`Shape::from_str`).

use std::fmt;

use crate::error::{Error, Result};
use crate::types::PrimitiveType;

/// Size stored for an unbounded dynamic dimension (`?` in text), as XLA's kUnboundedSize.
pub const UNBOUNDED_SIZE: i64 = i64::MIN;

/// A dense layout, written `{1,0}`: `minor_to_major[0]` is the fastest-varying dimension.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pub minor_to_major: Vec<i64>,
}

impl Layout {
    /// Row-major: `{rank-1, ..., 0}`.
    pub fn row_major(rank: usize) -> Layout {
        Layout {
            minor_to_major: (0..rank as i64).rev().collect(),
        }
    }
    pub fn is_row_major(&self) -> bool {
        self.minor_to_major
            .iter()
            .rev()
            .enumerate()
            .all(|(i, &d)| d == i as i64)
    }
}

/// An array shape: element type, dimension sizes, per-dimension dynamic flags and an optional
/// layout. For a dynamic dimension, `dims[i]` is its upper bound (or `UNBOUNDED_SIZE`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrayShape {
    pub element_type: PrimitiveType,
    pub dims: Vec<i64>,
    pub dynamic: Vec<bool>,
    pub layout: Option<Layout>,
}

impl ArrayShape {
    pub fn new(element_type: PrimitiveType, dims: &[i64]) -> ArrayShape {
        ArrayShape {
            element_type,
            dims: dims.to_vec(),
            dynamic: vec![false; dims.len()],
            layout: None,
        }
    }
    pub fn rank(&self) -> usize {
        self.dims.len()
    }
    /// Number of elements at the static (bound) size.
    pub fn element_count(&self) -> i64 {
        self.dims.iter().map(|&d| d.max(0)).product()
    }
    pub fn is_static(&self) -> bool {
        !self.dynamic.iter().any(|&d| d)
    }
    /// Same element type and dims (dynamic flags and layout ignored).
    pub fn same_dims_and_type(&self, other: &ArrayShape) -> bool {
        self.element_type == other.element_type && self.dims == other.dims
    }
}

/// A shape: an array, a (possibly nested) tuple, or a token.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Array(ArrayShape),
    Tuple(Vec<Shape>),
    Token,
}

impl Shape {
    /// A static array shape without layout.
    pub fn array(element_type: PrimitiveType, dims: &[i64]) -> Shape {
        Shape::Array(ArrayShape::new(element_type, dims))
    }
    pub fn scalar(element_type: PrimitiveType) -> Shape {
        Shape::array(element_type, &[])
    }
    pub fn tuple(elements: Vec<Shape>) -> Shape {
        Shape::Tuple(elements)
    }
    pub fn token() -> Shape {
        Shape::Token
    }
    pub fn is_array(&self) -> bool {
        matches!(self, Shape::Array(_))
    }
    pub fn is_tuple(&self) -> bool {
        matches!(self, Shape::Tuple(_))
    }
    pub fn is_token(&self) -> bool {
        matches!(self, Shape::Token)
    }
    pub fn as_array(&self) -> Option<&ArrayShape> {
        match self {
            Shape::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_array_mut(&mut self) -> Option<&mut ArrayShape> {
        match self {
            Shape::Array(a) => Some(a),
            _ => None,
        }
    }
    /// The array shape, or an InvalidArgument error naming `what`.
    pub fn expect_array(&self, what: &str) -> Result<&ArrayShape> {
        self.as_array()
            .ok_or_else(|| Error::invalid(format!("{what}: expected an array shape, got {self}")))
    }
    pub fn tuple_elements(&self) -> Option<&[Shape]> {
        match self {
            Shape::Tuple(t) => Some(t),
            _ => None,
        }
    }
    /// Element type: the array's, or Tuple / Token.
    pub fn element_type(&self) -> PrimitiveType {
        match self {
            Shape::Array(a) => a.element_type,
            Shape::Tuple(_) => PrimitiveType::Tuple,
            Shape::Token => PrimitiveType::Token,
        }
    }
    /// Dims of an array shape (empty for tuple/token).
    pub fn dims(&self) -> &[i64] {
        match self {
            Shape::Array(a) => &a.dims,
            _ => &[],
        }
    }
    pub fn rank(&self) -> usize {
        self.dims().len()
    }
    pub fn is_scalar(&self) -> bool {
        matches!(self, Shape::Array(a) if a.dims.is_empty())
    }
    pub fn element_count(&self) -> i64 {
        match self {
            Shape::Array(a) => a.element_count(),
            _ => 0,
        }
    }
    /// Equality ignoring layouts (recursively), but not dynamic flags.
    pub fn compatible(&self, other: &Shape) -> bool {
        match (self, other) {
            (Shape::Array(a), Shape::Array(b)) => {
                a.element_type == b.element_type && a.dims == b.dims && a.dynamic == b.dynamic
            }
            (Shape::Tuple(a), Shape::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.compatible(y))
            }
            (Shape::Token, Shape::Token) => true,
            _ => false,
        }
    }
    /// This shape with all layouts removed (recursively).
    pub fn without_layout(&self) -> Shape {
        match self {
            Shape::Array(a) => Shape::Array(ArrayShape {
                layout: None,
                ..a.clone()
            }),
            Shape::Tuple(t) => Shape::Tuple(t.iter().map(|s| s.without_layout()).collect()),
            Shape::Token => Shape::Token,
        }
    }
    /// This shape with a row-major layout on every array (recursively).
    pub fn with_default_layout(&self) -> Shape {
        match self {
            Shape::Array(a) => Shape::Array(ArrayShape {
                layout: Some(Layout::row_major(a.rank())),
                ..a.clone()
            }),
            Shape::Tuple(t) => Shape::Tuple(t.iter().map(|s| s.with_default_layout()).collect()),
            Shape::Token => Shape::Token,
        }
    }
    /// Same dims with a different element type (arrays only; others are returned unchanged).
    pub fn with_element_type(&self, t: PrimitiveType) -> Shape {
        match self {
            Shape::Array(a) => Shape::Array(ArrayShape {
                element_type: t,
                ..a.clone()
            }),
            s => s.clone(),
        }
    }
    /// Sub-shape at a tuple index path.
    pub fn subshape(&self, index: &[usize]) -> Option<&Shape> {
        let mut s = self;
        for &i in index {
            s = s.tuple_elements()?.get(i)?;
        }
        Some(s)
    }
}

fn write_dims(f: &mut fmt::Formatter<'_>, a: &ArrayShape) -> fmt::Result {
    write!(f, "{}[", a.element_type)?;
    for (i, &d) in a.dims.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        let dynamic = a.dynamic.get(i).copied().unwrap_or(false);
        if d == UNBOUNDED_SIZE {
            f.write_str("?")?;
        } else if dynamic {
            write!(f, "<={d}")?;
        } else {
            write!(f, "{d}")?;
        }
    }
    f.write_str("]")
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Array(a) => {
                write_dims(f, a)?;
                if let Some(l) = &a.layout {
                    write!(f, "{l}")?;
                }
                Ok(())
            }
            Shape::Tuple(t) => {
                f.write_str("(")?;
                for (i, s) in t.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{s}")?;
                }
                f.write_str(")")
            }
            Shape::Token => f.write_str("token[]"),
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, d) in self.minor_to_major.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str("}")
    }
}

/// The signature of a computation: parameter shapes and result shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProgramShape {
    pub parameters: Vec<Shape>,
    pub result: Shape,
}

impl fmt::Display for ProgramShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, p) in self.parameters.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        write!(f, ") -> {}", self.result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PrimitiveType::*;

    #[test]
    fn display() {
        let mut s = Shape::array(F32, &[2, 3]).with_default_layout();
        assert_eq!(s.to_string(), "f32[2,3]{1,0}");
        s.as_array_mut().unwrap().dynamic[1] = true;
        assert_eq!(s.to_string(), "f32[2,<=3]{1,0}");
        let t = Shape::tuple(vec![Shape::array(F32, &[2]), Shape::scalar(S32)]);
        assert_eq!(t.to_string(), "(f32[2], s32[])");
        assert_eq!(Shape::Token.to_string(), "token[]");
    }
}
