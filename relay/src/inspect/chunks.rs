//! Reading a log in [`CHUNK`]-byte steps, never holding more of it.

use std::io::{ErrorKind, Read};

/// Bytes read from the file per step: large enough that reading costs little, small enough
/// to keep the decoder's buffers (and the records of one step) a few hundred KB.
pub const CHUNK: usize = 256 << 10;

/// Hands `take` the bytes of `reader` a chunk at a time until the end, or until `take` says
/// it has seen enough (`Ok(false)`). A read a signal interrupted is tried again; a failed one
/// is `read_error`'s.
pub fn read_chunks<E>(
    mut reader: impl Read,
    mut take: impl FnMut(&[u8]) -> Result<bool, E>,
    read_error: impl Fn(std::io::Error) -> E,
) -> Result<(), E> {
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(read_error(e)),
        };
        if !take(&buf[..n])? {
            return Ok(());
        }
    }
}
