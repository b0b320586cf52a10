//! The builder core: instruction creation, error model, sub-computation import, build.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};

use oxla_hlo::{
    infer_shape, verify_module, ComputationId, Error, HloComputation, HloInstruction, HloModule,
    InstrId, ModuleConfig, Op, ProgramShape, Result, Shape,
};

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn fresh_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// A handle to a value built by one `XlaBuilder`. Cheap to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XlaOp {
    pub(crate) id: u32,
    pub(crate) builder: u64,
}

impl XlaOp {
    const POISON: u32 = u32::MAX;
    /// The instruction id in the builder's computation.
    pub fn instr_id(self) -> InstrId {
        InstrId(self.id)
    }
}

/// A built computation: a module whose entry is the computation that was built.
#[derive(Clone, Debug)]
pub struct XlaComputation {
    module: HloModule,
    uid: u64,
}

impl XlaComputation {
    /// Wraps a module (e.g. parsed from HLO text) after verifying it.
    pub fn from_module(module: HloModule) -> Result<XlaComputation> {
        verify_module(&module)?;
        Ok(XlaComputation {
            module,
            uid: fresh_id(),
        })
    }
    /// The HLO module.
    pub fn module(&self) -> &HloModule {
        &self.module
    }
    /// The HLO module, by value.
    pub fn into_module(self) -> HloModule {
        self.module
    }
    /// The module's name.
    pub fn name(&self) -> &str {
        &self.module.entry_computation().name
    }
    /// The entry computation's parameter and result shapes.
    pub fn program_shape(&self) -> ProgramShape {
        self.module.entry_program_shape()
    }
    /// The module in HLO text form.
    pub fn to_hlo_text(&self) -> String {
        oxla_hlo::text::print_module(&self.module)
    }
}

/// Builds one computation. See the crate docs for the error model.
#[derive(Debug)]
pub struct XlaBuilder {
    id: u64,
    name: String,
    instrs: Vec<HloInstruction>,
    params: Vec<(usize, InstrId)>,
    /// Imported sub-computations, in module order (callees first).
    comps: Vec<HloComputation>,
    imported: HashMap<u64, ComputationId>,
    names: HashSet<String>,
    comp_names: HashSet<String>,
    counter: usize,
    sub_counter: usize,
    error: Option<Error>,
    config: ModuleConfig,
}

impl XlaBuilder {
    /// A builder for a computation named `name`.
    pub fn new(name: impl Into<String>) -> XlaBuilder {
        let name = name.into();
        let mut comp_names = HashSet::new();
        comp_names.insert(name.clone());
        XlaBuilder {
            id: fresh_id(),
            name,
            instrs: Vec::new(),
            params: Vec::new(),
            comps: Vec::new(),
            imported: HashMap::new(),
            names: HashSet::new(),
            comp_names,
            counter: 0,
            sub_counter: 0,
            error: None,
            config: ModuleConfig::default(),
        }
    }

    /// A builder for a sub-computation (reducer, comparator, body …), named after this one.
    pub fn create_sub_builder(&mut self, name: &str) -> XlaBuilder {
        self.sub_counter += 1;
        XlaBuilder::new(format!("{}.{}.{}", name, self.name, self.sub_counter))
    }

    /// The name given to [`XlaBuilder::new`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Replica and partition counts recorded in the built module.
    pub fn set_config(&mut self, config: ModuleConfig) {
        self.config = config;
    }

    /// The first error recorded, if any.
    pub fn first_error(&self) -> Option<&Error> {
        self.error.as_ref()
    }

    /// Records `e` as the error of the op being built (only the first error is kept).
    pub fn report_error(&mut self, e: Error) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    fn poison(&self) -> XlaOp {
        XlaOp {
            id: XlaOp::POISON,
            builder: self.id,
        }
    }

