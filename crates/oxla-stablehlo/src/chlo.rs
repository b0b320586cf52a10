//! CHLO ops that JAX exports, decomposed into HLO ops. Element-wise ones compute in the
//! operand's type when it is f32/f64, else in f32 and convert back (as XLA does for
//! narrow floats). Formulas follow the numerically careful forms XLA uses (atan2-based
//! inverse trigonometry, expm1/log1p near zero, Lanczos for the gamma family, Giles'
//! polynomials for erf_inv).

use oxla_builder::{XlaBuilder, XlaOp};
use oxla_hlo::{Error, Literal, PrimitiveType, Result};

use crate::ast::{Attr, Operation};

/// `chlo.scan`: `body(x_i..., carry...) -> (y_i..., carry'...)` along `dimension`
/// (backwards with `is_reverse`), as a while loop whose state carries the index, the
/// carries, the stacked outputs and the inputs.
pub fn scan(
    b: &mut XlaBuilder,
    op: &Operation,
    args: &[XlaOp],
    body: &oxla_builder::XlaComputation,
    result_shapes: &[oxla_hlo::Shape],
) -> Result<Vec<XlaOp>> {
    use oxla_hlo::Shape;
    let n_in = op.attr("__num_inputs").and_then(Attr::as_int).unwrap_or(1) as usize;
    let n_carry = args.len() - n_in;
    let n_out = result_shapes.len() - n_carry;
    let dim = op.attr("dimension").and_then(Attr::as_int).unwrap_or(0) as i64;
    let reverse = op
        .attr("is_reverse")
        .and_then(Attr::as_bool)
        .unwrap_or(false);
    let in0 = b.get_shape(args[0])?;
    let len = *in0
        .dims()
        .get(dim as usize)
        .ok_or_else(|| Error::invalid("chlo.scan: dimension out of range"))?;
    let s32 = Shape::scalar(PrimitiveType::S32);
    // state = (i, carries..., outputs..., inputs...)
    let mut init = vec![b.constant(0i32)];
    init.extend(&args[n_in..]);
    for sh in &result_shapes[..n_out] {
        init.push(b.constant_literal(&Literal::zeros(sh)?));
    }
    init.extend(&args[..n_in]);
    let shapes: Vec<Shape> = init
        .iter()
        .map(|&v| b.get_shape(v))
        .collect::<Result<_>>()?;
    let state_shape = Shape::Tuple(shapes.clone());
    let cond = {
        let mut c = b.create_sub_builder("scan_cond");
        let st = c.parameter(0, &state_shape, "state");
        let i = c.get_tuple_element(st, 0);
        let n = c.constant(len as i32);
        c.lt(i, n);
        c.build()?
    };
    let body_loop = {
        let mut c = b.create_sub_builder("scan_body");
        let st = c.parameter(0, &state_shape, "state");
        let i = c.get_tuple_element(st, 0);
        let idx = if reverse {
            let last = c.constant(len as i32 - 1);
            c.sub(last, i)
        } else {
            i
        };
        let zero = c.constant(0i32);
        let mut call_args = Vec::new();
        let inputs_at = 1 + n_carry + n_out;
        for k in 0..n_in {
            let x = c.get_tuple_element(st, inputs_at + k);
            let xs = &shapes[inputs_at + k];
            let mut sizes = xs.dims().to_vec();
            sizes[dim as usize] = 1;
            let starts: Vec<XlaOp> = (0..sizes.len())
                .map(|d| if d == dim as usize { idx } else { zero })
                .collect();
            let sl = c.dynamic_slice(x, &starts, &sizes);
            let mut squeezed = sizes.clone();
            squeezed.remove(dim as usize);
            call_args.push(c.reshape(sl, &squeezed));
        }
        for k in 0..n_carry {
            call_args.push(c.get_tuple_element(st, 1 + k));
        }
        let r = c.call(body, &call_args);
        let res: Vec<XlaOp> = (0..n_out + n_carry)
            .map(|k| c.get_tuple_element(r, k))
            .collect();
        let one = c.constant(1i32);
        let mut next = vec![c.add(i, one)];
        next.extend(&res[n_out..]);
        for k in 0..n_out {
            let acc = c.get_tuple_element(st, 1 + n_carry + k);
            let mut with_dim = result_shapes[k].dims().to_vec();
            with_dim[dim as usize] = 1;
            let y = c.reshape(res[k], &with_dim);
            let starts: Vec<XlaOp> = (0..with_dim.len())
                .map(|d| if d == dim as usize { idx } else { zero })
                .collect();
            next.push(c.dynamic_update_slice(acc, y, &starts));
        }
        for k in 0..n_in {
            next.push(c.get_tuple_element(st, inputs_at + k));
        }
        let t = c.tuple(&next);
        c.build_with_root(t)?
    };
    let _ = s32;
    let t = b.tuple(&init);
    let w = b.while_loop(&cond, &body_loop, t);
    let mut outs: Vec<XlaOp> = (0..n_out)
        .map(|k| b.get_tuple_element(w, 1 + n_carry + k))
        .collect();
    outs.extend((0..n_carry).map(|k| b.get_tuple_element(w, 1 + k)));
    Ok(outs)
}

