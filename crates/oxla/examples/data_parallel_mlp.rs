//! Data-parallel training of a small MLP on 4 replicas: each replica computes the gradients
//! of its shard of the batch, an all-reduce sums them, and every replica applies the same
//! SGD update. The result must match one replica training on the whole batch.
//!
//! ```text
//! cargo run --release -p oxla --example data_parallel_mlp
//! ```

use oxla::builder::{scalar_binary_computation, XlaBuilder, XlaComputation, XlaOp};
use oxla::hlo::{BinaryOp, PrimitiveType, Result, Shape};
use oxla::runtime::{Buffer, Client, ClientOptions, CompileOptions};

const IN: i64 = 8;
const HIDDEN: i64 = 32;
const OUT: i64 = 4;
const BATCH: i64 = 64;
const LR: f32 = 0.05;

/// One SGD step on `rows` rows of the batch, gradients summed over `replicas` replicas:
/// (x, y, w1, b1, w2, b2) -> (w1, b1, w2, b2, loss).
fn train_step(rows: i64, replicas: usize) -> Result<XlaComputation> {
    let f32s = |dims: &[i64]| Shape::array(PrimitiveType::F32, dims);
    let mut b = XlaBuilder::new("train_step");
    let x = b.parameter(0, &f32s(&[rows, IN]), "x");
    let y = b.parameter(1, &f32s(&[rows, OUT]), "y");
    let w1 = b.parameter(2, &f32s(&[IN, HIDDEN]), "w1");
    let b1 = b.parameter(3, &f32s(&[HIDDEN]), "b1");
    let w2 = b.parameter(4, &f32s(&[HIDDEN, OUT]), "w2");
    let b2 = b.parameter(5, &f32s(&[OUT]), "b2");
    let add = scalar_binary_computation(&mut b, "add", BinaryOp::Add, PrimitiveType::F32)?;
    let zero = b.constant(0.0f32);

    // Forward: relu(x w1 + b1) w2 + b2, mean squared error over the whole batch.
    let xw1 = b.dot(x, w1);
    let h_pre = b.add_with_broadcast(xw1, b1, &[1]);
    let h = b.max(h_pre, zero);
    let hw2 = b.dot(h, w2);
    let pred = b.add_with_broadcast(hw2, b2, &[1]);
    let err = b.sub(pred, y);
    let scale = b.constant(1.0f32 / (BATCH * OUT) as f32);
    let sq = b.mul(err, err);
    let sq_sum = b.reduce_all(sq, zero, &add);
    let loss = b.mul(sq_sum, scale);

    // Backward, by hand.
    let two_scale = b.constant(2.0f32 / (BATCH * OUT) as f32);
    let d = b.mul(err, two_scale);
    let ht = b.transpose(h, &[1, 0]);
    let gw2 = b.dot(ht, d);
    let gb2 = b.reduce(d, zero, &add, &[0]);
    let w2t = b.transpose(w2, &[1, 0]);
    let dh_full = b.dot(d, w2t);
    let active = b.gt(h_pre, zero);
    let zeros = b.broadcast(zero, &[rows, HIDDEN]);
    let dh = b.select(active, dh_full, zeros);
    let xt = b.transpose(x, &[1, 0]);
    let gw1 = b.dot(xt, dh);
    let gb1 = b.reduce(dh, zero, &add, &[0]);

    // Data parallelism: sum the shards' gradients (and losses) over the replicas.
    let sum = |b: &mut XlaBuilder, g: XlaOp| {
        if replicas > 1 {
            b.cross_replica_sum(g, &[])
        } else {
            g
        }
    };
    let grads = [gw1, gb1, gw2, gb2].map(|g| sum(&mut b, g));
    let loss = sum(&mut b, loss);
    let lr = b.constant(LR);
    let mut outs = Vec::new();
    for (w, g) in [w1, b1, w2, b2].into_iter().zip(grads) {
        let step = b.mul_with_broadcast(g, lr, &[]);
        outs.push(b.sub(w, step));
    }
    outs.push(loss);
    b.tuple(&outs);
    b.build()
}

