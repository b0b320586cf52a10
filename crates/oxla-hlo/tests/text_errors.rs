//! Malformed HLO text gives `Error::Parse { line, column, message }` pointing at the
//! offending text and naming what was expected — never a panic.

use oxla_hlo::text::{parse_module, parse_shape, print_module};
use oxla_hlo::*;

/// The (line, column, message) of a parse error; fails the test on anything else.
fn err(text: &str) -> (usize, usize, String) {
    match parse_module(text) {
        Err(Error::Parse {
            line,
            column,
            message,
        }) => (line, column, message),
        Err(other) => panic!("expected a parse error, got {other:?}"),
        Ok(_) => panic!("expected a parse error, got a module for:\n{text}"),
    }
}

fn check(text: &str, line: usize, column: usize, needle: &str) {
    let (l, c, m) = err(text);
    assert!(
        m.contains(needle),
        "message {m:?} does not contain {needle:?}"
    );
    assert_eq!((l, c), (line, column), "position of {m:?}");
}

/// An entry computation around `body` (instructions, one per line, from line 3).
fn entry(body: &str) -> String {
    format!("HloModule m\n\nENTRY %e {{\n{body}\n}}\n")
}

#[test]
fn empty_and_missing_header() {
    check("", 1, 1, "expected 'HloModule', found end of input");
    check("  \n HloModul m", 2, 2, "expected 'HloModule'");
    check("HloModule m\n", 2, 1, "no computations");
}

#[test]
fn truncated_text() {
    check(
        "HloModule m\n\nENTRY %e {\n  %p = f32[2] parameter(0)\n",
        5,
        1,
        "expected '}' to close computation '%e'",
    );
    check(
        "HloModule m\n\nENTRY %e {\n  %p = f32[2",
        4,
        13,
        "expected ',' or ']'",
    );
    check(
        "HloModule m\n\nENTRY %e {\n  %p = f32[2] parameter(",
        4,
        25,
        "an integer",
    );
    check("HloModule m\n\nENTRY %e (p: f32[2]) -> ", 3, 25, "a shape");
    check("HloModule m\n\nENTRY", 3, 6, "expected a computation name");
}

#[test]
fn unknown_opcode() {
    check(
        &entry("  %p = f32[2] parameter(0)\n  ROOT %r = f32[2] frobnicate(%p)"),
        5,
        20,
        "unknown opcode 'frobnicate'",
    );
}

#[test]
fn unsupported_xla_opcode_is_unimplemented() {
    let e = parse_module(&entry(
        "  %p = f32[2] parameter(0)\n  ROOT %r = f32[2] domain(%p)",
    ))
    .unwrap_err();
    assert!(matches!(e, Error::Unimplemented(_)), "{e:?}");
    assert!(
        e.to_string().contains("'domain'") && e.to_string().contains("5:20"),
        "{e}"
    );
}

#[test]
fn a_bitcast_that_changes_the_size_is_an_error_at_its_opcode() {
    let e = parse_module(&entry(
        "  %p = f32[2] parameter(0)\n  ROOT %r = f32[3] bitcast(%p)",
    ))
    .unwrap_err();
    assert!(
        e.to_string().contains("number of elements") && e.to_string().contains("5:20"),
        "{e}"
    );
}

#[test]
fn bad_shapes() {
    check(
        &entry("  %p = f33[2] parameter(0)"),
        4,
        8,
        "expected a shape",
    );
    check(
        &entry("  %p = f32[2,-1] parameter(0)"),
        4,
        14,
        "negative dimension",
    );
    check(
        &entry("  %p = f32[2,3]{0} parameter(0)"),
        4,
        17,
        "layout has 1 dimensions but the shape has rank 2",
    );
    check(
        &entry("  %p = f32[2,3]{0,0} parameter(0)"),
        4,
        17,
        "not a permutation",
    );
    check(
        &entry("  %p = token[2] parameter(0)"),
        4,
        8,
        "token shapes have no dimensions",
    );
    check(
        &entry("  %p = (f32[2] parameter(0)"),
        4,
        16,
        "expected ',' or ')' in tuple shape",
    );
    let e = parse_shape("f32[2] extra").unwrap_err();
    assert!(
        e.to_string().contains("1:8") && e.to_string().contains("end of shape"),
        "{e}"
    );
    let deep = "(".repeat(10_000);
    let e = parse_shape(&deep).unwrap_err();
    assert!(e.to_string().contains("nested too deeply"), "{e}");
    assert!("F32[2]".parse::<Shape>().is_err());
    assert!("f32[99999999999999999999]".parse::<Shape>().is_err());
}

