//! The host custom-call step: the registered Rust function of the target (resolved when the
//! program was compiled) called on views of the operands and the results' memory.

use std::sync::Arc;

use oxla_hlo::{Error, Result};

use crate::custom_call::{ArrayView, ArrayViewMut, CustomCallArgs, HostFn};
use crate::exec::{array_bytes, V};
use crate::plan::Programs;
use crate::run::StepCtx;
use crate::Client;

impl Programs {
    pub(crate) fn run_custom_call(&self, s: &StepCtx, f: &Arc<HostFn>) -> Result<V> {
        let (x, ins) = (s.x, s.ins);
        let oxla_hlo::Op::CustomCall {
            target,
            backend_config,
            ..
        } = &ins.op
        else {
            return Err(Error::internal("custom-call step of another op"));
        };
        let mut operands = Vec::new();
        for &o in &ins.operands {
            match &s.vals[o.index()] {
                // SAFETY: the operand's live memory, read-only during the call.
                V::Arr { ptr, shape, .. } => operands.push(ArrayView {
                    shape,
                    bytes: unsafe {
                        std::slice::from_raw_parts(*ptr as *const u8, array_bytes(shape))
                    },
                }),
                V::Token => {}
                _ => {
                    return Err(Error::unimplemented(format!(
                        "JIT: custom-call {target} with a tuple operand"
                    )))
                }
            }
        }
        let (outs, v) = self.out_ptrs(s.prog, s.i, &ins.shape, s.base)?;
        let shapes: Vec<oxla_hlo::ArrayShape> = v.arrays().into_iter().map(|(_, a)| a).collect();
        let results = outs
            .iter()
            .zip(&shapes)
            // SAFETY: each result's own fresh memory, disjoint from every other.
            .map(|(p, a)| ArrayViewMut {
                shape: a,
                bytes: unsafe { std::slice::from_raw_parts_mut(*p, array_bytes(a)) },
            })
            .collect();
        let client = Client {
            shared: x.shared.clone(),
        };
        let mut args = CustomCallArgs {
            client: &client,
            target,
            backend_config,
            replica: x.replica as usize,
            partition: x.partition as usize,
            operands,
            results,
        };
        f(&mut args).map_err(|e| e.context(format!("custom-call \"{target}\"")))?;
        Ok(v)
    }
}
