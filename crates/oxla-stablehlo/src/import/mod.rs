//! Builds an `HloModule` from a parsed StableHLO module through `oxla-builder`, so shape
//! inference checks every op; a result type that disagrees with inference is an error.
//!
//! Values a region uses from an enclosing scope are re-materialized when they are constants;
//! `while`, `if` and `case` also thread other captured values through their state/operands.
//! `check.*` ops in the entry function become extra outputs plus a [`Check`] the runner
//! evaluates after execution.
//!
//! This file holds the entry point, the walk over functions and regions and the value
//! environment; `build_op` hands each op to its family (the families of
//! `oxla_hlo::inference`, plus quantization, checks and the interpreter dialect).

mod attrs;
mod checks;
mod collectives;
mod control;
mod data_movement;
mod elementwise;
mod indexing;
mod interpreter;
mod linalg;
mod quantization;
mod reduction;
mod sdy;

use std::collections::{HashMap, HashSet};

use oxla_builder::{XlaBuilder, XlaComputation, XlaOp};
use oxla_hlo::{Error, Literal, ModuleConfig, Result, Shape};

use crate::ast::*;
use crate::convert::shape_of;
use attrs::{first_region, result_shape};
use elementwise::binary_of;

pub use checks::{Check, CheckKind, Expected};
pub use interpreter::ParallelRun;

/// The imported entry computation: its outputs are `checks`' values, then the function's
/// returned values (`num_returns` of them), all in one tuple.
pub struct Imported {
    /// The imported program (entry: the module's `main`, or its only public function).
    pub computation: XlaComputation,
    /// The test module's `check.*` ops.
    pub checks: Vec<Check>,
    /// How many leading outputs are check values.
    pub num_check_outputs: usize,
    /// How many results the function returns.
    pub num_returns: usize,
    /// `interpreter.run_parallel` programs: custom-call backend config → (grid, infeeds).
    pub parallel: Vec<ParallelRun>,
}

fn err_at(op: &Operation, e: Error) -> Error {
    e.context(format!("line {}:{}: {}", op.line, op.column, op.name))
}

fn unimpl(op: &Operation, why: &str) -> Error {
    Error::unimplemented(format!(
        "line {}:{}: {}: {why}",
        op.line, op.column, op.name
    ))
}

/// One op being built, for the family builders: its operands' values, the enclosing scope
/// (regions that capture values read it) and whether it is in the entry function.
struct OpCx<'a> {
    op: &'a Operation,
    args: Vec<XlaOp>,
    scope: &'a mut Scope,
    is_entry: bool,
}

/// A family's builder: the op's results, or `None` when the op is not in the family.
type Family<'m> =
    fn(&mut Importer<'m>, &mut XlaBuilder, &mut OpCx<'_>) -> Result<Option<Vec<XlaOp>>>;

/// An op's only result.
fn one(v: XlaOp) -> Result<Vec<XlaOp>> {
    Ok(vec![v])
}

/// The value environment: SSA names in scope and their values.
struct Scope {
    vals: HashMap<String, XlaOp>,
}

/// The importer's state while walking a module (see [`import`]).
pub struct Importer<'m> {
    module: &'m Module,
    /// Every entry token becomes a `pred[0]` array ([`import_with`]).
    tokens_as_arrays: bool,
    funcs: HashMap<&'m str, &'m Func>,
    done: HashMap<String, XlaComputation>,
    in_progress: HashSet<String>,
    /// Constant values by name (for re-materializing captures in regions).
    consts: HashMap<String, Literal>,
    checks: Vec<Check>,
    outputs: Vec<XlaOp>,
    parallel: Vec<ParallelRun>,
    entry_name: String,
}

/// Imports `module` with `entry` (or `main`, or the only function) as the entry.
///
/// ```
/// let m = oxla_stablehlo::parse_module(
///     "func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {\n\
///        %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n\
///        return %0 : tensor<3x2xf32>\n\
///      }",
/// )?;
/// let imported = oxla_stablehlo::import(&m, None)?;
/// let shape = imported.computation.program_shape();
/// assert_eq!(shape.parameters[0].to_string(), "f32[2,3]");
/// assert_eq!(imported.num_returns, 1);
/// # Ok::<(), oxla_hlo::Error>(())
/// ```
pub fn import(module: &Module, entry: Option<&str>) -> Result<Imported> {
    import_with(module, entry, false)
}

