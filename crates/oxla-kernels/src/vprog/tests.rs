use super::*;

/// A program's value at one element, one operation at a time in f32 (what the JIT's
/// scalar code computes; transcendentals through the scalar twin).
fn reference(ops: &[VOp], ins: &[Vec<f32>], e: usize) -> f32 {
    let mut v: Vec<f32> = Vec::new();
    for &op in ops {
        let x = |i: u32| v[i as usize];
        let r = match op {
            VOp::Input(k) => ins[k as usize][e],
            VOp::Scalar(k) => ins[k as usize][0],
            VOp::Const(c) => c,
            VOp::Add(a, b) => x(a) + x(b),
            VOp::Sub(a, b) => x(a) - x(b),
            VOp::Mul(a, b) => x(a) * x(b),
            VOp::Div(a, b) => x(a) / x(b),
            VOp::Neg(a) => -x(a),
            VOp::Abs(a) => x(a).abs(),
            VOp::Sqrt(a) => x(a).sqrt(),
            VOp::Rsqrt(a) => (1.0 / (x(a) as f64).sqrt()) as f32,
            VOp::RoundEven(a) => x(a).round_ties_even(),
            VOp::Func(f, a) => {
                let mut t = [x(a)];
                vmath::apply_with(VIsa::Scalar { fma: true }, f, &mut t);
                t[0]
            }
            VOp::Max(a, b) | VOp::Min(a, b) => {
                let (p, q) = (x(a), x(b));
                let max = matches!(op, VOp::Max(..));
                if p.is_nan() {
                    p
                } else if q.is_nan() {
                    q
                } else if p == q {
                    // ±0: +0 for the maximum, −0 for the minimum.
                    let (pb, qb) = (p.to_bits(), q.to_bits());
                    f32::from_bits(if max { pb & qb } else { pb | qb })
                } else if (p > q) == max {
                    p
                } else {
                    q
                }
            }
            VOp::Select(m, a, b) => {
                let (m, a, b) = (x(m).to_bits(), x(a).to_bits(), x(b).to_bits());
                f32::from_bits(b ^ ((a ^ b) & m))
            }
            VOp::CmpF(a, b, c) => {
                let (p, q) = (x(a), x(b));
                let t = match c {
                    Cmp::Eq => p == q,
                    Cmp::Ne => p != q,
                    Cmp::Lt => p < q,
                    Cmp::Le => p <= q,
                    Cmp::Gt => p > q,
                    Cmp::Ge => p >= q,
                };
                f32::from_bits(if t { u32::MAX } else { 0 })
            }
            _ => {
                let i = |k: u32| v[k as usize].to_bits() as i32;
                let r = match op {
                    VOp::IAdd(a, b) => i(a).wrapping_add(i(b)),
                    VOp::ISub(a, b) => i(a).wrapping_sub(i(b)),
                    VOp::IMul(a, b) => i(a).wrapping_mul(i(b)),
                    VOp::And(a, b) => i(a) & i(b),
                    VOp::Or(a, b) => i(a) | i(b),
                    VOp::Xor(a, b) => i(a) ^ i(b),
                    VOp::Shl(a, k) => i(a) << k,
                    VOp::ShrL(a, k) => ((i(a) as u32) >> k) as i32,
                    VOp::ShrA(a, k) => i(a) >> k,
                    VOp::XorShrL(a, k) => i(a) ^ ((i(a) as u32) >> k) as i32,
                    VOp::IDiv(a, d) => i(a) / d,
                    VOp::IRem(a, d) => i(a) % d,
                    VOp::CmpS(a, b, c) | VOp::CmpU(a, b, c) => {
                        let flip = if matches!(op, VOp::CmpU(..)) {
                            i32::MIN
                        } else {
                            0
                        };
                        let (p, q) = (i(a) ^ flip, i(b) ^ flip);
                        let t = match c {
                            Cmp::Eq => p == q,
                            Cmp::Ne => p != q,
                            Cmp::Lt => p < q,
                            Cmp::Le => p <= q,
                            Cmp::Gt => p > q,
                            Cmp::Ge => p >= q,
                        };
                        -(t as i32)
                    }
                    VOp::Strided {
                        input, div, len, ..
                    } => ins[input as usize][(e / div as usize) % len as usize].to_bits() as i32,
                    VOp::IotaCol(len) => (e % len as usize) as i32,
                    VOp::IotaRow(len) => (e / len as usize) as i32,
                    VOp::IToF(a) => {
                        v.push(i(a) as f32);
                        continue;
                    }
                    _ => unreachable!("float steps are above"),
                };
                f32::from_bits(r as u32)
            }
        };
        v.push(r);
    }
    v[v.len() - 1]
}

fn values(n: usize, seed: u32) -> Vec<f32> {
    let special = [
        f32::NAN,
        -f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.0,
        -0.0,
        1e-40,
        -3e38,
        88.5,
        -87.0,
    ];
    (0..n)
        .map(|i| {
            let h = (i as u32 ^ seed).wrapping_mul(2654435761).rotate_left(13);
            if h.is_multiple_of(7) {
                special[(h as usize / 7) % special.len()]
            } else {
                (h % 20000) as f32 / 997.0 - 10.0
            }
        })
        .collect()
}

/// GELU (tanh form) as JAX writes it, over inputs x and a scalar.
fn gelu() -> Vec<VOp> {
    use VOp::*;
    vec![
        Input(0),                  // 0 x
        Const(0.5),                // 1
        Mul(1, 0),                 // 2 0.5 x
        Const(0.044715),           // 3
        Mul(3, 0),                 // 4
        Mul(4, 0),                 // 5
        Mul(5, 0),                 // 6 c x^3
        Add(0, 6),                 // 7
        Const(0.797_884_6),        // 8
        Mul(8, 7),                 // 9
        Func(VFunc::Tanh, 9),      // 10
        Const(1.0),                // 11
        Add(11, 10),               // 12
        Mul(2, 12),                // 13
        Input(1),                  // 14 y
        Scalar(2),                 // 15 s
        Div(14, 15),               // 16
        Sub(13, 16),               // 17
        Abs(17),                   // 18
        Sqrt(18),                  // 19
        Neg(19),                   // 20
        Func(VFunc::Exp, 20),      // 21
        Func(VFunc::Logistic, 21), // 22
        Add(22, 13),               // 23
    ]
}

