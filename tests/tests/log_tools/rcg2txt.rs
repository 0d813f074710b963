//! librcsc's `rcg2txt`, reproduced: what librcsc reads from a log, frame by frame, as text.
//!
//! The log tests compare the files pitchside writes with the files librcsc's own tools
//! write *as librcsc reads them*. CI has no librcsc, so this module does librcsc's reading
//! and `rcg2txt`'s printing in Rust, down to its `float` arithmetic and its quirks (a v1/v2
//! body angle read as an unsigned 16-bit number, absent fields as 65536); it is checked line
//! for line against the real `rcg2txt`'s output on every fixture (`tests/golden/log_tools/`),
//! so that what it says of pitchside's files is what `rcg2txt` would say.
//!
//! How librcsc reads each version (librcsc `078d59f`, `rcsc/rcg/`): text and JSON logs into
//! `float`s (`strtof`; JSON as `double` then `float`), v3 shows as `int32 / 65536` in `float`
//! and angles × `RAD2DEGF`, v1/v2 shows as `int16 / 16`; `rcg2txt` then turns each player back
//! into a `player_t` (`rintf(v × 65536)`, angles × `DEG2RADF`) and prints those integers / 65536
//! as `double`s with six significant digits.

use rcss_formats::number::write_g6;
use rcss_formats::{LogDecoder, LogVersion, PlayMode, Record};

const SCALE2F: f32 = 65536.0;
const DEG2RADF: f32 = std::f32::consts::PI / 180.0;
const RAD2DEGF: f32 = 180.0 / std::f32::consts::PI;

/// librcsc's `PlayerT`, with its defaults for what a format does not carry.
#[derive(Clone, Debug)]
struct PlayerT {
    side: char,
    unum: i32,
    state: i32,
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
    body: f32,
    neck: f32,
    stamina: f32,
    /// kick dash turn say turn_neck catch move change_view.
    counts: [u16; 8],
}

impl Default for PlayerT {
    fn default() -> Self {
        PlayerT {
            side: 'n',
            unum: 0,
            state: 0,
            x: 0.0,
            y: 0.0,
            vx: SCALE2F,
            vy: SCALE2F,
            body: 0.0,
            neck: SCALE2F,
            stamina: SCALE2F,
            counts: [0xFFFF; 8],
        }
    }
}

/// `static_cast<Int32>(rintf(v * 65536.0f))` as x86-64 computes it (out of range: INT_MIN).
fn hftonl(v: f32) -> i32 {
    let s = (v * SCALE2F).round_ties_even();
    if (-2147483648.0..2147483648.0).contains(&s) {
        s as i32
    } else {
        i32::MIN
    }
}

fn nltohd(v: i32) -> f64 {
    f64::from(v) / 65536.0
}

fn nltohf(v: i32) -> f32 {
    v as f32 / SCALE2F
}

fn g(out: &mut String, v: f64) {
    write_g6(out, v);
}

/// librcsc's name of play mode `index`: the server's names (`PlayMode::name`), except that
/// librcsc calls index 0 "unknown playmode" and knows none past `penalty_score_r` (49).
fn playmode_name(index: usize) -> &'static str {
    match index {
        0 => "unknown playmode",
        1..=49 => u32::try_from(index)
            .ok()
            .and_then(PlayMode::from_index)
            .map_or("", PlayMode::name),
        _ => "",
    }
}

/// A `player_t` as a v3 log holds it.
#[derive(Clone, Copy, Debug)]
struct RawPlayer {
    mode: i16,
    x: i32,
    y: i32,
    vx: i32,
    vy: i32,
    body: i32,
    head: i32,
    stamina: i32,
    effort: i32,
    recovery: i32,
    /// kick dash turn say turn_neck catch move change_view.
    counts: [i16; 8],
}

/// The raw `ball_t` and `player_t`s of each v3 show, in order.
fn v3_raw_shows(bytes: &[u8]) -> Vec<([i32; 4], Vec<RawPlayer>)> {
    let i16_at = |b: &[u8], o: usize| i16::from_be_bytes([b[o], b[o + 1]]);
    let i32_at = |b: &[u8], o: usize| i32::from_be_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
    let mut shows = Vec::new();
    let mut pos = 4;
    while pos + 2 <= bytes.len() {
        let mode = i16_at(bytes, pos);
        pos += 2;
        let len = match mode {
            1 => 1428,
            2 if pos + 4 <= bytes.len() => 4 + i16_at(bytes, pos + 2).max(0) as usize,
            5 => 1,
            6 => 36,
            7 => 88,
            8 => 396,
            9 => 132,
            _ => break,
        };
        if pos + len > bytes.len() {
            break;
        }
        if mode == 1 {
            let s = &bytes[pos..pos + len];
            let ball = [i32_at(s, 0), i32_at(s, 4), i32_at(s, 8), i32_at(s, 12)];
            let players = (0..22)
                .map(|i| {
                    let p = &s[16 + i * 64..16 + (i + 1) * 64];
                    let mut counts = [0i16; 8];
                    for (k, c) in counts.iter_mut().enumerate() {
                        *c = i16_at(p, 48 + 2 * k);
                    }
                    RawPlayer {
                        mode: i16_at(p, 0),
                        x: i32_at(p, 4),
                        y: i32_at(p, 8),
                        vx: i32_at(p, 12),
                        vy: i32_at(p, 16),
                        body: i32_at(p, 20),
                        head: i32_at(p, 24),
                        stamina: i32_at(p, 36),
                        effort: i32_at(p, 40),
                        recovery: i32_at(p, 44),
                        counts,
                    }
                })
                .collect();
            shows.push((ball, players));
        }
        pos += len;
    }
    shows
}

