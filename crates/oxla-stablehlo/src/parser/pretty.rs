//! The pretty op syntax: one generic item loop (operands, `key = value` pairs, enum
//! keywords, dicts, regions, slice brackets …) for most ops, and the custom forms of
//! `stablehlo.while`, returns, reducers and slices. The results are normalized to the
//! generic form's attribute names afterwards (see `normalize`).

use oxla_hlo::Result;

use super::Parser;
use crate::ast::*;

impl<'a> Parser<'a> {
    /// Reads the trailing `: types` of a pretty op.
    pub(super) fn pretty_types(&mut self, op: &mut Operation) -> Result<()> {
        if !self.eat(":") {
            return Ok(());
        }
        self.skip_ws();
        if self.rest().starts_with('(') {
            let save = self.pos;
            let ins = self.type_list_parens()?;
            if self.eat("->") {
                op.operand_types = ins;
                op.result_types = self.result_types()?;
                return Ok(());
            }
            self.pos = save;
        }
        let mut ts = vec![self.ty()?];
        while self.eat(",") {
            ts.push(self.ty()?);
        }
        // CHLO's `: operand_type -> result_type`.
        if self.eat("->") {
            op.operand_types = ts;
            op.result_types = self.result_types()?;
            return Ok(());
        }
        // `stablehlo.select %p, %a, %b : pred_type, value_type`.
        if op.name == "stablehlo.select" && ts.len() == 2 {
            op.operand_types = vec![ts[0].clone(), ts[1].clone(), ts[1].clone()];
            op.result_types = vec![ts[1].clone()];
            return Ok(());
        }
        // `: t` means every operand and result has type t (or the listed types in order).
        op.operand_types = if ts.len() == op.operands.len() {
            ts.clone()
        } else {
            vec![ts[0].clone(); op.operands.len()]
        };
        op.result_types = ts;
        Ok(())
    }

    pub(super) fn pretty_op(&mut self, name: String) -> Result<Operation> {
        if let Some(op) = self.sdy_pretty_op(&name) {
            return op;
        }
        let mut op = Self::new_op(name.clone());
        match name.as_str() {
            "stablehlo.while" => return self.pretty_while(op),
            "func.return" | "return" | "stablehlo.return" | "sdy.return" => {
                while self.peek() == Some('%') {
                    op.operands.push(self.value_name()?);
                    if !self.eat(",") {
                        break;
                    }
                }
                self.pretty_types(&mut op)?;
                return Ok(op);
            }
            _ => {}
        }
        let mut positional_enums = Vec::new();
        loop {
            self.skip_ws();
            let r = self.rest();
            if r.starts_with(':') || r.is_empty() || r.starts_with('}') || r.starts_with('\n') {
                break;
            }
            if r.starts_with("loc(") {
                break;
            }
            if r.starts_with('%') {
                op.operands.push(self.value_name()?);
                if self.rest().starts_with('[') {
                    self.pos += 1;
                    let i = self.number()?;
                    self.expect("]")?;
                    op.attrs.push(("index".into(), i));
                }
            } else if r.starts_with(',') {
                self.pos += 1;
            } else if r.starts_with("dense<") {
                self.dense_takes_type = false;
                let a = self.attr();
                self.dense_takes_type = true;
                op.attrs.push(("value".into(), a?));
            } else if r.starts_with('(') {
                self.pretty_parens(&mut op)?;
            } else if let Some(rest) = r.strip_prefix('{') {
                // A region body (`{ ^bb0(...): ...}` or `{ %x = ...}`) or an attribute dict.
                let inner = rest.trim_start();
                if inner.starts_with('^') || inner.starts_with('%') {
                    op.regions.push(self.region()?);
                } else {
                    op.attrs.extend(self.attr_dict()?);
                }
            } else if r.starts_with('[') {
                self.slice_spec(&mut op)?;
            } else if r.starts_with('@') {
                self.pos += 1;
                // `@"<lambda>"`: JAX quotes names that are not identifiers.
                let s = self.symbol_name()?;
                op.attrs.push(("callee".into(), Attr::Symbol(s)));
            } else if r.starts_with('"') {
                let s = self.string()?;
                op.attrs.push(("name".into(), Attr::Str(s)));
            } else if self.eat_kw("applies") {
                let body = self.ident()?;
                op.attrs.push(("applies".into(), Attr::Str(body)));
            } else if self.eat_kw("across") {
                self.eat_kw("dimensions");
                self.expect("=")?;
                let a = self.attr()?;
                op.attrs.push(("dimensions".into(), a));
            } else {
                let id = self.ident()?;
                if self.eat("=") {
                    let v = self.attr()?;
                    // `contracting_dims = [1] x [0]`
                    if self.eat_kw("x") {
                        let w = self.attr()?;
                        op.attrs.push((id, Attr::Array(vec![v, w])));
                    } else {
                        op.attrs.push((id, v));
                    }
                } else if id == "inits" {
                    // chlo.scan(inputs...) inits(carries...): remember where inputs end.
                    op.attrs
                        .push(("__num_inputs".into(), Attr::Int(op.operands.len() as i128)));
                } else if id != "attributes" {
                    positional_enums.push(Attr::Enum(id));
                }
            }
        }
        if !positional_enums.is_empty() {
            op.attrs
                .push(("__positional".into(), Attr::Array(positional_enums)));
        }
        self.pretty_types(&mut op)?;
        if self.peek() == Some('{') && !self.rest().trim_start().starts_with("{\n") {
            op.attrs.extend(self.attr_dict()?);
        }
        // `reducer(%a: t, %b: t) (%c: t, %d: t) { ... }` after the types.
        if self.eat_kw("reducer") {
            let mut block = Block::default();
            while self.eat("(") {
                loop {
                    let n = self.value_name()?;
                    self.expect(":")?;
                    let t = self.ty()?;
                    block.args.push((n, t));
                    if self.eat(")") {
                        break;
                    }
                    self.expect(",")?;
                }
            }
            let mut region = self.region()?;
            if let Some(b) = region.blocks.first_mut() {
                // The reducer's arguments are (acc, x) pairs per operand; reorder to
                // (acc..., x...) as the generic form.
                let n = block.args.len() / 2;
                let mut args = Vec::new();
                for i in 0..n {
                    args.push(block.args[2 * i].clone());
                }
                for i in 0..n {
                    args.push(block.args[2 * i + 1].clone());
                }
                b.args = args;
            }
            op.regions.push(region);
        }
        Ok(op)
    }