    fn resolve(&self, op: XlaOp) -> Result<InstrId> {
        if op.builder != self.id {
            return Err(Error::invalid(format!(
                "XlaOp from another builder used in builder {}",
                self.name
            )));
        }
        if op.id == XlaOp::POISON || op.id as usize >= self.instrs.len() {
            return Err(Error::invalid(format!(
                "invalid XlaOp (id {}) in builder {}",
                op.id, self.name
            )));
        }
        Ok(InstrId(op.id))
    }

    /// The shape of a built value.
    pub fn get_shape(&self, op: XlaOp) -> Result<Shape> {
        let id = self.resolve(op)?;
        Ok(self.instrs[id.index()].shape.clone())
    }

    /// The op of a built value (for tests and importers).
    pub fn get_op(&self, op: XlaOp) -> Result<&Op> {
        let id = self.resolve(op)?;
        Ok(&self.instrs[id.index()].op)
    }

    fn unique_name(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        while self.names.contains(&name) {
            self.counter += 1;
            name = format!("{base}.{}", self.counter);
        }
        self.names.insert(name.clone());
        name
    }

    fn next_name(&mut self, opcode: &str) -> String {
        self.counter += 1;
        let base = format!("{opcode}.{}", self.counter);
        self.unique_name(&base)
    }

    /// Adds an instruction after inferring its shape. On any error the first error is
    /// recorded and a poisoned handle returned.
    pub(crate) fn add_instr(
        &mut self,
        op: Op,
        operands: &[XlaOp],
        called: Vec<ComputationId>,
        declared: Option<Shape>,
    ) -> XlaOp {
        if self.error.is_some() {
            return self.poison();
        }
        let opcode = op.opcode_name();
        match self.try_add(op, operands, called, declared) {
            Ok(x) => x,
            Err(e) => {
                self.report_error(e.context(format!("{opcode} (op #{})", self.instrs.len())));
                self.poison()
            }
        }
    }

    fn try_add(
        &mut self,
        op: Op,
        operands: &[XlaOp],
        called: Vec<ComputationId>,
        declared: Option<Shape>,
    ) -> Result<XlaOp> {
        let ids: Vec<InstrId> = operands
            .iter()
            .map(|&o| self.resolve(o))
            .collect::<Result<_>>()?;
        let shapes: Vec<&Shape> = ids.iter().map(|i| &self.instrs[i.index()].shape).collect();
        let programs: Vec<ProgramShape> = called
            .iter()
            .map(|c| self.comps[c.index()].program_shape())
            .collect();
        let program_refs: Vec<&ProgramShape> = programs.iter().collect();
        let shape = infer_shape(&op, &shapes, &program_refs, declared.as_ref())?;
        let name = match &op {
            Op::Parameter { .. } => String::new(),
            _ => self.next_name(op.opcode_name()),
        };
        let id = self.instrs.len() as u32;
        self.instrs.push(HloInstruction {
            name,
            op,
            operands: ids,
            called,
            shape,
            plan: None,
        });
        Ok(XlaOp {
            id,
            builder: self.id,
        })
    }

    /// `parameter(number, shape, name)`.
    pub fn parameter(&mut self, number: usize, shape: &Shape, name: &str) -> XlaOp {
        if self.error.is_some() {
            return self.poison();
        }
        if self.params.iter().any(|&(n, _)| n == number) {
            self.report_error(Error::invalid(format!(
                "parameter: parameter number {number} is defined twice"
            )));
            return self.poison();
        }
        let x = self.add_instr(Op::Parameter { number }, &[], vec![], Some(shape.clone()));
        if let Ok(id) = self.resolve(x) {
            let base = if name.is_empty() {
                format!("p{number}")
            } else {
                name.to_string()
            };
            let n = self.unique_name(&base);
            self.instrs[id.index()].name = n;
            self.params.push((number, id));
        }
        x
    }

