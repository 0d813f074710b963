//! Team logos: the 8×8 XPM tiles an online coach uploads (`(team_graphic (X Y "xpm"…))`),
//! which the server forwards as `(team_graphic_l (X Y "8 8 1 1" "w c gray100" …))` msgs (text
//! logs, text and binary monitors) or `{"team_graphic":{…}}` objects (JSON), assembled into one
//! RGBA image per team that a page can put on a canvas or in an `ImageData`.
//!
//! Why the library does the colours: XPM allows every X11 colour name (`gray20`, `gray100`,
//! `navy blue`), and a browser's CSS knows only some of them, so handing the XPM colour strings
//! to the canvas would draw some logos black. Colours are resolved here from X11's own table.
//!
//! What rcssserver 19 accepts (coach.cpp, `OnlineCoach::team_graphic`): only before kick-off;
//! tiles of exactly 8×8 pixels; tile coordinates `x < 32`, `y < 8` (a 256×64 logo at most).
//! Tiles outside that are only warned about by the server and still forwarded; here they are
//! left out, which keeps the image size bounded whatever the input says.

mod x11_colors;

use crate::model::{Side, TeamGraphic};

/// Pixels per tile side, as the server requires.
pub const TILE: u32 = 8;
/// Tile columns the server accepts (`x < 32`).
pub const MAX_TILES_X: u32 = 32;
/// Tile rows the server accepts (`y < 8`).
pub const MAX_TILES_Y: u32 = 8;
/// Limit on XPM lines in one tile: header, colours and rows of a real tile are at most ~75.
const MAX_XPM_LINES: usize = 64 + 1 + 8;

/// The tile inside a `(team_graphic_l (X Y "xpm" …))` message text, if it is one.
///
/// The XPM strings are kept as they are; [`decode_tile`] reads them.
pub fn parse_team_graphic(text: &[u8]) -> Option<TeamGraphic> {
    let (side, rest) = if let Some(r) = text.strip_prefix(b"(team_graphic_l") {
        (Side::Left, r)
    } else if let Some(r) = text.strip_prefix(b"(team_graphic_r") {
        (Side::Right, r)
    } else {
        return None;
    };
    let mut rest = trim_start(rest).strip_prefix(b"(")?;
    let (x, r) = leading_u32(trim_start(rest))?;
    let (y, r) = leading_u32(trim_start(r))?;
    rest = r;
    let mut xpm = Vec::new();
    loop {
        rest = trim_start(rest);
        match rest.first() {
            Some(b'"') => {
                let len = rest[1..].iter().position(|&b| b == b'"')?;
                if xpm.len() >= MAX_XPM_LINES {
                    return None;
                }
                xpm.push(String::from_utf8_lossy(&rest[1..1 + len]).into_owned());
                rest = &rest[len + 2..];
            }
            Some(b')') => break,
            _ => return None,
        }
    }
    Some(TeamGraphic { side, x, y, xpm })
}

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

fn leading_u32(b: &[u8]) -> Option<(u32, &[u8])> {
    let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let v = std::str::from_utf8(&b[..n]).ok()?.parse().ok()?;
    Some((v, &b[n..]))
}

/// One colour, straight (not premultiplied) RGBA; alpha is 0 for XPM's `None`, else 255.
pub type Rgba = [u8; 4];

/// Why one tile could not be read. The logo is still assembled from the other tiles.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TileError {
    #[error("XPM header \"{0}\" is not \"WIDTH HEIGHT COLOURS CHARS_PER_PIXEL\"")]
    Header(String),
    #[error("tile is {width}×{height} pixels; the server accepts only 8×8")]
    Size { width: u32, height: u32 },
    #[error("XPM has {found} lines, its header announces {expected}")]
    Lines { expected: usize, found: usize },
    #[error("XPM colour line \"{0}\" has no usable `c` colour")]
    ColorLine(String),
    #[error("unknown XPM colour \"{0}\"")]
    UnknownColor(String),
    #[error("XPM pixel row {row} uses characters \"{chars}\" that no colour line defines")]
    UndefinedPixel { row: usize, chars: String },
    #[error("XPM pixel row {row} is {found} characters long, expected {expected}")]
    RowLength {
        row: usize,
        expected: usize,
        found: usize,
    },
    #[error("tile ({x}, {y}) lies outside the 32×8 tiles the server accepts")]
    OutOfRange { x: u32, y: u32 },
}

