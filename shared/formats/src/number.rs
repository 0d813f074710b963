//! Number parsing and printing as rcssserver does it.
//!
//! Parsing is hand-written because a full game is ~4 million numbers and `str::parse::<f64>`
//! (UTF-8 check plus a general algorithm) dominates the profile. Up to 15 significant digits
//! and no exponent, `mantissa / 10^k` with both operands exact is correctly rounded by IEEE
//! division; anything else falls back to the standard parser.

const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Loads 8 bytes at `i` little-endian, if there are 8.
#[inline(always)]
pub(crate) fn load8(s: &[u8], i: usize) -> Option<u64> {
    let b = s.get(i..i + 8)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    Some(u64::from_le_bytes(a))
}

/// The leading ASCII digits of 8 bytes (first byte lowest), as (value, count), all at once:
/// a digit loop mispredicts its exit on every number, and logs are ~4 million numbers.
/// Bytes after the first non-digit may be anything.
#[inline(always)]
pub(crate) fn swar_digits(chunk: u64) -> (u64, usize) {
    let sub = chunk.wrapping_sub(0x3030_3030_3030_3030);
    let non_digit = (sub.wrapping_add(0x7676_7676_7676_7676) | sub) & 0x8080_8080_8080_8080;
    let n = (non_digit.trailing_zeros() / 8) as usize;
    if n == 0 {
        return (0, 0);
    }
    // Move the n digits to the top; the zero bytes below become leading zeros.
    let aligned = sub << (8 * (8 - n) as u32);
    (eight_digits(aligned), n)
}

/// Byte `k` of `w`, `k` below 8.
#[inline(always)]
pub(crate) fn byte(w: u64, k: usize) -> u8 {
    (w >> (8 * (k & 7))) as u8
}

/// How many ASCII digits `w` starts with (8 at most), all bytes at once.
#[inline(always)]
pub(crate) fn lead_digits(w: u64) -> usize {
    let sub = w.wrapping_sub(0x3030_3030_3030_3030);
    // A byte's top bit ends up set unless it was a digit; what a borrow or carry does to the
    // bytes after the first non-digit does not matter.
    let non_digit = (sub.wrapping_add(0x7676_7676_7676_7676) | sub) & 0x8080_8080_8080_8080;
    (non_digit.trailing_zeros() / 8) as usize
}

/// How many ASCII digits `s` has from `i` on, eight at a time.
#[inline(always)]
pub(crate) fn digit_run(s: &[u8], i: usize) -> usize {
    let mut n = 0;
    while let Some(chunk) = load8(s, i + n) {
        let sub = chunk.wrapping_sub(0x3030_3030_3030_3030);
        let non_digit = (sub.wrapping_add(0x7676_7676_7676_7676) | sub) & 0x8080_8080_8080_8080;
        let k = (non_digit.trailing_zeros() / 8) as usize;
        n += k;
        if k < 8 {
            return n;
        }
    }
    while s.get(i + n).is_some_and(u8::is_ascii_digit) {
        n += 1;
    }
    n
}

/// Eight digit values (0..=9, most significant in the lowest byte) to their number.
#[inline(always)]
fn eight_digits(val: u64) -> u64 {
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    const MUL1: u64 = 0x000F_4240_0000_0064;
    const MUL2: u64 = 0x0000_2710_0000_0001;
    let val = val.wrapping_mul(10).wrapping_add(val >> 8);
    ((val & MASK)
        .wrapping_mul(MUL1)
        .wrapping_add(((val >> 16) & MASK).wrapping_mul(MUL2)))
        >> 32
}

