//! `cargo run --release -p oxla-kernels --example fma_ceiling` measures, on one thread, how
//! close to the FMA peak a GEMM microkernel's instruction mix can run on this CPU, with
//! no memory traffic beyond L1: the same FMAs with register operands only (what
//! `limits.c` calls the peak), then with the loads a k step of the AVX-512 12x32 kernel
//! issues (2 vector loads of B and 12 broadcasts of A per 24 FMAs) feeding them as in the
//! kernel, the same loads into registers no FMA reads, broadcasts only, and 14 plain
//! 64-bit loads (loads as such, not their width or kind); and the AVX2 6x16 kernel's mix
//! (2 loads and 6 broadcasts per 12 FMAs, feeding them). Every load hits one L1 line.
//! What the loads cost here bounds any GEMM built on these kernels below the register-only
//! peak, before packing, caches or threads (docs/BENCH.md compares the whole GEMM with that
//! peak; the measurements of these mixes are in its history, `git log -p docs/BENCH.md`).

#[cfg(target_arch = "x86_64")]
mod probe {
    use std::arch::asm;
    use std::time::Instant;

    /// Runs `f(iters)` five times and returns the best GFLOPS for `flops` per iteration.
    fn best(flops: usize, f: &dyn Fn(usize)) -> f64 {
        let iters = 20_000_000usize;
        let mut t = f64::MAX;
        for _ in 0..5 {
            let s = Instant::now();
            f(iters);
            t = t.min(s.elapsed().as_secs_f64());
        }
        (iters * flops) as f64 / t / 1e9
    }

    /// 24 zmm FMAs per iteration into zmm0..zmm23 from zmm24/25 (B) and zmm28/29 (A), with
    /// the loads `$loads` inserted (each an asm line) ahead of them.
    macro_rules! zmm_loop {
        ($name:ident, [$($load:literal),*]) => {
            #[target_feature(enable = "avx512f")]
            unsafe fn $name(n: usize, p: *const f32) {
                // SAFETY: the loads read `p`'s first 64 bytes, which the caller provides.
                unsafe {
                    asm!(
                        "vxorps xmm24, xmm24, xmm24", "vxorps xmm25, xmm25, xmm25",
                        "vxorps xmm28, xmm28, xmm28", "vxorps xmm29, xmm29, xmm29",
                        "mov {x}, {p}",
                        "2:",
                        $($load,)*
                        "vfmadd231ps zmm0, zmm24, zmm28", "vfmadd231ps zmm1, zmm25, zmm28",
                        "vfmadd231ps zmm2, zmm24, zmm29", "vfmadd231ps zmm3, zmm25, zmm29",
                        "vfmadd231ps zmm4, zmm24, zmm28", "vfmadd231ps zmm5, zmm25, zmm28",
                        "vfmadd231ps zmm6, zmm24, zmm29", "vfmadd231ps zmm7, zmm25, zmm29",
                        "vfmadd231ps zmm8, zmm24, zmm28", "vfmadd231ps zmm9, zmm25, zmm28",
                        "vfmadd231ps zmm10, zmm24, zmm29", "vfmadd231ps zmm11, zmm25, zmm29",
                        "vfmadd231ps zmm12, zmm24, zmm28", "vfmadd231ps zmm13, zmm25, zmm28",
                        "vfmadd231ps zmm14, zmm24, zmm29", "vfmadd231ps zmm15, zmm25, zmm29",
                        "vfmadd231ps zmm16, zmm24, zmm28", "vfmadd231ps zmm17, zmm25, zmm28",
                        "vfmadd231ps zmm18, zmm24, zmm29", "vfmadd231ps zmm19, zmm25, zmm29",
                        "vfmadd231ps zmm20, zmm24, zmm28", "vfmadd231ps zmm21, zmm25, zmm28",
                        "vfmadd231ps zmm22, zmm24, zmm29", "vfmadd231ps zmm23, zmm25, zmm29",
                        "dec {n}", "jnz 2b",
                        n = inout(reg) n => _, p = in(reg) p, x = out(reg) _,
                        out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
                        out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
                        out("zmm8") _, out("zmm9") _, out("zmm10") _, out("zmm11") _,
                        out("zmm12") _, out("zmm13") _, out("zmm14") _, out("zmm15") _,
                        out("zmm16") _, out("zmm17") _, out("zmm18") _, out("zmm19") _,
                        out("zmm20") _, out("zmm21") _, out("zmm22") _, out("zmm23") _,
                        out("zmm24") _, out("zmm25") _, out("zmm28") _, out("zmm29") _,
                        options(nostack, readonly),
                    );
                }
            }
        };
    }

