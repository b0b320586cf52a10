//! The op set: one enum whose variants carry their attributes.
//!
//! Adding a variant breaks the build wherever ops are matched exhaustively (inference,
//! printer, parser, interpreter, codegen), which is the point. Sub-computations are not part
//! of the op: they are `HloInstruction::called`, in the order documented on each variant.

use crate::literal::Literal;
use crate::types::PrimitiveType;

/// Element-wise unary ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Abs,
    Cbrt,
    Ceil,
    Clz,
    Cos,
    Erf,
    Exp,
    Expm1,
    Floor,
    Imag,
    IsFinite,
    Log,
    Log1p,
    Logistic,
    Neg,
    Not,
    PopCnt,
    Real,
    /// Round half away from zero.
    Round,
    RoundNearestEven,
    Rsqrt,
    Sign,
    Sin,
    Sqrt,
    Tan,
    Tanh,
}

impl UnaryOp {
    /// Every unary op, in declaration order.
    pub const ALL: [UnaryOp; 26] = {
        use UnaryOp::*;
        [
            Abs,
            Cbrt,
            Ceil,
            Clz,
            Cos,
            Erf,
            Exp,
            Expm1,
            Floor,
            Imag,
            IsFinite,
            Log,
            Log1p,
            Logistic,
            Neg,
            Not,
            PopCnt,
            Real,
            Round,
            RoundNearestEven,
            Rsqrt,
            Sign,
            Sin,
            Sqrt,
            Tan,
            Tanh,
        ]
    };

    /// HLO opcode spelling.
    pub fn name(self) -> &'static str {
        use UnaryOp::*;
        match self {
            Abs => "abs",
            Cbrt => "cbrt",
            Ceil => "ceil",
            Clz => "count-leading-zeros",
            Cos => "cosine",
            Erf => "erf",
            Exp => "exponential",
            Expm1 => "exponential-minus-one",
            Floor => "floor",
            Imag => "imag",
            IsFinite => "is-finite",
            Log => "log",
            Log1p => "log-plus-one",
            Logistic => "logistic",
            Neg => "negate",
            Not => "not",
            PopCnt => "popcnt",
            Real => "real",
            Round => "round-nearest-afz",
            RoundNearestEven => "round-nearest-even",
            Rsqrt => "rsqrt",
            Sign => "sign",
            Sin => "sine",
            Sqrt => "sqrt",
            Tan => "tan",
            Tanh => "tanh",
        }
    }
}

/// Element-wise binary ops (comparisons are `Op::Compare`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
    Max,
    Min,
    And,
    Or,
    Xor,
    ShiftLeft,
    ShiftRightArithmetic,
    ShiftRightLogical,
    Atan2,
    /// (real, imag) → complex.
    Complex,
}

impl BinaryOp {
    /// Every binary op, in declaration order.
    pub const ALL: [BinaryOp; 16] = {
        use BinaryOp::*;
        [
            Add,
            Sub,
            Mul,
            Div,
            Rem,
            Pow,
            Max,
            Min,
            And,
            Or,
            Xor,
            ShiftLeft,
            ShiftRightArithmetic,
            ShiftRightLogical,
            Atan2,
            Complex,
        ]
    };

    pub fn name(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "add",
            Sub => "subtract",
            Mul => "multiply",
            Div => "divide",
            Rem => "remainder",
            Pow => "power",
            Max => "maximum",
            Min => "minimum",
            And => "and",
            Or => "or",
            Xor => "xor",
            ShiftLeft => "shift-left",
            ShiftRightArithmetic => "shift-right-arithmetic",
            ShiftRightLogical => "shift-right-logical",
            Atan2 => "atan2",
            Complex => "complex",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ComparisonDirection {
    Eq,
    Ne,
    Ge,
    Gt,
    Le,
    Lt,
}

impl ComparisonDirection {
    pub fn name(self) -> &'static str {
        use ComparisonDirection::*;
        match self {
            Eq => "EQ",
            Ne => "NE",
            Ge => "GE",
            Gt => "GT",
            Le => "LE",
            Lt => "LT",
        }
    }
}

/// How a comparison orders values. `None` on the op means "the default for the type"
/// (FLOAT for floats/complex, SIGNED for signed ints, UNSIGNED for unsigned ints and PRED).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ComparisonType {
    Float,
    TotalOrder,
    Signed,
    Unsigned,
}

