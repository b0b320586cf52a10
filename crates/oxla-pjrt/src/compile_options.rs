//! A minimal protobuf reader for the serialized `xla.CompileOptionsProto` that `Client_Compile`
//! receives: the replica and partition counts and the device assignment, from
//! `executable_build_options` (field 3), and the option overrides (`jax.jit(f,
//! compiler_options=...)`, field 7), which are checked as XLA's CPU client checks them. Every
//! length is bounds-checked; malformed bytes are an error, never a panic.
//!
//! ```text
//! CompileOptionsProto          3: executable_build_options (ExecutableBuildOptionsProto)
//!                              7: env_option_overrides (map<string, OptionOverrideProto>)
//! OptionOverrideProto          1: string  2: bool  3: int64  4: double
//! ExecutableBuildOptionsProto  4: num_replicas  5: num_partitions  9: device_assignment
//! DeviceAssignmentProto        1: replica_count  2: computation_count
//!                              3: computation_devices (repeated) { 1: replica_device_ids }
//! ```

use crate::error::{Error, Result};

/// What Oxla takes from the compile options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompileOptions {
    pub num_replicas: Option<i64>,
    pub num_partitions: Option<i64>,
    /// `devices[replica][partition]`.
    pub device_assignment: Option<Vec<Vec<i64>>>,
    /// `env_option_overrides`, in order.
    pub overrides: Vec<(String, OptionValue)>,
}

/// An option override's value (a double's value is not kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Str(String),
    Bool(bool),
    Int(i64),
    Double,
}

/// Build options (not debug options) that XLA's compile options take by name.
const BUILD_OPTIONS: [&str; 4] = [
    "exec_time_optimization_effort",
    "memory_fitting_effort",
    "optimization_level",
    "memory_fitting_level",
];

/// Debug options of type bool that programs commonly set: a string for one of them must
/// spell a bool.
const BOOL_OPTIONS: [&str; 16] = [
    "xla_embed_ir_in_executable",
    "xla_cpu_enable_fast_math",
    "xla_cpu_enable_fast_min_max",
    "xla_cpu_fast_math_honor_nans",
    "xla_cpu_fast_math_honor_infs",
    "xla_cpu_fast_math_honor_division",
    "xla_cpu_fast_math_honor_functions",
    "xla_cpu_use_thunk_runtime",
    "xla_dump_hlo_as_text",
    "xla_dump_hlo_as_proto",
    "xla_dump_hlo_as_dot",
    "xla_dump_hlo_as_html",
    "xla_dump_include_timestamp",
    "xla_hlo_profile",
    "xla_llvm_disable_expensive_passes",
    "xla_detailed_logging",
];

impl CompileOptions {
    /// Checks the option overrides as XLA does: an unknown name is "No such compile option"
    /// (every `xla_*` debug option and the build options above are known; Oxla reads none of
    /// them), and a bool option given a string must spell a bool.
    pub fn check_overrides(&self) -> Result<()> {
        for (k, v) in &self.overrides {
            if !k.starts_with("xla_") && !BUILD_OPTIONS.contains(&k.as_str()) {
                return Err(Error::invalid(format!("No such compile option: '{k}'")));
            }
            if let OptionValue::Str(s) = v {
                let spelled =
                    ["true", "false", "1", "0"].contains(&s.to_ascii_lowercase().as_str());
                if BOOL_OPTIONS.contains(&k.as_str()) && !spelled {
                    return Err(Error::invalid(format!(
                        "compile option '{k}': '{s}' is not a valid bool value."
                    )));
                }
            }
        }
        Ok(())
    }
}

/// One field of a protobuf message.
enum Value<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
    Fixed,
}

struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    fn new(buf: &'a [u8], what: &'static str) -> Reader<'a> {
        Reader { buf, pos: 0, what }
    }

    fn err(&self, msg: &str) -> Error {
        Error::invalid(format!(
            "compile options ({}): {msg} at byte {}",
            self.what, self.pos
        ))
    }

    fn varint(&mut self) -> Result<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self
                .buf
                .get(self.pos)
                .ok_or_else(|| self.err("truncated varint"))?;
            self.pos += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.err("varint longer than 10 bytes"))
    }

    fn skip(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.buf.len())
            .ok_or_else(|| self.err(&format!("field of {n} bytes runs past the end")))?;
        let s = &self.buf[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    /// The next field, or `None` at the end.
    fn field(&mut self) -> Result<Option<(u64, Value<'a>)>> {
        if self.pos >= self.buf.len() {
            return Ok(None);
        }
        let key = self.varint()?;
        let v = match key & 7 {
            0 => Value::Varint(self.varint()?),
            1 => {
                self.skip(8)?;
                Value::Fixed
            }
            2 => {
                let n = self.varint()?;
                let n = usize::try_from(n).map_err(|_| self.err("length overflows"))?;
                Value::Bytes(self.skip(n)?)
            }
            5 => {
                self.skip(4)?;
                Value::Fixed
            }
            w => return Err(self.err(&format!("unsupported wire type {w}"))),
        };
        Ok(Some((key >> 3, v)))
    }
}