/// `chlo.ragged_dot` with a ragged non-contracting lhs dimension and an rhs group
/// dimension: every group's rows multiply that group's rhs. Computed as the dot with the
/// group dimension kept, masked to each row's group, summed over groups.
fn ragged_dot(b: &mut XlaBuilder, op: &Operation, args: &[XlaOp]) -> Result<XlaOp> {
    use oxla_hlo::{BinaryOp, DotDimensionNumbers, Shape};
    let dn = op
        .attr("ragged_dot_dimension_numbers")
        .ok_or_else(|| Error::invalid("chlo.ragged_dot without dimension numbers"))?;
    let ints = |k: &str| dn.field(k).and_then(Attr::as_ints).unwrap_or_default();
    let (lb, rb, lc, rc) = (
        ints("lhs_batching_dimensions"),
        ints("rhs_batching_dimensions"),
        ints("lhs_contracting_dimensions"),
        ints("rhs_contracting_dimensions"),
    );
    let (lr, rg) = (ints("lhs_ragged_dimensions"), ints("rhs_group_dimensions"));
    if lr.len() != 1 || rg.len() != 1 || lc.contains(&lr[0]) {
        return Err(Error::unimplemented(
            "chlo.ragged_dot: only a ragged non-contracting lhs dimension with an rhs group dimension",
        ));
    }
    let (lhs, rhs, sizes) = (args[0], args[1], args[2]);
    let (ls, rs) = (b.get_shape(lhs)?, b.get_shape(rhs)?);
    let dnums = DotDimensionNumbers {
        lhs_contracting_dims: lc.clone(),
        rhs_contracting_dims: rc.clone(),
        lhs_batch_dims: lb.clone(),
        rhs_batch_dims: rb.clone(),
    };
    let full = b.dot_general(lhs, rhs, &dnums, None, None);
    let fs = b.get_shape(full)?;
    let lfree: Vec<i64> = (0..ls.rank() as i64)
        .filter(|d| !lc.contains(d) && !lb.contains(d))
        .collect();
    let rfree: Vec<i64> = (0..rs.rank() as i64)
        .filter(|d| !rc.contains(d) && !rb.contains(d))
        .collect();
    let m_pos = lb.len() + lfree.iter().position(|&d| d == lr[0]).unwrap_or(0);
    let g_pos = lb.len() + lfree.len() + rfree.iter().position(|&d| d == rg[0]).unwrap_or(0);
    let m = ls.dims()[lr[0] as usize];
    let g = rs.dims()[rg[0] as usize];
    // ends = inclusive cumsum(sizes), starts = ends - sizes (as s64).
    let st = b.get_shape(sizes)?.element_type();
    let sz = b.convert_element_type(sizes, PrimitiveType::S64);
    let add = oxla_builder::scalar_binary_computation(b, "add", BinaryOp::Add, PrimitiveType::S64)?;
    let zero = b.constant(0i64);
    let ends = b.reduce_window_with_general_padding(
        &[sz],
        &[zero],
        &add,
        &[g],
        &[1],
        &[],
        &[],
        &[(g - 1, 0)],
    );
    let starts = b.sub(ends, sz);
    let _ = st;
    let rows = b.iota(&Shape::array(PrimitiveType::S64, &[m, g]), 0);
    let sb = b.broadcast_in_dim(starts, &[m, g], &[1]);
    let eb = b.broadcast_in_dim(ends, &[m, g], &[1]);
    let ge = b.ge(rows, sb);
    let lt = b.lt(rows, eb);
    let mask = b.and(ge, lt);
    let mask_full = b.broadcast_in_dim(mask, fs.dims(), &[m_pos as i64, g_pos as i64]);
    let zero_f = b.constant_literal(&Literal::zeros(&Shape::scalar(fs.element_type()))?);
    let zb = b.broadcast(zero_f, fs.dims());
    let masked = b.select(mask_full, full, zb);
    let addf = oxla_builder::scalar_binary_computation(b, "add", BinaryOp::Add, fs.element_type())?;
    Ok(b.reduce(masked, zero_f, &addf, &[g_pos as i64]))
}

pub fn build(b: &mut XlaBuilder, op: &Operation, args: &[XlaOp]) -> Result<Vec<XlaOp>> {
    let short = op.name.trim_start_matches("chlo.");
    let unsupported = || {
        Error::unimplemented(format!(
            "line {}:{}: {}: this CHLO op has no decomposition yet",
            op.line, op.column, op.name
        ))
    };
    if short == "ragged_dot" {
        return Ok(vec![ragged_dot(b, op, args)?]);
    }
    if short == "mulhi" {
        return Ok(vec![mulhi(b, args[0], args[1])?]);
    }
    if short == "top_k" {
        let k = op.attr("k").and_then(Attr::as_int).unwrap_or(1) as i64;
        let r = b.top_k(args[0], k, true);
        let v = b.get_tuple_element(r, 0);
        let i = b.get_tuple_element(r, 1);
        return Ok(vec![v, i]);
    }
    if short == "next_after" {
        return Ok(vec![next_after(b, args[0], args[1])?]);
    }
    if short == "zeta" || short == "polygamma" {
        let g: fn(&mut F, XlaOp, XlaOp) -> XlaOp = if short == "zeta" { zeta } else { polygamma };
        return Ok(vec![binary_float(b, op, args, g)?]);
    }
    let t0 = b.get_shape(args[0])?.element_type();
    if short == "conj" {
        // The complex conjugate (jnp.conj inside jax.scipy.linalg.polar's iteration); the
        // identity on real values.
        let [x] = args else {
            return Err(Error::invalid(format!("{}: one operand", op.name)));
        };
        if !t0.is_complex() {
            return Ok(vec![*x]);
        }
        let re = b.real(*x);
        let im = b.imag(*x);
        let im = b.neg(im);
        return Ok(vec![b.complex(re, im)]);
    }
    if t0.is_complex() {
        if let Some(r) = complex_op(b, short, args[0], t0) {
            return Ok(vec![r]);
        }
        return Err(unsupported());
    }
    let f: fn(&mut F, XlaOp) -> XlaOp = match short {
        "erf" => |f, x| f.b.erf(x),
        "tan" => |f, x| f.b.tan(x),
        "square" => |f, x| f.b.mul(x, x),
        "atan" => |f, x| {
            let one = f.c(1.0);
            f.b.atan2(x, one)
        },
        "asin" => asin,
        "acos" => acos,
        "sinh" => sinh,
        "cosh" => cosh,
        "asinh" => asinh,
        "acosh" => acosh,
        "atanh" => atanh,
        "erfc" => |f, x| {
            let one = f.c(1.0);
            let e = f.b.erf(x);
            f.b.sub(one, e)
        },
        "erf_inv" => erf_inv,
        "lgamma" => lgamma,
        "digamma" => digamma,
        "bessel_i1e" => bessel_i1e,
        _ => return Err(unsupported()),
    };
    let t = b.get_shape(args[0])?.element_type();
    if !t.is_float() {
        return Err(unsupported());
    }
    let ct = if matches!(t, PrimitiveType::F32 | PrimitiveType::F64) {
        t
    } else {
        PrimitiveType::F32
    };
    let x = if ct == t {
        args[0]
    } else {
        b.convert_element_type(args[0], ct)
    };
    let mut fb = F { b, t: ct };
    let r = f(&mut fb, x);
    Ok(vec![if ct == t {
        r
    } else {
        b.convert_element_type(r, t)
    }])
}

