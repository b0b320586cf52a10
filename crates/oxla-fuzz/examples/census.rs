//! How often each opcode appears in the programs of a seed range (live nodes, as built), and
//! how many programs run on several replicas, and how many dots are GEMM-sized (at least
//! `GEMM_MIN_MACS` multiply-adds, so they run on the GEMM kernels): `cargo run -p oxla-fuzz
//! --example census -- [PROGRAMS] [SEED] [MAX_OPS] [MAX_DIM]`.

use std::collections::BTreeMap;

use oxla_fuzz::{generate, Choices, GenConfig};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10000);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut cfg = GenConfig::default();
    if let Some(v) = args.next().and_then(|s| s.parse().ok()) {
        cfg.max_ops = v;
    }
    if let Some(v) = args.next().and_then(|s| s.parse().ok()) {
        cfg.max_dim = v;
    }
    let mut gemm_dots = 0u64;
    let mut ops: BTreeMap<String, u64> = BTreeMap::new();
    let mut programs: BTreeMap<String, u64> = BTreeMap::new();
    let mut multi = 0;
    for s in seed..seed + n {
        let Ok(p) = generate(&mut Choices::from_seed(s), &cfg) else {
            continue;
        };
        let Ok((m, _)) = p.build() else { continue };
        multi += u64::from(p.replicas > 1);
        let mut seen = std::collections::BTreeSet::new();
        for c in &m.computations {
            for ins in &c.instructions {
                let name = match &ins.op {
                    oxla_hlo::Op::CustomCall { target, .. } => target.clone(),
                    op => op.opcode_name().to_string(),
                };
                if let oxla_hlo::Op::Dot { dnums: d, .. } = &ins.op {
                    let lhs = c.instr(ins.operands[0]).shape.dims().to_vec();
                    let k: i64 = d
                        .lhs_contracting_dims
                        .iter()
                        .map(|&i| lhs[i as usize])
                        .product();
                    let macs = ins.shape.element_count() * k;
                    gemm_dots += u64::from(macs >= oxla_passes::plan::GEMM_MIN_MACS);
                }
                *ops.entry(name.clone()).or_default() += 1;
                seen.insert(name);
            }
        }
        for name in seen {
            *programs.entry(name).or_default() += 1;
        }
    }
    println!(
        "{n} programs from seed {seed} (max ops {}, max dim {}): {multi} on several replicas, \
         {gemm_dots} GEMM-sized dots",
        cfg.max_ops, cfg.max_dim
    );
    println!("{:>8} {:>8}  op", "nodes", "programs");
    for (k, v) in &ops {
        println!("{v:>8} {:>8}  {k}", programs[k]);
    }
}
