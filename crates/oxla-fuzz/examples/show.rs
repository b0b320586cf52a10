//! Prints the program of a fuzzer seed as a filetest (HLO text with its arguments) and, with
//! `--check`, how the JIT fares on it under each option set, built directly and re-parsed
//! from its text: `cargo run -p oxla-fuzz --example show -- SEED [--check]`.

use oxla_fuzz::{check, generate, option_sets, Choices, GenConfig};

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let checking = args.next().as_deref() == Some("--check");
    let cfg = GenConfig::default();
    match oxla_fuzz::program_filetest(seed, &cfg) {
        Ok(t) => print!("{t}"),
        Err(e) => eprintln!("error: {e}"),
    }
    if !checking {
        return;
    }
    let run = || -> oxla_hlo::Result<()> {
        let client = oxla_fuzz::client()?;
        let p = generate(&mut Choices::from_seed(seed), &cfg)?;
        let (m, a) = p.build()?;
        let reparsed = oxla_hlo::text::parse_module(&oxla_hlo::text::print_module(&m))?;
        for set in option_sets() {
            let s = [set.clone()];
            println!("{}: built {:?}", set.name, check(&client, &m, &a, &s));
            println!(
                "{}: parsed {:?}",
                set.name,
                check(&client, &reparsed, &a, &s)
            );
        }
        Ok(())
    };
    if let Err(e) = run() {
        eprintln!("error: {e}");
    }
}
