//! The automatic SPMD partitioner end to end: each program (global shapes, `Sharding`
//! annotations on parameters, results and intermediate values) runs whole on one device in
//! the interpreter and partitioned on the JIT over its `num_partitions`; every partition's
//! pieces, reassembled by the result shardings the executable reports, must equal the
//! one-device result (to reduction-order tolerance). The collectives the partitioner
//! emitted are counted where the count is what XLA emits for the same sharding.

use oxla::hlo::{HloSharding, Literal, NativeType, PrimitiveType, Shape};
use oxla::interp::Interpreter;
use oxla::runtime::{Buffer, Client, ClientOptions, CompileOptions};

/// Row-major strides of `dims`.
fn strides(dims: &[i64]) -> Vec<i64> {
    let mut s = vec![1; dims.len()];
    for k in (0..dims.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1] * dims[k + 1];
    }
    s
}

/// Calls `f(global index, local index)` for every element of partition `p`'s piece.
fn for_piece(
    dims: &[i64],
    sh: &HloSharding,
    p: usize,
    mut f: impl FnMut(usize, usize),
) -> Vec<i64> {
    let local = sh.shard_dims(dims);
    let origin: Vec<i64> = match sh.tiling().filter(|t| t.rank() == dims.len()) {
        Some(t) => {
            let c = t.coords(p).expect("partition in the tile assignment");
            (0..dims.len()).map(|d| c[d] as i64 * local[d]).collect()
        }
        None => vec![0; dims.len()],
    };
    let (gs, ls) = (strides(dims), strides(&local));
    let count: i64 = local.iter().product();
    for i in 0..count {
        let (mut g, mut rest) = (0, i);
        for d in 0..dims.len() {
            let c = rest / ls[d];
            rest %= ls[d];
            g += (origin[d] + c) * gs[d];
        }
        f(g as usize, i as usize);
    }
    local
}

fn piece_of<T: NativeType + Default + Copy>(
    global: &Literal,
    sh: &HloSharding,
    p: usize,
) -> Literal {
    let dims = global.shape().dims().to_vec();
    let data = global.to_vec::<T>().unwrap();
    let mut out = vec![T::default(); sh.shard_dims(&dims).iter().product::<i64>() as usize];
    let local = for_piece(&dims, sh, p, |g, l| out[l] = data[g]);
    Literal::from_vec(&local, out).unwrap()
}

fn piece(global: &Literal, sh: &HloSharding, p: usize) -> Literal {
    match global.element_type() {
        PrimitiveType::S32 => piece_of::<i32>(global, sh, p),
        _ => piece_of::<f32>(global, sh, p),
    }
}

fn assemble(pieces: &[Literal], global: &Shape, sh: &HloSharding) -> Vec<f32> {
    let dims = global.dims().to_vec();
    let mut out = vec![f32::NAN; dims.iter().product::<i64>() as usize];
    for (p, l) in pieces.iter().enumerate() {
        let data = l.to_vec::<f32>().unwrap();
        for_piece(&dims, sh, p, |g, i| out[g] = data[i]);
    }
    out
}

/// Runs `text` both ways and returns the collectives of the partitioned module.
fn check(name: &str, text: &str) -> Vec<String> {
    check_against(name, text, None)
}

