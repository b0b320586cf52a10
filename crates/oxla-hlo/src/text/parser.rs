//! Reads XLA HLO text (modules and shapes); malformed text gives a line:column error.
//!
//! Accepts what [`print_module`](super::print_module) writes and what XLA prints: `%` on
//! names or not, operands with or without their shapes, `/*index=5*/` comments,
//! computation signatures or none, `ROOT` anywhere (the last instruction when absent),
//! and attributes Oxla does not model (metadata, sharding, frontend_attributes other
//! than a composite's, backend_config other than a custom-call's, ...) are skipped.

use std::collections::{HashMap, HashSet};

use super::bitcast::bitcast_steps;
use super::lexer::{error_at, Cursor};
use super::literal_text::parse_literal;
use super::op_attrs::{build_op, called_refs, Attr, Attrs, NameRef};
use super::shape_text::{at_shape, shape};
use crate::error::Result;
use crate::ir::{ComputationId, HloComputation, HloInstruction, HloModule, InstrId, ModuleConfig};
use crate::op::*;
use crate::shape::Shape;

pub use super::shape_text::parse_shape;

/// Parses a module.
pub fn parse_module(text: &str) -> Result<HloModule> {
    let mut c = Cursor::new(text);
    if text.starts_with('\u{feff}') {
        c.pos = '\u{feff}'.len_utf8(); // a byte-order mark
    }
    let mut p = Parser {
        c,
        computations: Vec::new(),
        comp_ids: HashMap::new(),
        pending: Vec::new(),
        instr_names: HashSet::new(),
        config: ModuleConfig::default(),
        entry: None,
    };
    p.module()
}

struct Parser<'a> {
    c: Cursor<'a>,
    computations: Vec<HloComputation>,
    comp_ids: HashMap<String, ComputationId>,
    /// Called computations to resolve once all are read: (computation, instruction,
    /// [(name, position)]).
    pending: Vec<(usize, usize, Vec<NameRef>)>,
    /// Instruction names in the whole module (they must be unique module-wide).
    instr_names: HashSet<String>,
    config: ModuleConfig,
    entry: Option<ComputationId>,
}

impl<'a> Parser<'a> {
    fn module(&mut self) -> Result<HloModule> {
        let c = &mut self.c;
        if !c.eat_keyword("HloModule") {
            return Err(c.expected("'HloModule'"));
        }
        let name = if c.newline_ahead() {
            ""
        } else {
            c.word().unwrap_or("")
        };
        let name = name.to_string();
        while self.c.eat(",") {
            let (key, start, end) = self.attribute()?;
            let mut v = self.c.sub(start, end);
            match key {
                "replica_count" | "num_partitions" => {
                    let n = v.int()?;
                    if n < 1 {
                        return Err(v.err_at(start, format!("{key} must be at least 1")));
                    }
                    if !v.at_end() {
                        return Err(v.expected(&format!("end of the value of '{key}'")));
                    }
                    if key == "replica_count" {
                        self.config.num_replicas = n;
                    } else {
                        self.config.num_partitions = n;
                    }
                }
                _ => {} // entry_computation_layout, is_scheduled, aliasing, ...: not modelled.
            }
        }
        self.debug_tables()?;
        while !self.c.at_end() {
            self.computation()?;
        }
        if self.computations.is_empty() {
            return Err(self.c.err("the module has no computations"));
        }
        for (comp, instr, refs) in self.pending.clone() {
            let mut ids = Vec::with_capacity(refs.len());
            for (name, pos) in refs {
                match self.comp_ids.get(&name) {
                    Some(&id) => ids.push(id),
                    None => {
                        return Err(error_at(
                            self.c.src,
                            pos,
                            format!("unknown computation '%{name}'"),
                        ))
                    }
                }
            }
            self.computations[comp].instructions[instr].called = ids;
        }
        self.check_no_call_cycles()?;
        let entry = self
            .entry
            .unwrap_or(ComputationId(self.computations.len() as u32 - 1));
        Ok(HloModule {
            name,
            computations: std::mem::take(&mut self.computations),
            entry,
            config: self.config.clone(),
        })
    }

