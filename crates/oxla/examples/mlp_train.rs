//! Train a small MLP with the builder: a forward pass (the loss) and one SGD step (forward,
//! gradients written out by hand, update) are built as two computations, compiled once, and
//! run on typed data (`&[f32]` in, `Vec<f32>` out). The step's gradient is checked against
//! central finite differences of the forward computation, and the loss must fall.
//!
//! The model fits y = sin(3x) on [-1, 1]: tanh(x·W1 + b1)·W2 + b2 with 16 hidden units,
//! mean squared error.
//!
//! ```text
//! cargo run --release -p oxla --example mlp_train
//! ```

use oxla::builder::scalar_binary_computation;
use oxla::hlo::BinaryOp;
use oxla::prelude::*;

const N: i64 = 64; // batch: the whole data set
const H: i64 = 16; // hidden units
const LR: f32 = 0.2;
const STEPS: usize = 300;

fn f32s(dims: &[i64]) -> Shape {
    Shape::array(PrimitiveType::F32, dims)
}

/// Parameters x, y, w1, b1, w2, b2 of both computations.
struct Params {
    x: XlaOp,
    y: XlaOp,
    w: [XlaOp; 4],
}

fn params(b: &mut XlaBuilder) -> Params {
    Params {
        x: b.parameter(0, &f32s(&[N, 1]), "x"),
        y: b.parameter(1, &f32s(&[N, 1]), "y"),
        w: [
            b.parameter(2, &f32s(&[1, H]), "w1"),
            b.parameter(3, &f32s(&[H]), "b1"),
            b.parameter(4, &f32s(&[H, 1]), "w2"),
            b.parameter(5, &f32s(&[1]), "b2"),
        ],
    }
}

/// The forward pass: (hidden activations, prediction error, loss).
fn forward(b: &mut XlaBuilder, p: &Params, add: &XlaComputation) -> (XlaOp, XlaOp, XlaOp) {
    let [w1, b1, w2, b2] = p.w;
    let xw1 = b.dot(p.x, w1);
    let z = b.add_with_broadcast(xw1, b1, &[1]);
    let h = b.tanh(z);
    let hw2 = b.dot(h, w2);
    let pred = b.add_with_broadcast(hw2, b2, &[1]);
    let err = b.sub(pred, p.y);
    let sq = b.mul(err, err);
    let zero = b.constant(0.0f32);
    let total = b.reduce_all(sq, zero, add);
    let inv_n = b.constant(1.0 / N as f32);
    let loss = b.mul(total, inv_n);
    (h, err, loss)
}

/// (x, y, w1, b1, w2, b2) -> loss
fn loss_computation() -> Result<XlaComputation> {
    let mut b = XlaBuilder::new("mlp_loss");
    let p = params(&mut b);
    let add = scalar_binary_computation(&mut b, "add", BinaryOp::Add, PrimitiveType::F32)?;
    let (_, _, loss) = forward(&mut b, &p, &add);
    b.build_with_root(loss)
}

/// (x, y, w1, b1, w2, b2) -> (w1', b1', w2', b2', loss): one SGD step.
fn step_computation() -> Result<XlaComputation> {
    let mut b = XlaBuilder::new("mlp_step");
    let p = params(&mut b);
    let add = scalar_binary_computation(&mut b, "add", BinaryOp::Add, PrimitiveType::F32)?;
    let (h, err, loss) = forward(&mut b, &p, &add);
    let [w1, b1, w2, b2] = p.w;
    let zero = b.constant(0.0f32);
    let one = b.constant(1.0f32);
    // dL/dpred = 2·err/N; back through the output layer, tanh' = 1 - h², the hidden layer.
    let two_over_n = b.constant(2.0 / N as f32);
    let d = b.mul(err, two_over_n);
    let ht = b.transpose(h, &[1, 0]);
    let gw2 = b.dot(ht, d);
    let gb2 = b.reduce(d, zero, &add, &[0]);
    let w2t = b.transpose(w2, &[1, 0]);
    let dh = b.dot(d, w2t);
    let h2 = b.mul(h, h);
    let dtanh = b.sub(one, h2);
    let dz = b.mul(dh, dtanh);
    let xt = b.transpose(p.x, &[1, 0]);
    let gw1 = b.dot(xt, dz);
    let gb1 = b.reduce(dz, zero, &add, &[0]);
    let lr = b.constant(LR);
    let mut outs = Vec::new();
    for (w, g) in [w1, b1, w2, b2].into_iter().zip([gw1, gb1, gw2, gb2]) {
        let step = b.mul(g, lr);
        outs.push(b.sub(w, step));
    }
    outs.push(loss);
    b.tuple(&outs);
    b.build()
}