/// [`import`], with every token argument and result of the entry imported as a `pred[0]`
/// array when `tokens_as_arrays` (what JAX passes and expects through PJRT for its token
/// values; tokens marked `jax.token` always are).
pub fn import_with(
    module: &Module,
    entry: Option<&str>,
    tokens_as_arrays: bool,
) -> Result<Imported> {
    let entry_name = match entry {
        Some(e) => e.to_string(),
        None => {
            if module.funcs.iter().any(|f| f.name == "main") {
                "main".to_string()
            } else if module.funcs.len() == 1 {
                module.funcs[0].name.clone()
            } else {
                return Err(Error::invalid(
                    "module has several functions and none is named main",
                ));
            }
        }
    };
    let mut imp = Importer {
        module,
        funcs: module.funcs.iter().map(|f| (f.name.as_str(), f)).collect(),
        done: HashMap::new(),
        in_progress: HashSet::new(),
        consts: HashMap::new(),
        checks: Vec::new(),
        outputs: Vec::new(),
        parallel: Vec::new(),
        entry_name: entry_name.clone(),
        tokens_as_arrays,
    };
    let f = *imp
        .funcs
        .get(entry_name.as_str())
        .ok_or_else(|| Error::invalid(format!("no function named {entry_name}")))?;
    let (computation, num_returns) = imp.build_func(f, true)?;
    Ok(Imported {
        computation,
        num_check_outputs: imp.outputs.len(),
        checks: imp.checks,
        num_returns,
        parallel: imp.parallel,
    })
}

/// Whether an entry argument's or result's attributes mark it as one of JAX's effect tokens
/// (`jax.token = true`), which cross the PJRT boundary as `bool[0]` arrays, as with XLA.
fn jax_token(attrs: Option<&Vec<(String, Attr)>>) -> bool {
    attrs.is_some_and(|a| {
        a.iter()
            .any(|(n, v)| n == "jax.token" && !matches!(v, Attr::Bool(false)))
    })
}

/// The array an entry token becomes: `pred[0]`.
fn jax_token_array() -> Shape {
    Shape::array(oxla_hlo::PrimitiveType::Pred, &[0])
}

fn module_config(m: &Module) -> ModuleConfig {
    let get = |k: &str| {
        m.attrs
            .iter()
            .find(|(n, _)| n == k)
            .and_then(|(_, v)| v.as_int())
            .map_or(1, |v| v as i64)
    };
    ModuleConfig {
        num_replicas: get("mhlo.num_replicas"),
        num_partitions: get("mhlo.num_partitions"),
        spmd: None,
    }
}

impl<'m> Importer<'m> {
    fn callee(&mut self, name: &str) -> Result<XlaComputation> {
        if let Some(c) = self.done.get(name) {
            return Ok(c.clone());
        }
        if !self.in_progress.insert(name.to_string()) {
            return Err(Error::invalid(format!("recursive call to @{name}")));
        }
        let f = *self
            .funcs
            .get(name)
            .ok_or_else(|| Error::invalid(format!("call to unknown function @{name}")))?;
        let (c, _) = self.build_func(f, false)?;
        self.in_progress.remove(name);
        self.done.insert(name.to_string(), c.clone());
        Ok(c)
    }

    fn build_func(&mut self, f: &Func, is_entry: bool) -> Result<(XlaComputation, usize)> {
        let mut b = XlaBuilder::new(f.name.clone());
        b.set_config(module_config(self.module));
        let mut scope = Scope {
            vals: HashMap::new(),
        };
        let entry = is_entry && f.name == self.entry_name;
        for (i, (n, t)) in f.args.iter().enumerate() {
            let shape = shape_of(t)?;
            let p = if entry
                && shape.is_token()
                && (self.tokens_as_arrays || jax_token(f.arg_attrs.get(i)))
            {
                // JAX passes an entry token (ordered effects) as a `bool[0]` array.
                b.parameter(i, &jax_token_array(), n);
                b.after_all(&[])
            } else {
                let p = b.parameter(i, &shape, n);
                // How the argument is split over partitions: the SPMD pass reads it here.
                // (Right after the parameter: the partitioner takes its first annotation
                // as the argument's sharding, later ones are constraints.)
                match entry_sharding(self.module, entry, f.arg_attrs.get(i))? {
                    Some(s) if shape.is_array() => {
                        b.custom_call("Sharding", &[p], &shape, false, &s)
                    }
                    _ => p,
                }
            };
            scope.vals.insert(n.clone(), p);
        }
        let block = f
            .body
            .blocks
            .first()
            .ok_or_else(|| Error::invalid(format!("function {} has no body", f.name)))?;
        let saved_outputs = std::mem::take(&mut self.outputs);
        let returned = self.build_ops(&mut b, &mut scope, &block.ops, is_entry)?;
        let check_outputs = std::mem::replace(&mut self.outputs, saved_outputs);
        let n_ret = returned.len();
        let mut returned = returned;
        if entry {
            for (j, r) in returned.iter_mut().enumerate() {
                let token = f.results.get(j).map(shape_of).transpose()?;
                if token.is_some_and(|s| s.is_token())
                    && (self.tokens_as_arrays || jax_token(f.res_attrs.get(j)))
                {
                    // The token's producers stay: they have side effects.
                    *r = b.constant_literal(&Literal::zeros(&jax_token_array())?);
                } else if let Some(s) = entry_sharding(self.module, true, f.res_attrs.get(j))? {
                    let shape = b.get_shape(*r)?;
                    if shape.is_array() {
                        *r = b.custom_call("Sharding", &[*r], &shape, false, &s);
                    }
                }
            }
        }
        let root = if entry {
            let mut all = check_outputs;
            all.extend(returned);
            b.tuple(&all)
        } else if returned.len() == 1 {
            returned[0]
        } else {
            b.tuple(&returned)
        };
        let c = b
            .build_with_root(root)
            .map_err(|e| e.context(format!("function @{}", f.name)))?;
        Ok((c, n_ret))
    }

