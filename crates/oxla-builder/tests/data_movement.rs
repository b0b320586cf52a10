//! Shape and data-movement ops: valid shapes (spec examples), rejected cases, round trip.

mod common;
use common::*;
use oxla_hlo::{GatherDimensionNumbers, PaddingConfig, PaddingDimension, ScatterDimensionNumbers};

#[test]
fn broadcast_forms() {
    assert_eq!(
        ok("broadcast", |b| {
            let x = b.constant(2.0f32);
            b.broadcast(x, &[2, 3])
        }),
        "f32[2,3]"
    );
    // Unsorted broadcast_dimensions are allowed.
    assert_eq!(
        ok("broadcast", |b| {
            let x = b.parameter(0, &s(F32, &[3, 2]), "x");
            b.broadcast_in_dim(x, &[4, 2, 3], &[2, 1])
        }),
        "f32[4,2,3]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[3]), "x");
            b.broadcast_in_dim(x, &[2, 4], &[1])
        }),
        &["Broadcast: operand dimension 0 of size 3 cannot broadcast to result dimension 1 of size 4"],
    );
}

#[test]
fn reshape_collapse_transpose_rev() {
    assert_eq!(
        ok("reshape", |b| {
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            b.reshape(x, &[3, 2])
        }),
        "f32[3,2]"
    );
    // Scalar <-> [1,1].
    assert_eq!(
        ok("reshape", |b| {
            let x = b.constant(1.0f32);
            b.reshape(x, &[1, 1])
        }),
        "f32[1,1]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            b.reshape(x, &[4])
        }),
        &["Reshape: cannot reshape 6 elements into f32[4]"],
    );
    // The spec's corrected Collapse examples: f32[4,2,3] {0,1} -> [8,3], {1,2} -> [4,6].
    assert_eq!(
        ok("reshape", |b| {
            let x = b.parameter(0, &s(F32, &[4, 2, 3]), "x");
            b.collapse(x, &[0, 1])
        }),
        "f32[8,3]"
    );
    assert_eq!(
        ok("reshape", |b| {
            let x = b.parameter(0, &s(F32, &[4, 2, 3]), "x");
            b.collapse(x, &[1, 2])
        }),
        "f32[4,6]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[4, 2, 3]), "x");
            b.collapse(x, &[0, 2])
        }),
        &["collapse: dimensions [0, 2] must be"],
    );
    assert_eq!(
        ok("reshape", |b| {
            let x = b.parameter(0, &s(F32, &[2, 3, 4]), "x");
            b.reshape_with_dims(x, &[1, 2, 0], &[24])
        }),
        "f32[24]"
    );
    assert_eq!(
        ok("transpose", |b| {
            let x = b.parameter(0, &s(F32, &[2, 3, 4]), "x");
            b.transpose(x, &[2, 0, 1])
        }),
        "f32[4,2,3]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            b.transpose(x, &[0, 0])
        }),
        &["Transpose: permutation entry 0 appears twice"],
    );
    assert_eq!(
        ok("reverse", |b| {
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            b.rev(x, &[1])
        }),
        "f32[2,3]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            b.rev(x, &[2])
        }),
        &["Reverse: dimension 2 is out of range for rank 2"],
    );
}

