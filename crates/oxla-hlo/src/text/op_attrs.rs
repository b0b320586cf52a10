//! From an opcode and its attributes to an [`Op`]: which attributes each opcode needs,
//! their defaults when absent, and the called computations they name.

use super::attributes::*;
use super::lexer::{error_at, Cursor};
use super::printer::all_to_all_implied_split_count;
use crate::error::{Error, Result};
use crate::op::*;

/// The frontend attribute XLA writes send/recv's instance pairs in.
pub(crate) const SEND_RECV_PAIRS: &str = "_xla_send_recv_source_target_pairs";

/// XLA opcodes Oxla knows of but does not implement.
const UNSUPPORTED_OPCODES: &[&str] = &[
    "domain",
    "add-dependency",
    "copy-start",
    "copy-done",
    "all-reduce-start",
    "all-reduce-done",
    "all-gather-start",
    "all-gather-done",
    "collective-permute-start",
    "collective-permute-done",
    "async-start",
    "async-update",
    "async-done",
    "ragged-all-to-all",
    "rng-get-and-update-state",
    "dynamic-reshape",
    "stochastic-convert",
    "send-start",
    "recv-start",
];

/// A computation name as written, with its position (for "unknown computation" errors).
pub(crate) type NameRef = (String, usize);

/// One `key=value` of an instruction: the value is parsed on demand.
pub(crate) struct Attr<'a> {
    pub key: &'a str,
    pub start: usize,
    pub end: usize,
}

pub(crate) struct Attrs<'a> {
    pub list: Vec<Attr<'a>>,
    pub src: &'a str,
    /// Where to point "missing attribute" errors: the opcode.
    pub opcode_pos: usize,
    pub opcode: &'a str,
}

