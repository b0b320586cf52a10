//! Shrinking a program that shows a difference: first the earliest node whose value already
//! differs becomes the root (everything after it is dropped), then each node it depends on is
//! replaced by a parameter holding that node's value (computed by the interpreter) as long as
//! the difference stays. Loops and conditionals are first unrolled into the steps they run,
//! so a difference inside a body is traced to its op too. What remains is usually one op on
//! parameters: the op to blame.

use oxla_hlo::Literal;

use crate::program::{Kind, Node, Program, Step};

/// The interpreter's value of `p`'s root.
pub fn value(p: &Program) -> Option<Literal> {
    let (m, args) = p.build().ok()?;
    crate::replicas::interpret(&m, &args).ok()
}

/// The smallest variant of `p` for which `fails` still holds (`p` itself must fail).
pub fn minimize(p: &Program, fails: &mut dyn FnMut(&Program) -> bool) -> Program {
    let mut best = p.clone();
    let live = p.live();
    for (j, node) in p.nodes.iter().enumerate().take(p.root) {
        if live[j] && !matches!(node.kind, Kind::Param(_)) && fails(&p.with_root(j)) {
            best = p.with_root(j);
            break;
        }
    }
    while let Some(q) = (0..best.nodes.len())
        .filter_map(|i| flatten(&best, i))
        .find(|q| fails(q))
    {
        best = q;
    }
    // Cut the deepest operands first: cutting a node removes everything behind it.
    loop {
        let live = best.live();
        let mut changed = false;
        let candidates: Vec<usize> = (0..best.root)
            .filter(|&i| live[i] && !matches!(best.nodes[i].kind, Kind::Param(_)))
            .collect();
        for i in candidates {
            let Some(v) = value(&best.with_root(i)) else {
                continue;
            };
            if v.tuple_elements().is_some() {
                continue;
            }
            let q = best.cut(i, v);
            if fails(&q) {
                best = q;
                changed = true;
                break;
            }
        }
        if !changed {
            return best;
        }
    }
}

/// `p` with node `i` replaced by `chain` (its nodes numbered from `i`; a chain operand below
/// `i` is an existing node, from `i` on a node of the chain).
fn splice(p: &Program, i: usize, chain: Vec<Node>) -> Program {
    let k = chain.len();
    let shift = |o: usize| {
        if o > i {
            o + k - 1
        } else if o == i {
            i + k - 1
        } else {
            o
        }
    };
    let mut nodes: Vec<Node> = p.nodes[..i].to_vec();
    nodes.extend(chain);
    for n in &p.nodes[i + 1..] {
        nodes.push(Node {
            kind: n.kind.clone(),
            operands: n.operands.iter().map(|&o| shift(o)).collect(),
        });
    }
    Program {
        args: p.args.clone(),
        nodes,
        root: shift(p.root),
        replicas: p.replicas,
    }
}

/// A loop or conditional at node `i` replaced by the steps it runs (`None` for other nodes
/// and loops that run no step).
fn flatten(p: &Program, i: usize) -> Option<Program> {
    let node = p.nodes.get(i)?;
    if !p.live().get(i).copied().unwrap_or(false) {
        return None;
    }
    let apply = |step: Step, x: usize| match step {
        Step::Unary(u) => Node {
            kind: Kind::Unary(u),
            operands: vec![x],
        },
        Step::Binary(op) => Node {
            kind: Kind::Binary(op),
            operands: vec![x, x],
        },
        Step::AllReduce(op) => Node {
            kind: Kind::AllReduce { op, groups: vec![] },
            operands: vec![x],
        },
    };
    let chain = match &node.kind {
        Kind::While {
            trip,
            step,
            history: false,
        } if *trip > 0 => {
            let x = node.operands[0];
            (0..*trip as usize)
                .map(|t| apply(*step, if t == 0 { x } else { i + t - 1 }))
                .collect()
        }
        Kind::Conditional(steps) => {
            let index = value(&p.with_root(node.operands[0]))?;
            let v = index.get_linear(0).ok()?.as_f64() as i64;
            let n = steps.len() as i64;
            let b = if (0..n).contains(&v) { v } else { n - 1 };
            vec![apply(steps[b as usize], node.operands[1])]
        }
        _ => return None,
    };
    Some(splice(p, i, chain))
}
