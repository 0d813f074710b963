//! Keeps what a lossy network delivers from rcssserver in the order the server sent it.
//!
//! UDP between the server and the relay may lose, duplicate and reorder datagrams (a venue's
//! Wi-Fi, a busy switch). A page must never see a frame older than the one it shows, nor a
//! match restarted by a late copy of the server's parameters, and a recording must not hold
//! a show twice. What can be told apart is dropped here, before the match's history:
//!
//! - A show older than the last one: by (time, stoppage time) where the protocol carries
//!   stoppage time (JSON), else by time alone. A show equal to the last one is not dropped:
//!   rcssserver itself sends the same show again and again before kick-off and after time
//!   over, so a copied datagram cannot be told from the server's own repeat (and shows the
//!   same picture). Protocols without stoppage time repeat the cycle during stoppages, so two
//!   shows of one stopped cycle that arrive swapped cannot be put right either: they are
//!   shown as they come (the players barely move then).
//! - A message older than the last one. (Equal messages pass: the server answers every
//!   malformed command with the same error, so a copy cannot be told from a repeat.)
//! - A second copy of the server's parameters, of the player parameters or of a player type
//!   within one registration. rcssserver plays one match per process and sends its
//!   parameters once per registration, so a `server_param` starts a new match only when it
//!   is the first after registering or differs from the match's (another server answered).
//! - Right after registering, records that overtook the `server_param` are held until it
//!   comes (or a show does), so that a new match starts with its parameters.
//!
//! If the `server_param` of a new registration was lost, a show going back in time still
//! marks the new match. Within a registration, what cannot be a late datagram begins a new
//! match too: the same `server_param` again after more than [`LATE_COPY_SHOWS`] shows, or a
//! show more than [`REWIND_CYCLES`] behind the last (a server, or a replayer standing in for
//! one, that starts over without being asked to register again).

use rcss_formats::{Frame, Params, Record};

/// Records held while waiting for the `server_param` after registering.
const HELD_MAX: usize = 64;
/// Shows after which the same `server_param` again is no late copy but the server starting
/// over (a network delays a datagram by a few cycles, not by seconds).
const LATE_COPY_SHOWS: u32 = 50;
/// Cycles a show may go back before it is taken for a match starting over rather than a late
/// datagram.
const REWIND_CYCLES: u32 = 50;

#[derive(Default)]
pub struct FeedOrder {
    /// Registered and no `server_param` or show seen since.
    fresh: bool,
    held: Vec<Record>,
    params: Option<Params>,
    player_param_seen: bool,
    types: Vec<Params>,
    last_show: Option<Frame>,
    last_message_time: u32,
    /// Shows passed since the match's parameters.
    shows_since_params: u32,
}

/// What passes: the records to publish, and whether they begin a new match that carries no
/// parameters to say so.
#[derive(Debug, Default)]
pub struct Admitted {
    pub records: Vec<Record>,
    pub new_match: bool,
    pub dropped: usize,
}

impl FeedOrder {
    /// The relay (re)registered: the next `server_param` begins a match.
    pub fn registered(&mut self) {
        self.fresh = true;
        self.held.clear();
    }

    pub fn admit(&mut self, records: Vec<Record>) -> Admitted {
        let mut out = Admitted::default();
        for r in records {
            match r {
                Record::ServerParam(p) => {
                    let again = self.params.is_some()
                        && (self.params.as_ref() != Some(&p)
                            || self.shows_since_params > LATE_COPY_SHOWS);
                    if self.fresh || again {
                        self.begin(Some(p.clone()));
                        out.records.push(Record::ServerParam(p));
                        out.records.append(&mut self.held);
                    } else if self.params.is_none() {
                        self.params = Some(p.clone());
                        out.records.push(Record::ServerParam(p));
                    } else {
                        out.dropped += 1;
                    }
                }
                Record::Show(f) => {
                    if self.fresh {
                        // The parameters were lost (or the protocol has none): the show
                        // itself says whether this is a new match.
                        self.fresh = false;
                        if self.last_show.as_ref().is_some_and(|l| f.time < l.time) {
                            self.begin(None);
                            out.new_match = true;
                        }
                        out.records.append(&mut self.held);
                    }
                    let rewound = self
                        .last_show
                        .as_ref()
                        .is_some_and(|l| f.time + REWIND_CYCLES < l.time);
                    if rewound {
                        // Far back: the match started over without its parameters.
                        self.begin(None);
                        out.new_match = true;
                    }
                    if self.show_in_order(&f) {
                        self.shows_since_params = self.shows_since_params.saturating_add(1);
                        self.last_show = Some(f.clone());
                        out.records.push(Record::Show(f));
                    } else {
                        out.dropped += 1;
                    }
                }
                other if self.fresh => {
                    if self.held.len() < HELD_MAX {
                        self.held.push(other);
                    } else {
                        out.dropped += 1;
                    }
                }
                Record::Msg(m) => {
                    if m.time < self.last_message_time {
                        out.dropped += 1;
                    } else {
                        self.last_message_time = m.time;
                        out.records.push(Record::Msg(m));
                    }
                }
                Record::PlayerParam(p) => {
                    if self.player_param_seen {
                        out.dropped += 1;
                    } else {
                        self.player_param_seen = true;
                        out.records.push(Record::PlayerParam(p));
                    }
                }
                Record::PlayerType(t) => {
                    if self.types.contains(&t) {
                        out.dropped += 1;
                    } else {
                        self.types.push(t.clone());
                        out.records.push(Record::PlayerType(t));
                    }
                }
                other => out.records.push(other),
            }
        }
        out
    }

