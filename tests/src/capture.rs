//! The capture container (each datagram the capture client received, as a 4-byte big-endian
//! length followed by the payload, nothing else) and what its datagrams hold.

use rcss_formats::datagram::{parse_datagram, Datagram};
use rcss_formats::{Frame, Record};

pub use crate::fixtures::split_capture as split;

/// The records datagrams hold, as the relay's own parser reads them (datagrams it cannot
/// read hold none).
pub fn records(datagrams: &[Vec<u8>]) -> Vec<Record> {
    datagrams
        .iter()
        .filter_map(|d| match parse_datagram(d) {
            Ok(Datagram::Records(r)) => Some(r),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The shows among `records`.
pub fn shows(records: impl IntoIterator<Item = Record>) -> Vec<Frame> {
    records
        .into_iter()
        .filter_map(|r| match r {
            Record::Show(f) => Some(f),
            _ => None,
        })
        .collect()
}
