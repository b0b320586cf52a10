//! Reads XLA HLO text (modules and shapes); malformed text gives a line:column error.
//!
//! Accepts what [`print_module`](super::print_module) writes and what XLA prints: `%` on
//! names or not, operands with or without their shapes, `/*index=5*/` comments,
//! computation signatures or none, `ROOT` anywhere (the last instruction when absent),
//! and attributes Oxla does not model (metadata, sharding, frontend_attributes other
//! than a composite's, backend_config other than a custom-call's, ...) are skipped.

use std::collections::{HashMap, HashSet};

use super::attributes::*;
use super::lexer::{error_at, Cursor};
use super::literal_text::parse_literal;
use super::printer::all_to_all_implied_split_count;
use super::shape_text::{at_shape, shape};
use crate::error::{Error, Result};
use crate::ir::{ComputationId, HloComputation, HloInstruction, HloModule, InstrId, ModuleConfig};
use crate::op::*;

pub use super::shape_text::parse_shape;

/// XLA opcodes Oxla knows of but does not implement.
const UNSUPPORTED_OPCODES: &[&str] = &[
    "fusion",
    "bitcast",
    "domain",
    "add-dependency",
    "copy-start",
    "copy-done",
    "all-reduce-start",
    "all-reduce-done",
    "all-gather-start",
    "all-gather-done",
    "collective-permute-start",
    "collective-permute-done",
    "async-start",
    "async-update",
    "async-done",
    "ragged-all-to-all",
    "rng-get-and-update-state",
    "dynamic-reshape",
    "stochastic-convert",
    "send-start",
    "recv-start",
];

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

/// A computation name as written, with its position (for "unknown computation" errors).
type NameRef = (String, usize);

/// One `key=value` of an instruction: the value is parsed on demand.
struct Attr<'a> {
    key: &'a str,
    start: usize,
    end: usize,
}

struct Attrs<'a> {
    list: Vec<Attr<'a>>,
    src: &'a str,
    /// Where to point "missing attribute" errors: the opcode.
    opcode_pos: usize,
    opcode: &'a str,
}

