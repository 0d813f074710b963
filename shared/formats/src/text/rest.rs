//! The rest of a player in a text show, after his position, checked rather than read.
//!
//! The inspector's summary needs a player's side, number, type, state and position, but must
//! accept and refuse a log exactly as the page's full reading does ([`super::parse_player`]).
//! Checking that the rest is in the form rcssserver writes is several times cheaper than
//! reading its numbers, and anything not in that form is read in full, so these checks never
//! decide alone that a player is wrong: every text they accept, `parse_player` reads to the
//! same end.
//!
//! Three checks, each taking a subset of what the next takes, to the same end: [`masks`]
//! takes nearly every player (single spaces, numbers with no exponent) with its bytes'
//! classes as bit masks; [`plain_in`] takes the same form number by number, and a few more
//! (the window's whole span); [`scan_rest`] takes what they leave (several spaces,
//! exponents, long numbers).

use crate::number::{byte, lead_digits};
use crate::window::{padded, Window};

mod masks;
use masks::by_masks;

/// Where the player whose rest starts `b` ends, if the rest is in rcssserver's form.
#[inline]
pub(super) fn rest_as_written(b: &[u8]) -> Option<usize> {
    let pad: [u8; 272];
    let w = match Rest::direct(b, SEEN) {
        Some(w) => w,
        None => {
            pad = padded(b, SEEN);
            Rest::over(&pad, b, SEEN)
        }
    };
    by_masks(&w)
        .or_else(|| plain_in(&w))
        .or_else(|| scan_rest(b))
}

/// Bytes of a rest the checks look at: a real one is 80 to 160.
const SEEN: usize = 192;

/// A rest seen through a [`Window`]: a check takes a rest only when everything it consumed
/// lies before the window's `len`, and each of its verdicts depends only on bytes it consumed
/// and the one after them.
type Rest<'a> = Window<'a, 272>;

/// The plain decimal at `i`, `-?D{1,7}(.D{1,7})?`, followed by a space or `)`: where it
/// ends and whether it is one.
#[inline(always)]
fn number(w: &Rest<'_>, i: usize) -> (usize, bool) {
    let v = w.load8(i);
    let neg = usize::from(v as u8 == b'-');
    let w1 = v >> (8 * neg);
    // At most 7 digits, so that the byte after them is in `w1` (8 - neg bytes of the log).
    let int = lead_digits(w1);
    let after_int = byte(w1, int);
    let dot = after_int == b'.';
    let w2 = w.load8(i + neg + int + 1);
    let frac = lead_digits(w2);
    let after_frac = byte(w2, frac);
    let (len, end, frac_ok) = if dot {
        (neg + int + 1 + frac, after_frac, (1..=7).contains(&frac))
    } else {
        (neg + int, after_int, true)
    };
    let good = (1..=7).contains(&int) & (int + neg < 8) & frac_ok & ((end == b' ') | (end == b')'));
    (i + len, good)
}

/// [`plain_in`] on `b` alone (zeros after it), for the tests.
#[cfg(test)]
fn plain(b: &[u8]) -> Option<usize> {
    plain_in(&Rest::over(&padded(b, SEEN), b, SEEN))
}

