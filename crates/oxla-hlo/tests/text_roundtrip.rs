//! print → parse → print is exact for every op of the `Op` enum, and parse(print(m)) == m,
//! over the cases of `text_cases` (one small module per op, built directly with the IR types).

mod text_cases;

use text_cases::*;

/// Exhaustive over `Op`, so adding a variant fails to compile here until it gets a case.
fn variant(op: &Op) -> &'static str {
    match op {
        Op::Unary(_) => "unary",
        Op::Binary(_) => "binary",
        Op::CompositeCall { .. } => "composite-call",
        Op::UniformQuantize { .. }
        | Op::UniformDequantize { .. }
        | Op::Parameter { .. }
        | Op::Constant(_)
        | Op::Iota { .. }
        | Op::ReplicaId
        | Op::PartitionId
        | Op::Compare { .. }
        | Op::Select
        | Op::Clamp
        | Op::Convert
        | Op::BitcastConvert
        | Op::ReducePrecision { .. }
        | Op::Map { .. }
        | Op::Broadcast { .. }
        | Op::Reshape
        | Op::Transpose { .. }
        | Op::Reverse { .. }
        | Op::Slice { .. }
        | Op::DynamicSlice { .. }
        | Op::DynamicUpdateSlice
        | Op::Concatenate { .. }
        | Op::Pad(_)
        | Op::Gather { .. }
        | Op::Scatter { .. }
        | Op::Copy
        | Op::GetDimensionSize { .. }
        | Op::SetDimensionSize { .. }
        | Op::Tuple
        | Op::GetTupleElement { .. }
        | Op::AfterAll
        | Op::OptimizationBarrier
        | Op::Reduce { .. }
        | Op::ReduceWindow(_)
        | Op::SelectAndScatter(_)
        | Op::Dot { .. }
        | Op::Convolution { .. }
        | Op::Fft { .. }
        | Op::TriangularSolve { .. }
        | Op::Cholesky { .. }
        | Op::BatchNormTraining { .. }
        | Op::BatchNormInference { .. }
        | Op::BatchNormGrad { .. }
        | Op::TopK { .. }
        | Op::Sort { .. }
        | Op::While
        | Op::Conditional
        | Op::Call
        | Op::Fusion { .. }
        | Op::CustomCall { .. }
        | Op::Rng { .. }
        | Op::RngBitGenerator { .. }
        | Op::Infeed { .. }
        | Op::Outfeed { .. }
        | Op::Send { .. }
        | Op::SendDone { .. }
        | Op::Recv { .. }
        | Op::RecvDone { .. }
        | Op::AllGather { .. }
        | Op::AllReduce { .. }
        | Op::ReduceScatter { .. }
        | Op::AllToAll { .. }
        | Op::CollectivePermute { .. }
        | Op::CollectiveBroadcast { .. }
        | Op::CollectiveReduce { .. } => op.opcode_name(),
    }
}

const ALL_VARIANTS: usize = 68;

