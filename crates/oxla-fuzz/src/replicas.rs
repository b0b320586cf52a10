//! Programs on several replicas. A multi-replica program keeps one value per parameter like
//! any other, stacked along a new leading dimension (element `r` is replica `r`'s
//! argument), and its results are stacked the same way. So comparison, minimization (a cut
//! node becomes a stacked parameter) and the explanations work unchanged; only running a
//! program splits and joins the stacks: every replica on the interpreter's grid and on the
//! runtime's sharded path (`Executable::execute_sharded`).

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use oxla_hlo::{Error, HloModule, Literal, Result, Shape};
use oxla_interp::{Grid, Interpreter};
use oxla_runtime::{Buffer, Client, ClientOptions, CompileOptions, Executable, LocalCommunicator};

/// The most replicas a generated program runs on (the devices [`client`] makes).
pub const MAX_REPLICAS: usize = 4;

/// A client with [`MAX_REPLICAS`] devices, as every campaign uses (single-replica programs
/// run on device 0).
pub fn client() -> Result<Client> {
    Client::cpu_with(ClientOptions {
        devices: MAX_REPLICAS,
        ..Default::default()
    })
}

/// The client of the remote-transport option set ([`crate::OptionSet::remote`]), made once.
pub fn remote_client() -> Result<&'static Client> {
    static C: OnceLock<std::result::Result<Client, String>> = OnceLock::new();
    C.get_or_init(|| {
        Client::cpu_with(ClientOptions {
            devices: MAX_REPLICAS,
            communicator: Some(Arc::new(LocalCommunicator::operands_only())),
            ..Default::default()
        })
        .map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(|e| Error::internal(e.clone()))
}

/// The replicas `module` runs on.
pub fn replicas(module: &HloModule) -> usize {
    module.config.num_replicas.max(1) as usize
}

/// `parts` (one per replica, all of one shape) stacked along a new leading dimension;
/// tuples element by element.
pub fn stack(parts: &[Literal]) -> Result<Literal> {
    let first = parts
        .first()
        .ok_or_else(|| Error::internal("stack of no values"))?;
    if let Some(elems) = first.tuple_elements() {
        let n = elems.len();
        let cols = (0..n)
            .map(|i| {
                let col: Vec<Literal> = parts
                    .iter()
                    .map(|p| {
                        p.tuple_elements()
                            .and_then(|t| t.get(i))
                            .cloned()
                            .ok_or_else(|| Error::internal("replicas differ in shape"))
                    })
                    .collect::<Result<_>>()?;
                stack(&col)
            })
            .collect::<Result<_>>()?;
        return Ok(Literal::tuple(cols));
    }
    if first.shape().is_token() {
        return Ok(Literal::token());
    }
    let mut dims = vec![parts.len() as i64];
    dims.extend_from_slice(first.shape().dims());
    let mut bytes = Vec::new();
    for p in parts {
        if p.shape().without_layout() != first.shape().without_layout() {
            return Err(Error::internal("replicas differ in shape"));
        }
        bytes.extend(p.to_le_bytes());
    }
    Literal::from_le_bytes(&Shape::array(first.element_type(), &dims), &bytes)
}

/// Replica `r`'s part of stacked value `l`.
pub fn unstack(l: &Literal, r: usize) -> Result<Literal> {
    if let Some(elems) = l.tuple_elements() {
        return Ok(Literal::tuple(
            elems.iter().map(|e| unstack(e, r)).collect::<Result<_>>()?,
        ));
    }
    let dims = l.shape().dims();
    let (&n, rest) = dims
        .split_first()
        .ok_or_else(|| Error::internal("a stacked value has no replica dimension"))?;
    if r >= n as usize {
        return Err(Error::internal(format!("no replica {r} in {}", l.shape())));
    }
    let bytes = l.to_le_bytes();
    let chunk = bytes.len() / n as usize;
    Literal::from_le_bytes(
        &Shape::array(l.element_type(), rest),
        &bytes[r * chunk..(r + 1) * chunk],
    )
}

/// The argument lists of every replica of a stacked argument list.
fn split(args: &[Literal], n: usize) -> Result<Vec<Vec<Literal>>> {
    (0..n)
        .map(|r| args.iter().map(|a| unstack(a, r)).collect())
        .collect()
}

/// The interpreter's result of `module` (stacked over its replicas when it has several).
pub fn interpret(module: &HloModule, args: &[Literal]) -> Result<Literal> {
    let n = replicas(module);
    let interp = Interpreter::new();
    if n == 1 {
        return interp.run(module, args);
    }
    let grid = Grid::new(n as i64, 1, Duration::from_secs(10));
    stack(&interp.run_grid(&grid, module, &split(args, n)?)?)
}

/// Compiles `module` with `options` (its replica count from the module).
pub fn compile(
    client: &Client,
    module: &HloModule,
    options: &CompileOptions,
) -> Result<Executable> {
    let n = replicas(module);
    if n > client.device_count() {
        return Err(Error::invalid(format!(
            "{n} replicas on a client of {} devices (use oxla_fuzz::client)",
            client.device_count()
        )));
    }
    client.compile(module, options)
}

/// [`execute`] twice, a single-replica program on the same argument buffers both times
/// (the second call may take paths the first prepared, e.g. a GEMM's kept packing of an
/// argument B); both results.
pub fn execute_twice(
    exe: &Executable,
    module: &HloModule,
    args: &[Literal],
) -> Result<[Literal; 2]> {
    if replicas(module) > 1 {
        return Ok([execute(exe, module, args)?, execute(exe, module, args)?]);
    }
    let bufs = args
        .iter()
        .filter(|l| !l.shape().is_token())
        .map(Buffer::from_literal)
        .collect::<Result<Vec<_>>>()?;
    let refs: Vec<&Buffer> = bufs.iter().collect();
    let first = exe.to_literal(exe.execute(&refs)?)?;
    Ok([first, exe.to_literal(exe.execute(&refs)?)?])
}

/// The compiled result of `exe` (built from `module`), stacked like [`interpret`]'s.
pub fn execute(exe: &Executable, module: &HloModule, args: &[Literal]) -> Result<Literal> {
    let n = replicas(module);
    if n == 1 {
        return exe.execute_literals(args);
    }
    let bufs: Vec<Vec<Buffer>> = split(args, n)?
        .iter()
        .map(|a| a.iter().map(Buffer::from_literal).collect())
        .collect::<Result<_>>()?;
    let refs: Vec<Vec<&Buffer>> = bufs.iter().map(|a| a.iter().collect()).collect();
    let outs = exe.execute_sharded(&refs)?;
    let lits: Vec<Literal> = outs
        .into_iter()
        .map(|o| exe.to_literal(o))
        .collect::<Result<_>>()?;
    stack(&lits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Kind, Node, Program};
    use oxla_hlo::{BinaryOp, PrimitiveType};

    #[test]
    fn every_replica_runs_on_both_backends() {
        let x = Literal::from_i64s(PrimitiveType::S32, &[2, 2], &[1, 2, 10, 20]).unwrap();
        let p = Program {
            args: vec![x],
            nodes: vec![
                Node {
                    kind: Kind::Param(0),
                    operands: vec![],
                },
                Node {
                    kind: Kind::AllReduce {
                        op: BinaryOp::Add,
                        groups: vec![],
                    },
                    operands: vec![0],
                },
                Node {
                    kind: Kind::CollectivePermute(vec![(0, 1)]),
                    operands: vec![0],
                },
                Node {
                    kind: Kind::Binary(BinaryOp::Mul),
                    operands: vec![1, 2],
                },
            ],
            root: 3,
            replicas: 2,
        };
        let (m, args) = p.build().unwrap();
        // Replica 0: (1+10, 2+20) * zeros (nothing is sent to it); replica 1: (11, 22) * (1, 2).
        let want = Literal::from_i64s(PrimitiveType::S32, &[2, 2], &[0, 0, 11, 44]).unwrap();
        assert_eq!(interpret(&m, &args).unwrap(), want);
        let client = client().unwrap();
        for set in crate::option_sets() {
            let client = if set.remote {
                remote_client().unwrap()
            } else {
                &client
            };
            let exe = compile(client, &m, &set.options).unwrap();
            assert_eq!(execute(&exe, &m, &args).unwrap(), want, "{}", set.name);
        }
    }

    #[test]
    fn stacking_round_trips() {
        let a = Literal::from_i64s(PrimitiveType::S16, &[2], &[1, -2]).unwrap();
        let b = Literal::from_i64s(PrimitiveType::S16, &[2], &[3, 4]).unwrap();
        let s = stack(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(s.shape().dims(), &[2, 2]);
        assert_eq!(unstack(&s, 0).unwrap(), a);
        assert_eq!(unstack(&s, 1).unwrap(), b);
        let e = Literal::from_i64s(PrimitiveType::S16, &[0, 3], &[]).unwrap();
        let s = stack(&[e.clone(), e.clone(), e.clone()]).unwrap();
        assert_eq!(s.shape().dims(), &[3, 0, 3]);
        assert_eq!(unstack(&s, 2).unwrap(), e);
    }
}