impl<'a> Attrs<'a> {
    fn find(&self, key: &str) -> Option<&Attr<'a>> {
        self.list.iter().find(|a| a.key == key)
    }

    fn has(&self, key: &str) -> bool {
        self.find(key).is_some()
    }

    /// Runs `f` on the value of `key` (if present) and checks it read the whole value.
    fn get<T>(&self, key: &str, f: impl FnOnce(&mut Cursor<'a>) -> Result<T>) -> Result<Option<T>> {
        let Some(a) = self.find(key) else {
            return Ok(None);
        };
        let mut c = Cursor {
            src: self.src,
            pos: a.start,
            end: a.end,
        };
        let v = f(&mut c)?;
        if !c.at_end() {
            return Err(c.expected(&format!("end of the value of '{key}'")));
        }
        Ok(Some(v))
    }

    fn req<T>(&self, key: &str, f: impl FnOnce(&mut Cursor<'a>) -> Result<T>) -> Result<T> {
        match self.get(key, f)? {
            Some(v) => Ok(v),
            None => Err(error_at(
                self.src,
                self.opcode_pos,
                format!("{} needs attribute '{key}'", self.opcode),
            )),
        }
    }

    fn int(&self, key: &str) -> Result<Option<i64>> {
        self.get(key, |c| c.int())
    }
    fn req_int(&self, key: &str) -> Result<i64> {
        self.req(key, |c| c.int())
    }
    fn flag(&self, key: &str) -> Result<bool> {
        Ok(self.get(key, parse_bool)?.unwrap_or(false))
    }
    fn dims(&self, key: &str) -> Result<Option<Vec<i64>>> {
        self.get(key, parse_dims)
    }
    fn req_dims(&self, key: &str) -> Result<Vec<i64>> {
        self.req(key, parse_dims)
    }
    /// `key={d}` with exactly one dimension.
    fn single_dim(&self, key: &str) -> Result<i64> {
        self.req(key, |c| {
            c.skip_ws();
            let pos = c.pos;
            let v = parse_dims(c)?;
            match v[..] {
                [d] => Ok(d),
                _ => Err(c.err_at(pos, format!("'{key}' must hold exactly one dimension"))),
            }
        })
    }
    fn groups(&self) -> Result<ReplicaGroups> {
        Ok(self
            .get("replica_groups", parse_replica_groups)?
            .unwrap_or_default())
    }
    fn usize_of(&self, key: &str) -> Result<usize> {
        self.req(key, |c| {
            c.skip_ws();
            let pos = c.pos;
            let v = c.uint(key)?;
            usize::try_from(v).map_err(|_| c.err_at(pos, format!("'{key}' is too large")))
        })
    }
    fn u32_of(&self, key: &str) -> Result<u32> {
        self.req(key, |c| {
            c.skip_ws();
            let pos = c.pos;
            let v = c.uint(key)?;
            u32::try_from(v).map_err(|_| c.err_at(pos, format!("'{key}' is too large")))
        })
    }
    fn window(&self) -> Result<Window> {
        Ok(self.get("window", parse_window)?.unwrap_or_default())
    }
    fn precision(&self) -> Result<PrecisionConfig> {
        Ok(self
            .get("operand_precision", parse_precision)?
            .unwrap_or_default())
    }
    fn epsilon_feature(&self) -> Result<(f32, i64)> {
        Ok((
            self.req("epsilon", parse_f32)?,
            self.req_int("feature_index")?,
        ))
    }
    fn channel_and_host(&self) -> Result<(i64, bool)> {
        Ok((
            self.int("channel_id")?.unwrap_or(0),
            self.flag("is_host_transfer")?,
        ))
    }
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
            _ => self.build_op(&attrs)?,
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
        instructions.push(HloInstruction {
            name,
            op,
            operands,
            called: Vec::new(),
            shape,
        });
        Ok(())
    }

    /// The op from its opcode and attributes.
    fn build_op(&self, a: &Attrs<'a>) -> Result<Op> {
        let opcode = a.opcode;
        if let Some(u) = UNARY_OPS.iter().find(|u| u.name() == opcode) {
            return Ok(Op::Unary(*u));
        }
        if let Some(b) = BINARY_OPS.iter().find(|b| b.name() == opcode) {
            return Ok(Op::Binary(*b));
        }
        Ok(match opcode {
            "iota" => Op::Iota {
                dimension: a.req_int("iota_dimension")?,
            },
            "replica-id" => Op::ReplicaId,
            "partition-id" => Op::PartitionId,
            "compare" => Op::Compare {
                direction: a.req("direction", |c| {
                    use ComparisonDirection::*;
                    parse_enum(
                        c,
                        "a comparison direction",
                        &[
                            ("EQ", Eq),
                            ("NE", Ne),
                            ("GE", Ge),
                            ("GT", Gt),
                            ("LE", Le),
                            ("LT", Lt),
                        ],
                    )
                })?,
                comparison_type: a.get("type", |c| {
                    use ComparisonType::*;
                    parse_enum(
                        c,
                        "a comparison type",
                        &[
                            ("FLOAT", Float),
                            ("TOTALORDER", TotalOrder),
                            ("SIGNED", Signed),
                            ("UNSIGNED", Unsigned),
                        ],
                    )
                })?,
            },
            "select" => Op::Select,
            "clamp" => Op::Clamp,
            "convert" => Op::Convert,
            "bitcast-convert" => Op::BitcastConvert,
            "reduce-precision" => Op::ReducePrecision {
                exponent_bits: a.u32_of("exponent_bits")?,
                mantissa_bits: a.u32_of("mantissa_bits")?,
            },
            "map" => Op::Map {
                dimensions: a.dims("dimensions")?.unwrap_or_default(),
            },
            "broadcast" => Op::Broadcast {
                dimensions: a.req_dims("dimensions")?,
            },
            "reshape" => Op::Reshape,
            "transpose" => Op::Transpose {
                permutation: a.req_dims("dimensions")?,
            },
            "reverse" => Op::Reverse {
                dimensions: a.req_dims("dimensions")?,
            },
            "slice" => {
                let (start, limit, strides) = a.req("slice", parse_slice)?;
                Op::Slice {
                    start,
                    limit,
                    strides,
                }
            }
            "dynamic-slice" => Op::DynamicSlice {
                slice_sizes: a.req_dims("dynamic_slice_sizes")?,
            },
            "dynamic-update-slice" => Op::DynamicUpdateSlice,
            "concatenate" => Op::Concatenate {
                dimension: a.single_dim("dimensions")?,
            },
            "pad" => Op::Pad(a.req("padding", parse_padding)?),
            "gather" => Op::Gather {
                dnums: GatherDimensionNumbers {
                    offset_dims: a.req_dims("offset_dims")?,
                    collapsed_slice_dims: a.req_dims("collapsed_slice_dims")?,
                    start_index_map: a.req_dims("start_index_map")?,
                    index_vector_dim: a.req_int("index_vector_dim")?,
                    operand_batching_dims: a.dims("operand_batching_dims")?.unwrap_or_default(),
                    start_indices_batching_dims: a
                        .dims("start_indices_batching_dims")?
                        .unwrap_or_default(),
                },
                slice_sizes: a.req_dims("slice_sizes")?,
                indices_are_sorted: a.flag("indices_are_sorted")?,
            },
            "scatter" => Op::Scatter {
                dnums: ScatterDimensionNumbers {
                    update_window_dims: a.req_dims("update_window_dims")?,
                    inserted_window_dims: a.req_dims("inserted_window_dims")?,
                    scatter_dims_to_operand_dims: a.req_dims("scatter_dims_to_operand_dims")?,
                    index_vector_dim: a.req_int("index_vector_dim")?,
                    input_batching_dims: a.dims("input_batching_dims")?.unwrap_or_default(),
                    scatter_indices_batching_dims: a
                        .dims("scatter_indices_batching_dims")?
                        .unwrap_or_default(),
                },
                indices_are_sorted: a.flag("indices_are_sorted")?,
                unique_indices: a.flag("unique_indices")?,
            },
            "copy" => Op::Copy,
            "get-dimension-size" => Op::GetDimensionSize {
                dimension: a.single_dim("dimensions")?,
            },
            "set-dimension-size" => Op::SetDimensionSize {
                dimension: a.single_dim("dimensions")?,
            },
            "tuple" => Op::Tuple,
            "get-tuple-element" => Op::GetTupleElement {
                index: a.usize_of("index")?,
            },
            "after-all" => Op::AfterAll,
            "opt-barrier" => Op::OptimizationBarrier,
            "reduce" => Op::Reduce {
                dimensions: a.req_dims("dimensions")?,
            },
            "reduce-window" => Op::ReduceWindow(a.window()?),
            "select-and-scatter" => Op::SelectAndScatter(a.window()?),
            "dot" => Op::Dot {
                dnums: DotDimensionNumbers {
                    lhs_contracting_dims: a.dims("lhs_contracting_dims")?.unwrap_or_default(),
                    rhs_contracting_dims: a.dims("rhs_contracting_dims")?.unwrap_or_default(),
                    lhs_batch_dims: a.dims("lhs_batch_dims")?.unwrap_or_default(),
                    rhs_batch_dims: a.dims("rhs_batch_dims")?.unwrap_or_default(),
                },
                precision: a.precision()?,
            },
            "convolution" => Op::Convolution {
                window: a.window()?,
                dnums: a.req("dim_labels", parse_dim_labels)?,
                feature_group_count: a.int("feature_group_count")?.unwrap_or(1),
                batch_group_count: a.int("batch_group_count")?.unwrap_or(1),
                precision: a.precision()?,
            },
            "fft" => Op::Fft {
                fft_type: a.req("fft_type", |c| {
                    use FftType::*;
                    parse_enum(
                        c,
                        "an FFT type",
                        &[
                            ("FFT", Fft),
                            ("IFFT", Ifft),
                            ("RFFT", Rfft),
                            ("IRFFT", Irfft),
                        ],
                    )
                })?,
                fft_length: a.req_dims("fft_length")?,
            },
            "triangular-solve" => Op::TriangularSolve {
                left_side: a.flag("left_side")?,
                lower: a.flag("lower")?,
                unit_diagonal: a.flag("unit_diagonal")?,
                transpose_a: a
                    .get("transpose_a", |c| {
                        use TriangularTranspose::*;
                        parse_enum(
                            c,
                            "a transpose kind",
                            &[
                                ("NO_TRANSPOSE", NoTranspose),
                                ("TRANSPOSE", Transpose),
                                ("ADJOINT", Adjoint),
                            ],
                        )
                    })?
                    .unwrap_or(TriangularTranspose::NoTranspose),
            },
            "cholesky" => Op::Cholesky {
                lower: a.flag("lower")?,
            },
            "batch-norm-training" => {
                let (epsilon, feature_index) = a.epsilon_feature()?;
                Op::BatchNormTraining {
                    epsilon,
                    feature_index,
                }
            }
            "batch-norm-inference" => {
                let (epsilon, feature_index) = a.epsilon_feature()?;
                Op::BatchNormInference {
                    epsilon,
                    feature_index,
                }
            }
            "batch-norm-grad" => {
                let (epsilon, feature_index) = a.epsilon_feature()?;
                Op::BatchNormGrad {
                    epsilon,
                    feature_index,
                }
            }
            "topk" => Op::TopK {
                k: a.req_int("k")?,
                largest: a.get("largest", parse_bool)?.unwrap_or(true),
            },
            "sort" => Op::Sort {
                dimension: a.single_dim("dimensions")?,
                is_stable: a.flag("is_stable")?,
            },
            "while" => Op::While,
            "conditional" => Op::Conditional,
            "call" => {
                if a.flag("is_composite")? {
                    composite(a)?
                } else {
                    Op::Call
                }
            }
            "custom-call" => Op::CustomCall {
                target: a.req("custom_call_target", |c| c.string())?,
                backend_config: a
                    .get("backend_config", parse_free_form)?
                    .unwrap_or_default(),
                has_side_effect: a.flag("custom_call_has_side_effect")?,
                api_version: a.get("api_version", parse_api_version)?.unwrap_or(1),
            },
            "rng" => Op::Rng {
                distribution: a.req("distribution", |c| {
                    parse_enum(
                        c,
                        "an RNG distribution",
                        &[
                            ("rng_uniform", RngDistribution::Uniform),
                            ("rng_normal", RngDistribution::Normal),
                        ],
                    )
                })?,
            },
            "rng-bit-generator" => Op::RngBitGenerator {
                algorithm: a.req("algorithm", |c| {
                    parse_enum(
                        c,
                        "an RNG algorithm",
                        &[
                            ("rng_default", RngAlgorithm::Default),
                            ("rng_three_fry", RngAlgorithm::ThreeFry),
                            ("rng_philox", RngAlgorithm::Philox),
                        ],
                    )
                })?,
            },
            "uniform-quantize" => Op::UniformQuantize {
                params: a.req("quant", parse_quant)?,
                from: a.get("from", parse_quant)?,
            },
            "uniform-dequantize" => Op::UniformDequantize {
                params: a.req("quant", parse_quant)?,
            },
            "infeed" => Op::Infeed {
                config: a.get("infeed_config", |c| c.string())?.unwrap_or_default(),
            },
            "outfeed" => Op::Outfeed {
                config: a.get("outfeed_config", |c| c.string())?.unwrap_or_default(),
            },
            "send" => {
                let (channel_id, is_host_transfer) = a.channel_and_host()?;
                Op::Send {
                    channel_id,
                    is_host_transfer,
                }
            }
            "send-done" => {
                let (channel_id, is_host_transfer) = a.channel_and_host()?;
                Op::SendDone {
                    channel_id,
                    is_host_transfer,
                }
            }
            "recv" => {
                let (channel_id, is_host_transfer) = a.channel_and_host()?;
                Op::Recv {
                    channel_id,
                    is_host_transfer,
                }
            }
            "recv-done" => {
                let (channel_id, is_host_transfer) = a.channel_and_host()?;
                Op::RecvDone {
                    channel_id,
                    is_host_transfer,
                }
            }
            "all-gather" => Op::AllGather {
                dimension: a.single_dim("dimensions")?,
                replica_groups: a.groups()?,
                channel_id: a.int("channel_id")?,
                use_global_device_ids: a.flag("use_global_device_ids")?,
            },
            "all-reduce" => Op::AllReduce {
                replica_groups: a.groups()?,
                channel_id: a.int("channel_id")?,
                use_global_device_ids: a.flag("use_global_device_ids")?,
            },
            "reduce-scatter" => Op::ReduceScatter {
                dimension: a.single_dim("dimensions")?,
                replica_groups: a.groups()?,
                channel_id: a.int("channel_id")?,
                use_global_device_ids: a.flag("use_global_device_ids")?,
            },
            "all-to-all" => {
                let replica_groups = a.groups()?;
                let channel_id = a.int("channel_id")?;
                let (split_dimension, concat_dimension, split_count) = if a.has("dimensions") {
                    let d = a.single_dim("dimensions")?;
                    let n =
                        all_to_all_implied_split_count(&replica_groups, self.config.num_replicas);
                    (d, d, n)
                } else if a.has("split_dimension") {
                    (
                        a.req_int("split_dimension")?,
                        a.req_int("concat_dimension")?,
                        a.req_int("split_count")?,
                    )
                } else {
                    return Err(Error::unimplemented(format!(
                        "{}: all-to-all without dimensions (the tuple form) is not supported",
                        position(a.src, a.opcode_pos)
                    )));
                };
                Op::AllToAll {
                    split_dimension,
                    concat_dimension,
                    split_count,
                    replica_groups,
                    channel_id,
                }
            }
            "collective-permute" => Op::CollectivePermute {
                source_target_pairs: a.req("source_target_pairs", parse_pairs)?,
                channel_id: a.int("channel_id")?,
            },
            "collective-broadcast" => Op::CollectiveBroadcast {
                replica_groups: a.groups()?,
                channel_id: a.int("channel_id")?,
            },
            "collective-reduce" => Op::CollectiveReduce {
                replica_groups: a.groups()?,
                channel_id: a.int("channel_id")?,
            },
            "parameter" | "constant" => {
                return Err(error_at(a.src, a.opcode_pos, format!("malformed {opcode}")))
            }
            other if UNSUPPORTED_OPCODES.contains(&other) => {
                return Err(Error::unimplemented(format!(
                    "{}: opcode '{other}' is not supported by Oxla",
                    position(a.src, a.opcode_pos)
                )))
            }
            other => {
                return Err(error_at(
                    a.src,
                    a.opcode_pos,
                    format!("unknown opcode '{other}'"),
                ))
            }
        })
    }
}

