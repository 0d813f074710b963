//! Bytes in and out: LEB128 varints, zigzag for signed values, length-prefixed strings, and
//! the numbers of the match model as scaled decimal deltas.
//!
//! Numbers are the bulk of the wire. rcssserver prints positions to 0.0001, angles to 0.001
//! and stamina with six significant digits, so almost every `f32` of the model is an integer
//! times a power of ten. Such a value travels as the integer difference from the same field
//! in the previous frame (a player that moved 0.3 m costs two bytes), and any value that is
//! not exactly such a decimal (binary v1/v2 sources, odd inputs) travels as its raw bits, so
//! decoding always gives back the very same `f32`.

use super::WireError;

/// Powers of ten as exact `f64` literals: `powi` may differ between platforms, these cannot.
const POW10: [f64; 10] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

/// Largest string or byte run accepted from the wire (a team-graphic line is 8 bytes, a
/// message at most a few KB; 1 MiB leaves room without letting input size an allocation).
pub const MAX_BYTES: usize = 1 << 20;

/// Values beyond this magnitude are sent raw: scaling them could overflow the integer range.
const MAX_SCALED: f64 = 1e15;

#[derive(Default)]
pub(crate) struct Writer {
    pub buf: Vec<u8>,
}

impl Writer {
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    pub fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }

    pub fn signed(&mut self, v: i64) {
        self.varint(zigzag(v));
    }

    pub fn bytes(&mut self, b: &[u8]) {
        self.varint(b.len() as u64);
        self.buf.extend_from_slice(b);
    }

    pub fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    /// `None` as 0, `Some(s)` as its length + 1 and the bytes.
    pub fn opt_str(&mut self, s: Option<&str>) {
        match s {
            None => self.varint(0),
            Some(s) => {
                self.varint(s.len() as u64 + 1);
                self.buf.extend_from_slice(s.as_bytes());
            }
        }
    }

    pub fn f64(&mut self, v: f64) {
        self.buf.extend_from_slice(&v.to_bits().to_le_bytes());
    }

    /// A model number as a delta from `prev`; `scale` is the field's usual number of decimals.
    ///
    /// The varint's low two bits say how: 0 = integer delta at `scale`, 1 = integer delta at
    /// the scale in the next byte, 2 = raw `f32` bits follow, 3 = negative zero (which the
    /// server prints as `-0` and which must survive).
    pub fn num(&mut self, v: f32, prev: f32, scale: u8) {
        if v.to_bits() == (-0.0f32).to_bits() {
            self.varint(3);
            return;
        }
        if let Some(q) = exact(v, scale) {
            if let Some(d) = q.checked_sub(quantise(prev, scale)) {
                if let Some(t) = zigzag(d).checked_mul(4) {
                    self.varint(t);
                    return;
                }
            }
        }
        if let Some(s) = min_scale(v) {
            if let Some(q) = exact(v, s) {
                if let Some(d) = q.checked_sub(quantise(prev, s)) {
                    if let Some(t) = zigzag(d).checked_mul(4) {
                        self.varint(t | 1);
                        self.u8(s);
                        return;
                    }
                }
            }
        }
        self.varint(2);
        self.buf.extend_from_slice(&v.to_bits().to_le_bytes());
    }
}

pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn is_empty(&self) -> bool {
        self.pos >= self.buf.len()
    }

    pub fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }

    fn eof(&self, what: &'static str) -> WireError {
        WireError::Truncated {
            offset: self.pos,
            what,
        }
    }

    pub fn u8(&mut self, what: &'static str) -> Result<u8, WireError> {
        let b = *self.buf.get(self.pos).ok_or_else(|| self.eof(what))?;
        self.pos += 1;
        Ok(b)
    }

    pub fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], WireError> {
        let end = self.pos.checked_add(n).ok_or_else(|| self.eof(what))?;
        let b = self.buf.get(self.pos..end).ok_or_else(|| self.eof(what))?;
        self.pos = end;
        Ok(b)
    }

    pub fn varint(&mut self, what: &'static str) -> Result<u64, WireError> {
        let start = self.pos;
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8(what)?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(WireError::Invalid {
            offset: start,
            what,
            found: "a varint longer than 64 bits".into(),
        })
    }

    pub fn u32(&mut self, what: &'static str) -> Result<u32, WireError> {
        let at = self.pos;
        let v = self.varint(what)?;
        u32::try_from(v).map_err(|_| WireError::Invalid {
            offset: at,
            what,
            found: format!("{v}, beyond 32 bits"),
        })
    }

    pub fn signed(&mut self, what: &'static str) -> Result<i64, WireError> {
        Ok(unzigzag(self.varint(what)?))
    }

    /// A count of things that each take at least one byte: more than the bytes left is damage,
    /// so the count can size an allocation safely.
    pub fn count(&mut self, what: &'static str) -> Result<usize, WireError> {
        let at = self.pos;
        let n = self.varint(what)?;
        if n > self.remaining() as u64 {
            return Err(WireError::Invalid {
                offset: at,
                what,
                found: format!("{n} entries with {} bytes left", self.remaining()),
            });
        }
        Ok(n as usize)
    }

    pub fn bytes(&mut self, what: &'static str) -> Result<&'a [u8], WireError> {
        let at = self.pos;
        let n = self.varint(what)?;
        if n > MAX_BYTES as u64 {
            return Err(WireError::TooLarge {
                offset: at,
                what,
                limit: MAX_BYTES,
            });
        }
        self.take(n as usize, what)
    }

    pub fn string(&mut self, what: &'static str) -> Result<String, WireError> {
        let at = self.pos;
        let b = self.bytes(what)?;
        utf8(b, at, what)
    }

    pub fn opt_string(&mut self, what: &'static str) -> Result<Option<String>, WireError> {
        let at = self.pos;
        let n = self.varint(what)?;
        if n == 0 {
            return Ok(None);
        }
        if n - 1 > MAX_BYTES as u64 {
            return Err(WireError::TooLarge {
                offset: at,
                what,
                limit: MAX_BYTES,
            });
        }
        let b = self.take((n - 1) as usize, what)?;
        utf8(b, at, what).map(Some)
    }

    pub fn f64(&mut self, what: &'static str) -> Result<f64, WireError> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(f64::from_bits(u64::from_le_bytes(a)))
    }

    /// The counterpart of [`Writer::num`].
    pub fn num(&mut self, prev: f32, scale: u8, what: &'static str) -> Result<f32, WireError> {
        let at = self.pos;
        let t = self.varint(what)?;
        let scale = match t & 3 {
            0 => scale,
            1 => {
                let s = self.u8(what)?;
                if usize::from(s) >= POW10.len() {
                    return Err(WireError::Invalid {
                        offset: at,
                        what,
                        found: format!("decimal scale {s}"),
                    });
                }
                s
            }
            2 => {
                let b = self.take(4, what)?;
                let mut a = [0u8; 4];
                a.copy_from_slice(b);
                return Ok(f32::from_bits(u32::from_le_bytes(a)));
            }
            _ => return Ok(-0.0),
        };
        let d = unzigzag(t >> 2);
        let q = quantise(prev, scale).wrapping_add(d);
        Ok(dequantise(q, scale))
    }
}

