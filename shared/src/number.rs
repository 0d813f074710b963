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

/// Parses an unsigned decimal integer prefix.
#[inline]
pub fn parse_u64_prefix(s: &[u8]) -> Option<(u64, usize)> {
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
