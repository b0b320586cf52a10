//! A training loop fed through the infeed: linear regression `y = x w + b` trained by SGD
//! inside one compiled `while` loop of STEPS iterations. Each iteration reads a batch
//! `(x f32[B,IN], y f32[B,1])` from the infeed (the token threaded through the loop state),
//! updates w and b, and writes the batch loss to the outfeed. The host starts the program
//! with `execute_async`, feeds batches from a producer thread while it runs and reads the
//! losses as they come.
//!
//! ```text
//! cargo run --release -p oxla --example infeed_training_loop
//! ```

use std::time::{Duration, Instant};

use oxla::builder::{scalar_binary_computation, XlaBuilder, XlaComputation};
use oxla::hlo::{BinaryOp, PrimitiveType, Result, Shape};
use oxla::runtime::{Buffer, Client, ClientOptions, CompileOptions};

const IN: i64 = 8;
const B: i64 = 32;
const STEPS: usize = 300;
const LR: f32 = 0.1;
const NOISE: f32 = 0.01;

fn f32s(dims: &[i64]) -> Shape {
    Shape::array(PrimitiveType::F32, dims)
}

/// The loop state: (step, w, b, token).
fn state_shape() -> Shape {
    Shape::Tuple(vec![
        Shape::scalar(PrimitiveType::S32),
        f32s(&[IN, 1]),
        f32s(&[1]),
        Shape::Token,
    ])
}

/// (w0 f32[IN,1], b0 f32[1]) -> (w, b) after STEPS SGD steps on batches from the infeed,
/// each step's loss written to the outfeed.
fn training_loop() -> Result<XlaComputation> {
    let mut b = XlaBuilder::new("infeed_training_loop");

    // Condition: step < STEPS.
    let mut c = b.create_sub_builder("cond");
    let s = c.parameter(0, &state_shape(), "s");
    let i = c.get_tuple_element(s, 0);
    let n = c.constant(STEPS as i32);
    let keep_going = c.lt(i, n);
    let cond = c.build_with_root(keep_going)?;

    // Body: read a batch, one SGD step, write the loss.
    let mut c = b.create_sub_builder("body");
    let s = c.parameter(0, &state_shape(), "s");
    let i = c.get_tuple_element(s, 0);
    let w = c.get_tuple_element(s, 1);
    let bias = c.get_tuple_element(s, 2);
    let token = c.get_tuple_element(s, 3);
    let batch_shape = Shape::Tuple(vec![f32s(&[B, IN]), f32s(&[B, 1])]);
    let fed = c.infeed_with_token(token, &batch_shape, "");
    let batch = c.get_tuple_element(fed, 0);
    let token = c.get_tuple_element(fed, 1);
    let x = c.get_tuple_element(batch, 0);
    let y = c.get_tuple_element(batch, 1);
    let add = scalar_binary_computation(&mut c, "add", BinaryOp::Add, PrimitiveType::F32)?;
    let zero = c.constant(0.0f32);
    // Forward: mean squared error of x w + b.
    let xw = c.dot(x, w);
    let pred = c.add_with_broadcast(xw, bias, &[1]);
    let err = c.sub(pred, y);
    let sq = c.mul(err, err);
    let sq_sum = c.reduce_all(sq, zero, &add);
    let inv_b = c.constant(1.0f32 / B as f32);
    let loss = c.mul(sq_sum, inv_b);
    let token = c.outfeed(loss, token, "");
    // Backward: d loss / d pred = 2 err / B.
    let two_over_b = c.constant(2.0f32 / B as f32);
    let d = c.mul_with_broadcast(err, two_over_b, &[]);
    let xt = c.transpose(x, &[1, 0]);
    let gw = c.dot(xt, d);
    let gb = c.reduce(d, zero, &add, &[0]);
    let lr = c.constant(LR);
    let step_w = c.mul_with_broadcast(gw, lr, &[]);
    let step_b = c.mul_with_broadcast(gb, lr, &[]);
    let w1 = c.sub(w, step_w);
    let b1 = c.sub(bias, step_b);
    let one = c.constant(1i32);
    let i1 = c.add(i, one);
    let next = c.tuple(&[i1, w1, b1, token]);
    let body = c.build_with_root(next)?;

    let w0 = b.parameter(0, &f32s(&[IN, 1]), "w0");
    let b0 = b.parameter(1, &f32s(&[1]), "b0");
    let t = b.after_all(&[]);
    let start = b.constant(0i32);
    let init = b.tuple(&[start, w0, b0, t]);
    let done = b.while_loop(&cond, &body, init);
    let w = b.get_tuple_element(done, 1);
    let bias = b.get_tuple_element(done, 2);
    b.tuple(&[w, bias]);
    b.build()
}

