//! The head of a player in a text show, up to his position, in the form rcssserver writes it.
//!
//! Nearly every player is ` ((S N) T STATE X Y` with single spaces: read so, with fixed
//! comparisons and eight digits at a time, it costs a fraction of the general cursor's steps.
//! Anything else is left to the cursor ([`super::parse_player_light`]), which says what is
//! wrong; whatever is read here, the cursor reads to the same values and the same end.

use crate::model::{Player, Side};
use crate::number::{byte, load8, parse_f32_prefix, swar_digits};

/// Reads ` ((S N) T STATE X Y` from the start of `b` into `p`'s side, number, type, state and
/// position, and returns where the position ends; `None` (with `p` partly written) for any
/// other form.
#[inline(always)]
pub(super) fn head_as_written(b: &[u8], p: &mut Player) -> Option<usize> {
    let w = load8(b, 0)?;
    if w as u32 & 0xFF_FFFF != u32::from_le_bytes(*b" ((\0") || byte(w, 4) != b' ' {
        return None;
    }
    let side = Side::from_letter(byte(w, 3))?;
    // The number, one or two digits, and `)`, all in the first eight bytes.
    let (d1, d2) = (byte(w, 5).wrapping_sub(b'0'), byte(w, 6).wrapping_sub(b'0'));
    let (unum, n) = if d2 < 10 {
        (u32::from(d1) * 10 + u32::from(d2), 2)
    } else {
        (u32::from(d1), 1)
    };
    if d1 >= 10 || !(1..=11).contains(&unum) || byte(w, 5 + n) != b')' || *b.get(6 + n)? != b' ' {
        return None;
    }
    let mut i = 7 + n;
    // The type, one or two digits, and a space, in the next eight.
    let t = load8(b, i)?;
    let (t1, t2) = (byte(t, 0).wrapping_sub(b'0'), byte(t, 1).wrapping_sub(b'0'));
    let (player_type, n) = if t2 < 10 {
        (i16::from(t1) * 10 + i16::from(t2), 2)
    } else {
        (i16::from(t1), 1)
    };
    if t1 >= 10 || byte(t, n) != b' ' {
        return None;
    }
    i += n + 1;
    let hex = (byte(t, n + 1), byte(t, n + 2)) == (b'0', b'x');
    // Nearly every state is one hex digit (`0x1`, `0x9`), still inside the eight bytes.
    let one = match byte(t, n + 3) {
        c @ b'0'..=b'9' => Some(c - b'0'),
        c @ b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let state = if let (true, Some(d), b' ') = (hex, one, byte(t, n + 4)) {
        i += 3;
        u32::from(d)
    } else if hex {
        i += 2;
        let start = i;
        let mut v: u32 = 0;
        // At most seven hex digits: no overflow to check.
        while let Some(d) = b.get(i).and_then(|&c| (c as char).to_digit(16)) {
            if i - start == 7 {
                return None;
            }
            v = v << 4 | d;
            i += 1;
        }
        if i == start {
            return None;
        }
        v
    } else {
        let (v, n) = digits(b, i)?;
        i += n;
        v as u32
    };
    let (x, n) = position(b, i)?;
    i += n;
    let (y, n) = position(b, i)?;
    i += n;
    p.side = Some(side);
    p.unum = unum as u8;
    p.player_type = player_type;
    p.state = state;
    p.x = x;
    p.y = y;
    Some(i)
}

/// 1 to 7 digits at `i`: their value and count.
#[inline(always)]
fn digits(b: &[u8], i: usize) -> Option<(u64, usize)> {
    let (v, n) = swar_digits(load8(b, i)?);
    (1..=7).contains(&n).then_some((v, n))
}

/// ` X` at `i`: the number after one space, and the bytes both take.
#[inline(always)]
fn position(b: &[u8], i: usize) -> Option<(f32, usize)> {
    if *b.get(i)? != b' ' {
        return None;
    }
    let (v, n) = parse_f32_prefix(b.get(i + 1..)?)?;
    Some((v, 1 + n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{read_head, Cursor};

    /// Every text log among the fixtures.
    fn text_fixtures() -> Vec<Vec<u8>> {
        let logs: Vec<Vec<u8>> = pitchside_fixtures::all_logs()
            .iter()
            .map(|rel| pitchside_fixtures::read(rel))
            .filter(|b| {
                [&b"ULG4"[..], b"ULG5", b"ULG6"]
                    .iter()
                    .any(|h| b.starts_with(h))
            })
            .collect();
        assert!(logs.len() >= 8, "text fixtures: {}", logs.len());
        logs
    }

    /// The head as the cursor reads it: the fields and where it ends, or nothing.
    fn by_cursor(b: &[u8]) -> Option<(Player, usize)> {
        let mut p = Player::default();
        let mut c = Cursor::new(b);
        read_head(&mut c, &mut p).ok()?;
        Some((p, c.pos))
    }

    fn by_head(b: &[u8]) -> Option<(Player, usize)> {
        let mut p = Player::default();
        let n = head_as_written(b, &mut p)?;
        Some((p, n))
    }

    /// Every player of every show of the text fixtures, from the space before his `((`.
    fn players(log: &[u8]) -> Vec<&[u8]> {
        let mut out = Vec::new();
        for line in log.split(|&c| c == b'\n') {
            if line.starts_with(b"(show ") {
                for at in memchr::memmem::find_iter(line, b" ((") {
                    if !line[at..].starts_with(b" ((b)") {
                        out.push(&line[at..]);
                    }
                }
            }
        }
        out
    }

    /// On every real player the head is read here as the cursor reads it (nearly all of them
    /// are in the server's form), and on heads damaged in many ways whatever is read here the
    /// cursor reads to the same fields and end.
    #[test]
    fn the_head_reads_what_the_cursor_reads() {
        let logs = text_fixtures();
        let (mut seen, mut taken) = (0, 0);
        let mut sample = Vec::new();
        for log in &logs {
            for (k, b) in players(log).into_iter().enumerate() {
                seen += 1;
                if let Some(head) = by_head(b) {
                    taken += 1;
                    assert_eq!(
                        Some(head),
                        by_cursor(b),
                        "{}",
                        String::from_utf8_lossy(&b[..60])
                    );
                }
                if k % 997 == 0 {
                    sample.push(b[..b.len().min(64)].to_vec());
                }
            }
        }
        assert!(seen > 100_000, "{seen}");
        assert!(taken * 100 > seen * 95, "{taken} of {seen}");
        let (mut tried, mut taken) = (0, 0);
        for b in &sample {
            let mut check = |bad: &[u8]| {
                tried += 1;
                if let Some(head) = by_head(bad) {
                    taken += 1;
                    assert_eq!(
                        Some(head),
                        by_cursor(bad),
                        "{}",
                        String::from_utf8_lossy(bad)
                    );
                }
            };
            for pos in 0..40.min(b.len()) {
                for with in [
                    b' ', b'-', b'.', b'e', b'0', b'9', b'a', b'F', b'x', b')', b'(', b'l', b'r',
                    0, b'\t',
                ] {
                    let mut bad = b.clone();
                    bad[pos] = with;
                    check(&bad);
                }
                check(&b[..pos]);
                for insert in [b' ', b'7', b'f'] {
                    let mut wider = b.clone();
                    wider.insert(pos, insert);
                    check(&wider);
                }
            }
        }
        assert!(
            tried > 10_000 && taken > 1_000,
            "{tried} tried, {taken} taken"
        );
    }
}
