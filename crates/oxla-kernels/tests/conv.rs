//! The direct convolution against a naive loop (in f64), and every SIMD microkernel against
//! the portable twin, on strides, dilations, asymmetric and negative padding, groups,
//! reversal, 1-D to 3-D windows, awkward widths and channel counts, batches and threads.

use oxla_kernels::{conv_f32, conv_f32_with, ConvArgs, ConvWindowDim, Isa};

/// A deterministic generator (xorshift), values in [-1, 1].
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn values(&mut self, n: usize) -> Vec<f32> {
        (0..n)
            .map(|_| (self.next() % 2001) as f32 / 1000.0 - 1.0)
            .collect()
    }
}

/// Output size of one spatial dimension for a padding `low`, `high`.
fn out_size(n: usize, w: &ConvWindowDim, high: isize) -> usize {
    let dilated = if n == 0 {
        0
    } else {
        (n - 1) * w.base_dilation + 1
    };
    let padded = dilated as isize + w.pad_low + high;
    let span = ((w.size - 1) * w.dilation + 1) as isize;
    if padded < span {
        0
    } else {
        ((padded - span) / w.stride as isize + 1) as usize
    }
}

/// The convolution as its definition, in f64.
fn naive(args: &ConvArgs, input: &[f32], weights: &[f32]) -> Vec<f64> {
    let d = args.in_spatial.len();
    let cg = args.in_features / args.groups;
    let og = args.out_features / args.groups;
    let pixels: usize = args.batch * args.out_spatial.iter().product::<usize>();
    let positions: usize = args.window.iter().map(|w| w.size).product();
    let mut out = vec![0f64; pixels * args.out_features];
    for m in 0..pixels {
        let mut o = vec![0usize; d];
        let mut rest = m;
        for s in (0..d).rev() {
            o[s] = rest % args.out_spatial[s];
            rest /= args.out_spatial[s];
        }
        let n = rest;
        for p in 0..positions {
            let mut k = vec![0usize; d];
            let mut r = p;
            for s in (0..d).rev() {
                k[s] = r % args.window[s].size;
                r /= args.window[s].size;
            }
            let mut at = n * args.in_batch_stride;
            let mut woff = 0;
            let mut inside = true;
            for s in 0..d {
                let w = &args.window[s];
                let xd = (o[s] * w.stride + k[s] * w.dilation) as isize - w.pad_low;
                let bd = w.base_dilation as isize;
                if xd < 0 || xd % bd != 0 || (xd / bd) as usize >= args.in_spatial[s] {
                    inside = false;
                }
                let x = xd / bd;
                at = at.wrapping_add((x as usize).wrapping_mul(args.in_spatial_strides[s]));
                let kw = if w.reversal { w.size - 1 - k[s] } else { k[s] };
                woff += kw * args.w_spatial_strides[s];
            }
            if !inside {
                continue;
            }
            for f in 0..args.out_features {
                let g = f / og;
                let mut acc = 0f64;
                for i in 0..cg {
                    let x = input[at + g * cg + i] as f64;
                    let w = weights[woff + i * args.w_in_stride + f * args.w_out_stride] as f64;
                    acc += x * w;
                }
                out[m * args.out_features + f] += acc;
            }
        }
    }
    out
}

/// A random convolution with `d` spatial dimensions.
fn random_args(rng: &mut Rng, d: usize) -> ConvArgs {
    let groups = [1, 1, 1, 2, 3][rng.below(5)];
    let cg = 1 + rng.below(if d == 3 { 5 } else { 12 });
    let og = 1 + rng.below(if d == 3 { 20 } else { 70 });
    let batch = 1 + rng.below(3);
    let mut in_spatial = Vec::new();
    let mut out_spatial = Vec::new();
    let mut window = Vec::new();
    for _ in 0..d {
        let n = 1 + rng.below(if d == 3 { 7 } else { 15 });
        let mut w = ConvWindowDim::new(1 + rng.below(4));
        w.stride = 1 + rng.below(2);
        w.dilation = 1 + rng.below(2);
        w.pad_low = rng.below(4) as isize - 1;
        w.reversal = rng.below(3) == 0;
        w.base_dilation = [1, 1, 2, 3][rng.below(4)];
        let high = rng.below(4) as isize - 1;
        in_spatial.push(n);
        out_spatial.push(out_size(n, &w, high));
        window.push(w);
    }
    ConvArgs::new(
        batch,
        &in_spatial,
        cg * groups,
        &out_spatial,
        og * groups,
        window,
    )
    .with_groups(groups)
    .with_threads(1 + rng.below(2))
}

