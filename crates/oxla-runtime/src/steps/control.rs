//! Control-flow steps: while, conditional and call run sub-programs; a while's state moves
//! into its body (which may then update it in place).

use oxla_hlo::{Error, PrimitiveType, Result};

use crate::exec::V;
use crate::plan::Programs;
use crate::run::{read_pred, Frame, StepCtx};
use crate::steps::flat_loop::FlatLoop;

impl Programs {
    /// Runs a while loop: condition program `cond`, body program `body`.
    ///
    /// The body runs in two frames by turns and leaves its results in the arena of the frame
    /// it ran in: iteration k reads the state iteration k-1 left in the other frame, which
    /// is not run again before iteration k+1, when that state has been replaced. So an
    /// iteration allocates nothing and copies nothing, except a result that passes through
    /// a value of the other frame (or of the caller's arena): that one is copied out, as the
    /// next iteration overwrites it.
    ///
    /// A loop of kernels only (`flat`) switches to the fast path of `flat_loop.rs` as soon
    /// as its state qualifies, unless steps are being profiled.
    pub(crate) fn run_while(
        &self,
        s: &StepCtx,
        cond: &usize,
        body: &usize,
        flat: Option<&FlatLoop>,
    ) -> Result<V> {
        let (ins, vals) = (s.ins, s.vals);
        let mut cf = Frame::default();
        let mut bf = [Frame::default(), Frame::default()];
        let mut args = vec![vals[ins.operands[0].index()].clone()];
        let flat =
            flat.filter(|_| !crate::profile::printing() && crate::profile::current().is_none());
        for k in 0usize.. {
            s.x.check_cancel(&ins.name)?;
            if let Some(f) = flat {
                if let Some(st) = f.enter(&mut args[0]) {
                    let state = self.run_flat_loop(s, f, st, k, &mut cf, &mut bf)?;
                    return self.own(state);
                }
            }
            let c = self.run_in(s.x, *cond, &mut args, &mut cf, false)?;
            let go = read_pred(&c)?;
            drop(c);
            if !go {
                break;
            }
            // The state moves into the body, which may then update it in place; the old
            // state is dropped before the next iteration so that it holds no buffer.
            let frame = &mut bf[k & 1];
            let mut next = self.run_in(s.x, *body, &mut args, frame, false)?;
            self.own_outside(&mut next, &frame.arena_range())?;
            args.clear();
            args.push(next);
        }
        let state = args.pop().ok_or_else(|| Error::internal("while state"))?;
        self.own(state)
    }

    /// Copies the arena-resident arrays of `v` that lie outside `arena` (an address range)
    /// into owned memory.
    fn own_outside(&self, v: &mut V, arena: &std::ops::Range<usize>) -> Result<()> {
        match v {
            V::Arr {
                ptr, keep: None, ..
            } if !arena.contains(&(*ptr as usize)) => {
                *v = self.own(std::mem::replace(v, V::Unset))?;
            }
            V::Tuple(t) => {
                for x in t {
                    self.own_outside(x, arena)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Runs the branch the selector picks (out of range: the last).
    pub(crate) fn run_conditional(&self, s: &StepCtx, branches: &[usize]) -> Result<V> {
        let ins = s.ins;
        let vals = s.vals;
        let sel = match &vals[ins.operands[0].index()] {
            V::Arr { ptr, shape, .. } => {
                // SAFETY: a scalar pred or s32 operand.
                unsafe {
                    if shape.element_type == PrimitiveType::Pred {
                        // true selects branch 0.
                        if **ptr != 0 {
                            0
                        } else {
                            1
                        }
                    } else {
                        let k = std::ptr::read_unaligned(*ptr as *const i32);
                        if k < 0 || k as usize >= branches.len() {
                            branches.len() - 1
                        } else {
                            k as usize
                        }
                    }
                }
            }
            _ => return Err(Error::internal("conditional selector")),
        };
        let arg = vals[ins.operands[1 + sel].index()].clone();
        self.run(s.x, branches[sel], vec![arg])
    }

    /// Runs program `callee` on the operands.
    pub(crate) fn run_call(&self, s: &StepCtx, callee: &usize) -> Result<V> {
        let ins = s.ins;
        let vals = s.vals;
        let args: Vec<V> = ins
            .operands
            .iter()
            .map(|o| vals[o.index()].clone())
            .collect();
        self.run(s.x, *callee, args)
    }
}