/// [`check`], with the one-device result from `reference` when given (a program whose
/// shard_maps the interpreter cannot run whole).
fn check_against(name: &str, text: &str, reference: Option<&str>) -> Vec<String> {
    let module = oxla::hlo::text::parse_module(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let n = module.config.num_partitions as usize;
    let params = module.entry_computation().program_shape().parameters;
    let args: Vec<Literal> = params
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let a = s.as_array().unwrap();
            let n: i64 = a.dims.iter().product();
            if a.element_type == PrimitiveType::S32 {
                let v: Vec<i32> = (0..n).map(|i| ((i * 5 + k as i64) % 4) as i32).collect();
                return Literal::from_vec(&a.dims, v).unwrap();
            }
            let v: Vec<f32> = (0..n)
                .map(|i| ((i * 7 + k as i64 * 3) as f32 * 0.37).sin())
                .collect();
            Literal::from_vec(&a.dims, v).unwrap()
        })
        .collect();
    let mut one = match reference {
        Some(r) => oxla::hlo::text::parse_module(r).unwrap(),
        None => module.clone(),
    };
    one.config.num_partitions = 1;
    let want = Interpreter::new()
        .run(&one, &args)
        .unwrap_or_else(|e| panic!("{name}: interpreter: {e}"));
    let client = Client::cpu_with(ClientOptions {
        devices: n,
        ..Default::default()
    })
    .unwrap();
    let exe = client
        .compile(&module, &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{name}: compile: {e}"));
    let sig = exe.spmd_signature().expect("a partitioned program").clone();
    let shardings = |v: &[(Shape, String)]| -> Vec<HloSharding> {
        v.iter()
            .map(|(_, s)| HloSharding::parse(s).unwrap())
            .collect()
    };
    let (in_sh, out_sh) = (shardings(&sig.parameters), shardings(&sig.results));
    let bufs: Vec<Vec<Buffer>> = (0..n)
        .map(|p| {
            args.iter()
                .zip(&in_sh)
                .map(|(a, s)| Buffer::from_literal(&piece(a, s, p)).unwrap())
                .collect()
        })
        .collect();
    let refs: Vec<Vec<&Buffer>> = bufs.iter().map(|a| a.iter().collect()).collect();
    let got = exe
        .execute_sharded(&refs)
        .unwrap_or_else(|e| panic!("{name}: jit: {e}"));
    let got: Vec<Literal> = got
        .into_iter()
        .map(|g| exe.to_literal(g).unwrap())
        .collect();
    let wants = want
        .tuple_elements()
        .map_or(vec![want.clone()], |t| t.to_vec());
    for (k, w) in wants.iter().enumerate() {
        let pieces: Vec<Literal> = got
            .iter()
            .map(|g| g.tuple_elements().map_or(g.clone(), |t| t[k].clone()))
            .collect();
        let g = assemble(&pieces, w.shape(), &out_sh[k]);
        let w = w.to_vec::<f32>().unwrap();
        for (i, (a, b)) in g.iter().zip(&w).enumerate() {
            assert!(
                (a - b).abs() <= 1e-4 * (1.0 + b.abs()),
                "{name}: result {k} element {i}: partitioned {a}, one device {b} \
                 (sharding {})",
                out_sh[k]
            );
        }
    }
    let mut m = module.clone();
    oxla::passes::partition_spmd(&mut m).unwrap();
    let text = oxla::hlo::text::print_module(&m);
    text.lines()
        .filter_map(|l| {
            [
                "all-gather(",
                "all-reduce(",
                "all-to-all(",
                "collective-permute(",
            ]
            .iter()
            .find(|c| l.contains(*c))
            .map(|c| c.trim_end_matches('(').to_string())
        })
        .collect()
}

fn add() -> &'static str {
    "%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(%a, %b)\n}\n\n"
}

#[test]
fn elementwise_stays_split() {
    let c = check(
        "elementwise",
        r#"HloModule m, num_partitions=4
ENTRY main {
  x = f32[8,6] parameter(0)
  xs = f32[8,6] custom-call(x), custom_call_target="Sharding", backend_config="{devices=[4,1]<=[4]}"
  y = f32[8,6] parameter(1)
  ys = f32[8,6] custom-call(y), custom_call_target="Sharding", backend_config="{devices=[4,1]<=[4]}"
  two = f32[] constant(2)
  b = f32[8,6] broadcast(two), dimensions={}
  m = f32[8,6] multiply(xs, b)
  s = f32[8,6] add(m, ys)
  t = f32[8,6] tanh(s)
  ROOT r = (f32[8,6]) tuple(t)
}
"#,
    );
    assert!(c.is_empty(), "{c:?}");
}