/// A two-operand element-wise CHLO op on floats of one shape, computed as the unary ones are
/// (f32/f64 in their own type, narrower floats in f32 and rounded back once).
fn binary_float(
    b: &mut XlaBuilder,
    op: &Operation,
    args: &[XlaOp],
    g: fn(&mut F, XlaOp, XlaOp) -> XlaOp,
) -> Result<XlaOp> {
    let [x, y] = args else {
        return Err(Error::invalid(format!(
            "line {}:{}: {} takes 2 operands, got {}",
            op.line,
            op.column,
            op.name,
            args.len()
        )));
    };
    let (sx, sy) = (b.get_shape(*x)?, b.get_shape(*y)?);
    let t = sx.element_type();
    if !t.is_float() || sx != sy {
        return Err(Error::invalid(format!(
            "line {}:{}: {} takes two float operands of one shape, got {sx} and {sy}",
            op.line, op.column, op.name
        )));
    }
    let ct = if matches!(t, PrimitiveType::F32 | PrimitiveType::F64) {
        t
    } else {
        PrimitiveType::F32
    };
    let (x, y) = if ct == t {
        (*x, *y)
    } else {
        (
            b.convert_element_type(*x, ct),
            b.convert_element_type(*y, ct),
        )
    };
    let r = g(&mut F { b: &mut *b, t: ct }, x, y);
    Ok(if ct == t {
        r
    } else {
        b.convert_element_type(r, t)
    })
}

/// A builder with the compute type, for scalar constants.
struct F<'a> {
    b: &'a mut XlaBuilder,
    t: PrimitiveType,
}

impl F<'_> {
    fn c(&mut self, v: f64) -> XlaOp {
        let l = Literal::from_f64s(self.t, &[], &[v]).unwrap_or_else(|_| Literal::scalar(v as f32));
        self.b.constant_literal(&l)
    }
    /// Horner evaluation of `coeffs` (highest degree first) at `w`.
    fn poly(&mut self, w: XlaOp, coeffs: &[f64]) -> XlaOp {
        let mut p = self.c(coeffs[0]);
        for &k in &coeffs[1..] {
            let kc = self.c(k);
            let pw = self.b.mul(p, w);
            p = self.b.add(pw, kc);
        }
        p
    }
}

fn one_minus_sq(f: &mut F, x: XlaOp) -> XlaOp {
    // (1 - x)(1 + x) is more accurate than 1 - x^2 near |x| = 1.
    let one = f.c(1.0);
    let a = f.b.sub(one, x);
    let c = f.b.add(one, x);
    f.b.mul(a, c)
}

fn asin(f: &mut F, x: XlaOp) -> XlaOp {
    // 2 * atan2(x, 1 + sqrt(1 - x^2))
    let s = one_minus_sq(f, x);
    let r = f.b.sqrt(s);
    let one = f.c(1.0);
    let d = f.b.add(one, r);
    let a = f.b.atan2(x, d);
    let two = f.c(2.0);
    f.b.mul(two, a)
}

fn acos(f: &mut F, x: XlaOp) -> XlaOp {
    // x != -1: 2 * atan2(sqrt(1 - x^2), 1 + x); x == -1: pi
    let s = one_minus_sq(f, x);
    let r = f.b.sqrt(s);
    let one = f.c(1.0);
    let d = f.b.add(one, x);
    let a = f.b.atan2(r, d);
    let two = f.c(2.0);
    let v = f.b.mul(two, a);
    let m1 = f.c(-1.0);
    let is_m1 = f.b.eq(x, m1);
    let pi = f.c(std::f64::consts::PI);
    let pi_b = broadcast_like(f, pi, x);
    f.b.select(is_m1, pi_b, v)
}

fn broadcast_like(f: &mut F, s: XlaOp, like: XlaOp) -> XlaOp {
    let dims =
        f.b.get_shape(like)
            .map(|s| s.dims().to_vec())
            .unwrap_or_default();
    f.b.broadcast(s, &dims)
}

/// Where exp(|x|) is about to overflow: past it sinh and cosh take exp(|x|) / 2 as
/// (exp(|x| / 2) / 2) · exp(|x| / 2), which stays finite as long as they do. Halving |x| is
/// exact, so the result carries only the exponential's error twice and two roundings (a few
/// ULP); exp(|x| - ln 2) would also carry the rounding of the shifted argument (half an ulp
/// of 88 is 24 ULP of the result in f32).
fn exp_overflow_edge(f: &mut F, x: XlaOp) -> (XlaOp, XlaOp) {
    let a = f.b.abs(x);
    let edge = f.c(match f.t {
        PrimitiveType::F64 => 709.0,
        PrimitiveType::F16 => 11.0,
        _ => 88.0,
    });
    let big = f.b.gt(a, edge);
    let h = f.c(0.5);
    let half = f.b.mul(a, h);
    let e = f.b.exp(half);
    let he = f.b.mul(e, h);
    (big, f.b.mul(he, e))
}