/// Runs `ops` with every implementation this CPU has over each element range of
/// `ranges` (an output of `n` floats) and checks each element against [`reference`]
/// (bit for bit, any NaN equal to any NaN), the elements outside the range untouched.
fn check_against_reference(ops: &[VOp], ins: &[Vec<f32>], n: usize, ranges: &[(usize, usize)]) {
    let prog = VProg::new(ops).expect("program");
    let ptrs: Vec<*const f32> = ins.iter().map(|v| v.as_ptr()).collect();
    for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
        if !isa.available() {
            continue;
        }
        for &(lo, hi) in ranges {
            let mut out = vec![-1.0f32; n];
            // SAFETY: the callers' inputs hold what `ops` reads for elements up to n.
            unsafe { prog.run_with(isa, ptrs.as_ptr(), out.as_mut_ptr(), lo, hi) };
            for (e, &got) in out.iter().enumerate() {
                let want = if (lo..hi).contains(&e) {
                    reference(ops, ins, e)
                } else {
                    -1.0
                };
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{isa:?} [{lo}, {hi}) element {e}: got {got}, want {want}"
                );
            }
        }
    }
}

#[test]
fn every_isa_matches_the_step_by_step_reference() {
    let ops = gelu();
    let n = 3 * MAX_CHUNK + 37;
    let ins = vec![values(n, 1), values(n, 2), vec![0.75f32]];
    let ranges = [(0, n), (5, 300), (MAX_CHUNK, MAX_CHUNK + 17), (n - 3, n)];
    check_against_reference(&ops, &ins, n, &ranges);
}

