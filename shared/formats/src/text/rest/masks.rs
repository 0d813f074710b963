//! The rest of a player checked through masks of its bytes' classes, sixteen bytes at a time.
//!
//! [`super::plain_in`] walks a rest number by number, and each number's place depends on where
//! the one before it ended: about 45 steps per number, 950 per player. Here 128 bytes are
//! sorted at once into classes (space, digit, minus, point), one bit per byte, and the rules
//! of a number and of the spaces between numbers are checked on all the bits together. Only
//! the groups (`(v …)`, `(s …)`, …) are walked one by one, to compare their words and count
//! the numbers in them. A rest longer than the masks (v6 logs' players with a focus point
//! and long counts) gets a second set of masks from its whole-number groups on.
//!
//! It takes a subset of what [`super::plain_in`] and [`super::scan_rest`] take, to the same end
//! (the tests in `rest.rs` check it on every fixture player and on damaged ones): single
//! spaces, numbers `-?D+(.D+)?` with at most nine digits in a row. Anything else is left to
//! them.

use crate::number::byte;
use crate::window::Window;
use wide::u8x16;

/// Bytes classified, as many as fit in one mask.
const SPAN: usize = 128;

/// A rest's bytes from `base` on, [`SPAN`] of them classified: bit `k` is byte `base + k`.
struct Masks {
    base: usize,
    space: u128,
    /// Bytes of numbers: digits, minus signs and points.
    num: u128,
    /// Minus signs and points: not in whole numbers.
    signs: u128,
    /// Bytes that break a rule of numbers or spaces (see [`Masks::of`]); only those inside
    /// the rest count.
    bad: u128,
}

impl Masks {
    #[inline(always)]
    fn of<const N: usize>(w: &Window<'_, N>, base: usize) -> Masks {
        let (mut space, mut digit, mut minus, mut point) = (0u128, 0u128, 0u128, 0u128);
        for k in 0..SPAN / 16 {
            let v = u8x16::from(w.bytes16(base + 16 * k));
            let bits = |m: u8x16| u128::from(m.move_mask() as u16) << (16 * k);
            let is = |b: u8| bits(v.cmp_eq(u8x16::splat(b)));
            space |= is(b' ');
            minus |= is(b'-');
            point |= is(b'.');
            let d = v - u8x16::splat(b'0');
            digit |= bits(d.min(u8x16::splat(9)).cmp_eq(d));
        }
        let num = digit | minus | point;
        let starts = num & !(num << 1);
        // Numbers: `-?D+(.D+)?`. A minus only first and before a digit, a point between
        // digits, no second point after the digits that follow one (the carry of adding a
        // point's next bit to the digits lands just past them), at most nine digits in a row.
        let mut bad = minus & (num << 1);
        bad |= (minus << 1) & !digit;
        bad |= point & !(digit << 1);
        bad |= (point << 1) & !digit;
        bad |= (point << 1).wrapping_add(digit) & point;
        let d2 = digit & (digit >> 1);
        let d4 = d2 & (d2 >> 2);
        let d8 = d4 & (d4 >> 4);
        bad |= d8 & (d2 >> 8);
        // Every number after a space; single spaces. (A window that starts later than the
        // rest starts at a group's `(`: no rule reads the byte before it.)
        bad |= starts & !(space << 1);
        bad |= space & (space << 1);
        Masks {
            base,
            space,
            num,
            signs: minus | point,
            bad,
        }
    }

    /// The masks seen from byte `o` of the rest on.
    #[inline(always)]
    fn near(&self, o: usize) -> Near {
        let k = o - self.base;
        let (space, num) = ((self.space >> k) as u64, (self.num >> k) as u64);
        Near {
            space,
            starts: num & !(num << 1),
            marks: !(num | space),
        }
    }

    /// Bits for bytes `a..b` of the rest; `base` <= `a` <= `b` < `base + SPAN`.
    #[inline(always)]
    fn span(&self, a: usize, b: usize) -> u128 {
        let (a, b) = (a - self.base, b - self.base);
        ((1u128 << b) - 1) & !((1u128 << a) - 1)
    }
}

/// Whether bit `i` of `m` is set; `i` < 64.
#[inline(always)]
fn bit(m: u64, i: usize) -> bool {
    (m >> i) & 1 == 1
}

/// Bits below `i`; `i` < 64.
#[inline(always)]
fn below(i: usize) -> u64 {
    (1u64 << i) - 1
}

/// The bytes of `s` in a `u64`, for comparing up to eight bytes at once.
const fn word(s: &[u8]) -> u64 {
    let mut v = 0u64;
    let mut i = 0;
    while i < s.len() {
        v |= (s[i] as u64) << (8 * i);
        i += 1;
    }
    v
}

/// `k` low bytes of a `u64`.
const fn low(k: usize) -> u64 {
    (1u64 << (8 * k)) - 1
}

/// A rest's masks seen from one byte on (bit 0 is that byte): a group of the form, from its
/// `(` to the space after its `)`, fits in one word.
struct Near {
    space: u64,
    /// Where numbers start: a group's first byte, its `(`, is not a number's.
    starts: u64,
    /// Bytes that are neither a number's nor a space: parentheses and words.
    marks: u64,
}

