//! The tracking table straight from a text log (ULG4–6), line by line, without decoding the
//! shows into frames: for datasets of thousands of logs, where the decoder's work (numbers
//! parsed into floats, then printed again with six significant digits) was most of the cost.
//!
//! Why the rows are the same: rcssserver prints every number of a show with six significant
//! digits, and any decimal of at most six significant digits survives the trip through an
//! `f32` and back unchanged (`FLT_DIG` is 6). So a number already in that form
//! ([`canonical`]) is copied as it stands; any other is parsed and printed as the decoder's
//! path does ([`crate::number`]). The lines other than shows (play modes, teams, messages,
//! parameters) are rare and go through the decoder's own record parser.
//!
//! Only the plain form rcssserver writes is taken (single spaces, every player's fields in
//! order); [`TextTracking::feed`] says when a log holds anything else, from its first line
//! (a binary or JSON log) to damage anywhere: the caller then writes the table again with the
//! decoder, which reads every form and says what is wrong. The test below checks the two
//! give the same bytes on every log in the fixtures.

use super::Tracking;
use crate::log::{LogEnd, MAX_RECORD_BYTES};
use crate::model::{Record, Team};
use crate::number::{parse_f32_prefix, write_g6};
use crate::playmode::PlayMode;

/// Writes the tracking rows of a text log as its bytes arrive.
#[derive(Debug, Default)]
pub struct TextTracking {
    tracking: Tracking,
    mode: PlayMode,
    teams: [Team; 2],
    end: LogEnd,
    shows: u64,
    started: bool,
    /// The start of a line the last bytes cut.
    carry: Vec<u8>,
    records: Vec<Record>,
}

impl TextTracking {
    pub fn new() -> TextTracking {
        TextTracking::default()
    }

    /// Takes the next bytes of the log (uncompressed) and appends the rows of the shows they
    /// complete to `out`. `false`: the log is not in the plain text form (or is damaged), and
    /// must be written with the decoder instead; what was appended is then to be thrown away.
    pub fn feed(&mut self, mut buf: &[u8], out: &mut String) -> bool {
        if !self.started {
            let header = [b"ULG4", b"ULG5", b"ULG6"].iter().find_map(|h| {
                let rest = buf.strip_prefix(&h[..])?;
                Some(match rest.first() {
                    Some(b'\n') => 5,
                    Some(b'\r') if rest.get(1) == Some(&b'\n') => 6,
                    _ => return None,
                })
            });
            let Some(n) = header else {
                return false;
            };
            buf = &buf[n..];
            self.started = true;
        }
        if !self.carry.is_empty() {
            let Some(n) = memchr::memchr(b'\n', buf) else {
                self.carry.extend_from_slice(buf);
                return self.carry.len() <= MAX_RECORD_BYTES + 2;
            };
            let mut line = std::mem::take(&mut self.carry);
            line.extend_from_slice(&buf[..n]);
            let ok = self.line(&line, out);
            line.clear();
            self.carry = line;
            if !ok {
                return false;
            }
            buf = &buf[n + 1..];
        }
        while let Some(n) = memchr::memchr(b'\n', buf) {
            if !self.line(&buf[..n], out) {
                return false;
            }
            buf = &buf[n + 1..];
        }
        self.carry.extend_from_slice(buf);
        self.carry.len() <= MAX_RECORD_BYTES + 2
    }

    /// The end of the log: `false` when its last line has no newline (the decoder says
    /// whether it was cut) or it had no header at all.
    pub fn finish(&mut self) -> bool {
        self.started && self.carry.iter().all(u8::is_ascii_whitespace)
    }

    /// Shows written.
    pub fn shows(&self) -> u64 {
        self.shows
    }

    /// Where the record of the match stops.
    pub fn end(&self) -> LogEnd {
        self.end
    }

    fn line(&mut self, line: &[u8], out: &mut String) -> bool {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() > MAX_RECORD_BYTES {
            return false;
        }
        if line.starts_with(b"(show ") {
            return self.show(line, out).is_some();
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            return true;
        }
        self.records.clear();
        if crate::text::parse_record(line, &mut self.records).is_err() {
            return false;
        }
        for r in self.records.drain(..) {
            self.end.push(&r);
            match r {
                Record::PlayMode { mode, .. } => self.mode = mode,
                Record::Team { teams, .. } => self.teams = teams,
                Record::Show(_) => return false,
                _ => {}
            }
        }
        true
    }

