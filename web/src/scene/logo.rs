//! Team logos from the 8×8 XPM tiles an online coach uploads, as RGBA images for the score bar.
//!
//! The smallest version the page needs until the library's own assembler is on main: XPM colours
//! `None`, `#rgb`, `#rrggbb`, X11's `grayN`/`greyN` (0–100) and the basic colour names helios and
//! most teams use. CSS does not know `gray20`, so the colours are resolved here, not by the
//! canvas. Tiles the server would refuse (outside 32×8 tiles) are left out, which keeps the
//! image size bounded whatever the input says.

use pitchside_shared::{Side, TeamGraphic};

const TILE: usize = 8;
const MAX_TILES_X: u32 = 32;
const MAX_TILES_Y: u32 = 8;

/// One team's logo, straight RGBA row by row (`width × height × 4` bytes): what an `ImageData`
/// takes.
#[derive(Clone, Debug, PartialEq)]
pub struct Logo {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

fn named(name: &str) -> Option<[u8; 3]> {
    let n: String = name
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    for prefix in ["gray", "grey"] {
        if let Some(level) = n.strip_prefix(prefix) {
            if level.is_empty() {
                return Some([190, 190, 190]);
            }
            let l: u32 = level.parse().ok().filter(|l| *l <= 100)?;
            // X11 rounds level × 255 / 100 to the nearest integer.
            let v = ((l * 255 + 50) / 100) as u8;
            return Some([v, v, v]);
        }
    }
    Some(match n.as_str() {
        "black" => [0, 0, 0],
        "white" => [255, 255, 255],
        "red" => [255, 0, 0],
        "green" => [0, 255, 0],
        "blue" => [0, 0, 255],
        "yellow" => [255, 255, 0],
        "cyan" => [0, 255, 255],
        "magenta" => [255, 0, 255],
        "orange" => [255, 165, 0],
        "navy" | "navyblue" => [0, 0, 128],
        "darkgreen" => [0, 100, 0],
        "darkred" => [139, 0, 0],
        "darkblue" => [0, 0, 139],
        "gold" => [255, 215, 0],
        "purple" => [160, 32, 240],
        "brown" => [165, 42, 42],
        "pink" => [255, 192, 203],
        "silver" => [192, 192, 192],
        _ => return None,
    })
}

/// An XPM colour as RGBA; `None` is transparent.
pub fn colour(spec: &str) -> Option<[u8; 4]> {
    let spec = spec.trim();
    if spec.eq_ignore_ascii_case("none") {
        return Some([0, 0, 0, 0]);
    }
    if let Some(hex) = spec.strip_prefix('#') {
        let digits: Vec<u8> = hex
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as u8))
            .collect::<Option<_>>()?;
        let per = match digits.len() {
            3 | 6 | 9 | 12 => digits.len() / 3,
            _ => return None,
        };
        let channel = |i: usize| -> u8 {
            // The most significant two hex digits of each channel (one digit: doubled).
            let d = &digits[i * per..(i + 1) * per];
            if per == 1 {
                d[0] * 17
            } else {
                d[0] * 16 + d[1]
            }
        };
        return Some([channel(0), channel(1), channel(2), 255]);
    }
    named(spec).map(|[r, g, b]| [r, g, b, 255])
}

/// One tile's pixels, or `None` if its XPM is not a readable 8×8 image.
fn tile(xpm: &[String]) -> Option<Vec<[u8; 4]>> {
    let head: Vec<usize> = xpm
        .first()?
        .split_whitespace()
        .map(|w| w.parse().ok())
        .collect::<Option<_>>()?;
    let &[w, h, colours, cpp] = head.as_slice() else {
        return None;
    };
    if w != TILE || h != TILE || cpp == 0 || cpp > 4 || xpm.len() != 1 + colours + h {
        return None;
    }
    let mut palette: Vec<(&str, [u8; 4])> = Vec::with_capacity(colours);
    for line in &xpm[1..=colours] {
        let key = line.get(..cpp)?;
        let rest = line.get(cpp..)?;
        let mut words = rest.split_whitespace();
        let mut spec = None;
        while let Some(w) = words.next() {
            if w == "c" {
                let value: Vec<&str> = words
                    .by_ref()
                    .take_while(|w| !["m", "g", "g4", "s"].contains(w))
                    .collect();
                spec = Some(value.join(" "));
                break;
            }
        }
        palette.push((key, colour(&spec?)?));
    }
    let mut px = Vec::with_capacity(TILE * TILE);
    for row in &xpm[1 + colours..] {
        if row.len() != w * cpp {
            return None;
        }
        for i in 0..w {
            let key = row.get(i * cpp..(i + 1) * cpp)?;
            px.push(palette.iter().find(|(k, _)| *k == key)?.1);
        }
    }
    Some(px)
}

/// `side`'s logo from every tile of that side, a later tile for the same place replacing an
/// earlier one. `None` if the side sent no readable tile.
pub fn assemble(tiles: &[TeamGraphic], side: Side) -> Option<Logo> {
    let mine: Vec<&TeamGraphic> = tiles
        .iter()
        .filter(|t| t.side == side && t.x < MAX_TILES_X && t.y < MAX_TILES_Y)
        .collect();
    let cols = mine.iter().map(|t| t.x + 1).max()?;
    let rows = mine.iter().map(|t| t.y + 1).max()?;
    let (width, height) = (cols * TILE as u32, rows * TILE as u32);
    let mut rgba = vec![0u8; (width * height * 4) as usize];
    let mut any = false;
    for t in mine {
        let Some(px) = tile(&t.xpm) else { continue };
        any = true;
        for (i, c) in px.iter().enumerate() {
            let x = t.x as usize * TILE + i % TILE;
            let y = t.y as usize * TILE + i / TILE;
            let at = (y * width as usize + x) * 4;
            rgba[at..at + 4].copy_from_slice(c);
        }
    }
    any.then_some(Logo {
        width,
        height,
        rgba,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::testutil;

    #[test]
    fn helios_logo_is_184_by_32_with_x11_greys() {
        for m in [testutil::short_v6(), testutil::full(), testutil::short_v1()] {
            let logo = assemble(&m.team_graphics, Side::Left).expect("helios sent a logo");
            assert_eq!((logo.width, logo.height), (184, 32));
            let opaque = logo.rgba.chunks(4).filter(|p| p[3] == 255).count();
            assert_eq!(opaque, 184 * 32, "every pixel of every tile is known");
            assert!(assemble(&m.team_graphics, Side::Right).is_none());
        }
        assert_eq!(colour("gray20"), Some([51, 51, 51, 255]));
        assert_eq!(colour("gray100"), Some([255, 255, 255, 255]));
        assert_eq!(colour("#FF7777"), Some([255, 119, 119, 255]));
        assert_eq!(colour("None"), Some([0, 0, 0, 0]));
        assert_eq!(colour("no such colour"), None);
    }
}