    /// Parenthesized items in pretty ops: `(%x init: %c), (%y init: %d)` (reduce),
    /// `(%a, %b)` operand lists, or `({region}, {region})`.
    pub(super) fn pretty_parens(&mut self, op: &mut Operation) -> Result<()> {
        self.expect("(")?;
        self.skip_ws();
        if self.rest().starts_with('{') {
            loop {
                op.regions.push(self.region()?);
                if self.eat(")") {
                    return Ok(());
                }
                self.expect(",")?;
            }
        }
        let mut inits = Vec::new();
        if !self.eat(")") {
            loop {
                // `chlo.top_k(%x, k = 3)`: an inline attribute inside the parentheses.
                if self.peek() != Some('%') {
                    let key = self.ident()?;
                    self.expect("=")?;
                    let v = self.attr()?;
                    op.attrs.push((key, v));
                    if self.eat(")") {
                        break;
                    }
                    self.expect(",")?;
                    continue;
                }
                op.operands.push(self.value_name()?);
                if self.eat_kw("init") {
                    self.expect(":")?;
                    inits.push(self.value_name()?);
                }
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        if !inits.is_empty() {
            op.attrs.push((
                "__inits".into(),
                Attr::Array(inits.into_iter().map(Attr::Str).collect()),
            ));
        }
        Ok(())
    }

    /// `[0:2, 1:3:2]` slice syntax.
    pub(super) fn slice_spec(&mut self, op: &mut Operation) -> Result<()> {
        self.expect("[")?;
        let (mut s, mut l, mut st) = (vec![], vec![], vec![]);
        if !self.eat("]") {
            loop {
                s.push(self.number()?.as_int().unwrap_or(0) as i64);
                self.expect(":")?;
                l.push(self.number()?.as_int().unwrap_or(0) as i64);
                st.push(if self.eat(":") {
                    self.number()?.as_int().unwrap_or(1) as i64
                } else {
                    1
                });
                if self.eat("]") {
                    break;
                }
                self.expect(",")?;
            }
        }
        op.attrs.push(("start_indices".into(), Attr::I64Array(s)));
        op.attrs.push(("limit_indices".into(), Attr::I64Array(l)));
        op.attrs.push(("strides".into(), Attr::I64Array(st)));
        Ok(())
    }

    /// `stablehlo.while(%a = %x, %b = %y) : t1, t2 cond { ... } do { ... }`
    pub(super) fn pretty_while(&mut self, mut op: Operation) -> Result<Operation> {
        if self.peek() == Some('"') || self.rest().trim_start().starts_with("({") {
            return self.generic_rest(op);
        }
        self.expect("(")?;
        let mut iter_names = Vec::new();
        if !self.eat(")") {
            loop {
                iter_names.push(self.value_name()?);
                self.expect("=")?;
                op.operands.push(self.value_name()?);
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        if self.peek() == Some('{') {
            op.attrs.extend(self.attr_dict()?);
        }
        self.pretty_types(&mut op)?;
        let types = op.result_types.clone();
        op.operand_types = types.clone();
        for kw in ["cond", "do"] {
            if !self.eat_kw(kw) {
                return Err(self.err(format!("expected '{kw}' in stablehlo.while")));
            }
            let mut r = self.region()?;
            if let Some(b) = r.blocks.first_mut() {
                if b.args.is_empty() {
                    b.args = iter_names
                        .iter()
                        .cloned()
                        .zip(types.iter().cloned())
                        .collect();
                }
            }
            op.regions.push(r);
        }
        Ok(op)
    }
}