fn utf8(b: &[u8], at: usize, what: &'static str) -> Result<String, WireError> {
    String::from_utf8(b.to_vec()).map_err(|_| WireError::Invalid {
        offset: at,
        what,
        found: "text that is not UTF-8".into(),
    })
}

pub(crate) fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

pub(crate) fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// `v` rounded to `scale` decimals, as an integer; 0 for values that cannot be scaled, so
/// that encoder and decoder agree on the base of a delta whatever `prev` holds.
fn quantise(v: f32, scale: u8) -> i64 {
    let p = POW10[usize::from(scale).min(POW10.len() - 1)];
    let x = (f64::from(v) * p).round();
    if x.is_finite() && x.abs() < MAX_SCALED {
        x as i64
    } else {
        0
    }
}

fn dequantise(q: i64, scale: u8) -> f32 {
    let p = POW10[usize::from(scale).min(POW10.len() - 1)];
    ((q as f64) / p) as f32
}

/// `v` as an integer at `scale` decimals, if that integer gives back exactly `v`.
fn exact(v: f32, scale: u8) -> Option<i64> {
    if usize::from(scale) >= POW10.len() || !v.is_finite() {
        return None;
    }
    let p = POW10[usize::from(scale)];
    let x = (f64::from(v) * p).round();
    if x.abs() >= MAX_SCALED {
        return None;
    }
    let q = x as i64;
    (dequantise(q, scale).to_bits() == v.to_bits()).then_some(q)
}

/// The fewest decimals that represent `v` exactly, if any up to 9 do.
fn min_scale(v: f32) -> Option<u8> {
    (0..POW10.len() as u8).find(|&s| exact(v, s).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(v: f32, prev: f32, scale: u8) -> usize {
        let mut w = Writer::default();
        w.num(v, prev, scale);
        let mut r = Reader::new(&w.buf);
        let back = r.num(prev, scale, "n").unwrap();
        assert_eq!(back.to_bits(), v.to_bits(), "{v} after {prev} at {scale}");
        assert!(r.is_empty());
        w.buf.len()
    }

    #[test]
    fn numbers_come_back_bit_for_bit() {
        let values = [
            0.0f32,
            -0.0,
            -50.0706,
            1.8438,
            -0.0001,
            5206.89,
            0.800302,
            130600.0,
            91121.2,
            -88.613,
            1.0 / 3.0,
            f32::MAX,
            f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NAN,
            -539.0 / 16.0,
            12345.0 / 65536.0,
        ];
        for &v in &values {
            for &prev in &values {
                for scale in [0, 3, 4, 6] {
                    round_trip(v, prev, scale);
                }
            }
        }
    }

    #[test]
    fn small_moves_are_small() {
        assert_eq!(round_trip(-50.0706, -50.0706, 4), 1);
        assert_eq!(round_trip(-50.0106, -50.0706, 4), 2);
        assert_eq!(round_trip(-49.2, -50.0706, 4), 3);
        assert_eq!(round_trip(0.800302, 0.8, 6), 2);
    }

    #[test]
    fn varints_and_zigzag() {
        for v in [0i64, 1, -1, 63, -64, 64, i64::MAX, i64::MIN] {
            assert_eq!(unzigzag(zigzag(v)), v);
            let mut w = Writer::default();
            w.signed(v);
            assert_eq!(Reader::new(&w.buf).signed("v").unwrap(), v);
        }
        let mut r = Reader::new(&[0xff; 11]);
        assert!(r.varint("v").is_err());
        assert!(Reader::new(&[5, b'a']).bytes("b").is_err());
        assert!(Reader::new(&[200, 1]).count("c").is_err());
    }
}