#[test]
fn a_streamed_output_has_the_same_bits() {
    // The GELU alone ends in a chain (its output streamed); the longer program too.
    let long = gelu();
    for ops in [&long[..14], &long[..]] {
        let prog = VProg::new(ops).expect("program").with_streamed_output();
        let last = prog.steps[ops.len() - 1].chain;
        assert!(last > 0 && last != CHAIN_MEMBER, "the last step is a chain");
        let n = 2 * MAX_CHUNK + 45;
        let ins = vec![values(n, 7), values(n, 8), vec![0.5f32]];
        let ptrs: Vec<*const f32> = ins.iter().map(|v| v.as_ptr()).collect();
        for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
            if !isa.available() {
                continue;
            }
            // The output from a cache-line boundary (streamed), and one float on (not
            // aligned for a non-temporal store).
            for extra in [0, 1] {
                for (lo, hi) in [(0, n), (5, MAX_CHUNK + 70), (n - 9, n)] {
                    let mut buf = vec![-1.0f32; n + 32];
                    let shift = buf.as_ptr().align_offset(64) + extra;
                    let out = &mut buf[shift..shift + n];
                    // SAFETY: the inputs hold n floats (the scalar one), out holds n.
                    unsafe { prog.run_with(isa, ptrs.as_ptr(), out.as_mut_ptr(), lo, hi) };
                    for (e, &got) in out.iter().enumerate() {
                        let want = if (lo..hi).contains(&e) {
                            reference(ops, &ins, e)
                        } else {
                            -1.0
                        };
                        assert!(
                            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                            "{isa:?} +{extra} [{lo}, {hi}) element {e}: {got} vs {want}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn chains_run_in_registers_with_the_steps_bits() {
    use VOp::*;
    // A chain of 21 computing steps (longer than MAX_LINKS: two chains), its value on
    // either side of subtractions and divisions, sides of every kind (an input, a
    // scalar, a constant, an earlier step's slot), a transcendental inside; a step
    // read twice (the square) and a splat-only step (no chain) break it.
    let mut ops = vec![Input(0), Input(1), Scalar(2), Const(3.0), Mul(0, 3), Neg(1)];
    let mut prev = 5u32;
    for k in 0..20u32 {
        let side = [1, 2, 3, 4][k as usize % 4];
        let op = match k % 6 {
            0 => Sub(prev, side),
            1 => Sub(side, prev),
            2 => Div(side, prev),
            3 => Func(VFunc::Tanh, prev),
            4 => Add(side, prev),
            _ => Mul(prev, side),
        };
        ops.push(op);
        prev = ops.len() as u32 - 1;
    }
    let sq = ops.len() as u32;
    ops.extend([Mul(prev, prev), Add(2, 3), Sub(sq, sq + 1), Abs(sq + 2)]);
    let prog = VProg::new(&ops).expect("program");
    let chain: Vec<u32> = prog.steps[..ops.len()].iter().map(|s| s.chain).collect();
    assert_eq!(chain[4], 0, "a step read by several is no member");
    assert_eq!(chain[5], CHAIN_MEMBER, "the chain's first step");
    assert!(chain.contains(&6), "a chain starts at step 5");
    assert!(
        chain
            .iter()
            .filter(|&&c| c > 0 && c != CHAIN_MEMBER)
            .count()
            >= 2
    );
    assert_eq!(
        chain[sq as usize + 1],
        0,
        "a splat-only step starts no chain"
    );
    let n = 2 * MAX_CHUNK + 45;
    let ins = vec![values(n, 5), values(n, 6), vec![-1.25f32]];
    let ptrs: Vec<*const f32> = ins.iter().map(|v| v.as_ptr()).collect();
    for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
        if !isa.available() {
            continue;
        }
        for (lo, hi) in [(0, n), (3, MAX_CHUNK + 70), (n - 9, n)] {
            let mut out = vec![0f32; n];
            // SAFETY: the inputs hold n floats (the scalar one), out holds n.
            unsafe { prog.run_with(isa, ptrs.as_ptr(), out.as_mut_ptr(), lo, hi) };
            for (e, &got) in out.iter().enumerate().take(hi).skip(lo) {
                let want = reference(&ops, &ins, e);
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{isa:?} [{lo}, {hi}) element {e}: got {got}, want {want}"
                );
            }
        }
    }
}

#[test]
fn operands_shared_and_slots_reused() {
    use VOp::*;
    // |y*y - z| feeds both a sqrt chain and a log; z feeds a logistic after them.
    let ops = [
        Input(0),
        Mul(0, 0),
        Input(1),
        Sub(1, 2),
        Abs(3),
        Sqrt(4),
        Scalar(2),
        Div(5, 6),
        Neg(7),
        Func(VFunc::Exp, 8),
        Func(VFunc::Log, 4),
        Add(9, 10),
        Func(VFunc::Logistic, 2),
        Sub(11, 12),
    ];
    let prog = VProg::new(&ops).expect("program");
    let n = 2 * MAX_CHUNK + 5;
    let ins = vec![values(n, 7), values(n, 8), vec![0.75f32]];
    let ptrs: Vec<*const f32> = ins.iter().map(|v| v.as_ptr()).collect();
    let mut out = vec![0f32; n];
    // SAFETY: every input holds n floats (the scalar one), out holds n.
    unsafe { prog.run(ptrs.as_ptr(), out.as_mut_ptr(), 0, n) };
    for (e, &got) in out.iter().enumerate() {
        let want = reference(&ops, &ins, e);
        assert!(
            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
            "element {e}: got {got}, want {want}"
        );
    }
}

/// Integer bit patterns as f32 lanes: extremes, small and random values.
fn ints(n: usize, seed: u32) -> Vec<f32> {
    let special = [i32::MIN, i32::MAX, -1, 0, 1, -17, 17, i32::MIN + 1];
    (0..n)
        .map(|i| {
            let h = (i as u32 ^ seed).wrapping_mul(2654435761).rotate_left(7);
            let v = if h.is_multiple_of(5) {
                special[(h as usize / 5) % special.len()]
            } else {
                h as i32
            };
            f32::from_bits(v as u32)
        })
        .collect()
}

#[test]
fn integer_steps_match_the_reference() {
    use VOp::*;
    // The matmul benches' generator (an iota hash, a remainder, a conversion) and
    // every other integer step, rows of 300 (chunks and vectors cross rows).
    let ops = [
        IotaRow(300),                                 // 0
        IotaCol(300),                                 // 1
        Const(f32::from_bits(-1640531535i32 as u32)), // 2
        IMul(0, 2),                                   // 3
        Const(f32::from_bits(-2048144777i32 as u32)), // 4
        IMul(1, 4),                                   // 5
        IAdd(3, 5),                                   // 6
        Scalar(1),                                    // 7
        IAdd(6, 7),                                   // 8
        ShrL(8, 15),                                  // 9
        Xor(8, 9),                                    // 10
        IRem(10, 17),                                 // 11
        Input(0),                                     // 12
        IDiv(12, 7),                                  // 13
        ShrA(12, 3),                                  // 14
        Shl(12, 31),                                  // 15
        And(13, 14),                                  // 16
        Or(15, 16),                                   // 17
        ISub(11, 17),                                 // 18
        IDiv(12, 1_000_003),                          // 19
        IRem(12, 65536),                              // 20
        IAdd(18, 19),                                 // 21
        Xor(21, 20),                                  // 22
        IToF(22),                                     // 23
        Const(0.5),                                   // 24
        Mul(23, 24),                                  // 25
    ];
    let prog = VProg::new(&ops).expect("program");
    let n = 2 * MAX_CHUNK + 300 + 11;
    let ins = vec![ints(n, 9), vec![f32::from_bits(12345)]];
    let ptrs: Vec<*const f32> = ins.iter().map(|v| v.as_ptr()).collect();
    for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
        if !isa.available() {
            continue;
        }
        for (lo, hi) in [(0, n), (299, 333), (3, MAX_CHUNK + 301)] {
            let mut out = vec![0f32; n];
            // SAFETY: input 0 holds n floats, input 1 one; out holds n.
            unsafe { prog.run_with(isa, ptrs.as_ptr(), out.as_mut_ptr(), lo, hi) };
            for (e, got) in out.iter().enumerate().take(hi).skip(lo) {
                let want = reference(&ops, &ins, e);
                assert_eq!(
                    got.to_bits(),
                    want.to_bits(),
                    "{isa:?} [{lo}, {hi}) element {e}"
                );
            }
        }
    }
    // Out-of-range constants are refused.
    assert!(VProg::new(&[Input(0), Shl(0, 32)]).is_none());
    assert!(VProg::new(&[Input(0), IRem(0, 1)]).is_none());
    assert!(VProg::new(&[IotaCol(15)]).is_none());
}

#[test]
fn iotas_of_rows_that_hold_whole_chunks() {
    use VOp::*;
    // Rows of 2 chunks: most chunks lie in one row (the splat-and-ramp path); ranges
    // that start inside a row give chunks that cross a row's end.
    let len = 2 * MAX_CHUNK as u32;
    let ops = [
        IotaRow(len),
        Const(f32::from_bits(1000)),
        IMul(0, 1),
        IotaCol(len),
        IAdd(2, 3),
        IToF(4),
    ];
    let prog = VProg::new(&ops).expect("program");
    let n = 3 * len as usize + 21;
    for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
        if !isa.available() {
            continue;
        }
        for (lo, hi) in [
            (0, n),
            (5, n),
            (MAX_CHUNK + 7, 2 * MAX_CHUNK + 3),
            (len as usize, n),
        ] {
            let mut out = vec![0f32; n];
            // SAFETY: the program reads no input; out holds n floats.
            unsafe { prog.run_with(isa, [].as_ptr(), out.as_mut_ptr(), lo, hi) };
            for (e, &got) in out.iter().enumerate().take(hi).skip(lo) {
                let (r, c) = (e / len as usize, e % len as usize);
                assert_eq!(
                    got,
                    (r * 1000 + c) as f32,
                    "{isa:?} [{lo}, {hi}) element {e}"
                );
            }
        }
    }
}

#[test]
fn a_xor_of_a_value_and_its_own_shift_is_one_step() {
    use VOp::*;
    let code = |p: &VProg, i: usize| p.steps[i].op[0];
    // x ^ (x >> 15), either operand order: one XorShrL step, the shift's step idle.
    for xor in [Xor(1, 2), Xor(2, 1)] {
        let ops = [Input(0), IAdd(0, 0), ShrL(1, 15), xor, IToF(3)];
        let p = VProg::new(&ops).expect("program");
        assert_eq!(VOp::decode(p.steps[3].op), Some(XorShrL(1, 15)));
        assert!(!VOp::decode(p.steps[2].op).expect("op").computes());
        let x = ints(MAX_CHUNK + 19, 4);
        let ins = [x.as_ptr()];
        let mut out = vec![0f32; x.len()];
        // SAFETY: input 0 and out hold x.len() floats.
        unsafe { p.run(ins.as_ptr(), out.as_mut_ptr(), 0, x.len()) };
        for (e, got) in out.iter().enumerate() {
            let want = reference(&ops, std::slice::from_ref(&x), e);
            assert_eq!(got.to_bits(), want.to_bits(), "element {e}");
        }
    }
    // A shift that another step also reads stays, as does a shift of another value.
    let p = VProg::new(&[Input(0), ShrL(0, 3), Xor(0, 1), IAdd(2, 1)]).expect("program");
    assert_eq!(code(&p, 2), 16);
    let p = VProg::new(&[Input(0), Input(1), ShrL(1, 3), Xor(0, 2)]).expect("program");
    assert_eq!(code(&p, 3), 16);
}

#[test]
fn the_output_may_be_an_input() {
    use VOp::*;
    let ops = [
        Input(0),
        Const(2.0),
        Mul(0, 1),
        Func(VFunc::Exp, 2),
        Add(3, 0),
    ];
    let prog = VProg::new(&ops).expect("program");
    let n = MAX_CHUNK + 9;
    let x = values(n, 3);
    let want: Vec<f32> = (0..n)
        .map(|e| reference(&ops, std::slice::from_ref(&x), e))
        .collect();
    let mut buf = x.clone();
    let ins = [buf.as_ptr()];
    // SAFETY: in place: the output is input 0 at the same positions.
    unsafe { prog.run(ins.as_ptr(), buf.as_mut_ptr(), 0, n) };
    for (e, (&g, &w)) in buf.iter().zip(&want).enumerate() {
        assert!(
            g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
            "{e}"
        );
    }
}

#[test]
fn bad_programs_are_refused_and_slots_are_reused() {
    use VOp::*;
    assert!(VProg::new(&[]).is_none());
    assert!(VProg::new(&[Input(0)]).is_none(), "computes nothing");
    assert!(
        VProg::new(&[Input(0), Add(0, 2), Const(1.0)]).is_none(),
        "later operand"
    );
    // A chain of 40 steps needs one buffer at a time.
    let mut chain = vec![Input(0)];
    for i in 0..40 {
        chain.push(Neg(i));
    }
    let p = VProg::new(&chain).expect("a chain fits");
    assert!(p.steps[..40]
        .iter()
        .all(|s| s.slot == u32::MAX || s.slot < 2));
    // Thirteen values alive at once do not fit twelve slots.
    let mut wide = vec![Input(0)];
    for _ in 0..13 {
        wide.push(Neg(0));
    }
    for i in 0..12 {
        let a = if i == 0 { 1 } else { 13 + i };
        wide.push(Add(a, 2 + i));
    }
    assert!(VProg::new(&wide).is_none());
    // Run from its bytes, aligned and at an odd address: the program's outputs.
    let q = VProg::new(&gelu()).expect("program");
    let n = 40;
    let ins = [values(n, 4), values(n, 5), vec![2.0f32]];
    let ptrs: Vec<*const f32> = ins.iter().map(|v| v.as_ptr()).collect();
    let mut want = vec![0f32; n];
    // SAFETY: inputs of n floats (and one scalar), an output of n.
    unsafe { q.run(ptrs.as_ptr(), want.as_mut_ptr(), 0, n) };
    let mut odd = vec![0u8];
    odd.extend(q.to_bytes());
    for bytes in [&q.to_bytes()[..], &odd[1..]] {
        let mut got = vec![0f32; n];
        // SAFETY: a program's bytes; inputs and output as above.
        unsafe { VProg::run_bytes(bytes.as_ptr(), ptrs.as_ptr(), got.as_mut_ptr(), 0, n) };
        let same = |(g, w): (&f32, &f32)| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan());
        assert!(got.iter().zip(&want).all(same));
    }
}

