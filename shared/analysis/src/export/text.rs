//! The tracking table straight from a text log (ULG4–6), line by line, without decoding the
//! shows into frames (and the player types table beside it, from the log's `player_type`
//! lines): for datasets of thousands of logs, where the decoder's work (numbers
//! parsed into floats, then printed again with six significant digits) was most of the cost.
//!
//! Why the rows are the same: rcssserver prints every number of a show with six significant
//! digits, and any decimal of at most six significant digits survives the trip through an
//! `f32` and back unchanged (`FLT_DIG` is 6). So a number already in that form
//! ([`canonical`]) is copied as it stands; any other is parsed and printed as the decoder's
//! path does ([`rcss_formats::number`]). The lines other than shows (play modes, teams, messages,
//! parameters) are rare and go through the decoder's own record parser.
//!
//! Only the plain form rcssserver writes is taken (single spaces, every player's fields in
//! order); [`TextTracking::lines`] and [`show_body`] say when a log holds anything else, from
//! its first line (a binary or JSON log) to damage anywhere: the caller then writes the table
//! again with the decoder, which reads every form and says what is wrong. A test checks the
//! two give the same bytes on every log in the fixtures (`shared/analysis/tests/export_text.rs`).

use super::{PlayerTypes, Tracking};
use rcss_formats::log::{LogEnd, MAX_RECORD_BYTES};
use rcss_formats::model::{Record, Team};
use rcss_formats::number::{parse_f32_prefix, write_g6};
use rcss_formats::playmode::PlayMode;

/// One show of a batch of lines: the end of its first columns in the batch's prefixes, and
/// where its line is in the batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShowLine {
    pub prefix_end: usize,
    pub start: usize,
    pub end: usize,
}

/// Reads a text log's lines in batches: the lines other than shows and the state they
/// carry (play mode, teams, the shows' count), in order ([`TextTracking::lines`]); the rest
/// of each show's row depends on its line alone ([`show_body`]), so a caller may write the
/// bodies of a batch on several cores.
#[derive(Debug, Default)]
pub struct TextTracking {
    tracking: Tracking,
    mode: PlayMode,
    teams: [Team; 2],
    end: LogEnd,
    shows: u64,
    started: bool,
    records: Vec<Record>,
    prefix: String,
    types: PlayerTypes,
    /// The player types table so far ([`PlayerTypes`]): the types are a few lines near the
    /// log's start.
    types_table: String,
}

impl TextTracking {
    pub fn new() -> TextTracking {
        TextTracking::default()
    }

    /// Takes a batch of whole lines (the log's next bytes, uncompressed, up to and including
    /// a newline): appends each show's first columns to `prefixes` and notes the show in
    /// `shows`. `false`: the log is not in the plain text form (or is damaged), and must be
    /// written with the decoder instead.
    pub fn lines(
        &mut self,
        batch: &[u8],
        prefixes: &mut Vec<u8>,
        shows: &mut Vec<ShowLine>,
    ) -> bool {
        let mut pos = 0;
        if !self.started {
            let header = [b"ULG4", b"ULG5", b"ULG6"].iter().find_map(|h| {
                let rest = batch.strip_prefix(&h[..])?;
                Some(match rest.first() {
                    Some(b'\n') => 5,
                    Some(b'\r') if rest.get(1) == Some(&b'\n') => 6,
                    _ => return None,
                })
            });
            let Some(n) = header else {
                return false;
            };
            pos = n;
            self.started = true;
        }
        while pos < batch.len() {
            let Some(n) = memchr::memchr(b'\n', &batch[pos..]) else {
                // Not a whole line: the caller breaks batches after a newline.
                return false;
            };
            let (start, next) = (pos, pos + n + 1);
            let mut end = pos + n;
            if end > start && batch[end - 1] == b'\r' {
                end -= 1;
            }
            pos = next;
            let line = &batch[start..end];
            if line.len() > MAX_RECORD_BYTES {
                return false;
            }
            if line.starts_with(b"(show ") {
                let Some(time) = show_time(line) else {
                    return false;
                };
                self.prefix.clear();
                self.tracking
                    .prefix(time, self.mode.name(), &self.teams, &mut self.prefix);
                prefixes.extend_from_slice(self.prefix.as_bytes());
                shows.push(ShowLine {
                    prefix_end: prefixes.len(),
                    start,
                    end,
                });
                self.end.note_show(time, self.mode);
                self.shows += 1;
                continue;
            }
            if !self.other(line) {
                return false;
            }
        }
        true
    }