impl ComparisonType {
    pub fn name(self) -> &'static str {
        match self {
            ComparisonType::Float => "FLOAT",
            ComparisonType::TotalOrder => "TOTALORDER",
            ComparisonType::Signed => "SIGNED",
            ComparisonType::Unsigned => "UNSIGNED",
        }
    }
    /// The default comparison type for an element type.
    pub fn default_for(t: PrimitiveType) -> ComparisonType {
        if t.is_floating_or_complex() {
            ComparisonType::Float
        } else if t.is_signed_int() {
            ComparisonType::Signed
        } else {
            ComparisonType::Unsigned
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Precision {
    #[default]
    Default,
    High,
    Highest,
}

/// Per-operand precision (empty = all default).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct PrecisionConfig {
    pub operand_precision: Vec<Precision>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct DotDimensionNumbers {
    pub lhs_contracting_dims: Vec<i64>,
    pub rhs_contracting_dims: Vec<i64>,
    pub lhs_batch_dims: Vec<i64>,
    pub rhs_batch_dims: Vec<i64>,
}

/// One spatial dimension of a window (convolution, reduce_window, select_and_scatter).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WindowDimension {
    pub size: i64,
    pub stride: i64,
    pub padding_low: i64,
    pub padding_high: i64,
    pub window_dilation: i64,
    pub base_dilation: i64,
    pub window_reversal: bool,
}

impl Default for WindowDimension {
    fn default() -> Self {
        WindowDimension {
            size: 1,
            stride: 1,
            padding_low: 0,
            padding_high: 0,
            window_dilation: 1,
            base_dilation: 1,
            window_reversal: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Window {
    pub dimensions: Vec<WindowDimension>,
}

/// Convolution dimension numbers (`dim_labels=b01f_01io->b01f` in HLO text).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ConvDimensionNumbers {
    pub input_batch_dimension: i64,
    pub input_feature_dimension: i64,
    pub input_spatial_dimensions: Vec<i64>,
    pub kernel_input_feature_dimension: i64,
    pub kernel_output_feature_dimension: i64,
    pub kernel_spatial_dimensions: Vec<i64>,
    pub output_batch_dimension: i64,
    pub output_feature_dimension: i64,
    pub output_spatial_dimensions: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct GatherDimensionNumbers {
    pub offset_dims: Vec<i64>,
    pub collapsed_slice_dims: Vec<i64>,
    pub start_index_map: Vec<i64>,
    pub index_vector_dim: i64,
    pub operand_batching_dims: Vec<i64>,
    pub start_indices_batching_dims: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ScatterDimensionNumbers {
    pub update_window_dims: Vec<i64>,
    pub inserted_window_dims: Vec<i64>,
    pub scatter_dims_to_operand_dims: Vec<i64>,
    pub index_vector_dim: i64,
    pub input_batching_dims: Vec<i64>,
    pub scatter_indices_batching_dims: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct PaddingDimension {
    pub edge_padding_low: i64,
    pub edge_padding_high: i64,
    pub interior_padding: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct PaddingConfig {
    pub dimensions: Vec<PaddingDimension>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FftType {
    Fft,
    Ifft,
    Rfft,
    Irfft,
}

impl FftType {
    pub fn name(self) -> &'static str {
        match self {
            FftType::Fft => "FFT",
            FftType::Ifft => "IFFT",
            FftType::Rfft => "RFFT",
            FftType::Irfft => "IRFFT",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TriangularTranspose {
    NoTranspose,
    Transpose,
    Adjoint,
}

impl TriangularTranspose {
    pub fn name(self) -> &'static str {
        match self {
            TriangularTranspose::NoTranspose => "NO_TRANSPOSE",
            TriangularTranspose::Transpose => "TRANSPOSE",
            TriangularTranspose::Adjoint => "ADJOINT",
        }
    }
}

/// What a fusion computes, as XLA's kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FusionKind {
    /// Element-wise / data-movement loop over the output.
    Loop,
    /// Producers fused into a reduction.
    Input,
    /// Consumers fused into a dot or convolution.
    Output,
    /// A backend's own fusion (XLA CPU's `__ynn_fusion` around a dot or convolution): run
    /// as a call of its computation — the call-inlining pass inlines it, so Oxla's own
    /// passes decide how its instructions run.
    Custom,
}

impl FusionKind {
    pub fn name(self) -> &'static str {
        match self {
            FusionKind::Loop => "kLoop",
            FusionKind::Input => "kInput",
            FusionKind::Output => "kOutput",
            FusionKind::Custom => "kCustom",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RngDistribution {
    Uniform,
    Normal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RngAlgorithm {
    Default,
    ThreeFry,
    Philox,
}

impl RngAlgorithm {
    pub fn name(self) -> &'static str {
        match self {
            RngAlgorithm::Default => "rng_default",
            RngAlgorithm::ThreeFry => "rng_three_fry",
            RngAlgorithm::Philox => "rng_philox",
        }
    }
}

/// Replica groups: each inner list is one group of (replica, partition or flattened) ids.
/// Empty means one group of everybody.
pub type ReplicaGroups = Vec<Vec<i64>>;

/// Quantization parameters of a uniform-quantized type (per-tensor when
/// `quantized_dimension` is None, else per-axis with one scale/zero point per index).
#[derive(Clone, Debug, PartialEq)]
pub struct QuantParams {
    pub storage_type: PrimitiveType,
    pub storage_min: i64,
    pub storage_max: i64,
    pub expressed_type: PrimitiveType,
    pub scales: Vec<f64>,
    pub zero_points: Vec<i64>,
    pub quantized_dimension: Option<i64>,
}

/// The op of an instruction, with its attributes.
///
/// Result shapes that operands cannot determine (parameter, constant, iota, reshape,
/// convert, bitcast-convert, broadcast, infeed, recv, custom-call, rng, rng-bit-generator,
/// and the result element type of dot/convolution) come from the instruction's shape, which
/// shape inference checks (see `inference::infer_shape`'s `declared` argument).
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    // ---- leaves ----
    Parameter {
        number: usize,
    },
    Constant(Literal),
    Iota {
        dimension: i64,
    },
    ReplicaId,
    PartitionId,

    // ---- element-wise ----
    Unary(UnaryOp),
    Binary(BinaryOp),
    Compare {
        direction: ComparisonDirection,
        comparison_type: Option<ComparisonType>,
    },
    /// (pred, on_true, on_false)
    Select,
    /// (min, operand, max)
    Clamp,
    Convert,
    BitcastConvert,
    ReducePrecision {
        exponent_bits: u32,
        mantissa_bits: u32,
    },
    /// Calls `called[0]` element-wise over the operands.
    Map {
        dimensions: Vec<i64>,
    },

    // ---- shape and data movement ----
    /// HLO `broadcast`: operand dim i becomes output dim `dimensions[i]` (broadcast_in_dim).
    Broadcast {
        dimensions: Vec<i64>,
    },
    Reshape,
    Transpose {
        permutation: Vec<i64>,
    },
    Reverse {
        dimensions: Vec<i64>,
    },
    Slice {
        start: Vec<i64>,
        limit: Vec<i64>,
        strides: Vec<i64>,
    },
    /// (operand, start indices as scalars...)
    DynamicSlice {
        slice_sizes: Vec<i64>,
    },
    /// (operand, update, start indices as scalars...)
    DynamicUpdateSlice,
    Concatenate {
        dimension: i64,
    },
    /// (operand, padding value)
    Pad(PaddingConfig),
    /// (operand, start_indices)
    Gather {
        dnums: GatherDimensionNumbers,
        slice_sizes: Vec<i64>,
        indices_are_sorted: bool,
    },
    /// (operands..., scatter_indices, updates...); `called[0]` combines.
    Scatter {
        dnums: ScatterDimensionNumbers,
        indices_are_sorted: bool,
        unique_indices: bool,
    },
    Copy,
    GetDimensionSize {
        dimension: i64,
    },
    /// (operand, size as s32 scalar)
    SetDimensionSize {
        dimension: i64,
    },

    // ---- tuples and tokens ----
    Tuple,
    GetTupleElement {
        index: usize,
    },
    AfterAll,
    OptimizationBarrier,

    // ---- reductions ----
    /// (operands..., init_values...); `called[0]` reduces.
    Reduce {
        dimensions: Vec<i64>,
    },
    /// (operands..., init_values...); `called[0]` reduces.
    ReduceWindow(Window),
    /// (operand, source, init_value); `called` = [select, scatter].
    SelectAndScatter(Window),

    // ---- linear algebra ----
    Dot {
        dnums: DotDimensionNumbers,
        precision: PrecisionConfig,
    },
    Convolution {
        window: Window,
        dnums: ConvDimensionNumbers,
        feature_group_count: i64,
        batch_group_count: i64,
        precision: PrecisionConfig,
    },
    Fft {
        fft_type: FftType,
        fft_length: Vec<i64>,
    },
    /// (a, b)
    TriangularSolve {
        left_side: bool,
        lower: bool,
        unit_diagonal: bool,
        transpose_a: TriangularTranspose,
    },
    Cholesky {
        lower: bool,
    },
    /// (operand, scale, offset)
    BatchNormTraining {
        epsilon: f32,
        feature_index: i64,
    },
    /// (operand, scale, offset, mean, variance)
    BatchNormInference {
        epsilon: f32,
        feature_index: i64,
    },
    /// (operand, scale, mean, variance, grad_output)
    BatchNormGrad {
        epsilon: f32,
        feature_index: i64,
    },
    /// Result (values, indices s32) along the last dimension.
    TopK {
        k: i64,
        largest: bool,
    },
    /// Operands sorted together along `dimension`; `called[0]` is the comparator.
    Sort {
        dimension: i64,
        is_stable: bool,
    },

    // ---- control flow ----
    /// `called` = [condition, body].
    While,
    /// Operand 0 is a PRED (two branches: true, false) or S32 index; then one operand per
    /// branch. `called` = branches.
    Conditional,
    /// `called[0]` is the callee.
    Call,
    /// A fused computation `called[0]` evaluated as one kernel (made by the fusion pass).
    Fusion {
        kind: FusionKind,
    },
    /// A call whose meaning is `called[0]` (the decomposition), with a name and version.
    CompositeCall {
        name: String,
        attributes: String,
        version: i64,
    },
    CustomCall {
        target: String,
        backend_config: String,
        has_side_effect: bool,
        api_version: i32,
    },

    // ---- random numbers ----
    /// (a, b): uniform on [a, b) or normal with mean a and std b.
    Rng {
        distribution: RngDistribution,
    },
    /// (state) → (new_state, bits)
    RngBitGenerator {
        algorithm: RngAlgorithm,
    },

    // ---- quantization ----
    /// Float → storage-type integers (or requantize from storage integers, with `from`).
    UniformQuantize {
        params: QuantParams,
        from: Option<QuantParams>,
    },
    /// Storage-type integers → expressed float.
    UniformDequantize {
        params: QuantParams,
    },

    // ---- side effects, collectives ----
    /// (token) → (value, token)
    Infeed {
        config: String,
    },
    /// (value, token) → token
    Outfeed {
        config: String,
    },
    /// (value, token) → (value, u32 context, token)
    Send {
        channel_id: i64,
        is_host_transfer: bool,
        /// Which instance sends to which (XLA's `_xla_send_recv_source_target_pairs`):
        /// instance `s` of each pair `(s, t)` sends to instance `t`, and an instance that is
        /// no source sends nothing. Empty: the channel links the instances of one process,
        /// each payload to whichever receiver takes it next.
        source_target_pairs: Vec<(i64, i64)>,
    },
    /// (send) → token
    SendDone {
        channel_id: i64,
        is_host_transfer: bool,
    },
    /// (token) → (value, u32 context, token)
    Recv {
        channel_id: i64,
        is_host_transfer: bool,
        /// As [`Op::Send`]'s: instance `t` of each pair `(s, t)` receives from instance `s`,
        /// and an instance that is no target receives zeros (as in collective-permute).
        source_target_pairs: Vec<(i64, i64)>,
    },
    /// (recv) → (value, token)
    RecvDone {
        channel_id: i64,
        is_host_transfer: bool,
    },
    AllGather {
        dimension: i64,
        replica_groups: ReplicaGroups,
        channel_id: Option<i64>,
        use_global_device_ids: bool,
    },
    /// `called[0]` reduces.
    AllReduce {
        replica_groups: ReplicaGroups,
        channel_id: Option<i64>,
        use_global_device_ids: bool,
    },
    /// `called[0]` reduces.
    ReduceScatter {
        dimension: i64,
        replica_groups: ReplicaGroups,
        channel_id: Option<i64>,
        use_global_device_ids: bool,
    },
    AllToAll {
        split_dimension: i64,
        concat_dimension: i64,
        split_count: i64,
        replica_groups: ReplicaGroups,
        channel_id: Option<i64>,
    },
    CollectivePermute {
        source_target_pairs: Vec<(i64, i64)>,
        channel_id: Option<i64>,
    },
    /// (operand) or (operand, root): the group's first member's operand, or with a root
    /// operand (an integer array of one element) the operand of the member at that index.
    CollectiveBroadcast {
        replica_groups: ReplicaGroups,
        channel_id: Option<i64>,
    },
    /// Reduce over each group with `called[0]`; the group's first member gets the result,
    /// the others get zeros.
    CollectiveReduce {
        replica_groups: ReplicaGroups,
        channel_id: Option<i64>,
    },
}

impl Op {
    /// An element-wise computation: each result element from the operands' elements at the
    /// same index (unary and binary ops, compare, select, clamp, convert, reduce-precision).
    pub fn is_elementwise_compute(&self) -> bool {
        matches!(
            self,
            Op::Unary(_)
                | Op::Binary(_)
                | Op::Compare { .. }
                | Op::Select
                | Op::Clamp
                | Op::Convert
                | Op::ReducePrecision { .. }
        )
    }

    /// The HLO text opcode.
    pub fn opcode_name(&self) -> &'static str {
        match self {
            Op::Parameter { .. } => "parameter",
            Op::Constant(_) => "constant",
            Op::Iota { .. } => "iota",
            Op::ReplicaId => "replica-id",
            Op::PartitionId => "partition-id",
            Op::Unary(u) => u.name(),
            Op::Binary(b) => b.name(),
            Op::Compare { .. } => "compare",
            Op::Select => "select",
            Op::Clamp => "clamp",
            Op::Convert => "convert",
            Op::BitcastConvert => "bitcast-convert",
            Op::ReducePrecision { .. } => "reduce-precision",
            Op::Map { .. } => "map",
            Op::Broadcast { .. } => "broadcast",
            Op::Reshape => "reshape",
            Op::Transpose { .. } => "transpose",
            Op::Reverse { .. } => "reverse",
            Op::Slice { .. } => "slice",
            Op::DynamicSlice { .. } => "dynamic-slice",
            Op::DynamicUpdateSlice => "dynamic-update-slice",
            Op::Concatenate { .. } => "concatenate",
            Op::Pad(_) => "pad",
            Op::Gather { .. } => "gather",
            Op::Scatter { .. } => "scatter",
            Op::Copy => "copy",
            Op::GetDimensionSize { .. } => "get-dimension-size",
            Op::SetDimensionSize { .. } => "set-dimension-size",
            Op::Tuple => "tuple",
            Op::GetTupleElement { .. } => "get-tuple-element",
            Op::AfterAll => "after-all",
            Op::OptimizationBarrier => "opt-barrier",
            Op::Reduce { .. } => "reduce",
            Op::ReduceWindow(_) => "reduce-window",
            Op::SelectAndScatter(_) => "select-and-scatter",
            Op::Dot { .. } => "dot",
            Op::Convolution { .. } => "convolution",
            Op::Fft { .. } => "fft",
            Op::TriangularSolve { .. } => "triangular-solve",
            Op::Cholesky { .. } => "cholesky",
            Op::BatchNormTraining { .. } => "batch-norm-training",
            Op::BatchNormInference { .. } => "batch-norm-inference",
            Op::BatchNormGrad { .. } => "batch-norm-grad",
            Op::TopK { .. } => "topk",
            Op::Sort { .. } => "sort",
            Op::While => "while",
            Op::Conditional => "conditional",
            Op::Call => "call",
            Op::Fusion { .. } => "fusion",
            Op::CompositeCall { .. } => "call",
            Op::CustomCall { .. } => "custom-call",
            Op::Rng { .. } => "rng",
            Op::RngBitGenerator { .. } => "rng-bit-generator",
            Op::UniformQuantize { .. } => "uniform-quantize",
            Op::UniformDequantize { .. } => "uniform-dequantize",
            Op::Infeed { .. } => "infeed",
            Op::Outfeed { .. } => "outfeed",
            Op::Send { .. } => "send",
            Op::SendDone { .. } => "send-done",
            Op::Recv { .. } => "recv",
            Op::RecvDone { .. } => "recv-done",
            Op::AllGather { .. } => "all-gather",
            Op::AllReduce { .. } => "all-reduce",
            Op::ReduceScatter { .. } => "reduce-scatter",
            Op::AllToAll { .. } => "all-to-all",
            Op::CollectivePermute { .. } => "collective-permute",
            Op::CollectiveBroadcast { .. } => "collective-broadcast",
            Op::CollectiveReduce { .. } => "collective-reduce",
        }
    }

    /// Ops with side effects that passes must not remove or reorder except through tokens.
    pub fn has_side_effect(&self) -> bool {
        match self {
            Op::Infeed { .. }
            | Op::Outfeed { .. }
            | Op::Send { .. }
            | Op::SendDone { .. }
            | Op::Recv { .. }
            | Op::RecvDone { .. }
            | Op::Rng { .. }
            | Op::AllGather { .. }
            | Op::AllReduce { .. }
            | Op::ReduceScatter { .. }
            | Op::AllToAll { .. }
            | Op::CollectivePermute { .. }
            | Op::CollectiveBroadcast { .. }
            | Op::CollectiveReduce { .. } => true,
            Op::CustomCall {
                has_side_effect, ..
            } => *has_side_effect,
            _ => false,
        }
    }
}