/// A bf16 program (widened input, f32 steps rounded to bf16, a bf16 transcendental, a bf16
/// output) gives every implementation's bits the portable twin's, and each step rounds as
/// `half` does, over lengths that leave every tail.
#[test]
fn bf16_program_matches_portable_and_half() {
    use half::bf16;
    let ops = [
        VOp::InputBf16(0),
        VOp::Const(0.796875),
        VOp::Mul(0, 1),
        VOp::RoundBf16(2),
        VOp::FuncBf16(VFunc::Tanh, 3),
        VOp::Add(4, 0),
        VOp::RoundBf16(5),
        VOp::FuncBf16(VFunc::Exp, 6),
        VOp::OutputBf16(7),
    ];
    let prog = VProg::new(&ops).expect("program");
    let reference = |h: u16| -> u16 {
        let x = bf16::from_bits(h).to_f32();
        let m = bf16::from_f32(x * 0.796875).to_f32();
        let t = exact_bf16(VFunc::Tanh, m);
        let a = bf16::from_f32(t + x).to_f32();
        bf16::from_f32(exact_bf16(VFunc::Exp, a)).to_bits()
    };
    for n in [1usize, 15, 17, 33, 300, 2049, 4100] {
        let xs: Vec<u16> = values(n, n as u32)
            .iter()
            .map(|v| bf16::from_f32(*v).to_bits())
            .collect();
        let inputs = [xs.as_ptr().cast::<f32>()];
        for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
            if !isa.available() {
                continue;
            }
            let mut out = vec![0u16; n];
            // SAFETY: one input and the output of n bf16 values.
            unsafe { prog.run_with(isa, inputs.as_ptr(), out.as_mut_ptr().cast(), 0, n) };
            for (i, (&x, &r)) in xs.iter().zip(&out).enumerate() {
                let want = reference(x);
                let both_nan = bf16::from_bits(r).is_nan() && bf16::from_bits(want).is_nan();
                assert!(
                    r == want || both_nan,
                    "{isa:?} n={n} [{i}] {x:#06x}: {r:#06x} != {want:#06x}"
                );
            }
        }
    }
}