/// One decoded 8×8 tile, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    pub pixels: [[Rgba; TILE as usize]; TILE as usize],
}

/// Reads one tile's XPM lines (`"8 8 N CPP"`, N colour lines, 8 pixel rows).
pub fn decode_tile(xpm: &[String]) -> Result<Tile, TileError> {
    let header = xpm.first().map(String::as_str).unwrap_or("");
    let nums: Vec<usize> = header
        .split_ascii_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| TileError::Header(header.to_owned()))?;
    let &[width, height, colors, cpp] = nums.as_slice() else {
        return Err(TileError::Header(header.to_owned()));
    };
    if width != TILE as usize || height != TILE as usize {
        return Err(TileError::Size {
            width: u32::try_from(width).unwrap_or(u32::MAX),
            height: u32::try_from(height).unwrap_or(u32::MAX),
        });
    }
    if cpp == 0 || cpp > 4 {
        return Err(TileError::Header(header.to_owned()));
    }
    let expected = 1 + colors.min(MAX_XPM_LINES) + height;
    if colors > MAX_XPM_LINES || xpm.len() != expected {
        return Err(TileError::Lines {
            expected,
            found: xpm.len(),
        });
    }
    let mut palette: Vec<(&[u8], Rgba)> = Vec::with_capacity(colors);
    for line in &xpm[1..=colors] {
        let bytes = line.as_bytes();
        let key = bytes
            .get(..cpp)
            .ok_or_else(|| TileError::ColorLine(line.clone()))?;
        let spec = line
            .get(cpp..)
            .and_then(color_spec)
            .ok_or_else(|| TileError::ColorLine(line.clone()))?;
        let rgba = parse_color(&spec).ok_or(TileError::UnknownColor(spec))?;
        palette.push((key, rgba));
    }
    let mut tile = Tile {
        pixels: [[[0; 4]; TILE as usize]; TILE as usize],
    };
    for (row, line) in xpm[1 + colors..].iter().enumerate() {
        let bytes = line.as_bytes();
        if bytes.len() != width * cpp {
            return Err(TileError::RowLength {
                row,
                expected: width * cpp,
                found: bytes.len(),
            });
        }
        for (col, chars) in bytes.chunks(cpp).enumerate() {
            let rgba = palette
                .iter()
                .find(|(k, _)| *k == chars)
                .map(|(_, c)| *c)
                .ok_or_else(|| TileError::UndefinedPixel {
                    row,
                    chars: String::from_utf8_lossy(chars).into_owned(),
                })?;
            tile.pixels[row][col] = rgba;
        }
    }
    Ok(tile)
}

/// The value of the `c` (colour display) key of an XPM colour line, after the pixel
/// characters: `" c gray100"` → `gray100`, `" c navy blue"` → `navy blue`. Other keys (`m`,
/// `g`, `g4`, `s`) may come before or after it.
fn color_spec(rest: &str) -> Option<String> {
    const KEYS: [&str; 5] = ["c", "m", "g", "g4", "s"];
    let mut words = rest.split_ascii_whitespace().peekable();
    while let Some(w) = words.next() {
        if w != "c" {
            continue;
        }
        let mut value: Vec<&str> = Vec::new();
        while let Some(next) = words.peek() {
            if KEYS.contains(next) && !value.is_empty() {
                break;
            }
            value.push(next);
            words.next();
        }
        return (!value.is_empty()).then(|| value.join(" "));
    }
    None
}