/// A deterministic generator of uniform values in [-1, 1).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
}

fn true_weights() -> (Vec<f32>, f32) {
    ((0..IN).map(|k| (k as f32 * 0.7).sin()).collect(), 0.5)
}

/// Batch `step`: x uniform, y = x w* + b* + small noise.
fn batch(rng: &mut Rng) -> (Vec<f32>, Vec<f32>) {
    let (w, b) = true_weights();
    let x: Vec<f32> = (0..B * IN).map(|_| rng.next()).collect();
    let y: Vec<f32> = (0..B as usize)
        .map(|r| {
            let dot: f32 = (0..IN as usize)
                .map(|k| x[r * IN as usize + k] * w[k])
                .sum();
            dot + b + NOISE * rng.next()
        })
        .collect();
    (x, y)
}

fn main() -> Result<()> {
    let client = Client::cpu_with(ClientOptions {
        devices: 1,
        timeout: Duration::from_secs(60),
        ..Default::default()
    })?;
    let exe = client.compile(training_loop()?.module(), &CompileOptions::default())?;
    let t0 = Instant::now();
    let run = exe.execute_async(vec![
        Buffer::from_slice(&vec![0.0f32; IN as usize], &[IN, 1])?,
        Buffer::from_slice(&[0.0f32], &[1])?,
    ]);

    // The producer feeds batches while the loop runs (the program waits on an empty
    // infeed); the host reads each loss as the program writes it.
    let feeder = {
        let client = client.clone();
        std::thread::spawn(move || -> Result<()> {
            let mut rng = Rng(2024);
            for _ in 0..STEPS {
                let (x, y) = batch(&mut rng);
                client.infeed_tuple(
                    0,
                    vec![
                        Buffer::from_slice(&x, &[B, IN])?,
                        Buffer::from_slice(&y, &[B, 1])?,
                    ],
                )?;
            }
            Ok(())
        })
    };
    let loss_shape = Shape::scalar(PrimitiveType::F32);
    let mut losses = Vec::with_capacity(STEPS);
    for _ in 0..STEPS {
        losses.push(client.outfeed(0, &loss_shape)?.to_vec::<f32>()?[0]);
    }
    feeder
        .join()
        .map_err(|_| oxla::hlo::Error::internal("the feeder thread panicked"))??;
    let out = run.wait()?;
    let elapsed = t0.elapsed();
    // Nothing beyond the STEPS losses, and every batch was read.
    let extra = client.try_outfeed(0, &loss_shape)?;
    assert!(extra.is_none(), "more losses than steps");
    assert_eq!(client.infeed_len(0)?, 0, "batches left unread");
    assert_eq!(losses.len(), STEPS);

    let w = out[0].to_vec::<f32>()?;
    let b = out[1].to_vec::<f32>()?[0];
    let (w_true, b_true) = true_weights();
    let w_err = w
        .iter()
        .zip(&w_true)
        .map(|(a, t)| (a - t).abs())
        .fold(0.0f32, f32::max);
    let b_err = (b - b_true).abs();
    let (first, last) = (losses[0], losses[STEPS - 1]);
    println!(
        "{STEPS} SGD steps in one compiled while loop, batches through the infeed: {:.1} ms",
        elapsed.as_secs_f64() * 1e3
    );
    println!(
        "loss: step 0 {first:.4}, step {} {:.6}, step {} {last:.2e}",
        STEPS / 10,
        losses[STEPS / 10],
        STEPS - 1
    );
    println!("largest weight error {w_err:.2e}, bias error {b_err:.2e}");
    assert!(losses.iter().all(|l| l.is_finite()), "a loss is not finite");
    assert!(
        last < first * 1e-2,
        "the loss did not decrease enough: {first} -> {last}"
    );
    assert!(w_err < 0.02, "w is {w:?}, expected {w_true:?}");
    assert!(b_err < 0.02, "b is {b}, expected {b_true}");
    println!("ok: the model learned w and b from {STEPS} infeed batches");
    Ok(())
}
