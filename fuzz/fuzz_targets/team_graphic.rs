//! Team graphics as the server relays them from a coach: `(team_graphic_l (X Y "xpm" …))`.
//! Any coach can send them, so any bytes: read or refused, never a panic, and a logo is
//! assembled only from tiles inside the 256×64 grid.
#![no_main]

#[path = "../common/cap.rs"]
mod cap;

use libfuzzer_sys::fuzz_target;
use rcss_formats::team_graphic::{assemble_both, decode_tile, parse_team_graphic};

fuzz_target!(|data: &[u8]| {
    // Several messages, one per line, as a log or a feed would carry them.
    let tiles: Vec<_> = data
        .split(|&b| b == b'\n')
        .filter_map(parse_team_graphic)
        .collect();
    for t in &tiles {
        let _ = decode_tile(&t.xpm);
    }
    let _ = assemble_both(&tiles);
});
