//! A fixed-size view of a record's bytes for the checks that run on every player, so that
//! their reads need no bounds checks.
//!
//! An index is masked into the window, which the compiler sees is always inside it. Where
//! the record goes on for the whole window (nearly always: a batch or a show line holds many
//! players) the window is the record itself; only near its end are the bytes copied, with
//! zeros after them. Bytes past [`Window::len`] may differ between the two, and an index past
//! the mask wraps around; so a check built on a window must take a record only when everything
//! it consumed lies before `len`, and each of its verdicts must depend only on bytes it
//! consumed and the one after them. Then it takes the same records either way.

/// `N` bytes of which the first `N - 16` are the span a check may look at: masked indexes
/// stay below `N - 16`, and a 16-byte read from any of them stays inside `N`.
pub(crate) struct Window<'a, const N: usize> {
    bytes: &'a [u8; N],
    len: usize,
}

impl<'a, const N: usize> Window<'a, N> {
    /// Indexes are masked with this: `N - 16` must be a power of two.
    const MASK: usize = {
        assert!(
            N > 16 && (N - 16).is_power_of_two(),
            "N - 16 is a power of two"
        );
        N - 17
    };

    /// The record itself, if it goes on for the whole window; `seen` is how many of its
    /// bytes a check may take (at most `N - 16`).
    #[inline(always)]
    pub(crate) fn direct(b: &'a [u8], seen: usize) -> Option<Window<'a, N>> {
        let bytes = b.get(..N).and_then(|w| <&[u8; N]>::try_from(w).ok())?;
        Some(Window {
            bytes,
            len: seen.min(Self::MASK + 1),
        })
    }

    /// `pad`, which holds [`padded`]`(b, seen)`.
    #[inline(always)]
    pub(crate) fn over(pad: &'a [u8; N], b: &[u8], seen: usize) -> Window<'a, N> {
        Window {
            bytes: pad,
            len: b.len().min(seen).min(Self::MASK + 1),
        }
    }

    /// How many bytes of the record a check may take.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The byte at `i`.
    #[inline(always)]
    pub(crate) fn at(&self, i: usize) -> u8 {
        self.bytes[i & Self::MASK]
    }

    /// 8 bytes from `i`, the first in the lowest byte.
    #[inline(always)]
    pub(crate) fn load8(&self, i: usize) -> u64 {
        let k = i & Self::MASK;
        let mut a = [0u8; 8];
        a.copy_from_slice(&self.bytes[k..k + 8]);
        u64::from_le_bytes(a)
    }

    /// 16 bytes from `i`, as they are.
    #[inline(always)]
    pub(crate) fn bytes16(&self, i: usize) -> [u8; 16] {
        let k = i & Self::MASK;
        let mut a = [0u8; 16];
        a.copy_from_slice(&self.bytes[k..k + 16]);
        a
    }

    /// 16 bytes from `i`, the first in the lowest byte.
    #[inline(always)]
    pub(crate) fn load16(&self, i: usize) -> u128 {
        let k = i & Self::MASK;
        let mut a = [0u8; 16];
        a.copy_from_slice(&self.bytes[k..k + 16]);
        u128::from_le_bytes(a)
    }
}

/// The first `seen` bytes of `b` (fewer if it is shorter), zeros after them.
#[inline(always)]
pub(crate) fn padded<const N: usize>(b: &[u8], seen: usize) -> [u8; N] {
    let mut bytes = [0u8; N];
    let len = b.len().min(seen).min(N - 16);
    bytes[..len].copy_from_slice(&b[..len]);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direct_and_padded_windows_read_the_same_bytes_before_len() {
        let record: Vec<u8> = (0..100u8).collect();
        let long: Vec<u8> = record.iter().copied().cycle().take(300).collect();
        let direct = Window::<48>::direct(&long, 20).expect("long enough");
        let pad = padded::<48>(&record, 20);
        let over = Window::over(&pad, &record, 20);
        assert_eq!((direct.len(), over.len()), (20, 20));
        for i in 0..20 {
            assert_eq!(direct.at(i), over.at(i));
        }
        assert_eq!(
            direct.load8(3),
            u64::from_le_bytes([3, 4, 5, 6, 7, 8, 9, 10])
        );
        assert_eq!(
            over.load8(16),
            u64::from_le_bytes([16, 17, 18, 19, 0, 0, 0, 0])
        );
        assert_eq!(over.load16(0) as u8, 0);
        // Indexes wrap inside the span; nothing reads outside the array.
        assert_eq!(direct.at(32), direct.at(0));
        let _ = direct.load16(31);
        // A record shorter than `seen`: only its own bytes count.
        let short = [1u8, 2, 3];
        let pad = padded::<48>(&short, 20);
        assert_eq!(Window::over(&pad, &short, 20).len(), 3);
        assert!(Window::<48>::direct(&short, 20).is_none());
    }
}