/// What `rcg2txt FILE` prints to its standard output for `bytes` (a log, gzipped or not).
pub fn rcg2txt(bytes: &[u8]) -> String {
    let mut d = LogDecoder::new();
    let mut records = Vec::new();
    let _ = d.feed(bytes, &mut records);
    let _ = d.finish(&mut records);
    let version = d.version();
    let raw_v3 = if version == Some(LogVersion::V3) {
        let plain = gunzip(bytes);
        v3_raw_shows(&plain)
    } else {
        Vec::new()
    };
    let binary_pos = matches!(version, Some(LogVersion::V1 | LogVersion::V2));
    let mut out = String::new();
    let mut playmode: usize = 0;
    let mut names: [String; 2] = Default::default();
    let mut scores = [0u32; 2];
    let mut counts: Vec<[i64; 8]> = vec![[0; 8]; 22];
    let mut v3_index = 0;
    let handle_team =
        |teams: &[rcss_formats::Team; 2], names: &mut [String; 2], scores: &mut [u32; 2]| {
            for (i, t) in teams.iter().enumerate() {
                if names[i].is_empty() {
                    names[i] = t.name.clone().unwrap_or_default();
                }
                scores[i] = t.score;
            }
        };
    for r in &records {
        match r {
            Record::PlayMode { mode, .. } => playmode = usize::from(mode.index()),
            Record::Team { teams, .. } => handle_team(teams, &mut names, &mut scores),
            Record::Show(f) => {
                if binary_pos {
                    playmode = usize::from(f.mode.index());
                    handle_team(&f.teams, &mut names, &mut scores);
                }
                let (ball, players): ([f32; 4], Vec<PlayerT>) = if binary_pos {
                    let players = f
                        .players
                        .iter()
                        .enumerate()
                        .map(|(i, p)| PlayerT {
                            side: if i < 11 { 'l' } else { 'r' },
                            unum: i32::from(p.unum),
                            state: i32::from(p.state as u16),
                            // `static_cast<float>(ntohs(angle))`: unsigned.
                            body: f32::from(p.body as i16 as u16),
                            x: p.x,
                            y: p.y,
                            ..PlayerT::default()
                        })
                        .collect();
                    ([f.ball.x, f.ball.y, SCALE2F, SCALE2F], players)
                } else if let Some((b, raw)) = raw_v3.get(v3_index) {
                    v3_index += 1;
                    let players = raw
                        .iter()
                        .enumerate()
                        .map(|(i, a)| PlayerT {
                            side: if i < 11 { 'l' } else { 'r' },
                            unum: (i % 11 + 1) as i32,
                            state: i32::from(a.mode as u16),
                            x: nltohf(a.x),
                            y: nltohf(a.y),
                            vx: nltohf(a.vx),
                            vy: nltohf(a.vy),
                            body: nltohf(a.body) * RAD2DEGF,
                            neck: nltohf(a.head) * RAD2DEGF,
                            // Kept only when stamina, effort and recovery are all set.
                            stamina: if a.stamina != 0 && a.effort != 0 && a.recovery != 0 {
                                nltohf(a.stamina)
                            } else {
                                SCALE2F
                            },
                            counts: a.counts.map(|c| c as u16),
                        })
                        .collect();
                    (
                        [nltohf(b[0]), nltohf(b[1]), nltohf(b[2]), nltohf(b[3])],
                        players,
                    )
                } else {
                    let players = f
                        .players
                        .iter()
                        .enumerate()
                        .map(|(i, p)| {
                            let c = p.counts.unwrap_or_default().values;
                            PlayerT {
                                side: if i < 11 { 'l' } else { 'r' },
                                unum: i32::from(p.unum),
                                state: p.state as i32,
                                x: p.x,
                                y: p.y,
                                vx: p.vx,
                                vy: p.vy,
                                body: p.body,
                                neck: p.neck,
                                stamina: p.stamina.map_or(SCALE2F, |s| s.stamina),
                                counts: [
                                    c[0] as u16,
                                    c[1] as u16,
                                    c[2] as u16,
                                    c[7] as u16,
                                    c[5] as u16,
                                    c[3] as u16,
                                    c[4] as u16,
                                    c[6] as u16,
                                ],
                            }
                        })
                        .collect();
                    ([f.ball.x, f.ball.y, f.ball.vx, f.ball.vy], players)
                };
                out.push_str("(Info (state ");
                out.push_str(&f.time.to_string());
                out.push(' ');
                out.push_str(playmode_name(playmode));
                out.push_str(&format!(" {} {})", scores[0], scores[1]));
                out.push_str(" (ball ");
                for (k, v) in ball.iter().enumerate() {
                    if k > 0 {
                        out.push(' ');
                    }
                    g(&mut out, f64::from(*v));
                }
                out.push(')');
                for (i, p) in players.iter().enumerate() {
                    print_player(&mut out, p, &counts[i]);
                    counts[i] = p.counts.map(i64::from);
                }
                out.push_str(")\n");
            }
            _ => {}
        }
    }
    out.push_str(&format!(
        "(Result \"{}\" \"{}\" {} {})\n",
        names[0], names[1], scores[0], scores[1]
    ));
    out
}

