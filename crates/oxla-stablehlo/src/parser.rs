//! Recursive-descent parser for MLIR text as StableHLO programs use it: modules, functions,
//! regions and blocks, generic (`"stablehlo.add"(%a, %b) : (..) -> ..`) and pretty
//! (`stablehlo.add %a, %b : tensor<4xf32>`) op syntax, types and attributes.
//!
//! Pretty forms are read by one generic item loop (operands, `key = value` pairs, enum
//! keywords, dicts, regions, slice brackets …) and then normalized to the attribute names of
//! the generic form (see `normalize`), so the importer handles a single form.

use oxla_hlo::op::QuantParams;
use oxla_hlo::{Error, PrimitiveType, Result};

use crate::ast::*;

mod pretty;
mod sdy;

/// One value's attributes (an argument's or a result's dictionary).
type AttrList = Vec<(String, Attr)>;

/// The most results one op may declare (`%x:N = ...`).
const MAX_RESULTS: i128 = 1 << 16;

/// How deep attributes, types and regions may nest. A level takes a few KiB of stack;
/// [`parse_module`] runs the parser on a thread whose stack holds this many
/// ([`PARSER_STACK`]), whatever the caller's stack is.
const MAX_NESTING: usize = 4096;

/// Stack for [`parse_module`]'s thread (only the pages it touches are committed).
const PARSER_STACK: usize = 256 << 20;

/// Values that alias uses may copy: this many plus 16 a byte of text. `#a1 = [#a0, #a0]`,
/// `#a2 = [#a1, #a1]` ... doubles with every line, so a few hundred bytes of aliases would
/// otherwise expand to 2^60 values.
const ALIAS_BUDGET_BASE: usize = 1 << 20;

/// MLIR text parser (pretty and generic op syntax).
pub struct Parser<'a> {
    src: &'a str,
    pos: usize,
    /// `#alias = ...` attribute aliases.
    aliases: Vec<(String, Attr)>,
    /// In pretty op bodies the `: type` after `dense<...>` belongs to the op, not the value.
    dense_takes_type: bool,
    /// The last position [`Parser::line_col`] was asked for and its line: every op records
    /// its line, and counting from the start each time made parsing quadratic in the text.
    line_memo: std::cell::Cell<(usize, usize)>,
    /// Attributes, types and regions open around the current position ([`MAX_NESTING`]).
    depth: usize,
    /// Values alias uses may still copy ([`ALIAS_BUDGET_BASE`]).
    alias_budget: usize,
}

/// The number of values in an attribute (itself and everything it holds).
fn attr_size(a: &Attr) -> usize {
    1 + match a {
        Attr::Array(v) => v.iter().map(attr_size).sum(),
        Attr::Dict(v) | Attr::Struct(_, v) => v.iter().map(|(_, x)| attr_size(x)).sum(),
        Attr::Dense {
            values, hex_blob, ..
        } => values.len() + hex_blob.as_ref().map_or(0, |b| b.len() / 8),
        Attr::I64Array(v) => v.len(),
        _ => 0,
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '-')
}

/// The MLIR spelling of an element type (`f32`, `ui8`, `i1`, `complex<f64>`), the inverse
/// of what the parser reads; `None` for types MLIR has no name for (tokens, tuples).
pub fn mlir_element_type(t: PrimitiveType) -> Option<String> {
    const NAMES: &[&str] = &[
        "i1",
        "i2",
        "i4",
        "i8",
        "i16",
        "i32",
        "i64",
        "ui2",
        "ui4",
        "ui8",
        "ui16",
        "ui32",
        "ui64",
        "bf16",
        "f16",
        "f32",
        "f64",
        "f4E2M1FN",
        "f6E2M3FN",
        "f6E3M2FN",
        "f8E3M4",
        "f8E4M3",
        "f8E4M3FN",
        "f8E4M3FNUZ",
        "f8E4M3B11FNUZ",
        "f8E5M2",
        "f8E5M2FNUZ",
        "f8E8M0FNU",
    ];
    match t {
        PrimitiveType::C64 => Some("complex<f32>".into()),
        PrimitiveType::C128 => Some("complex<f64>".into()),
        _ => NAMES
            .iter()
            .find(|n| Parser::elem_type_name(n) == Some(t))
            .map(|n| n.to_string()),
    }
}

impl<'a> Parser<'a> {
    /// A parser at the start of `src`.
    pub fn new(src: &'a str) -> Self {
        Parser {
            src,
            pos: 0,
            aliases: Vec::new(),
            dense_takes_type: true,
            line_memo: std::cell::Cell::new((0, 1)),
            depth: 0,
            alias_budget: ALIAS_BUDGET_BASE.saturating_add(src.len().saturating_mul(16)),
        }
    }

