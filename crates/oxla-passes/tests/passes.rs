//! Pipeline behaviour a text filetest cannot express (the dump callback). The passes' HLO
//! rewrites are checked by the filetests in `crates/oxla/tests/filetests/passes/*.hlo`.

use oxla_hlo::text::parse_module;
use oxla_passes::Pipeline;

const REDUNDANT: &str = r#"
HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  one = f32[] constant(1)
  ones = f32[4] broadcast(one), dimensions={}
  a = f32[4] multiply(x, ones)
  b = f32[4] exponential(a)
  c = f32[4] exponential(a)
  unused = f32[4] negate(x)
  r = f32[4] reshape(b)
  ROOT s = f32[4] add(r, c)
}
"#;

#[test]
fn pipeline_dump_reports_changed_passes() {
    let mut m = parse_module(REDUNDANT).unwrap();
    let log = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let l2 = log.clone();
    let mut p = Pipeline::standard();
    p.verify = true;
    p.dump = Some(Box::new(move |name, text| {
        l2.borrow_mut().push((name.to_string(), text.len()))
    }));
    p.run(&mut m).unwrap();
    let names: Vec<String> = log.borrow().iter().map(|(n, _)| n.clone()).collect();
    assert!(
        names.contains(&"cse".to_string()) && names.contains(&"dce".to_string()),
        "{names:?}"
    );
}