/// An XPM colour: `None` (transparent), `#rgb`, `#rrggbb`, `#rrrrggggbbbb`, or an X11 colour
/// name in any case, with or without spaces (`gray20`, `GhostWhite`, `ghost white`).
pub fn parse_color(spec: &str) -> Option<Rgba> {
    let spec = spec.trim();
    if spec.eq_ignore_ascii_case("none") {
        return Some([0, 0, 0, 0]);
    }
    if let Some(hex) = spec.strip_prefix('#') {
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let per = match hex.len() {
            3 | 6 | 9 | 12 => hex.len() / 3,
            _ => return None,
        };
        let channel = |i: usize| -> Option<u8> {
            let digits = hex.get(i * per..(i + 1) * per)?;
            let v = u32::from_str_radix(digits, 16).ok()?;
            // Scale to 8 bits as X11 does: keep the top byte (`#fff` means 0xff, not 0x0f).
            let v = match per {
                1 => v * 0x11,
                2 => v,
                _ => v >> (4 * (per - 2)),
            };
            u8::try_from(v).ok()
        };
        return Some([channel(0)?, channel(1)?, channel(2)?, 255]);
    }
    let name: String = spec
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    for prefix in ["gray", "grey"] {
        if let Some(level) = name.strip_prefix(prefix) {
            if !level.is_empty() && level.bytes().all(|b| b.is_ascii_digit()) {
                let n: usize = level.parse().ok()?;
                let v = *x11_colors::GRAY_LEVELS.get(n)?;
                return Some([v, v, v, 255]);
            }
        }
    }
    let i = x11_colors::NAMED
        .binary_search_by(|(n, _)| n.cmp(&name.as_str()))
        .ok()?;
    let [r, g, b] = x11_colors::NAMED[i].1;
    Some([r, g, b, 255])
}

/// One team's logo as straight RGBA, row by row, `width × height × 4` bytes: what an
/// `ImageData` takes. Places no tile covers are transparent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Logo {
    pub side: Side,
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
    /// Tiles that were left out, with why (bad XPM, outside the 32×8 grid). Their place stays
    /// transparent.
    pub bad_tiles: Vec<((u32, u32), TileError)>,
}

impl Logo {
    /// The pixel at `(x, y)`, if inside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<Rgba> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let at = ((y * self.width + x) * 4) as usize;
        let p = self.rgba.get(at..at + 4)?;
        Some([p[0], p[1], p[2], p[3]])
    }
}

/// Assembles `side`'s logo from every tile of that side in `tiles`, in order: a tile sent again
/// for the same place replaces the earlier one. The image spans the tiles' bounding box from
/// tile (0, 0). `None` if the side sent no tile within the accepted grid.
pub fn assemble(tiles: &[TeamGraphic], side: Side) -> Option<Logo> {
    let mut bad_tiles = Vec::new();
    let mut placed: Vec<((u32, u32), &TeamGraphic)> = Vec::new();
    for t in tiles.iter().filter(|t| t.side == side) {
        if t.x >= MAX_TILES_X || t.y >= MAX_TILES_Y {
            bad_tiles.push(((t.x, t.y), TileError::OutOfRange { x: t.x, y: t.y }));
            continue;
        }
        match placed.iter_mut().find(|(at, _)| *at == (t.x, t.y)) {
            Some(slot) => slot.1 = t,
            None => placed.push(((t.x, t.y), t)),
        }
    }
    let cols = placed.iter().map(|((x, _), _)| x + 1).max()?;
    let rows = placed.iter().map(|((_, y), _)| y + 1).max()?;
    let (width, height) = (cols * TILE, rows * TILE);
    let mut rgba = vec![0u8; (width * height * 4) as usize];
    for ((tx, ty), t) in placed {
        match decode_tile(&t.xpm) {
            Ok(tile) => {
                for (row, pixels) in tile.pixels.iter().enumerate() {
                    let y = ty * TILE + row as u32;
                    let at = ((y * width + tx * TILE) * 4) as usize;
                    for (col, p) in pixels.iter().enumerate() {
                        rgba[at + col * 4..at + col * 4 + 4].copy_from_slice(p);
                    }
                }
            }
            Err(e) => bad_tiles.push(((tx, ty), e)),
        }
    }
    Some(Logo {
        side,
        width,
        height,
        rgba,
        bad_tiles,
    })
}