/// bf16 and f16 programs of arithmetic only, whose inputs the chains read in place and
/// whose last chain stores the 16-bit output itself (`analysis::narrow_io`): every
/// implementation gives the step-by-step reference's bits, over lengths that leave every
/// tail, for whole ranges and ranges that start inside a vector, and written at an offset
/// (`VProg::run_at`).
#[test]
fn narrow_inputs_and_outputs_in_chains_match_the_reference() {
    use half::{bf16, f16};
    for f16_type in [false, true] {
        let (input, round, output) = if f16_type {
            (
                VOp::InputF16 as fn(u32) -> VOp,
                VOp::RoundF16 as fn(u32) -> VOp,
                VOp::OutputF16 as fn(u32) -> VOp,
            )
        } else {
            (
                VOp::InputBf16 as fn(u32) -> VOp,
                VOp::RoundBf16 as fn(u32) -> VOp,
                VOp::OutputBf16 as fn(u32) -> VOp,
            )
        };
        // (x * y + x) * 0.75 - y, each step rounded.
        let ops = [
            input(0),
            input(1),
            VOp::Mul(0, 1),
            round(2),
            VOp::Add(3, 0),
            round(4),
            VOp::Const(0.75),
            VOp::Mul(5, 6),
            round(7),
            VOp::Sub(8, 1),
            round(9),
            output(10),
        ];
        let prog = VProg::new(&ops).expect("program");
        let widen = |h: u16| {
            if f16_type {
                f16::from_bits(h).to_f32()
            } else {
                bf16::from_bits(h).to_f32()
            }
        };
        let rnd = |v: f32| {
            if f16_type {
                f16::from_f32(v).to_f32()
            } else {
                bf16::from_f32(v).to_f32()
            }
        };
        let bits = |v: f32| {
            if f16_type {
                f16::from_f32(v).to_bits()
            } else {
                bf16::from_f32(v).to_bits()
            }
        };
        let reference = |a: u16, b: u16| -> u16 {
            let (x, y) = (widen(a), widen(b));
            let t = rnd(x * y);
            let t = rnd(t + x);
            let t = rnd(t * 0.75);
            bits(rnd(t - y))
        };
        let is_nan = |h: u16| widen(h).is_nan();
        for n in [1usize, 15, 17, 33, 300, 2049, 4100] {
            let narrow =
                |seed: u32| -> Vec<u16> { values(n, seed).iter().map(|&v| bits(v)).collect() };
            let (xs, ys) = (narrow(n as u32), narrow(n as u32 + 7));
            let inputs = [xs.as_ptr().cast::<f32>(), ys.as_ptr().cast::<f32>()];
            for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
                if !isa.available() {
                    continue;
                }
                for lo in [0, 3.min(n - 1)] {
                    let mut out = vec![0u16; n];
                    // SAFETY: two inputs and the output of n 16-bit values.
                    unsafe { prog.run_with(isa, inputs.as_ptr(), out.as_mut_ptr().cast(), lo, n) };
                    for i in lo..n {
                        let want = reference(xs[i], ys[i]);
                        assert!(
                            out[i] == want || (is_nan(out[i]) && is_nan(want)),
                            "f16 {f16_type} {isa:?} n={n} lo={lo} [{i}]: {:#06x} != {want:#06x}",
                            out[i]
                        );
                    }
                }
            }
            // A range written at an offset into a buffer of its own.
            let lo = n / 3;
            let mut part = vec![0u16; n - lo];
            // SAFETY: the buffer holds elements [lo, n).
            unsafe { prog.run_at(inputs.as_ptr(), part.as_mut_ptr().cast(), lo, lo, n) };
            for (k, &h) in part.iter().enumerate() {
                let want = reference(xs[lo + k], ys[lo + k]);
                assert!(
                    h == want || (is_nan(h) && is_nan(want)),
                    "run_at n={n} [{}]",
                    lo + k
                );
            }
        }
    }
}

/// The f16 form of the program above, over every f16 bit pattern (NaNs, signaling ones,
/// subnormals, infinities among them): each implementation gives the reference's bits,
/// which are `oxla-elem`'s (the widening keeps a NaN's payload; each step rounds once).
#[test]
fn f16_program_matches_portable_and_half() {
    use half::f16;
    let ops = [
        VOp::InputF16(0),
        VOp::Const(0.796875),
        VOp::Mul(0, 1),
        VOp::RoundF16(2),
        VOp::FuncF16(VFunc::Tanh, 3),
        VOp::Add(4, 0),
        VOp::RoundF16(5),
        VOp::FuncF16(VFunc::Logistic, 6),
        VOp::Neg(7),
        VOp::RoundF16(8),
        VOp::OutputF16(9),
    ];
    let prog = VProg::new(&ops).expect("program");
    let reference = |h: u16| -> u16 {
        let x = f16::from_bits(h).to_f32();
        let m = f16::from_f32(x * 0.796875).to_f32();
        let t = exact_f16(VFunc::Tanh, m);
        let a = f16::from_f32(t + x).to_f32();
        f16::from_f32(-exact_f16(VFunc::Logistic, a)).to_bits()
    };
    let xs: Vec<u16> = (0..=u16::MAX).collect();
    let inputs = [xs.as_ptr().cast::<f32>()];
    for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
        if !isa.available() {
            continue;
        }
        for (lo, hi) in [(0usize, xs.len()), (3, 40), (17, 2100)] {
            let mut out = vec![0u16; xs.len()];
            // SAFETY: one input and the output of xs.len() f16 values.
            unsafe { prog.run_with(isa, inputs.as_ptr(), out.as_mut_ptr().cast(), lo, hi) };
            for i in lo..hi {
                let (x, r, want) = (xs[i], out[i], reference(xs[i]));
                let both_nan = f16::from_bits(r).is_nan() && f16::from_bits(want).is_nan();
                assert!(
                    r == want || both_nan,
                    "{isa:?} [{i}] {x:#06x}: {r:#06x} != {want:#06x}"
                );
            }
        }
    }
}

