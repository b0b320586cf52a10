//! A GEMM's B operand that is an argument of the entry program, packed once per buffer and
//! kept with it: weights passed again unchanged, call after call (inference), skip their
//! packing, a pass over the whole matrix per call (1 MiB of B in a 128-row GEMM costs
//! about a fifth of its time). Packed on the second call with the same buffer, so a buffer
//! used once (a training step's new weights) costs only a mark. Buffers are immutable but
//! for in-place updates of a buffer no one else holds (a donated argument); the runtime
//! clears a buffer's packings when it decides on such an update (`Bytes::written`).

use std::sync::{Arc, Mutex};

use oxla_passes::plan::GemmDims;

use crate::steps::gemm::PackedAny;

/// At most this many GEMM shapes are remembered per buffer.
const MAX_ENTRIES: usize = 4;

/// The packings of one buffer, by the GEMM shape each was made for.
#[derive(Default)]
pub(crate) struct WeightPacks(Mutex<Vec<(GemmDims, Option<Arc<PackedAny>>)>>);

impl WeightPacks {
    /// The packing of this buffer as B of `g`: the kept one, or a new one from `pack` when
    /// the buffer was seen before for `g`; `None` the first time (the GEMM packs as usual).
    pub(crate) fn get_or_pack(
        &self,
        g: &GemmDims,
        pack: impl FnOnce() -> Option<PackedAny>,
    ) -> Option<Arc<PackedAny>> {
        {
            let mut e = self.0.lock().ok()?;
            match e.iter().find(|(d, _)| d == g) {
                Some((_, Some(p))) => return Some(p.clone()),
                Some((_, None)) => {}
                None => {
                    if e.len() < MAX_ENTRIES {
                        e.push((*g, None));
                    }
                    return None;
                }
            }
        }
        // Packed outside the lock; a concurrent caller may pack too, and one is kept.
        let p = Arc::new(pack()?);
        let mut e = self.0.lock().ok()?;
        if let Some(slot) = e.iter_mut().find(|(d, _)| d == g) {
            slot.1.get_or_insert_with(|| p.clone());
        }
        Some(p)
    }

    /// How many packings are kept.
    #[cfg(test)]
    pub(crate) fn kept(&self) -> usize {
        self.0
            .lock()
            .map_or(0, |e| e.iter().filter(|(_, p)| p.is_some()).count())
    }

