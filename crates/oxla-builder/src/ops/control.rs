//! Tuples, tokens and control flow: tuple, get-tuple-element, after-all, opt-barrier, while,
//! conditional, call, composite call, custom call.

use oxla_hlo::{Op, Shape};

use crate::builder::{XlaBuilder, XlaComputation, XlaOp};

impl XlaBuilder {
    // ---------------- tuples and tokens ----------------

    /// A tuple of `elements`.
    pub fn tuple(&mut self, elements: &[XlaOp]) -> XlaOp {
        self.add_instr(Op::Tuple, elements, vec![], None)
    }
    /// Element `index` of tuple `t`.
    pub fn get_tuple_element(&mut self, t: XlaOp, index: usize) -> XlaOp {
        self.add_instr(Op::GetTupleElement { index }, &[t], vec![], None)
    }
    /// A token that depends on `tokens`.
    pub fn after_all(&mut self, tokens: &[XlaOp]) -> XlaOp {
        self.add_instr(Op::AfterAll, tokens, vec![], None)
    }
    /// Identity on a value or tuple that passes may not move computation across.
    pub fn optimization_barrier(&mut self, x: XlaOp) -> XlaOp {
        self.add_instr(Op::OptimizationBarrier, &[x], vec![], None)
    }

    // ---------------- control flow ----------------

    /// `while condition(x): x = body(x)` from `init`.
    pub fn while_loop(
        &mut self,
        condition: &XlaComputation,
        body: &XlaComputation,
        init: XlaOp,
    ) -> XlaOp {
        let Some(c) = self.import_all(&[condition, body]) else {
            return self.add_instr(Op::While, &[], vec![], None);
        };
        self.add_instr(Op::While, &[init], c, None)
    }

    /// Pred-form conditional.
    pub fn conditional(
        &mut self,
        pred: XlaOp,
        true_operand: XlaOp,
        true_computation: &XlaComputation,
        false_operand: XlaOp,
        false_computation: &XlaComputation,
    ) -> XlaOp {
        let Some(c) = self.import_all(&[true_computation, false_computation]) else {
            return self.add_instr(Op::Conditional, &[], vec![], None);
        };
        self.add_instr(
            Op::Conditional,
            &[pred, true_operand, false_operand],
            c,
            None,
        )
    }

    /// Index-form conditional: runs `branches[index]` (the last one when out of range).
    pub fn conditional_indexed(
        &mut self,
        branch_index: XlaOp,
        branches: &[&XlaComputation],
        operands: &[XlaOp],
    ) -> XlaOp {
        let Some(c) = self.import_all(branches) else {
            return self.add_instr(Op::Conditional, &[], vec![], None);
        };
        let mut ops = vec![branch_index];
        ops.extend(operands);
        self.add_instr(Op::Conditional, &ops, c, None)
    }

    /// Calls `computation` on `args`.
    pub fn call(&mut self, computation: &XlaComputation, args: &[XlaOp]) -> XlaOp {
        let Some(c) = self.import_all(&[computation]) else {
            return self.add_instr(Op::Call, &[], vec![], None);
        };
        self.add_instr(Op::Call, args, c, None)
    }

    /// A named op whose meaning is `decomposition`.
    pub fn composite_call(
        &mut self,
        decomposition: &XlaComputation,
        args: &[XlaOp],
        name: &str,
        attributes: &str,
        version: i64,
    ) -> XlaOp {
        let op = Op::CompositeCall {
            name: name.to_string(),
            attributes: attributes.to_string(),
            version,
        };
        let Some(c) = self.import_all(&[decomposition]) else {
            return self.add_instr(op, &[], vec![], None);
        };
        self.add_instr(op, args, c, None)
    }

    /// A custom call of `target` with result `shape` (run by a host function registered on the client, or a built-in target).
    pub fn custom_call(
        &mut self,
        target: &str,
        operands: &[XlaOp],
        shape: &Shape,
        has_side_effect: bool,
        backend_config: &str,
    ) -> XlaOp {
        self.add_instr(
            Op::CustomCall {
                target: target.to_string(),
                backend_config: backend_config.to_string(),
                has_side_effect,
                api_version: 1,
            },
            operands,
            vec![],
            Some(shape.clone()),
        )
    }
}