/// A group `(WORD…)` at `o` whose word and spaces, `head` bytes, were compared already and
/// hold the marks `head_marks`: where its `)` is (from `o`), how many numbers it holds and
/// its masks; `None` if its `)` is not the first mark after the word or is too far.
#[inline(always)]
fn group<const N: usize>(
    w: &Window<'_, N>,
    near: &Near,
    o: usize,
    head: usize,
    head_marks: u64,
) -> Option<(usize, u32)> {
    let c = (near.marks >> head).trailing_zeros() as usize + head;
    if c >= 62 || w.at(o + c) != b')' || near.marks & below(c) != head_marks {
        return None;
    }
    Some((c, (near.starts & below(c)).count_ones()))
}

/// Where the player whose rest `w` holds ends, if the rest is in the form this check takes.
#[inline]
pub(super) fn by_masks<const N: usize>(w: &Window<'_, N>) -> Option<usize> {
    let m = Masks::of(w, 0);
    // ` VX VY BODY NECK [PX PY] `, up to the first mark.
    let first = m.near(0);
    let o = first.marks.trailing_zeros() as usize;
    if o == 0 || o >= 64 {
        return None;
    }
    let n = (first.starts & below(o)).count_ones();
    let mut ok = bit(first.space, 0) & bit(first.space, o - 1) & ((n == 4) | (n == 6));
    // `(v Q W) `: the quality `h` or `l`, or the byte 1 or 0 that librcsc's `rcgverconv`
    // writes for them.
    let v = w.load8(o) & low(5);
    let q = (v >> 24) as u8;
    ok &= (v & !(0xFF << 24) == word(b"(v \0 ")) & matches!(q, b'h' | b'l' | 0 | 1);
    let g = m.near(o);
    let (c, n) = group(w, &g, o, 5, 0b1011)?;
    ok &= numbers(&g, 5, c) & (n == 1);
    let mut o = o + c + 2;
    if o >= SPAN {
        return None;
    }
    // `(fp D A) `
    if w.load8(o) & low(4) == word(b"(fp ") {
        let g = m.near(o);
        let (c, n) = group(w, &g, o, 4, 0b111)?;
        ok &= numbers(&g, 4, c) & (n == 2);
        o += c + 2;
        if o >= SPAN {
            return None;
        }
    }
    // `(s S E R [C]) `
    ok &= w.load8(o) & low(3) == word(b"(s ");
    let g = m.near(o);
    let (c, n) = group(w, &g, o, 3, 0b11)?;
    ok &= numbers(&g, 3, c) & ((n == 3) | (n == 4));
    o += c + 2;
    if !ok || o >= SPAN {
        return None;
    }
    ok &= m.bad & m.span(0, o) == 0;
    // The whole numbers after it, in the masks already made if they reach that far (a rest as
    // rcssserver's v5 shows write it nearly always does), else in masks made from there.
    ok.then_some(())?;
    whole_numbers(w, &m, o).or_else(|| whole_numbers(w, &Masks::of(w, o), o))
}

/// A group of numbers and single spaces between its word (`head` bytes) and its `)` at `c`:
/// the first and the last byte there are numbers. Then one space, and the next group's `(`.
#[inline(always)]
fn numbers(g: &Near, head: usize, c: usize) -> bool {
    (c > head) & !bit(g.space, head) & !bit(g.space, c - 1) & bit(g.space, c + 1)
}

/// The end of a rest from `o` on, ` [(f SIDE N) ](c N…))`, all whole numbers, seen in `m`.
#[inline(always)]
fn whole_numbers<const N: usize>(w: &Window<'_, N>, m: &Masks, mut o: usize) -> Option<usize> {
    let from = o;
    let mut ok = true;
    // `(f SIDE N) `, or `(fSIDE N) ` as `rcgverconv` writes it.
    let f = w.load8(o) & low(5);
    let joined =
        (f & low(2) == word(b"(f")) & matches!(byte(f, 2), b'l' | b'r') & (byte(f, 3) == b' ');
    let spaced = (f & !(0xFF << 24) == word(b"(f \0 ")) & matches!(byte(f, 3), b'l' | b'r');
    if joined | spaced {
        let (head, head_marks) = if spaced { (5, 0b1011) } else { (4, 0b111) };
        let g = m.near(o);
        let (c, n) = group(w, &g, o, head, head_marks)?;
        ok &= numbers(&g, head, c) & (n == 1);
        o += c + 2;
        if o >= m.base + SPAN {
            return None;
        }
    }
    // `(c N…))`: up to 12 counts, each after a space; the player's own `)` closes it.
    ok &= w.load8(o) & low(2) == word(b"(c");
    let g = m.near(o);
    let (c, n) = group(w, &g, o, 2, 0b11)?;
    ok &= (c == 2) | (bit(g.space, 2) & !bit(g.space, c - 1));
    ok &= (n <= 12) & (w.at(o + c + 1) == b')');
    let end = o + c + 2;
    if end >= m.base + SPAN || end > w.len() {
        return None;
    }
    let all = m.span(from, end);
    ok &= (m.bad | m.signs) & all == 0;
    ok.then_some(end)
}