    /// Whether the log's first line, a text log's header, was read.
    pub fn has_header(&self) -> bool {
        self.started
    }

    /// Shows read.
    pub fn shows(&self) -> u64 {
        self.shows
    }

    /// Where the record of the match stops.
    pub fn end(&self) -> LogEnd {
        self.end
    }

    /// The player types table of the lines read (empty if they had no `player_type`).
    pub fn player_types(&self) -> &str {
        &self.types_table
    }

    /// Rows of the player types table.
    pub fn player_type_rows(&self) -> usize {
        self.types.rows()
    }

    /// A line other than a show, through the decoder's record parser.
    fn other(&mut self, line: &[u8]) -> bool {
        if line.iter().all(u8::is_ascii_whitespace) {
            return true;
        }
        self.records.clear();
        if !rcss_formats::text::parse_line(line, &mut self.records) {
            return false;
        }
        for r in self.records.drain(..) {
            self.end.push(&r);
            match r {
                Record::PlayMode { mode, .. } => self.mode = mode,
                Record::Team { teams, .. } => self.teams = teams,
                Record::PlayerType(p) => self.types.row(&p, &mut self.types_table),
                Record::Show(_) => return false,
                _ => {}
            }
        }
        true
    }
}

/// Appends `b[start..end]` to `out`. Numbers are a few bytes long: eight bytes are copied
/// at once (one move, where a call to `memcpy` cost more than the copy) and the excess cut.
#[inline(always)]
fn copy_short(out: &mut Vec<u8>, b: &[u8], start: usize, end: usize) {
    match b.get(start..start + 8) {
        Some(eight) if end - start <= 8 => {
            let len = out.len();
            out.extend_from_slice(eight);
            out.truncate(len + (end - start));
        }
        _ => out.extend_from_slice(&b[start..end]),
    }
}

/// The cycle of a show line, if it starts in the plain form.
fn show_time(line: &[u8]) -> Option<u32> {
    let mut c = Cursor { b: line, i: 6 };
    let t = u32::try_from(c.uint()?).ok()?;
    c.lit(b" ((b) ")?;
    Some(t)
}

