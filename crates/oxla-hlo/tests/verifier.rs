//! The verifier on real modules (the XLA-style HLO files) and on broken ones.

use oxla_hlo::text::parse_module;
use oxla_hlo::{verify_module, InstrId, Op, PrimitiveType, Shape};

fn data_files() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hlo");
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "hlo"))
        .map(|e| {
            let p = e.path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn xla_style_modules_verify() {
    let files = data_files();
    assert!(files.len() >= 5);
    for (name, text) in files {
        let m = parse_module(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        verify_module(&m).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

const ADD: &str = r#"
HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[2,3] parameter(1)
  ROOT s = f32[2,3] add(a, b)
}
"#;

#[test]
fn wrong_declared_shape_is_rejected() {
    let mut m = parse_module(ADD).unwrap();
    verify_module(&m).unwrap();
    let c = &mut m.computations[0];
    let root = c.root;
    c.instr_mut(root).shape = Shape::array(PrimitiveType::F32, &[3, 2]);
    let err = verify_module(&m).unwrap_err().to_string();
    assert!(err.contains("instruction s has shape f32[3,2]"), "{err}");
    assert!(err.contains("inferred shape is f32[2,3]"), "{err}");
}

#[test]
fn operand_defined_later_is_rejected() {
    let mut m = parse_module(ADD).unwrap();
    let c = &mut m.computations[0];
    c.instructions[0].op = Op::Unary(oxla_hlo::UnaryOp::Neg);
    c.instructions[0].operands = vec![InstrId(2)];
    let err = verify_module(&m).unwrap_err().to_string();
    assert!(err.contains("not defined before it"), "{err}");
}

#[test]
fn bad_parameter_numbering_is_rejected() {
    let mut m = parse_module(ADD).unwrap();
    m.computations[0].instructions[1].op = Op::Parameter { number: 0 };
    let err = verify_module(&m).unwrap_err().to_string();
    assert!(err.contains("parameter b has number 0"), "{err}");
}

#[test]
fn reducer_signature_is_checked() {
    let text = r#"
HloModule m
max {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT m = s32[] maximum(a, b)
}
ENTRY e {
  x = f32[4,8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[4] reduce(x, z), dimensions={1}, to_apply=max
}
"#;
    let m = parse_module(text).unwrap();
    let err = verify_module(&m).unwrap_err().to_string();
    assert!(
        err.contains("Reduce: reducer computation must have signature (f32[], f32[]) -> f32[]"),
        "{err}"
    );
}

#[test]
fn duplicate_names_are_rejected() {
    let mut m = parse_module(ADD).unwrap();
    m.computations[0].instructions[1].name = "a".into();
    let err = verify_module(&m).unwrap_err().to_string();
    assert!(err.contains("instruction name a is used twice"), "{err}");
}
