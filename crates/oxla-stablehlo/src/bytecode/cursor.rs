//! A bounded reader over a byte range of a bytecode file: MLIR's prefix varints, fixed-width
//! integers, NUL-terminated strings and sections. Every read is checked against the end of
//! its range; errors name the absolute byte offset in the file and what was expected.

use oxla_hlo::{Error, Result};

/// Reads MLIR bytecode primitives from `data`, which starts at byte `base` of the file.
#[derive(Clone, Copy, Debug)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
}

/// The error every malformed-input path returns: the byte offset and what was expected there.
pub fn malformed(offset: usize, what: impl std::fmt::Display) -> Error {
    Error::InvalidArgument(format!("MLIR bytecode: byte {offset}: expected {what}"))
}

impl<'a> Cursor<'a> {
    /// A cursor over a whole file.
    pub fn new(data: &'a [u8]) -> Self {
        Cursor {
            data,
            pos: 0,
            base: 0,
        }
    }

    /// The absolute offset of the next byte in the file.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Bytes left to read.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Whether everything was read.
    pub fn is_empty(&self) -> bool {
        self.pos == self.data.len()
    }

    /// An error at the current position.
    pub fn err(&self, what: impl std::fmt::Display) -> Error {
        malformed(self.offset(), what)
    }

    /// Reads one byte (`what` names it in the error at the end of the data).
    pub fn byte(&mut self, what: &str) -> Result<u8> {
        let b = *self
            .data
            .get(self.pos)
            .ok_or_else(|| self.err(format!("{what} (a byte), found the end of the data")))?;
        self.pos += 1;
        Ok(b)
    }