    /// Forgets every packing: the buffer's contents are about to change.
    pub(crate) fn clear(&self) {
        if let Ok(mut e) = self.0.lock() {
            e.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Buffer, Client, CompileOptions};

    /// `x` (16 x 128) times `w` (128 x 256), exactly (small integers).
    fn product(x: &[f32], w: &[f32]) -> Vec<f32> {
        (0..16 * 256)
            .map(|ij| {
                (0..128)
                    .map(|p| x[ij / 256 * 128 + p] * w[p * 256 + ij % 256])
                    .sum()
            })
            .collect()
    }

    fn run(text: &str) -> crate::Executable {
        let m = oxla_hlo::text::parse_module(text).expect("parses");
        Client::cpu()
            .expect("client")
            .compile(&m, &CompileOptions::default())
            .expect("compiles")
    }

    fn inputs() -> (Vec<f32>, Vec<f32>) {
        let x = (0..16 * 128).map(|i| ((i * 7) % 5) as f32 - 2.0).collect();
        let w = (0..128 * 256).map(|i| ((i * 3) % 7) as f32 - 3.0).collect();
        (x, w)
    }

    const HEAD: &str = "HloModule m\nENTRY e {\n  x = f32[16,128] parameter(0)\n  w = f32[128,256] parameter(1)\n  d = f32[16,256] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n";

    #[test]
    fn an_argument_weight_is_packed_on_its_second_use_and_kept() {
        let (x, w) = inputs();
        let want = product(&x, &w);
        // The product alone, and with an epilogue (the GEMM's other path).
        for (root, sign) in [
            ("f32[16,256] copy(d)", 1.0),
            ("f32[16,256] negate(d)", -1.0),
        ] {
            let exe = run(&format!("{HEAD}  ROOT r = {root}\n}}\n"));
            let (xb, wb) = (
                Buffer::from_slice(&x, &[16, 128]).expect("x"),
                Buffer::from_slice(&w, &[128, 256]).expect("w"),
            );
            for call in 0..3 {
                let out = exe.execute(&[&xb, &wb]).expect("runs");
                let got = out[0].to_vec::<f32>().expect("f32");
                assert!(
                    got.iter().zip(&want).all(|(g, w)| *g == sign * w),
                    "{root} call {call}"
                );
                // Marked the first time, packed the second.
                assert_eq!(
                    wb.data.packs().kept(),
                    usize::from(call > 0),
                    "{root} call {call}"
                );
            }
            // A smaller B, or A's place, keeps nothing.
            let out = exe.execute(&[&xb, &wb]).expect("runs");
            assert_eq!(xb.data.packs().kept(), 0);
            drop(out);
        }
    }

    #[test]
    fn the_size_threshold_is_a_compile_option() {
        // 16 x 64 times 64 x 64: B has 4 Ki elements, under the default 16 Ki.
        let text = "HloModule m\nENTRY e {\n  x = f32[16,64] parameter(0)\n  w = f32[64,64] parameter(1)\n  d = f32[16,64] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n  ROOT r = f32[16,64] negate(d)\n}\n";
        let m = oxla_hlo::text::parse_module(text).expect("parses");
        let x: Vec<f32> = (0..16 * 64).map(|i| (i % 5) as f32 - 2.0).collect();
        let w: Vec<f32> = (0..64 * 64).map(|i| (i % 3) as f32 - 1.0).collect();
        let want: Vec<f32> = (0..16 * 64)
            .map(|ij| {
                -(0..64)
                    .map(|p| x[ij / 64 * 64 + p] * w[p * 64 + ij % 64])
                    .sum::<f32>()
            })
            .collect();
        for (min, kept) in [(None, 0), (Some(0), 1), (Some(usize::MAX), 0)] {
            let mut options = CompileOptions::default();
            if let Some(min) = min {
                options.weight_pack_min = min;
            }
            let exe = Client::cpu()
                .expect("client")
                .compile(&m, &options)
                .expect("compiles");
            let xb = Buffer::from_slice(&x, &[16, 64]).expect("x");
            let wb = Buffer::from_slice(&w, &[64, 64]).expect("w");
            for _ in 0..3 {
                let out = exe.execute(&[&xb, &wb]).expect("runs");
                assert_eq!(out[0].to_vec::<f32>().expect("f32"), want, "{min:?}");
            }
            assert_eq!(wb.data.packs().kept(), kept, "{min:?}");
        }
    }

    /// Runs `HEAD`'s product twice on `w` (its packing kept), then `update` donating `w`,
    /// which updates it in place (row 0 replaced by `u`; `extra` its other arguments); the
    /// product of the updated buffer must then use it as it now is, not the kept packing.
    fn check_update_drops_packing(update: &str, extra: &[Buffer]) {
        let gemm = run(&format!("{HEAD}  ROOT r = f32[16,256] copy(d)\n}}\n"));
        let update = run(update);
        let (x, w) = inputs();
        let u: Vec<f32> = (0..256).map(|j| (j % 3) as f32 + 5.0).collect();
        let xb = Buffer::from_slice(&x, &[16, 128]).expect("x");
        let wb = Buffer::from_slice(&w, &[128, 256]).expect("w");
        let ub = Buffer::from_slice(&u, &[1, 256]).expect("u");
        for _ in 0..2 {
            let out = gemm.execute(&[&xb, &wb]).expect("runs");
            assert_eq!(out[0].to_vec::<f32>().expect("f32"), product(&x, &w));
        }
        assert_eq!(wb.data.packs().kept(), 1);
        let at = wb.memory_address();
        let mut args = vec![wb, ub];
        args.extend(extra.iter().cloned());
        let out = update.execute_donating(args).expect("runs");
        let mut w2 = w.clone();
        w2[..256].copy_from_slice(&u);
        assert_eq!(out[0].to_vec::<f32>().expect("f32"), w2);
        assert_eq!(out[0].memory_address(), at, "updated in place");
        let got = gemm.execute(&[&xb, &out[0]]).expect("runs");
        assert_eq!(got[0].to_vec::<f32>().expect("f32"), product(&x, &w2));
    }

    #[test]
    fn an_in_place_update_drops_the_kept_packing() {
        check_update_drops_packing(
            "HloModule m\nENTRY e {\n  w = f32[128,256] parameter(0)\n  u = f32[1,256] parameter(1)\n  z = s32[] constant(0)\n  ROOT w2 = f32[128,256] dynamic-update-slice(w, u, z, z)\n}\n",
            &[],
        );
    }
}