#[test]
fn slices() {
    assert_eq!(
        ok("slice", |b| {
            let x = b.parameter(0, &s(F32, &[10, 6]), "x");
            b.slice(x, &[1, 0], &[8, 6], &[3, 2])
        }),
        "f32[3,3]"
    );
    assert_eq!(
        ok("slice", |b| {
            let x = b.parameter(0, &s(F32, &[10, 6]), "x");
            b.slice_in_dim(x, 2, 5, 1, 0)
        }),
        "f32[3,6]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[4]), "x");
            b.slice(x, &[3], &[5], &[1])
        }),
        &["Slice: dimension 0: need 0 <= start (3) <= limit (5) <= size (4)"],
    );
    assert_eq!(
        ok("dynamic-slice", |b| {
            let x = b.parameter(0, &s(F32, &[4, 4]), "x");
            let i = b.constant(-1i32);
            let j = b.constant(3i32);
            b.dynamic_slice(x, &[i, j], &[2, 2])
        }),
        "f32[2,2]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[4, 4]), "x");
            let i = b.constant(0i32);
            b.dynamic_slice(x, &[i], &[2, 2])
        }),
        &["DynamicSlice: expected 2 start indices, got 1"],
    );
    assert_eq!(
        ok("dynamic-update-slice", |b| {
            let x = b.parameter(0, &s(F32, &[4, 4]), "x");
            let u = b.parameter(1, &s(F32, &[2, 2]), "u");
            let i = b.constant(1i64);
            b.dynamic_update_slice(x, u, &[i, i])
        }),
        "f32[4,4]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[4, 4]), "x");
            let u = b.parameter(1, &s(F32, &[5, 2]), "u");
            let i = b.constant(1i64);
            b.dynamic_update_slice(x, u, &[i, i])
        }),
        &["DynamicUpdateSlice: update dimension 0 of size 5 exceeds the operand's 4"],
    );
}

#[test]
fn concatenate_and_pad() {
    assert_eq!(
        ok("concatenate", |b| {
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            let y = b.parameter(1, &s(F32, &[2, 4]), "y");
            b.concat_in_dim(&[x, y], 1)
        }),
        "f32[2,7]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            let y = b.parameter(1, &s(F32, &[2, 4]), "y");
            b.concat_in_dim(&[x, y], 0)
        }),
        &["Concatenate: operand 1 dimension 1 has size 4 but operand 0 has 3"],
    );
    has(
        &err(|b| {
            let x = b.constant(1.0f32);
            b.concat_in_dim(&[x, x], 0)
        }),
        &["cannot concatenate scalars"],
    );
    // Spec: 2x3 with lo [0,1], hi [2,1], interior [1,2] gives 5x9.
    let cfg = |lo: [i64; 2], hi: [i64; 2], int: [i64; 2]| PaddingConfig {
        dimensions: (0..2)
            .map(|i| PaddingDimension {
                edge_padding_low: lo[i],
                edge_padding_high: hi[i],
                interior_padding: int[i],
            })
            .collect(),
    };
    assert_eq!(
        ok("pad", |b| {
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            let z = b.constant(0.0f32);
            b.pad(x, z, &cfg([0, 1], [2, 1], [1, 2]))
        }),
        "f32[5,9]"
    );
    // Negative edge padding removes elements.
    assert_eq!(
        ok("pad", |b| {
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            let z = b.constant(0.0f32);
            b.pad(x, z, &cfg([-1, 0], [0, -2], [0, 0]))
        }),
        "f32[1,1]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            let z = b.constant(0.0f32);
            b.pad(x, z, &cfg([0, 0], [0, 0], [-1, 0]))
        }),
        &["Pad: dimension 0: interior padding must be >= 0"],
    );
    assert_eq!(
        ok("pad", |b| {
            let x = b.parameter(0, &s(F32, &[3]), "x");
            let z = b.constant(0.0f32);
            b.pad_in_dim(x, z, 0, 1, 2)
        }),
        "f32[6]"
    );
}

#[test]
fn copy_and_dimension_sizes() {
    assert_eq!(
        ok("copy", |b| {
            let x = b.parameter(0, &s(F32, &[2]), "x");
            b.copy(x)
        }),
        "f32[2]"
    );
    assert_eq!(
        ok("get-dimension-size", |b| {
            let x = b.parameter(0, &s(F32, &[2, 7]), "x");
            b.get_dimension_size(x, 1)
        }),
        "s32[]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[2, 7]), "x");
            b.get_dimension_size(x, 2)
        }),
        &["GetDimensionSize: dimension 2 is out of range for rank 2"],
    );
    assert_eq!(
        ok("set-dimension-size", |b| {
            let x = b.parameter(0, &s(F32, &[10]), "x");
            let n = b.constant(5i32);
            b.set_dimension_size(x, n, 0)
        }),
        "f32[<=10]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[10]), "x");
            let n = b.constant(5i64);
            b.set_dimension_size(x, n, 0)
        }),
        &["SetDimensionSize: size must be an s32 scalar"],
    );
}