/// [`scan_rest`] for single spaces and numbers of up to seven digits before and after the
/// point with no exponent, which is nearly every player: numbers are checked eight bytes at a
/// time with no branch on their sign, length or digits, and every step adds to one verdict
/// read at the end. Branches stay only where a player's shape differs (point-to, focus point,
/// stamina capacity, attention), which follows the log's version or is rare.
#[inline]
fn plain_in(w: &Rest<'_>) -> Option<usize> {
    let mut ok = true;
    let mut i = 0;
    // ` VX VY BODY NECK `
    for _ in 0..4 {
        ok &= w.at(i) == b' ';
        let (end, good) = number(w, i + 1);
        ok &= good;
        i = end;
    }
    ok &= w.at(i) == b' ';
    i += 1;
    if w.at(i) != b'(' {
        // Point-to: `PX PY `.
        for _ in 0..2 {
            let (end, good) = number(w, i);
            ok &= good & (w.at(end) == b' ');
            i = end + 1;
        }
    }
    // `(v Q W) `
    let v = w.load8(i);
    ok &= (v as u32) & 0xFF_FFFF == u32::from_le_bytes(*b"(v \0");
    ok &= matches!(byte(v, 3), b'h' | b'l' | 0 | 1) & (byte(v, 4) == b' ');
    let (end, good) = number(w, i + 5);
    ok &= good & (w.at(end) == b')') & (w.at(end + 1) == b' ');
    i = end + 2;
    // `(fp D A) `
    if w.load8(i) as u32 == u32::from_le_bytes(*b"(fp ") {
        let (end, good) = number(w, i + 4);
        ok &= good & (w.at(end) == b' ');
        let (end, good) = number(w, end + 1);
        ok &= good & (w.at(end) == b')') & (w.at(end + 1) == b' ');
        i = end + 2;
    }
    // `(s S E R [C]) `
    ok &= (w.load8(i) as u32) & 0xFF_FFFF == u32::from_le_bytes(*b"(s \0");
    i += 3;
    for k in 0..3 {
        let (end, good) = number(w, i);
        ok &= good;
        i = end;
        if k < 2 {
            ok &= w.at(i) == b' ';
            i += 1;
        }
    }
    if w.at(i) == b' ' {
        let (end, good) = number(w, i + 1);
        ok &= good;
        i = end;
    }
    ok &= (w.at(i) == b')') & (w.at(i + 1) == b' ');
    i += 2;
    // `(f SIDE N) ` as rcssserver writes it, `(fSIDE N) ` as rcgverconv does.
    let f = w.load8(i);
    if f as u16 == u16::from_le_bytes(*b"(f") {
        let gap = usize::from(byte(f, 2) == b' ');
        ok &= matches!(byte(f, 2 + gap), b'l' | b'r') & (byte(f, 3 + gap) == b' ');
        let n = lead_digits(w.load8(i + 4 + gap));
        ok &= (1..=7).contains(&n);
        i += 4 + gap + n;
        ok &= (w.at(i) == b')') & (w.at(i + 1) == b' ');
        i += 2;
    }
    // `(c N…))`: up to 12 counts of 1 to 7 digits (the scan takes up to 9), each after one
    // space.
    ok &= (w.load8(i) as u16) == u16::from_le_bytes(*b"(c");
    i += 2;
    for _ in 0..12 {
        let space = w.at(i) == b' ';
        let n = lead_digits(w.load8(i + 1));
        ok &= !space | (1..=7).contains(&n);
        i += usize::from(space) * (1 + n);
    }
    ok &= (w.at(i) == b')') & (w.at(i + 1) == b')');
    // Everything read was the rest's own bytes, never the window's padding.
    (ok & (i + 2 <= w.len())).then_some(i + 2)
}

/// Checks the rest of a player after his position, ` VX VY BODY NECK [PX PY] (v Q W) [(fp D A)]
/// (s S E R [C]) [(f SIDE N)] (c N…))`, in the plain form rcssserver writes it (spaces between
/// tokens, decimals with an optional exponent, at most 12 counts of at most nine digits), and
/// returns where the player ends.
#[inline]
fn scan_rest(b: &[u8]) -> Option<usize> {
    let mut s = Scan { b, i: 0 };
    for _ in 0..4 {
        s.gap()?;
        s.number()?;
    }
    s.gap()?;
    if s.peek() != b'(' {
        // Point-to.
        s.number()?;
        s.gap()?;
        s.number()?;
        s.gap()?;
    }
    s.lit(b"(v ")?;
    s.spaces();
    matches!(s.peek(), b'h' | b'l' | 0 | 1).then_some(())?;
    s.i += 1;
    s.gap()?;
    s.number()?;
    s.lit(b") ")?;
    s.spaces();
    if s.lit(b"(fp ").is_some() {
        s.spaces();
        s.number()?;
        s.gap()?;
        s.number()?;
        s.lit(b") ")?;
        s.spaces();
    }
    s.lit(b"(s ")?;
    s.spaces();
    s.number()?;
    for _ in 0..2 {
        s.gap()?;
        s.number()?;
    }
    s.spaces();
    if s.lit(b")").is_none() {
        s.number()?;
        s.lit(b")")?;
    }
    s.gap()?;
    if s.lit(b"(f").is_some() {
        s.spaces();
        matches!(s.peek(), b'l' | b'r').then_some(())?;
        s.i += 1;
        s.gap()?;
        s.count()?;
        s.lit(b")")?;
        s.gap()?;
    }
    s.lit(b"(c")?;
    for _ in 0..12 {
        if s.peek() != b' ' {
            break;
        }
        s.spaces();
        s.count()?;
    }
    s.lit(b"))")?;
    Some(s.i)
}