    /// Changes the attributes of a built op (for importers whose ops carry attributes the
    /// op methods do not take, e.g. channel ids); its shape is inferred again and any
    /// failure is recorded like an op error.
    pub fn modify_op(&mut self, x: XlaOp, f: impl FnOnce(&mut Op)) {
        let Ok(id) = self.resolve(x) else { return };
        let mut op = self.instrs[id.index()].op.clone();
        f(&mut op);
        let ins = &self.instrs[id.index()];
        let shapes: Vec<&Shape> = ins
            .operands
            .iter()
            .map(|o| &self.instrs[o.index()].shape)
            .collect();
        let programs: Vec<ProgramShape> = ins
            .called
            .iter()
            .map(|c| self.comps[c.index()].program_shape())
            .collect();
        let refs: Vec<&ProgramShape> = programs.iter().collect();
        match infer_shape(&op, &shapes, &refs, Some(&ins.shape)) {
            Ok(s) if s.compatible(&ins.shape.without_layout()) => {
                self.instrs[id.index()].op = op;
            }
            Ok(s) => self.report_error(Error::invalid(format!(
                "modify_op: the changed {} would have shape {s}",
                op.opcode_name()
            ))),
            Err(e) => self.report_error(e),
        }
    }

    /// Copies `comp` (and its callees) into this builder's module, once per computation.
    pub(crate) fn import(&mut self, comp: &XlaComputation) -> Option<ComputationId> {
        if self.error.is_some() {
            return None;
        }
        if let Some(&id) = self.imported.get(&comp.uid) {
            return Some(id);
        }
        let base = self.comps.len() as u32;
        let order = match comp.module.computation_post_order() {
            Ok(o) => o,
            Err(e) => {
                self.report_error(e);
                return None;
            }
        };
        // Map old computation ids to new ones in post order (callees first).
        let mut remap = HashMap::new();
        for (i, &old) in order.iter().enumerate() {
            remap.insert(old, ComputationId(base + i as u32));
        }
        for &old in &order {
            let mut c = comp.module.computation(old).clone();
            let mut cname = c.name.clone();
            let mut k = 0;
            while self.comp_names.contains(&cname) {
                k += 1;
                cname = format!("{}.{k}", c.name);
            }
            self.comp_names.insert(cname.clone());
            c.name = cname;
            for ins in &mut c.instructions {
                ins.name = self.unique_name(&ins.name);
                for callee in &mut ins.called {
                    *callee = remap[callee];
                }
            }
            self.comps.push(c);
        }
        let id = remap[&comp.module.entry];
        self.imported.insert(comp.uid, id);
        Some(id)
    }

    /// Imports computations for an op; None (error recorded) if any failed.
    pub(crate) fn import_all(&mut self, comps: &[&XlaComputation]) -> Option<Vec<ComputationId>> {
        comps.iter().map(|c| self.import(c)).collect()
    }

    /// Builds with the last added op as the root.
    pub fn build(&mut self) -> Result<XlaComputation> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if self.instrs.is_empty() {
            return Err(Error::invalid(format!(
                "build: computation {} has no instructions",
                self.name
            )));
        }
        let root = XlaOp {
            id: self.instrs.len() as u32 - 1,
            builder: self.id,
        };
        self.build_with_root(root)
    }

    /// Builds with `root` as the computation's result.
    pub fn build_with_root(&mut self, root: XlaOp) -> Result<XlaComputation> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let root = self.resolve(root)?;
        let mut params = self.params.clone();
        params.sort();
        for (i, &(n, _)) in params.iter().enumerate() {
            if n != i {
                return Err(Error::invalid(format!(
                    "build: parameter numbers of {} must be 0..{} without gaps, missing {i}",
                    self.name,
                    params.len()
                )));
            }
        }
        let entry = HloComputation {
            name: self.name.clone(),
            instructions: self.instrs.clone(),
            parameters: params.iter().map(|&(_, id)| id).collect(),
            root,
        };
        let mut computations = self.comps.clone();
        computations.push(entry);
        let module = HloModule {
            name: self.name.clone(),
            entry: ComputationId(computations.len() as u32 - 1),
            computations,
            config: self.config.clone(),
        };
        verify_module(&module)?;
        Ok(XlaComputation {
            module,
            uid: fresh_id(),
        })
    }
}