#[test]
fn gather_spec_example() {
    // Operand 3x4x2, indices 2x3x2, offset_dims [2,3], collapsed [0], start_index_map [1,0],
    // index_vector_dim 2, slice [1,2,2] gives 2x3x2x2.
    let dn = GatherDimensionNumbers {
        offset_dims: vec![2, 3],
        collapsed_slice_dims: vec![0],
        start_index_map: vec![1, 0],
        index_vector_dim: 2,
        ..Default::default()
    };
    assert_eq!(
        ok("gather", |b| {
            let x = b.parameter(0, &s(F32, &[3, 4, 2]), "x");
            let i = b.parameter(1, &s(S64, &[2, 3, 2]), "i");
            b.gather(x, i, &dn, &[1, 2, 2], false)
        }),
        "f32[2,3,2,2]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[3, 4, 2]), "x");
            let i = b.parameter(1, &s(S64, &[2, 3, 2]), "i");
            b.gather(x, i, &dn, &[2, 2, 2], false)
        }),
        &["Gather: collapsed or batching dimension 0 must have slice size <= 1, got 2"],
    );
    // gather_nd picking whole rows with index_vector_dim == rank.
    let rows = GatherDimensionNumbers {
        offset_dims: vec![1],
        collapsed_slice_dims: vec![0],
        start_index_map: vec![0],
        index_vector_dim: 1,
        ..Default::default()
    };
    assert_eq!(
        ok("gather", |b| {
            let x = b.parameter(0, &s(F32, &[5, 11]), "x");
            let i = b.parameter(1, &s(S32, &[7]), "i");
            b.gather(x, i, &rows, &[1, 11], true)
        }),
        "f32[7,11]"
    );
}

#[test]
fn scatter_shapes() {
    let dn = ScatterDimensionNumbers {
        update_window_dims: vec![1],
        inserted_window_dims: vec![0],
        scatter_dims_to_operand_dims: vec![0],
        index_vector_dim: 1,
        ..Default::default()
    };
    assert_eq!(
        ok("scatter", |b| {
            let add = add_comp(b, F32);
            let x = b.parameter(0, &s(F32, &[5, 3]), "x");
            let i = b.parameter(1, &s(S32, &[2]), "i");
            let u = b.parameter(2, &s(F32, &[2, 3]), "u");
            b.scatter(&[x], i, &[u], &add, &dn, false, false)
        }),
        "f32[5,3]"
    );
    has(
        &err(|b| {
            let add = add_comp(b, F32);
            let x = b.parameter(0, &s(F32, &[5, 3]), "x");
            let i = b.parameter(1, &s(S32, &[2]), "i");
            let u = b.parameter(2, &s(F32, &[4, 3]), "u");
            b.scatter(&[x], i, &[u], &add, &dn, false, false)
        }),
        &["Scatter: update scatter dimension 0 has size 4 but scatter_indices dimension 0 has size 2"],
    );
    has(
        &err(|b| {
            let add = add_comp(b, S32);
            let x = b.parameter(0, &s(F32, &[5, 3]), "x");
            let i = b.parameter(1, &s(S32, &[2]), "i");
            let u = b.parameter(2, &s(F32, &[2, 3]), "u");
            b.scatter(&[x], i, &[u], &add, &dn, false, false)
        }),
        &["Scatter: update computation must have signature (f32[], f32[]) -> f32[]"],
    );
}
