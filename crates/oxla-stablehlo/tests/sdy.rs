//! Shardy (`sdy`): meshes, shardings, sharding rules and Shardy's ops read from MLIR text and
//! from bytecode (JAX 0.10.2's programs in `data/sdy`, written by `data/sdy/gen.py`), the
//! same attributes from both; HLO shardings from Shardy's; the ops imported (manual
//! computations as GSPMD's annotations, replicated constraints as the identity) and run.

use oxla_hlo::{Literal, Op};
use oxla_stablehlo::ast::{Attr, Module, Operation};
use oxla_stablehlo::sdy::{hlo_sharding, Mesh, TensorSharding};
use oxla_stablehlo::{import, parse_module, parse_program};

const PROGRAMS: [&str; 6] = [
    "constraint_replicated",
    "manual_psum",
    "manual_2d",
    "sharded_2d",
    "random",
    "cholesky",
];

fn text(name: &str) -> Module {
    let p = format!("{}/tests/data/sdy/{name}.mlir", env!("CARGO_MANIFEST_DIR"));
    parse_module(&std::fs::read_to_string(p).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn bytecode(name: &str) -> Module {
    let p = format!(
        "{}/tests/data/sdy/{name}.mlirbc",
        env!("CARGO_MANIFEST_DIR")
    );
    parse_program(&std::fs::read(p).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every op of the module, nested ones included.
fn ops(m: &Module) -> Vec<&Operation> {
    fn walk<'a>(ops: &'a [Operation], out: &mut Vec<&'a Operation>) {
        for op in ops {
            out.push(op);
            for r in &op.regions {
                for b in &r.blocks {
                    walk(&b.ops, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    for f in &m.funcs {
        for b in &f.body.blocks {
            walk(&b.ops, &mut out);
        }
    }
    out
}

/// The Shardy attributes of a module: meshes, argument and result attributes, and the
/// attributes of Shardy's ops and of ops carrying `sdy.*` attributes, in order.
fn sdy_attrs(m: &Module) -> Vec<(String, Attr)> {
    let mut out: Vec<(String, Attr)> = m.meshes.clone();
    for f in &m.funcs {
        for l in f.arg_attrs.iter().chain(&f.res_attrs) {
            out.extend(l.iter().filter(|(k, _)| k.starts_with("sdy")).cloned());
        }
    }
    for op in ops(m) {
        let mut mine: Vec<(String, Attr)> = op
            .attrs
            .iter()
            .filter(|(k, _)| op.name.starts_with("sdy.") || k.starts_with("sdy"))
            .map(|(k, v)| (format!("{}:{k}", op.name), v.clone()))
            .collect();
        // Text keeps the written order, bytecode MLIR's (sorted).
        mine.sort_by(|a, b| a.0.cmp(&b.0));
        out.extend(mine);
    }
    out
}

#[test]
fn text_and_bytecode_give_the_same_shardy_attributes() {
    for name in PROGRAMS {
        let (t, b) = (text(name), bytecode(name));
        // cholesky (one device) has only its custom call's sharding rule.
        assert_eq!(t.meshes.is_empty(), name == "cholesky", "{name}");
        let (ta, ba) = (sdy_attrs(&t), sdy_attrs(&b));
        assert!(!ta.is_empty(), "{name}: {ta:?}");
        assert_eq!(ta, ba, "{name}");
    }
}

#[test]
fn meshes_and_shardings_decode() {
    let m = bytecode("manual_2d");
    assert_eq!(m.meshes.len(), 1);
    let mesh = Mesh::from_attr(&m.meshes[0].1).unwrap();
    assert_eq!(mesh.axes, vec![("x".into(), 2), ("y".into(), 4)]);
    let f = &m.funcs[0];
    let arg = f.arg_attr(0, "sdy.sharding").unwrap();
    assert_eq!(
        hlo_sharding(&m, arg).unwrap().unwrap(),
        "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"
    );
    let res1 = f.res_attr(1, "sdy.sharding").unwrap();
    assert_eq!(hlo_sharding(&m, res1).unwrap().unwrap(), "{replicated}");
    let mc = ops(&m)
        .into_iter()
        .find(|o| o.name == "sdy.manual_computation")
        .unwrap();
    let ins = TensorSharding::per_value(mc.attr("in_shardings").unwrap()).unwrap();
    assert_eq!(ins.len(), 1);
    assert_eq!(ins[0].dims.len(), 2);
    let outs = TensorSharding::per_value(mc.attr("out_shardings").unwrap()).unwrap();
    assert_eq!(outs.len(), 2);
    let manual = mc.attr("manual_axes").unwrap().field("axes").unwrap();
    assert_eq!(
        manual,
        &Attr::Array(vec![Attr::Str("x".into()), Attr::Str("y".into())])
    );

    let m = bytecode("sharded_2d");
    let arg = m.funcs[0].arg_attr(0, "sdy.sharding").unwrap();
    assert_eq!(
        hlo_sharding(&m, arg).unwrap().unwrap(),
        "{devices=[4,2]<=[2,4]T(1,0)}"
    );
    assert!(!oxla_stablehlo::sdy::is_replicated(&m, arg).unwrap());

    let m = bytecode("cholesky");
    let cc = ops(&m)
        .into_iter()
        .find(|o| o.name == "stablehlo.custom_call")
        .unwrap();
    let rule = cc.attr("sdy.sharding_rule").unwrap();
    assert_eq!(
        rule.field("factor_sizes"),
        Some(&Attr::I64Array(vec![3, 3, 3, 3]))
    );
    assert_eq!(rule.field("is_custom_rule"), Some(&Attr::Bool(true)));
    assert_eq!(
        rule.field("operand_mappings"),
        Some(&Attr::Array(vec![Attr::Array(vec![
            Attr::I64Array(vec![0]),
            Attr::I64Array(vec![1])
        ])]))
    );
}

/// Shardings on hand-written meshes: iota and explicit device orders, sub-axes, replicated
/// and open dimensions, priorities, a one-device mesh, unreduced axes.
#[test]
fn hlo_shardings_from_shardy() {
    let src = r#"
module {
  sdy.mesh @m = <["a"=2, "b"=4]>
  sdy.mesh @ids = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>
  sdy.mesh @one = <[], device_ids=[5]>
  sdy.mesh @empty = <[]>
  func.func @main(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {"b"}]>},
                  %y: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"b", "a"}, {}]>},
                  %z: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"b":(1)2}, {?}]>},
                  %w: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"b":(2)2}, {"a"}p1], replicated={"b":(1)2}>},
                  %v: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@ids, [{"b"}, {}]>},
                  %u: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@one, [{}, {}]>},
                  %t: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@empty, [{}, {}]>},
                  %s: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["c"=2]>, [{}, {"c"}]>},
                  %r: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}], unreduced={"a"}>})
      -> tensor<8x8xf32> {
    return %x : tensor<8x8xf32>
  }
}"#;
    let m = parse_module(src).unwrap();
    let f = &m.funcs[0];
    let hlo = |i: usize| hlo_sharding(&m, f.arg_attr(i, "sdy.sharding").unwrap());
    assert_eq!(hlo(0).unwrap().unwrap(), "{devices=[2,4]<=[8]}");
    assert_eq!(hlo(1).unwrap().unwrap(), "{devices=[8,1]<=[2,4]T(1,0)}");
    // "b":(1)2 is the major half of b: devices [2 (a), 2 (b major), 2 (b minor)].
    assert_eq!(
        hlo(2).unwrap().unwrap(),
        "{devices=[2,1,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}"
    );
    assert_eq!(
        hlo(3).unwrap().unwrap(),
        "{devices=[2,2,2]<=[2,2,2]T(2,0,1) last_tile_dim_replicate}"
    );
    assert_eq!(
        hlo(4).unwrap().unwrap(),
        "{devices=[2,1,2]3,1,2,0 last_tile_dim_replicate}"
    );
    assert_eq!(hlo(5).unwrap().unwrap(), "{maximal device=5}");
    assert_eq!(hlo(6).unwrap().unwrap(), "{replicated}");
    assert_eq!(hlo(7).unwrap().unwrap(), "{devices=[1,2]<=[2]}");
    // Unreduced axes: a subgroup of partial sums before the copies.
    assert_eq!(
        hlo(8).unwrap().unwrap(),
        "{devices=[1,1,2,4]<=[8] last_tile_dims={unreduced, replicated}}"
    );
    // Open dimensions and priorities are read.
    let w = f.arg_attr(3, "sdy.sharding").unwrap();
    let dims = w.field("dim_shardings").unwrap();
    let Attr::Array(d) = dims else { panic!() };
    assert_eq!(d[1].field("priority"), Some(&Attr::Int(1)));
    let z = f.arg_attr(2, "sdy.sharding").unwrap();
    let Attr::Array(d) = z.field("dim_shardings").unwrap() else {
        panic!()
    };
    assert_eq!(d[1].field("is_closed"), Some(&Attr::Bool(false)));
    let ids = Mesh::from_attr(&m.meshes[1].1).unwrap();
    assert_eq!(ids.device_ids, vec![3, 2, 1, 0]);
}