    /// The source-location tables XLA prints after the header (`FileNames`,
    /// `FunctionNames`, `FileLocations`, `StackFrames`: numbered strings or `{...}` records
    /// that instructions' `stack_frame_id` metadata points into): read for form and skipped,
    /// as metadata is.
    fn debug_tables(&mut self) -> Result<()> {
        const TABLES: [&str; 4] = ["FileNames", "FunctionNames", "FileLocations", "StackFrames"];
        while TABLES.iter().any(|t| self.c.eat_keyword(t)) {
            loop {
                self.c.skip_ws();
                if !self.c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
                    break;
                }
                self.c.uint("a table entry number")?;
                self.c.skip_ws();
                match self.c.peek() {
                    Some('"') => {
                        self.c.string()?;
                    }
                    Some('{') => {
                        let end = self.c.value_end();
                        self.c.pos = end;
                    }
                    _ => return Err(self.c.expected("a string or a '{...}' table entry")),
                }
            }
        }
        Ok(())
    }

    /// Computations may not call themselves, directly or through others (XLA forbids
    /// recursion); the error points at the call that closes the cycle.
    fn check_no_call_cycles(&self) -> Result<()> {
        let n = self.computations.len();
        // Edges: caller → (callee, position of the reference).
        let mut edges: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        for (comp, instr, refs) in &self.pending {
            let called = &self.computations[*comp].instructions[*instr].called;
            for (id, (_, pos)) in called.iter().zip(refs) {
                edges[*comp].push((id.index(), *pos));
            }
        }
        // Iterative DFS: 0 = new, 1 = on the current path, 2 = done.
        let mut state = vec![0u8; n];
        for start in 0..n {
            if state[start] != 0 {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            state[start] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                if let Some(&(callee, pos)) = edges[node].get(*next) {
                    *next += 1;
                    match state[callee] {
                        0 => {
                            state[callee] = 1;
                            stack.push((callee, 0));
                        }
                        1 => {
                            return Err(error_at(
                                self.c.src,
                                pos,
                                format!(
                                    "computation '%{}' calls itself (through '%{}'); recursion is not allowed",
                                    self.computations[callee].name, self.computations[node].name
                                ),
                            ))
                        }
                        _ => {}
                    }
                } else {
                    state[node] = 2;
                    stack.pop();
                }
            }
        }
        Ok(())
    }

    /// `key=value` after a ',' : returns the key and the value's extent.
    fn attribute(&mut self) -> Result<(&'a str, usize, usize)> {
        let c = &mut self.c;
        let key = c.word().ok_or_else(|| c.expected("an attribute name"))?;
        c.expect("=")?;
        c.skip_ws();
        let start = c.pos;
        let end = c.value_end();
        c.pos = end;
        Ok((key, start, end))
    }

    fn computation(&mut self) -> Result<()> {
        let is_entry = self.c.eat_keyword("ENTRY");
        self.c.skip_ws();
        let name_pos = self.c.pos;
        let name = self.c.name("a computation name")?.to_string();
        if self.comp_ids.contains_key(&name) {
            return Err(self
                .c
                .err_at(name_pos, format!("duplicate computation name '%{name}'")));
        }
        if self.c.peek() == Some('(') {
            self.signature()?;
        }
        if !self.c.eat("{") {
            return Err(self
                .c
                .expected(&format!("'{{' to open computation '%{name}'")));
        }
        let cidx = self.computations.len();
        let id = ComputationId(cidx as u32);
        if is_entry {
            if self.entry.is_some() {
                return Err(self.c.err_at(name_pos, "more than one ENTRY computation"));
            }
            self.entry = Some(id);
        }
        let mut local: HashMap<&'a str, InstrId> = HashMap::new();
        let mut instructions: Vec<HloInstruction> = Vec::new();
        let mut params: Vec<(usize, InstrId, usize)> = Vec::new();
        let mut root: Option<InstrId> = None;
        loop {
            if self.c.eat("}") {
                break;
            }
            if self.c.at_end() {
                return Err(self
                    .c
                    .expected(&format!("'}}' to close computation '%{name}'")));
            }
            self.instruction(cidx, &mut local, &mut instructions, &mut params, &mut root)?;
        }
        // `}, execution_thread="..."` and similar computation attributes: skipped.
        while !self.c.newline_ahead() && self.c.eat(",") {
            self.attribute()?;
        }
        if instructions.is_empty() {
            return Err(self.c.err_at(
                name_pos,
                format!("computation '%{name}' has no instructions"),
            ));
        }
        let mut parameters = vec![None; params.len()];
        for (number, id, pos) in params {
            match parameters.get_mut(number) {
                Some(slot @ None) => *slot = Some(id),
                Some(Some(_)) => {
                    return Err(self
                        .c
                        .err_at(pos, format!("parameter number {number} appears twice")))
                }
                None => {
                    return Err(self.c.err_at(
                        pos,
                        format!(
                        "parameter number {number} is out of range: '%{name}' has {} parameters",
                        parameters.len()
                    ),
                    ))
                }
            }
        }
        let parameters = parameters.into_iter().flatten().collect();
        let root = root.unwrap_or(InstrId(instructions.len() as u32 - 1));
        self.comp_ids.insert(name.clone(), id);
        self.computations.push(HloComputation {
            name,
            instructions,
            parameters,
            root,
        });
        Ok(())
    }

    /// `(a: f32[2], b: (s32[], pred[])) -> f32[2]`: read and checked for form only (the
    /// parameter instructions carry the shapes).
    fn signature(&mut self) -> Result<()> {
        let c = &mut self.c;
        c.expect("(")?;
        if !c.eat(")") {
            loop {
                c.name("a parameter name")?;
                c.expect(":")?;
                shape(c)?;
                if c.eat(")") {
                    break;
                }
                if !c.eat(",") {
                    return Err(c.expected("',' or ')' in the computation signature"));
                }
            }
        }
        c.expect("->")?;
        shape(c)?;
        Ok(())
    }

    /// `bitcast`: the leading steps of [`bitcast_steps`] become instructions of their own
    /// (named after the bitcast); returns the last step's op and its operand.
    fn bitcast(
        &mut self,
        text_name: &str,
        opcode_pos: usize,
        operands: &[InstrId],
        shape: &Shape,
        instructions: &mut Vec<HloInstruction>,
    ) -> Result<(Op, InstrId)> {
        let &[mut x] = operands else {
            return Err(self.c.err_at(opcode_pos, "bitcast takes one operand"));
        };
        let mut steps = bitcast_steps(&instructions[x.index()].shape, shape)
            .map_err(|e| self.c.err_at(opcode_pos, e.to_string()))?;
        let Some((last, _)) = steps.pop() else {
            return Err(self.c.err_at(opcode_pos, "bitcast: no steps"));
        };
        for (k, (op, step_shape)) in steps.into_iter().enumerate() {
            let mut name = format!("{text_name}.bitcast.{k}");
            while self.instr_names.contains(&name) {
                name.push('_');
            }
            self.instr_names.insert(name.clone());
            instructions.push(HloInstruction {
                name,
                op,
                operands: vec![x],
                called: Vec::new(),
                shape: step_shape,
                plan: None,
            });
            x = InstrId(instructions.len() as u32 - 1);
        }
        Ok((last, x))
    }

    fn instruction(
        &mut self,
        cidx: usize,
        local: &mut HashMap<&'a str, InstrId>,
        instructions: &mut Vec<HloInstruction>,
        params: &mut Vec<(usize, InstrId, usize)>,
        root: &mut Option<InstrId>,
    ) -> Result<()> {
        let c = &mut self.c;
        c.skip_ws();
        let line_pos = c.pos;
        let is_root = c.eat_keyword("ROOT");
        c.skip_ws();
        let name_pos = c.pos;
        let text_name = c.name("an instruction name")?;
        if local.contains_key(text_name) {
            return Err(c.err_at(
                name_pos,
                format!("duplicate instruction name '%{text_name}'"),
            ));
        }
        c.expect("=")?;
        let shape = shape(c)?;
        c.skip_ws();
        let opcode_pos = c.pos;
        let opcode = c.word().ok_or_else(|| c.expected("an opcode"))?;
        c.expect("(")?;
        let mut operands = Vec::new();
        let mut param_number = None;
        let mut literal = None;
        match opcode {
            "parameter" => {
                c.skip_ws();
                let pos = c.pos;
                let n = c.uint("parameter number")?;
                param_number = Some(
                    usize::try_from(n).map_err(|_| c.err_at(pos, "parameter number too large"))?,
                );
                c.expect(")")?;
            }
            "constant" => {
                literal = Some(parse_literal(c, &shape)?);
                c.expect(")")?;
            }
            _ => {
                if !c.eat(")") {
                    loop {
                        c.skip_ws();
                        let shape_pos = c.pos;
                        let written = if at_shape(c) {
                            Some(super::shape_text::shape(c)?)
                        } else {
                            None
                        };
                        c.skip_ws();
                        let pos = c.pos;
                        let n = c.name("an operand name")?;
                        match local.get(n) {
                            Some(&id) => {
                                let actual = &instructions[id.index()].shape;
                                if let Some(w) = written {
                                    if !w.compatible(actual) {
                                        return Err(c.err_at(
                                            shape_pos,
                                            format!(
                                                "operand '%{n}' is written with shape {w} but has shape {actual}"
                                            ),
                                        ));
                                    }
                                }
                                operands.push(id)
                            }
                            None => {
                                return Err(c.err_at(
                                    pos,
                                    format!(
                                        "unknown operand '%{n}' (operands must be defined \
                                         earlier in the same computation)"
                                    ),
                                ))
                            }
                        }
                        if c.eat(")") {
                            break;
                        }
                        if !c.eat(",") {
                            return Err(c.expected("',' or ')' after an operand"));
                        }
                    }
                }
            }
        }
        let mut list: Vec<Attr<'a>> = Vec::new();
        while self.c.eat(",") {
            self.c.skip_ws();
            let key_pos = self.c.pos;
            let (key, start, end) = self.attribute()?;
            if list.iter().any(|a| a.key == key) {
                return Err(self
                    .c
                    .err_at(key_pos, format!("duplicate attribute '{key}'")));
            }
            list.push(Attr { key, start, end });
        }
        let attrs = Attrs {
            list,
            src: self.c.src,
            opcode_pos,
            opcode,
        };
        let op = match (param_number, literal) {
            (Some(number), _) => Op::Parameter { number },
            (_, Some(lit)) => Op::Constant(lit),
            _ if opcode == "bitcast" => {
                let (op, x) =
                    self.bitcast(text_name, opcode_pos, &operands, &shape, instructions)?;
                operands = vec![x];
                op
            }
            _ => build_op(&attrs, self.config.num_replicas)?,
        };
        let calls = called_refs(&attrs)?;

        let id = InstrId(instructions.len() as u32);
        if is_root {
            if root.is_some() {
                return Err(self.c.err_at(line_pos, "more than one ROOT instruction"));
            }
            *root = Some(id);
        }
        if let Op::Parameter { number } = op {
            params.push((number, id, line_pos));
        }
        // Names are module-wide unique in Oxla; hand-written text often reuses `x` across
        // computations, so a repeat from another computation gets a `.N` suffix.
        let mut name = text_name.to_string();
        if self.instr_names.contains(&name) {
            let mut k = 1;
            while self.instr_names.contains(&format!("{text_name}.{k}")) {
                k += 1;
            }
            name = format!("{text_name}.{k}");
        }
        self.instr_names.insert(name.clone());
        local.insert(text_name, id);
        if !calls.is_empty() {
            self.pending.push((cidx, instructions.len(), calls));
        }
        let plan = attrs.plan()?;
        instructions.push(HloInstruction {
            name,
            op,
            operands,
            called: Vec::new(),
            shape,
            plan,
        });
        Ok(())
    }
}