fn position(src: &str, pos: usize) -> String {
    let (l, c) = super::lexer::line_col(src, pos);
    format!("at {l}:{c}")
}

fn parse_api_version(c: &mut Cursor) -> Result<i32> {
    c.skip_ws();
    let pos = c.pos;
    if c.peek().is_some_and(|ch| ch.is_ascii_digit() || ch == '-') {
        let v = c.int()?;
        return i32::try_from(v).map_err(|_| c.err_at(pos, "api_version out of range"));
    }
    let options: Vec<(&str, i32)> = API_VERSIONS.iter().map(|&(n, s)| (s, n)).collect();
    parse_enum(c, "an api_version", &options)
}

/// `call(...), is_composite=true, frontend_attributes={composite.name="..", ...}`.
fn composite(a: &Attrs) -> Result<Op> {
    let map = a.req("frontend_attributes", parse_string_map)?;
    let get = |k: &str| map.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    let Some(name) = get("composite.name") else {
        return Err(error_at(
            a.src,
            a.opcode_pos,
            "composite call needs composite.name in frontend_attributes",
        ));
    };
    let version = match get("composite.version") {
        None => 0,
        Some(v) => v.trim().parse::<i64>().map_err(|_| {
            error_at(
                a.src,
                a.opcode_pos,
                format!("composite.version must be an integer, found \"{v}\""),
            )
        })?,
    };
    Ok(Op::CompositeCall {
        name,
        attributes: get("composite.attributes").unwrap_or_default(),
        version,
    })
}