#[test]
fn data_parallel_mlp_and_its_weight_gradient() {
    // Forward: batch split, weights whole: no communication.
    let c = check(
        "dp forward",
        r#"HloModule m, num_partitions=4
ENTRY main {
  x = f32[16,8] parameter(0)
  xs = f32[16,8] custom-call(x), custom_call_target="Sharding", backend_config="{devices=[4,1]<=[4]}"
  w = f32[8,12] parameter(1)
  ws = f32[8,12] custom-call(w), custom_call_target="Sharding", backend_config="{replicated}"
  h = f32[16,12] dot(xs, ws), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  a = f32[16,12] tanh(h)
  ROOT r = (f32[16,12]) tuple(a)
}
"#,
    );
    assert!(c.is_empty(), "{c:?}");
    // Weight and bias gradients: contractions over the split batch, summed by one combined
    // all-reduce (as XLA's combiner makes it), replicated results.
    let c = check(
        "dp weight gradient",
        &format!(
            r#"HloModule m, num_partitions=4
{}ENTRY main {{
  x = f32[16,8] parameter(0)
  xs = f32[16,8] custom-call(x), custom_call_target="Sharding", backend_config="{{devices=[4,1]<=[4]}}"
  g = f32[16,12] parameter(1)
  gs = f32[16,12] custom-call(g), custom_call_target="Sharding", backend_config="{{devices=[4,1]<=[4]}}"
  dw = f32[8,12] dot(xs, gs), lhs_contracting_dims={{0}}, rhs_contracting_dims={{0}}
  z = f32[] constant(0)
  gb = f32[12] reduce(gs, z), dimensions={{0}}, to_apply=add
  dwr = f32[8,12] custom-call(dw), custom_call_target="Sharding", backend_config="{{replicated}}"
  ROOT r = (f32[8,12], f32[12]) tuple(dwr, gb)
}}
"#,
            add()
        ),
    );
    assert_eq!(c, vec!["all-reduce"]);
}

#[test]
fn tensor_parallel_mlp_has_one_all_reduce() {
    let c = check(
        "megatron",
        r#"HloModule m, num_partitions=4
ENTRY main {
  x = f32[6,8] parameter(0)
  w1 = f32[8,16] parameter(1)
  w1s = f32[8,16] custom-call(w1), custom_call_target="Sharding", backend_config="{devices=[1,4]<=[4]}"
  w2 = f32[16,8] parameter(2)
  w2s = f32[16,8] custom-call(w2), custom_call_target="Sharding", backend_config="{devices=[4,1]<=[4]}"
  h = f32[6,16] dot(x, w1s), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  a = f32[6,16] tanh(h)
  y = f32[6,8] dot(a, w2s), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ys = f32[6,8] custom-call(y), custom_call_target="Sharding", backend_config="{replicated}"
  ROOT r = (f32[6,8]) tuple(ys)
}
"#,
    );
    assert_eq!(c, vec!["all-reduce"]);
}

#[test]
fn two_dimensional_mesh_transpose_reshape_and_fallback() {
    check(
        "2d mesh",
        &format!(
            r#"HloModule m, num_partitions=4
{}ENTRY main {{
  x = f32[8,4] parameter(0)
  xs = f32[8,4] custom-call(x), custom_call_target="Sharding", backend_config="{{devices=[2,2]<=[2,2]T(1,0)}}"
  t = f32[4,8] transpose(xs), dimensions={{1,0}}
  r = f32[4,2,4] reshape(t)
  z = f32[] constant(0)
  s = f32[4,4] reduce(r, z), dimensions={{1}}, to_apply=add
  c = f32[4,4] custom-call(s), custom_call_target="Sharding", backend_config="{{devices=[1,2,2]<=[4] last_tile_dim_replicate}}"
  rev = f32[4,4] reverse(c), dimensions={{0}}
  ROOT o = (f32[4,4], f32[4,8]) tuple(rev, t)
}}
"#,
            add()
        ),
    );
}

#[test]
fn constraint_moves_the_split() {
    let c = check(
        "constraint",
        r#"HloModule m, num_partitions=2
ENTRY main {
  x = f32[4,6] parameter(0)
  xs = f32[4,6] custom-call(x), custom_call_target="Sharding", backend_config="{devices=[2,1]<=[2]}"
  e = f32[4,6] exponential(xs)
  c = f32[4,6] custom-call(e), custom_call_target="Sharding", backend_config="{devices=[1,2]<=[2]}"
  n = f32[4,6] negate(c)
  ROOT r = (f32[4,6]) tuple(n)
}
"#,
    );
    assert_eq!(c, vec!["all-gather"]);
}