/// The integers of a repeated int64 field, packed or not.
fn push_ints(v: Value, out: &mut Vec<i64>, what: &'static str) -> Result<()> {
    match v {
        Value::Varint(x) => out.push(x as i64),
        Value::Bytes(b) => {
            let mut r = Reader::new(b, what);
            while r.pos < b.len() {
                out.push(r.varint()? as i64);
            }
        }
        Value::Fixed => return Err(Error::invalid(format!("{what}: fixed-width integers"))),
    }
    Ok(())
}

fn device_assignment(buf: &[u8]) -> Result<Vec<Vec<i64>>> {
    let mut r = Reader::new(buf, "device_assignment");
    let (mut replicas, mut computations) = (None, None);
    let mut columns: Vec<Vec<i64>> = Vec::new();
    while let Some((f, v)) = r.field()? {
        match (f, v) {
            (1, Value::Varint(x)) => replicas = Some(x as i64),
            (2, Value::Varint(x)) => computations = Some(x as i64),
            (3, Value::Bytes(b)) => {
                let mut cr = Reader::new(b, "computation_devices");
                let mut ids = Vec::new();
                while let Some((f, v)) = cr.field()? {
                    if f == 1 {
                        push_ints(v, &mut ids, "replica_device_ids")?;
                    }
                }
                columns.push(ids);
            }
            _ => {}
        }
    }
    let p = computations.unwrap_or(columns.len() as i64);
    let rcount = replicas.unwrap_or_else(|| columns.first().map_or(0, |c| c.len() as i64));
    if p as usize != columns.len() || columns.iter().any(|c| c.len() as i64 != rcount) {
        return Err(Error::invalid(format!(
            "device assignment: {rcount} replicas × {p} computations, but {} columns of sizes {:?}",
            columns.len(),
            columns.iter().map(Vec::len).collect::<Vec<_>>()
        )));
    }
    // Columns are per computation (partition); return rows per replica.
    Ok((0..rcount as usize)
        .map(|r| columns.iter().map(|c| c[r]).collect())
        .collect())
}

/// Reads the fields Oxla uses; every other field is skipped.
pub fn parse(buf: &[u8]) -> Result<CompileOptions> {
    let mut out = CompileOptions::default();
    let mut r = Reader::new(buf, "CompileOptionsProto");
    while let Some((f, v)) = r.field()? {
        if let (7, Value::Bytes(b)) = (f, &v) {
            out.overrides.push(option_override(b)?);
            continue;
        }
        if let (3, Value::Bytes(b)) = (f, v) {
            let mut br = Reader::new(b, "executable_build_options");
            while let Some((f, v)) = br.field()? {
                match (f, v) {
                    (4, Value::Varint(x)) => out.num_replicas = Some(x as i64),
                    (5, Value::Varint(x)) => out.num_partitions = Some(x as i64),
                    (9, Value::Bytes(d)) => out.device_assignment = Some(device_assignment(d)?),
                    _ => {}
                }
            }
        }
    }
    Ok(out)
}

/// One `env_option_overrides` map entry: 1: the name, 2: its `OptionOverrideProto`.
fn option_override(buf: &[u8]) -> Result<(String, OptionValue)> {
    let mut r = Reader::new(buf, "env_option_overrides");
    let (mut key, mut value) = (String::new(), OptionValue::Str(String::new()));
    while let Some((f, v)) = r.field()? {
        match (f, v) {
            (1, Value::Bytes(k)) => key = String::from_utf8_lossy(k).into_owned(),
            (2, Value::Bytes(o)) => {
                let mut or = Reader::new(o, "OptionOverrideProto");
                while let Some((f, v)) = or.field()? {
                    value = match (f, v) {
                        (1, Value::Bytes(s)) => OptionValue::Str(String::from_utf8_lossy(s).into()),
                        (2, Value::Varint(x)) => OptionValue::Bool(x != 0),
                        (3, Value::Varint(x)) => OptionValue::Int(x as i64),
                        (4, _) => OptionValue::Double,
                        _ => value,
                    };
                }
            }
            _ => {}
        }
    }
    Ok((key, value))
}