#[test]
fn unknown_or_later_operand() {
    check(
        &entry("  %p = f32[2] parameter(0)\n  ROOT %r = f32[2] add(f32[2] %p, f32[2] %q)"),
        5,
        42,
        "unknown operand '%q'",
    );
    // Defined after use: XLA text always defines operands first.
    check(
        &entry("  %a = f32[2] negate(%b)\n  %b = f32[2] parameter(0)"),
        4,
        22,
        "unknown operand '%b'",
    );
}

#[test]
fn missing_root_uses_last_instruction() {
    let m = parse_module(&entry(
        "  %p = f32[2] parameter(0)\n  %n = f32[2] negate(%p)\n  %c = f32[2] copy(%n)",
    ))
    .unwrap();
    assert_eq!(m.entry_computation().root_instr().name, "c");
    assert!(print_module(&m).contains("ROOT %c = f32[2] copy(f32[2] %n)"));
}

#[test]
fn duplicates() {
    check(
        &entry("  %p = f32[2] parameter(0)\n  %p = f32[2] negate(%p)"),
        5,
        3,
        "duplicate instruction name '%p'",
    );
    check(
        "HloModule m\n\n%c {\n  ROOT %x = f32[] parameter(0)\n}\n\n%c {\n  ROOT %y = f32[] parameter(0)\n}\n",
        7,
        1,
        "duplicate computation name '%c'",
    );
    check(
        &entry("  ROOT %p = f32[2] parameter(0)\n  ROOT %n = f32[2] negate(%p)"),
        5,
        3,
        "more than one ROOT",
    );
    check(
        &entry("  %p = f32[2] parameter(0)\n  ROOT %b = f32[2] broadcast(%p), dimensions={0}, dimensions={0}"),
        5,
        51,
        "duplicate attribute 'dimensions'",
    );
    check(
        "HloModule m\n\nENTRY %a {\n  ROOT %x = f32[] parameter(0)\n}\n\nENTRY %b {\n  ROOT %y = f32[] parameter(0)\n}\n",
        7,
        7,
        "more than one ENTRY",
    );
}

#[test]
fn parameter_numbers() {
    check(
        &entry("  ROOT %p = f32[2] parameter(1)"),
        4,
        3,
        "parameter number 1 is out of range",
    );
    check(
        &entry("  %p = f32[2] parameter(0)\n  %q = f32[2] parameter(0)\n  ROOT %t = (f32[2], f32[2]) tuple(%p, %q)"),
        5,
        3,
        "parameter number 0 appears twice",
    );
    check(
        &entry("  ROOT %p = f32[2] parameter(-1)"),
        4,
        30,
        "must be non-negative",
    );
}

#[test]
fn bad_attribute_values() {
    let p = "  %p = f32[2,3] parameter(0)\n";
    check(
        &entry(&format!(
            "{p}  ROOT %r = f32[3,2] transpose(%p), dimensions={{1,a}}"
        )),
        5,
        51,
        "expected an integer",
    );
    check(
        &entry(&format!(
            "{p}  ROOT %r = f32[3] get-tuple-element(%p), index=-1"
        )),
        5,
        49,
        "must be non-negative",
    );
    check(
        &entry(&format!(
            "{p}  ROOT %r = pred[2,3] compare(%p, %p), direction=XX"
        )),
        5,
        50,
        "expected a comparison direction (one of EQ, NE, GE, GT, LE, LT), found 'XX'",
    );
    check(
        &entry(&format!(
            "{p}  ROOT %r = f32[2,3] cholesky(%p), lower=maybe"
        )),
        5,
        42,
        "expected true or false",
    );
    check(
        &entry(&format!(
            "{p}  ROOT %r = f32[2,3] concatenate(%p, %p), dimensions={{0,1}}"
        )),
        5,
        54,
        "exactly one dimension",
    );
    check(
        &entry(&format!(
            "{p}  ROOT %r = f32[2,3] reverse(%p), dimensions={{0}} x"
        )),
        5,
        50,
        "end of the value of 'dimensions'",
    );
    check(
        &entry(&format!(
            "{p}  ROOT %r = f32[2,3] custom-call(%p), custom_call_target=\"abc"
        )),
        5,
        58,
        "unterminated string",
    );
    check(
        &entry(&format!(
            "{p}  ROOT %r = f32[2,3] reduce-window(%p, %p), window={{size=3x3 stride=1}}"
        )),
        5,
        62,
        "window field 'stride' has 1 dimensions, size has 2",
    );
    check(
        &entry(&format!(
            "{p}  ROOT %r = f32[2,3] reduce-window(%p, %p), window={{size=3 wat=1}}"
        )),
        5,
        60,
        "unknown window field 'wat'",
    );
    check(
        &entry(&format!(
            "{p}  ROOT %r = f32[2,3] convolution(%p, %p), dim_labels=b01f_01io->b0f"
        )),
        5,
        54,
        "ranks differ",
    );
    check(
        &entry(&format!(
            "{p}  ROOT %r = f32[2,3] convolution(%p, %p), dim_labels=bxf_io->bf"
        )),
        5,
        54,
        "unexpected label 'x'",
    );
    check(
        &entry(&format!(
            "{p}  ROOT %r = f32[2,3] all-reduce(%p), replica_groups=[3,2]<=[4]"
        )),
        5,
        53,
        "do not cover",
    );
    check(
        &entry(&format!("{p}  ROOT %r = f32[3] pad(%p, %p), padding=1x2")),
        5,
        42,
        "'_' in padding",
    );
    check(
        &entry(&format!(
            "{p}  ROOT %r = f32[3] fft(%p), fft_type=DCT, fft_length={{3}}"
        )),
        5,
        38,
        "an FFT type",
    );
    check(
        &entry(&format!(
            "{p}  ROOT %r = f32[2,3] uniform-quantize(%p), quant={{storage=s8}}"
        )),
        5,
        51,
        "quant needs storage, min, max",
    );
    check(
        &entry(&format!("{p}  ROOT %r = f32[] call(%p), to_apply=%p, is_composite=true, frontend_attributes={{a=\"b\"}}")),
        5,
        19,
        "composite call needs composite.name",
    );
}

