//! The HLO IR: a module owns computations; a computation owns an arena of instructions.
//!
//! Instructions refer to operands by [`InstrId`] (an index into their computation's arena)
//! and to sub-computations by [`ComputationId`] (an index into the module). Arena order is a
//! valid topological order when built through the builder or parser (operands before users);
//! passes that rewrite keep it so or call [`HloComputation::post_order`].

use crate::error::{Error, Result};
use crate::op::Op;
use crate::shape::{ProgramShape, Shape};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstrId(pub u32);

impl InstrId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ComputationId(pub u32);

impl ComputationId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct HloInstruction {
    /// Unique within the module, without the `%` (e.g. `add.3`).
    pub name: String,
    pub op: Op,
    pub operands: Vec<InstrId>,
    /// Sub-computations, in the order documented on the `Op` variant.
    pub called: Vec<ComputationId>,
    pub shape: Shape,
    /// How the compiled path runs it (set by the `plan` pass; printed as `plan=NAME`).
    pub plan: Option<crate::ExecPlan>,
}

impl HloInstruction {
    pub fn new(name: impl Into<String>, op: Op, operands: Vec<InstrId>, shape: Shape) -> Self {
        HloInstruction {
            name: name.into(),
            op,
            operands,
            called: Vec::new(),
            shape,
            plan: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct HloComputation {
    pub name: String,
    pub instructions: Vec<HloInstruction>,
    /// Parameter instructions by parameter number.
    pub parameters: Vec<InstrId>,
    pub root: InstrId,
}

impl HloComputation {
    pub fn instr(&self, id: InstrId) -> &HloInstruction {
        &self.instructions[id.index()]
    }
    pub fn instr_mut(&mut self, id: InstrId) -> &mut HloInstruction {
        &mut self.instructions[id.index()]
    }
    pub fn get(&self, id: InstrId) -> Option<&HloInstruction> {
        self.instructions.get(id.index())
    }
    pub fn root_instr(&self) -> &HloInstruction {
        self.instr(self.root)
    }
    pub fn ids(&self) -> impl Iterator<Item = InstrId> {
        (0..self.instructions.len() as u32).map(InstrId)
    }
    pub fn program_shape(&self) -> ProgramShape {
        ProgramShape {
            parameters: self
                .parameters
                .iter()
                .map(|&p| self.instr(p).shape.clone())
                .collect(),
            result: self.root_instr().shape.clone(),
        }
    }
    /// Instructions reachable from the root, operands before users (iterative DFS, so deep
    /// graphs do not overflow the stack). Side-effecting instructions not reachable from the
    /// root are appended, each after its own operands.
    pub fn post_order(&self) -> Vec<InstrId> {
        let n = self.instructions.len();
        let mut state = vec![0u8; n]; // 0 = unvisited, 1 = on stack, 2 = done
        let mut order = Vec::with_capacity(n);
        let mut starts = vec![self.root];
        starts.extend(
            self.ids()
                .filter(|&i| self.instr(i).op.has_side_effect() && i != self.root),
        );
        for start in starts {
            if start.index() >= n || state[start.index()] == 2 {
                continue;
            }
            let mut stack: Vec<(InstrId, usize)> = vec![(start, 0)];
            state[start.index()] = 1;
            while let Some((id, next)) = stack.pop() {
                let ops = &self.instructions[id.index()].operands;
                if next < ops.len() {
                    stack.push((id, next + 1));
                    let o = ops[next];
                    if o.index() < n && state[o.index()] == 0 {
                        state[o.index()] = 1;
                        stack.push((o, 0));
                    }
                } else {
                    state[id.index()] = 2;
                    order.push(id);
                }
            }
        }
        order
    }
    /// Users of each instruction (indexed by InstrId).
    pub fn users(&self) -> Vec<Vec<InstrId>> {
        let mut users = vec![Vec::new(); self.instructions.len()];
        for id in self.ids() {
            for &o in &self.instr(id).operands {
                if let Some(u) = users.get_mut(o.index()) {
                    // Ids come in order, so a user that reads an operand twice was pushed
                    // last (a `contains` scan was quadratic in a value's users).
                    if u.last() != Some(&id) {
                        u.push(id);
                    }
                }
            }
        }
        users
    }
}

/// Module-wide configuration carried with the module (HLO text header attributes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleConfig {
    pub num_replicas: i64,
    pub num_partitions: i64,
    /// Set when a manually partitioned program (shard_map, pmap) was turned into its
    /// per-device program: the global arrays it computes on.
    pub spmd: Option<SpmdSignature>,
}

/// How a partitioned program's per-device parameters and results form global arrays: each
/// one's global shape and HLO sharding (`{devices=[4,1]<=[4]}`, `{replicated}`), for
/// runtimes that report it (PJRT: JAX reads the shardings back).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SpmdSignature {
    pub parameters: Vec<(Shape, String)>,
    pub results: Vec<(Shape, String)>,
    /// The instructions the partitioner had no rule for, which run whole on every
    /// partition (`name (opcode)`): correct, not parallel; profiles list them.
    pub whole: Vec<String>,
}

impl Default for ModuleConfig {
    fn default() -> Self {
        ModuleConfig {
            num_replicas: 1,
            num_partitions: 1,
            spmd: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct HloModule {
    pub name: String,
    pub computations: Vec<HloComputation>,
    pub entry: ComputationId,
    pub config: ModuleConfig,
}

impl HloModule {
    /// For each computation, whether running it has a side effect: one of its instructions
    /// has one (`Op::has_side_effect`) or calls a computation that has one (a `while` whose
    /// body runs a host callback, a call, a branch), as XLA's `HasSideEffect` counts them.
    pub fn side_effecting_computations(&self) -> Vec<bool> {
        let mut effects: Vec<bool> = self
            .computations
            .iter()
            .map(|c| c.instructions.iter().any(|i| i.op.has_side_effect()))
            .collect();
        // To a fixed point: callers become side-effecting through their callees.
        loop {
            let mut changed = false;
            for (ci, c) in self.computations.iter().enumerate() {
                if effects[ci] {
                    continue;
                }
                let calls = c.instructions.iter().flat_map(|i| i.called.iter());
                if calls
                    .clone()
                    .any(|k| effects.get(k.index()).copied().unwrap_or(false))
                {
                    effects[ci] = true;
                    changed = true;
                }
            }
            if !changed {
                return effects;
            }
        }
    }

    /// Whether `ins` has a side effect, itself or through the computations it calls
    /// (`effects` from [`HloModule::side_effecting_computations`]).
    pub fn instruction_has_side_effect(effects: &[bool], ins: &HloInstruction) -> bool {
        ins.op.has_side_effect()
            || ins
                .called
                .iter()
                .any(|k| effects.get(k.index()).copied().unwrap_or(false))
    }

    pub fn computation(&self, id: ComputationId) -> &HloComputation {
        &self.computations[id.index()]
    }
    pub fn computation_mut(&mut self, id: ComputationId) -> &mut HloComputation {
        &mut self.computations[id.index()]
    }
    pub fn entry_computation(&self) -> &HloComputation {
        self.computation(self.entry)
    }
    pub fn computation_ids(&self) -> impl Iterator<Item = ComputationId> {
        (0..self.computations.len() as u32).map(ComputationId)
    }
    pub fn find_computation(&self, name: &str) -> Option<ComputationId> {
        self.computations
            .iter()
            .position(|c| c.name == name)
            .map(|i| ComputationId(i as u32))
    }
    pub fn entry_program_shape(&self) -> ProgramShape {
        self.entry_computation().program_shape()
    }
    /// Computations in an order where every callee precedes its callers (entry last).
    pub fn computation_post_order(&self) -> Result<Vec<ComputationId>> {
        let n = self.computations.len();
        let mut state = vec![0u8; n];
        let mut order = Vec::with_capacity(n);
        fn visit(
            m: &HloModule,
            c: ComputationId,
            state: &mut [u8],
            order: &mut Vec<ComputationId>,
        ) -> Result<()> {
            match state.get(c.index()) {
                None => {
                    return Err(Error::Verify(format!(
                        "computation id {} out of range",
                        c.0
                    )))
                }
                Some(2) => return Ok(()),
                Some(1) => {
                    return Err(Error::Verify(format!(
                        "computation {} calls itself (recursion is not allowed)",
                        m.computation(c).name
                    )))
                }
                _ => {}
            }
            state[c.index()] = 1;
            for ins in &m.computation(c).instructions {
                for &callee in &ins.called {
                    visit(m, callee, state, order)?;
                }
            }
            state[c.index()] = 2;
            order.push(c);
            Ok(())
        }
        visit(self, self.entry, &mut state, &mut order)?;
        for c in self.computation_ids() {
            visit(self, c, &mut state, &mut order)?;
        }
        Ok(order)
    }
}

#[cfg(test)]
mod tests {
    /// Users in id order, each once, also where it reads the operand twice.
    #[test]
    fn users_lists_each_reader_once_in_order() {
        let m = crate::text::parse_module(
            "HloModule m\n\nENTRY e {\n  p = f32[2] parameter(0)\n  a = f32[2] add(p, p)\n  \
             b = f32[2] multiply(a, p)\n  ROOT c = f32[2] subtract(b, a)\n}\n",
        )
        .unwrap();
        let c = m.entry_computation();
        let users = c.users();
        let name = |i: &super::InstrId| c.instr(*i).name.clone();
        let of = |n: &str| {
            let id = c.ids().find(|&i| c.instr(i).name == n).unwrap();
            users[id.index()].iter().map(name).collect::<Vec<_>>()
        };
        assert_eq!(of("p"), ["a", "b"]);
        assert_eq!(of("a"), ["b", "c"]);
        assert_eq!(of("b"), ["c"]);
        assert!(of("c").is_empty());
    }
}