/// f16 widening keeps every NaN's bits (signaling ones too) and rounding and storing give
/// `half`'s bits, at every width, for every f16 and a spread of f32 values.
#[test]
fn f16_lanes_match_the_portable_twin() {
    fn check<V: Io>() {
        let hs: Vec<u16> = (0..=u16::MAX).collect();
        let mut wide = vec![0f32; hs.len()];
        let mut want = vec![0f32; hs.len()];
        for i in (0..hs.len()).step_by(V::W) {
            // SAFETY: hs and wide hold 65536 values, a multiple of W.
            unsafe {
                V::load_f16(hs.as_ptr().add(i)).store(wide.as_mut_ptr().add(i));
            }
        }
        for (i, &h) in hs.iter().enumerate() {
            // SAFETY: one value each.
            unsafe { Portable::load_f16(&h).store(&mut want[i]) };
            assert_eq!(wide[i].to_bits(), want[i].to_bits(), "load {h:#06x}");
            let keep = f32::from_bits(oxla_f16_bits(h));
            assert_eq!(wide[i].to_bits(), keep.to_bits(), "load {h:#06x}");
        }
        let fs: Vec<f32> = (0..1u32 << 16)
            .map(|k| f32::from_bits(k.wrapping_mul(0x9e37_79b9) ^ (k << 7)))
            .collect();
        for i in (0..fs.len()).step_by(V::W) {
            // SAFETY: fs holds a multiple of W floats.
            let v = unsafe { V::load(fs.as_ptr().add(i)) }.round_f16();
            let mut r = [0f32; 16];
            let mut h = [0u16; 16];
            // SAFETY: at most 16 lanes.
            unsafe {
                v.store(r.as_mut_ptr());
                v.store_f16(h.as_mut_ptr());
            }
            for k in 0..V::W {
                let x = fs[i + k];
                let want = half::f16::from_f32(x);
                assert!(
                    r[k].to_bits() == want.to_f32().to_bits(),
                    "round {:#010x}",
                    x.to_bits()
                );
                assert_eq!(h[k], want.to_bits(), "store {:#010x}", x.to_bits());
            }
        }
    }
    /// `oxla-elem`'s widening: a NaN's sign and payload kept as they are.
    fn oxla_f16_bits(h: u16) -> u32 {
        let h = h as u32;
        if h & 0x7c00 == 0x7c00 && h & 0x3ff != 0 {
            (h & 0x8000) << 16 | 0x7f80_0000 | (h & 0x3ff) << 13
        } else {
            half::f16::from_bits(h as u16).to_f32().to_bits()
        }
    }
    check::<Portable>();
    #[cfg(target_arch = "x86_64")]
    {
        if VIsa::Avx512.available() {
            // SAFETY: the CPU has AVX-512F.
            unsafe { avx512(check::<crate::vmath::x86::Z>) };
        }
        if VIsa::Avx2.available() {
            // SAFETY: the CPU has AVX2, FMA and F16C.
            unsafe { avx2(check::<crate::vmath::x86::Y>) };
        }
    }
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn avx512(f: fn()) {
        f()
    }
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma,f16c")]
    unsafe fn avx2(f: fn()) {
        f()
    }
}

/// Rounding to bf16 gives `half`'s bits at every width and by the CPU's conversion
/// (`vcvtneps2bf16`, which reads subnormals as zero: those lanes are redone), for every bf16
/// value's neighbourhood: each top half with low halves at and around the rounding points.
#[test]
fn bf16_rounding_matches_half_at_every_width() {
    fn check<V: Io, const HW: bool>() {
        let lows = [0u32, 1, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x1234];
        let xs: Vec<f32> = (0..1u32 << 16)
            .flat_map(|t| lows.iter().map(move |&l| f32::from_bits(t << 16 | l)))
            .collect();
        for i in (0..xs.len()).step_by(V::W) {
            // SAFETY: xs holds a multiple of W floats.
            let v = lanes::round_bf16::<V, HW>(unsafe { V::load(xs.as_ptr().add(i)) });
            let mut r = [0f32; 16];
            // SAFETY: at most 16 lanes.
            unsafe { v.store(r.as_mut_ptr()) };
            for k in 0..V::W {
                let x = xs[i + k];
                let want = half::bf16::from_f32(x).to_f32();
                assert_eq!(r[k].to_bits(), want.to_bits(), "{:#010x}", x.to_bits());
            }
        }
    }
    check::<Portable, false>();
    #[cfg(target_arch = "x86_64")]
    {
        if VIsa::Avx512.available() {
            // SAFETY: the CPU has AVX-512F.
            unsafe { avx512(check::<crate::vmath::x86::Z, false>) };
            if x86::hw_bf16() {
                // SAFETY: the CPU has AVX-512F, AVX512DQ and AVX512_BF16.
                unsafe { avx512_bf16(check::<crate::vmath::x86::Z, true>) };
            }
        }
        if VIsa::Avx2.available() {
            // SAFETY: the CPU has AVX2, FMA and F16C.
            unsafe { avx2(check::<crate::vmath::x86::Y, false>) };
        }
    }
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn avx512(f: fn()) {
        f()
    }
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512dq,avx512bf16")]
    unsafe fn avx512_bf16(f: fn()) {
        f()
    }
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma,f16c")]
    unsafe fn avx2(f: fn()) {
        f()
    }
}

