//! Shardy's textual syntax: its attributes (`#sdy.sharding<@mesh, [{"x"}, {}]>`,
//! `#sdy.mesh<["x"=8]>`, `#sdy.op_sharding_rule<([i, j])->([j, i]) {i=2, j=4}>`...) read into
//! the `Attr` forms of [`crate::sdy`], and the custom assembly of its ops (`sdy.mesh`,
//! `sdy.sharding_constraint`, `sdy.reshard`, `sdy.propagation_barrier`, `sdy.sharding_group`,
//! `sdy.manual_computation`, `sdy.named_computation`, `sdy.return`).

use oxla_hlo::Result;

use super::Parser;
use crate::ast::{Attr, Block, Operation, Type};

fn st(name: &str, fields: Vec<(&str, Attr)>) -> Attr {
    Attr::Struct(
        name.to_string(),
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

impl<'a> Parser<'a> {
    /// `#sdy.NAME<...>` after the name, at `<`. Attributes Oxla has no structure for, or
    /// whose text it cannot read, are kept as their text (`Struct(name, [text])`): an error
    /// only where the importer needs them.
    pub(super) fn sdy_attr(&mut self, name: String) -> Result<Attr> {
        let save = self.pos;
        let parsed = match name.as_str() {
            "sdy.mesh" => self.expect("<").and_then(|_| self.sdy_mesh_body()),
            "sdy.sharding" => self.sdy_sharding(),
            "sdy.sharding_per_value" => self.expect("<").and_then(|_| {
                let v = self.sdy_sharding_list()?;
                self.expect(">")?;
                Ok(st("sdy.sharding_per_value", vec![("shardings", v)]))
            }),
            "sdy.manual_axes" => self.expect("<").and_then(|_| {
                let axes = self.sdy_axis_names()?;
                self.expect(">")?;
                Ok(axes)
            }),
            "sdy.op_sharding_rule" => self.expect("<").and_then(|_| self.sdy_rule_body()),
            _ => Err(self.err("no structure")),
        };
        if parsed.is_ok() {
            return parsed;
        }
        self.pos = save;
        let text = self.opaque_angle_body()?;
        Ok(Attr::Struct(name, vec![("text".into(), Attr::Str(text))]))
    }

    /// A mesh after its `<`: `["x"=2, "y"=4], device_ids=[...]>`.
    fn sdy_mesh_body(&mut self) -> Result<Attr> {
        self.expect("[")?;
        let mut axes = Vec::new();
        if !self.eat("]") {
            loop {
                self.skip_ws();
                let name = self.string()?;
                self.expect("=")?;
                let size = self.number()?;
                axes.push(st(
                    "sdy.mesh_axis",
                    vec![("name", Attr::Str(name)), ("size", size)],
                ));
                if self.eat("]") {
                    break;
                }
                self.expect(",")?;
            }
        }
        let mut ids = Vec::new();
        if self.eat(",") {
            self.expect("device_ids")?;
            self.expect("=")?;
            ids = self
                .attr()?
                .as_ints()
                .ok_or_else(|| self.err("sdy mesh: a list of device ids"))?;
        }
        self.expect(">")?;
        let mut fields = vec![("axes", Attr::Array(axes))];
        if !ids.is_empty() {
            fields.push(("device_ids", Attr::I64Array(ids)));
        }
        Ok(st("sdy.mesh", fields))
    }

    /// An axis or sub-axis: `"x"` or `"x":(2)4`.
    fn sdy_axis_ref(&mut self) -> Result<Attr> {
        self.skip_ws();
        let name = self.string()?;
        let mut fields = vec![("name", Attr::Str(name))];
        if self.eat(":") {
            self.expect("(")?;
            let pre = self.number()?;
            self.expect(")")?;
            let size = self.number()?;
            fields.push((
                "sub_axis_info",
                st("sdy.sub_axis_info", vec![("pre_size", pre), ("size", size)]),
            ));
        }
        Ok(st("sdy.axis_ref", fields))
    }

    /// `{"x", "y":(1)2}` as a list of axis references.
    fn sdy_axis_list(&mut self) -> Result<Vec<Attr>> {
        self.expect("{")?;
        let mut v = Vec::new();
        if self.eat("}") {
            return Ok(v);
        }
        loop {
            v.push(self.sdy_axis_ref()?);
            if self.eat("}") {
                return Ok(v);
            }
            self.expect(",")?;
        }
    }

    /// `{"x", "y"}` (manual axes: names only).
    fn sdy_axis_names(&mut self) -> Result<Attr> {
        self.expect("{")?;
        let mut v = Vec::new();
        if !self.eat("}") {
            loop {
                self.skip_ws();
                v.push(Attr::Str(self.string()?));
                if self.eat("}") {
                    break;
                }
                self.expect(",")?;
            }
        }
        Ok(st("sdy.manual_axes", vec![("axes", Attr::Array(v))]))
    }

    /// One dimension's sharding: `{"x", "y"}`, `{"x", ?}` (open), `{?}`, `{}p2` (priority).
    fn sdy_dim_sharding(&mut self) -> Result<Attr> {
        self.expect("{")?;
        let mut axes = Vec::new();
        let mut closed = true;
        if !self.eat("}") {
            loop {
                if self.eat("?") {
                    closed = false;
                } else {
                    axes.push(self.sdy_axis_ref()?);
                }
                if self.eat("}") {
                    break;
                }
                self.expect(",")?;
            }
        }
        let mut fields = vec![
            ("axes", Attr::Array(axes)),
            ("is_closed", Attr::Bool(closed)),
        ];
        let r = self.rest();
        if let Some(p) = r.strip_prefix('p') {
            let n = p.find(|c: char| !c.is_ascii_digit()).unwrap_or(p.len());
            if n > 0 {
                let v: i128 = p[..n].parse().map_err(|_| self.err("bad sdy priority"))?;
                self.pos += 1 + n;
                fields.push(("priority", Attr::Int(v)));
            }
        }
        Ok(st("sdy.dimension_sharding", fields))
    }

    /// A tensor sharding from its `<`: `<@mesh, [{"x"}, {}], replicated={"y"}>`; the mesh may
    /// be written inline (`mesh<["x"=2]>` or `#sdy.mesh<...>`).
    pub(super) fn sdy_sharding(&mut self) -> Result<Attr> {
        self.expect("<")?;
        self.skip_ws();
        let mesh = if self.eat("@") {
            Attr::Symbol(self.symbol_name()?)
        } else {
            if !self.eat("#sdy.mesh") {
                self.expect("mesh")?;
            }
            self.expect("<")?;
            self.sdy_mesh_body()?
        };
        self.expect(",")?;
        self.expect("[")?;
        let mut dims = Vec::new();
        if !self.eat("]") {
            loop {
                dims.push(self.sdy_dim_sharding()?);
                if self.eat("]") {
                    break;
                }
                self.expect(",")?;
            }
        }
        let mut replicated = Vec::new();
        let mut unreduced = Vec::new();
        while self.eat(",") {
            let key = self.ident()?;
            self.expect("=")?;
            match key.as_str() {
                "replicated" => replicated = self.sdy_axis_list()?,
                "unreduced" => unreduced = self.sdy_axis_list()?,
                _ => return Err(self.err(format!("sdy sharding: unknown field {key}"))),
            }
        }
        self.expect(">")?;
        Ok(st(
            "sdy.sharding",
            vec![
                ("mesh", mesh),
                ("dim_shardings", Attr::Array(dims)),
                ("replicated_axes", Attr::Array(replicated)),
                ("unreduced_axes", Attr::Array(unreduced)),
            ],
        ))
    }

    /// `[<@mesh, ...>, <@mesh, ...>]` as a list of shardings.
    fn sdy_sharding_list(&mut self) -> Result<Attr> {
        self.expect("[")?;
        let mut v = Vec::new();
        if !self.eat("]") {
            loop {
                self.skip_ws();
                if self.eat("#sdy.sharding") {
                    self.skip_ws();
                }
                v.push(self.sdy_sharding()?);
                if self.eat("]") {
                    break;
                }
                self.expect(",")?;
            }
        }
        Ok(Attr::Array(v))
    }

    /// A sharding rule after its `<`:
    /// `([i, j], [j, k])->([i, k]) {i=8, j=32, k=16} reduction={j} ..., custom>`. Factors are
    /// numbered in the order of the sizes' list; a dimension maps to the factors written
    /// together (`ij`), or to none (`[]`).
    fn sdy_rule_body(&mut self) -> Result<Attr> {
        // The mappings refer to factors by name, defined after them: read the names first.
        let mappings_at = self.pos;
        let mut depth = 0usize;
        let bytes = self.src.as_bytes();
        let mut i = self.pos;
        // Skip `(...)->(...)`.
        let mut groups = 0;
        while i < bytes.len() && groups < 2 {
            match bytes[i] {
                b'(' => depth += 1,
                b')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        groups += 1;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        self.pos = i;
        let mut names: Vec<String> = Vec::new();
        let mut sizes: Vec<i64> = Vec::new();
        self.expect("{")?;
        if !self.eat("}") {
            loop {
                names.push(self.ident()?);
                self.expect("=")?;
                let n = self.number()?.as_int().unwrap_or(0);
                sizes.push(n as i64);
                if self.eat("}") {
                    break;
                }
                self.expect(",")?;
            }
        }
        let index = |s: &str| names.iter().position(|n| n == s).map(|p| p as i64);
        let mut lists: Vec<(String, Attr)> = Vec::new();
        let mut custom = false;
        loop {
            self.skip_ws();
            if self.eat(">") {
                break;
            }
            if self.eat(",") {
                continue;
            }
            let key = self.ident()?;
            if key == "custom" {
                custom = true;
                continue;
            }
            self.expect("=")?;
            self.expect("{")?;
            let mut v = Vec::new();
            if !self.eat("}") {
                loop {
                    let f = self.ident()?;
                    v.push(index(&f).ok_or_else(|| self.err(format!("unknown factor {f}")))?);
                    if self.eat("}") {
                        break;
                    }
                    self.expect(",")?;
                }
            }
            lists.push((format!("{key}_factors"), Attr::I64Array(v)));
        }
        let end = self.pos;
        // Now the mappings.
        self.pos = mappings_at;
        let operands = self.sdy_rule_tensors(&index)?;
        self.expect("->")?;
        let results = self.sdy_rule_tensors(&index)?;
        self.pos = end;
        let mut fields = vec![
            ("factor_sizes".to_string(), Attr::I64Array(sizes)),
            ("operand_mappings".to_string(), operands),
            ("result_mappings".to_string(), results),
        ];
        for k in [
            "reduction",
            "need_replication",
            "permutation",
            "blocked_propagation",
        ] {
            let key = format!("{k}_factors");
            let v = lists
                .iter()
                .find(|(n, _)| *n == key)
                .map(|(_, v)| v.clone())
                .unwrap_or(Attr::I64Array(vec![]));
            fields.push((key, v));
        }
        fields.push(("is_custom_rule".into(), Attr::Bool(custom)));
        Ok(Attr::Struct("sdy.op_sharding_rule".into(), fields))
    }

    /// `([i, j], [k])`: per tensor, per dimension, its factor indices.
    fn sdy_rule_tensors(&mut self, index: &dyn Fn(&str) -> Option<i64>) -> Result<Attr> {
        self.expect("(")?;
        let mut tensors = Vec::new();
        if !self.eat(")") {
            loop {
                self.expect("[")?;
                let mut dims = Vec::new();
                if !self.eat("]") {
                    loop {
                        let word = self.ident()?;
                        dims.push(Attr::I64Array(self.sdy_factors_of(&word, index)?));
                        if self.eat("]") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                tensors.push(Attr::Array(dims));
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        Ok(Attr::Array(tensors))
    }

    /// Splits `ij` or `z_1k` into factor indices (factor names are a letter, optionally
    /// followed by `_<n>`).
    fn sdy_factors_of(&self, word: &str, index: &dyn Fn(&str) -> Option<i64>) -> Result<Vec<i64>> {
        let b = word.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            let mut j = i + 1;
            if j < b.len() && b[j] == b'_' {
                j += 1;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
            }
            let f = &word[i..j];
            out.push(index(f).ok_or_else(|| self.err(format!("unknown factor {f}")))?);
            i = j;
        }
        Ok(out)
    }

    /// The custom syntax of an `sdy` op, after its name; `None` for ops in the common
    /// pretty syntax.
    pub(super) fn sdy_pretty_op(&mut self, name: &str) -> Option<Result<Operation>> {
        let op = Self::new_op(name.to_string());
        match name {
            "sdy.sharding_constraint" | "sdy.reshard" => Some(self.sdy_unary(op, "sharding")),
            "sdy.propagation_barrier" => Some(self.sdy_unary(op, "allowed_direction")),
            "sdy.sharding_group" => Some(self.sdy_unary(op, "group_id")),
            "sdy.manual_computation" | "sdy.named_computation" => Some(self.sdy_region_op(op)),
            _ => None,
        }
    }

    /// `sdy.sharding_constraint %x <@mesh, [..]> : type` and the ops shaped like it
    /// (`allowed_direction=BACKWARD`, `group_id=3`).
    fn sdy_unary(&mut self, mut op: Operation, key: &str) -> Result<Operation> {
        self.skip_ws();
        op.operands.push(self.value_name()?);
        self.skip_ws();
        let v = if key == "sharding" {
            self.sdy_sharding()?
        } else {
            self.expect(key)?;
            self.expect("=")?;
            match self.attr()? {
                Attr::Enum(e) | Attr::Str(e) => Attr::Enum(e),
                a => a,
            }
        };
        op.attrs.push((key.to_string(), v));
        if self.peek() == Some('{') {
            op.attrs.extend(self.attr_dict()?);
        }
        self.expect(":")?;
        let t = self.ty()?;
        op.operand_types.push(t.clone());
        if op.name != "sdy.sharding_group" {
            op.result_types.push(t);
        }
        Ok(op)
    }

    /// `sdy.manual_computation(%a) in_shardings=[..] out_shardings=[..] manual_axes={"x"}
    /// (%b: type) { body } : (types) -> types`, and `sdy.named_computation<"name">(%a)
    /// [in_shardings=[..]] [out_shardings=[..]] (%b: type) { body } : (types) -> types`.
    fn sdy_region_op(&mut self, mut op: Operation) -> Result<Operation> {
        if self.eat("<") {
            let n = self.string()?;
            self.expect(">")?;
            op.attrs.push(("name".into(), Attr::Str(n)));
        }
        self.expect("(")?;
        if !self.eat(")") {
            loop {
                op.operands.push(self.value_name()?);
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        loop {
            self.skip_ws();
            if self.rest().starts_with('(') {
                break;
            }
            let key = self.ident()?;
            self.expect("=")?;
            let v = match key.as_str() {
                "in_shardings" | "out_shardings" => st(
                    "sdy.sharding_per_value",
                    vec![("shardings", self.sdy_sharding_list()?)],
                ),
                "manual_axes" => self.sdy_axis_names()?,
                _ => return Err(self.err(format!("{}: unknown field {key}", op.name))),
            };
            op.attrs.push((key, v));
        }
        let mut block = Block::default();
        self.expect("(")?;
        if !self.eat(")") {
            loop {
                let n = self.value_name()?;
                self.expect(":")?;
                let t = self.ty()?;
                self.skip_loc()?;
                block.args.push((n, t));
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        let mut region = self.region()?;
        match region.blocks.first_mut() {
            Some(b) if b.args.is_empty() => b.args = block.args,
            _ => return Err(self.err(format!("{}: one block in its region", op.name))),
        }
        op.regions.push(region);
        if self.peek() == Some('{') {
            op.attrs.extend(self.attr_dict()?);
        }
        self.expect(":")?;
        match self.ty()? {
            Type::Function(i, o) => {
                op.operand_types = i;
                op.result_types = o;
            }
            _ => return Err(self.err(format!("{}: a function type", op.name))),
        }
        Ok(op)
    }

    /// `sdy.mesh @name = <["x"=2]> {attrs}` at the top level of a module: the name and the
    /// mesh.
    pub(super) fn sdy_mesh_op(&mut self) -> Result<(String, Attr)> {
        self.expect("@")?;
        let name = self.symbol_name()?;
        self.expect("=")?;
        self.skip_ws();
        if !self.eat("#sdy.mesh") {
            self.skip_ws();
        }
        self.expect("<")?;
        let mesh = self.sdy_mesh_body()?;
        if self.peek() == Some('{') {
            self.attr_dict()?;
        }
        self.skip_loc()?;
        Ok((name, mesh))
    }
}
