//! Tokens: `stablehlo.create_token` (what `lax.create_token()` emits, no operands) and
//! `after_all` import, and the program runs.

use oxla_hlo::Literal;
use oxla_stablehlo::{import, parse_module};

#[test]
fn create_token_without_operands_imports_and_runs() {
    let text = r#"
module @m {
  func.func public @main(%x: tensor<2xf32>) -> (tensor<2xf32>, !stablehlo.token) {
    %t = "stablehlo.create_token"() : () -> !stablehlo.token
    %u = stablehlo.after_all %t, %t : !stablehlo.token
    %y = stablehlo.add %x, %x : tensor<2xf32>
    return %y, %u : tensor<2xf32>, !stablehlo.token
  }
}"#;
    let module = parse_module(text).expect("parses");
    let imp = import(&module, None).expect("imports");
    let x = Literal::from_vec(&[2], vec![1.5f32, -2.0]).unwrap();
    let out = oxla_interp::Interpreter::new()
        .run(imp.computation.module(), &[x])
        .expect("runs");
    let parts = out.tuple_elements().expect("a tuple of the results");
    assert_eq!(parts[0].data_as::<f32>().unwrap(), &[3.0, -4.0]);
    assert!(parts[1].shape().is_token());
}
