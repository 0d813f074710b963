//! Match events, statistics and team logos on whatever the log decoder makes of arbitrary
//! bytes: nothing may panic, and the summary at the last frame is the running summary.
#![no_main]

#[path = "../common/cap.rs"]
mod cap;

use libfuzzer_sys::fuzz_target;
use rcss_formats::log::{Detail, LogDecoder};
use rcss_formats::params::MatchParams;
use pitchside_analysis::stats::{HeatFilter, Stats};
use rcss_formats::{team_graphic, Params, Record, Side};

fuzz_target!(|data: &[u8]| {
    for detail in [Detail::Full, Detail::Light] {
        let mut d = LogDecoder::new();
        d.set_detail(detail);
        let mut records = Vec::new();
        let _ = d
            .feed(data, &mut records)
            .and_then(|_| d.finish(&mut records));
        let mut server: Option<Params> = None;
        let mut types = Vec::new();
        let mut tiles = Vec::new();
        let mut stats: Option<Stats> = None;
        for r in records {
            match r {
                Record::ServerParam(p) => server = Some(p),
                Record::PlayerType(p) => types.push(p),
                Record::TeamGraphic(t) => tiles.push(t),
                Record::Show(f) => stats
                    .get_or_insert_with(|| Stats::new(MatchParams::new(server.as_ref(), &types)))
                    .push(&f),
                _ => {}
            }
        }
        if let Some(s) = stats {
            let n = s.frames();
            assert_eq!(s.summary_at_frame(n - 1), s.summary());
            let _ = s.summary_at_frame(n / 2);
            let _ = s.summary_at_cycle(u32::MAX / 2);
            let _ = s.heat_map(Some(n / 2), HeatFilter::Possession(Side::Left));
            let _ = s.events().referee_messages();
        }
        let _ = team_graphic::assemble_both(&tiles);
    }
});