impl<'a> Attrs<'a> {
    fn find(&self, key: &str) -> Option<&Attr<'a>> {
        self.list.iter().find(|a| a.key == key)
    }

    /// Oxla's own `plan=NAME` (see `ExecPlan`).
    pub(crate) fn plan(&self) -> Result<Option<crate::ExecPlan>> {
        self.get("plan", |c| {
            c.skip_ws();
            let pos = c.pos;
            let w = c.word().unwrap_or("");
            crate::ExecPlan::from_name(w).ok_or_else(|| {
                c.pos = pos;
                c.expected("an execution plan (loop, row_reduce, column_reduce, scan, scatter, gemm, conv, sort, fft, linalg, while, conditional, call, view)")
            })
        })
    }

    fn has(&self, key: &str) -> bool {
        self.find(key).is_some()
    }

    /// Runs `f` on the value of `key` (if present) and checks it read the whole value.
    fn get<T>(&self, key: &str, f: impl FnOnce(&mut Cursor<'a>) -> Result<T>) -> Result<Option<T>> {
        let Some(a) = self.find(key) else {
            return Ok(None);
        };
        let mut c = Cursor {
            src: self.src,
            pos: a.start,
            end: a.end,
        };
        let v = f(&mut c)?;
        if !c.at_end() {
            return Err(c.expected(&format!("end of the value of '{key}'")));
        }
        Ok(Some(v))
    }

    fn req<T>(&self, key: &str, f: impl FnOnce(&mut Cursor<'a>) -> Result<T>) -> Result<T> {
        match self.get(key, f)? {
            Some(v) => Ok(v),
            None => Err(error_at(
                self.src,
                self.opcode_pos,
                format!("{} needs attribute '{key}'", self.opcode),
            )),
        }
    }

    fn int(&self, key: &str) -> Result<Option<i64>> {
        self.get(key, |c| c.int())
    }
    fn req_int(&self, key: &str) -> Result<i64> {
        self.req(key, |c| c.int())
    }
    fn flag(&self, key: &str) -> Result<bool> {
        Ok(self.get(key, parse_bool)?.unwrap_or(false))
    }
    fn dims(&self, key: &str) -> Result<Option<Vec<i64>>> {
        self.get(key, parse_dims)
    }
    fn req_dims(&self, key: &str) -> Result<Vec<i64>> {
        self.req(key, parse_dims)
    }
    /// `key={d}` with exactly one dimension.
    fn single_dim(&self, key: &str) -> Result<i64> {
        self.req(key, |c| {
            c.skip_ws();
            let pos = c.pos;
            let v = parse_dims(c)?;
            match v[..] {
                [d] => Ok(d),
                _ => Err(c.err_at(pos, format!("'{key}' must hold exactly one dimension"))),
            }
        })
    }
    fn groups(&self) -> Result<ReplicaGroups> {
        Ok(self
            .get("replica_groups", parse_replica_groups)?
            .unwrap_or_default())
    }
    fn usize_of(&self, key: &str) -> Result<usize> {
        self.req(key, |c| {
            c.skip_ws();
            let pos = c.pos;
            let v = c.uint(key)?;
            usize::try_from(v).map_err(|_| c.err_at(pos, format!("'{key}' is too large")))
        })
    }
    fn u32_of(&self, key: &str) -> Result<u32> {
        self.req(key, |c| {
            c.skip_ws();
            let pos = c.pos;
            let v = c.uint(key)?;
            u32::try_from(v).map_err(|_| c.err_at(pos, format!("'{key}' is too large")))
        })
    }
    fn window(&self) -> Result<Window> {
        Ok(self.get("window", parse_window)?.unwrap_or_default())
    }
    fn precision(&self) -> Result<PrecisionConfig> {
        Ok(self
            .get("operand_precision", parse_precision)?
            .unwrap_or_default())
    }
    fn epsilon_feature(&self) -> Result<(f32, i64)> {
        Ok((
            self.req("epsilon", parse_f32)?,
            self.req_int("feature_index")?,
        ))
    }
    fn channel_and_host(&self) -> Result<(i64, bool)> {
        Ok((
            self.int("channel_id")?.unwrap_or(0),
            self.flag("is_host_transfer")?,
        ))
    }
    /// Send/recv's instance pairs: XLA writes them as the frontend attribute
    /// `_xla_send_recv_source_target_pairs="{{0,1},{1,2}}"`.
    fn send_recv_pairs(&self) -> Result<Vec<(i64, i64)>> {
        let map = self
            .get("frontend_attributes", parse_string_map)?
            .unwrap_or_default();
        let Some((_, text)) = map.iter().find(|(k, _)| k == SEND_RECV_PAIRS) else {
            return Ok(Vec::new());
        };
        let start = self
            .find("frontend_attributes")
            .map_or(self.opcode_pos, |a| a.start);
        let bad = |why: String| {
            error_at(
                self.src,
                start,
                format!("{SEND_RECV_PAIRS}=\"{text}\": {why}"),
            )
        };
        let mut c = Cursor::new(text);
        let pairs = parse_pairs(&mut c).map_err(|e| bad(e.to_string()))?;
        c.skip_ws();
        if !c.at_end() {
            return Err(bad("text after the pairs".into()));
        }
        Ok(pairs)
    }
}

/// The op from its opcode and attributes.
/// Attributes that change an op's meaning in ways Oxla does not model: reading them
/// silently would give a different computation.
const UNSUPPORTED_ATTRIBUTES: &[(&str, &str, &str)] = &[
    ("dot", "sparsity", "sparse dot"),
    (
        "collective-permute",
        "slice_sizes",
        "in-place collective-permute",
    ),
];

pub(crate) fn build_op(a: &Attrs, num_replicas: i64) -> Result<Op> {
    let opcode = a.opcode;
    for (op, attr, what) in UNSUPPORTED_ATTRIBUTES {
        if *op == opcode && a.has(attr) {
            return Err(Error::unimplemented(format!(
                "{}: {what} ('{attr}=') is not supported by Oxla",
                position(a.src, a.opcode_pos)
            )));
        }
    }
    if let Some(u) = UnaryOp::ALL.iter().find(|u| u.name() == opcode) {
        return Ok(Op::Unary(*u));
    }
    if let Some(b) = BinaryOp::ALL.iter().find(|b| b.name() == opcode) {
        return Ok(Op::Binary(*b));
    }
    Ok(match opcode {
        "iota" => Op::Iota {
            dimension: a.req_int("iota_dimension")?,
        },
        "replica-id" => Op::ReplicaId,
        "partition-id" => Op::PartitionId,
        "compare" => Op::Compare {
            direction: a.req("direction", |c| {
                use ComparisonDirection::*;
                parse_enum(
                    c,
                    "a comparison direction",
                    &[
                        ("EQ", Eq),
                        ("NE", Ne),
                        ("GE", Ge),
                        ("GT", Gt),
                        ("LE", Le),
                        ("LT", Lt),
                    ],
                )
            })?,
            comparison_type: a.get("type", |c| {
                use ComparisonType::*;
                parse_enum(
                    c,
                    "a comparison type",
                    &[
                        ("FLOAT", Float),
                        ("TOTALORDER", TotalOrder),
                        ("SIGNED", Signed),
                        ("UNSIGNED", Unsigned),
                    ],
                )
            })?,
        },
        "select" => Op::Select,
        "clamp" => Op::Clamp,
        "convert" => Op::Convert,
        "bitcast-convert" => Op::BitcastConvert,
        "reduce-precision" => Op::ReducePrecision {
            exponent_bits: a.u32_of("exponent_bits")?,
            mantissa_bits: a.u32_of("mantissa_bits")?,
        },
        "map" => Op::Map {
            dimensions: a.dims("dimensions")?.unwrap_or_default(),
        },
        "broadcast" => Op::Broadcast {
            dimensions: a.req_dims("dimensions")?,
        },
        "reshape" => Op::Reshape,
        "transpose" => Op::Transpose {
            permutation: a.req_dims("dimensions")?,
        },
        "reverse" => Op::Reverse {
            dimensions: a.req_dims("dimensions")?,
        },
        "slice" => {
            let (start, limit, strides) = a.req("slice", parse_slice)?;
            Op::Slice {
                start,
                limit,
                strides,
            }
        }
        "dynamic-slice" => Op::DynamicSlice {
            slice_sizes: a.req_dims("dynamic_slice_sizes")?,
        },
        "dynamic-update-slice" => Op::DynamicUpdateSlice,
        "concatenate" => Op::Concatenate {
            dimension: a.single_dim("dimensions")?,
        },
        "pad" => Op::Pad(a.req("padding", parse_padding)?),
        "gather" => Op::Gather {
            dnums: GatherDimensionNumbers {
                offset_dims: a.req_dims("offset_dims")?,
                collapsed_slice_dims: a.req_dims("collapsed_slice_dims")?,
                start_index_map: a.req_dims("start_index_map")?,
                index_vector_dim: a.req_int("index_vector_dim")?,
                operand_batching_dims: a.dims("operand_batching_dims")?.unwrap_or_default(),
                start_indices_batching_dims: a
                    .dims("start_indices_batching_dims")?
                    .unwrap_or_default(),
            },
            slice_sizes: a.req_dims("slice_sizes")?,
            indices_are_sorted: a.flag("indices_are_sorted")?,
        },
        "scatter" => Op::Scatter {
            dnums: ScatterDimensionNumbers {
                update_window_dims: a.req_dims("update_window_dims")?,
                inserted_window_dims: a.req_dims("inserted_window_dims")?,
                scatter_dims_to_operand_dims: a.req_dims("scatter_dims_to_operand_dims")?,
                index_vector_dim: a.req_int("index_vector_dim")?,
                input_batching_dims: a.dims("input_batching_dims")?.unwrap_or_default(),
                scatter_indices_batching_dims: a
                    .dims("scatter_indices_batching_dims")?
                    .unwrap_or_default(),
            },
            indices_are_sorted: a.flag("indices_are_sorted")?,
            unique_indices: a.flag("unique_indices")?,
        },
        "copy" => Op::Copy,
        "get-dimension-size" => Op::GetDimensionSize {
            dimension: a.single_dim("dimensions")?,
        },
        "set-dimension-size" => Op::SetDimensionSize {
            dimension: a.single_dim("dimensions")?,
        },
        "tuple" => Op::Tuple,
        "get-tuple-element" => Op::GetTupleElement {
            index: a.usize_of("index")?,
        },
        "after-all" => Op::AfterAll,
        "opt-barrier" => Op::OptimizationBarrier,
        "reduce" => Op::Reduce {
            dimensions: a.req_dims("dimensions")?,
        },
        "reduce-window" => Op::ReduceWindow(a.window()?),
        "select-and-scatter" => Op::SelectAndScatter(a.window()?),
        "dot" => Op::Dot {
            dnums: DotDimensionNumbers {
                lhs_contracting_dims: a.dims("lhs_contracting_dims")?.unwrap_or_default(),
                rhs_contracting_dims: a.dims("rhs_contracting_dims")?.unwrap_or_default(),
                lhs_batch_dims: a.dims("lhs_batch_dims")?.unwrap_or_default(),
                rhs_batch_dims: a.dims("rhs_batch_dims")?.unwrap_or_default(),
            },
            precision: a.precision()?,
        },
        "convolution" => Op::Convolution {
            window: a.window()?,
            dnums: a.req("dim_labels", parse_dim_labels)?,
            feature_group_count: a.int("feature_group_count")?.unwrap_or(1),
            batch_group_count: a.int("batch_group_count")?.unwrap_or(1),
            precision: a.precision()?,
        },
        "fft" => Op::Fft {
            fft_type: a.req("fft_type", |c| {
                use FftType::*;
                parse_enum(
                    c,
                    "an FFT type",
                    &[
                        ("FFT", Fft),
                        ("IFFT", Ifft),
                        ("RFFT", Rfft),
                        ("IRFFT", Irfft),
                    ],
                )
            })?,
            fft_length: a.req_dims("fft_length")?,
        },
        "triangular-solve" => Op::TriangularSolve {
            left_side: a.flag("left_side")?,
            lower: a.flag("lower")?,
            unit_diagonal: a.flag("unit_diagonal")?,
            transpose_a: a
                .get("transpose_a", |c| {
                    use TriangularTranspose::*;
                    parse_enum(
                        c,
                        "a transpose kind",
                        &[
                            ("NO_TRANSPOSE", NoTranspose),
                            ("TRANSPOSE", Transpose),
                            ("ADJOINT", Adjoint),
                        ],
                    )
                })?
                .unwrap_or(TriangularTranspose::NoTranspose),
        },
        "cholesky" => Op::Cholesky {
            lower: a.flag("lower")?,
        },
        "batch-norm-training" => {
            let (epsilon, feature_index) = a.epsilon_feature()?;
            Op::BatchNormTraining {
                epsilon,
                feature_index,
            }
        }
        "batch-norm-inference" => {
            let (epsilon, feature_index) = a.epsilon_feature()?;
            Op::BatchNormInference {
                epsilon,
                feature_index,
            }
        }
        "batch-norm-grad" => {
            let (epsilon, feature_index) = a.epsilon_feature()?;
            Op::BatchNormGrad {
                epsilon,
                feature_index,
            }
        }
        "topk" => Op::TopK {
            k: a.req_int("k")?,
            largest: a.get("largest", parse_bool)?.unwrap_or(true),
        },
        "sort" => Op::Sort {
            dimension: a.single_dim("dimensions")?,
            is_stable: a.flag("is_stable")?,
        },
        "while" => Op::While,
        "fusion" => Op::Fusion {
            kind: a.req("kind", |c| {
                let pos = c.pos;
                match c.name("a fusion kind")? {
                    "kLoop" => Ok(FusionKind::Loop),
                    "kInput" => Ok(FusionKind::Input),
                    "kOutput" => Ok(FusionKind::Output),
                    "kCustom" => Ok(FusionKind::Custom),
                    k => Err(c.err_at(pos, format!("unknown fusion kind {k}"))),
                }
            })?,
        },
        "conditional" => Op::Conditional,
        "call" => {
            if a.flag("is_composite")? {
                composite(a)?
            } else {
                Op::Call
            }
        }
        "custom-call" => Op::CustomCall {
            target: a.req("custom_call_target", |c| c.string())?,
            backend_config: a
                .get("backend_config", parse_free_form)?
                .unwrap_or_default(),
            has_side_effect: a.flag("custom_call_has_side_effect")?,
            api_version: a.get("api_version", parse_api_version)?.unwrap_or(1),
        },
        "rng" => Op::Rng {
            distribution: a.req("distribution", |c| {
                parse_enum(
                    c,
                    "an RNG distribution",
                    &[
                        ("rng_uniform", RngDistribution::Uniform),
                        ("rng_normal", RngDistribution::Normal),
                    ],
                )
            })?,
        },
        "rng-bit-generator" => Op::RngBitGenerator {
            algorithm: a.req("algorithm", |c| {
                parse_enum(
                    c,
                    "an RNG algorithm",
                    &[
                        ("rng_default", RngAlgorithm::Default),
                        ("rng_three_fry", RngAlgorithm::ThreeFry),
                        ("rng_philox", RngAlgorithm::Philox),
                    ],
                )
            })?,
        },
        "uniform-quantize" => Op::UniformQuantize {
            params: a.req("quant", parse_quant)?,
            from: a.get("from", parse_quant)?,
        },
        "uniform-dequantize" => Op::UniformDequantize {
            params: a.req("quant", parse_quant)?,
        },
        "infeed" => Op::Infeed {
            config: a.get("infeed_config", |c| c.string())?.unwrap_or_default(),
        },
        "outfeed" => Op::Outfeed {
            config: a.get("outfeed_config", |c| c.string())?.unwrap_or_default(),
        },
        "send" => {
            let (channel_id, is_host_transfer) = a.channel_and_host()?;
            Op::Send {
                channel_id,
                is_host_transfer,
                source_target_pairs: a.send_recv_pairs()?,
            }
        }
        "send-done" => {
            let (channel_id, is_host_transfer) = a.channel_and_host()?;
            Op::SendDone {
                channel_id,
                is_host_transfer,
            }
        }
        "recv" => {
            let (channel_id, is_host_transfer) = a.channel_and_host()?;
            Op::Recv {
                channel_id,
                is_host_transfer,
                source_target_pairs: a.send_recv_pairs()?,
            }
        }
        "recv-done" => {
            let (channel_id, is_host_transfer) = a.channel_and_host()?;
            Op::RecvDone {
                channel_id,
                is_host_transfer,
            }
        }
        "all-gather" => Op::AllGather {
            dimension: a.single_dim("dimensions")?,
            replica_groups: a.groups()?,
            channel_id: a.int("channel_id")?,
            use_global_device_ids: a.flag("use_global_device_ids")?,
        },
        "all-reduce" => Op::AllReduce {
            replica_groups: a.groups()?,
            channel_id: a.int("channel_id")?,
            use_global_device_ids: a.flag("use_global_device_ids")?,
        },
        "reduce-scatter" => Op::ReduceScatter {
            dimension: a.single_dim("dimensions")?,
            replica_groups: a.groups()?,
            channel_id: a.int("channel_id")?,
            use_global_device_ids: a.flag("use_global_device_ids")?,
        },
        "all-to-all" => {
            let replica_groups = a.groups()?;
            let channel_id = a.int("channel_id")?;
            let (split_dimension, concat_dimension, split_count) = if a.has("dimensions") {
                let d = a.single_dim("dimensions")?;
                let n = all_to_all_implied_split_count(&replica_groups, num_replicas);
                (d, d, n)
            } else if a.has("split_dimension") {
                (
                    a.req_int("split_dimension")?,
                    a.req_int("concat_dimension")?,
                    a.req_int("split_count")?,
                )
            } else {
                return Err(Error::unimplemented(format!(
                    "{}: all-to-all without dimensions (the tuple form) is not supported",
                    position(a.src, a.opcode_pos)
                )));
            };
            Op::AllToAll {
                split_dimension,
                concat_dimension,
                split_count,
                replica_groups,
                channel_id,
            }
        }
        "collective-permute" => Op::CollectivePermute {
            source_target_pairs: a.req("source_target_pairs", parse_pairs)?,
            channel_id: a.int("channel_id")?,
        },
        "collective-broadcast" => Op::CollectiveBroadcast {
            replica_groups: a.groups()?,
            channel_id: a.int("channel_id")?,
        },
        "collective-reduce" => Op::CollectiveReduce {
            replica_groups: a.groups()?,
            channel_id: a.int("channel_id")?,
        },
        "parameter" | "constant" => {
            return Err(error_at(a.src, a.opcode_pos, format!("malformed {opcode}")))
        }
        other if UNSUPPORTED_OPCODES.contains(&other) => {
            return Err(Error::unimplemented(format!(
                "{}: opcode '{other}' is not supported by Oxla",
                position(a.src, a.opcode_pos)
            )))
        }
        other => {
            return Err(error_at(
                a.src,
                a.opcode_pos,
                format!("unknown opcode '{other}'"),
            ))
        }
    })
}

fn position(src: &str, pos: usize) -> String {
    let (l, c) = super::lexer::line_col(src, pos);
    format!("at {l}:{c}")
}

fn parse_api_version(c: &mut Cursor) -> Result<i32> {
    c.skip_ws();
    let pos = c.pos;
    if c.peek().is_some_and(|ch| ch.is_ascii_digit() || ch == '-') {
        let v = c.int()?;
        return i32::try_from(v).map_err(|_| c.err_at(pos, "api_version out of range"));
    }
    let options: Vec<(&str, i32)> = API_VERSIONS.iter().map(|&(n, s)| (s, n)).collect();
    parse_enum(c, "an api_version", &options)
}

/// `call(...), is_composite=true, frontend_attributes={composite.name="..", ...}`.
fn composite(a: &Attrs) -> Result<Op> {
    let map = a.req("frontend_attributes", parse_string_map)?;
    let get = |k: &str| map.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    let Some(name) = get("composite.name") else {
        return Err(error_at(
            a.src,
            a.opcode_pos,
            "composite call needs composite.name in frontend_attributes",
        ));
    };
    let version = match get("composite.version") {
        None => 0,
        Some(v) => v.trim().parse::<i64>().map_err(|_| {
            error_at(
                a.src,
                a.opcode_pos,
                format!("composite.version must be an integer, found \"{v}\""),
            )
        })?,
    };
    Ok(Op::CompositeCall {
        name,
        attributes: get("composite.attributes").unwrap_or_default(),
        version,
    })
}

/// Names of called computations, in the order `HloInstruction::called` documents.
pub(crate) fn called_refs(a: &Attrs) -> Result<Vec<NameRef>> {
    let mut out = Vec::new();
    for key in [
        "condition",
        "body",
        "select",
        "scatter",
        "true_computation",
        "false_computation",
        "to_apply",
    ] {
        if let Some(r) = a.get(key, |c| {
            c.skip_ws();
            let pos = c.pos;
            Ok((c.name("a computation name")?.to_string(), pos))
        })? {
            out.push(r);
        }
    }
    for key in ["branch_computations", "called_computations", "calls"] {
        if let Some(list) = a.get(key, comp_list)? {
            out.extend(list);
        }
    }
    Ok(out)
}

/// `{%a, %b}` (or a single bare name, as XLA's `calls=%fused` writes).
fn comp_list(c: &mut Cursor) -> Result<Vec<NameRef>> {
    let mut v = Vec::new();
    if !c.eat("{") {
        c.skip_ws();
        let pos = c.pos;
        v.push((c.name("a computation name")?.to_string(), pos));
        return Ok(v);
    }
    if c.eat("}") {
        return Ok(v);
    }
    loop {
        c.skip_ws();
        let pos = c.pos;
        v.push((c.name("a computation name")?.to_string(), pos));
        if c.eat("}") {
            return Ok(v);
        }
        c.expect(",")?;
    }
}
