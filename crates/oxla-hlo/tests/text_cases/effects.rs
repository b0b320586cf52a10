//! Random numbers, quantization, side effects and collectives.

use super::*;

pub fn rng(v: &mut Cases) {
    // ---- random numbers
    for distribution in [RngDistribution::Uniform, RngDistribution::Normal] {
        v.push((
            "rng",
            single(
                Op::Rng { distribution },
                &["f32[]", "f32[]"],
                "f32[8]",
                vec![],
            ),
        ));
    }
    for algorithm in [
        RngAlgorithm::Default,
        RngAlgorithm::ThreeFry,
        RngAlgorithm::Philox,
    ] {
        v.push((
            "rng-bit-generator",
            single(
                Op::RngBitGenerator { algorithm },
                &["u64[2]"],
                "(u64[2], u32[11,17])",
                vec![],
            ),
        ));
    }
}

pub fn quantization(v: &mut Cases) {
    // ---- quantization
    v.push((
        "uniform-quantize",
        single(
            Op::UniformQuantize {
                params: quant(Some(1)),
                from: None,
            },
            &["f32[3,2]"],
            "s8[3,2]",
            vec![],
        ),
    ));
    v.push((
        "uniform-requantize",
        single(
            Op::UniformQuantize {
                params: quant(None),
                from: Some(quant(Some(0))),
            },
            &["s8[2]"],
            "s8[2]",
            vec![],
        ),
    ));
    v.push((
        "uniform-dequantize",
        single(
            Op::UniformDequantize {
                params: quant(None),
            },
            &["s8[2]"],
            "f32[2]",
            vec![],
        ),
    ));
}

pub fn collectives(v: &mut Cases) {
    use BinaryOp as B;
    let add = || binary_comp("add", B::Add, "f32");
    // ---- side effects, collectives
    v.push((
        "infeed",
        single(
            Op::Infeed {
                config: "cfg".into(),
            },
            &["token[]"],
            "((f32[2]), token[])",
            vec![],
        ),
    ));
    v.push((
        "infeed plain",
        single(
            Op::Infeed {
                config: String::new(),
            },
            &["token[]"],
            "(f32[], token[])",
            vec![],
        ),
    ));
    v.push((
        "outfeed",
        single(
            Op::Outfeed {
                config: "c\"x".into(),
            },
            &["f32[2]", "token[]"],
            "token[]",
            vec![],
        ),
    ));
    v.push((
        "outfeed plain",
        single(
            Op::Outfeed {
                config: String::new(),
            },
            &["f32[2]", "token[]"],
            "token[]",
            vec![],
        ),
    ));
    v.push((
        "send",
        single(
            Op::Send {
                channel_id: 3,
                is_host_transfer: true,
                source_target_pairs: vec![],
            },
            &["f32[2]", "token[]"],
            "(f32[2], u32[], token[])",
            vec![],
        ),
    ));
    v.push((
        "send-done",
        single(
            Op::SendDone {
                channel_id: 3,
                is_host_transfer: false,
            },
            &["(f32[2], u32[], token[])"],
            "token[]",
            vec![],
        ),
    ));
    v.push((
        "recv",
        single(
            Op::Recv {
                channel_id: 4,
                is_host_transfer: false,
                source_target_pairs: vec![(0, 1), (1, 0)],
            },
            &["token[]"],
            "(f32[2], u32[], token[])",
            vec![],
        ),
    ));
    v.push((
        "recv-done",
        single(
            Op::RecvDone {
                channel_id: 4,
                is_host_transfer: true,
            },
            &["(f32[2], u32[], token[])"],
            "(f32[2], token[])",
            vec![],
        ),
    ));
    let mut collectives: Vec<(&'static str, HloModule)> = vec![
        (
            "all-gather",
            single(
                Op::AllGather {
                    dimension: 1,
                    replica_groups: vec![vec![0, 1], vec![2, 3]],
                    channel_id: Some(1),
                    use_global_device_ids: true,
                },
                &["f32[4,2]"],
                "f32[4,4]",
                vec![],
            ),
        ),
        (
            "all-reduce",
            single(
                Op::AllReduce {
                    replica_groups: vec![],
                    channel_id: None,
                    use_global_device_ids: false,
                },
                &["f32[8]"],
                "f32[8]",
                vec![add()],
            ),
        ),
        (
            "reduce-scatter",
            single(
                Op::ReduceScatter {
                    dimension: 0,
                    replica_groups: vec![vec![0, 1, 2, 3]],
                    channel_id: Some(2),
                    use_global_device_ids: false,
                },
                &["f32[8]"],
                "f32[2]",
                vec![add()],
            ),
        ),
        (
            "all-to-all xla form",
            single(
                Op::AllToAll {
                    split_dimension: 0,
                    concat_dimension: 0,
                    split_count: 2,
                    replica_groups: vec![vec![0, 1], vec![2, 3]],
                    channel_id: None,
                },
                &["f32[4,2]"],
                "f32[4,2]",
                vec![],
            ),
        ),
        (
            "all-to-all no groups",
            single(
                Op::AllToAll {
                    split_dimension: 1,
                    concat_dimension: 1,
                    split_count: 4,
                    replica_groups: vec![],
                    channel_id: Some(7),
                },
                &["f32[4,8]"],
                "f32[4,8]",
                vec![],
            ),
        ),
        (
            "all-to-all split concat",
            single(
                Op::AllToAll {
                    split_dimension: 1,
                    concat_dimension: 0,
                    split_count: 2,
                    replica_groups: vec![vec![0, 1], vec![2, 3]],
                    channel_id: None,
                },
                &["f32[4,2]"],
                "f32[8,1]",
                vec![],
            ),
        ),
        (
            "collective-permute",
            single(
                Op::CollectivePermute {
                    source_target_pairs: vec![(0, 1), (1, 0)],
                    channel_id: Some(5),
                },
                &["f32[2]"],
                "f32[2]",
                vec![],
            ),
        ),
        (
            "collective-broadcast",
            single(
                Op::CollectiveBroadcast {
                    replica_groups: vec![vec![1, 0], vec![2, 3]],
                    channel_id: None,
                },
                &["f32[2]"],
                "f32[2]",
                vec![],
            ),
        ),
        (
            "collective-reduce",
            single(
                Op::CollectiveReduce {
                    replica_groups: vec![vec![0, 1, 2, 3]],
                    channel_id: Some(9),
                },
                &["f32[2]"],
                "f32[2]",
                vec![add()],
            ),
        ),
    ];
    for (_, m) in collectives.iter_mut() {
        m.config.num_replicas = 4;
    }
    v.extend(collectives);
}