    fn lookup(&self, b: &mut XlaBuilder, scope: &mut Scope, name: &str) -> Result<XlaOp> {
        if let Some(&v) = scope.vals.get(name) {
            return Ok(v);
        }
        if let Some(l) = self.consts.get(name) {
            let c = b.constant_literal(l);
            scope.vals.insert(name.to_string(), c);
            return Ok(c);
        }
        Err(Error::invalid(format!("use of undefined value %{name}")))
    }

    /// Builds `ops`; returns the operands of the terminating return.
    fn build_ops(
        &mut self,
        b: &mut XlaBuilder,
        scope: &mut Scope,
        ops: &[Operation],
        is_entry: bool,
    ) -> Result<Vec<XlaOp>> {
        for op in ops {
            if matches!(
                op.name.as_str(),
                "func.return" | "return" | "stablehlo.return" | "sdy.return"
            ) {
                return op
                    .operands
                    .iter()
                    .map(|o| self.lookup(b, scope, o))
                    .collect();
            }
            let results = self
                .build_op(b, scope, op, is_entry)
                .map_err(|e| err_at(op, e))?;
            if let Some(e) = b.first_error() {
                return Err(err_at(op, e.clone()));
            }
            if results.len() != op.results.len() {
                return Err(err_at(
                    op,
                    Error::internal(format!(
                        "produced {} values for {} results",
                        results.len(),
                        op.results.len()
                    )),
                ));
            }
            for (i, (name, v)) in op.results.iter().zip(&results).enumerate() {
                // A result type that disagrees with inference is an import error.
                if let Some(t) = op.result_types.get(i) {
                    if let (Ok(want), Ok(got)) = (shape_of(t), b.get_shape(*v)) {
                        if !want.compatible(&got.without_layout()) {
                            return Err(err_at(
                                op,
                                Error::invalid(format!(
                                    "result {i} is declared {want} but inference gives {got}"
                                )),
                            ));
                        }
                    }
                }
                scope.vals.insert(name.clone(), *v);
            }
        }
        Ok(vec![])
    }

    /// Splits a tuple-valued op into `n` results (or returns it as is when n == 1 and the
    /// op does not produce an extra tuple level).
    fn split(b: &mut XlaBuilder, v: XlaOp, n: usize) -> Vec<XlaOp> {
        (0..n).map(|i| b.get_tuple_element(v, i)).collect()
    }

    /// The `n` results of `v`: itself when `n == 1`, else its tuple elements.
    fn results(b: &mut XlaBuilder, v: XlaOp, n: usize) -> Vec<XlaOp> {
        if n == 1 {
            vec![v]
        } else {
            Self::split(b, v, n)
        }
    }

    /// Builds a region as a computation whose parameters are the block arguments.
    fn region_comp(
        &mut self,
        parent: &mut XlaBuilder,
        region: &Region,
        name: &str,
        param_types: Option<Vec<Type>>,
    ) -> Result<XlaComputation> {
        let mut b = parent.create_sub_builder(name);
        let mut scope = Scope {
            vals: HashMap::new(),
        };
        let block = region
            .blocks
            .first()
            .ok_or_else(|| Error::invalid("empty region"))?;
        let types: Vec<Type> = match param_types {
            Some(t) if block.args.is_empty() => t,
            _ => block.args.iter().map(|(_, t)| t.clone()).collect(),
        };
        for (i, t) in types.iter().enumerate() {
            let name = block
                .args
                .get(i)
                .map(|(n, _)| n.clone())
                .unwrap_or_else(|| format!("arg{i}"));
            let p = b.parameter(i, &shape_of(t)?, &name);
            scope.vals.insert(name, p);
        }
        let ret = self.build_ops(&mut b, &mut scope, &block.ops, false)?;
        let root = if ret.len() == 1 {
            ret[0]
        } else {
            b.tuple(&ret)
        };
        b.build_with_root(root)
    }

