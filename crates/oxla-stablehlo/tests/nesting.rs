//! Deep nesting in MLIR bytecode: JAX writes Python tracebacks into locations, so attribute
//! nesting grows with the Python stack. A call-site chain of any length decodes; other nesting
//! decodes up to the reader's limit on a default-sized thread stack and is a clear error past
//! it, never a stack overflow. (The files and how they were made: `data/nesting/gen.py`.)

use oxla_hlo::Literal;
use oxla_stablehlo::{import, parse_program};

/// Runs `f` on a thread with Rust's default 2 MiB stack, as a PJRT or test thread has.
fn on_small_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn_scoped(s, f)
            .unwrap()
            .join()
            .unwrap()
    })
}

/// `sin(x) * 2 + 1` reached through 500 nested Python calls: every op's location is a
/// 500-deep `callsite(... at callsite(...))` chain. It decodes, imports and computes.
#[test]
fn callsite_chain_500_deep_decodes_and_runs() {
    let bytes = include_bytes!("data/nesting/callsite500.mlirbc");
    let out = on_small_stack(|| {
        let module = parse_program(bytes).expect("decodes");
        let imp = import(&module, None).expect("imports");
        let x = Literal::from_vec(&[4], vec![0.0f32, 1.0, 2.0, 3.0]).unwrap();
        oxla_interp::Interpreter::new()
            .run(imp.computation.module(), &[x])
            .expect("runs")
    });
    let out = match out.tuple_elements() {
        Some(t) => t[0].clone(),
        None => out,
    };
    let got = out.data_as::<f32>().unwrap();
    for (i, g) in got.iter().enumerate() {
        let want = (i as f32).sin() * 2.0 + 1.0;
        assert!((g - want).abs() < 1e-6, "x={i}: {g} vs {want}");
    }
}

/// 1000 nested arrays decode on a 2 MiB stack (the reader runs on its own thread).
#[test]
fn nesting_limit_fits_a_small_stack() {
    let bytes = include_bytes!("data/nesting/array1000.mlirbc");
    on_small_stack(|| parse_program(bytes).expect("1000 nested arrays decode"));
}

/// 4000 nested arrays are under the depth limit, but each level's decoded value holds a copy
/// of the level below: 8 million values from 20 KB. The reader stops at its budget.
#[test]
fn quadratic_expansion_is_a_clear_error() {
    let bytes = include_bytes!("data/nesting/array4000.mlirbc");
    let err = on_small_stack(|| parse_program(bytes).expect_err("over budget"));
    assert!(err.to_string().contains("expand to more than"), "{err}");
}

/// 519 bytes whose attribute doubles 60 times (`a_k = [a_k-1, a_k-1]`, MLIR's uniquing keeps
/// the file small) would expand to 2^60 values: a clear error at once, not a hang.
#[test]
fn exponential_expansion_is_a_clear_error() {
    let bytes = include_bytes!("data/nesting/dag60.mlirbc");
    let t = std::time::Instant::now();
    let err = parse_program(bytes).expect_err("over budget");
    assert!(err.to_string().contains("expand to more than"), "{err}");
    assert!(t.elapsed().as_secs() < 10);
}

/// 4200 nested arrays (past the limit) are an error that says so.
#[test]
fn nesting_past_the_limit_is_a_clear_error() {
    let bytes = include_bytes!("data/nesting/array4200.mlirbc");
    let err = on_small_stack(|| parse_program(bytes).expect_err("past the limit"));
    let msg = err.to_string();
    assert!(msg.contains("nest deeper than 4096 levels"), "{msg}");
}

/// MLIR text with `n` nested arrays as a function attribute.
fn nested_text(n: usize) -> String {
    format!(
        "module @m {{\n  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes \
         {{foo = {}1 : i64{}}} {{\n    return %arg0 : tensor<4xf32>\n  }}\n}}\n",
        "[".repeat(n),
        "]".repeat(n)
    )
}

/// The text parser: 4000 nested arrays parse on a 2 MiB thread (the parser runs on its own
/// thread); 100000 are a clear error, not a stack overflow.
#[test]
fn text_nesting_is_bounded_and_clear() {
    let ok = nested_text(4000);
    on_small_stack(|| oxla_stablehlo::parse_module(&ok).expect("4000 nested arrays parse"));
    let deep = nested_text(100_000);
    let err = on_small_stack(|| oxla_stablehlo::parse_module(&deep).expect_err("too deep"));
    assert!(
        err.to_string().contains("nest deeper than 4096 levels"),
        "{err}"
    );
}

/// Aliases that each use the previous one twice (`#a1 = [#a0, #a0]` ...) double with every
/// line: 60 lines would be 2^60 values. A clear error, at once.
#[test]
fn text_alias_expansion_is_bounded() {
    let mut text = String::from("#a0 = [1 : i64]\n");
    for k in 1..=60 {
        text += &format!("#a{k} = [#a{p}, #a{p}]\n", p = k - 1);
    }
    text += "module @m {\n  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> \
             attributes {foo = #a60} {\n    return %arg0 : tensor<4xf32>\n  }\n}\n";
    let t = std::time::Instant::now();
    let err = oxla_stablehlo::parse_module(&text).expect_err("over budget");
    assert!(
        err.to_string().contains("expand to too many values"),
        "{err}"
    );
    assert!(t.elapsed().as_secs() < 10);
}
