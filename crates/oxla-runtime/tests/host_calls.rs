//! Host custom calls: registered Rust functions called by compiled programs, with typed
//! views, several results, the backend config, side effects kept, and errors named.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use oxla_hlo::Error;
use oxla_runtime::{Buffer, Client, CompileOptions, CustomCallArgs};

fn compile(client: &Client, text: &str) -> oxla_hlo::Result<oxla_runtime::Executable> {
    let m = oxla_hlo::text::parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    client.compile(&m, &CompileOptions::default())
}

const TWO_RESULTS: &str = "HloModule cc\n\nENTRY %main (x: f32[4], k: s32[]) -> (f32[4], s32[]) {\n  %x = f32[4] parameter(0)\n  %k = s32[] parameter(1)\n  %y = f32[4] exponential(%x)\n  %c = (f32[4], s32[]) custom-call(%y, %k), custom_call_target=\"scale_and_count\", backend_config=\"factor=3\"\n  %a = f32[4] get-tuple-element(%c), index=0\n  %b = s32[] get-tuple-element(%c), index=1\n  %z = f32[4] add(%a, %a)\n  ROOT %r = (f32[4], s32[]) tuple(%z, %b)\n}\n";

#[test]
fn a_registered_function_runs_between_compiled_steps() {
    let client = Client::cpu().unwrap();
    client
        .register_custom_call("scale_and_count", |c: &mut CustomCallArgs| {
            assert_eq!(c.backend_config, "factor=3");
            let factor = 3.0f32;
            let x = c.operands[0].as_slice::<f32>()?.to_vec();
            let k = c.operands[1].as_slice::<i32>()?[0];
            for (o, v) in c.results[0].as_mut_slice::<f32>()?.iter_mut().zip(&x) {
                *o = factor * v;
            }
            c.results[1].as_mut_slice::<i32>()?[0] = k + x.len() as i32;
            Ok(())
        })
        .unwrap();
    let exe = compile(&client, TWO_RESULTS).unwrap();
    let x = Buffer::from_slice(&[0.0f32, 1.0, -1.0, 2.0], &[4]).unwrap();
    let k = Buffer::scalar(10i32).unwrap();
    let out = exe.execute(&[&x, &k]).unwrap();
    let want: Vec<f32> = [0.0f32, 1.0, -1.0, 2.0]
        .iter()
        .map(|v| 2.0 * 3.0 * v.exp())
        .collect();
    let got = out[0].to_vec::<f32>().unwrap();
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() <= 1e-5 * w.abs(), "{got:?} vs {want:?}");
    }
    assert_eq!(out[1].to_vec::<i32>().unwrap(), vec![14]);
}

#[test]
fn unregistered_targets_and_failures_are_named_errors() {
    let client = Client::cpu().unwrap();
    let e = compile(&client, TWO_RESULTS).err().unwrap();
    assert!(
        matches!(e, Error::Unimplemented(_)) && e.to_string().contains("scale_and_count"),
        "{e}"
    );
    client
        .register_custom_call("scale_and_count", |c: &mut CustomCallArgs| {
            // A wrong typed view is an error, which the program's caller receives.
            c.operands[0].as_slice::<f64>()?;
            Ok(())
        })
        .unwrap();
    let exe = compile(&client, TWO_RESULTS).unwrap();
    let x = Buffer::from_slice(&[0.0f32; 4], &[4]).unwrap();
    let k = Buffer::scalar(1i32).unwrap();
    let e = exe.execute(&[&x, &k]).unwrap_err().to_string();
    assert!(
        e.contains("custom-call \"scale_and_count\"") && e.contains("f64"),
        "{e}"
    );
}

#[test]
fn side_effecting_calls_run_even_when_their_result_is_unused() {
    let client = Client::cpu().unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    client
        .register_custom_call("log_it", move |_c: &mut CustomCallArgs| {
            seen.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })
        .unwrap();
    let text = |effect: bool| {
        format!(
            "HloModule se\n\nENTRY %main (x: f32[2]) -> f32[2] {{\n  %x = f32[2] parameter(0)\n  %c = f32[2] custom-call(%x), custom_call_target=\"log_it\", custom_call_has_side_effect={effect}\n  ROOT %y = f32[2] negate(%x)\n}}\n"
        )
    };
    let x = Buffer::from_slice(&[1.0f32, 2.0], &[2]).unwrap();
    compile(&client, &text(true))
        .unwrap()
        .execute(&[&x])
        .unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    // Without side effects an unused call is dead code.
    compile(&client, &text(false))
        .unwrap()
        .execute(&[&x])
        .unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}