#[test]
fn uneven_parameter_is_a_clear_error() {
    let module = oxla::hlo::text::parse_module(
        r#"HloModule m, num_partitions=4
ENTRY main {
  x = f32[6] parameter(0)
  xs = f32[6] custom-call(x), custom_call_target="Sharding", backend_config="{devices=[4]<=[4]}"
  ROOT r = (f32[6]) tuple(xs)
}
"#,
    )
    .unwrap();
    let client = Client::cpu_with(ClientOptions {
        devices: 4,
        ..Default::default()
    })
    .unwrap();
    let e = client
        .compile(&module, &CompileOptions::default())
        .err()
        .expect("an error")
        .to_string();
    assert!(e.contains("do not divide evenly"), "{e}");
}

#[test]
fn embedding_lookup_and_its_gradient() {
    // Indices split by batch: the gather keeps the split; the gradient's scatter-add sums
    // the partitions' contributions in one all-reduce.
    let c = check(
        "embedding",
        &format!(
            r#"HloModule m, num_partitions=4
{}ENTRY main {{
  table = f32[6,3] parameter(0)
  ids = s32[8,1] parameter(1)
  idss = s32[8,1] custom-call(ids), custom_call_target="Sharding", backend_config="{{devices=[4,1]<=[4]}}"
  g = f32[8,3] gather(table, idss), offset_dims={{1}}, collapsed_slice_dims={{0}}, start_index_map={{0}}, index_vector_dim=1, slice_sizes={{1,3}}
  t = f32[8,3] tanh(g)
  upd = f32[8,3] parameter(2)
  upds = f32[8,3] custom-call(upd), custom_call_target="Sharding", backend_config="{{devices=[4,1]<=[4]}}"
  s = f32[6,3] scatter(table, idss, upds), update_window_dims={{1}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=add
  ROOT r = (f32[8,3], f32[6,3]) tuple(t, s)
}}
"#,
            add()
        ),
    );
    assert_eq!(c, vec!["all-reduce"]);
}

#[test]
fn convolution_split_by_batch() {
    let c = check(
        "conv batch",
        r#"HloModule m, num_partitions=2
ENTRY main {
  x = f32[4,6,6,3] parameter(0)
  xs = f32[4,6,6,3] custom-call(x), custom_call_target="Sharding", backend_config="{devices=[2,1,1,1]<=[2]}"
  k = f32[3,3,3,5] parameter(1)
  y = f32[4,6,6,5] convolution(xs, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  ROOT r = (f32[4,6,6,5]) tuple(y)
}
"#,
    );
    assert!(c.is_empty(), "{c:?}");
}

#[test]
fn data_movement_keeps_splits_off_its_moving_dimensions() {
    // Concatenate, slice, pad, reverse, sort and a running window along the whole
    // dimension keep the rows split: no collective.
    let c = check(
        "pass through",
        &format!(
            r#"HloModule m, num_partitions=4
{}
%lt (a: f32[], b: f32[]) -> pred[] {{
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %c = pred[] compare(%a, %b), direction=LT
}}

ENTRY main {{
  x = f32[8,6] parameter(0)
  xs = f32[8,6] custom-call(x), custom_call_target="Sharding", backend_config="{{devices=[4,1]<=[4]}}"
  cat = f32[8,12] concatenate(xs, xs), dimensions={{1}}
  sl = f32[8,5] slice(cat), slice={{[0:8], [2:12:2]}}
  z = f32[] constant(0)
  pd = f32[8,9] pad(sl, z), padding=0_0x1_3
  rv = f32[8,9] reverse(pd), dimensions={{1}}
  st = f32[8,9] sort(rv), dimensions={{1}}, to_apply=lt
  cs = f32[8,9] reduce-window(st, z), window={{size=1x9 pad=0_0x8_0}}, to_apply=add
  ROOT r = (f32[8,9]) tuple(cs)
}}
"#,
            add()
        ),
    );
    assert!(c.is_empty(), "{c:?}");
}

#[test]
fn shard_map_inside_a_shard_map() {
    // The outer shard_map splits rows over the major axis of a 2x2 mesh; inside it, an inner
    // one splits each piece's columns over the minor axis; the square runs on quarter pieces.
    let c = check_against(
        "nested shard_map",
        r#"HloModule m, num_partitions=4
ENTRY main {
  x = f32[4,8] parameter(0)
  xs = f32[4,8] custom-call(x), custom_call_target="Sharding", backend_config="{devices=[2,1,2]<=[4] last_tile_dim_replicate}"
  l = f32[2,8] custom-call(xs), custom_call_target="SPMDFullToShardShape", backend_config="{manual}"
  li = f32[2,8] custom-call(l), custom_call_target="Sharding", backend_config="{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"
  ll = f32[2,4] custom-call(li), custom_call_target="SPMDFullToShardShape", backend_config="{manual}"
  m = f32[2,4] multiply(ll, ll)
  mf = f32[2,8] custom-call(m), custom_call_target="SPMDShardToFullShape", backend_config="{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"
  mm = f32[2,8] custom-call(mf), custom_call_target="Sharding", backend_config="{manual}"
  f = f32[4,8] custom-call(mm), custom_call_target="SPMDShardToFullShape", backend_config="{devices=[2,1,2]<=[4] last_tile_dim_replicate}"
  ROOT r = (f32[4,8]) tuple(f)
}
"#,
        Some(
            "HloModule r\nENTRY main {\n  x = f32[4,8] parameter(0)\n  m = f32[4,8] multiply(x, x)\n  ROOT r = (f32[4,8]) tuple(m)\n}\n",
        ),
    );
    assert_eq!(c, vec!["all-gather"]);
}

#[test]
fn ops_without_a_rule_are_listed() {
    // Sorting along the split dimension has no rule: the rows are gathered and the sort runs
    // whole on every partition; the executable says so.
    let text = r#"HloModule m, num_partitions=2
%lt (a: f32[], b: f32[]) -> pred[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %c = pred[] compare(%a, %b), direction=LT
}

ENTRY main {
  x = f32[8] parameter(0)
  xs = f32[8] custom-call(x), custom_call_target="Sharding", backend_config="{devices=[2]<=[2]}"
  s = f32[8] sort(xs), dimensions={0}, to_apply=lt
  ROOT r = (f32[8]) tuple(s)
}
"#;
    let c = check("sort along the split", text);
    assert_eq!(c, vec!["all-gather"]);
    let module = oxla::hlo::text::parse_module(text).unwrap();
    let client = Client::cpu_with(ClientOptions {
        devices: 2,
        ..Default::default()
    })
    .unwrap();
    let exe = client.compile(&module, &CompileOptions::default()).unwrap();
    let whole = &exe.spmd_signature().unwrap().whole;
    assert_eq!(whole.len(), 1, "{whole:?}");
    assert!(whole[0].contains("(sort)"), "{whole:?}");
}

#[test]
fn malformed_annotations_are_clear_errors() {
    let module = oxla::hlo::text::parse_module(
        r#"HloModule m, num_partitions=2
ENTRY main {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  s = f32[4] custom-call(x, y), custom_call_target="Sharding", backend_config="{devices=[2]<=[2]}"
  ROOT r = (f32[4]) tuple(s)
}
"#,
    )
    .unwrap();
    let client = Client::cpu_with(ClientOptions {
        devices: 2,
        ..Default::default()
    })
    .unwrap();
    let e = client
        .compile(&module, &CompileOptions::default())
        .err()
        .expect("an error")
        .to_string();
    assert!(e.contains("takes one operand"), "{e}");
    let bad = oxla::hlo::text::parse_module(
        r#"HloModule m, num_partitions=2
ENTRY main {
  x = f32[4] parameter(0)
  s = f32[4] custom-call(x), custom_call_target="Sharding", backend_config="{devices=[2]0,0}"
  ROOT r = (f32[4]) tuple(s)
}
"#,
    )
    .unwrap();
    let e = client
        .compile(&bad, &CompileOptions::default())
        .err()
        .expect("an error")
        .to_string();
    assert!(e.contains("HLO sharding"), "{e}");
}

#[test]
fn resharding_moves_only_what_each_partition_lacks() {
    // 8 ways to 4 ways with copies (an all-gather within pairs), back to 8 ways (a local
    // slice), then a reshape spreading a split over heads and their width, and back.
    let c = check(
        "nested",
        r#"HloModule m, num_partitions=8
ENTRY main {
  x = f32[16,8] parameter(0)
  xs = f32[16,8] custom-call(x), custom_call_target="Sharding", backend_config="{devices=[8,1]<=[8]}"
  four = f32[16,8] custom-call(xs), custom_call_target="Sharding", backend_config="{devices=[4,1,2]<=[8] last_tile_dim_replicate}"
  n = f32[16,8] negate(four)
  eight = f32[16,8] custom-call(n), custom_call_target="Sharding", backend_config="{devices=[8,1]<=[8]}"
  m = f32[16,8] exponential(eight)
  y = f32[2,64] parameter(1)
  ys = f32[2,64] custom-call(y), custom_call_target="Sharding", backend_config="{devices=[1,8]<=[8]}"
  heads = f32[2,4,16] reshape(ys)
  t = f32[2,4,16] tanh(heads)
  back = f32[2,64] reshape(t)
  w = f32[2,4,16] custom-call(t), custom_call_target="Sharding", backend_config="{devices=[1,4,1,2]<=[8] last_tile_dim_replicate}"
  s = f32[2,4,16] sine(w)
  ROOT r = (f32[16,8], f32[2,64], f32[2,4,16]) tuple(m, back, s)
}
"#,
    );
    // One all-gather within pairs for the rows, one for the heads' width.
    assert_eq!(c, vec!["all-gather", "all-gather"]);
}

#[test]
fn a_dot_is_led_by_the_operand_whose_follower_needs_no_move() {
    // Attention's probabilities split along heads (copies over pairs) times values split
    // along heads and their width: the values lead, the probabilities already follow, and
    // nothing moves (led by the probabilities, the values' width was gathered).
    let c = check(
        "attention values",
        r#"HloModule m, num_partitions=8
ENTRY main {
  a = f32[2,4,8,8] parameter(0)
  as = f32[2,4,8,8] custom-call(a), custom_call_target="Sharding", backend_config="{devices=[1,4,1,1,2]<=[8] last_tile_dim_replicate}"
  v = f32[2,4,8,16] parameter(1)
  vs = f32[2,4,8,16] custom-call(v), custom_call_target="Sharding", backend_config="{devices=[1,4,1,2]<=[8]}"
  o = f32[2,4,8,16] dot(as, vs), lhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_batch_dims={0,1}, rhs_contracting_dims={2}
  ROOT r = (f32[2,4,8,16]) tuple(o)
}
"#,
    );
    assert!(c.is_empty(), "{c:?}");
}

#[test]
fn counters_from_iotas_are_made_at_each_pieces_shape() {
    // Random bits as JAX makes them with `jax.threefry_partitionable`: counters from iotas
    // along both dimensions, hashed by shifts, xors and adds with constants, then added to
    // an argument split 2 x 2. Each partition makes its own counters (iota plus its
    // offsets): no whole [16,12] array anywhere and no collective, the one-device result.
    let text = r#"HloModule m, num_partitions=4
ENTRY main {
  x = f32[16,12] parameter(0)
  xs = f32[16,12] custom-call(x), custom_call_target="Sharding", backend_config="{devices=[2,2]<=[4]}"
  i0 = u32[16,12] iota(), iota_dimension=0
  i1 = u32[16,12] iota(), iota_dimension=1
  w = u32[] constant(12)
  wb = u32[16,12] broadcast(w), dimensions={}
  row = u32[16,12] multiply(i0, wb)
  ctr = u32[16,12] add(row, i1)
  k = u32[] constant(2654435769)
  kb = u32[16,12] broadcast(k), dimensions={}
  h1 = u32[16,12] multiply(ctr, kb)
  s = u32[] constant(13)
  sb = u32[16,12] broadcast(s), dimensions={}
  h2 = u32[16,12] shift-right-logical(h1, sb)
  h3 = u32[16,12] xor(h1, h2)
  m = u32[] constant(65535)
  mb = u32[16,12] broadcast(m), dimensions={}
  h4 = u32[16,12] and(h3, mb)
  f = f32[16,12] convert(h4)
  a = f32[16,12] add(f, xs)
  fi = f32[16,12] iota(), iota_dimension=1
  b = f32[16,12] multiply(a, fi)
  ROOT r = (f32[16,12]) tuple(b)
}
"#;
    assert_eq!(check("counters", text), Vec::<String>::new());
    let mut m = oxla::hlo::text::parse_module(text).unwrap();
    oxla::passes::partition_spmd(&mut m).unwrap();
    let printed = oxla::hlo::text::print_module(&m);
    // The parameter and result types are the pieces' too.
    assert!(
        !printed.contains("[16,12]"),
        "a whole array is made:\n{printed}"
    );
    assert!(printed.contains("iota"), "{printed}");
}

#[test]
fn counters_hashed_in_a_loop_are_made_at_each_pieces_shape() {
    // JAX's threefry runs its rounds in a loop over a state of counters: the loop runs on
    // each partition's counters (its condition and body copied at the piece's shape).
    let text = r#"HloModule m, num_partitions=4
cond {
  s = (s32[], u32[16]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(5)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], u32[16]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  v = u32[16] get-tuple-element(s), index=1
  k = u32[] constant(2654435769)
  kb = u32[16] broadcast(k), dimensions={}
  h = u32[16] multiply(v, kb)
  r = u32[] constant(7)
  rb = u32[16] broadcast(r), dimensions={}
  h2 = u32[16] shift-right-logical(h, rb)
  h3 = u32[16] xor(h, h2)
  ROOT t = (s32[], u32[16]) tuple(j, h3)
}
ENTRY main {
  x = f32[16] parameter(0)
  xs = f32[16] custom-call(x), custom_call_target="Sharding", backend_config="{devices=[4]<=[4]}"
  c = u32[16] iota(), iota_dimension=0
  z = s32[] constant(0)
  s0 = (s32[], u32[16]) tuple(z, c)
  w = (s32[], u32[16]) while(s0), condition=cond, body=body
  bits = u32[16] get-tuple-element(w), index=1
  m = u32[] constant(4095)
  mb = u32[16] broadcast(m), dimensions={}
  b = u32[16] and(bits, mb)
  f = f32[16] convert(b)
  a = f32[16] add(f, xs)
  ROOT r = (f32[16]) tuple(a)
}
"#;
    assert_eq!(check("hashed counters", text), Vec::<String>::new());
    let mut m = oxla::hlo::text::parse_module(text).unwrap();
    oxla::passes::partition_spmd(&mut m).unwrap();
    let printed = oxla::hlo::text::print_module(&m);
    let entry = printed.split("ENTRY").nth(1).unwrap();
    assert!(!entry.contains("[16]"), "a whole array is made:\n{printed}");
}

#[test]
fn shard_map_inside_a_loop() {
    // A pmap inside a fori_loop (JAX issue 1065's program): the loop runs whole on every
    // partition; in its body, each partition takes its piece of the state, squares it and
    // the pieces are gathered back. The argument is split too (the entry's rules).
    let c = check_against(
        "shard_map in a loop",
        r#"HloModule m, num_partitions=4
cond {
  s = (s32[], f32[8,2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(2)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[8,2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  v = f32[8,2] get-tuple-element(s), index=1
  vs = f32[8,2] custom-call(v), custom_call_target="Sharding", backend_config="{devices=[4,1]<=[4]}"
  l = f32[2,2] custom-call(vs), custom_call_target="SPMDFullToShardShape", backend_config="{manual}"
  m = f32[2,2] multiply(l, l)
  mm = f32[2,2] custom-call(m), custom_call_target="Sharding", backend_config="{manual}"
  f = f32[8,2] custom-call(mm), custom_call_target="SPMDShardToFullShape", backend_config="{devices=[4,1]<=[4]}"
  ROOT t = (s32[], f32[8,2]) tuple(j, f)
}
ENTRY main {
  x = f32[8,2] parameter(0)
  z = s32[] constant(0)
  s0 = (s32[], f32[8,2]) tuple(z, x)
  w = (s32[], f32[8,2]) while(s0), condition=cond, body=body
  r = f32[8,2] get-tuple-element(w), index=1
  ROOT o = (f32[8,2]) tuple(r)
}
"#,
        Some(
            "HloModule r\nENTRY main {\n  x = f32[8,2] parameter(0)\n  m = f32[8,2] multiply(x, x)\n  m2 = f32[8,2] multiply(m, m)\n  ROOT r = (f32[8,2]) tuple(m2)\n}\n",
        ),
    );
    // The pieces gathered back in the body (the collective counter reads the entry and
    // the body alike).
    assert_eq!(c, vec!["all-gather"]);
}