/// The rest of a show's row after its first columns: the ball, the 22 players and the
/// newline, appended to `out`; `None` (with `out` to be thrown away) for anything but the
/// plain form.
pub fn show_body(line: &[u8], out: &mut Vec<u8>) -> Option<()> {
    let mut c = Cursor { b: line, i: 6 };
    c.uint()?;
    // The ball right after the time: a show carrying its own play mode or teams is not the
    // plain form.
    c.lit(b" ((b) ")?;
    for k in 0..4 {
        if k > 0 {
            c.lit(b" ")?;
        }
        out.push(b',');
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
    out.push(b'\n');
    Some(())
}

/// True for a number as rcssserver prints it and as `write_g6` would print it back: an
/// optional minus, an integer part without leading zeros, a fraction without trailing zeros,
/// at most six significant digits, not below 10^-4 (printed with an exponent).
pub fn canonical(t: &[u8]) -> bool {
    let (end, plain) = scan_number(t, 0);
    plain && end == t.len()
}

/// Reads a number's characters from `start` (minus, digits, a point, digits): where they end,
/// and whether they are [`canonical`].
#[inline(always)]
fn scan_number(b: &[u8], start: usize) -> (usize, bool) {
    let s = b.get(start..).unwrap_or_default();
    let neg = usize::from(s.first() == Some(&b'-'));
    let d = &s[neg..];
    let int_len = d.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut plain = (1..=6).contains(&int_len) && (int_len == 1 || d[0] != b'0');
    let mut len = neg + int_len;
    if d.get(int_len) == Some(&b'.') {
        let frac = &d[int_len + 1..];
        let frac = &frac[..frac.iter().take_while(|c| c.is_ascii_digit()).count()];
        len += 1 + frac.len();
        plain = plain
            && !frac.is_empty()
            && frac.last() != Some(&b'0')
            && if d[0] == b'0' {
                let zeros = frac.iter().take_while(|&&c| c == b'0').count();
                zeros <= 3 && frac.len() - zeros <= 6
            } else {
                int_len + frac.len() <= 6
            };
    }
    (start + len, plain)
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    /// A literal: compared byte by byte (the literals are a few bytes long, known when this
    /// is inlined; a `memcmp` call each was a quarter of the time).
    #[inline(always)]
    fn lit(&mut self, s: &[u8]) -> Option<()> {
        let rest = self.b.get(self.i..self.i + s.len())?;
        for k in 0..s.len() {
            if rest[k] != s[k] {
                return None;
            }
        }
        self.i += s.len();
        Some(())
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

    /// A number, written to `out` as the decoder's path would (`None`: only checked). One
    /// pass finds the token's end and whether it is [`canonical`]; the rest (a number printed
    /// any other way) is out of line, so this part inlines where each call knows `out`.
    #[inline(always)]
    fn number(&mut self, out: Option<&mut Vec<u8>>) -> Option<()> {
        let start = self.i;
        let b = self.b;
        let (i, plain) = scan_number(b, start);
        if plain && matches!(b.get(i), Some(b' ' | b')')) {
            if let Some(out) = out {
                copy_short(out, b, start, i);
            }
            self.i = i;
            return Some(());
        }
        self.reprinted(out)
    }

    /// A number not in the form rcssserver prints, as the decoder reads it: from the token on,
    /// the whole token, printed again.
    #[cold]
    #[inline(never)]
    fn reprinted(&mut self, out: Option<&mut Vec<u8>>) -> Option<()> {
        let start = self.i;
        let t = self.token()?;
        let (v, n) = parse_f32_prefix(&self.b[start..])?;
        if n != t.len() {
            return None;
        }
        if let Some(out) = out {
            let mut s = String::new();
            write_g6(&mut s, f64::from(v));
            out.extend_from_slice(s.as_bytes());
        }
        Some(())
    }

    /// ` ((SIDE UNUM) TYPE STATE X Y VX VY BODY NECK [PX PY] (v Q W) [(fp D A)] (s S E R [C])
    /// [(f SIDE N)] (c N…))`, its nine columns written (empty for a player off the field).
    fn player(&mut self, out: &mut Vec<u8>) -> Option<()> {
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
        // As it prints (no leading zero, no "-0"), and a type the decoder takes (an i16).
        if !canonical_int(kind) || kind.len() > 6 {
            return None;
        }
        let magnitude = kind
            .iter()
            .filter(|c| c.is_ascii_digit())
            .fold(0i64, |v, &c| v * 10 + i64::from(c - b'0'));
        i16::try_from(if kind[0] == b'-' {
            -magnitude
        } else {
            magnitude
        })
        .ok()?;
        self.lit(b" ")?;
        let on_field = self.state()? != 0;
        let mut out = if on_field {
            out.push(b',');
            out.extend_from_slice(kind);
            Some(out)
        } else {
            out.extend_from_slice(b",,,,,,,,,");
            None
        };
        for _ in 0..6 {
            self.lit(b" ")?;
            if let Some(o) = out.as_deref_mut() {
                o.push(b',');
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
            o.push(b',');
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
            o.push(b',');
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
        self.counts()?;
        self.lit(b")")
    }

    /// The command counts after `(c`: at most 12 numbers of one to nine digits, each after a
    /// space, and the closing parenthesis.
    #[inline]
    fn counts(&mut self) -> Option<()> {
        let rest = &self.b[self.i..];
        let mut k = 0;
        for _ in 0..=12 {
            match rest.get(k)? {
                b')' => {
                    self.i += k + 1;
                    return Some(());
                }
                b' ' => k += 1,
                _ => return None,
            }
            let digits = rest[k..].iter().take_while(|c| c.is_ascii_digit()).count();
            if !(1..=9).contains(&digits) {
                return None;
            }
            k += digits;
        }
        None
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