    /// The AVX2 twin: 12 ymm FMAs into ymm0..ymm11 from ymm12/13 (B) and ymm14/15 (A).
    macro_rules! ymm_loop {
        ($name:ident, [$($load:literal),*]) => {
            #[target_feature(enable = "avx2,fma")]
            unsafe fn $name(n: usize, p: *const f32) {
                // SAFETY: the loads read `p`'s first 64 bytes, which the caller provides.
                unsafe {
                    asm!(
                        "vxorps ymm12, ymm12, ymm12", "vxorps ymm13, ymm13, ymm13",
                        "vxorps ymm14, ymm14, ymm14", "vxorps ymm15, ymm15, ymm15",
                        "mov {x}, {p}",
                        "2:",
                        $($load,)*
                        "vfmadd231ps ymm0, ymm12, ymm14", "vfmadd231ps ymm1, ymm13, ymm14",
                        "vfmadd231ps ymm2, ymm12, ymm15", "vfmadd231ps ymm3, ymm13, ymm15",
                        "vfmadd231ps ymm4, ymm12, ymm14", "vfmadd231ps ymm5, ymm13, ymm14",
                        "vfmadd231ps ymm6, ymm12, ymm15", "vfmadd231ps ymm7, ymm13, ymm15",
                        "vfmadd231ps ymm8, ymm12, ymm14", "vfmadd231ps ymm9, ymm13, ymm14",
                        "vfmadd231ps ymm10, ymm12, ymm15", "vfmadd231ps ymm11, ymm13, ymm15",
                        "dec {n}", "jnz 2b",
                        n = inout(reg) n => _, p = in(reg) p, x = out(reg) _,
                        out("ymm0") _, out("ymm1") _, out("ymm2") _, out("ymm3") _,
                        out("ymm4") _, out("ymm5") _, out("ymm6") _, out("ymm7") _,
                        out("ymm8") _, out("ymm9") _, out("ymm10") _, out("ymm11") _,
                        out("ymm12") _, out("ymm13") _, out("ymm14") _, out("ymm15") _,
                        options(nostack, readonly),
                    );
                }
            }
        };
    }

    // The loads never feed the FMAs' operands (a load into zmm26/27 or a scalar register):
    // what is measured is their cost to the FMA stream, not a dependency.
    zmm_loop!(zmm_regs, []);
    zmm_loop!(
        zmm_kernel_12x32,
        [
            "vmovups zmm26, [{p}]",
            "vmovups zmm27, [{p}]",
            "vbroadcastss zmm26, [{p}]",
            "vbroadcastss zmm27, [{p}+4]",
            "vbroadcastss zmm26, [{p}+8]",
            "vbroadcastss zmm27, [{p}+12]",
            "vbroadcastss zmm26, [{p}+16]",
            "vbroadcastss zmm27, [{p}+20]",
            "vbroadcastss zmm26, [{p}+24]",
            "vbroadcastss zmm27, [{p}+28]",
            "vbroadcastss zmm26, [{p}+32]",
            "vbroadcastss zmm27, [{p}+36]",
            "vbroadcastss zmm26, [{p}+40]",
            "vbroadcastss zmm27, [{p}+44]"
        ]
    );
    zmm_loop!(
        zmm_broadcasts_12,
        [
            "vbroadcastss zmm26, [{p}]",
            "vbroadcastss zmm27, [{p}+4]",
            "vbroadcastss zmm26, [{p}+8]",
            "vbroadcastss zmm27, [{p}+12]",
            "vbroadcastss zmm26, [{p}+16]",
            "vbroadcastss zmm27, [{p}+20]",
            "vbroadcastss zmm26, [{p}+24]",
            "vbroadcastss zmm27, [{p}+28]",
            "vbroadcastss zmm26, [{p}+32]",
            "vbroadcastss zmm27, [{p}+36]",
            "vbroadcastss zmm26, [{p}+40]",
            "vbroadcastss zmm27, [{p}+44]"
        ]
    );
    zmm_loop!(
        zmm_scalar_loads_14,
        [
            "mov {x}, [{p}]",
            "mov {x}, [{p}+8]",
            "mov {x}, [{p}+16]",
            "mov {x}, [{p}+24]",
            "mov {x}, [{p}+32]",
            "mov {x}, [{p}+40]",
            "mov {x}, [{p}+48]",
            "mov {x}, [{p}+56]",
            "mov {x}, [{p}]",
            "mov {x}, [{p}+8]",
            "mov {x}, [{p}+16]",
            "mov {x}, [{p}+24]",
            "mov {x}, [{p}+32]",
            "mov {x}, [{p}+40]"
        ]
    );
    ymm_loop!(ymm_regs, []);
    ymm_loop!(
        ymm_kernel_6x16,
        [
            "vmovups ymm12, [{p}]",
            "vmovups ymm13, [{p}+32]",
            "vbroadcastss ymm14, [{p}]",
            "vbroadcastss ymm15, [{p}+4]",
            "vbroadcastss ymm14, [{p}+8]",
            "vbroadcastss ymm15, [{p}+12]",
            "vbroadcastss ymm14, [{p}+16]",
            "vbroadcastss ymm15, [{p}+20]"
        ]
    );

