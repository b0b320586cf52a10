//! Arena surgery shared by the passes: replace uses, then drop dead instructions while
//! keeping the arena in topological order.

use std::collections::HashMap;

use oxla_hlo::{HloComputation, HloInstruction, HloModule, InstrId, Op};

/// Follows replacement chains to the final instruction.
pub fn resolve(rep: &HashMap<InstrId, InstrId>, mut id: InstrId) -> InstrId {
    while let Some(&n) = rep.get(&id) {
        if n == id {
            break;
        }
        id = n;
    }
    id
}

/// Rewrites every use (operands, root) through `rep`.
pub fn apply_replacements(c: &mut HloComputation, rep: &HashMap<InstrId, InstrId>) {
    if rep.is_empty() {
        return;
    }
    for ins in &mut c.instructions {
        for o in &mut ins.operands {
            *o = resolve(rep, *o);
        }
    }
    c.root = resolve(rep, c.root);
}

/// Keeps the instructions with `keep[i]` (in order), renumbering operands, parameters and
/// the root. Every kept instruction's operands must be kept.
pub fn compact(c: &mut HloComputation, keep: &[bool]) {
    let mut new_id = vec![u32::MAX; c.instructions.len()];
    let mut next = 0u32;
    for (i, &k) in keep.iter().enumerate() {
        if k {
            new_id[i] = next;
            next += 1;
        }
    }
    let old = std::mem::take(&mut c.instructions);
    for (i, mut ins) in old.into_iter().enumerate() {
        if keep[i] {
            for o in &mut ins.operands {
                *o = InstrId(new_id[o.index()]);
            }
            c.instructions.push(ins);
        }
    }
    for p in &mut c.parameters {
        *p = InstrId(new_id[p.index()]);
    }
    c.root = InstrId(new_id[c.root.index()]);
}

/// The body of a new fused computation named `tag` begun with its parameters: parameter
/// `k` takes the shape of `externals[k]`, an instruction of `c`. Returns the body and the
/// parameters' ids in it.
pub fn fused_parameters(
    c: &HloComputation,
    externals: &[InstrId],
    tag: &str,
) -> (Vec<HloInstruction>, Vec<InstrId>) {
    let body: Vec<HloInstruction> = externals
        .iter()
        .enumerate()
        .map(|(k, e)| {
            HloInstruction::new(
                format!("{tag}.param.{k}"),
                Op::Parameter { number: k },
                vec![],
                c.instr(*e).shape.clone(),
            )
        })
        .collect();
    let ids = (0..body.len()).map(|k| InstrId(k as u32)).collect();
    (body, ids)
}

/// Reorders `c`'s arena so that every operand precedes its users, keeping the existing
/// order wherever it already does.
pub fn topological_order(c: &mut HloComputation) {
    let n = c.instructions.len();
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut state = vec![0u8; n]; // 0 new, 1 on the stack, 2 placed
    for start in 0..n {
        if state[start] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        state[start] = 1;
        while let Some(&mut (i, ref mut k)) = stack.last_mut() {
            let ops = &c.instructions[i].operands;
            if *k < ops.len() {
                let o = ops[*k].index();
                *k += 1;
                if state[o] == 0 {
                    state[o] = 1;
                    stack.push((o, 0));
                }
            } else {
                state[i] = 2;
                order.push(i);
                stack.pop();
            }
        }
    }
    if order.iter().enumerate().all(|(k, &i)| k == i) {
        return;
    }
    let mut new_id = vec![0u32; n];
    for (k, &i) in order.iter().enumerate() {
        new_id[i] = k as u32;
    }
    let mut old: Vec<Option<HloInstruction>> = std::mem::take(&mut c.instructions)
        .into_iter()
        .map(Some)
        .collect();
    for &i in &order {
        if let Some(mut ins) = old[i].take() {
            for o in &mut ins.operands {
                *o = InstrId(new_id[o.index()]);
            }
            c.instructions.push(ins);
        }
    }
    for p in &mut c.parameters {
        *p = InstrId(new_id[p.index()]);
    }
    c.root = InstrId(new_id[c.root.index()]);
}

/// Copies kernel `ins` into the fused body `body`: a loop fusion's instructions (its
/// parameters reading `args`) or the lone instruction (its operands `args`), named with the
/// prefix `tag`. Returns the copy of the kernel's result.
pub fn copy_kernel(
    module: &HloModule,
    body: &mut Vec<HloInstruction>,
    ins: &HloInstruction,
    args: Vec<InstrId>,
    tag: &str,
) -> InstrId {
    let push = |body: &mut Vec<HloInstruction>, src: &HloInstruction, operands| {
        let mut x = src.clone();
        x.name = format!("{tag}.{}", src.name);
        x.operands = operands;
        x.plan = None;
        body.push(x);
        InstrId(body.len() as u32 - 1)
    };
    match (&ins.op, ins.called.first()) {
        (Op::Fusion { .. }, Some(&c)) => {
            let f = module.computation(c);
            let mut map: Vec<InstrId> = Vec::with_capacity(f.instructions.len());
            for fi in &f.instructions {
                let id = match fi.op {
                    Op::Parameter { number } => args[number],
                    _ => push(
                        body,
                        fi,
                        fi.operands.iter().map(|o| map[o.index()]).collect(),
                    ),
                };
                map.push(id);
            }
            map[f.root.index()]
        }
        _ => push(body, ins, args),
    }
}

/// Copies callee `body` into `out` (call inlining, loop unrolling): its parameter `n` reads
/// `args[n]`, each copy is named `{prefix}.{name}` (with `.k` added until the name is not in
/// `names`) and its plan is cleared. Returns the copy of the callee's root.
pub fn copy_callee(
    out: &mut Vec<HloInstruction>,
    body: &HloComputation,
    args: &[InstrId],
    prefix: &str,
    names: &mut std::collections::HashSet<String>,
) -> InstrId {
    let mut inner: Vec<InstrId> = Vec::with_capacity(body.instructions.len());
    for bi in &body.instructions {
        if let Op::Parameter { number } = bi.op {
            inner.push(args.get(number).copied().unwrap_or(InstrId(0)));
            continue;
        }
        let mut n = bi.clone();
        n.operands = bi.operands.iter().map(|o| inner[o.index()]).collect();
        let mut name = format!("{prefix}.{}", bi.name);
        let mut k = 1;
        while names.contains(&name) {
            k += 1;
            name = format!("{prefix}.{}.{k}", bi.name);
        }
        names.insert(name.clone());
        n.name = name;
        n.plan = None;
        out.push(n);
        inner.push(InstrId(out.len() as u32 - 1));
    }
    inner[body.root.index()]
}