#[test]
fn every_op_round_trips_exactly() {
    let mut covered = std::collections::BTreeSet::new();
    for (what, m) in cases() {
        let text = print_module(&m);
        let parsed = parse_module(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        let again = print_module(&parsed);
        assert_eq!(text, again, "{what}: print → parse → print differs");
        assert_eq!(parsed, m, "{what}: parse(print(m)) != m\n{text}");
        for c in &m.computations {
            for i in &c.instructions {
                covered.insert(variant(&i.op));
            }
        }
    }
    assert_eq!(
        covered.len(),
        ALL_VARIANTS,
        "ops without a case: {covered:?}"
    );
}

#[test]
fn attribute_spellings() {
    let all: Vec<String> = cases().iter().map(|(_, m)| print_module(m)).collect();
    let all = all.join("\n");
    for needle in [
        "slice={[0:2], [1:3]}",
        "slice={[0:4:2], [1:3:1]}",
        "padding=0_1x1_2",
        "padding=-1_2_1",
        "window={size=3x1 stride=2x1 pad=1_0x-1_2 lhs_dilate=2x1 rhs_dilate=1x3 rhs_reversal=1x0}",
        "dim_labels=b01f_01io->b01f, feature_group_count=2, operand_precision={default,high}",
        "dim_labels=bf_io->bf, batch_group_count=2",
        "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}, operand_precision={high,highest}",
        "direction=NE, type=TOTALORDER",
        "fft_type=RFFT, fft_length={16}",
        "left_side=true, lower=true, unit_diagonal=true, transpose_a=NO_TRANSPOSE",
        "transpose_a=ADJOINT",
        "epsilon=0.001, feature_index=1",
        "epsilon=1e-05, feature_index=1",
        "k=2, largest=true",
        "dimensions={0}, is_stable=true, to_apply=%lt",
        "condition=%cond, body=%body",
        "true_computation=%t, false_computation=%f",
        "branch_computations={%b0, %b1, %b2}",
        "to_apply=%decomp, is_composite=true, frontend_attributes={composite.attributes={n = 1 : i32, tensor = dense<1> : tensor<i32>},composite.name=\"foo.bar\",composite.version=\"1\"}",
        "custom_call_target=\"foo\\\"bar\", backend_config=\"this is \\\\ opaque\\n\"",
        "custom_call_target=\"my_ffi\", custom_call_has_side_effect=true, api_version=API_VERSION_TYPED_FFI, called_computations={%add, %max}, backend_config={key: \"va}lue\"}",
        "distribution=rng_normal",
        "algorithm=rng_three_fry",
        "quant={storage=s8, min=-128, max=127, expressed=f32, scales={0.5,0.1}, zero_points={0,-3}, dim=1}",
        "infeed_config=\"cfg\"",
        "outfeed(f32[2] %p0, token[] %p1), outfeed_shape=f32[2], outfeed_config=\"c\\\"x\"",
        "channel_id=3, is_host_transfer=true",
        "channel_id=1, replica_groups={{0,1},{2,3}}, dimensions={1}, use_global_device_ids=true",
        "replica_groups={}, to_apply=%add",
        "channel_id=2, replica_groups={{0,1,2,3}}, dimensions={0}, to_apply=%add",
        "all-to-all(f32[4,2] %p0), replica_groups={{0,1},{2,3}}, dimensions={0}",
        "channel_id=7, replica_groups={}, dimensions={1}",
        "split_dimension=1, concat_dimension=0, split_count=2",
        "channel_id=5, source_target_pairs={{0,1},{1,0}}",
        "slice_sizes={1,32}, indices_are_sorted=true",
        "offset_dims={1}, collapsed_slice_dims={}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=1",
        "input_batching_dims={0}, scatter_indices_batching_dims={0}, index_vector_dim=1, indices_are_sorted=true, unique_indices=true, to_apply=%add",
        "iota_dimension=1",
        "exponent_bits=5, mantissa_bits=10",
        "dynamic_slice_sizes={2,2}",
        ", replica_count=4\n",
        "/*index=5*/pred[] %p5",
        "(f32[], s32[], f32[], f32[], f32[], /*index=5*/pred[], token[])",
        "constant({ { 1, -2, 3 }, { 4, 5, -2147483648 } })",
        "constant({1, -0, inf, -inf, 1e-07, 3.4028235e+38})",
        "constant({ { { 1, 2 } }, { { 3, 4 } } })",
        "constant({true, false})",
        "constant({(1, 2.5), (-0.1, 0)})",
        "constant(( {0.099975586, 65504}, -3.2964854e+38 ))",
        "constant(( {18446744073709551615}, {-8, 7}, {15} ))",
        "constant({1e+300, -2.5e-310})",
        "constant({})",
    ] {
        assert!(all.contains(needle), "missing {needle:?} in printed modules");
    }
}