    fn begin(&mut self, params: Option<Params>) {
        self.fresh = false;
        self.params = params;
        self.player_param_seen = false;
        self.types.clear();
        self.last_show = None;
        self.last_message_time = 0;
        self.shows_since_params = 0;
    }

    fn show_in_order(&self, f: &Frame) -> bool {
        let Some(last) = &self.last_show else {
            return true;
        };
        // JSON leaves stoppage time out while it is 0.
        (f.time, f.stime.unwrap_or(0)) >= (last.time, last.stime.unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rcss_formats::parse_log;

    fn records() -> Vec<Record> {
        let bytes = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz"
        ))
        .unwrap();
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text)
            .unwrap();
        let m = parse_log(&text);
        let mut r = Vec::new();
        r.extend(m.server_param.clone().map(Record::ServerParam));
        r.extend(m.player_param.clone().map(Record::PlayerParam));
        r.extend(m.player_types.iter().cloned().map(Record::PlayerType));
        r.extend(m.frames.iter().cloned().map(Record::Show));
        r
    }

    fn pass(order: &mut FeedOrder, rs: &[Record]) -> Vec<Record> {
        rs.iter()
            .flat_map(|r| order.admit(vec![r.clone()]).records)
            .collect()
    }

    #[test]
    fn an_ordered_feed_passes_whole() {
        let rs = records();
        let mut o = FeedOrder::default();
        o.registered();
        assert_eq!(pass(&mut o, &rs), rs);
    }

    #[test]
    fn copies_and_late_arrivals_are_dropped_and_the_rest_kept_in_order() {
        let rs = records();
        let mut shuffled = Vec::new();
        let mut state = 12345u64;
        let mut i = 0;
        while i < rs.len() {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            match (state >> 33) % 20 {
                0 => i += 1, // lost
                1 => {
                    shuffled.push(rs[i].clone());
                    shuffled.push(rs[i].clone());
                    i += 1;
                }
                2 if i + 1 < rs.len() => {
                    shuffled.push(rs[i + 1].clone());
                    shuffled.push(rs[i].clone());
                    i += 2;
                }
                _ => {
                    shuffled.push(rs[i].clone());
                    i += 1;
                }
            }
        }
        let mut o = FeedOrder::default();
        o.registered();
        let got = pass(&mut o, &shuffled);
        // Exactly one server_param, first; shows in the original order.
        assert!(matches!(got.first(), Some(Record::ServerParam(_))));
        assert_eq!(
            got.iter()
                .filter(|r| matches!(r, Record::ServerParam(_)))
                .count(),
            1
        );
        // No show older than the one before it. (Text logs repeat the cycle during stoppages:
        // two of those swapped cannot be told apart, nor a copy from a repeat, see above.)
        let shows: Vec<&Frame> = got
            .iter()
            .filter_map(|r| match r {
                Record::Show(f) => Some(f),
                _ => None,
            })
            .collect();
        let sent = shuffled
            .iter()
            .filter(|r| matches!(r, Record::Show(_)))
            .count();
        let late = shuffled
            .iter()
            .filter_map(|r| match r {
                Record::Show(f) => Some(f.time),
                _ => None,
            })
            .collect::<Vec<_>>()
            .windows(2)
            .filter(|w| w[1] < w[0])
            .count();
        assert!(late > 10, "the shuffle puts shows late: {late}");
        assert!(shows.len() > rs.len() * 8 / 10, "{}", shows.len());
        assert!(shows.len() < sent, "late shows dropped");
        assert!(shows.windows(2).all(|w| w[0].time <= w[1].time), "in order");
        let originals: Vec<&Frame> = rs
            .iter()
            .filter_map(|r| match r {
                Record::Show(f) => Some(f),
                _ => None,
            })
            .collect();
        assert!(
            shows.iter().all(|f| originals.contains(f)),
            "only real shows"
        );
        let types = got
            .iter()
            .filter(|r| matches!(r, Record::PlayerType(_)))
            .count();
        let want_types = rs
            .iter()
            .filter(|r| matches!(r, Record::PlayerType(_)))
            .count();
        assert!(types <= want_types);
    }

    #[test]
    fn a_feed_that_starts_over_without_registering_again_is_a_new_match() {
        let rs = records();
        let mut o = FeedOrder::default();
        o.registered();
        let twice: Vec<Record> = rs.iter().chain(rs.iter()).cloned().collect();
        assert_eq!(
            pass(&mut o, &twice),
            twice,
            "the second pass with its parameters"
        );
        // And without them: the rewind alone says so.
        let shows: Vec<Record> = rs
            .iter()
            .filter(|r| matches!(r, Record::Show(_)))
            .cloned()
            .collect();
        let a = o.admit(vec![shows[0].clone()]);
        assert!(a.new_match);
        assert_eq!(a.records.len(), 1);
    }

    #[test]
    fn a_new_registration_starts_a_match_even_if_its_parameters_were_lost() {
        let rs = records();
        let mut o = FeedOrder::default();
        o.registered();
        pass(&mut o, &rs);
        o.registered();
        let first_show = rs
            .iter()
            .position(|r| matches!(r, Record::Show(_)))
            .unwrap();
        let a = o.admit(vec![rs[first_show].clone()]);
        assert!(a.new_match);
        assert_eq!(a.records.len(), 1);
        // And with them: the parameters begin it, records that overtook them follow.
        o.registered();
        let a = o.admit(vec![rs[1].clone()]);
        assert!(a.records.is_empty(), "held until the server_param");
        let b = o.admit(vec![rs[0].clone()]);
        assert_eq!(b.records, vec![rs[0].clone(), rs[1].clone()]);
        // A late copy of the parameters within the registration changes nothing.
        assert_eq!(o.admit(vec![rs[0].clone()]).dropped, 1);
    }
}