    /// One k step of the 12x32 kernel as it runs: B's two vectors loaded into the FMAs'
    /// B registers, each A broadcast into an A register right before its two FMAs (loads
    /// feeding the FMAs, as in the microkernel), at one address.
    #[target_feature(enable = "avx512f")]
    unsafe fn zmm_kernel_fed(n: usize, p: *const f32) {
        // SAFETY: the loads read `p`'s first 64 bytes, which the caller provides.
        unsafe {
            asm!(
                "2:",
                "vmovups zmm24, [{p}]", "vmovups zmm25, [{p}]",
                "vbroadcastss zmm28, [{p}]",
                "vfmadd231ps zmm0, zmm24, zmm28", "vfmadd231ps zmm1, zmm25, zmm28",
                "vbroadcastss zmm29, [{p}+4]",
                "vfmadd231ps zmm2, zmm24, zmm29", "vfmadd231ps zmm3, zmm25, zmm29",
                "vbroadcastss zmm28, [{p}+8]",
                "vfmadd231ps zmm4, zmm24, zmm28", "vfmadd231ps zmm5, zmm25, zmm28",
                "vbroadcastss zmm29, [{p}+12]",
                "vfmadd231ps zmm6, zmm24, zmm29", "vfmadd231ps zmm7, zmm25, zmm29",
                "vbroadcastss zmm28, [{p}+16]",
                "vfmadd231ps zmm8, zmm24, zmm28", "vfmadd231ps zmm9, zmm25, zmm28",
                "vbroadcastss zmm29, [{p}+20]",
                "vfmadd231ps zmm10, zmm24, zmm29", "vfmadd231ps zmm11, zmm25, zmm29",
                "vbroadcastss zmm28, [{p}+24]",
                "vfmadd231ps zmm12, zmm24, zmm28", "vfmadd231ps zmm13, zmm25, zmm28",
                "vbroadcastss zmm29, [{p}+28]",
                "vfmadd231ps zmm14, zmm24, zmm29", "vfmadd231ps zmm15, zmm25, zmm29",
                "vbroadcastss zmm28, [{p}+32]",
                "vfmadd231ps zmm16, zmm24, zmm28", "vfmadd231ps zmm17, zmm25, zmm28",
                "vbroadcastss zmm29, [{p}+36]",
                "vfmadd231ps zmm18, zmm24, zmm29", "vfmadd231ps zmm19, zmm25, zmm29",
                "vbroadcastss zmm28, [{p}+40]",
                "vfmadd231ps zmm20, zmm24, zmm28", "vfmadd231ps zmm21, zmm25, zmm28",
                "vbroadcastss zmm29, [{p}+44]",
                "vfmadd231ps zmm22, zmm24, zmm29", "vfmadd231ps zmm23, zmm25, zmm29",
                "dec {n}", "jnz 2b",
                n = inout(reg) n => _, p = in(reg) p,
                out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
                out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
                out("zmm8") _, out("zmm9") _, out("zmm10") _, out("zmm11") _,
                out("zmm12") _, out("zmm13") _, out("zmm14") _, out("zmm15") _,
                out("zmm16") _, out("zmm17") _, out("zmm18") _, out("zmm19") _,
                out("zmm20") _, out("zmm21") _, out("zmm22") _, out("zmm23") _,
                out("zmm24") _, out("zmm25") _, out("zmm28") _, out("zmm29") _,
                options(nostack, readonly),
            );
        }
    }

    pub fn run() {
        let line = [1.0f32; 16];
        let p = line.as_ptr();
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY (each call): the CPU has AVX-512F; `p` holds 64 bytes.
            let peak = best(24 * 32, &|n| unsafe { zmm_regs(n, p) });
            println!("avx512  24 FMAs, registers only             {peak:6.1} GFLOPS  (peak)");
            let rows: [(&str, &dyn Fn(usize)); 4] = [
                ("+ the 12x32 kernel's loads, feeding them", &|n| unsafe {
                    zmm_kernel_fed(n, p)
                }),
                ("+ the same loads, feeding nothing", &|n| unsafe {
                    zmm_kernel_12x32(n, p)
                }),
                ("+ 12 broadcasts", &|n| unsafe { zmm_broadcasts_12(n, p) }),
                ("+ 14 scalar loads", &|n| unsafe {
                    zmm_scalar_loads_14(n, p)
                }),
            ];
            for (name, f) in rows {
                let g = best(24 * 32, f);
                println!(
                    "avx512  24 FMAs {name:<42} {g:6.1} GFLOPS  {:5.1}% of peak",
                    100.0 * g / peak
                );
            }
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY (each call): the CPU has AVX2 and FMA; `p` holds 64 bytes.
            let peak = best(12 * 16, &|n| unsafe { ymm_regs(n, p) });
            println!("avx2    12 FMAs, registers only             {peak:6.1} GFLOPS  (peak)");
            let g = best(12 * 16, &|n| unsafe { ymm_kernel_6x16(n, p) });
            println!(
                "avx2    12 FMAs + 2 loads, 6 broadcasts (6x16 kernel) {g:6.1} GFLOPS  {:5.1}% of peak",
                100.0 * g / peak
            );
        }
    }
}

fn main() {
    #[cfg(target_arch = "x86_64")]
    probe::run();
    #[cfg(not(target_arch = "x86_64"))]
    println!("fma_ceiling measures x86-64 kernels only");
}
