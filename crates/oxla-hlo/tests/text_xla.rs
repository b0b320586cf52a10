//! Reading HLO text as XLA and JAX print it (tests/data/hlo/*.hlo, written in XLA's
//! exact style), and checking the modules read are what the text says.

use oxla_hlo::text::{parse_module, print_module};
use oxla_hlo::*;

fn parse(text: &str) -> HloModule {
    let m = parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    // Whatever we read, our own text for it reads back to the same module.
    let printed = print_module(&m);
    let again = parse_module(&printed).unwrap_or_else(|e| panic!("{e}\n{printed}"));
    assert_eq!(again, m, "re-read of printed module differs:\n{printed}");
    assert_eq!(print_module(&again), printed);
    m
}

fn find<'a>(c: &'a HloComputation, name: &str) -> &'a HloInstruction {
    c.instructions
        .iter()
        .find(|i| i.name == name)
        .unwrap_or_else(|| panic!("no instruction {name}"))
}

fn operand_names(c: &HloComputation, i: &HloInstruction) -> Vec<String> {
    i.operands
        .iter()
        .map(|&o| c.instr(o).name.clone())
        .collect()
}

fn called_names(m: &HloModule, i: &HloInstruction) -> Vec<String> {
    i.called
        .iter()
        .map(|&c| m.computation(c).name.clone())
        .collect()
}

#[test]
fn jax_module_with_metadata() {
    let m = parse(include_str!("data/hlo/jax_reduce_sum.hlo"));
    assert_eq!(m.name, "jit_f");
    assert_eq!(m.computations.len(), 2);
    let e = m.entry_computation();
    assert_eq!(e.name, "main.12");
    assert_eq!(e.parameters.len(), 2);
    assert_eq!(e.root_instr().name, "tuple.11");
    assert_eq!(e.root_instr().op, Op::Tuple);
    let reduce = find(e, "reduce.9");
    assert_eq!(
        reduce.op,
        Op::Reduce {
            dimensions: vec![1]
        }
    );
    assert_eq!(operand_names(e, reduce), ["add.4", "constant.1"]);
    assert_eq!(called_names(&m, reduce), ["region_0.5"]);
    assert_eq!(reduce.shape.to_string(), "f32[2]{0}");
    let b = find(e, "broadcast.3");
    assert_eq!(
        b.op,
        Op::Broadcast {
            dimensions: vec![1]
        }
    );
    assert_eq!(find(e, "cosine.10").op, Op::Unary(UnaryOp::Cos));
    assert_eq!(
        m.entry_program_shape().to_string(),
        "(f32[2,3]{1,0}, f32[3]{0}) -> (f32[2]{0}, f32[2,3]{1,0})"
    );
}

#[test]
fn jax_percent_style_with_escaped_metadata() {
    let m = parse(include_str!("data/hlo/jax_percent_style.hlo"));
    let e = m.entry_computation();
    assert_eq!(e.name, "main.5");
    assert_eq!(e.root_instr().op, Op::Binary(BinaryOp::Mul));
    assert_eq!(operand_names(e, e.root_instr()), ["sine.2", "broadcast.4"]);
    let Op::Constant(l) = &find(e, "constant.3").op else {
        panic!("constant.3 is not a constant")
    };
    assert_eq!(l.storage(), Some(&Storage::F32(vec![2.0])));
}

#[test]
fn collectives_with_replica_groups() {
    let m = parse(include_str!("data/hlo/all_reduce.hlo"));
    assert_eq!(
        m.config,
        ModuleConfig {
            num_replicas: 4,
            num_partitions: 2,
            spmd: None,
        }
    );
    let e = m.entry_computation();
    assert_eq!(
        find(e, "crs").op,
        Op::AllReduce {
            replica_groups: vec![vec![0, 1], vec![2, 3]],
            channel_id: Some(1),
            use_global_device_ids: true,
        }
    );
    assert_eq!(called_names(&m, find(e, "crs")), ["add"]);
    assert_eq!(
        find(e, "ag").op,
        Op::AllGather {
            dimension: 1,
            replica_groups: vec![vec![0, 1], vec![2, 3]],
            channel_id: None,
            use_global_device_ids: false,
        }
    );
    assert_eq!(
        find(e, "a2a").op,
        Op::AllToAll {
            split_dimension: 0,
            concat_dimension: 0,
            split_count: 2,
            replica_groups: vec![vec![0, 2], vec![1, 3]],
            channel_id: None,
        }
    );
    assert_eq!(
        find(e, "rs").op,
        Op::ReduceScatter {
            dimension: 0,
            replica_groups: vec![vec![0, 1, 2, 3]],
            channel_id: Some(2),
            use_global_device_ids: false,
        }
    );
    assert_eq!(
        find(e, "cp").op,
        Op::CollectivePermute {
            source_target_pairs: vec![(0, 1), (1, 2), (2, 3), (3, 0)],
            channel_id: Some(3),
        }
    );
}