fn check_close(got: &[f32], want: &[f64], k: usize, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let tol = 1e-5 * (k as f64 + 1.0);
        assert!(
            (g as f64 - w).abs() <= tol,
            "{what}: element {i}: {g} vs {w}"
        );
    }
}

fn run(isa: Isa, args: &ConvArgs, input: &[f32], weights: &[f32]) -> Vec<f32> {
    let [_, _, out_len] = args.required_lens().unwrap();
    // NaN-filled so an unwritten element shows.
    let mut out = vec![f32::NAN; out_len];
    conv_f32_with(isa, args, input, weights, &mut out).unwrap();
    out
}

#[test]
fn random_against_naive_and_portable() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for case in 0..300 {
        let d = 1 + case % 3;
        let args = random_args(&mut rng, d);
        let [in_len, w_len, _] = args.required_lens().unwrap();
        let input = rng.values(in_len);
        let weights = rng.values(w_len);
        let want = naive(&args, &input, &weights);
        let k =
            args.in_features / args.groups * args.window.iter().map(|w| w.size).product::<usize>();
        let portable = run(Isa::Portable, &args, &input, &weights);
        check_close(
            &portable,
            &want,
            k,
            &format!("case {case} portable {args:?}"),
        );
        for isa in Isa::ALL.into_iter().filter(|i| i.is_available()) {
            let got = run(isa, &args, &input, &weights);
            // Same products in the same order with fused multiply-adds: bit for bit.
            assert_eq!(
                got.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                portable.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                "case {case} {isa:?} vs portable {args:?}"
            );
        }
    }
}

#[test]
fn strided_input_and_transposed_weights() {
    // Input stored [H, N, W, C] (batch stride between rows) and weights [O, I, H, W].
    let mut rng = Rng(7);
    let (n, h, w, c, o) = (2usize, 9usize, 11usize, 5usize, 19usize);
    let window = vec![ConvWindowDim::new(3), ConvWindowDim::new(2)];
    let mut args = ConvArgs::new(n, &[h, w], c, &[7, 10], o, window).with_threads(2);
    args.in_spatial_strides = vec![n * w * c, c];
    args.in_batch_stride = w * c;
    args.w_out_stride = c * 3 * 2;
    args.w_in_stride = 3 * 2;
    args.w_spatial_strides = vec![2, 1];
    let input = rng.values(n * h * w * c);
    let weights = rng.values(o * c * 6);
    let want = naive(&args, &input, &weights);
    for isa in Isa::ALL.into_iter().filter(|i| i.is_available()) {
        check_close(
            &run(isa, &args, &input, &weights),
            &want,
            c * 6,
            &format!("{isa:?}"),
        );
    }
}

#[test]
fn resnet_like_layer() {
    let mut rng = Rng(11);
    let mut window = vec![ConvWindowDim::new(3), ConvWindowDim::new(3)];
    for w in &mut window {
        w.pad_low = 1;
    }
    let args = ConvArgs::new(1, &[20, 23], 64, &[20, 23], 64, window).with_threads(2);
    let [a, b, _] = args.required_lens().unwrap();
    let (input, weights) = (rng.values(a), rng.values(b));
    let want = naive(&args, &input, &weights);
    let mut out = vec![0f32; 20 * 23 * 64];
    conv_f32(&args, &input, &weights, &mut out).unwrap();
    check_close(&out, &want, 576, "best isa");
}

#[test]
fn bad_arguments_are_errors() {
    let w = vec![ConvWindowDim::new(3)];
    let args = ConvArgs::new(1, &[8], 4, &[6], 8, w.clone());
    let (input, weights) = (vec![0f32; 32], vec![0f32; 96]);
    let mut out = vec![0f32; 48];
    assert!(conv_f32(&args, &input, &weights, &mut out).is_ok());
    assert!(conv_f32(&args, &input[..31], &weights, &mut out).is_err());
    assert!(conv_f32(&args, &input, &weights[..95], &mut out).is_err());
    assert!(conv_f32(&args, &input, &weights, &mut out[..47]).is_err());
    let grouped = args.clone().with_groups(3);
    assert!(conv_f32(&grouped, &input, &weights, &mut out).is_err());
    let mut zero_stride = args.clone();
    zero_stride.window[0].stride = 0;
    assert!(conv_f32(&zero_stride, &input, &weights, &mut out).is_err());
    let mut ranks = args.clone();
    ranks.out_spatial.push(1);
    assert!(conv_f32(&ranks, &input, &weights, &mut out).is_err());
    let mut huge = args;
    huge.window[0].pad_low = isize::MIN;
    assert!(conv_f32(&huge, &input, &weights, &mut out).is_err());
}