/// Parses a decimal number at the start of `s`; returns it and the bytes used.
#[inline]
pub fn parse_f64_prefix(s: &[u8]) -> Option<(f64, usize)> {
    let mut i = 0;
    let neg = match s.first() {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    // Fast path: fewer than 8 integer and 8 fraction digits, no exponent.
    if let Some(chunk) = load8(s, i) {
        let (int, n_int) = swar_digits(chunk);
        if n_int < 8 {
            let mut j = i + n_int;
            let mut m = int;
            let mut frac = 0;
            let mut ok = true;
            if s.get(j) == Some(&b'.') {
                match load8(s, j + 1).map(swar_digits) {
                    Some((f, n)) if n < 8 => {
                        m = int * POW10_INT[n] + f;
                        frac = n;
                        j += 1 + n;
                    }
                    _ => ok = false,
                }
            }
            if ok && n_int + frac > 0 && !matches!(s.get(j), Some(b'e' | b'E')) {
                let v = m as f64 / POW10[frac];
                return Some((if neg { -v } else { v }, j));
            }
        }
    }
    let mut mantissa: u64 = 0;
    let mut digits = 0u32;
    let int_start = i;
    while let Some(&c) = s.get(i) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
        digits += 1;
        i += 1;
    }
    let mut frac = 0usize;
    if s.get(i) == Some(&b'.') {
        i += 1;
        while let Some(&c) = s.get(i) {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
            digits += 1;
            frac += 1;
            i += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    let has_exp = matches!(s.get(i), Some(b'e' | b'E'));
    if has_exp || digits > 15 || frac >= POW10.len() {
        return slow(s, int_start, neg, has_exp);
    }
    let v = mantissa as f64 / POW10[frac];
    Some((if neg { -v } else { v }, i))
}

#[cold]
fn slow(s: &[u8], int_start: usize, neg: bool, has_exp: bool) -> Option<(f64, usize)> {
    let mut i = int_start;
    while matches!(s.get(i), Some(b'0'..=b'9' | b'.')) {
        i += 1;
    }
    if has_exp {
        let mut j = i + 1;
        if matches!(s.get(j), Some(b'-' | b'+')) {
            j += 1;
        }
        let digits_start = j;
        while matches!(s.get(j), Some(b'0'..=b'9')) {
            j += 1;
        }
        if j > digits_start {
            i = j;
        }
    }
    let text = std::str::from_utf8(&s[int_start..i]).ok()?;
    let v: f64 = text.parse().ok()?;
    Some((if neg { -v } else { v }, i))
}

const INV_POW10: [f64; 8] = [1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7];

/// Like [`parse_f64_prefix`], straight to `f32`, which is what frames store.
///
/// A division per number stalled the parser (a third of its time), so this multiplies by
/// 10^-k in `f64` instead. That product is within 2^-52 of m/10^k, while a decimal with
/// m < 2^24 and k <= 7 is never closer than ~3e-15 (relative) to an `f32` rounding midpoint
/// (and never exactly on one), so narrowing gives the correctly rounded `f32`; the test
/// `f32_fast_path_is_correctly_rounded` checks this against the standard parser.
#[inline(always)]
pub fn parse_f32_prefix(s: &[u8]) -> Option<(f32, usize)> {
    parse_f32_plain(s).or_else(|| parse_f32_slow(s))
}

/// [`parse_f32_prefix`]'s fast path alone: `-?D{0,7}(.D{0,7})?`, at least one digit, not
/// followed by an exponent; `None` for anything else. What it reads has no `+` and no
/// exponent, which spares a JSON reader looking for them.
#[inline(always)]
pub(crate) fn parse_f32_plain(s: &[u8]) -> Option<(f32, usize)> {
    let neg = s.first() == Some(&b'-');
    let i = usize::from(neg);
    if let Some(chunk) = load8(s, i) {
        let (int, n_int) = swar_digits(chunk);
        if n_int < 8 {
            // The byte after the digits is already in the register: no second load or
            // bounds check to learn whether a fraction or an exponent follows.
            let next = (chunk >> (8 * n_int)) as u8;
            if next != b'.' {
                if n_int > 0 && next | 0x20 != b'e' && int < (1 << 24) {
                    let v = int as f32;
                    return Some((if neg { -v } else { v }, i + n_int));
                }
            } else if let Some(fraction) = load8(s, i + n_int + 1) {
                let (f, n) = swar_digits(fraction);
                if n < 8 {
                    let after = (fraction >> (8 * n)) as u8;
                    let m = int * POW10_INT[n] + f;
                    if m < (1 << 24) && n_int + n > 0 && after | 0x20 != b'e' {
                        let v = (m as u32 as f64 * INV_POW10[n]) as f32;
                        return Some((if neg { -v } else { v }, i + n_int + 1 + n));
                    }
                }
            }
        }
    }
    None
}

/// Everything the fast path leaves: long mantissas, exponents, the end of the buffer.
#[cold]
#[inline(never)]
pub(crate) fn parse_f32_slow(s: &[u8]) -> Option<(f32, usize)> {
    parse_f64_prefix(s).map(|(v, n)| (v as f32, n))
}

const POW10_INT: [u64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

/// Parses an unsigned decimal integer prefix.
#[inline]
pub fn parse_u64_prefix(s: &[u8]) -> Option<(u64, usize)> {
    if let Some((v, n)) = load8(s, 0).map(swar_digits) {
        if n > 0 && n < 8 {
            return Some((v, n));
        }
    }
    let mut v: u64 = 0;
    let mut i = 0;
    while let Some(&c) = s.get(i) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        v = v.checked_mul(10)?.checked_add(u64::from(d))?;
        i += 1;
    }
    (i > 0).then_some((v, i))
}

/// Writes `v` as C++ iostreams do with the default precision (6 significant digits, `%g`):
/// the format of every number in rcssserver's text shows and logs.
pub fn write_g6(out: &mut String, v: f64) {
    use std::fmt::Write;
    if v == 0.0 {
        out.push_str(if v.is_sign_negative() { "-0" } else { "0" });
        return;
    }
    if !v.is_finite() {
        out.push_str(if v.is_nan() {
            "nan"
        } else if v > 0.0 {
            "inf"
        } else {
            "-inf"
        });
        return;
    }
    if write_g6_fixed(out, v) {
        return;
    }
    // Round to 6 significant digits first, then decide between fixed and scientific form on
    // the exponent of the rounded value, as printf does.
    let sci = format!("{:.5e}", v);
    let (mant, exp) = match sci.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (sci.as_str(), 0),
    };
    if !(-4..6).contains(&exp) {
        let mant = trim_zeros(mant);
        let _ = write!(
            out,
            "{mant}e{}{:02}",
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        );
    } else {
        let decimals = (5 - exp).max(0) as usize;
        let fixed = format!("{:.*}", decimals, v);
        out.push_str(trim_zeros(&fixed));
    }
}

/// Powers of ten from 10^-4 to 10^6, for [`write_g6_fixed`].
const DECADES: [f64; 11] = [1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6];
/// 10^(5 - e) for e = -4..=5: what scales a number of decade e to six integer digits.
const SCALES: [f64; 10] = [1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 1e2, 1e1, 1e0];

/// [`write_g6`] for the numbers logs are made of (10^-4 ≤ |v| < 10^6, printed without an
/// exponent), with integer arithmetic instead of a formatting machine: a tracking table is
/// over a million of them. Returns `false`, writing nothing, for anything else and for
/// values within a hair of a rounding tie, which the exact path decides.
#[inline]
fn write_g6_fixed(out: &mut String, v: f64) -> bool {
    let a = v.abs();
    if !(DECADES[0]..DECADES[10]).contains(&a) {
        return false;
    }
    // 10^e <= a < 10^(e+1), e in -4..=5: counted without branches (a binary search
    // mispredicts on every number, the decades of a log's numbers being mixed).
    let k = DECADES[1..10]
        .iter()
        .map(|d| usize::from(*d <= a))
        .sum::<usize>();
    let mut e = k as i32 - 4;
    // Six significant digits: a scaled into [10^5, 10^6). The scale is a power of ten that
    // f64 holds exactly; the product is within an ulp (about 1e-11 here) of the truth.
    let x = a * SCALES[k];
    let whole = x as u64;
    let frac = x - whole as f64;
    if (frac - 0.5).abs() < 1e-6 {
        return false;
    }
    let mut n = whole + u64::from(frac > 0.5);
    if n >= 1_000_000 {
        // 999999.7 rounds up to a seventh digit: one decade more.
        n /= 10;
        e += 1;
        if e > 5 {
            return false;
        }
    }
    let mut digits = [0u8; 6];
    for d in digits.iter_mut().rev() {
        *d = b'0' + (n % 10) as u8;
        n /= 10;
    }
    // Sign, up to "0.000" and six digits with a point: at most 13 bytes.
    let mut buf = [0u8; 16];
    let mut len = 0;
    let mut put = |b: u8| {
        buf[len] = b;
        len += 1;
    };
    if v < 0.0 {
        put(b'-');
    }
    let (int, frac): (&[u8], &[u8]) = if e >= 0 {
        digits.split_at(e as usize + 1)
    } else {
        put(b'0');
        put(b'.');
        for _ in 0..(-e - 1) {
            put(b'0');
        }
        (&[], &digits[..])
    };
    for &d in int {
        put(d);
    }
    let keep = frac.iter().rposition(|&d| d != b'0').map_or(0, |i| i + 1);
    if keep > 0 {
        if e >= 0 {
            put(b'.');
        }
        for &d in &frac[..keep] {
            put(d);
        }
    }
    out.push_str(std::str::from_utf8(&buf[..len]).unwrap_or_default());
    true
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g6(v: f64) -> String {
        let mut s = String::new();
        write_g6(&mut s, v);
        s
    }

    /// The integer path gives what the exact one gives, on every kind of number a log holds.
    #[test]
    fn the_fixed_path_formats_as_the_exact_one() {
        let exact = |v: f64| {
            let mut s = String::new();
            let sci = format!("{:.5e}", v);
            let (_mant, exp) = sci.split_once('e').unwrap();
            let exp: i32 = exp.parse().unwrap();
            assert!((-4..6).contains(&exp), "{v}");
            let decimals = (5 - exp).max(0) as usize;
            s.push_str(trim_zeros(&format!("{:.*}", decimals, v)));
            s
        };
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        for i in 0..400_000u32 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Decimals as logs write them (up to 6 digits, a point anywhere), and raw f32s.
            let v = if i % 2 == 0 {
                let digits = (state % 1_000_000) as f64;
                let scale = 10f64.powi((state >> 20) as i32 % 10 - 4);
                f64::from((digits / 1e5 * scale) as f32)
            } else {
                f64::from(f32::from_bits((state >> 16) as u32 & 0x7fff_ffff))
            };
            let v = if state & 1 == 1 { -v } else { v };
            let mut fast = String::new();
            if write_g6_fixed(&mut fast, v) {
                let want = if v < 0.0 {
                    format!("-{}", exact(-v))
                } else {
                    exact(v)
                };
                assert_eq!(fast, want, "{v:e}");
                checked += 1;
            }
        }
        assert!(checked > 100_000, "{checked}");
        for v in [
            999999.7,
            99999.95,
            0.0001,
            0.00009999996,
            100000.5,
            2.5e-5,
            7943.6,
        ] {
            assert_eq!(g6(v), {
                let mut s = String::new();
                let sci = format!("{:.5e}", v);
                let (mant, exp) = sci.split_once('e').unwrap();
                let exp: i32 = exp.parse().unwrap();
                if !(-4..6).contains(&exp) {
                    let _ = std::fmt::Write::write_fmt(
                        &mut s,
                        format_args!(
                            "{}e{}{:02}",
                            trim_zeros(mant),
                            if exp < 0 { '-' } else { '+' },
                            exp.abs()
                        ),
                    );
                } else {
                    let d = (5 - exp).max(0) as usize;
                    s.push_str(trim_zeros(&format!("{:.*}", d, v)));
                }
                s
            });
        }
    }

    #[test]
    fn parses_what_the_server_prints() {
        for text in [
            "-50.0706",
            "0",
            "-0",
            "130555",
            "0.800302",
            "1e-05",
            "2.5e+06",
            "31.6843",
            "-0.0001",
            "5206.89",
            "12345678901234567890",
        ] {
            let (v, n) = parse_f64_prefix(text.as_bytes()).unwrap();
            assert_eq!(n, text.len(), "{text}");
            assert_eq!(v, text.parse::<f64>().unwrap(), "{text}");
        }
        assert_eq!(
            parse_f64_prefix(b"-0").unwrap().0.to_bits(),
            (-0.0f64).to_bits()
        );
        assert_eq!(parse_f64_prefix(b"12)").unwrap(), (12.0, 2));
        assert!(parse_f64_prefix(b"x").is_none());
        assert!(parse_f64_prefix(b"-").is_none());
    }

    #[test]
    fn fast_and_slow_paths_agree() {
        // Every length of integer and fraction part, with and without room for 8-byte loads.
        for int in [
            "",
            "0",
            "7",
            "12",
            "999",
            "1234",
            "52500",
            "130555",
            "1234567",
            "12345678",
            "123456789",
        ] {
            for frac in [
                "",
                ".",
                ".5",
                ".0001",
                ".800302",
                ".1234567",
                ".12345678",
                ".123456789",
            ] {
                let text = format!("{int}{frac}");
                for tail in ["", " ", ")", " 1 2 3 4 5 6 7 8"] {
                    for sign in ["", "-"] {
                        let input = format!("{sign}{text}{tail}");
                        let got = parse_f64_prefix(input.as_bytes());
                        let want = format!("{sign}{text}")
                            .parse::<f64>()
                            .ok()
                            .filter(|_| !int.is_empty() || frac.len() > 1);
                        match (got, want) {
                            (Some((v, n)), Some(w)) => {
                                assert_eq!(v.to_bits(), w.to_bits(), "{input:?}");
                                assert_eq!(n, sign.len() + text.len(), "{input:?}");
                            }
                            (None, None) => {}
                            (g, w) => panic!("{input:?}: got {g:?}, want {w:?}"),
                        }
                    }
                }
            }
        }
        for text in ["0", "42", "1234567", "12345678", "123456789012"] {
            for tail in ["", ")", " 7 8 9 10 11 12"] {
                let input = format!("{text}{tail}");
                let (v, n) = parse_u64_prefix(input.as_bytes()).unwrap();
                assert_eq!((v, n), (text.parse().unwrap(), text.len()), "{input:?}");
            }
        }
        assert_eq!(parse_u64_prefix(b")12345678"), None);
        for text in [
            "-50.0706",
            "0.800302",
            "130555",
            "-0",
            "16777215",
            "16777217",
            "1e-05",
            "123456.7",
            "3.4028235e38",
        ] {
            for tail in ["", " 1 2 3 4 5 6 7 8 9"] {
                let input = format!("{text}{tail}");
                let (v, n) = parse_f32_prefix(input.as_bytes()).unwrap();
                assert_eq!(
                    v.to_bits(),
                    text.parse::<f32>().unwrap().to_bits(),
                    "{input:?}"
                );
                assert_eq!(n, text.len());
            }
        }
    }

    #[test]
    fn f32_token_ends_and_signs() {
        // (input, token the parser must take)
        let cases = [
            ("-0 1", "-0"),
            ("-12.5) ", "-12.5"),
            ("1e5 0 0 0", "1e5"),
            ("1.5e3 0 0 0", "1.5e3"),
            ("2E2)0 0 0 0", "2E2"),
            ("5. 0 0 0 0", "5."),
            (".5 0 0 0 0", ".5"),
            ("-.25)0 0 0", "-.25"),
            ("123456789 0 0", "123456789"),
            ("16777217 0 0", "16777217"),
            ("0.00000001 0", "0.00000001"),
            ("-49.2615", "-49.2615"),
            ("12", "12"),
        ];
        for (input, token) in cases {
            let (v, n) = parse_f32_prefix(input.as_bytes()).unwrap();
            assert_eq!(n, token.len(), "{input}");
            assert_eq!(
                v.to_bits(),
                token.parse::<f32>().unwrap().to_bits(),
                "{input}"
            );
        }
        for bad in ["-", "x", "", "- 1", ")"] {
            assert!(parse_f32_prefix(bad.as_bytes()).is_none(), "{bad}");
        }
    }

    #[test]
    fn f32_fast_path_is_correctly_rounded() {
        // Mantissas across the whole range below 2^24, every fraction length.
        let mut m: u64 = 1;
        while m < (1 << 24) {
            let digits = m.to_string();
            for k in 0..digits.len().min(7) {
                let (a, b) = digits.split_at(digits.len() - k);
                let text = if k == 0 {
                    a.to_owned()
                } else {
                    format!("{}.{b}", if a.is_empty() { "0" } else { a })
                };
                let padded = format!("{text} 0 0 0 0 0");
                let (v, _) = parse_f32_prefix(padded.as_bytes()).unwrap();
                assert_eq!(
                    v.to_bits(),
                    text.parse::<f32>().unwrap().to_bits(),
                    "{text}"
                );
            }
            m = m * 3 / 2 + 7;
        }
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = x % (1 << 24);
            let k = (x >> 40) % 8;
            let text = format!("{}", m as f64 / 10f64.powi(k as i32));
            let digits: String = format!("{m}");
            let text = if k == 0 || digits.len() <= k as usize {
                text
            } else {
                let (a, b) = digits.split_at(digits.len() - k as usize);
                format!("{a}.{b}")
            };
            let padded = format!("{text} 0 0 0 0 0");
            let (v, _) = parse_f32_prefix(padded.as_bytes()).unwrap();
            assert_eq!(
                v.to_bits(),
                text.parse::<f32>().unwrap().to_bits(),
                "{text}"
            );
        }
    }

    #[test]
    fn prints_like_iostream_default_precision() {
        assert_eq!(g6(-50.0706), "-50.0706");
        assert_eq!(g6(130555.0), "130555");
        assert_eq!(g6(0.800302), "0.800302");
        assert_eq!(g6(1.0), "1");
        assert_eq!(g6(-0.0), "-0");
        assert_eq!(g6(0.00001), "1e-05");
        assert_eq!(g6(1234567.0), "1.23457e+06");
        assert_eq!(g6(999999.7), "1e+06");
        assert_eq!(g6(172.6), "172.6");
        assert_eq!(g6(f64::from(-50.0706f32)), "-50.0706");
    }
}
