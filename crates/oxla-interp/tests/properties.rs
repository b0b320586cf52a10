//! Identities the interpreter must satisfy on pseudo-random inputs.

mod common;
use common::*;
use num_complex::Complex32;
use oxla_hlo::{FftType, Literal};

fn lcg(seed: u64, n: usize) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 20.0 - 10.0
        })
        .collect()
}

#[test]
fn reverse_twice_and_transpose_inverse_are_identities() {
    for seed in 0..5 {
        let x = Literal::from_vec(&[3, 4, 5], lcg(seed, 60)).unwrap();
        let r = eval(|b| {
            let c = b.constant_literal(&x);
            let r1 = b.rev(c, &[0, 2]);
            b.rev(r1, &[0, 2])
        });
        assert!(r.bitwise_eq(&x));
        let r = eval(|b| {
            let c = b.constant_literal(&x);
            let t = b.transpose(c, &[2, 0, 1]);
            b.transpose(t, &[1, 2, 0])
        });
        assert!(r.bitwise_eq(&x));
    }
}

#[test]
fn fft_then_ifft_is_identity() {
    for seed in 0..3 {
        let re = lcg(seed, 24);
        let im = lcg(seed + 100, 24);
        let v: Vec<Complex32> = re
            .iter()
            .zip(&im)
            .map(|(&a, &b)| Complex32::new(a, b))
            .collect();
        let x = Literal::from_vec(&[2, 3, 4], v).unwrap();
        let r = eval(|b| {
            let c = b.constant_literal(&x);
            let f = b.fft(c, FftType::Fft, &[3, 4]);
            b.fft(f, FftType::Ifft, &[3, 4])
        });
        let tol = oxla_hlo::literal::Tolerance {
            abs: 1e-4,
            rel: 1e-4,
            ulps: 0,
        };
        r.approx_eq(&x, &tol).unwrap();
    }
}

#[test]
fn sort_output_is_ordered_and_a_permutation() {
    for seed in 0..5 {
        let v = lcg(seed, 50);
        let r = eval(|b| {
            let cmp = {
                let mut c = b.create_sub_builder("lt");
                let p = c.parameter(0, &s(F32, &[]), "a");
                let q = c.parameter(1, &s(F32, &[]), "b");
                c.lt(p, q);
                c.build().unwrap()
            };
            let x = b.constant_r1(&v);
            b.sort(&[x], &cmp, 0, false)
        });
        let out = r.to_f64s();
        assert!(out.windows(2).all(|w| w[0] <= w[1]));
        let mut a: Vec<f64> = v.iter().map(|&x| x as f64).collect();
        a.sort_by(|x, y| x.partial_cmp(y).unwrap());
        assert_eq!(a, out);
    }
}