#[test]
fn missing_required_attribute() {
    check(
        &entry("  %p = f32[] parameter(0)\n  ROOT %b = f32[2] broadcast(%p)"),
        5,
        20,
        "broadcast needs attribute 'dimensions'",
    );
    check(
        &entry("  %p = f32[] parameter(0)\n  ROOT %b = f32[2] custom-call(%p)"),
        5,
        20,
        "custom-call needs attribute 'custom_call_target'",
    );
}

#[test]
fn unknown_computation() {
    check(
        &entry("  %p = f32[2] parameter(0)\n  %z = f32[] constant(0)\n  ROOT %r = f32[] reduce(%p, %z), dimensions={0}, to_apply=%nope"),
        6,
        60,
        "unknown computation '%nope'",
    );
}

#[test]
fn bad_constants() {
    check(
        &entry("  ROOT %c = f32[3] constant({1, 2})"),
        4,
        34,
        "expected ',' (dimension 0 of f32[3] has 3 elements)",
    );
    check(
        &entry("  ROOT %c = f32[2] constant({1, 2, 3})"),
        4,
        34,
        "expected '}'",
    );
    check(
        &entry("  ROOT %c = s8[] constant(300)"),
        4,
        27,
        "value 300 is out of range for s8",
    );
    check(
        &entry("  ROOT %c = u32[] constant(-1)"),
        4,
        28,
        "out of range for u32",
    );
    check(
        &entry("  ROOT %c = s4[] constant(8)"),
        4,
        27,
        "out of range for s4",
    );
    check(
        &entry("  ROOT %c = f32[] constant(abc)"),
        4,
        28,
        "expected a number",
    );
    check(
        &entry("  ROOT %c = s32[] constant(1.5)"),
        4,
        28,
        "expected an integer for s32",
    );
    check(
        &entry("  ROOT %c = f32[1000] constant({...})"),
        4,
        32,
        "elided",
    );
    check(
        &entry("  ROOT %c = pred[] constant(yes)"),
        4,
        29,
        "true or false",
    );
    check(
        &entry("  ROOT %c = c64[] constant(1)"),
        4,
        28,
        "expected '('",
    );
    check(
        &entry("  ROOT %c = token[] constant(0)"),
        4,
        30,
        "a token has no constant value",
    );
}

#[test]
fn all_to_all_tuple_form_is_unimplemented() {
    let e = parse_module(&entry(
        "  %p = f32[2] parameter(0)\n  ROOT %r = (f32[2]) all-to-all(%p), replica_groups={}",
    ))
    .unwrap_err();
    assert!(matches!(e, Error::Unimplemented(_)), "{e:?}");
    assert!(e.to_string().contains("tuple form"), "{e}");
}

#[test]
fn nested_anonymous_instructions_are_rejected() {
    // XLA accepts `add(f32[10] parameter(0), ...)`; Oxla asks for named instructions.
    let (_, _, m) = err("HloModule test\n\nENTRY test {\n  ROOT root = add(f32[10] parameter(0), f32[10] parameter(1))\n}\n");
    assert!(m.contains("expected a shape"), "{m}");
}

/// A realistic module used for mutation tests below.
const SAMPLE: &str = include_str!("data/hlo/jax_reduce_sum.hlo");

#[test]
fn every_prefix_fails_cleanly() {
    let texts = [SAMPLE, include_str!("data/hlo/hand_written.hlo")];
    for text in texts {
        for (i, _) in text.char_indices() {
            // Must not panic; most prefixes are errors.
            let _ = parse_module(&text[..i]);
        }
    }
}