fn sinh(f: &mut F, x: XlaOp) -> XlaOp {
    // (expm1(x) - expm1(-x)) / 2: accurate near zero.
    let a = f.b.expm1(x);
    let nx = f.b.neg(x);
    let c = f.b.expm1(nx);
    let d = f.b.sub(a, c);
    let h = f.c(0.5);
    let small = f.b.mul(d, h);
    let (big, e) = exp_overflow_edge(f, x);
    let sign = f.b.sign(x);
    let large = f.b.mul(sign, e);
    f.b.select(big, large, small)
}

fn cosh(f: &mut F, x: XlaOp) -> XlaOp {
    // exp(x) / 2 + exp(-x) / 2, each exp within an ulp.
    let h = f.c(0.5);
    let ea = f.b.exp(x);
    let nx = f.b.neg(x);
    let ec = f.b.exp(nx);
    let a = f.b.mul(ea, h);
    let c = f.b.mul(ec, h);
    let small = f.b.add(a, c);
    let (big, e) = exp_overflow_edge(f, x);
    f.b.select(big, e, small)
}

fn asinh(f: &mut F, x: XlaOp) -> XlaOp {
    // sign(x) * (|x| large ? log(|x|) + ln 2 : log1p(|x| + x^2 / (1 + sqrt(1 + x^2))))
    let a = f.b.abs(x);
    let a2 = f.b.mul(a, a);
    let one = f.c(1.0);
    let s = f.b.add(one, a2);
    let r = f.b.sqrt(s);
    let d = f.b.add(one, r);
    let q = f.b.div(a2, d);
    let u = f.b.add(a, q);
    let small = f.b.log1p(u);
    let la = f.b.log(a);
    let l2 = f.c(std::f64::consts::LN_2);
    let large = f.b.add(la, l2);
    let big = f.c(if f.t == PrimitiveType::F64 {
        1e150
    } else {
        1e18
    });
    let is_big = f.b.gt(a, big);
    let v = f.b.select(is_big, large, small);
    let sg = f.b.sign(x);
    f.b.mul(sg, v)
}

fn acosh(f: &mut F, x: XlaOp) -> XlaOp {
    // log1p((x - 1) + sqrt(x + 1) * sqrt(x - 1)): near x = 1 the argument of log is 1 plus a
    // small term, which log(x + ...) would round away (13 ULP in f32); x - 1 is exact there.
    // log(x) + ln 2 for large x.
    let one = f.c(1.0);
    let p = f.b.add(x, one);
    let m = f.b.sub(x, one);
    let sp = f.b.sqrt(p);
    let sm = f.b.sqrt(m);
    let pr = f.b.mul(sp, sm);
    let s = f.b.add(m, pr);
    let small = f.b.log1p(s);
    let lx = f.b.log(x);
    let l2 = f.c(std::f64::consts::LN_2);
    let large = f.b.add(lx, l2);
    let big = f.c(if f.t == PrimitiveType::F64 {
        1e150
    } else {
        1e18
    });
    let is_big = f.b.gt(x, big);
    f.b.select(is_big, large, small)
}

fn atanh(f: &mut F, x: XlaOp) -> XlaOp {
    // (log1p(x) - log1p(-x)) / 2, as StableHLO decomposes it. log1p(2x / (1 - x)) rounds the
    // quotient q first and log1p magnifies that error by 1 / (1 + q), large near x = -1
    // (2.4e-6 in f32 at x = -0.9775). |x| > 1 gives NaN (log1p below -1), ±1 gives ±inf.
    let a = f.b.log1p(x);
    let nx = f.b.neg(x);
    let c = f.b.log1p(nx);
    let d = f.b.sub(a, c);
    let h = f.c(0.5);
    f.b.mul(d, h)
}

fn erf_inv(f: &mut F, x: XlaOp) -> XlaOp {
    // Giles, "Approximating the erfinv function" (single-precision coefficients).
    let s = one_minus_sq(f, x);
    let l = f.b.log(s);
    let w = f.b.neg(l);
    let five = f.c(5.0);
    let lt = f.b.lt(w, five);
    let c25 = f.c(2.5);
    let w1 = f.b.sub(w, c25);
    let p1 = f.poly(
        w1,
        &[
            2.81022636e-08,
            3.43273939e-07,
            -3.5233877e-06,
            -4.39150654e-06,
            0.00021858087,
            -0.00125372503,
            -0.00417768164,
            0.246640727,
            1.50140941,
        ],
    );
    let sw = f.b.sqrt(w);
    let three = f.c(3.0);
    let w2 = f.b.sub(sw, three);
    let p2 = f.poly(
        w2,
        &[
            -0.000200214257,
            0.000100950558,
            0.00134934322,
            -0.00367342844,
            0.00573950773,
            -0.0076224613,
            0.00943887047,
            1.00167406,
            2.83297682,
        ],
    );
    let p = f.b.select(lt, p1, p2);
    let mut r = f.b.mul(p, x);
    if f.t == PrimitiveType::F64 {
        // The polynomial is good to single precision; two Newton steps on erf(r) = x
        // (quadratic convergence) bring it to double precision, as XLA's f64 erfinv is.
        for _ in 0..2 {
            let e = f.b.erf(r);
            let d = f.b.sub(e, x);
            let r2 = f.b.mul(r, r);
            let nr2 = f.b.neg(r2);
            let g = f.b.exp(nr2);
            let k = f.c(std::f64::consts::FRAC_2_SQRT_PI);
            let slope = f.b.mul(k, g);
            let step = f.b.div(d, slope);
            let next = f.b.sub(r, step);
            // Where the slope underflows (the far tails) keep the estimate.
            let ok = f.b.is_finite(next);
            r = f.b.select(ok, next, r);
        }
    }
    // |x| == 1 gives ±inf.
    let a = f.b.abs(x);
    let one = f.c(1.0);
    let at1 = f.b.eq(a, one);
    let inf = f.c(f64::INFINITY);
    let sx = f.b.mul(x, inf);
    f.b.select(at1, sx, r)
}