    /// One show's row; `None` for anything but the plain form.
    fn show(&mut self, line: &[u8], out: &mut String) -> Option<()> {
        let mut c = Cursor { b: line, i: 6 };
        let time = u32::try_from(c.uint()?).ok()?;
        // The ball right after the time: a show carrying its own play mode or teams is not
        // the plain form.
        c.lit(b" ((b) ")?;
        self.tracking
            .prefix(time, self.mode.name(), &self.teams, out);
        for k in 0..4 {
            if k > 0 {
                c.lit(b" ")?;
            }
            out.push(',');
            c.number(Some(out))?;
        }
        c.lit(b")")?;
        for _ in 0..22 {
            c.player(out)?;
        }
        c.lit(b")")?;
        if c.i != line.len() {
            return None;
        }
        out.push('\n');
        self.end.note_show(time, self.mode);
        self.shows += 1;
        Some(())
    }
}

/// True for a number as rcssserver prints it and as `write_g6` would print it back: an
/// optional minus, an integer part without leading zeros, a fraction without trailing zeros,
/// at most six significant digits, not below 10^-4 (printed with an exponent).
pub fn canonical(t: &[u8]) -> bool {
    let d = t.strip_prefix(b"-").unwrap_or(t);
    let int_len = d
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(d.len());
    if int_len == 0 || int_len > 6 || (int_len > 1 && d[0] == b'0') {
        return false;
    }
    if int_len == d.len() {
        return true;
    }
    if d[int_len] != b'.' {
        return false;
    }
    let frac = &d[int_len + 1..];
    if frac.is_empty() || frac.last() == Some(&b'0') || !frac.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let significant = if d[0] == b'0' {
        let zeros = frac.iter().take_while(|&&b| b == b'0').count();
        if zeros > 3 {
            return false;
        }
        frac.len() - zeros
    } else {
        int_len + frac.len()
    };
    significant <= 6
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    #[inline]
    fn lit(&mut self, s: &[u8]) -> Option<()> {
        if self.b[self.i..].starts_with(s) {
            self.i += s.len();
            Some(())
        } else {
            None
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Up to nine digits.
    #[inline]
    fn uint(&mut self) -> Option<u64> {
        let start = self.i;
        let mut v = 0u64;
        while let Some(d) = self.peek().filter(u8::is_ascii_digit) {
            v = v * 10 + u64::from(d - b'0');
            self.i += 1;
        }
        (self.i > start && self.i - start <= 9).then_some(v)
    }

    /// The next token: up to a space or a closing parenthesis.
    #[inline]
    fn token(&mut self) -> Option<&'a [u8]> {
        let start = self.i;
        let rest: &'a [u8] = &self.b[start..];
        let n = rest.iter().position(|&b| b == b' ' || b == b')')?;
        if n == 0 {
            return None;
        }
        self.i += n;
        Some(&rest[..n])
    }

    /// A number, written to `out` as the decoder's path would (`None`: only checked).
    #[inline]
    fn number(&mut self, out: Option<&mut String>) -> Option<()> {
        let start = self.i;
        let t = self.token()?;
        if canonical(t) {
            if let Some(out) = out {
                // Digits, a point and a minus: ASCII.
                out.push_str(std::str::from_utf8(t).ok()?);
            }
            return Some(());
        }
        // As the decoder reads it: from the token on, the whole token.
        let (v, n) = parse_f32_prefix(&self.b[start..])?;
        if n != t.len() {
            return None;
        }
        if let Some(out) = out {
            write_g6(out, f64::from(v));
        }
        Some(())
    }

    /// ` ((SIDE UNUM) TYPE STATE X Y VX VY BODY NECK [PX PY] (v Q W) [(fp D A)] (s S E R [C])
    /// [(f SIDE N)] (c N…))`, its nine columns written (empty for a player off the field).
    fn player(&mut self, out: &mut String) -> Option<()> {
        self.lit(b" ((")?;
        match self.peek()? {
            b'l' | b'r' => self.i += 1,
            _ => return None,
        }
        self.lit(b" ")?;
        if !(1..=11).contains(&self.uint()?) {
            return None;
        }
        self.lit(b") ")?;
        let kind = self.token()?;
        if !canonical_int(kind) || kind.len() > 6 {
            return None;
        }
        let kind_value: i64 = std::str::from_utf8(kind).ok()?.parse().ok()?;
        i16::try_from(kind_value).ok()?;
        self.lit(b" ")?;
        let on_field = self.state()? != 0;
        let mut out = if on_field {
            out.push(',');
            out.push_str(std::str::from_utf8(kind).ok()?);
            Some(out)
        } else {
            out.push_str(",,,,,,,,,");
            None
        };
        for _ in 0..6 {
            self.lit(b" ")?;
            if let Some(o) = out.as_deref_mut() {
                o.push(',');
            }
            self.number(out.as_deref_mut())?;
        }
        self.lit(b" ")?;
        if self.peek()? != b'(' {
            self.number(None)?;
            self.lit(b" ")?;
            self.number(None)?;
            self.lit(b" ")?;
        }
        self.lit(b"(v ")?;
        match self.peek()? {
            b'h' | b'l' | 0 | 1 => self.i += 1,
            _ => return None,
        }
        self.lit(b" ")?;
        if let Some(o) = out.as_deref_mut() {
            o.push(',');
        }
        self.number(out.as_deref_mut())?;
        self.lit(b")")?;
        if self.lit(b" (fp ").is_some() {
            self.number(None)?;
            self.lit(b" ")?;
            self.number(None)?;
            self.lit(b")")?;
        }
        self.lit(b" (s ")?;
        if let Some(o) = out.as_deref_mut() {
            o.push(',');
        }
        self.number(out)?;
        for _ in 0..2 {
            self.lit(b" ")?;
            self.number(None)?;
        }
        if self.lit(b")").is_none() {
            self.lit(b" ")?;
            self.number(None)?;
            self.lit(b")")?;
        }
        if self.lit(b" (f").is_some() {
            let _ = self.lit(b" ");
            match self.peek()? {
                b'l' | b'r' => self.i += 1,
                _ => return None,
            }
            self.lit(b" ")?;
            u32::try_from(self.uint()?).ok()?;
            self.lit(b")")?;
        }
        self.lit(b" (c")?;
        let mut counts = 0;
        while self.lit(b")").is_none() {
            self.lit(b" ")?;
            self.uint()?;
            counts += 1;
            if counts > 12 {
                return None;
            }
        }
        self.lit(b")")
    }

    /// State bits: `0x` and hex digits that fit 32 bits, or a plain `0`.
    fn state(&mut self) -> Option<u32> {
        if self.lit(b"0x").is_some() {
            let start = self.i;
            let mut v: u32 = 0;
            while let Some(d) = self.peek().and_then(|c| (c as char).to_digit(16)) {
                v = v.checked_mul(16)? | d;
                self.i += 1;
            }
            return (self.i > start).then_some(v);
        }
        self.lit(b"0")?;
        matches!(self.peek(), Some(b' ')).then_some(0)
    }
}

/// An integer as it prints: `0`, or an optional minus and digits without a leading zero.
fn canonical_int(t: &[u8]) -> bool {
    let d = t.strip_prefix(b"-").unwrap_or(t);
    !d.is_empty() && d.iter().all(u8::is_ascii_digit) && (d == b"0" && t.len() == 1 || d[0] != b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_numbers_are_the_ones_write_g6_prints_back() {
        for t in [
            "0", "-0", "1", "-49", "123456", "0.5", "-0.0035", "0.0001", "7646.73", "0.931833",
            "-157.127", "12345.6",
        ] {
            assert!(canonical(t.as_bytes()), "{t}");
            let (v, n) = parse_f32_prefix(t.as_bytes()).unwrap_or((f32::NAN, 0));
            assert_eq!(n, t.len());
            let mut back = String::new();
            write_g6(&mut back, f64::from(v));
            assert_eq!(back, t);
        }
        for t in [
            "",
            "-",
            "00",
            "01",
            "1.",
            ".5",
            "1.50",
            "-0.0",
            "1234567",
            "1234.567",
            "0.00001",
            "1e5",
            "0.1234567",
            "+1",
            "1x",
        ] {
            assert!(!canonical(t.as_bytes()), "{t}");
        }
        // Every six-digit decimal of a sweep round-trips through f32 and write_g6.
        let mut x = 0.000_1_f64;
        while x < 100_000.0 {
            let mut s = String::new();
            write_g6(&mut s, x);
            if canonical(s.as_bytes()) {
                let (v, _) = parse_f32_prefix(s.as_bytes()).unwrap_or((f32::NAN, 0));
                let mut back = String::new();
                write_g6(&mut back, f64::from(v));
                assert_eq!(back, s, "{x}");
            }
            x *= 1.000_37;
        }
    }

    #[test]
    fn integers_and_state_bits() {
        assert!(canonical_int(b"0") && canonical_int(b"17") && canonical_int(b"-3"));
        assert!(!canonical_int(b"-0") && !canonical_int(b"017") && !canonical_int(b""));
        let mut c = Cursor { b: b"0x1f ", i: 0 };
        assert_eq!(c.state(), Some(0x1f));
        let mut c = Cursor { b: b"0 ", i: 0 };
        assert_eq!(c.state(), Some(0));
        let mut c = Cursor { b: b"07 ", i: 0 };
        assert_eq!(c.state(), None);
    }
}
