//! Test inputs that exercise the corners of every element type: NaN, ±inf, ±0, subnormals,
//! values near overflow, extreme and small integers. The JIT filetests, the differential
//! tests and the fuzzer draw their inputs from here, so a seed means the same values
//! everywhere (filetests record hashes of outputs computed from them).

use oxla_hlo::{literal::Scalar, Literal, PrimitiveType};

/// A small LCG: reproducible inputs without a dependency.
struct Rng(u64);

impl Rng {
    fn bits(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }
    fn unit(&mut self) -> f64 {
        self.bits() as f64 / (1u64 << 53) as f64
    }
}

/// Random real (float, integer or pred) values of type `t` mixing NaN, ±inf, ±0, subnormals
/// and extreme integers, shaped `dims`.
pub fn real_input(t: PrimitiveType, dims: &[i64], seed: u64) -> Result<Literal, String> {
    use PrimitiveType::*;
    let n: i64 = dims.iter().product();
    let mut r = Rng(seed.wrapping_mul(0x9E3779B97F4A7C15) | 1);
    if t.is_float() {
        let specials = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.0,
            -0.0,
            1e-40,
            -3e-39,
            1e-310,
            0.5,
            -2.5,
            3e38,
            -1e300,
            88.5,
            -104.0,
            0.3,
            -0.39,
            1.0,
            20.0,
        ];
        let v: Vec<f64> = (0..n)
            .map(|i| {
                if i % 3 == 0 {
                    specials[(r.bits() % specials.len() as u64) as usize]
                } else {
                    (r.unit() - 0.5) * 20.0
                }
            })
            .collect();
        return Literal::from_f64s(t, dims, &v).map_err(|e| e.to_string());
    }
    let (lo, hi) = oxla_hlo::literal::int_range(t);
    let v: Vec<i64> = (0..n)
        .map(|i| match (t, i % 4) {
            (Pred, _) => (r.bits() % 2) as i64,
            (_, 0) => [lo, hi, 0, -1, 1, 7][(r.bits() % 6) as usize].clamp(lo, hi) as i64,
            (U64, _) => r.bits() as i64,
            (_, 1) => lo.max(-100) as i64 + (r.bits() % 200) as i64,
            _ => (lo + (r.bits() as i128 % (hi - lo + 1))) as i64,
        })
        .map(|x| x.clamp(lo as i64, hi.min(i64::MAX as i128) as i64))
        .collect();
    Literal::from_i64s(t, dims, &v).map_err(|e| e.to_string())
}

/// Random values of any array type `t`: [`real_input`] for real types; for complex types
/// finite parts in [-20, 20] (complex transcendental edge cases are the interpreter's to
/// define; the engines must agree on ordinary values).
pub fn input(t: PrimitiveType, dims: &[i64], seed: u64) -> Result<Literal, String> {
    use PrimitiveType::*;
    if t.is_complex() {
        let re = input(F64, dims, seed)?.to_f64s();
        let im = input(F64, dims, seed + 1000)?.to_f64s();
        let f = |x: f64| {
            if x.is_finite() {
                x.clamp(-20.0, 20.0)
            } else {
                0.5
            }
        };
        let v = re
            .iter()
            .zip(&im)
            .map(|(&r, &i)| Scalar::Complex(num_complex::Complex64::new(f(r), f(i))));
        return Literal::from_scalars(t, dims, v).map_err(|e| e.to_string());
    }
    real_input(t, dims, seed)
}