/// Deterministic data: y = sin(x · a) with a fixed a, plus small initial weights.
fn data() -> (Vec<f32>, Vec<f32>, [Vec<f32>; 4]) {
    let mut s = 12345u64;
    let mut r = move || {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
        ((s >> 40) as f32 / (1u64 << 24) as f32) - 0.5
    };
    let x: Vec<f32> = (0..BATCH * IN).map(|_| 2.0 * r()).collect();
    let y: Vec<f32> = (0..BATCH * OUT)
        .map(|i| {
            let (row, o) = (i / OUT, i % OUT);
            let dot: f32 = (0..IN)
                .map(|k| x[(row * IN + k) as usize] * ((k + o) as f32 * 0.3).cos())
                .sum();
            dot.sin()
        })
        .collect();
    let w = [
        (0..IN * HIDDEN).map(|_| r()).collect(),
        vec![0.0; HIDDEN as usize],
        (0..HIDDEN * OUT).map(|_| r()).collect(),
        vec![0.0; OUT as usize],
    ];
    (x, y, w)
}

fn weights(w: &[Vec<f32>; 4]) -> Result<Vec<Buffer>> {
    let dims: [&[i64]; 4] = [&[IN, HIDDEN], &[HIDDEN], &[HIDDEN, OUT], &[OUT]];
    w.iter()
        .zip(dims)
        .map(|(v, d)| Buffer::from_slice(v, d))
        .collect()
}

fn main() -> Result<()> {
    const REPLICAS: usize = 4;
    const STEPS: usize = 5;
    let (x, y, w0) = data();

    // One replica, the whole batch.
    let single = Client::cpu()?;
    let exe1 = single.compile(train_step(BATCH, 1)?.module(), &CompileOptions::default())?;
    let xb = Buffer::from_slice(&x, &[BATCH, IN])?;
    let yb = Buffer::from_slice(&y, &[BATCH, OUT])?;
    let mut w1 = weights(&w0)?;
    let mut losses1 = Vec::new();
    for _ in 0..STEPS {
        let mut args = vec![&xb, &yb];
        args.extend(w1.iter());
        let mut out = exe1.execute(&args)?;
        losses1.push(out.pop().expect("loss").to_vec::<f32>()?[0]);
        w1 = out;
    }

    // Four replicas, a quarter of the batch each.
    let client = Client::cpu_with(ClientOptions {
        devices: REPLICAS,
        ..Default::default()
    })?;
    let rows = BATCH / REPLICAS as i64;
    let options = CompileOptions {
        replicas: REPLICAS,
        ..Default::default()
    };
    let exe4 = client.compile(train_step(rows, REPLICAS)?.module(), &options)?;
    let shard = |v: &[f32], width: i64, r: usize| -> Result<Buffer> {
        let n = (rows * width) as usize;
        Buffer::from_slice(&v[r * n..(r + 1) * n], &[rows, width])
    };
    let xs: Vec<Buffer> = (0..REPLICAS)
        .map(|r| shard(&x, IN, r))
        .collect::<Result<_>>()?;
    let ys: Vec<Buffer> = (0..REPLICAS)
        .map(|r| shard(&y, OUT, r))
        .collect::<Result<_>>()?;
    let mut w4: Vec<Vec<Buffer>> = vec![weights(&w0)?; REPLICAS];
    let mut losses4 = Vec::new();
    for _ in 0..STEPS {
        let args: Vec<Vec<&Buffer>> = (0..REPLICAS)
            .map(|r| {
                let mut a = vec![&xs[r], &ys[r]];
                a.extend(w4[r].iter());
                a
            })
            .collect();
        let outs = exe4.execute_sharded(&args)?;
        losses4.push(outs[0][4].to_vec::<f32>()?[0]);
        w4 = outs
            .into_iter()
            .map(|mut o| {
                o.pop();
                o
            })
            .collect();
    }

    // The replicas agree with each other exactly, and with one replica up to the order of
    // the gradient sums.
    let mut worst = 0.0f32;
    for r in 0..REPLICAS {
        for (a, b) in w4[r].iter().zip(&w1) {
            for (p, q) in a.to_vec::<f32>()?.iter().zip(b.to_vec::<f32>()?) {
                worst = worst.max((p - q).abs());
            }
        }
        for (a, b) in w4[r].iter().zip(&w4[0]) {
            assert_eq!(a.to_vec::<f32>()?, b.to_vec::<f32>()?, "replicas disagree");
        }
    }
    println!("loss, 1 replica : {losses1:?}");
    println!("loss, 4 replicas: {losses4:?}");
    println!("largest weight difference after {STEPS} steps: {worst:e}");
    assert!(
        worst <= 1e-5,
        "4 replicas diverge from 1 replica by {worst}"
    );
    assert!(losses1[STEPS - 1] < losses1[0], "the loss did not decrease");
    println!("ok: 4-replica data-parallel training matches 1 replica");
    Ok(())
}
