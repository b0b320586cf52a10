//! Manually partitioned SPMD programs: what JAX emits for `shard_map`, and for `pmap`, which
//! JAX 0.10 lowers through `shard_map`. The entry takes the global arrays, marks them with
//! `Sharding` custom calls, cuts each into this partition's shard with
//! `SPMDFullToShardShape`, runs the per-device body (collectives included) on the shards, and
//! reassembles the results with `SPMDShardToFullShape`. XLA's SPMD partitioner turns that into
//! the per-device program; so does this pass, for the manual case, which needs no
//! communication of its own: every device already receives its own shard as its argument
//! (PJRT hands each device its piece of the global array, in device-assignment order) and
//! returns its own piece of each result. So a parameter takes the shard shape its
//! `SPMDFullToShardShape` gives it, a result is the value `SPMDShardToFullShape` would
//! reassemble, and `Sharding` annotations are the identity.
//!
//! Programs the pass does not handle get an `Unimplemented` error: a global parameter also
//! used outside the manual region, or a reassembled result used by further (automatically
//! partitioned) ops — both need XLA's automatic SPMD partitioner, which Oxla does not have.

use std::collections::HashMap;

use oxla_hlo::{Error, HloComputation, HloModule, InstrId, Op, Result, Shape, SpmdSignature};

use super::{target, SHARDING, TO_FULL, TO_SHARD};
use crate::rewrite::{apply_replacements, resolve};

/// The HLO sharding an annotation carries (the importer puts `mhlo.sharding` in the
/// backend_config); none means replicated.
fn sharding_of(op: &Op) -> String {
    match op {
        Op::CustomCall { backend_config, .. } if !backend_config.is_empty() => {
            backend_config.clone()
        }
        _ => "{replicated}".to_string(),
    }
}

/// The global arrays of the entry before partitioning: each parameter with the sharding of
/// the `Sharding` annotation on it, each result with the sharding it is reassembled with.
fn signature(c: &HloComputation) -> SpmdSignature {
    let users = c.users();
    let parameters = c
        .parameters
        .iter()
        .map(|&p| {
            let annotated = users[p.index()]
                .iter()
                .map(|&u| &c.instructions[u.index()].op)
                .find(|op| target(op) == Some(SHARDING));
            let sharding = annotated.map_or_else(|| "{replicated}".to_string(), sharding_of);
            (c.instructions[p.index()].shape.clone(), sharding)
        })
        .collect();
    let root = c.instr(c.root);
    let outputs = match root.op {
        Op::Tuple => root.operands.clone(),
        _ => vec![c.root],
    };
    let results = outputs
        .iter()
        .map(|&o| {
            let ins = c.instr(o);
            let sharding = match target(&ins.op) {
                Some(TO_FULL) | Some(SHARDING) => sharding_of(&ins.op),
                _ => "{replicated}".to_string(),
            };
            (ins.shape.clone(), sharding)
        })
        .collect();
    SpmdSignature {
        parameters,
        results,
        whole: Vec::new(),
    }
}