fn print_player(out: &mut String, p: &PlayerT, prev: &[i64; 8]) {
    // convert( PlayerT, player_t ), then rcg2txt's printPlayer.
    let mode = p.state as i16;
    let has_velocity = p.vx != SCALE2F;
    let has_counts = p.counts[0] != 0xFFFF;
    let x = hftonl(p.x);
    let y = hftonl(p.y);
    let (vx, vy) = if has_velocity {
        (hftonl(p.vx), hftonl(p.vy))
    } else {
        (0, 0)
    };
    let body = hftonl(p.body * DEG2RADF);
    let head = if p.neck != SCALE2F {
        hftonl(p.neck * DEG2RADF)
    } else {
        0
    };
    let stamina = if p.stamina != SCALE2F {
        hftonl(p.stamina)
    } else {
        0
    };
    let now: [i64; 8] = if has_counts {
        p.counts.map(|c| i64::from(c as i16))
    } else {
        [0; 8]
    };
    let body_deg = nltohd(body) * (180.0 / std::f64::consts::PI);
    let mut head_deg = nltohd(head) * (180.0 / std::f64::consts::PI);
    head_deg += body_deg;
    while head_deg > 180.0 {
        head_deg -= 360.0;
    }
    while head_deg < -180.0 {
        head_deg += 360.0;
    }
    out.push_str("(player ");
    out.push_str(if p.side == 'l' { "l " } else { "r " });
    out.push_str(&p.unum.to_string());
    if mode & 0x8 != 0 {
        out.push_str(" g");
    }
    out.push_str(" (position ");
    for (k, v) in [
        nltohd(x),
        nltohd(y),
        nltohd(vx),
        nltohd(vy),
        body_deg,
        head_deg,
    ]
    .into_iter()
    .enumerate()
    {
        if k > 0 {
            out.push(' ');
        }
        g(out, v);
    }
    out.push_str(") (stamina ");
    g(out, nltohd(stamina));
    out.push(')');
    // kick dash turn say turn_neck catch move change_view
    const KICK: usize = 0;
    const DASH: usize = 1;
    const TURN: usize = 2;
    const SAY: usize = 3;
    const TURN_NECK: usize = 4;
    const MOVE: usize = 6;
    const CHANGE_VIEW: usize = 7;
    let _ = KICK;
    let m = i32::from(mode);
    // After a turn or a dash, the first bit of the player's mode that is set, in this order.
    const MODE_ACTIONS: [(i32, &str); 6] = [
        (0x4, "kick fault"),
        (0x2, "kick"),
        (0x2000, "tackle fault"),
        (0x1000, "tackle"),
        (0x20, "catch fault"),
        (0x10, "catch"),
    ];
    let action = if prev[TURN] != now[TURN] {
        "turn"
    } else if prev[DASH] != now[DASH] {
        "dash"
    } else if let Some((_, a)) = MODE_ACTIONS.iter().find(|(bit, _)| m & bit != 0) {
        a
    } else if prev[MOVE] != now[MOVE] {
        "move"
    } else {
        "none"
    };
    out.push_str(" (");
    out.push_str(action);
    out.push(')');
    for (count, said) in [
        (SAY, " (say)"),
        (TURN_NECK, " (turn_neck)"),
        (CHANGE_VIEW, " (change_view)"),
    ] {
        if prev[count] != now[count] {
            out.push_str(said);
        }
    }
    out.push(')');
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        let _ = flate2::read::GzDecoder::new(bytes).read_to_end(&mut out);
        out
    } else {
        bytes.to_vec()
    }
}