/// A cursor for [`scan_rest`]: its steps answer `None` for anything but the plain form.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    /// The byte at the cursor; 0xFF past the end (never a byte of the form).
    #[inline(always)]
    fn peek(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0xFF)
    }

    #[inline(always)]
    fn spaces(&mut self) {
        while self.peek() == b' ' {
            self.i += 1;
        }
    }

    /// One or more spaces.
    #[inline(always)]
    fn gap(&mut self) -> Option<()> {
        (self.peek() == b' ').then_some(())?;
        self.i += 1;
        self.spaces();
        Some(())
    }

    #[inline(always)]
    fn lit(&mut self, l: &[u8]) -> Option<()> {
        (self.b.get(self.i..self.i + l.len())? == l).then_some(())?;
        self.i += l.len();
        Some(())
    }

    /// 1 to 12 digits.
    #[inline(always)]
    fn digits(&mut self) -> Option<()> {
        let n = crate::number::digit_run(self.b, self.i);
        (1..=12).contains(&n).then_some(())?;
        self.i += n;
        Some(())
    }

    /// A decimal as `parse_f32_prefix` reads it whole: followed by a space or `)`.
    #[inline(always)]
    fn number(&mut self) -> Option<()> {
        if self.peek() == b'-' {
            self.i += 1;
        }
        self.digits()?;
        if self.peek() == b'.' {
            self.i += 1;
            self.digits()?;
        }
        if self.peek() | 0x20 == b'e' {
            self.i += 1;
            if matches!(self.peek(), b'-' | b'+') {
                self.i += 1;
            }
            self.digits()?;
        }
        matches!(self.peek(), b' ' | b')').then_some(())
    }

    /// A count: 1 to 9 digits (a `u32` whatever they are).
    #[inline(always)]
    fn count(&mut self) -> Option<()> {
        let n = crate::number::digit_run(self.b, self.i);
        (1..=9).contains(&n).then_some(())?;
        self.i += n;
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rest of every player of every show in a text log: what follows his position.
    fn rests(log: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for line in log.split(|&c| c == b'\n') {
            if !line.starts_with(b"(show ") {
                continue;
            }
            let mut i = 0;
            while let Some(k) = memchr::memmem::find(&line[i..], b"((") {
                let start = i + k;
                let mut c = super::super::Cursor::new(&line[start..]);
                let head = c.expect(b"((", "").is_ok()
                    && c.side().is_ok()
                    && c.u32("").is_ok()
                    && c.expect(b")", "").is_ok()
                    && c.i64("").is_ok()
                    && c.state().is_ok()
                    && c.f32("").is_ok()
                    && c.f32("").is_ok();
                if !head {
                    i = start + 2;
                    continue;
                }
                out.push(line[start + c.pos..].to_vec());
                i = start + c.pos;
            }
        }
        out
    }

    /// Every text log among the fixtures, inflated.
    fn text_fixtures() -> Vec<Vec<u8>> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/logs");
        let mut logs = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            for f in std::fs::read_dir(entry.unwrap().path()).unwrap() {
                let raw = std::fs::read(f.unwrap().path()).unwrap();
                let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
                    let mut v = Vec::new();
                    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&raw[..]), &mut v)
                        .unwrap();
                    v
                } else {
                    raw
                };
                if [&b"ULG4"[..], b"ULG5", b"ULG6"]
                    .iter()
                    .any(|h| bytes.starts_with(h))
                {
                    logs.push(bytes);
                }
            }
        }
        assert!(logs.len() >= 8, "text fixtures: {}", logs.len());
        logs
    }

    /// [`by_masks`] on `b` alone (zeros after it).
    fn masks(b: &[u8]) -> Option<usize> {
        by_masks(&Rest::over(&padded(b, SEEN), b, SEEN))
    }

    #[test]
    fn the_fast_checks_take_real_players_as_the_scan_does() {
        let mut players = 0;
        let mut plain_took = 0;
        let mut masks_took = 0;
        for log in text_fixtures() {
            for rest in rests(&log) {
                players += 1;
                let scan = scan_rest(&rest);
                let show = || String::from_utf8_lossy(&rest[..rest.len().min(160)]).into_owned();
                let fast = plain(&rest);
                assert_eq!(fast.or(scan), scan, "{}", show());
                plain_took += usize::from(fast.is_some());
                let fast = masks(&rest);
                assert_eq!(fast.or(scan), scan, "{}", show());
                masks_took += usize::from(fast.is_some());
                // The window is the log itself nearly always: the same verdict as over a copy.
                if let Some(w) = Rest::direct(&rest, SEEN) {
                    assert_eq!(by_masks(&w), fast, "{}", show());
                }
            }
        }
        assert!(players > 100_000, "{players}");
        // Nearly every player is in the plain form: the checks are worth having.
        assert!(plain_took * 100 > players * 95, "{plain_took} of {players}");
        assert!(masks_took * 100 > players * 95, "{masks_took} of {players}");
    }

    #[test]
    fn the_fast_checks_never_take_what_the_scan_refuses() {
        // Real players' rests damaged one byte at a time in many ways, cut, and widened: what
        // the plain check or the masks take, the scan takes to the same end (they are subsets
        // of it).
        let mut tried = 0;
        let mut taken = 0;
        let mut masks_took = 0;
        for log in text_fixtures().iter().take(3) {
            for rest in rests(log).iter().step_by(211) {
                let end = scan_rest(rest).unwrap_or(rest.len()).min(rest.len());
                let mut check = |bad: &[u8]| {
                    tried += 1;
                    if let Some(e) = plain(bad) {
                        taken += 1;
                        assert_eq!(scan_rest(bad), Some(e), "{}", String::from_utf8_lossy(bad));
                    }
                    if let Some(e) = masks(bad) {
                        masks_took += 1;
                        assert_eq!(scan_rest(bad), Some(e), "{}", String::from_utf8_lossy(bad));
                    }
                };
                for pos in 0..end {
                    for with in [
                        b' ', b'-', b'.', b'e', b'0', b'9', b')', b'(', b'x', 0, 1, b'\t',
                    ] {
                        let mut bad = rest.clone();
                        bad[pos] = with;
                        check(&bad);
                    }
                    check(&rest[..pos]);
                    let mut wider = rest.clone();
                    wider.insert(pos, b' ');
                    check(&wider);
                    let mut digit = rest.clone();
                    digit.insert(pos, b'7');
                    check(&digit);
                }
            }
        }
        assert!(
            tried > 10_000 && taken > 100 && masks_took > 100,
            "{tried} tried, {taken} and {masks_took} taken"
        );
    }

    #[test]
    fn numbers() {
        for (s, len, good) in [
            (&b"0 "[..], 1, true),
            (b"-0.0144 ", 7, true),
            (b"126052)", 6, true),
            (b"-166.33)", 7, true),
            (b"1234567 ", 7, true),
            (b"-123456 ", 7, true),
            (b"0.1234567)", 9, true),
            (b"0.12345678)", 10, false),
            (b"-1234567 ", 8, false),
            (b"1. ", 2, false),
            (b"1e-05 ", 1, false),
            (b"- ", 1, false),
            (b".5 ", 2, false),
            (b"12", 2, false),
            (b"5x", 1, false),
        ] {
            assert_eq!(
                number(&Rest::over(&padded(s, SEEN), s, SEEN), 0),
                (len, good),
                "{}",
                String::from_utf8_lossy(s)
            );
        }
    }
}