const LANCZOS_G: f64 = 7.0;
const LANCZOS: [f64; 9] = [
    0.999_999_999_999_809_9,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

/// For z = x - 1 (x >= 0.5): (a, a', t) with a = c0 + Σ c_i/(z+i), a' = -Σ c_i/(z+i)^2,
/// t = z + g + 0.5.
fn lanczos(f: &mut F, z: XlaOp) -> (XlaOp, XlaOp, XlaOp) {
    let mut a = f.c(LANCZOS[0]);
    let mut da = f.c(0.0);
    for (i, &c) in LANCZOS.iter().enumerate().skip(1) {
        let ci = f.c(c);
        let k = f.c(i as f64);
        let zi = f.b.add(z, k);
        let q = f.b.div(ci, zi);
        a = f.b.add(a, q);
        let q2 = f.b.div(q, zi);
        da = f.b.sub(da, q2);
    }
    let gh = f.c(LANCZOS_G + 0.5);
    let t = f.b.add(z, gh);
    (a, da, t)
}

fn lgamma(f: &mut F, x: XlaOp) -> XlaOp {
    // Reflection for x < 0.5: lgamma(x) = log(pi) - log|sin(pi x)| - lgamma(1 - x).
    let half = f.c(0.5);
    let reflect = f.b.lt(x, half);
    let one = f.c(1.0);
    let omx = f.b.sub(one, x);
    let y = f.b.select(reflect, omx, x);
    let z = f.b.sub(y, one);
    let (a, _, t) = lanczos(f, z);
    let hl2pi = f.c(0.5 * (2.0 * std::f64::consts::PI).ln());
    let zh = f.b.add(z, half);
    let lt = f.b.log(t);
    let m = f.b.mul(zh, lt);
    let la = f.b.log(a);
    let s1 = f.b.add(hl2pi, m);
    let s2 = f.b.sub(s1, t);
    let lg = f.b.add(s2, la);
    let pi = f.c(std::f64::consts::PI);
    let px = f.b.mul(pi, x);
    let sn = f.b.sin(px);
    let asn = f.b.abs(sn);
    let lsn = f.b.log(asn);
    let lpi = f.c(std::f64::consts::PI.ln());
    let r1 = f.b.sub(lpi, lsn);
    let refl = f.b.sub(r1, lg);
    let v = f.b.select(reflect, refl, lg);
    // lgamma(±inf) = +inf, and so at the poles, the non-positive integers: sin(pi x) there is
    // not exactly 0 in the input's precision (bf16 pi x rounds far from a multiple of pi),
    // so the reflection alone gives a finite value.
    let a = f.b.abs(x);
    let inf = f.c(f64::INFINITY);
    let is_inf = f.b.eq(a, inf);
    let fl = f.b.floor(x);
    let is_int = f.b.eq(x, fl);
    let zero = f.c(0.0);
    let nonpos = f.b.le(x, zero);
    let pole = f.b.and(is_int, nonpos);
    let to_inf = f.b.or(is_inf, pole);
    let infb = broadcast_like(f, inf, x);
    f.b.select(to_inf, infb, v)
}

fn digamma(f: &mut F, x: XlaOp) -> XlaOp {
    // digamma(y) = log(t) + a'/a - g/t for y >= 0.5; reflection:
    // digamma(x) = digamma(1 - x) - pi / tan(pi x); non-positive integers give NaN.
    let half = f.c(0.5);
    let reflect = f.b.lt(x, half);
    let one = f.c(1.0);
    let omx = f.b.sub(one, x);
    let y = f.b.select(reflect, omx, x);
    let z = f.b.sub(y, one);
    let (a, da, t) = lanczos(f, z);
    let lt = f.b.log(t);
    let q = f.b.div(da, a);
    let g = f.c(LANCZOS_G);
    let gt = f.b.div(g, t);
    let s = f.b.add(lt, q);
    let d = f.b.sub(s, gt);
    let pi = f.c(std::f64::consts::PI);
    let px = f.b.mul(pi, x);
    let tn = f.b.tan(px);
    let corr = f.b.div(pi, tn);
    let refl = f.b.sub(d, corr);
    let v = f.b.select(reflect, refl, d);
    let fl = f.b.floor(x);
    let is_int = f.b.eq(x, fl);
    let zero = f.c(0.0);
    let nonpos = f.b.le(x, zero);
    let pole = f.b.and(is_int, nonpos);
    let nan = f.c(f64::NAN);
    let nanb = broadcast_like(f, nan, x);
    f.b.select(pole, nanb, v)
}

/// (2j)! / B_2j for j = 12 down to 1: the Euler–Maclaurin coefficients of the Hurwitz zeta
/// tail, highest order first.
const ZETA_EM: [f64; 12] = [
    -7.166_165_256_175_667e18,
    1.815_210_540_194_354_7e17,
    -4.597_978_722_407_473e15,
    1.164_678_281_435_006_7e14,
    -2.950_130_727_918_164e12,
    7.472_424_96e10,
    -1.892_437_580_318_379_2e9,
    47_900_160.0,
    -1_209_600.0,
    30_240.0,
    -720.0,
    12.0,
];

/// The Hurwitz zeta function zeta(x, q) = sum_{k>=0} (q + k)^-x, as XLA computes it: the first
/// ten terms summed directly, then the Euler–Maclaurin tail at w = q + 10,
///   w^(1-x) / (x-1) + w^-x / 2 + sum_{j=1..12} B_2j/(2j)! x(x+1)...(x+2j-2) w^(-x-2j+1),
/// its sum in Horner form in 1/w^2. Outside the domain: x = 1 gives +inf, x < 1 NaN; for q <= 0
/// a non-integer x gives NaN, and at the poles (integer q <= 0) an even integer x gives +inf,
/// any other x NaN.
fn zeta(f: &mut F, x: XlaOp, q: XlaOp) -> XlaOp {
    let one = f.c(1.0);
    let nx = f.b.neg(x);
    let mut a = q;
    let mut head = f.b.pow(q, nx);
    for _ in 0..9 {
        a = f.b.add(a, one);
        let p = f.b.pow(a, nx);
        head = f.b.add(head, p);
    }
    // w = q + 10
    a = f.b.add(a, one);
    let w_x = f.b.pow(a, nx);
    let xm1 = f.b.sub(x, one);
    let wa = f.b.mul(w_x, a);
    let integral = f.b.div(wa, xm1);
    let s = f.b.add(head, integral);
    let a2 = f.b.mul(a, a);
    let inv_a2 = f.b.div(one, a2);
    // Horner from the highest order: h <- (x+2k-1)(x+2k)/w^2 * (h + (2j)!/B_2j reciprocal).
    let mut h = f.c(0.0);
    for (i, &c) in ZETA_EM[..11].iter().enumerate() {
        let k1 = f.c((22 - 2 * i) as f64);
        let k2 = f.c((21 - 2 * i) as f64);
        let l = f.b.add(x, k1);
        let r = f.b.add(x, k2);
        let fac = f.b.mul(l, r);
        let cc = f.c(1.0 / c);
        let hc = f.b.add(h, cc);
        let t = f.b.mul(inv_a2, hc);
        h = f.b.mul(fac, t);
    }
    let c1 = f.c(1.0 / ZETA_EM[11]);
    let hc = f.b.add(c1, h);
    let xa = f.b.div(x, a);
    let xh = f.b.mul(xa, hc);
    let half = f.c(0.5);
    let inner = f.b.add(half, xh);
    let tail = f.b.mul(w_x, inner);
    let full = f.b.add(s, tail);
    // Where the tail is negligible next to the direct sum, the direct sum alone.
    let aw = f.b.abs(w_x);
    let ah = f.b.abs(head);
    let eps = f.c(if f.t == PrimitiveType::F64 {
        f64::MIN_POSITIVE
    } else {
        f32::MIN_POSITIVE as f64
    });
    let tiny = f.b.mul(ah, eps);
    let negligible = f.b.lt(aw, tiny);
    let mut out = f.b.select(negligible, head, full);
    let nan = f.c(f64::NAN);
    let nan = broadcast_like(f, nan, x);
    let inf = f.c(f64::INFINITY);
    let inf = broadcast_like(f, inf, x);
    let below = f.b.lt(x, one);
    out = f.b.select(below, nan, out);
    let zero = f.c(0.0);
    let q_le0 = f.b.le(q, zero);
    let fx = f.b.floor(x);
    let x_not_int = f.b.ne(x, fx);
    let domain = f.b.and(q_le0, x_not_int);
    out = f.b.select(domain, nan, out);
    let fq = f.b.floor(q);
    let q_int = f.b.eq(q, fq);
    let pole = f.b.and(q_le0, q_int);
    let x_int = f.b.eq(x, fx);
    let two = f.c(2.0);
    let xr = f.b.rem(x, two);
    let x_even = f.b.eq(xr, zero);
    let even_int = f.b.and(x_int, x_even);
    let at_pole = f.b.select(even_int, inf, nan);
    out = f.b.select(pole, at_pole, out);
    let x_one = f.b.eq(x, one);
    f.b.select(x_one, inf, out)
}

/// polygamma(n, x): digamma(x) for n = 0, else (-1)^(n+1) n! zeta(n+1, x) with n! as
/// exp(lgamma(n+1)); NaN where n is not a natural number.
fn polygamma(f: &mut F, n: XlaOp, x: XlaOp) -> XlaOp {
    let one = f.c(1.0);
    let two = f.c(2.0);
    let nr = f.b.rem(n, two);
    let nr2 = f.b.mul(two, nr);
    let sign = f.b.sub(nr2, one);
    let np1 = f.b.add(n, one);
    let lg = lgamma(f, np1);
    let fact = f.b.exp(lg);
    let z = zeta(f, np1, x);
    let sf = f.b.mul(sign, fact);
    let mut out = f.b.mul(sf, z);
    let zero = f.c(0.0);
    let n0 = f.b.eq(n, zero);
    let dg = digamma(f, x);
    out = f.b.select(n0, dg, out);
    let fl = f.b.floor(n);
    let not_int = f.b.ne(n, fl);
    let neg = f.b.lt(n, zero);
    let bad = f.b.or(not_int, neg);
    let nan = f.c(f64::NAN);
    let nan = broadcast_like(f, nan, x);
    f.b.select(bad, nan, out)
}

/// i1e(x) = exp(-|x|) I1(x). Below a cutoff (8 for f32, 20 for f64): the power series
/// I1(x) = (x/2) Σ (x²/4)^k / (k! (k+1)!), all terms positive so no cancellation; above it
/// the asymptotic expansion sign(x) / sqrt(2π|x|) Σ (-1)^k a_k / |x|^k with
/// a_k = Π_{j=1..k} (4 - (2j-1)²) / (k! 8^k).
fn bessel_i1e(f: &mut F, x: XlaOp) -> XlaOp {
    let f64_type = f.t == PrimitiveType::F64;
    let (cutoff, series_terms, asym_terms) = if f64_type {
        (20.0, 60, 24)
    } else {
        (8.0, 30, 12)
    };
    let a = f.b.abs(x);
    // Power series in y = x²/4, Horner from the highest term.
    let mut coeffs = Vec::with_capacity(series_terms);
    let (mut kf, mut k1f) = (1.0f64, 1.0f64); // k!, (k+1)!
    for k in 0..series_terms {
        if k > 0 {
            kf *= k as f64;
            k1f *= (k + 1) as f64;
        }
        coeffs.push(1.0 / (kf * k1f));
    }
    coeffs.reverse();
    let a_small = {
        let c = f.c(cutoff);
        f.b.min(a, c)
    };
    let y0 = f.b.mul(a_small, a_small);
    let q = f.c(0.25);
    let y = f.b.mul(y0, q);
    let sum = f.poly(y, &coeffs);
    let h = f.c(0.5);
    let half_x = f.b.mul(a_small, h);
    let i1 = f.b.mul(half_x, sum);
    let na = f.b.neg(a_small);
    let e = f.b.exp(na);
    let small = f.b.mul(i1, e);
    // Asymptotic expansion in t = 1/|x| (evaluated where |x| >= cutoff).
    let mut ak = vec![1.0f64];
    for k in 1..asym_terms {
        let j = (2 * k - 1) as f64;
        let prev = ak[k - 1];
        ak.push(prev * (4.0 - j * j) / (k as f64 * 8.0));
    }
    let signed: Vec<f64> = ak
        .iter()
        .enumerate()
        .map(|(k, &v)| if k % 2 == 1 { -v } else { v })
        .rev()
        .collect();
    let cut = f.c(cutoff);
    let a_big = f.b.max(a, cut);
    let one = f.c(1.0);
    let t = f.b.div(one, a_big);
    let series = f.poly(t, &signed);
    let tp = f.c(2.0 * std::f64::consts::PI);
    let tpx = f.b.mul(tp, a_big);
    let r = f.b.rsqrt(tpx);
    let big = f.b.mul(r, series);
    let is_small = f.b.lt(a, cut);
    let mag = f.b.select(is_small, small, big);
    let sg = f.b.sign(x);
    f.b.mul(sg, mag)
}

/// The high half of the full-width product of two integers.
fn mulhi(b: &mut XlaBuilder, x: XlaOp, y: XlaOp) -> Result<XlaOp> {
    use PrimitiveType::*;
    let s = b.get_shape(x)?;
    let t = s.element_type();
    let dims = s.dims().to_vec();
    let w = t.bit_width() as i64;
    if w <= 32 {
        // Widen to 64 bits, multiply, shift down by the width.
        let wide = if t.is_signed_int() { S64 } else { U64 };
        let (a, c) = (
            b.convert_element_type(x, wide),
            b.convert_element_type(y, wide),
        );
        let p = b.mul(a, c);
        let sh = b.constant_literal(&Literal::from_i64s(wide, &[], &[w])?);
        let sh = b.broadcast(sh, &dims);
        let hi = if t.is_signed_int() {
            b.shift_right_arithmetic(p, sh)
        } else {
            b.shift_right_logical(p, sh)
        };
        return Ok(b.convert_element_type(hi, t));
    }
    // 64 bits: schoolbook on 32-bit halves in u64, then the signed correction.
    let u = |b: &mut XlaBuilder, v: XlaOp| {
        if t == S64 {
            b.bitcast_convert_type(v, U64)
        } else {
            v
        }
    };
    let (a, c) = (u(b, x), u(b, y));
    let k = |b: &mut XlaBuilder, v: u64| {
        let l = b.constant(v);
        b.broadcast(l, &dims)
    };
    let (m32, s32) = (k(b, 0xFFFF_FFFF), k(b, 32));
    let (a0, c0) = (b.and(a, m32), b.and(c, m32));
    let (a1, c1) = (b.shift_right_logical(a, s32), b.shift_right_logical(c, s32));
    let p00 = b.mul(a0, c0);
    let p01 = b.mul(a0, c1);
    let p10 = b.mul(a1, c0);
    let p11 = b.mul(a1, c1);
    let p00h = b.shift_right_logical(p00, s32);
    let p01l = b.and(p01, m32);
    let p10l = b.and(p10, m32);
    let mid0 = b.add(p00h, p01l);
    let mid = b.add(mid0, p10l);
    let p01h = b.shift_right_logical(p01, s32);
    let p10h = b.shift_right_logical(p10, s32);
    let midh = b.shift_right_logical(mid, s32);
    let h0 = b.add(p11, p01h);
    let h1 = b.add(h0, p10h);
    let hi = b.add(h1, midh);
    if t != S64 {
        return Ok(hi);
    }
    // signed hi = unsigned hi - (x < 0 ? y : 0) - (y < 0 ? x : 0)
    let zero = k(b, 0);
    let zero_s = b.bitcast_convert_type(zero, S64);
    let xn = b.lt(x, zero_s);
    let yn = b.lt(y, zero_s);
    let cy = b.select(xn, c, zero);
    let cx = b.select(yn, a, zero);
    let r0 = b.sub(hi, cy);
    let r = b.sub(r0, cx);
    Ok(b.bitcast_convert_type(r, S64))
}

/// `chlo.next_after(x, y)`: the float after x in the direction of y, by stepping x's bits
/// (NaN if either is NaN, y if x == y, the smallest subnormal towards y from zero).
fn next_after(b: &mut XlaBuilder, x: XlaOp, y: XlaOp) -> Result<XlaOp> {
    let t = b.get_shape(x)?.element_type();
    let it = match t {
        PrimitiveType::F64 => PrimitiveType::S64,
        PrimitiveType::F32 => PrimitiveType::S32,
        PrimitiveType::F16 | PrimitiveType::BF16 => PrimitiveType::S16,
        _ => {
            return Err(Error::unimplemented(format!(
                "chlo.next_after on element type {t}"
            )))
        }
    };
    let dims = b.get_shape(x)?.dims().to_vec();
    // Constants of x's shape (select does not broadcast scalars).
    let bits = |b: &mut XlaBuilder, v: i64| {
        let l = Literal::from_i64s(it, &[], &[v]).expect("integer constant");
        let c = b.constant_literal(&l);
        b.broadcast(c, &dims)
    };
    let fc = |b: &mut XlaBuilder, v: f64| {
        let l = Literal::from_f64s(t, &[], &[v]).expect("float constant");
        let c = b.constant_literal(&l);
        b.broadcast(c, &dims)
    };
    let xb = b.bitcast_convert_type(x, it);
    let yb = b.bitcast_convert_type(y, it);
    let zero = fc(b, 0.0);
    let x_nan = b.ne(x, x);
    let y_nan = b.ne(y, y);
    let any_nan = b.or(x_nan, y_nan);
    let nan = fc(b, f64::NAN);
    // From zero: the smallest subnormal with y's sign.
    let width = (it.bit_width()) as i64;
    let sign_mask = bits(b, i64::MIN >> (64 - width));
    let y_sign = b.and(yb, sign_mask);
    let one = bits(b, 1);
    let from_zero_bits = b.or(y_sign, one);
    let from_zero = b.bitcast_convert_type(from_zero_bits, t);
    // Elsewhere: one step away from zero if x and y - x have the same sign, else towards it.
    let x_neg = b.lt(x, zero);
    let y_lt_x = b.lt(y, x);
    let towards_zero = b.eq(x_neg, y_lt_x);
    let towards_zero = b.not(towards_zero);
    let minus_one = bits(b, -1);
    let step = b.select(towards_zero, minus_one, one);
    let stepped_bits = b.add(xb, step);
    let stepped = b.bitcast_convert_type(stepped_bits, t);
    let x_zero = b.eq(x, zero);
    let r = b.select(x_zero, from_zero, stepped);
    let same = b.eq(x, y);
    let r = b.select(same, y, r);
    Ok(b.select(any_nan, nan, r))
}

/// Complex CHLO ops, computed on (re, im) parts: square, sinh, cosh by their part formulas;
/// the inverse functions through complex log and sqrt with the branch cuts of C99.
fn complex_op(b: &mut XlaBuilder, op: &str, z: XlaOp, t: PrimitiveType) -> Option<XlaOp> {
    let rt = t.component_type();
    let rc = |b: &mut XlaBuilder, v: f64| {
        let l = Literal::from_f64s(rt, &[], &[v]).expect("float constant");
        b.constant_literal(&l)
    };
    let cc = |b: &mut XlaBuilder, re: f64, im: f64| {
        let r = rc(b, re);
        let i = rc(b, im);
        b.complex(r, i)
    };
    let x = b.real(z);
    let y = b.imag(z);
    // i * w and -i * w.
    let times_i = |b: &mut XlaBuilder, w: XlaOp| {
        let (wr, wi) = (b.real(w), b.imag(w));
        let n = b.neg(wi);
        b.complex(n, wr)
    };
    let times_minus_i = |b: &mut XlaBuilder, w: XlaOp| {
        let (wr, wi) = (b.real(w), b.imag(w));
        let n = b.neg(wr);
        b.complex(wi, n)
    };
    // asinh(w) = log(w + sqrt(w^2 + 1)), evaluated on the right half plane (no cancellation)
    // and mirrored: asinh(-w) = -asinh(w).
    let asinh = |b: &mut XlaBuilder, w: XlaOp| {
        let wr = b.real(w);
        let zero = rc(b, 0.0);
        let neg = b.lt(wr, zero);
        let mw = b.neg(w);
        let a = b.select(neg, mw, w);
        let a2 = b.mul(a, a);
        let one = cc(b, 1.0, 0.0);
        let s = b.add(a2, one);
        let r = b.sqrt(s);
        let u = b.add(a, r);
        let l = b.log(u);
        let ml = b.neg(l);
        b.select(neg, ml, l)
    };
    let atanh = |b: &mut XlaBuilder, w: XlaOp| {
        let p = b.log1p(w);
        let nw = b.neg(w);
        let m = b.log1p(nw);
        let d = b.sub(p, m);
        let h = cc(b, 0.5, 0.0);
        b.mul(d, h)
    };
    Some(match op {
        "square" => {
            let d = b.sub(x, y);
            let s = b.add(x, y);
            let re = b.mul(d, s);
            let xy = b.mul(x, y);
            let im = b.add(xy, xy);
            b.complex(re, im)
        }
        "sinh" | "cosh" => {
            let mut f = F { b, t: rt };
            let sh = sinh(&mut f, x);
            let ch = cosh(&mut f, x);
            let (cy, sy) = (b.cos(y), b.sin(y));
            let (re, im) = if op == "sinh" {
                (b.mul(sh, cy), b.mul(ch, sy))
            } else {
                (b.mul(ch, cy), b.mul(sh, sy))
            };
            b.complex(re, im)
        }
        "asinh" => asinh(b, z),
        // asin(z) = -i asinh(i z)
        "asin" => {
            let iz = times_i(b, z);
            let a = asinh(b, iz);
            times_minus_i(b, a)
        }
        // acos(z) = pi/2 - asin(z)
        "acos" => {
            let iz = times_i(b, z);
            let a = asinh(b, iz);
            let s = times_minus_i(b, a);
            let h = cc(b, std::f64::consts::FRAC_PI_2, 0.0);
            b.sub(h, s)
        }
        // acosh(z) = log(z + sqrt(z + 1) sqrt(z - 1))
        "acosh" => {
            let one = cc(b, 1.0, 0.0);
            let p = b.add(z, one);
            let m = b.sub(z, one);
            let sp = b.sqrt(p);
            let sm = b.sqrt(m);
            let pr = b.mul(sp, sm);
            let u = b.add(z, pr);
            b.log(u)
        }
        "atanh" => atanh(b, z),
        // atan(z) = -i atanh(i z)
        "atan" => {
            let iz = times_i(b, z);
            let a = atanh(b, iz);
            times_minus_i(b, a)
        }
        "tan" => b.tan(z),
        "erf" | "erfc" | "erf_inv" | "lgamma" | "digamma" | "bessel_i1e" => return None,
        _ => return None,
    })
}