/// `xla.DeviceAssignmentProto` of `devices[replica][partition]`.
pub fn serialize_device_assignment(devices: &[Vec<usize>]) -> Vec<u8> {
    fn varint(out: &mut Vec<u8>, mut v: u64) {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }
    let replicas = devices.len();
    let partitions = devices.first().map_or(0, Vec::len);
    let mut out = Vec::new();
    out.push(0x08);
    varint(&mut out, replicas as u64);
    out.push(0x10);
    varint(&mut out, partitions as u64);
    for p in 0..partitions {
        let mut packed = Vec::new();
        for row in devices {
            varint(&mut packed, row[p] as u64);
        }
        let mut column = vec![0x0a];
        varint(&mut column, packed.len() as u64);
        column.extend(packed);
        out.push(0x1a);
        varint(&mut out, column.len() as u64);
        out.extend(column);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_device_assignment_round_trips() {
        let bytes = serialize_device_assignment(&[vec![0]]);
        assert_eq!(
            bytes,
            [0x08, 0x01, 0x10, 0x01, 0x1a, 0x03, 0x0a, 0x01, 0x00]
        );
        assert_eq!(device_assignment(&bytes).unwrap(), vec![vec![0]]);
    }

    #[test]
    fn reads_build_options() {
        let da = serialize_device_assignment(&[vec![0, 2], vec![1, 3]]);
        let mut build = vec![0x20, 2, 0x28, 2, 0x4a, da.len() as u8];
        build.extend(&da);
        let mut opts = vec![0x10, 0x01, 0x1a, build.len() as u8];
        opts.extend(&build);
        let o = parse(&opts).unwrap();
        assert_eq!(o.num_replicas, Some(2));
        assert_eq!(o.num_partitions, Some(2));
        assert_eq!(o.device_assignment, Some(vec![vec![0, 2], vec![1, 3]]));
    }

    /// A CompileOptionsProto with one override `key` whose OptionOverrideProto is `value`.
    fn with_override(key: &str, value: &[u8]) -> Vec<u8> {
        let mut entry = vec![0x0a, key.len() as u8];
        entry.extend(key.as_bytes());
        entry.extend([0x12, value.len() as u8]);
        entry.extend(value);
        let mut opts = vec![0x3a, entry.len() as u8];
        opts.extend(entry);
        opts
    }

    #[test]
    fn option_overrides_are_checked_as_xla_checks_them() {
        let check =
            |key: &str, value: &[u8]| parse(&with_override(key, value)).unwrap().check_overrides();
        // bool true; int 200; a string.
        assert!(check("xla_embed_ir_in_executable", &[0x10, 0x01]).is_ok());
        assert!(check("xla_dump_max_hlo_modules", &[0x18, 200, 1]).is_ok());
        assert!(check(
            "exec_time_optimization_effort",
            &[0x21, 0, 0, 0, 0, 0, 0, 0, 0]
        )
        .is_ok());
        let e = check("invalid_key", &[0x0a, 1, b'x']).unwrap_err().message;
        assert!(e.contains("No such compile option: 'invalid_key'"), "{e}");
        assert!(check("exec_time_compilation_effort", &[0x10, 0]).is_err());
        let bad = [[0x0a, 7].as_slice(), b"invalid"].concat();
        let e = check("xla_embed_ir_in_executable", &bad)
            .unwrap_err()
            .message;
        assert!(e.contains("is not a valid bool value."), "{e}");
        let o = parse(&with_override("xla_embed_ir_in_executable", &[0x10, 0x01])).unwrap();
        assert_eq!(
            o.overrides,
            vec![("xla_embed_ir_in_executable".into(), OptionValue::Bool(true))]
        );
    }

    #[test]
    fn malformed_is_an_error() {
        assert!(parse(&[0x1a, 0x05, 0x20]).is_err());
        assert!(parse(&[0x1a]).is_err());
        assert!(parse(&[0xff; 12]).is_err());
        assert!(parse(&[0x1a, 0x02, 0x4a, 0x7f]).is_err());
        assert_eq!(parse(&[]).unwrap(), CompileOptions::default());
    }
}
