//! `execute_local` in one process runs every instance, as `execute_sharded` does; the
//! process is 0 of 1; a wrong number of argument lists is an error.

use oxla_runtime::{Buffer, Client, ClientOptions, CompileOptions};

const ALL_REDUCE: &str = "HloModule m, replica_count=2\n\n%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n  ROOT %c = f32[] add(%a, %b)\n}\n\nENTRY %e (x: f32[2]) -> f32[2] {\n  %x = f32[2] parameter(0)\n  ROOT %s = f32[2] all-reduce(%x), replica_groups={}, to_apply=%add\n}\n";

#[test]
fn execute_local_in_one_process_runs_every_instance() {
    let m = oxla_hlo::text::parse_module(ALL_REDUCE).unwrap();
    let client = Client::cpu_with(ClientOptions {
        devices: 2,
        ..Default::default()
    })
    .unwrap();
    assert_eq!((client.process_index(), client.process_count()), (0, 1));
    let exe = client.compile(&m, &CompileOptions::default()).unwrap();
    assert_eq!(exe.local_instances().unwrap(), 0..2);
    let a = Buffer::from_slice(&[1.0f32, 2.0], &[2]).unwrap();
    let b = Buffer::from_slice(&[10.0f32, 20.0], &[2]).unwrap();
    let out = exe.execute_local(&[vec![&a], vec![&b]]).unwrap();
    for o in &out {
        assert_eq!(o[0].to_vec::<f32>().unwrap(), vec![11.0, 22.0]);
    }
    let err = exe.execute_local(&[vec![&a]]).unwrap_err().to_string();
    assert!(
        err.contains("1 argument lists for the 2 instances"),
        "{err}"
    );
}
