//! Minifloat conversions against vectors generated with ml_dtypes (the library XLA uses),
//! plus hand-checked limits of each format.

use oxla_hlo::minifloat::{bits_to_f64, f64_to_bits};
use oxla_hlo::PrimitiveType::{self, *};

fn f64_from_hex(h: &str) -> f64 {
    f64::from_bits(u64::from_str_radix(h, 16).unwrap())
}

#[test]
fn matches_ml_dtypes_vectors() {
    let text = include_str!("data/minifloat_vectors.txt");
    let (mut decodes, mut encodes) = (0, 0);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let t: PrimitiveType = f[1].parse().unwrap();
        match f[0] {
            "decode" => {
                let bits: u8 = f[2].parse().unwrap();
                let want = f64_from_hex(f[3]);
                let got = bits_to_f64(t, bits);
                if want.is_nan() {
                    assert!(got.is_nan(), "{t} decode {bits:#x}: got {got}");
                } else {
                    assert_eq!(got.to_bits(), want.to_bits(), "{t} decode {bits:#x}");
                }
                decodes += 1;
            }
            "encode" => {
                let v = f64_from_hex(f[2]);
                let want: u8 = f[3].parse().unwrap();
                assert_eq!(f64_to_bits(t, v), want, "{t} encode {v:e} ({})", f[2]);
                encodes += 1;
            }
            _ => panic!("bad line {line}"),
        }
    }
    assert!(decodes > 2000 && encodes > 10000, "{decodes} {encodes}");
}

#[test]
fn limits_by_hand() {
    // (type, max finite, min normal, min subnormal)
    let cases: [(PrimitiveType, f64, f64, f64); 10] = [
        (F8E5M2, 57344.0, 2f64.powi(-14), 2f64.powi(-16)),
        (F8E4M3, 240.0, 2f64.powi(-6), 2f64.powi(-9)),
        (F8E3M4, 15.5, 0.25, 2f64.powi(-6)),
        (F8E4M3FN, 448.0, 2f64.powi(-6), 2f64.powi(-9)),
        (F8E4M3FNUZ, 240.0, 2f64.powi(-7), 2f64.powi(-10)),
        (F8E5M2FNUZ, 57344.0, 2f64.powi(-15), 2f64.powi(-17)),
        (F8E4M3B11FNUZ, 30.0, 2f64.powi(-10), 2f64.powi(-13)),
        (F6E2M3FN, 7.5, 1.0, 0.125),
        (F6E3M2FN, 28.0, 0.25, 0.0625),
        (F4E2M1FN, 6.0, 1.0, 0.5),
    ];
    for (t, max, min_normal, min_sub) in cases {
        for v in [max, min_normal, min_sub, -max] {
            let b = f64_to_bits(t, v);
            assert_eq!(bits_to_f64(t, b), v, "{t} {v}");
        }
        // Half the smallest subnormal is a tie with zero: rounds to even (zero).
        assert_eq!(bits_to_f64(t, f64_to_bits(t, min_sub / 2.0)), 0.0, "{t}");
    }
    assert!(bits_to_f64(F8E5M2, f64_to_bits(F8E5M2, 1e9)).is_infinite());
    assert!(bits_to_f64(F8E4M3FN, f64_to_bits(F8E4M3FN, 1e9)).is_nan());
    assert_eq!(bits_to_f64(F4E2M1FN, f64_to_bits(F4E2M1FN, 1e9)), 6.0);
    assert_eq!(bits_to_f64(F8E8M0FNU, f64_to_bits(F8E8M0FNU, 3.0)), 4.0);
    assert!(bits_to_f64(F8E8M0FNU, f64_to_bits(F8E8M0FNU, -1.0)).is_nan());
    // fnuz formats have no negative zero.
    assert_eq!(f64_to_bits(F8E4M3FNUZ, -0.0), 0);
    assert_eq!(f64_to_bits(F8E4M3FN, -0.0), 0x80);
    // Ties to even: 2.5 in e2m1 (values 2, 3) -> 2; 3.5 (3, 4) -> 4.
    assert_eq!(bits_to_f64(F4E2M1FN, f64_to_bits(F4E2M1FN, 2.5)), 2.0);
    assert_eq!(bits_to_f64(F4E2M1FN, f64_to_bits(F4E2M1FN, 3.5)), 4.0);
}

#[test]
fn every_code_round_trips() {
    for t in oxla_hlo::types::ARRAY_TYPES
        .into_iter()
        .filter(|t| t.is_minifloat())
    {
        let width = if t == F8E8M0FNU { 8 } else { t.bit_width() };
        for bits in 0..(1u16 << width) {
            let v = bits_to_f64(t, bits as u8);
            if v.is_nan() {
                continue;
            }
            assert_eq!(f64_to_bits(t, v), bits as u8, "{t} {bits:#x} = {v}");
        }
    }
}