    /// Builds one op: ops on quantized values run dequantized; otherwise the op's family
    /// (one file each) builds it, and CHLO ops are decomposed.
    fn build_op(
        &mut self,
        b: &mut XlaBuilder,
        scope: &mut Scope,
        op: &Operation,
        is_entry: bool,
    ) -> Result<Vec<XlaOp>> {
        if quantization::runs_dequantized(op) {
            return self.dequantize_op_quantize(b, scope, op, is_entry);
        }
        let args: Vec<XlaOp> = op
            .operands
            .iter()
            .map(|o| self.lookup(b, scope, o))
            .collect::<Result<_>>()?;
        let need = min_operands(&op.name);
        if args.len() < need {
            return Err(Error::invalid(format!(
                "{} needs at least {need} operand(s), got {}",
                op.name,
                args.len()
            )));
        }
        let mut cx = OpCx {
            op,
            args,
            scope,
            is_entry,
        };
        let families: [Family<'m>; 11] = [
            Self::elementwise,
            Self::quantization,
            Self::data_movement,
            Self::indexing,
            Self::reduction,
            Self::linalg,
            Self::control,
            Self::collectives,
            Self::checks,
            Self::interpreter,
            Self::sdy,
        ];
        for family in families {
            if let Some(results) = family(self, b, &mut cx)? {
                return Ok(results);
            }
        }
        let args = &cx.args;
        match op.name.as_str() {
            "chlo.scan" => {
                let body = self.region_comp(b, first_region(op)?, "scan_fn", None)?;
                let shapes: Vec<Shape> = (0..op.result_types.len())
                    .map(|i| result_shape(op, i))
                    .collect::<Result<_>>()?;
                crate::chlo::scan(b, op, args, &body, &shapes)
            }
            name if name.starts_with("chlo.") => crate::chlo::build(b, op, args),
            _ => Err(unimpl(op, "op is not supported by the importer")),
        }
    }

    /// Operand `i` as constant integers (dynamic ops whose shape operands are constants).
    fn const_ints(&self, op: &Operation, i: usize) -> Result<Vec<i64>> {
        op.operands
            .get(i)
            .and_then(|n| self.consts.get(n))
            .map(|l| l.to_i64s())
            .ok_or_else(|| {
                unimpl(
                    op,
                    "shape operands must be constants (run-time shapes are not supported)",
                )
            })
    }
}

/// The fewest operands an op can have (so malformed input is an error, not an index panic).
fn min_operands(name: &str) -> usize {
    let short = name
        .strip_prefix("stablehlo.")
        .or_else(|| name.strip_prefix("chlo."))
        .unwrap_or(name);
    if binary_of(short).is_some() {
        return 2;
    }
    match short {
        "compare"
        | "pad"
        | "dynamic_update_slice"
        | "gather"
        | "dot_general"
        | "convolution"
        | "triangular_solve"
        | "rng"
        | "reduce"
        | "reduce_window"
        | "outfeed"
        | "send"
        | "dynamic_reshape"
        | "dynamic_broadcast_in_dim"
        | "mulhi"
        | "scan"
        | "check.expect_eq"
        | "check.expect_almost_eq"
        | "check.expect_close" => 2,
        "select"
        | "clamp"
        | "scatter"
        | "select_and_scatter"
        | "batch_norm_training"
        | "dynamic_gather"
        | "dynamic_conv"
        | "ragged_dot" => 3,
        "batch_norm_inference" | "batch_norm_grad" | "dynamic_pad" => 5,
        "while"
        | "constant"
        | "iota"
        | "replica_id"
        | "partition_id"
        | "after_all"
        | "create_token"
        | "tuple"
        | "func.return"
        | "return"
        | "func.call"
        | "custom_call"
        | "composite"
        | "interpreter.run_parallel"
        | "dynamic_iota"
        | "optimization_barrier"
        | "sdy.constant"
        | "sdy.manual_computation"
        | "sdy.named_computation" => 0,
        _ => 1,
    }
}

/// The sharding an entry argument's or result's attributes give it, for the SPMD pass: in
/// a program over several partitions (one partition has nothing to split), at the entry.
fn entry_sharding(
    module: &Module,
    entry: bool,
    attrs: Option<&Vec<(String, Attr)>>,
) -> Result<Option<String>> {
    match attrs {
        Some(a) if entry && module_config(module).num_partitions > 1 => {
            crate::sdy::entry_sharding(module, a)
        }
        _ => Ok(None),
    }
}