#[test]
fn while_loop() {
    let m = parse(include_str!("data/hlo/while_loop.hlo"));
    let e = m.entry_computation();
    let w = e.root_instr();
    assert_eq!(w.op, Op::While);
    assert_eq!(called_names(&m, w), ["cond.7", "body.12"]);
    assert_eq!(w.shape.to_string(), "(s32[], f32[4]{0})");
    let body = m.computation(w.called[1]);
    assert_eq!(body.root_instr().name, "tuple.20");
    assert_eq!(
        find(body, "get-tuple-element.17").op,
        Op::GetTupleElement { index: 1 }
    );
    let Op::Constant(l) = &find(body, "constant.18").op else {
        panic!("not a constant")
    };
    assert_eq!(
        l.storage(),
        Some(&Storage::F32(vec![0.5, 1.25, -3.0, 1e-7]))
    );
    let cond = m.computation(w.called[0]);
    assert_eq!(
        cond.root_instr().op,
        Op::Compare {
            direction: ComparisonDirection::Lt,
            comparison_type: None
        }
    );
    // Computations are numbered in text order; callees precede the entry.
    assert_eq!(m.entry, ComputationId(2));
}

#[test]
fn convolution_with_dim_labels() {
    let m = parse(include_str!("data/hlo/convolution.hlo"));
    let Op::Convolution {
        window,
        dnums,
        feature_group_count,
        batch_group_count,
        precision,
    } = &m.entry_computation().root_instr().op
    else {
        panic!("root is not a convolution")
    };
    assert_eq!(window.dimensions.len(), 2);
    let d = &window.dimensions[0];
    assert_eq!((d.size, d.stride), (3, 1));
    assert_eq!((d.padding_low, d.padding_high), (1, 2));
    assert_eq!((d.base_dilation, d.window_dilation), (2, 1));
    assert!(d.window_reversal);
    assert_eq!(dnums.input_batch_dimension, 0);
    assert_eq!(dnums.input_feature_dimension, 3);
    assert_eq!(dnums.input_spatial_dimensions, [1, 2]);
    // 01oi: kernel spatial 0,1; output feature 2; input feature 3.
    assert_eq!(dnums.kernel_output_feature_dimension, 2);
    assert_eq!(dnums.kernel_input_feature_dimension, 3);
    assert_eq!(dnums.output_spatial_dimensions, [1, 2]);
    assert_eq!((*feature_group_count, *batch_group_count), (1, 1));
    assert_eq!(
        precision.operand_precision,
        [Precision::High, Precision::Default]
    );
    // XLA omits feature_group_count=1; so do we.
    let text = print_module(&m);
    assert!(text.contains(
        "window={size=3x3 pad=1_2x1_2 lhs_dilate=2x2 rhs_reversal=1x1}, dim_labels=b01f_01oi->b01f, operand_precision={high,default}\n"
    ));
}

#[test]
fn gather_and_scatter() {
    let m = parse(include_str!("data/hlo/gather_scatter.hlo"));
    let e = m.entry_computation();
    assert_eq!(
        find(e, "gather").op,
        Op::Gather {
            dnums: GatherDimensionNumbers {
                offset_dims: vec![1],
                collapsed_slice_dims: vec![0],
                start_index_map: vec![0],
                index_vector_dim: 1,
                operand_batching_dims: vec![],
                start_indices_batching_dims: vec![],
            },
            slice_sizes: vec![1, 3],
            indices_are_sorted: true,
        }
    );
    let s = find(e, "scatter");
    assert_eq!(
        s.op,
        Op::Scatter {
            dnums: ScatterDimensionNumbers {
                update_window_dims: vec![1],
                inserted_window_dims: vec![0],
                scatter_dims_to_operand_dims: vec![0],
                index_vector_dim: 1,
                input_batching_dims: vec![],
                scatter_indices_batching_dims: vec![],
            },
            indices_are_sorted: false,
            unique_indices: true,
        }
    );
    assert_eq!(operand_names(e, s), ["operand", "indices", "updates"]);
    assert_eq!(called_names(&m, s), ["update_s32"]);
    // A computation whose root is its parameter.
    let upd = m.computation(s.called[0]);
    assert_eq!(upd.root_instr().op, Op::Parameter { number: 1 });
}