fn custom_calls(m: &oxla_hlo::HloModule) -> Vec<(String, String)> {
    m.computations
        .iter()
        .flat_map(|c| &c.instructions)
        .filter_map(|i| match &i.op {
            Op::CustomCall {
                target,
                backend_config,
                ..
            } => Some((target.clone(), backend_config.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn manual_computations_import_with_their_shardings() {
    for m in [text("manual_2d"), bytecode("manual_2d")] {
        let imp = import(&m, None).unwrap();
        let calls = custom_calls(imp.computation.module());
        // The entry's argument and result shardings are annotated too (for the partitioner).
        let want = [
            ("Sharding", "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"),
            ("Sharding", "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"),
            ("SPMDFullToShardShape", ""),
            (
                "SPMDShardToFullShape",
                "{devices=[2,1,4]<=[8] last_tile_dim_replicate}",
            ),
            ("SPMDShardToFullShape", "{replicated}"),
            ("Sharding", "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"),
            ("Sharding", "{replicated}"),
        ];
        let got: Vec<(&str, &str)> = calls
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        assert_eq!(got, want);
    }
    for m in [text("manual_psum"), bytecode("manual_psum")] {
        let imp = import(&m, None).unwrap();
        let calls = custom_calls(imp.computation.module());
        assert_eq!(calls[0], ("Sharding".into(), "{devices=[8,1]<=[8]}".into()));
    }
}

/// A replicated constraint (and jax.random's constraint on the empty mesh) is the identity:
/// the programs import without annotations and run on the interpreter.
#[test]
fn replicated_constraints_are_the_identity() {
    for m in [
        text("constraint_replicated"),
        bytecode("constraint_replicated"),
    ] {
        let imp = import(&m, None).unwrap();
        // Only the result's own (replicated) sharding remains, as an annotation.
        assert!(custom_calls(imp.computation.module())
            .iter()
            .all(|(t, c)| t == "Sharding" && c == "{replicated}"));
        let x = Literal::from_vec(&[8, 2], (0..16).map(|i| i as f32).collect()).unwrap();
        let out = oxla_interp::Interpreter::new()
            .run(imp.computation.module(), &[x])
            .unwrap();
        let out = out.tuple_elements().map_or(out.clone(), |t| t[0].clone());
        let want: Vec<f32> = (0..16).map(|i| 2.0 * i as f32).collect();
        assert_eq!(out.data_as::<f32>().unwrap(), &want[..]);
    }
    for m in [text("random"), bytecode("random")] {
        let imp = import(&m, None).unwrap();
        // Only the result's own (replicated) sharding remains, as an annotation.
        assert!(custom_calls(imp.computation.module())
            .iter()
            .all(|(t, c)| t == "Sharding" && c == "{replicated}"));
    }
    for m in [text("cholesky"), bytecode("cholesky")] {
        import(&m, None).unwrap();
    }
}

/// Shardy's other ops in text: reshard (an annotation when it splits the value),
/// propagation barrier, sharding group, named computation, constant.
#[test]
fn other_sdy_ops_import() {
    let src = r#"
module {
  sdy.mesh @m = <["a"=2]>
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = sdy.reshard %x <@m, [{}]> : tensor<4xf32>
    %1 = sdy.propagation_barrier %0 allowed_direction=BACKWARD : tensor<4xf32>
    sdy.sharding_group %1 group_id=3 : tensor<4xf32>
    %2 = sdy.named_computation<"double">(%1) in_shardings=[<@m, [{}]>] out_shardings=[<@m, [{?}]>] (%arg1: tensor<4xf32>) {
      %c = sdy.constant dense<2.0> : tensor<4xf32>
      %3 = stablehlo.multiply %arg1, %c : tensor<4xf32>
      sdy.return %3 : tensor<4xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %4 = sdy.reshard %2 <@m, [{"a"}]> : tensor<4xf32>
    return %4 : tensor<4xf32>
  }
}"#;
    let m = parse_module(src).unwrap();
    let imp = import(&m, None).unwrap();
    assert_eq!(
        custom_calls(imp.computation.module()),
        vec![("Sharding".to_string(), "{devices=[2]<=[2]}".to_string())]
    );
    // The generic form of the same constraint.
    let src = r#"
"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["a"=2]>, sym_name = "m"}> : () -> ()
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<4xf32>):
    %0 = "sdy.sharding_constraint"(%x) <{sharding = #sdy.sharding<@m, [{}]>}> : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()"#;
    let m = parse_module(src).unwrap();
    assert_eq!(m.meshes.len(), 1);
    let imp = import(&m, None).unwrap();
    assert!(custom_calls(imp.computation.module()).is_empty());
}

/// Shardy's collectives belong to its own pipeline: a clear error naming the op.
#[test]
fn shardy_collectives_are_unimplemented_by_name() {
    let src = r#"
module {
  sdy.mesh @m = <["a"=2]>
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "sdy.all_gather"(%x) <{gathering_axes = [[]], out_sharding = #sdy.sharding<@m, [{}]>}> : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}"#;
    let m = parse_module(src).unwrap();
    let e = import(&m, None).err().unwrap().to_string();
    assert!(e.contains("sdy.all_gather"), "{e}");
}

/// Shardy text Oxla cannot read structurally is kept as text (the module still parses); a
/// value the importer needs from it is then a clear error.
#[test]
fn unreadable_shardy_text_is_kept_and_refused_where_needed() {
    let src = r#"
module {
  sdy.mesh @m = <["a"=2]>
  func.func @main(%x: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}], future_field=(1, 2)>}) -> tensor<4xf32> {
    %0 = "sdy.sharding_constraint"(%x) <{sharding = #sdy.sharding<@m, [{"a"}], future_field=(1, 2)>}> : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}"#;
    let m = parse_module(src).unwrap();
    let a = m.funcs[0].arg_attr(0, "sdy.sharding").unwrap();
    assert!(matches!(a.field("text"), Some(Attr::Str(t)) if t.contains("future_field")));
    let e = import(&m, None).err().unwrap().to_string();
    assert!(e.contains("sdy.sharding"), "{e}");
}

/// A host callback with a maximal sharding (what JAX gives one under a `jit` over several
/// partitions) runs on that partition alone: a conditional on the partition id. With a
/// manual sharding, or in a module of one partition, it stays a plain call on every device.
#[test]
fn callbacks_with_a_maximal_sharding_run_on_one_partition() {
    let program = |partitions: u32, sharding: &str| {
        format!(
            r#"module @m attributes {{mhlo.num_partitions = {partitions} : i32, mhlo.num_replicas = 1 : i32}} {{
  sdy.mesh @mesh = <["x"=4]>
  sdy.mesh @maximal_mesh_2 = <[], device_ids=[2]>
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {{
    stablehlo.custom_call @log(%arg0) {{has_side_effect = true, {sharding}}} : (tensor<4xf32>) -> ()
    return %arg0 : tensor<4xf32>
  }}
}}"#
        )
    };
    let conditionals = |text: &str| {
        let m = parse_module(text).unwrap();
        let imp = import(&m, None).unwrap();
        let module = imp.computation.module();
        let count = module
            .computations
            .iter()
            .flat_map(|c| &c.instructions)
            .filter(|i| matches!(i.op, Op::Conditional))
            .count();
        (count, custom_calls(module))
    };
    let maximal = [
        r#"sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_2, []>]>"#,
        r#"mhlo.sharding = "{maximal device=2}""#,
    ];
    for s in maximal {
        let (n, calls) = conditionals(&program(4, s));
        assert_eq!(n, 1, "{s}");
        assert!(calls.iter().any(|(t, _)| t == "log"), "{s}: {calls:?}");
        assert_eq!(conditionals(&program(1, s)).0, 0, "one partition: {s}");
    }
    let manual = r#"mhlo.sharding = "{manual}""#;
    assert_eq!(conditionals(&program(4, manual)).0, 0);
}

/// Annotations of placement and layout (`annotate_device_placement` for memory kinds,
/// `LayoutConstraint` from `with_layout_constraint`) are the identity on values.
#[test]
fn placement_and_layout_annotations_are_the_identity() {
    let text = r#"module @m {
  func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.custom_call @annotate_device_placement(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = stablehlo.custom_call @LayoutConstraint(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = stablehlo.add %1, %1 : tensor<2x3xf32>
    return %2 : tensor<2x3xf32>
  }
}"#;
    let m = parse_module(text).unwrap();
    let imp = import(&m, None).unwrap();
    assert!(custom_calls(imp.computation.module()).is_empty());
}