/// Names of called computations, in the order `HloInstruction::called` documents.
fn called_refs(a: &Attrs) -> Result<Vec<NameRef>> {
    let mut out = Vec::new();
    for key in [
        "condition",
        "body",
        "select",
        "scatter",
        "true_computation",
        "false_computation",
        "to_apply",
    ] {
        if let Some(r) = a.get(key, |c| {
            c.skip_ws();
            let pos = c.pos;
            Ok((c.name("a computation name")?.to_string(), pos))
        })? {
            out.push(r);
        }
    }
    for key in ["branch_computations", "called_computations", "calls"] {
        if let Some(list) = a.get(key, comp_list)? {
            out.extend(list);
        }
    }
    Ok(out)
}

/// `{%a, %b}` (or a single bare name, as XLA's `calls=%fused` writes).
fn comp_list(c: &mut Cursor) -> Result<Vec<NameRef>> {
    let mut v = Vec::new();
    if !c.eat("{") {
        c.skip_ws();
        let pos = c.pos;
        v.push((c.name("a computation name")?.to_string(), pos));
        return Ok(v);
    }
    if c.eat("}") {
        return Ok(v);
    }
    loop {
        c.skip_ws();
        let pos = c.pos;
        v.push((c.name("a computation name")?.to_string(), pos));
        if c.eat("}") {
            return Ok(v);
        }
        c.expect(",")?;
    }
}