/// Maximum, minimum, comparisons and selects (as integer bit steps): a clamped softplus,
/// select(x != x, x, max(x, 0) + log1p(exp(-|x|))) clamped to [0, 4], and integer selects
/// on signed and unsigned comparisons, at every width against the step-by-step reference
/// (NaNs of both signs, ±0 and infinities among the inputs).
#[test]
fn selects_comparisons_max_and_min_match_the_reference() {
    use VOp::*;
    let mut ops = vec![
        Input(0),              // 0 x
        Const(0.0),            // 1
        Max(0, 1),             // 2
        Abs(0),                // 3
        Neg(3),                // 4
        Func(VFunc::Exp, 4),   // 5
        Func(VFunc::Log1p, 5), // 6
        Add(2, 6),             // 7 softplus
        CmpF(0, 0, Cmp::Ne),   // 8 x is NaN
        Select(8, 0, 7),       // 9 x where NaN, else softplus
        Const(-2.5),           // 10
        Select(8, 10, 9),      // 11 a splat where NaN
        Max(1, 11),            // 12 clamp below by 0
        Const(4.0),            // 13
        Min(13, 12),           // 14 and above by 4
        Input(1),              // 15 y
        Min(15, 0),            // 16
        Max(16, 15),           // 17
        Add(14, 17),           // 18
    ];
    for c in [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge] {
        let m = ops.len() as u32;
        ops.push(CmpF(0, 15, c));
        ops.push(And(m, 0));
        ops.push(Add(18, m + 1));
    }
    let n = 2 * MAX_CHUNK + 29;
    let ins = vec![values(n, 5), values(n, 6), values(n, 7)];
    let ptrs: Vec<*const f32> = ins.iter().map(|v| v.as_ptr()).collect();
    // Integer lanes: inputs 0 and 1's bits compared both ways, selecting input 2's bits.
    let mut iops = vec![Input(0), Input(1), Input(2), Const(0.0)];
    let mut acc = 3u32;
    for (k, c) in [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge]
        .into_iter()
        .enumerate()
    {
        let m = iops.len() as u32;
        iops.push(if k % 2 == 0 {
            CmpS(0, 1, c)
        } else {
            CmpU(0, 1, c)
        });
        iops.push(if k % 2 == 0 {
            CmpU(1, 0, c)
        } else {
            CmpS(1, 0, c)
        });
        iops.push(Xor(m, m + 1));
        iops.push(And(m + 2, 2));
        iops.push(IAdd(acc, m + 3));
        acc = m + 4;
    }
    // Selects of every mix of pointer and splat operands (a mask of splats is a splat).
    let mut sops = vec![Input(0), Input(1), Input(2), Const(0.0)];
    let mut acc = 3u32;
    let (c7, c9) = (4, 5);
    sops.extend([Const(7.0), Const(-9.0)]);
    let splat_mask = sops.len() as u32;
    sops.push(CmpS(c7, c9, Cmp::Gt));
    let mask = sops.len() as u32;
    sops.push(CmpS(0, 2, Cmp::Lt));
    for (m, a, b) in [
        (mask, 1, 2),
        (mask, 1, c7),
        (mask, c9, 2),
        (mask, c7, c9),
        (splat_mask, 1, 2),
        (splat_mask, 1, c9),
        (splat_mask, c7, 2),
        (splat_mask, c7, c9),
    ] {
        let k = sops.len() as u32;
        sops.push(Select(m, a, b));
        sops.push(IAdd(acc, k));
        acc = k + 1;
    }
    for ops in [&ops, &iops, &sops] {
        let prog = VProg::new(ops).expect("program");
        for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
            if !isa.available() {
                continue;
            }
            let mut out = vec![0f32; n];
            // SAFETY: three inputs of n floats; the output as long.
            unsafe { prog.run_with(isa, ptrs.as_ptr(), out.as_mut_ptr(), 0, n) };
            for (e, &got) in out.iter().enumerate() {
                let want = reference(ops, &ins, e);
                assert!(
                    got.to_bits() == want.to_bits(),
                    "{isa:?} element {e}: got {got} ({:#x}), want {want} ({:#x})",
                    got.to_bits(),
                    want.to_bits()
                );
            }
        }
    }
}

#[test]
fn strided_inputs_read_rows_columns_and_runs_between() {
    // exp(x - row) / (col + 2) * mid: a row value (one per `row` elements), a column value
    // (`col` values repeating) and one of a dimension between (`mid` values, each `row`
    // elements, repeating): shorter than a vector, than a chunk, and longer.
    use VOp::*;
    for (row, col, mid) in [
        (3u32, 3u32, 4u32),
        (16, 16, 2),
        (256, 256, 3),
        (300, 300, 2),
        (4096, 4096, 2),
    ] {
        let n = (3 * row * mid) as usize + 5 * row as usize;
        let rows = n.div_ceil(row as usize) as u32;
        let ops = [
            Input(0),
            Strided {
                input: 1,
                div: row,
                len: rows,
                kind: STRIDED_32,
            },
            Sub(0, 1),
            Func(VFunc::Exp, 2),
            Strided {
                input: 2,
                div: 1,
                len: col,
                kind: STRIDED_32,
            },
            Const(2.0),
            Add(4, 5),
            Div(3, 6),
            Strided {
                input: 3,
                div: row,
                len: mid,
                kind: STRIDED_32,
            },
            Mul(7, 8),
        ];
        let ins = vec![
            values(n, 3),
            values(rows as usize, 4),
            values(col as usize, 5),
            values(mid as usize, 6),
        ];
        let ranges = [(0, n), (1, n - 1), (row as usize + 1, 2 * row as usize + 3)];
        check_against_reference(&ops, &ins, n, &ranges);
    }
}

