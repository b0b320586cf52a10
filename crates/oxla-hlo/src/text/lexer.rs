//! A character cursor over HLO text: whitespace and `/* */` comments, names, numbers,
//! quoted strings, and errors that carry the 1-based line and column of the text they
//! point at.
//!
//! The parser reads HLO text directly through this cursor rather than through a token
//! stream, because several attribute values (`dim_labels=b01f_01io->b01f`,
//! `padding=0_1x2_3`, `window={size=3x3 pad=1_1x1_1}`) have their own micro-syntax.

use crate::error::Error;

/// Byte offset → (line, column), both 1-based; the column counts characters.
pub(crate) fn line_col(src: &str, pos: usize) -> (usize, usize) {
    let pos = floor_char_boundary(src, pos.min(src.len()));
    let before = &src[..pos];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The error for `message` at byte offset `pos` of `src`.
pub(crate) fn error_at(src: &str, pos: usize, message: impl Into<String>) -> Error {
    let (line, column) = line_col(src, pos);
    Error::Parse {
        line,
        column,
        message: message.into(),
    }
}

pub(crate) fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-'
}

/// A cursor over `src[pos..end]`; `end` limits sub-cursors to one attribute value.
#[derive(Clone)]
pub(crate) struct Cursor<'a> {
    pub src: &'a str,
    pub pos: usize,
    pub end: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(src: &'a str) -> Self {
        Cursor {
            src,
            pos: 0,
            end: src.len(),
        }
    }

    /// A cursor over `src[start..end]` of the same text (errors keep their positions).
    pub fn sub(&self, start: usize, end: usize) -> Cursor<'a> {
        Cursor {
            src: self.src,
            pos: start,
            end,
        }
    }

    pub fn rest(&self) -> &'a str {
        self.src.get(self.pos..self.end).unwrap_or("")
    }

    /// The next raw character (no whitespace skipping).
    pub fn peek_raw(&self) -> Option<char> {
        self.rest().chars().next()
    }

    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek_raw()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// Skips whitespace, `/* ... */` and `// ...` comments (an unterminated `/*` runs to
    /// the end).
    pub fn skip_ws(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if let Some(body) = trimmed.strip_prefix("/*") {
                match body.find("*/") {
                    Some(i) => self.pos += 2 + i + 2,
                    None => self.pos = self.end,
                }
            } else if let Some(body) = trimmed.strip_prefix("//") {
                self.pos += 2 + body.find('\n').unwrap_or(body.len());
            } else {
                return;
            }
        }
    }

    /// True if a newline comes before the next non-blank character.
    pub fn newline_ahead(&self) -> bool {
        for c in self.rest().chars() {
            if c == '\n' {
                return true;
            }
            if !c.is_whitespace() {
                return false;
            }
        }
        false
    }

    pub fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.end
    }

    /// The next non-blank character.
    pub fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.peek_raw()
    }

    /// Consumes `s` if the text (after blanks) starts with it.
    pub fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Consumes the keyword `kw` if it stands as a whole word.
    pub fn eat_keyword(&mut self, kw: &str) -> bool {
        self.skip_ws();
        let rest = self.rest();
        if rest.starts_with(kw) && !rest[kw.len()..].starts_with(is_name_char) {
            self.pos += kw.len();
            true
        } else {
            false
        }
    }

    pub fn expect(&mut self, s: &str) -> Result<(), Error> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{s}'")))
        }
    }

    /// A short description of what comes next, for messages.
    pub fn found(&mut self) -> String {
        self.skip_ws();
        let rest = self.rest();
        if rest.is_empty() {
            return "end of input".to_string();
        }
        let word: String = rest
            .chars()
            .take_while(|&c| is_name_char(c))
            .take(24)
            .collect();
        if word.is_empty() {
            format!("'{}'", rest.chars().next().unwrap_or(' '))
        } else {
            format!("'{word}'")
        }
    }

    /// "expected X, found Y" at the next non-blank character.
    pub fn expected(&mut self, what: &str) -> Error {
        let found = self.found();
        self.err(format!("expected {what}, found {found}"))
    }

    /// An error at the next non-blank character.
    pub fn err(&mut self, message: impl Into<String>) -> Error {
        self.skip_ws();
        error_at(self.src, self.pos, message)
    }

    pub fn err_at(&self, pos: usize, message: impl Into<String>) -> Error {
        error_at(self.src, pos, message)
    }

    /// A word of name characters (`add.3`, `get-tuple-element`, `f32`); stops before `->`.
    pub fn word(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let rest = self.rest();
        let mut len = 0;
        for (i, c) in rest.char_indices() {
            if !is_name_char(c) || (c == '-' && rest[i..].starts_with("->")) {
                break;
            }
            len = i + c.len_utf8();
        }
        if len == 0 {
            None
        } else {
            self.pos += len;
            Some(&rest[..len])
        }
    }

    /// An instruction or computation name, with or without its leading `%`.
    pub fn name(&mut self, what: &str) -> Result<&'a str, Error> {
        self.skip_ws();
        let save = self.pos;
        let percent = self.eat("%");
        match self.word() {
            Some(w) if !w.starts_with('-') => Ok(w),
            _ => {
                self.pos = save;
                let msg = if percent {
                    format!("{what} after '%'")
                } else {
                    what.to_string()
                };
                Err(self.expected(&msg))
            }
        }
    }

    /// A signed decimal integer.
    pub fn int(&mut self) -> Result<i64, Error> {
        self.skip_ws();
        let start = self.pos;
        let rest = self.rest();
        let mut len = 0;
        for (i, c) in rest.char_indices() {
            if c.is_ascii_digit() || (i == 0 && (c == '-' || c == '+')) {
                len = i + 1;
            } else {
                break;
            }
        }
        let text = &rest[..len];
        if !text.bytes().any(|b| b.is_ascii_digit()) {
            return Err(self.expected("an integer"));
        }
        match text.parse::<i64>() {
            Ok(v) => {
                self.pos += len;
                Ok(v)
            }
            Err(_) => Err(self.err_at(start, format!("integer {text} is out of range"))),
        }
    }

    /// A non-negative integer that fits usize/u32 callers (checked by them).
    pub fn uint(&mut self, what: &str) -> Result<u64, Error> {
        self.skip_ws();
        let start = self.pos;
        let v = self.int()?;
        u64::try_from(v).map_err(|_| self.err_at(start, format!("{what} must be non-negative")))
    }

    /// The raw text of a number (integer, decimal, exponent, `inf`, `nan`, `-nan`,
    /// `nan(0x..)`), for typed parsing by the caller.
    pub fn number_text(&mut self) -> Result<(usize, &'a str), Error> {
        self.skip_ws();
        let start = self.pos;
        let rest = self.rest();
        let mut i = 0;
        let bytes = rest.as_bytes();
        if i < bytes.len() && (bytes[i] == b'-' || bytes[i] == b'+') {
            i += 1;
        }
        let tail = &rest[i..];
        if tail.starts_with("inf") || tail.starts_with("nan") {
            i += 3;
            if rest[i..].starts_with("(0x") {
                if let Some(close) = rest[i..].find(')') {
                    i += close + 1;
                }
            }
            if rest[i..].starts_with(is_name_char) {
                return Err(self.expected("a number"));
            }
        } else {
            let digits_start = i;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                i += 1;
            }
            if i == digits_start {
                return Err(self.expected("a number"));
            }
            if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
                let mut j = i + 1;
                if j < bytes.len() && (bytes[j] == b'-' || bytes[j] == b'+') {
                    j += 1;
                }
                if j < bytes.len() && bytes[j].is_ascii_digit() {
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        j += 1;
                    }
                    i = j;
                }
            }
        }
        self.pos += i;
        Ok((start, &rest[..i]))
    }

    /// A double-quoted string with C escapes (`\n`, `\"`, `\\`, octal `\101`, `\x41`).
    pub fn string(&mut self) -> Result<String, Error> {
        self.skip_ws();
        let start = self.pos;
        if self.peek_raw() != Some('"') {
            return Err(self.expected("a quoted string"));
        }
        self.pos += 1;
        let mut bytes: Vec<u8> = Vec::new();
        loop {
            let Some(c) = self.bump() else {
                return Err(self.err_at(start, "unterminated string"));
            };
            match c {
                '"' => break,
                '\\' => {
                    let esc_pos = self.pos - 1;
                    let Some(e) = self.bump() else {
                        return Err(self.err_at(start, "unterminated string"));
                    };
                    match e {
                        'n' => bytes.push(b'\n'),
                        't' => bytes.push(b'\t'),
                        'r' => bytes.push(b'\r'),
                        '0'..='7' => {
                            let mut v = e as u32 - '0' as u32;
                            for _ in 0..2 {
                                match self.peek_raw() {
                                    Some(d @ '0'..='7') => {
                                        v = v * 8 + (d as u32 - '0' as u32);
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            if v > 255 {
                                return Err(self.err_at(esc_pos, "octal escape out of range"));
                            }
                            bytes.push(v as u8);
                        }
                        'x' => {
                            let mut v: u32 = 0;
                            let mut n = 0;
                            while let Some(d) = self.peek_raw().and_then(|d| d.to_digit(16)) {
                                v = v * 16 + d;
                                n += 1;
                                self.pos += 1;
                                if n == 2 {
                                    break;
                                }
                            }
                            if n == 0 {
                                return Err(self.err_at(esc_pos, "\\x escape without digits"));
                            }
                            bytes.push(v as u8);
                        }
                        '"' | '\\' | '\'' | '?' => bytes.push(e as u8),
                        other => {
                            return Err(self
                                .err_at(esc_pos, format!("unknown escape '\\{other}' in string")))
                        }
                    }
                }
                c => {
                    let mut buf = [0u8; 4];
                    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        String::from_utf8(bytes).map_err(|_| self.err_at(start, "string is not valid UTF-8"))
    }

    /// The end of an attribute value starting at the cursor: the first top-level `,`,
    /// newline or unmatched closing bracket, skipping balanced brackets and strings.
    pub fn value_end(&self) -> usize {
        scan_value(self.src, self.pos, self.end)
    }
}

/// See [`Cursor::value_end`]; also used by the printer to decide whether a free-form
/// string can be written raw (it must scan as exactly one value).
pub(crate) fn scan_value(src: &str, start: usize, end: usize) -> usize {
    let bytes = src.as_bytes();
    let end = end.min(bytes.len());
    let mut stack: Vec<u8> = Vec::new();
    let mut i = start;
    while i < end {
        let b = bytes[i];
        match b {
            b'"' => {
                i += 1;
                while i < end && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'{' => stack.push(b'}'),
            b'(' => stack.push(b')'),
            b'[' => stack.push(b']'),
            b'}' | b')' | b']' => {
                if stack.last() == Some(&b) {
                    stack.pop();
                } else if stack.is_empty() {
                    return i;
                } else {
                    // A stray closer inside brackets: keep scanning, the value is malformed
                    // and its own parser will say so.
                }
            }
            b',' | b'\n' if stack.is_empty() => return i,
            _ => {}
        }
        i += 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column() {
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("ab", 0), (1, 1));
    }

    #[test]
    fn words_stop_before_arrow() {
        let mut c = Cursor::new("  f32-a->b");
        assert_eq!(c.word(), Some("f32-a"));
        assert!(c.eat("->"));
    }

    #[test]
    fn strings_and_escapes() {
        let mut c = Cursor::new(r#""a\"b\n\101\x42""#);
        assert_eq!(c.string().unwrap(), "a\"b\nAB");
        let mut c = Cursor::new("\"abc");
        assert!(c.string().is_err());
    }

    #[test]
    fn value_scanning() {
        let s = r#"{a, "x}", (b)}, next"#;
        assert_eq!(scan_value(s, 0, s.len()), 14);
        let s = "true\n  x = 1";
        assert_eq!(scan_value(s, 0, s.len()), 4);
    }

    #[test]
    fn numbers() {
        let mut c = Cursor::new("-1.5e-07, nan(0x1), -inf");
        assert_eq!(c.number_text().unwrap().1, "-1.5e-07");
        c.eat(",");
        assert_eq!(c.number_text().unwrap().1, "nan(0x1)");
        c.eat(",");
        assert_eq!(c.number_text().unwrap().1, "-inf");
        let mut c = Cursor::new("99999999999999999999");
        assert!(c.int().unwrap_err().to_string().contains("out of range"));
    }
}