    /// Runs `f` one nesting level deeper, or fails past [`MAX_NESTING`].
    fn nested<T>(&mut self, what: &str, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_NESTING {
            return Err(self.err(format!("{what} nest deeper than {MAX_NESTING} levels")));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    // ---------------------------------------------------------------- low level

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    /// The 1-based line and column of byte `pos`. Lines are counted from the last position
    /// asked for (forwards, or backwards after backtracking), so a pass over the text costs
    /// its length once; the column scans back to the line's start.
    fn line_col(&self, pos: usize) -> (usize, usize) {
        let pos = pos.min(self.src.len());
        let newlines = |a: usize, b: usize| {
            self.src.as_bytes()[a..b]
                .iter()
                .filter(|&&c| c == b'\n')
                .count()
        };
        let (memo_pos, memo_line) = self.line_memo.get();
        let line = if pos >= memo_pos {
            memo_line + newlines(memo_pos, pos)
        } else {
            memo_line - newlines(pos, memo_pos)
        };
        self.line_memo.set((pos, line));
        let before = &self.src[..pos];
        let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        (line, col)
    }

    /// A parse error at the current position.
    pub fn err(&self, msg: impl Into<String>) -> Error {
        let (line, column) = self.line_col(self.pos);
        let found: String = self.rest().chars().take(20).collect();
        Error::Parse {
            line,
            column,
            message: format!("{} (found {:?})", msg.into(), found),
        }
    }

    fn skip_ws(&mut self) {
        loop {
            let r = self.rest();
            let t = r.trim_start();
            self.pos += r.len() - t.len();
            if self.rest().starts_with("//") {
                let end = self.rest().find('\n').unwrap_or(self.rest().len());
                self.pos += end;
            } else {
                break;
            }
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.rest().chars().next()
    }

    fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Eats a keyword only if it is not followed by more identifier characters.
    fn eat_kw(&mut self, kw: &str) -> bool {
        self.skip_ws();
        let r = self.rest();
        if r.starts_with(kw) && !r[kw.len()..].starts_with(is_ident_char) {
            self.pos += kw.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, s: &str) -> Result<()> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.err(format!("expected '{s}'")))
        }
    }

    fn ident(&mut self) -> Result<String> {
        self.skip_ws();
        let r = self.rest();
        let n = r.find(|c: char| !is_ident_char(c)).unwrap_or(r.len());
        if n == 0 {
            return Err(self.err("expected an identifier"));
        }
        self.pos += n;
        Ok(r[..n].to_string())
    }

    /// `%name`, `%name#1` → `name`, `name#1`.
    fn value_name(&mut self) -> Result<String> {
        self.expect("%")?;
        let r = self.rest();
        let n = r
            .find(|c: char| !(is_ident_char(c) || c == '#'))
            .unwrap_or(r.len());
        if n == 0 {
            return Err(self.err("expected a value name after '%'"));
        }
        self.pos += n;
        Ok(r[..n].to_string())
    }

    fn string(&mut self) -> Result<String> {
        self.expect("\"")?;
        let mut out = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => match chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, c)) if c.is_ascii_hexdigit() => {
                        let h2 = chars.next().map(|x| x.1).unwrap_or('0');
                        let v = u8::from_str_radix(&format!("{c}{h2}"), 16).unwrap_or(0);
                        out.push(v as char);
                    }
                    Some((_, c)) => out.push(c),
                    None => break,
                },
                c => out.push(c),
            }
        }
        Err(self.err("unterminated string"))
    }

    /// Skips a balanced `( ... )` group (used for `loc(...)`).
    fn skip_balanced(&mut self, open: char, close: char) -> Result<()> {
        let mut depth = 0usize;
        let mut in_str = false;
        let mut prev = ' ';
        for (i, c) in self.rest().char_indices() {
            if in_str {
                if c == '"' && prev != '\\' {
                    in_str = false;
                }
            } else if c == '"' {
                in_str = true;
            } else if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    self.pos += i + 1;
                    return Ok(());
                }
            }
            prev = c;
        }
        Err(self.err(format!("unbalanced '{open}'")))
    }

    fn skip_loc(&mut self) -> Result<()> {
        self.skip_ws();
        if self.rest().starts_with("loc(") {
            self.pos += 3;
            self.skip_balanced('(', ')')?;
        }
        Ok(())
    }

    fn number(&mut self) -> Result<Attr> {
        self.skip_ws();
        let r = self.rest();
        if r.starts_with("0x") || r.starts_with("0X") {
            let n = 2 + r[2..]
                .find(|c: char| !c.is_ascii_hexdigit())
                .unwrap_or(r.len() - 2);
            let v = u128::from_str_radix(&r[2..n], 16).map_err(|_| self.err("bad hex number"))?;
            self.pos += n;
            return Ok(Attr::Int(v as i128));
        }
        let n = r
            .char_indices()
            .find(|&(i, c)| {
                !(c.is_ascii_digit()
                    || c == '.'
                    || ((c == '-' || c == '+')
                        && (i == 0 || matches!(r.as_bytes()[i - 1], b'e' | b'E')))
                    || c == 'e'
                    || c == 'E')
            })
            .map_or(r.len(), |(i, _)| i);
        let text = &r[..n];
        if text.is_empty() || text == "-" {
            return Err(self.err("expected a number"));
        }
        self.pos += n;
        if let Ok(i) = text.parse::<i128>() {
            return Ok(Attr::Int(i));
        }
        text.parse::<f64>()
            .map(Attr::Float)
            .map_err(|_| self.err(format!("bad number '{text}'")))
    }

    // ---------------------------------------------------------------- types

    fn elem_type_name(name: &str) -> Option<PrimitiveType> {
        use PrimitiveType::*;
        Some(match name {
            "i1" => Pred,
            "i2" | "si2" => S2,
            "i4" | "si4" => S4,
            "i8" | "si8" => S8,
            "i16" | "si16" => S16,
            "i32" | "si32" => S32,
            "i64" | "si64" | "index" => S64,
            "ui2" => U2,
            "ui4" => U4,
            "ui8" => U8,
            "ui16" => U16,
            "ui32" => U32,
            "ui64" => U64,
            "bf16" => BF16,
            "f16" => F16,
            "f32" => F32,
            "f64" => F64,
            "f4E2M1FN" => F4E2M1FN,
            "f6E2M3FN" => F6E2M3FN,
            "f6E3M2FN" => F6E3M2FN,
            "f8E3M4" => F8E3M4,
            "f8E4M3" => F8E4M3,
            "f8E4M3FN" => F8E4M3FN,
            "f8E4M3FNUZ" => F8E4M3FNUZ,
            "f8E4M3B11FNUZ" => F8E4M3B11FNUZ,
            "f8E5M2" => F8E5M2,
            "f8E5M2FNUZ" => F8E5M2FNUZ,
            "f8E8M0FNU" => F8E8M0FNU,
            _ => return None,
        })
    }

    fn elem_type(&mut self) -> Result<ElemType> {
        if self.eat("complex<") {
            let inner = self.ident()?;
            self.expect(">")?;
            return match inner.as_str() {
                "f32" => Ok(ElemType::Prim(PrimitiveType::C64)),
                "f64" => Ok(ElemType::Prim(PrimitiveType::C128)),
                _ => Err(self.err(format!("unsupported complex<{inner}>"))),
            };
        }
        if self.eat("!quant.uniform<") {
            return self.quant_type();
        }
        let start = self.pos;
        let name = self.ident()?;
        Self::elem_type_name(&name)
            .map(ElemType::Prim)
            .ok_or_else(|| {
                self.pos = start;
                self.err(format!("unknown element type '{name}'"))
            })
    }

    /// After `!quant.uniform<`: `i8<-127:127>:f32:1, {0.1:-1, 0.2}>` or `i8:f32, 0.5:-1>`.
    fn quant_type(&mut self) -> Result<ElemType> {
        let st = self.ident()?;
        let storage =
            Self::elem_type_name(&st).ok_or_else(|| self.err("bad quant storage type"))?;
        let (mut lo, mut hi) = oxla_hlo::literal::int_range(storage);
        if self.eat("<") {
            lo = self.number()?.as_int().unwrap_or(lo);
            self.expect(":")?;
            hi = self.number()?.as_int().unwrap_or(hi);
            self.expect(">")?;
        }
        self.expect(":")?;
        let ex = self.ident()?;
        let expressed =
            Self::elem_type_name(&ex).ok_or_else(|| self.err("bad quant expressed type"))?;
        let mut dim = None;
        if self.eat(":") {
            dim = self.number()?.as_int().map(|d| d as i64);
        }
        self.expect(",")?;
        let mut scales = Vec::new();
        let mut zps = Vec::new();
        let braced = self.eat("{");
        loop {
            let s = self
                .number()?
                .as_f64()
                .ok_or_else(|| self.err("bad scale"))?;
            let z = if self.eat(":") {
                self.number()?.as_int().unwrap_or(0) as i64
            } else {
                0
            };
            scales.push(s);
            zps.push(z);
            if !braced || !self.eat(",") {
                break;
            }
        }
        if braced {
            self.expect("}")?;
        }
        self.expect(">")?;
        Ok(ElemType::Quant(QuantParams {
            storage_type: storage,
            storage_min: lo as i64,
            storage_max: hi as i64,
            expressed_type: expressed,
            scales,
            zero_points: zps,
            quantized_dimension: dim,
        }))
    }

    /// Parses a type.
    pub fn ty(&mut self) -> Result<Type> {
        self.nested("types", Self::ty_here)
    }

    fn ty_here(&mut self) -> Result<Type> {
        self.skip_ws();
        if self.eat("!stablehlo.token") {
            return Ok(Type::Token);
        }
        if self.eat("tuple<") {
            let mut v = Vec::new();
            if !self.eat(">") {
                loop {
                    v.push(self.ty()?);
                    if self.eat(">") {
                        break;
                    }
                    self.expect(",")?;
                }
            }
            return Ok(Type::Tuple(v));
        }
        if self.eat("tensor<") {
            let mut dims = Vec::new();
            loop {
                self.skip_ws();
                let r = self.rest();
                if r.starts_with('?') {
                    self.pos += 1;
                    dims.push(-1);
                } else if r.starts_with(|c: char| c.is_ascii_digit()) {
                    let n = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
                    dims.push(r[..n].parse().map_err(|_| self.err("bad dimension"))?);
                    self.pos += n;
                } else {
                    break;
                }
                if !self.eat("x") {
                    return Err(self.err("expected 'x' after a dimension"));
                }
            }
            let elem = self.elem_type()?;
            let mut bounds = vec![None; dims.len()];
            if self.eat(",") {
                // #stablehlo.bounds<4, ?> or another encoding.
                if self.eat("#stablehlo.bounds<") {
                    for b in bounds.iter_mut() {
                        if !self.eat("?") {
                            *b = self.number()?.as_int().map(|v| v as i64);
                        }
                        self.eat(",");
                    }
                    self.expect(">")?;
                } else {
                    self.skip_ws();
                    self.skip_balanced('<', '>').ok();
                }
            }
            self.expect(">")?;
            return Ok(Type::Tensor { dims, bounds, elem });
        }
        if self.peek() == Some('(') {
            let ins = self.type_list_parens()?;
            self.expect("->")?;
            let outs = self.result_types()?;
            return Ok(Type::Function(ins, outs));
        }
        // A bare element type used as a type (e.g. in attributes `: i64`).
        let e = self.elem_type()?;
        Ok(Type::Tensor {
            dims: vec![],
            bounds: vec![],
            elem: e,
        })
    }

    fn type_list_parens(&mut self) -> Result<Vec<Type>> {
        Ok(self.type_list_parens_with_attrs()?.0)
    }

    /// `(type {attrs}, ...)`: the types and each one's attributes.
    fn type_list_parens_with_attrs(&mut self) -> Result<(Vec<Type>, Vec<AttrList>)> {
        self.expect("(")?;
        let (mut v, mut attrs) = (Vec::new(), Vec::new());
        if self.eat(")") {
            return Ok((v, attrs));
        }
        loop {
            v.push(self.ty()?);
            attrs.push(self.arg_attrs()?);
            if self.eat(")") {
                return Ok((v, attrs));
            }
            self.expect(",")?;
        }
    }

    /// An argument's optional attribute dictionary (and location).
    fn arg_attrs(&mut self) -> Result<Vec<(String, Attr)>> {
        let attrs = if self.peek() == Some('{') {
            self.attr_dict()?
        } else {
            Vec::new()
        };
        self.skip_loc()?;
        Ok(attrs)
    }

    fn result_types(&mut self) -> Result<Vec<Type>> {
        Ok(self.result_types_with_attrs()?.0)
    }

    /// A function's result types with each one's attributes.
    fn result_types_with_attrs(&mut self) -> Result<(Vec<Type>, Vec<AttrList>)> {
        if self.peek() == Some('(') {
            self.type_list_parens_with_attrs()
        } else {
            Ok((vec![self.ty()?], vec![]))
        }
    }

    // ---------------------------------------------------------------- attributes

    /// Parses an attribute dictionary `{k = v, ...}`.
    pub fn attr_dict(&mut self) -> Result<Vec<(String, Attr)>> {
        self.expect("{")?;
        let mut v = Vec::new();
        if self.eat("}") {
            return Ok(v);
        }
        loop {
            self.skip_ws();
            let key = if self.peek() == Some('"') {
                self.string()?
            } else {
                self.ident()?
            };
            let val = if self.eat("=") {
                self.attr()?
            } else {
                Attr::Unit
            };
            v.push((key, val));
            if self.eat("}") {
                return Ok(v);
            }
            self.expect(",")?;
        }
    }

    fn dense(&mut self) -> Result<Attr> {
        // after `dense<`
        self.skip_ws();
        let mut values = Vec::new();
        let mut hex_blob = None;
        if self.rest().starts_with('"') {
            let s = self.string()?;
            let h = s.trim_start_matches("0x").trim_start_matches("0X");
            let bytes = (0..h.len() / 2)
                .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16))
                .collect::<std::result::Result<Vec<u8>, _>>()
                .map_err(|_| self.err("bad hex blob"))?;
            hex_blob = Some(bytes);
        } else if !self.rest().starts_with('>') {
            self.dense_values(&mut values)?;
        }
        self.expect(">")?;
        let ty = if self.dense_takes_type && self.eat(":") {
            Some(self.ty()?)
        } else {
            None
        };
        Ok(Attr::Dense {
            values,
            hex_blob,
            ty,
        })
    }

    fn dense_scalar(&mut self) -> Result<DenseValue> {
        self.skip_ws();
        let r = self.rest();
        if self.eat_kw("true") {
            return Ok(DenseValue::Bool(true));
        }
        if self.eat_kw("false") {
            return Ok(DenseValue::Bool(false));
        }
        if r.starts_with('(') {
            self.pos += 1;
            let re = self.dense_scalar()?;
            self.expect(",")?;
            let im = self.dense_scalar()?;
            self.expect(")")?;
            return Ok(DenseValue::Complex(Box::new(re), Box::new(im)));
        }
        for (kw, v) in [
            ("inf", f64::INFINITY),
            ("-inf", f64::NEG_INFINITY),
            ("nan", f64::NAN),
            ("-nan", -f64::NAN),
        ] {
            if self.eat_kw(kw) {
                return Ok(DenseValue::Float(v));
            }
        }
        if r.starts_with("0x") || r.starts_with("0X") {
            let a = self.number()?;
            return Ok(DenseValue::Hex(a.as_int().unwrap_or(0) as u128));
        }
        match self.number()? {
            Attr::Int(i) => Ok(DenseValue::Int(i)),
            Attr::Float(f) => Ok(DenseValue::Float(f)),
            _ => Err(self.err("bad dense element")),
        }
    }

    fn dense_values(&mut self, out: &mut Vec<DenseValue>) -> Result<()> {
        if self.eat("[") {
            if self.eat("]") {
                return Ok(());
            }
            loop {
                self.dense_values(out)?;
                if self.eat("]") {
                    return Ok(());
                }
                self.expect(",")?;
            }
        }
        out.push(self.dense_scalar()?);
        Ok(())
    }

    /// `#name<...>` structured attributes with `key = value` fields.
    fn struct_attr(&mut self, name: String) -> Result<Attr> {
        // after `#name<`
        let mut fields = Vec::new();
        if self.eat(">") {
            return Ok(Attr::Struct(name, fields));
        }
        if self.peek() == Some('[') {
            // #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
            let a = self.attr()?;
            self.expect(">")?;
            return Ok(a);
        }
        // Enum-style: #stablehlo<comparison_direction LT>
        let start = self.pos;
        if let Ok(first) = self.ident() {
            if !self.rest().trim_start().starts_with('=') && self.peek() != Some(',') {
                self.skip_ws();
                if self.rest().starts_with('>') {
                    self.pos += 1;
                    return Ok(Attr::Enum(first));
                }
                // `#stablehlo<comparison_direction LT>` is the enum value LT.
                let val = self.ident()?;
                self.expect(">")?;
                return Ok(Attr::Enum(val));
            }
            self.pos = start;
        } else {
            self.pos = start;
        }
        loop {
            let key = self.ident()?;
            self.expect("=")?;
            let val = self.attr()?;
            // `lhs_batching_dimensions = [0]` style lists or plain values.
            fields.push((key, val));
            if self.eat(">") {
                return Ok(Attr::Struct(name, fields));
            }
            self.expect(",")?;
        }
    }

    /// Skips a balanced `<...>` (strings, nested brackets and `->` arrows inside) and
    /// returns its text without the outer brackets.
    fn opaque_angle_body(&mut self) -> Result<String> {
        let start = self.pos;
        let bytes = self.src.as_bytes();
        let mut depth = 0usize;
        let mut i = self.pos;
        while i < bytes.len() {
            match bytes[i] {
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'<' | b'(' | b'[' | b'{' => depth += 1,
                b'>' if i > 0 && bytes[i - 1] == b'-' => {}
                b'>' | b')' | b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.pos = i + 1;
                        return Ok(self.src[start + 1..i].to_string());
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Err(self.err("unterminated `<` in a dialect attribute"))
    }

    /// The name after `@`: an identifier, or a quoted string (`@"<lambda>"`, as JAX writes
    /// names that are not identifiers).
    fn symbol_name(&mut self) -> Result<String> {
        if self.rest().starts_with('"') {
            self.string()
        } else {
            self.ident()
        }
    }

    /// Parses an attribute value.
    pub fn attr(&mut self) -> Result<Attr> {
        self.nested("attributes", Self::attr_here)
    }

    fn attr_here(&mut self) -> Result<Attr> {
        self.skip_ws();
        let r = self.rest();
        if self.eat("dense<") {
            return self.dense();
        }
        if self.eat("dense_resource<") {
            return Err(self.err("dense_resource attributes are not supported"));
        }
        if self.eat("array<") {
            let _t = self.ident()?;
            let mut v = Vec::new();
            if self.eat(":") {
                loop {
                    self.skip_ws();
                    if self.eat_kw("true") {
                        v.push(1);
                    } else if self.eat_kw("false") {
                        v.push(0);
                    } else {
                        v.push(self.number()?.as_int().unwrap_or(0) as i64);
                    }
                    if !self.eat(",") {
                        break;
                    }
                }
            }
            self.expect(">")?;
            return Ok(Attr::I64Array(v));
        }
        if r.starts_with('"') {
            let s = self.string()?;
            self.skip_scalar_type_annotation()?;
            return Ok(Attr::Str(s));
        }
        if r.starts_with('@') {
            self.pos += 1;
            let s = self.symbol_name()?;
            return Ok(Attr::Symbol(s));
        }
        if r.starts_with('[') {
            // A list, or conv labels `[b, 0, 1, f]x[...]->[...]`.
            self.pos += 1;
            let mut items = Vec::new();
            if !self.eat("]") {
                loop {
                    items.push(self.attr()?);
                    if self.eat("]") {
                        break;
                    }
                    self.expect(",")?;
                }
            }
            if self.rest().starts_with("x[") {
                let labels = |v: &[Attr]| -> Vec<String> {
                    v.iter()
                        .map(|a| match a {
                            Attr::Int(i) => i.to_string(),
                            Attr::Enum(s) => s.clone(),
                            _ => String::new(),
                        })
                        .collect()
                };
                self.pos += 1;
                let k = match self.attr()? {
                    Attr::Array(v) => labels(&v),
                    _ => return Err(self.err("bad kernel labels")),
                };
                self.expect("->")?;
                let o = match self.attr()? {
                    Attr::Array(v) => labels(&v),
                    _ => return Err(self.err("bad output labels")),
                };
                return Ok(Attr::ConvLabels(labels(&items), k, o));
            }
            return Ok(Attr::Array(items));
        }
        if r.starts_with('{') {
            return Ok(Attr::Dict(self.attr_dict()?));
        }
        if r.starts_with('<') {
            self.pos += 1;
            return self.struct_attr(String::new());
        }
        if r.starts_with('#') {
            self.pos += 1;
            let name = self.ident()?;
            if name.starts_with("sdy.") && self.rest().starts_with('<') {
                return self.sdy_attr(name);
            }
            if self.eat("<") {
                return self.struct_attr(name);
            }
            let v = self
                .aliases
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| self.err(format!("unknown attribute alias #{name}")))?;
            let n = attr_size(&v);
            if n > self.alias_budget {
                return Err(self.err(format!(
                    "attribute aliases expand to too many values (#{name} holds {n}; aliases \
                     that use other aliases many times over)"
                )));
            }
            self.alias_budget -= n;
            return Ok(v);
        }
        if self.eat_kw("true") {
            return Ok(Attr::Bool(true));
        }
        if self.eat_kw("false") {
            return Ok(Attr::Bool(false));
        }
        if self.eat_kw("unit") {
            return Ok(Attr::Unit);
        }
        if r.starts_with("tensor<")
            || r.starts_with("!")
            || r.starts_with("tuple<")
            || r.starts_with('(')
        {
            return Ok(Attr::Type(self.ty()?));
        }
        if r.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
            let n = self.number()?;
            // `1 : i64` annotates the number; `: tensor<..>` after a pretty op's inline
            // attribute is the op's type and is left alone.
            let save = self.pos;
            if self.eat(":") {
                self.skip_ws();
                let r = self.rest();
                if r.starts_with("tensor<")
                    || r.starts_with('(')
                    || r.starts_with('!')
                    || r.starts_with("tuple<")
                {
                    self.pos = save;
                } else {
                    self.ty()?;
                }
            }
            return Ok(n);
        }
        if r.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            let id = self.ident()?;
            return Ok(Attr::Enum(id));
        }
        Err(self.err("expected an attribute value"))
    }

    /// `1 : i64` / `"s" : T` annotate a value; `: tensor<..>` after a pretty op's inline
    /// attribute is the op's type and is left alone.
    fn skip_scalar_type_annotation(&mut self) -> Result<()> {
        let save = self.pos;
        if self.eat(":") {
            self.skip_ws();
            let r = self.rest();
            if r.starts_with("tensor<")
                || r.starts_with('(')
                || r.starts_with('!')
                || r.starts_with("tuple<")
            {
                self.pos = save;
            } else {
                self.ty()?;
            }
        }
        Ok(())
    }

    /// `"builtin.module"() <{sym_name = ..}> ({ "func.func"() <{..}> ({..}) : () -> () })`.
    fn generic_module(&mut self) -> Result<Module> {
        let op = self.op()?;
        crate::module_op::module_from_op(op, "generic builtin.module")
    }

    // ---------------------------------------------------------------- structure

    /// Parses a whole file chunk: an explicit `module` or bare functions.
    pub fn module(&mut self) -> Result<Module> {
        let mut m = Module::default();
        self.top_level_aliases()?;
        if self.rest().trim_start().starts_with("\"builtin.module\"") {
            let m = self.generic_module()?;
            self.top_level_aliases()?;
            self.skip_ws();
            if !self.rest().is_empty() {
                return Err(self.err("unexpected text after the module"));
            }
            return Ok(m);
        }
        if self.eat_kw("module") {
            self.skip_ws();
            if self.rest().starts_with('@') {
                self.pos += 1;
                m.name = Some(self.symbol_name()?);
            }
            if self.eat_kw("attributes") {
                m.attrs = self.attr_dict()?;
            }
            self.expect("{")?;
            self.funcs_until(&mut m, true)?;
            self.skip_loc()?;
            self.top_level_aliases()?;
        } else {
            self.funcs_until(&mut m, false)?;
        }
        self.skip_ws();
        if !self.rest().is_empty() {
            return Err(self.err("unexpected text after the module"));
        }
        Ok(m)
    }

    fn top_level_aliases(&mut self) -> Result<()> {
        loop {
            self.skip_ws();
            if !self.rest().starts_with('#') {
                return Ok(());
            }
            self.pos += 1;
            let name = self.ident()?;
            self.expect("=")?;
            self.skip_ws();
            if self.rest().starts_with("loc(") {
                self.skip_loc()?;
                continue;
            }
            let v = self.attr()?;
            self.aliases.push((name, v));
        }
    }

    fn funcs_until(&mut self, m: &mut Module, closing_brace: bool) -> Result<()> {
        loop {
            self.top_level_aliases()?;
            self.skip_ws();
            if closing_brace && self.eat("}") {
                return Ok(());
            }
            if self.rest().is_empty() {
                if closing_brace {
                    return Err(self.err("expected '}' closing the module"));
                }
                return Ok(());
            }
            if self.eat_kw("func.func") {
                m.funcs.push(self.func()?);
            } else if self.eat_kw("sdy.mesh") {
                m.meshes.push(self.sdy_mesh_op()?);
            } else {
                return Err(self.err("expected 'func.func'"));
            }
        }
    }

    fn func(&mut self) -> Result<Func> {
        let (line, _) = self.line_col(self.pos);
        self.eat_kw("public");
        self.eat_kw("private");
        self.eat_kw("nested");
        self.expect("@")?;
        let name = self.symbol_name()?;
        self.expect("(")?;
        let mut args = Vec::new();
        let mut arg_attrs = Vec::new();
        if !self.eat(")") {
            loop {
                let n = self.value_name()?;
                self.expect(":")?;
                let t = self.ty()?;
                arg_attrs.push(self.arg_attrs()?);
                args.push((n, t));
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        let (results, res_attrs) = if self.eat("->") {
            self.result_types_with_attrs()?
        } else {
            (vec![], vec![])
        };
        if self.eat_kw("attributes") {
            self.attr_dict()?;
        }
        let body = self.region()?;
        self.skip_loc()?;
        Ok(Func {
            name,
            args,
            arg_attrs,
            results,
            res_attrs,
            body,
            line,
        })
    }

    /// Parses a region `{ ... }`.
    pub fn region(&mut self) -> Result<Region> {
        self.nested("regions", Self::region_here)
    }

    fn region_here(&mut self) -> Result<Region> {
        self.expect("{")?;
        let mut blocks = Vec::new();
        let mut cur = Block::default();
        loop {
            self.skip_ws();
            if self.eat("}") {
                blocks.push(cur);
                return Ok(Region { blocks });
            }
            if self.rest().starts_with('^') {
                if !cur.ops.is_empty() || !cur.args.is_empty() {
                    blocks.push(std::mem::take(&mut cur));
                }
                self.pos += 1;
                self.ident()?;
                if self.eat("(") && !self.eat(")") {
                    loop {
                        let n = self.value_name()?;
                        self.expect(":")?;
                        let t = self.ty()?;
                        self.skip_loc()?;
                        cur.args.push((n, t));
                        if self.eat(")") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                self.expect(":")?;
                continue;
            }
            if self.rest().is_empty() {
                return Err(self.err("expected '}' closing a region"));
            }
            cur.ops.push(self.op()?);
        }
    }

    fn op(&mut self) -> Result<Operation> {
        self.skip_ws();
        let (line, column) = self.line_col(self.pos);
        let mut results = Vec::new();
        if self.rest().starts_with('%') {
            loop {
                let n = self.value_name()?;
                if self.eat(":") {
                    let k = self.number()?.as_int().unwrap_or(1);
                    // A result group names its results one by one: bound the count so a
                    // malformed `%x:1000000000` is an error, not gigabytes of names.
                    if !(0..=MAX_RESULTS).contains(&k) {
                        return Err(self.err(format!(
                            "result group {n}:{k}: expected 0 to {MAX_RESULTS} results"
                        )));
                    }
                    for i in 0..k {
                        results.push(format!("{n}#{i}"));
                    }
                } else {
                    results.push(n);
                }
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("=")?;
        }
        self.skip_ws();
        let mut op = if self.rest().starts_with('"') {
            let name = self.string()?;
            self.generic_op(name)?
        } else {
            let name = self.ident()?;
            self.pretty_op(name)?
        };
        self.skip_loc()?;
        op.results = results;
        op.line = line;
        op.column = column;
        crate::normalize::normalize(&mut op).map_err(|e| match e {
            Error::Parse { message, .. } => Error::Parse {
                line,
                column,
                message,
            },
            e => e,
        })?;
        Ok(op)
    }

    fn new_op(name: String) -> Operation {
        Operation {
            results: vec![],
            name,
            operands: vec![],
            attrs: vec![],
            regions: vec![],
            operand_types: vec![],
            result_types: vec![],
            line: 0,
            column: 0,
        }
    }

    fn operand_list(&mut self, op: &mut Operation) -> Result<()> {
        self.expect("(")?;
        if self.eat(")") {
            return Ok(());
        }
        loop {
            op.operands.push(self.value_name()?);
            if self.eat(")") {
                return Ok(());
            }
            self.expect(",")?;
        }
    }

    fn generic_op(&mut self, name: String) -> Result<Operation> {
        let mut op = Self::new_op(name);
        self.operand_list(&mut op)?;
        if self.eat("<{") {
            self.pos -= 1;
            op.attrs.extend(self.attr_dict()?);
            self.expect(">")?;
        }
        if self.eat("(") {
            loop {
                op.regions.push(self.region()?);
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        if self.peek() == Some('{') {
            op.attrs.extend(self.attr_dict()?);
        }
        self.expect(":")?;
        let ft = self.ty()?;
        match ft {
            Type::Function(i, o) => {
                op.operand_types = i;
                op.result_types = o;
            }
            _ => return Err(self.err("expected a function type '(...) -> ...'")),
        }
        Ok(op)
    }

    fn generic_rest(&mut self, op: Operation) -> Result<Operation> {
        self.generic_op(op.name)
    }
}

/// Parses one module (one split chunk).
pub fn parse_module(text: &str) -> Result<Module> {
    // On a thread of its own: nesting up to MAX_NESTING needs more stack than a caller's
    // thread may have.
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("oxla-mlir-text".into())
            .stack_size(PARSER_STACK)
            .spawn_scoped(s, || Parser::new(text).module())
            .map_err(|e| Error::invalid(format!("MLIR text: no parser thread: {e}")))?
            .join()
            .unwrap_or_else(|_| Err(Error::invalid("MLIR text: the parser stopped unexpectedly")))
    })
}

/// Splits a file as MLIR's `-split-input-file` does: at every `// -----` (even mid-line,
/// e.g. `// // -----`). Returns (first line number, chunk) for chunks with a `func.func`.
pub fn split_input_file(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut line = 1;
    for chunk in text.split("// -----") {
        let start = line;
        line += chunk.matches('\n').count();
        if chunk.contains("func.func") {
            out.push((start, chunk.to_string()));
        }
    }
    out
}