/// Both teams' logos, left then right.
pub fn assemble_both(tiles: &[TeamGraphic]) -> [Option<Logo>; 2] {
    [assemble(tiles, Side::Left), assemble(tiles, Side::Right)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xpm(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn colours_x11_names_hex_and_none() {
        assert_eq!(parse_color("gray100"), Some([255, 255, 255, 255]));
        assert_eq!(parse_color("gray20"), Some([51, 51, 51, 255]));
        assert_eq!(parse_color("grey50"), Some([127, 127, 127, 255]));
        assert_eq!(parse_color("gray"), Some([190, 190, 190, 255]));
        assert_eq!(parse_color("black"), Some([0, 0, 0, 255]));
        assert_eq!(parse_color("red"), Some([255, 0, 0, 255]));
        assert_eq!(parse_color("Navy Blue"), Some([0, 0, 128, 255]));
        assert_eq!(parse_color("GhostWhite"), Some([248, 248, 255, 255]));
        assert_eq!(parse_color("#DDDDDD"), Some([221, 221, 221, 255]));
        assert_eq!(parse_color("#f0a"), Some([255, 0, 170, 255]));
        assert_eq!(parse_color("#ffff00000000"), Some([255, 0, 0, 255]));
        assert_eq!(parse_color("None"), Some([0, 0, 0, 0]));
        assert_eq!(parse_color("gray101"), None);
        assert_eq!(parse_color("#12345"), None);
        assert_eq!(parse_color("no such colour"), None);
    }

    #[test]
    fn x11_table_is_sorted_for_binary_search() {
        assert!(x11_colors::NAMED.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn a_tile_with_four_colours_and_two_chars_per_pixel() {
        let mut lines = vec!["8 8 2 2", "aa c None", "bb c #FF0000"];
        lines.extend(["aabbaabbaabbaabb"; 8]);
        let tile = decode_tile(&xpm(&lines)).unwrap();
        assert_eq!(tile.pixels[0][0], [0, 0, 0, 0]);
        assert_eq!(tile.pixels[7][1], [255, 0, 0, 255]);
    }

    #[test]
    fn bad_tiles_say_why() {
        let mut lines = vec!["8 8 1 1", "w c gray100"];
        lines.extend(["wwwwwwww"; 8]);
        assert!(decode_tile(&xpm(&lines)).is_ok());
        let mut short = lines.clone();
        short[3] = "www";
        assert!(matches!(
            decode_tile(&xpm(&short)),
            Err(TileError::RowLength { row: 1, .. })
        ));
        let mut undefined = lines.clone();
        undefined[2] = "wwwwwwwx";
        assert!(matches!(
            decode_tile(&xpm(&undefined)),
            Err(TileError::UndefinedPixel { row: 0, .. })
        ));
        let mut colour = lines.clone();
        colour[1] = "w c grey1000";
        assert_eq!(
            decode_tile(&xpm(&colour)),
            Err(TileError::UnknownColor("grey1000".into()))
        );
        assert!(matches!(
            decode_tile(&xpm(&["16 16 1 1"])),
            Err(TileError::Size { .. })
        ));
        assert!(matches!(
            decode_tile(&xpm(&["eight"])),
            Err(TileError::Header(_))
        ));
        assert!(matches!(
            decode_tile(&xpm(&lines[..5])),
            Err(TileError::Lines { .. })
        ));
    }

    #[test]
    fn later_tiles_replace_earlier_ones_and_far_tiles_are_left_out() {
        let tile = |x: u32, y: u32, colour: &str| {
            let mut lines = vec!["8 8 1 1".to_owned(), format!("w c {colour}")];
            lines.extend(std::iter::repeat_n("wwwwwwww".to_owned(), 8));
            TeamGraphic {
                side: Side::Right,
                x,
                y,
                xpm: lines,
            }
        };
        let tiles = [tile(1, 0, "red"), tile(1, 0, "blue"), tile(40, 0, "red")];
        let logo = assemble(&tiles, Side::Right).unwrap();
        assert_eq!((logo.width, logo.height), (16, 8));
        assert_eq!(logo.pixel(0, 0), Some([0, 0, 0, 0]), "no tile at (0, 0)");
        assert_eq!(logo.pixel(8, 0), Some([0, 0, 255, 255]));
        assert_eq!(logo.bad_tiles.len(), 1);
        assert!(assemble(&tiles, Side::Left).is_none());
    }

    #[test]
    fn tile_text_as_the_server_forwards_it() {
        let t =
            parse_team_graphic(b"(team_graphic_l (22 3 \"8 8 1 1\" \"w c gray100\" \"wwwwwwww\"))")
                .unwrap();
        assert_eq!((t.side, t.x, t.y, t.xpm.len()), (Side::Left, 22, 3, 3));
        assert_eq!(t.xpm[1], "w c gray100");
        assert!(parse_team_graphic(b"(team_graphic_x (1 2))").is_none());
        assert!(parse_team_graphic(b"(team_graphic_r (1 \"a\"))").is_none());
        assert!(parse_team_graphic(b"(team_graphic_r (1 2 \"unterminated").is_none());
    }
}