const DIMS: [&[i64]; 4] = [&[1, H], &[H], &[H, 1], &[1]];

fn buffers(w: &[Vec<f32>]) -> Result<Vec<Buffer>> {
    w.iter()
        .zip(DIMS)
        .map(|(v, d)| Buffer::from_slice(v, d))
        .collect()
}

fn main() -> Result<()> {
    // Data and deterministic small initial weights.
    let xs: Vec<f32> = (0..N)
        .map(|i| -1.0 + 2.0 * i as f32 / (N - 1) as f32)
        .collect();
    let ys: Vec<f32> = xs.iter().map(|x| (3.0 * x).sin()).collect();
    let mut seed = 7u64;
    let mut rand = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 2.0
    };
    let w0: Vec<Vec<f32>> = vec![
        (0..H).map(|_| rand()).collect(),
        (0..H).map(|_| 0.5 * rand()).collect(),
        (0..H).map(|_| 0.5 * rand()).collect(),
        vec![0.0],
    ];

    let client = Client::cpu()?;
    let options = CompileOptions::default();
    let loss_exe = client.compile(loss_computation()?.module(), &options)?;
    let step_exe = client.compile(step_computation()?.module(), &options)?;
    let x = Buffer::from_slice(&xs, &[N, 1])?;
    let y = Buffer::from_slice(&ys, &[N, 1])?;
    let loss_of = |w: &[Vec<f32>]| -> Result<f64> {
        let wb = buffers(w)?;
        let out = loss_exe.execute(&[&x, &y, &wb[0], &wb[1], &wb[2], &wb[3]])?;
        Ok(out[0].to_vec::<f32>()?[0] as f64)
    };

    // The hand-written gradient against finite differences: one step moves each weight by
    // -LR·dL/dw, so (w - w')/LR is the gradient the step used.
    let wb = buffers(&w0)?;
    let out = step_exe.execute(&[&x, &y, &wb[0], &wb[1], &wb[2], &wb[3]])?;
    let mut worst = 0.0f64;
    for (t, (before, after)) in w0.iter().zip(&out[..4]).enumerate() {
        let after = after.to_vec::<f32>()?;
        for i in 0..before.len() {
            let analytic = (before[i] - after[i]) as f64 / LR as f64;
            let eps = 1e-2f32;
            let mut plus = w0.clone();
            plus[t][i] += eps;
            let mut minus = w0.clone();
            minus[t][i] -= eps;
            let numeric = (loss_of(&plus)? - loss_of(&minus)?) / (2.0 * eps as f64);
            worst = worst.max((analytic - numeric).abs() / (numeric.abs() + 1e-2));
        }
    }
    println!("gradient vs finite differences: largest relative difference {worst:.2e}");
    assert!(worst < 2e-2, "the hand-written gradient is wrong ({worst})");

    // Train: each step's outputs are the next step's weights (buffers passed straight back).
    let mut w = buffers(&w0)?;
    let mut losses = Vec::new();
    for _ in 0..STEPS {
        let mut args = vec![&x, &y];
        args.extend(w.iter());
        let mut out = step_exe.execute(&args)?;
        let loss = out
            .pop()
            .ok_or_else(|| Error::internal("the step returned no loss"))?;
        losses.push(loss.to_vec::<f32>()?[0]);
        w = out;
    }
    let w_final: Vec<Vec<f32>> = w.iter().map(|b| b.to_vec::<f32>()).collect::<Result<_>>()?;
    let final_loss = loss_of(&w_final)? as f32;
    for (i, l) in losses.iter().enumerate().step_by(50) {
        println!("step {i:3}: loss {l:.5}");
    }
    println!("final loss {final_loss:.5} (initial {:.5})", losses[0]);
    assert!(
        final_loss < 0.25 * losses[0],
        "the loss did not fall enough: {} -> {final_loss}",
        losses[0]
    );
    assert!(
        losses.windows(2).filter(|p| p[1] > p[0]).count() < STEPS / 10,
        "the loss rose on many steps"
    );
    println!("ok: the MLP learns sin(3x)");
    Ok(())
}
