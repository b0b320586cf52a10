//! Golden files: every `tests/data/hlo/<name>.hlo` (XLA-style input) is read and printed,
//! and the text must equal `tests/data/hlo/printed/<name>.hlo`. Run with `OXLA_BLESS=1` to
//! rewrite the expected files after an intended printer change (and review the diff).

use std::fs;
use std::path::Path;

use oxla_hlo::text::{parse_module, print_module};

#[test]
fn printed_forms_match_golden_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hlo");
    let out_dir = dir.join("printed");
    let bless = std::env::var_os("OXLA_BLESS").is_some();
    let mut names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hlo"))
        .collect();
    names.sort();
    assert!(names.len() >= 7, "test data missing from {}", dir.display());
    let mut mismatches = Vec::new();
    for path in names {
        let input = fs::read_to_string(&path).unwrap();
        let module = parse_module(&input).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let printed = print_module(&module);
        // The printed form is a fixed point.
        assert_eq!(print_module(&parse_module(&printed).unwrap()), printed);
        let expected_path = out_dir.join(path.file_name().unwrap());
        if bless {
            fs::create_dir_all(&out_dir).unwrap();
            fs::write(&expected_path, &printed).unwrap();
            continue;
        }
        let expected = fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != printed {
            mismatches.push(format!(
                "{} (expected {}):\n{printed}",
                path.display(),
                expected_path.display()
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "printed text differs (OXLA_BLESS=1 rewrites):\n{}",
        mismatches.join("\n")
    );
}
