//! How an instruction runs on the compiled path. The `plan` pass of oxla-passes decides it
//! once for every instruction of every computation the runtime runs as a program (not inside
//! fusions or reducers), and records it on the instruction; the runtime maps it to a step and
//! the code generator picks its loop schedule from it. HLO text prints it as `plan=NAME`.

/// The execution plan of one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExecPlan {
    /// No step of its own: an argument, a constant, a tuple or a part of one, a token, or a
    /// view of its operand's memory (row-major reshape, same-width bitcast-convert).
    View,
    /// A JIT loop kernel with this schedule.
    Loop(LoopSchedule),
    /// A call of the GEMM kernels: a canonical `[b,m,k]x[b,k,n]` f32/f64 dot (either operand
    /// possibly transposed) large enough to be worth packing.
    Gemm,
    /// A call of the direct f32 convolution kernel (`oxla_kernels::conv_f32`): the input's
    /// features and the output's features contiguous, no input dilation or batch groups.
    Conv,
    /// Library steps of the runtime.
    Sort,
    Fft,
    Linalg,
    /// `rng` (uniform / normal) from the execution's rng state.
    Rng,
    /// `rng-bit-generator` (THREE_FRY, PHILOX).
    RngBitGenerator,
    /// Select-and-scatter with its select and scatter computations compiled.
    SelectAndScatter,
    /// `topk`: a partial selection per row.
    TopK,
    /// A transpose that moves the innermost dimension, copied in cache-sized tiles
    /// (`oxla_kernels::transpose`).
    Transpose,
    /// Control flow: the runtime runs sub-programs.
    While,
    Conditional,
    Call,
    /// A collective (all-reduce, all-gather, …) or replica-id / partition-id: data exchanged
    /// with the other devices of the run through the client's communicator.
    Collective,
    /// Infeed / outfeed: the device's host queues.
    Queue,
    /// Send / recv and their dones: channels between the processes of a run.
    Channel,
    /// A custom call: the host function registered for its target.
    CustomCall,
}

/// The loop nest a JIT kernel uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoopSchedule {
    /// One loop per output dimension, the innermost vectorized.
    Elementwise,
    /// A reduction along the operand's last dimension (or a reduce-window): the output loop
    /// is scalar and the reduction loop vectorized with several accumulators.
    RowReduce,
    /// A plain reduction that keeps the last dimension: rows are swept into the output.
    ColumnReduce,
    /// A reduce-window that is a prefix scan along one dimension, run in O(n).
    Scan,
    /// Scatter: the operand copied, then the updates applied in order.
    Scatter,
}

impl ExecPlan {
    /// Every plan, for tests and for the text parser.
    pub const ALL: [ExecPlan; 23] = [
        ExecPlan::View,
        ExecPlan::Loop(LoopSchedule::Elementwise),
        ExecPlan::Loop(LoopSchedule::RowReduce),
        ExecPlan::Loop(LoopSchedule::ColumnReduce),
        ExecPlan::Loop(LoopSchedule::Scan),
        ExecPlan::Loop(LoopSchedule::Scatter),
        ExecPlan::Gemm,
        ExecPlan::Conv,
        ExecPlan::Sort,
        ExecPlan::Fft,
        ExecPlan::Linalg,
        ExecPlan::Rng,
        ExecPlan::RngBitGenerator,
        ExecPlan::SelectAndScatter,
        ExecPlan::TopK,
        ExecPlan::Transpose,
        ExecPlan::While,
        ExecPlan::Conditional,
        ExecPlan::Call,
        ExecPlan::Collective,
        ExecPlan::Queue,
        ExecPlan::Channel,
        ExecPlan::CustomCall,
    ];

    /// The name HLO text uses (`plan=NAME`).
    pub fn name(self) -> &'static str {
        match self {
            ExecPlan::View => "view",
            ExecPlan::Loop(s) => match s {
                LoopSchedule::Elementwise => "loop",
                LoopSchedule::RowReduce => "row_reduce",
                LoopSchedule::ColumnReduce => "column_reduce",
                LoopSchedule::Scan => "scan",
                LoopSchedule::Scatter => "scatter",
            },
            ExecPlan::Gemm => "gemm",
            ExecPlan::Conv => "conv",
            ExecPlan::Sort => "sort",
            ExecPlan::Fft => "fft",
            ExecPlan::Linalg => "linalg",
            ExecPlan::Rng => "rng",
            ExecPlan::RngBitGenerator => "rng_bit_generator",
            ExecPlan::SelectAndScatter => "select_and_scatter",
            ExecPlan::TopK => "top_k",
            ExecPlan::Transpose => "transpose",
            ExecPlan::While => "while",
            ExecPlan::Conditional => "conditional",
            ExecPlan::Call => "call",
            ExecPlan::Collective => "collective",
            ExecPlan::Queue => "queue",
            ExecPlan::Channel => "channel",
            ExecPlan::CustomCall => "custom_call",
        }
    }

    pub fn from_name(name: &str) -> Option<ExecPlan> {
        ExecPlan::ALL.into_iter().find(|p| p.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in ExecPlan::ALL {
            assert_eq!(ExecPlan::from_name(p.name()), Some(p));
        }
        assert_eq!(ExecPlan::from_name("bogus"), None);
    }
}
