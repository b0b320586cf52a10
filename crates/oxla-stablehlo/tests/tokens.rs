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

/// JAX's ordered effects thread tokens through the entry function, marked `jax.token`, and
/// pass them as `bool[0]` arrays: they import as `pred[0]` parameters and results. A token
/// argument without the mark stays a token.
#[test]
fn jax_entry_tokens_are_bool_arrays() {
    let text = r#"
module @m {
  func.func public @main(%t: !stablehlo.token {jax.token = true}, %x: tensor<2xf32>, %u: !stablehlo.token) -> (!stablehlo.token {jax.token = true}, tensor<2xf32>) {
    %v = stablehlo.after_all %t, %u : !stablehlo.token
    %y = stablehlo.add %x, %x : tensor<2xf32>
    return %v, %y : !stablehlo.token, tensor<2xf32>
  }
}"#;
    let module = parse_module(text).expect("parses");
    let imp = import(&module, None).expect("imports");
    let shape = imp.computation.program_shape();
    let params: Vec<String> = shape.parameters.iter().map(|p| p.to_string()).collect();
    assert_eq!(params, ["pred[0]", "f32[2]", "token[]"]);
    assert_eq!(shape.result.to_string(), "(pred[0], f32[2])");
    // Through PJRT every entry token is an array (JAX's own token values too).
    let imp = oxla_stablehlo::import_with(&module, None, true).expect("imports");
    let params: Vec<String> = imp
        .computation
        .program_shape()
        .parameters
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(params, ["pred[0]", "f32[2]", "pred[0]"]);
}

/// Send/recv carry their source-target pairs, as XLA's frontend attribute or as
/// StableHLO's own attribute, and print back as the frontend attribute.
#[test]
fn send_recv_pairs_import_from_either_form() {
    let text = r#"
module @m {
  func.func public @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %t = stablehlo.after_all : !stablehlo.token
    %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, is_host_transfer = false, mhlo.frontend_attributes = {_xla_send_recv_source_target_pairs = "{{0,1},{1,0}}"}} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
    %r:2 = "stablehlo.recv"(%s) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, is_host_transfer = false, source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
    return %r#0 : tensor<2xf32>
  }
}"#;
    let module = parse_module(text).expect("parses");
    let imp = import(&module, None).expect("imports");
    let hlo = oxla_hlo::text::print_module(imp.computation.module());
    assert!(
        hlo.contains(r#"_xla_send_recv_source_target_pairs="{{0,1},{1,0}}""#),
        "{hlo}"
    );
    assert!(
        hlo.contains(r#"_xla_send_recv_source_target_pairs="{{1,0}}""#),
        "{hlo}"
    );
    let bad = text.replace("{{0,1},{1,0}}", "{{0,1},{x}}");
    let Err(e) = import(&parse_module(&bad).expect("parses"), None) else {
        panic!("bad pairs imported");
    };
    assert!(e.to_string().contains("source-target pairs"), "{e}");
}
