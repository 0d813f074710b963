//! What the tests of a live match share: the shows a monitor received, from a real capture.

use rcss_formats::datagram::{parse_datagram, Datagram};
use rcss_formats::{Frame, Record};

/// The shows of a live capture (`captures/…/NAME.dgrams.gz`), in arrival order.
pub fn capture_frames(rel: &str) -> Vec<Frame> {
    pitchside_fixtures::capture(rel)
        .iter()
        .filter_map(|d| match parse_datagram(d) {
            Ok(Datagram::Records(records)) => Some(records),
            _ => None,
        })
        .flatten()
        .filter_map(|r| match r {
            Record::Show(f) => Some(f),
            _ => None,
        })
        .collect()
}
