//! Loop schedules: the body of a kernel's function for each `LoopSchedule` the execution
//! plan chooses, one file per schedule (plain loop nests, prefix scans, scatter, in-place
//! dynamic-update-slice, column reductions; element-wise loops with transcendentals in tiles;
//! element-wise f32 arithmetic as one vector-program call), the sort comparator's function and
//! element-wise combiners.

mod column_reduce;
mod combiner;
mod comparator;
mod loops;
mod scan;
mod scatter;
mod update_in_place;
mod vector_program;
mod wide_math;

pub(crate) use column_reduce::gen_column_reduce;
pub(crate) use combiner::build_combiner;
pub(crate) use comparator::build_comparator;
pub(crate) use loops::{gen_loops, gen_loops_split};
pub(crate) use scan::{gen_scan, gen_scan_outer, scan_granule, scan_split};
pub(crate) use scatter::gen_scatter;
pub(crate) use update_in_place::gen_update_in_place;
pub(crate) use vector_program::{gen_vector_program, vector_program};
pub(crate) use wide_math::{
    buffer_leaves, enabled as wide_enabled, gen_wide_loops, gen_wide_row,
    min_extent as wide_min_extent, wide_candidates,
};