#[test]
fn narrow_strided_inputs_widen_as_inputs_do() {
    use half::{bf16, f16};
    use VOp::*;
    for kind in [STRIDED_BF16, STRIDED_F16] {
        // A row value (every 40 elements) and a column value (40 repeating).
        for (div, len) in [(40u32, 100u32), (1, 40), (1, 300)] {
            let ops = [
                Input(0),
                Strided {
                    input: 1,
                    div,
                    len,
                    kind,
                },
                Mul(0, 1),
            ];
            let prog = VProg::new(&ops).expect("program");
            let n = 4000;
            let xs = values(n, 9);
            let vals: Vec<u16> = values(len as usize, 10)
                .iter()
                .map(|&v| {
                    if kind == STRIDED_BF16 {
                        bf16::from_f32(v).to_bits()
                    } else {
                        f16::from_f32(v).to_bits()
                    }
                })
                .collect();
            let ptrs = [xs.as_ptr(), vals.as_ptr().cast::<f32>()];
            for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
                if !isa.available() {
                    continue;
                }
                let mut out = vec![0f32; n];
                // SAFETY: x holds n floats, the values `len` narrow ones.
                unsafe { prog.run_with(isa, ptrs.as_ptr(), out.as_mut_ptr(), 0, n) };
                for (e, &got) in out.iter().enumerate() {
                    let h = vals[(e / div as usize) % len as usize];
                    let r = if kind == STRIDED_BF16 {
                        bf16::from_bits(h).to_f32()
                    } else {
                        f16::from_bits(h).to_f32()
                    };
                    let want = xs[e] * r;
                    assert!(
                        got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                        "{isa:?} kind {kind} ({div}, {len}) element {e}: got {got}, want {want}"
                    );
                }
            }
        }
    }
}

#[test]
fn rsqrt_matches_f64_and_rounds_once_for_narrow_types() {
    use half::{bf16, f16};
    // Every f16 and bf16 input: the f32 step rounded to the narrow type is the f64 value
    // rounded once (the interpreter's), so a narrow rsqrt is the step and a rounding.
    let mut xs: Vec<f32> = (0..=u16::MAX)
        .map(|h| bf16::from_bits(h).to_f32())
        .collect();
    xs.extend((0..=u16::MAX).map(|h| f16::from_bits(h).to_f32()));
    xs.extend(values(5000, 11));
    let n = xs.len();
    let ops = [VOp::Input(0), VOp::Rsqrt(0)];
    let prog = VProg::new(&ops).expect("program");
    for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
        if !isa.available() {
            continue;
        }
        let mut out = vec![0f32; n];
        let ptrs = [xs.as_ptr()];
        // SAFETY: one input and the output of n floats.
        unsafe { prog.run_with(isa, ptrs.as_ptr(), out.as_mut_ptr(), 0, n) };
        for (i, (&x, &got)) in xs.iter().zip(&out).enumerate() {
            let exact = 1.0 / (x as f64).sqrt();
            let want = exact as f32;
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{isa:?} rsqrt({x}): {got} != {want}"
            );
            if i < 1 << 16 {
                assert_eq!(
                    bf16::from_f32(got).to_bits(),
                    bf16::from_f64(exact).to_bits(),
                    "bf16 rsqrt({x})"
                );
            } else if i < 1 << 17 {
                assert_eq!(
                    f16::from_f32(got).to_bits(),
                    f16::from_f64(exact).to_bits(),
                    "f16 rsqrt({x})"
                );
            }
        }
    }
}

#[test]
fn outputs_of_splats_and_of_inputs_are_written() {
    // A program of constants only (a select of a comparison of constants, as JAX's
    // betainc has inside a loop), and one whose output is a row value: every step's values
    // are splats or an input's own memory, and the output must still be written.
    use VOp::*;
    let constants = [
        Const(0.0),
        CmpS(0, 0, Cmp::Eq),
        Const(0.0),
        Const(1.0),
        Xor(2, 3),
        And(4, 1),
        Xor(3, 5),
        Abs(6),
    ];
    let row = [
        Strided {
            input: 0,
            div: 300,
            len: 10,
            kind: STRIDED_32,
        },
        Const(2.0),
        Mul(0, 1),
    ];
    let column = [Strided {
        input: 0,
        div: 1,
        len: 3000,
        kind: STRIDED_32,
    }];
    let xs = values(3000, 12);
    for ops in [&constants[..], &row[..], &column[..]] {
        check_against_reference(
            ops,
            std::slice::from_ref(&xs),
            3000,
            &[(0, 3000), (7, 2500)],
        );
    }
}

#[test]
fn quantization_rounds_to_even_and_converts_to_bytes() {
    // clamp(round_even(x * 40), lo, hi) as s8 / u8, and the conversion alone of values out
    // of range, of ±inf, NaN and halves (ties to even).
    use VOp::*;
    let mut xs = values(5000, 13);
    xs.extend([
        0.5, 1.5, 2.5, -0.5, -2.5, 300.0, -300.0, 127.9, -128.9, 255.5,
    ]);
    let n = xs.len();
    for signed in [true, false] {
        let (lo, hi) = if signed {
            (-128.0, 127.0)
        } else {
            (0.0, 255.0)
        };
        let clamped = [
            Input(0),
            Const(40.0),
            Mul(0, 1),
            RoundEven(2),
            Const(lo),
            Max(4, 3),
            Const(hi),
            Min(6, 5),
            OutputI8(7, signed),
        ];
        let bare = [Input(0), RoundEven(0), OutputI8(1, signed)];
        for ops in [&clamped[..], &bare[..]] {
            let prog = VProg::new(ops).expect("program");
            for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
                if !isa.available() {
                    continue;
                }
                let mut out = vec![0xaau8; n];
                let ptrs = [xs.as_ptr()];
                // SAFETY: one input of n floats, the output of n bytes.
                unsafe { prog.run_with(isa, ptrs.as_ptr(), out.as_mut_ptr().cast(), 0, n) };
                for (e, &got) in out.iter().enumerate() {
                    let v = reference(&ops[..ops.len() - 1], std::slice::from_ref(&xs), e);
                    let want = if signed { v as i8 as u8 } else { v as u8 };
                    assert_eq!(got, want, "{isa:?} signed {signed} x = {}", xs[e]);
                }
            }
        }
    }
}