#[test]
fn empty_window_gives_zeros() {
    let args = ConvArgs::new(1, &[4], 0, &[4], 3, vec![ConvWindowDim::new(1)]);
    let mut out = vec![1f32; 12];
    conv_f32(&args, &[], &[], &mut out).unwrap();
    assert!(out.iter().all(|&x| x == 0.0));
}

#[test]
fn many_features_split_into_k_blocks() {
    // K = positions x features beyond one block (1024): whole positions per block (cg 200),
    // features split inside a position (cg 1100), both with partial tiles and groups.
    let mut rng = Rng(23);
    for (cg, og, groups, window) in [(200, 70, 1, 3), (1100, 20, 1, 2), (150, 33, 2, 3)] {
        let mut w = ConvWindowDim::new(window);
        w.pad_low = 1;
        w.stride = 2;
        let args = ConvArgs::new(2, &[7], cg * groups, &[4], og * groups, vec![w])
            .with_groups(groups)
            .with_threads(2);
        let [a, b, _] = args.required_lens().unwrap();
        let (input, weights) = (rng.values(a), rng.values(b));
        let want = naive(&args, &input, &weights);
        let portable = run(Isa::Portable, &args, &input, &weights);
        check_close(&portable, &want, cg * window, &format!("cg {cg} portable"));
        for isa in Isa::ALL.into_iter().filter(|i| i.is_available()) {
            let got = run(isa, &args, &input, &weights);
            assert_eq!(
                got.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                portable.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                "cg {cg} {isa:?} vs portable"
            );
        }
    }
}

#[test]
fn no_spatial_dimensions_is_a_matrix_product() {
    // [batch, C] x [C, O]: every pixel a batch element (tiles run across batch elements).
    let mut rng = Rng(31);
    let args = ConvArgs::new(13, &[], 7, &[], 19, vec![]).with_groups(1);
    let [a, b, _] = args.required_lens().unwrap();
    let (input, weights) = (rng.values(a), rng.values(b));
    let want = naive(&args, &input, &weights);
    for isa in Isa::ALL.into_iter().filter(|i| i.is_available()) {
        check_close(
            &run(isa, &args, &input, &weights),
            &want,
            7,
            &format!("{isa:?}"),
        );
    }
}

/// Depthwise convolutions (one input and one output feature per group) take their own
/// kernel: against the naive loop, and every SIMD row kernel against the portable twin bit
/// for bit, over channel counts around the vector widths (tails), strides, dilations,
/// input dilation, padding, reversal, 1-D to 3-D windows, batches and threads.
#[test]
fn depthwise_against_naive_and_portable() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for case in 0..200 {
        let d = 1 + case % 3;
        let c = [1, 3, 7, 8, 15, 16, 17, 31, 33, 64, 65, 100][rng.below(12)];
        let batch = 1 + rng.below(3);
        let mut in_spatial = Vec::new();
        let mut out_spatial = Vec::new();
        let mut window = Vec::new();
        for _ in 0..d {
            let n = 1 + rng.below(if d == 3 { 6 } else { 12 });
            let mut w = ConvWindowDim::new(1 + rng.below(5));
            w.stride = 1 + rng.below(2);
            w.dilation = 1 + rng.below(2);
            w.pad_low = rng.below(4) as isize - 1;
            w.reversal = rng.below(3) == 0;
            w.base_dilation = [1, 1, 1, 2][rng.below(4)];
            let high = rng.below(4) as isize - 1;
            in_spatial.push(n);
            out_spatial.push(out_size(n, &w, high));
            window.push(w);
        }
        let args = ConvArgs::new(batch, &in_spatial, c, &out_spatial, c, window)
            .with_groups(c)
            .with_threads(1 + rng.below(2));
        let [in_len, w_len, _] = args.required_lens().unwrap();
        let input = rng.values(in_len);
        let weights = rng.values(w_len);
        let want = naive(&args, &input, &weights);
        let k = args.window.iter().map(|w| w.size).product::<usize>();
        let portable = run(Isa::Portable, &args, &input, &weights);
        check_close(
            &portable,
            &want,
            k,
            &format!("case {case} portable {args:?}"),
        );
        for isa in Isa::ALL.into_iter().filter(|i| i.is_available()) {
            let got = run(isa, &args, &input, &weights);
            assert_eq!(
                got.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                portable.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                "case {case} {isa:?} vs portable {args:?}"
            );
        }
    }
}