/// Rewrites a manually partitioned entry into the per-device program (see the module
/// documentation); `Sharding` annotations anywhere become the identity. Returns whether the
/// module changed.
pub fn partition_manual(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    let entry = module.entry.index();
    let mut spmd = None;
    for (ci, c) in module.computations.iter_mut().enumerate() {
        let manual = ci == entry
            && c.instructions
                .iter()
                .any(|i| matches!(target(&i.op), Some(TO_SHARD) | Some(TO_FULL)));
        if manual {
            spmd = Some(signature(c));
        }
        let mut rep: HashMap<InstrId, InstrId> = HashMap::new();
        let mut shard_shapes: HashMap<usize, Shape> = HashMap::new();
        let mut reassembled: Vec<InstrId> = Vec::new();
        for (i, ins) in c.instructions.iter().enumerate() {
            let id = InstrId(i as u32);
            let Some(t) = target(&ins.op) else { continue };
            if ![SHARDING, TO_SHARD, TO_FULL].contains(&t) {
                continue;
            }
            let [src] = ins.operands[..] else {
                return Err(Error::invalid(format!(
                    "{} (custom-call {t}) takes one operand, got {}",
                    ins.name,
                    ins.operands.len()
                )));
            };
            // Through the replacements made so far (arena order is topological).
            let src = resolve(&rep, src);
            if t == SHARDING {
                rep.insert(id, src);
                continue;
            }
            if ci != entry {
                return Err(Error::unimplemented(format!(
                    "{} (custom-call {t}) outside the entry computation: only a shard_map \
                     at the top level of the program is partitioned",
                    ins.name
                )));
            }
            if t == TO_FULL {
                rep.insert(id, src);
                reassembled.push(id);
                continue;
            }
            let Op::Parameter { number } = c.instructions[src.index()].op else {
                return Err(Error::unimplemented(format!(
                    "{} (custom-call {TO_SHARD}) of a computed value ({}): only parameters \
                     enter a shard_map here; anything else needs automatic SPMD partitioning",
                    ins.name,
                    c.instructions[src.index()].name
                )));
            };
            if let Some(s) = shard_shapes.insert(number, ins.shape.clone()) {
                if s != ins.shape {
                    return Err(Error::unimplemented(format!(
                        "parameter {number} enters the shard_map with two shard shapes, {s} \
                         and {}",
                        ins.shape
                    )));
                }
            }
            rep.insert(id, src);
        }
        if rep.is_empty() {
            continue;
        }
        changed = true;
        // A sharded parameter's other users, and a reassembled result's users other than the
        // program's output, would see the shard where they expect the global array.
        let users = c.users();
        let is_annotation = |id: InstrId| {
            target(&c.instructions[id.index()].op).is_some_and(|t| t == SHARDING || t == TO_SHARD)
        };
        for &number in shard_shapes.keys() {
            let p = c.parameters[number];
            let mut stack = vec![p];
            while let Some(x) = stack.pop() {
                for &u in &users[x.index()] {
                    if !is_annotation(u) {
                        return Err(Error::unimplemented(format!(
                            "parameter {number} is used outside the shard_map ({}): that \
                             needs automatic SPMD partitioning",
                            c.instructions[u.index()].name
                        )));
                    }
                    if target(&c.instructions[u.index()].op) == Some(SHARDING) {
                        stack.push(u);
                    }
                }
            }
        }
        let root = c.root;
        for &s in &reassembled {
            let mut stack = vec![s];
            while let Some(x) = stack.pop() {
                for &u in &users[x.index()] {
                    let ok_output = u == root && matches!(c.instructions[u.index()].op, Op::Tuple);
                    if target(&c.instructions[u.index()].op) == Some(SHARDING) {
                        stack.push(u);
                    } else if !ok_output {
                        return Err(Error::unimplemented(format!(
                            "the result of {} ({TO_FULL}) is used by {}: ops on the \
                             reassembled array need automatic SPMD partitioning",
                            c.instructions[s.index()].name,
                            c.instructions[u.index()].name
                        )));
                    }
                }
            }
        }
        apply_replacements(c, &rep);
        for (number, shape) in shard_shapes {
            let p = c.parameters[number];
            c.instructions[p.index()].shape = shape;
        }
        let root = c.root;
        if matches!(c.instructions[root.index()].op, Op::Tuple) {
            let parts = c.instructions[root.index()]
                .operands
                .iter()
                .map(|o| c.instructions[o.index()].shape.clone())
                .collect();
            c.instructions[root.index()].shape = Shape::Tuple(parts);
        }
    }
    if spmd.is_some() {
        module.config.spmd = spmd;
    }
    if changed {
        // The custom calls are unused now.
        crate::dce(module)?;
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxla_hlo::text::parse_module;

    fn run(text: &str) -> Result<HloModule> {
        let mut m = parse_module(text)?;
        partition_manual(&mut m)?;
        oxla_hlo::verify_module(&m)?;
        Ok(m)
    }

    #[test]
    fn shard_map_body_becomes_the_per_device_program() {
        let m = run(r#"HloModule m
ENTRY main {
  p = f32[8] parameter(0)
  s = f32[8] custom-call(p), custom_call_target="Sharding", backend_config="{devices=[4]<=[4]}"
  l = f32[2] custom-call(s), custom_call_target="SPMDFullToShardShape", backend_config="{manual}"
  n = f32[2] negate(l)
  m = f32[2] custom-call(n), custom_call_target="Sharding"
  f = f32[8] custom-call(m), custom_call_target="SPMDShardToFullShape"
  ROOT t = (f32[8]) tuple(f)
}
"#)
        .unwrap();
        let c = m.computation(m.entry);
        assert_eq!(c.program_shape().to_string(), "(f32[2]) -> (f32[2])");
        let sig = m.config.spmd.as_ref().unwrap();
        assert_eq!(sig.parameters[0].0.to_string(), "f32[8]");
        assert_eq!(sig.parameters[0].1, "{devices=[4]<=[4]}");
        assert_eq!(sig.results[0].1, "{replicated}");
        assert!(c
            .instructions
            .iter()
            .all(|i| !matches!(i.op, Op::CustomCall { .. })));
    }

    #[test]
    fn sharding_annotations_alone_are_the_identity() {
        let m = run(r#"HloModule m
ENTRY main {
  p = f32[3] parameter(0)
  s = f32[3] custom-call(p), custom_call_target="Sharding"
  ROOT n = f32[3] negate(s)
}
"#)
        .unwrap();
        assert_eq!(m.computation(m.entry).instructions.len(), 2);
    }

    #[test]
    fn automatic_partitioning_is_unimplemented() {
        let used_outside = r#"HloModule m
ENTRY main {
  p = f32[8] parameter(0)
  l = f32[2] custom-call(p), custom_call_target="SPMDFullToShardShape"
  f = f32[8] custom-call(l), custom_call_target="SPMDShardToFullShape"
  ROOT a = f32[8] add(f, p)
}
"#;
        let e = run(used_outside).unwrap_err().to_string();
        assert!(e.contains("automatic SPMD"), "{e}");
        let computed = r#"HloModule m
ENTRY main {
  p = f32[8] parameter(0)
  n = f32[8] negate(p)
  l = f32[2] custom-call(n), custom_call_target="SPMDFullToShardShape"
  ROOT f = f32[8] custom-call(l), custom_call_target="SPMDShardToFullShape"
}
"#;
        let e = run(computed).unwrap_err().to_string();
        assert!(e.contains("computed value"), "{e}");
    }
}
