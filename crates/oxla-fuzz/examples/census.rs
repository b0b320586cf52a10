//! How often each opcode appears in the programs of a seed range (live nodes, as built), and
//! how many programs run on several replicas: `cargo run -p oxla-fuzz --example census --
//! [PROGRAMS] [SEED]`.

use std::collections::BTreeMap;

use oxla_fuzz::{generate, Choices, GenConfig};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10000);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let cfg = GenConfig::default();
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
                *ops.entry(name.clone()).or_default() += 1;
                seen.insert(name);
            }
        }
        for name in seen {
            *programs.entry(name).or_default() += 1;
        }
    }
    println!("{n} programs from seed {seed}: {multi} on several replicas");
    println!("{:>8} {:>8}  op", "nodes", "programs");
    for (k, v) in &ops {
        println!("{v:>8} {:>8}  {k}", programs[k]);
    }
}
