//! Call a Rust function from a compiled program: a host custom call registered on the client
//! by target name (`Client::register_custom_call`), used in a computation built with
//! `XlaBuilder::custom_call`. Here the host function computes each row's median — an
//! operation XLA has no instruction for — and the compiled code around it centres the rows
//! on their medians: y = x - median(x, axis 1).
//!
//! The function receives typed views of its operands and writes its results in place; the
//! instruction's `backend_config` reaches it as text (here a scale factor, `scale=1`). A
//! failing host function is an error for the caller of `execute`, naming the target.
//!
//! ```text
//! cargo run --release -p oxla --example custom_call
//! ```

use oxla::prelude::*;
use oxla::CustomCallArgs;

const ROWS: i64 = 3;
const COLS: i64 = 5;

/// The host function: results[0][r] = scale · median(operands[0][r, :]).
fn row_median(c: &mut CustomCallArgs) -> Result<()> {
    let scale: f32 = c
        .backend_config
        .strip_prefix("scale=")
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| {
            Error::invalid(format!(
                "row_median: backend_config '{}' is not scale=<number>",
                c.backend_config
            ))
        })?;
    let dims = c.operands[0].shape.dims.clone();
    let [rows, cols] = dims[..] else {
        return Err(Error::invalid("row_median: expected a matrix"));
    };
    let x = c.operands[0].as_slice::<f32>()?.to_vec();
    let out = c.results[0].as_mut_slice::<f32>()?;
    for r in 0..rows as usize {
        let mut row = x[r * cols as usize..(r + 1) * cols as usize].to_vec();
        row.sort_by(|a, b| a.total_cmp(b));
        let n = row.len();
        let median = match n {
            0 => f32::NAN,
            _ if n % 2 == 1 => row[n / 2],
            _ => 0.5 * (row[n / 2 - 1] + row[n / 2]),
        };
        out[r] = scale * median;
    }
    Ok(())
}

/// y = x - broadcast(row_median(x)) for x: f32[ROWS, COLS].
fn centre_rows(config: &str) -> Result<XlaComputation> {
    let mut b = XlaBuilder::new("centre_rows");
    let x = b.parameter(0, &Shape::array(PrimitiveType::F32, &[ROWS, COLS]), "x");
    let medians = b.custom_call(
        "row_median",
        &[x],
        &Shape::array(PrimitiveType::F32, &[ROWS]),
        false,
        config,
    );
    b.sub_with_broadcast(x, medians, &[0]);
    b.build()
}

fn main() -> Result<()> {
    let client = Client::cpu()?;
    client.register_custom_call("row_median", row_median)?;
    let exe = client.compile(centre_rows("scale=1")?.module(), &CompileOptions::default())?;
    #[rustfmt::skip]
    let x = [
        3.0f32, 1.0, 4.0, 1.0, 5.0,   // sorted 1 1 3 4 5: median 3
        9.0, 2.0, 6.0, 5.0, 3.0,      // sorted 2 3 5 6 9: median 5
        -1.0, -8.0, 0.0, 2.0, -3.0,   // sorted -8 -3 -1 0 2: median -1
    ];
    let xb = Buffer::from_slice(&x, &[ROWS, COLS])?;
    let y = exe.execute(&[&xb])?[0].to_vec::<f32>()?;
    #[rustfmt::skip]
    let want = [
        0.0f32, -2.0, 1.0, -2.0, 2.0,
        4.0, -3.0, 1.0, 0.0, -2.0,
        0.0, -7.0, 1.0, 3.0, -2.0,
    ];
    println!("x - median(x, axis 1) = {y:?}");
    assert_eq!(y, want);

    // The host function's own errors reach the caller of execute.
    let bad = client.compile(centre_rows("scale=?")?.module(), &CompileOptions::default())?;
    let e = bad.execute(&[&xb]).err().map(|e| e.to_string());
    println!(
        "with a bad backend_config: {}",
        e.as_deref().unwrap_or("no error")
    );
    assert!(e.is_some_and(|e| e.contains("row_median")));
    // An unregistered target is an error at compile time, naming it.
    let other = Client::cpu()?;
    let e = other
        .compile(centre_rows("scale=1")?.module(), &CompileOptions::default())
        .err()
        .map(|e| e.to_string());
    assert!(e.is_some_and(|e| e.contains("row_median")));
    println!("ok: the compiled program called the host function");
    Ok(())
}
