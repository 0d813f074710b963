//! The helios logo every fixture log carries (the left coach uploaded it: 184×32 pixels in 92
//! tiles of 8×8 XPM) assembles into the same image from every log format.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use rcss_formats::team_graphic::{assemble, assemble_both, Logo};
use rcss_formats::{parse_log, Side};

fn left_logo(rel: &str) -> Logo {
    let m = parse_log(&common::read(rel));
    assert!(m.error.is_none(), "{rel}: {:?}", m.error);
    let left = m.team_graphics.iter().filter(|t| t.side == Side::Left);
    assert_eq!(left.count(), 92, "{rel}: tiles");
    assert!(
        assemble(&m.team_graphics, Side::Right).is_none(),
        "{rel}: the right coach sent no logo"
    );
    assemble(&m.team_graphics, Side::Left).unwrap()
}

#[test]
fn helios_logo_from_the_full_game_is_184_by_32() {
    let logo = left_logo(common::FULL_GAME);
    assert_eq!((logo.width, logo.height), (184, 32));
    assert_eq!(logo.rgba.len(), 184 * 32 * 4);
    assert!(logo.bad_tiles.is_empty(), "{:?}", logo.bad_tiles);
    // Tile (22, 3) is "w c gray100" everywhere: white.
    assert_eq!(logo.pixel(183, 31), Some([255, 255, 255, 255]));
    // Tile (22, 1), first row "      .7" with "  c black", ". c #111111", "7 c #DDDDDD".
    assert_eq!(logo.pixel(176, 8), Some([0, 0, 0, 255]));
    assert_eq!(logo.pixel(182, 8), Some([0x11, 0x11, 0x11, 255]));
    assert_eq!(logo.pixel(183, 8), Some([0xdd, 0xdd, 0xdd, 255]));
    // Every pixel is covered by a tile, and the logo uses the reds of "$ c red" and kin.
    assert!(logo.rgba.chunks(4).all(|p| p[3] == 255));
    assert!(logo.rgba.chunks(4).any(|p| p == [255, 0, 0, 255]));
    assert!(
        logo.rgba.chunks(4).any(|p| p == [102, 102, 102, 255]),
        "gray40"
    );
}

#[test]
fn every_log_format_gives_the_same_logo() {
    let reference = left_logo(common::SHORT[5].1);
    assert_eq!((reference.width, reference.height), (184, 32));
    for (name, rel) in common::SHORT {
        let logo = left_logo(rel);
        assert_eq!(logo, reference, "{name}: logo differs from the ULG6 one");
    }
    let [l, r] = assemble_both(&parse_log(&common::read(common::SHORT[6].1)).team_graphics);
    assert_eq!(l.unwrap(), reference, "json");
    assert!(r.is_none());
}