#[test]
fn hand_written_text() {
    let m = parse(include_str!("data/hlo/hand_written.hlo"));
    assert_eq!(m.name, "hand_written");
    let e = m.entry_computation();
    assert_eq!(e.name, "entry");
    // No ROOT: the last instruction is the root.
    assert_eq!(e.root_instr().op, Op::Tuple);
    assert_eq!(e.parameters.len(), 4);
    // `x` is used in three computations: later ones are renamed to stay module-unique.
    assert_eq!(m.computations[0].instructions[0].name, "x");
    assert_eq!(m.computations[1].instructions[0].name, "x.1");
    assert_eq!(find(e, "x.2").shape.to_string(), "f32[]");
    // Tiling in a layout is accepted and dropped.
    assert_eq!(find(e, "a").shape.to_string(), "f32[4,4]{1,0}");
    let cond = find(e, "cond");
    assert_eq!(called_names(&m, cond), ["Negate", "Identity"]);
    let idx = find(e, "idx");
    assert_eq!(called_names(&m, idx), ["Negate", "Identity", "Negate"]);
    assert_eq!(
        find(e, "solve").op,
        Op::TriangularSolve {
            left_side: false,
            lower: true,
            unit_diagonal: false,
            transpose_a: TriangularTranspose::Transpose
        }
    );
    let max_argmax = m.computation(find(e, "result").called[0]);
    // Parameters are ordered by number, not by position in the text.
    let pnames: Vec<&str> = max_argmax
        .parameters
        .iter()
        .map(|&p| max_argmax.instr(p).name.as_str())
        .collect();
    assert_eq!(pnames, ["prev_max", "prev_argmax", "value", "index"]);
    assert_eq!(
        find(e, "cc").op,
        Op::CustomCall {
            target: "my_target".into(),
            backend_config: r#"{"a": [1, 2], "b": "}"}"#.into(),
            has_side_effect: false,
            api_version: 2,
        }
    );
    assert_eq!(
        find(e, "comp").op,
        Op::CompositeCall {
            name: "foo.bar".into(),
            attributes: "{n = 1 : i32, tensor = dense<1> : tensor<i32>}".into(),
            version: 1,
        }
    );
    let Op::Constant(l) = &find(e, "y").op else {
        panic!("y is not a constant")
    };
    assert_eq!(l.storage(), Some(&Storage::F32(vec![f32::NEG_INFINITY])));
}

#[test]
fn shapes_parse_alone() {
    use oxla_hlo::shape::UNBOUNDED_SIZE;
    let s: Shape = "f32[2,3]{1,0}".parse().unwrap();
    assert_eq!(s.dims(), [2, 3]);
    assert_eq!(
        s.as_array()
            .unwrap()
            .layout
            .as_ref()
            .unwrap()
            .minor_to_major,
        [1, 0]
    );
    let d: Shape = "f32[<=10, ?]".parse().unwrap();
    let a = d.as_array().unwrap();
    assert_eq!(a.dims, [10, UNBOUNDED_SIZE]);
    assert_eq!(a.dynamic, [true, true]);
    let t: Shape = "(f32[2], (s32[], token[]), /*index=2*/pred[])"
        .parse()
        .unwrap();
    assert_eq!(t.tuple_elements().unwrap().len(), 3);
    assert_eq!(t.subshape(&[1, 1]), Some(&Shape::Token), "nested token");
    let tiled: Shape = "bf16[8,128]{1,0:T(8,128)(2,1)S(1)}".parse().unwrap();
    assert_eq!(tiled.to_string(), "bf16[8,128]{1,0}");
    for t in types::ARRAY_TYPES {
        let text = format!("{}[3]", t.name());
        let s: Shape = text.parse().unwrap();
        assert_eq!(s.element_type(), t);
        assert_eq!(s.to_string(), text);
    }
    assert_eq!("token[]".parse::<Shape>().unwrap(), Shape::Token);
    assert_eq!("()".parse::<Shape>().unwrap(), Shape::Tuple(vec![]));
}

#[test]
fn crlf_line_endings_and_byte_order_mark() {
    for name in ["jax_reduce_sum", "hand_written", "while_loop"] {
        let text = match name {
            "jax_reduce_sum" => include_str!("data/hlo/jax_reduce_sum.hlo"),
            "hand_written" => include_str!("data/hlo/hand_written.hlo"),
            _ => include_str!("data/hlo/while_loop.hlo"),
        };
        let lf = parse_module(text).unwrap();
        let crlf = parse_module(&format!("\u{feff}{}", text.replace('\n', "\r\n")))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(lf, crlf, "{name}");
    }
}

#[test]
fn feeds_and_channels_with_root_not_last() {
    let m = parse(include_str!("data/hlo/infeed_send_recv.hlo"));
    let e = m.entry_computation();
    assert_eq!(e.root_instr().name, "recv-done");
    assert_eq!(
        e.instructions.last().map(|i| i.name.as_str()),
        Some("send-done")
    );
    assert_eq!(
        find(e, "infeed").op,
        Op::Infeed {
            config: "cfg".into()
        }
    );
    assert_eq!(
        find(e, "outfeed").op,
        Op::Outfeed {
            config: String::new()
        }
    );
    assert_eq!(
        find(e, "send").op,
        Op::Send {
            channel_id: 16,
            is_host_transfer: true,
            source_target_pairs: vec![],
        }
    );
    assert_eq!(
        find(e, "recv-done").op,
        Op::RecvDone {
            channel_id: 15,
            is_host_transfer: false
        }
    );
    assert_eq!(operand_names(e, find(e, "send")), ["constant", "token0"]);
    assert!(print_module(&m).contains(
        "%outfeed = token[] outfeed((u32[3]{0}, pred[]) %infeed.data, token[] %token0), outfeed_shape=(u32[3]{0}, pred[])\n"
    ));
}