    /// Reads `n` bytes (`what` names them in the error).
    pub fn bytes(&mut self, n: u64, what: &str) -> Result<&'a [u8]> {
        if n > self.remaining() as u64 {
            return Err(self.err(format!(
                "{what} ({n} bytes), but only {} remain",
                self.remaining()
            )));
        }
        let s = &self.data[self.pos..self.pos + n as usize];
        self.pos += n as usize;
        Ok(s)
    }

    /// A cursor over the next `n` bytes (which this cursor skips).
    pub fn sub(&mut self, n: u64, what: &str) -> Result<Cursor<'a>> {
        let base = self.offset();
        let data = self.bytes(n, what)?;
        Ok(Cursor { data, pos: 0, base })
    }

    /// MLIR's prefix varint: the count of trailing zero bits of the first byte is the number
    /// of extra bytes; a zero first byte is followed by a full little-endian u64.
    pub fn varint(&mut self, what: &str) -> Result<u64> {
        let start = self.offset();
        let first = self.byte(what)?;
        if first & 1 == 1 {
            return Ok(u64::from(first >> 1));
        }
        let extra = if first == 0 {
            8
        } else {
            first.trailing_zeros() as usize
        };
        if extra > self.remaining() {
            return Err(malformed(
                start,
                format!(
                    "{what} (a {}-byte varint), found the end of the data",
                    extra + 1
                ),
            ));
        }
        let mut buf = [0u8; 9];
        buf[0] = first;
        buf[1..=extra].copy_from_slice(&self.data[self.pos..self.pos + extra]);
        self.pos += extra;
        if first == 0 {
            let mut le = [0u8; 8];
            le.copy_from_slice(&buf[1..9]);
            return Ok(u64::from_le_bytes(le));
        }
        let mut le = [0u8; 8];
        le.copy_from_slice(&buf[..8]);
        Ok(u64::from_le_bytes(le) >> (extra + 1))
    }

    /// A zigzag-encoded signed varint.
    pub fn svarint(&mut self, what: &str) -> Result<i64> {
        let v = self.varint(what)?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// A varint whose low bit is a flag: `(value << 1) | flag`.
    pub fn varint_flag(&mut self, what: &str) -> Result<(u64, bool)> {
        let v = self.varint(what)?;
        Ok((v >> 1, v & 1 == 1))
    }

    /// A count of items that each take at least one byte: never more than the bytes left, so
    /// no allocation is sized by an unchecked length field.
    pub fn count(&mut self, what: &str) -> Result<usize> {
        let at = self.offset();
        let n = self.varint(what)?;
        if n > self.remaining() as u64 {
            return Err(malformed(
                at,
                format!(
                    "{what}: a count of {n} items, but only {} bytes remain",
                    self.remaining()
                ),
            ));
        }
        Ok(n as usize)
    }

    /// An index below `len`.
    pub fn index(&mut self, len: usize, what: &str) -> Result<usize> {
        let at = self.offset();
        let i = self.varint(what)?;
        if i >= len as u64 {
            return Err(malformed(at, format!("{what} below {len}, found {i}")));
        }
        Ok(i as usize)
    }

    /// A NUL-terminated UTF-8 string.
    pub fn cstr(&mut self, what: &str) -> Result<&'a str> {
        let rest = &self.data[self.pos..];
        let n = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or_else(|| self.err(format!("{what} (a NUL-terminated string), found no NUL")))?;
        let s = std::str::from_utf8(&rest[..n])
            .map_err(|_| self.err(format!("{what} as UTF-8 text")))?;
        self.pos += n + 1;
        Ok(s)
    }

    /// Skips 0xCB padding bytes up to an absolute file offset that is a multiple of `align`.
    pub fn align(&mut self, align: u64) -> Result<()> {
        if !align.is_power_of_two() || align > 1 << 20 {
            return Err(self.err(format!("a power-of-two alignment, found {align}")));
        }
        while !(self.offset() as u64).is_multiple_of(align) {
            if self.byte("alignment padding")? != 0xCB {
                return Err(malformed(self.offset() - 1, "alignment byte 0xCB"));
            }
        }
        Ok(())
    }

    /// A section: its id byte (high bit: aligned), length, optional alignment, and its data.
    pub fn section(&mut self) -> Result<(u8, Cursor<'a>)> {
        let at = self.offset();
        let id_and_align = self.byte("a section id")?;
        let len = self.varint("a section length")?;
        let id = id_and_align & 0x7f;
        if id > 8 {
            return Err(malformed(at, format!("a section id 0..=8, found {id}")));
        }
        if id_and_align & 0x80 != 0 {
            let align = self.varint("a section alignment")?;
            self.align(align)?;
        }
        let data = self.sub(len, "section data")?;
        Ok((id, data))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_of_every_length() {
        // 1 byte: value << 1 | 1; 2 bytes: value << 2 | 0b10; 9 bytes: 0 then a u64.
        assert_eq!(Cursor::new(&[0x07]).varint("v").unwrap(), 3);
        assert_eq!(Cursor::new(&[0xb6, 0x02]).varint("v").unwrap(), 0x2b6 >> 2);
        let mut nine = vec![0u8];
        nine.extend_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(Cursor::new(&nine).varint("v").unwrap(), u64::MAX);
        let mut c = Cursor::new(&[0x03, 0x05]);
        assert_eq!(c.svarint("s").unwrap(), -1);
        assert_eq!(c.varint_flag("f").unwrap(), (1, false));
        assert!(c.is_empty());
    }

    #[test]
    fn truncated_varints_name_the_offset() {
        let e = Cursor::new(&[0x02])
            .varint("an index")
            .unwrap_err()
            .to_string();
        assert!(e.contains("byte 0") && e.contains("an index"), "{e}");
        let e = Cursor::new(&[0x00, 1, 2])
            .varint("a size")
            .unwrap_err()
            .to_string();
        assert!(e.contains("9-byte varint"), "{e}");
        assert!(Cursor::new(&[]).varint("x").is_err());
    }

    #[test]
    fn lengths_beyond_the_end_are_errors() {
        let mut c = Cursor::new(&[0x09, 1, 2]);
        let n = c.varint("n").unwrap();
        let e = c.bytes(n, "a blob").unwrap_err().to_string();
        assert!(e.contains("byte 1") && e.contains("only 2 remain"), "{e}");
        // A count larger than the bytes left is refused before anything is allocated.
        let e = Cursor::new(&[0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f])
            .count("items")
            .unwrap_err()
            .to_string();
        assert!(e.contains("items"), "{e}");
        assert!(Cursor::new(b"abc").cstr("a name").is_err());
        assert_eq!(Cursor::new(b"abc\0").cstr("a name").unwrap(), "abc");
    }

    #[test]
    fn sections_and_their_ids() {
        // id 4, length 2, then the data.
        let mut c = Cursor::new(&[0x04, 0x05, 7, 8]);
        let (id, s) = c.section().unwrap();
        assert_eq!((id, s.remaining(), s.offset()), (4, 2, 2));
        let e = Cursor::new(&[0x09, 0x01])
            .section()
            .unwrap_err()
            .to_string();
        assert!(e.contains("section id"), "{e}");
        // Aligned: alignment 4, padding 0xCB up to offset 4.
        let mut c = Cursor::new(&[0x84, 0x03, 0x09, 0xcb, 0xaa]);
        let (_, s) = c.section().unwrap();
        assert_eq!(s.offset(), 4);
        assert!(Cursor::new(&[0x84, 0x03, 0x09, 0x00, 0xaa])
            .section()
            .is_err());
    }

    #[test]
    fn bad_magic_and_future_versions() {
        let e = crate::bytecode::read_module(b"MLIR\x0d")
            .unwrap_err()
            .to_string();
        assert!(e.contains("magic"), "{e}");
        let e = crate::bytecode::read_module(b"ML\xefR\x0fx\0")
            .unwrap_err()
            .to_string();
        assert!(e.contains("bytecode version"), "{e}");
        let e = crate::bytecode::read_module(b"ML\xefR\x0dx\0")
            .unwrap_err()
            .to_string();
        assert!(e.contains("String section"), "{e}");
    }
}