#[test]
fn every_single_char_deletion_or_swap_is_handled() {
    let text = include_str!("data/hlo/all_reduce.hlo");
    let chars: Vec<char> = text.chars().collect();
    for i in 0..chars.len() {
        let mut deleted = chars.clone();
        deleted.remove(i);
        let s: String = deleted.into_iter().collect();
        let _ = parse_module(&s);
        for junk in ['{', '}', '(', '"', ',', '%', '9', 'é'] {
            let mut swapped = chars.clone();
            swapped[i] = junk;
            let s: String = swapped.into_iter().collect();
            if let Err(e) = parse_module(&s) {
                assert!(
                    matches!(e, Error::Parse { .. } | Error::Unimplemented(_)),
                    "{e:?}"
                );
            }
        }
    }
}

#[test]
fn errors_display_line_and_column() {
    let e = parse_module(
        "HloModule m\n\nENTRY %e {\n  %p = f32[2] parameter(0)\n  ROOT %r = f32[2] negat(%p)\n}\n",
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "parse error at 5:20: unknown opcode 'negat'");
}

#[test]
fn recursion_is_rejected() {
    check(
        "HloModule m\n\n%f {\n  %x = f32[] parameter(0)\n  ROOT %c = f32[] call(%x), to_apply=%g\n}\n\n%g {\n  %y = f32[] parameter(0)\n  ROOT %c2 = f32[] call(%y), to_apply=%f\n}\n\nENTRY %e {\n  %z = f32[] parameter(0)\n  ROOT %c3 = f32[] call(%z), to_apply=%f\n}\n",
        10,
        39,
        "calls itself",
    );
    check(
        "HloModule m\n\nENTRY %e {\n  %z = f32[] parameter(0)\n  ROOT %c3 = f32[] call(%z), to_apply=%e\n}\n",
        5,
        39,
        "computation '%e' calls itself",
    );
}

#[test]
fn huge_rank_constant_is_rejected() {
    let dims = vec!["1"; 5000].join(",");
    let (_, _, m) = err(&entry(&format!("  ROOT %c = f32[{dims}] constant(0)")));
    assert!(
        m.contains("constants of rank 5000 are not supported"),
        "{m}"
    );
}

#[test]
fn line_comments_are_skipped() {
    let m = parse_module("HloModule m // the module\n\n// entry\nENTRY %e {\n  ROOT %p = f32[] parameter(0) // param\n}\n").unwrap();
    assert_eq!(m.entry_computation().instructions.len(), 1);
}

#[test]
fn operand_shape_must_match_its_definition() {
    check(
        &entry("  %p = f32[2] parameter(0)\n  ROOT %n = f32[2] negate(f32[3] %p)"),
        5,
        27,
        "operand '%p' is written with shape f32[3] but has shape f32[2]",
    );
    // Layouts may differ in how they are written.
    assert!(parse_module(&entry(
        "  %p = f32[2,2]{1,0} parameter(0)\n  ROOT %n = f32[2,2] negate(f32[2,2] %p)"
    ))
    .is_ok());
}

#[test]
fn meaning_changing_attributes_are_unimplemented() {
    for body in [
        "  %a = f16[32,32] parameter(0)\n  %b = f16[64,32] parameter(1)\n  %m = u16[32,4] parameter(2)\n  ROOT %d = f16[32,32] dot(%a, %b, %m), lhs_contracting_dims={1}, rhs_contracting_dims={0}, sparsity=L.1@2:4",
        "  %p = f32[4] parameter(0)\n  ROOT %c = f32[4] collective-permute(%p), source_target_pairs={{0,1}}, slice_sizes={{4}}",
    ] {
        let e = parse_module(&entry(body)).unwrap_err();
        assert!(matches!(e, Error::Unimplemented(_)), "{e:?}");
        assert!(e.to_string().contains("is not supported"), "{e}");
    }
}

/// XLA's source-location tables (`.compile().as_text()` prints them after the header) are
/// skipped; a malformed entry is an error at the entry.
#[test]
fn xla_debug_tables() {
    let tables = "HloModule m, is_scheduled=true\n\nFileNames\n1 \"/a/b.py\"\n\n\
                  FunctionNames\n1 \"<module>\"\n\nFileLocations\n\
                  1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=1 end_column=9}\n\n\
                  StackFrames\n1 {file_location_id=1 parent_frame_id=1}\n\n\n";
    let m = parse_module(&format!(
        "{tables}ENTRY %e {{\n  %p = f32[2] parameter(0), metadata={{stack_frame_id=1}}\n}}\n"
    ))
    .unwrap();
    assert_eq!(m.computations.len(), 1);
    check(
        "HloModule m\n\nFileNames\n1 nope\n\nENTRY %e {\n  %p = f32[2] parameter(0)\n}\n",
        4,
        3,
        "expected a string or a '{...}' table entry",
    );
}
