//! A frame as the change from a base frame. A keyframe is the change from the empty frame, so
//! one code path serves both, and a delta of an unchanged player costs nothing.
//!
//! Layout of one frame (all integers LEB128 varints unless said otherwise):
//! ```text
//! time delta (zigzag)
//! flags: 1 stime, 2 mode, 4 teams, 8 ball, 16 player count   (which parts changed)
//! [stime: 0 = none, n + 1]  [mode: u8]  [teams: team × 2]
//! [ball: mask (1 x, 2 y, 4 vx, 8 vy, 16 height), then those numbers]
//! [player count]
//! changed-player bitmap: ceil(count / 8) bytes, bit i of byte i/8 = player i
//! per changed player: mask (see P_*), then the changed fields in mask order
//! ```
//!
//! Positions are sent as the difference from where the base frame's velocity would have
//! taken the object (`x - (base.x + base.vx)`, in `f32` on both sides): a player running in
//! a straight line costs a byte per coordinate instead of two. The same idea, a guess both
//! ends make from numbers they share, keeps the other busy fields small: command counters say
//! only which changed when each went up by one (a command sent once), and the stamina is sent
//! as the difference from what the capacity gave back (what a dash cost), after the capacity.
//!
//! Measured on the full real game (`shared/wire/tests/wire.rs`): 580 bytes per delta before these
//! guesses and the reordered change bits (wire version 1), 411 after. What was tried and not
//! kept: guessing a player's velocity from his last step times the default `player_decay`
//! (2 bytes less per frame: other player types decay differently).

use super::codec::{Reader, Writer};
use super::WireError;
use rcss_formats::model::{Ball, Frame, PenaltyTally, Player, Side, Stamina, Team, ViewQuality};
use rcss_formats::playmode::PlayMode;

/// Decimals the server prints for each kind of number (protocol-observed.md §2): positions
/// and velocities 4, angles 3; stamina values have six significant digits, so the usual
/// magnitudes give these. Any value off its scale still travels exactly, at a byte more.
const POS: u8 = 4;
const ANGLE: u8 = 3;
/// rcssserver keeps the neck in whole degrees (turn_neck moments are clipped to integers).
const NECK: u8 = 0;
const STAMINA: u8 = 2;
const RATIO: u8 = 6;
const CAPACITY: u8 = 1;

/// More players than this in one frame is not rcssserver (it has 22).
pub const MAX_PLAYERS: usize = 64;

const F_STIME: u64 = 1;
const F_MODE: u64 = 2;
const F_TEAMS: u64 = 4;
const F_BALL: u64 = 8;
const F_COUNT: u64 = 16;

// Player change bits, the seven that change most often in a game first so that a moving
// player's mask is one byte (measured on the full real game: counts 100 % of player-cycles,
// stamina 85 %, x/y/vx/vy 80 %, neck 78 %, attention 44 %, body 25 %).
const P_X: u64 = 1 << 0;
const P_Y: u64 = 1 << 1;
const P_VX: u64 = 1 << 2;
const P_VY: u64 = 1 << 3;
const P_STAMINA: u64 = 1 << 4;
const P_COUNTS: u64 = 1 << 5;
const P_NECK: u64 = 1 << 6;
const P_BODY: u64 = 1 << 7;
const P_ATTENTION: u64 = 1 << 8;
const P_VIEW: u64 = 1 << 9;
const P_FOCUS: u64 = 1 << 10;
const P_STATE: u64 = 1 << 11;
const P_POINT: u64 = 1 << 12;
const P_TYPE: u64 = 1 << 13;
const P_UNUM: u64 = 1 << 14;
const P_SIDE: u64 = 1 << 15;
const P_ALL: u64 = (1 << 16) - 1;

static EMPTY_PLAYER: Player = Player {
    side: None,
    unum: 0,
    player_type: 0,
    state: 0,
    x: 0.0,
    y: 0.0,
    vx: 0.0,
    vy: 0.0,
    body: 0.0,
    neck: 0.0,
    point: None,
    view: None,
    focus: None,
    stamina: None,
    attention: None,
    counts: None,
};

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits()
}

fn same_pair(a: Option<(f32, f32)>, b: Option<(f32, f32)>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => same(a.0, b.0) && same(a.1, b.1),
        _ => false,
    }
}

fn same_stamina(a: &Option<Stamina>, b: &Option<Stamina>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            same(a.stamina, b.stamina)
                && same(a.effort, b.effort)
                && same(a.recovery, b.recovery)
                && match (a.capacity, b.capacity) {
                    (None, None) => true,
                    (Some(x), Some(y)) => same(x, y),
                    _ => false,
                }
        }
        _ => false,
    }
}

fn same_view(a: Option<(ViewQuality, f32)>, b: Option<(ViewQuality, f32)>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a.0 == b.0 && same(a.1, b.1),
        _ => false,
    }
}

fn same_ball(a: &Ball, b: &Ball) -> bool {
    same(a.x, b.x) && same(a.y, b.y) && same(a.vx, b.vx) && same(a.vy, b.vy) && same(a.z, b.z)
}

/// The stamina mask's bit that says stamina is there at all, and every bit it may have.
const STAMINA_PRESENT: u8 = 32;
const STAMINA_BITS: u8 = 63;

/// Where the stamina should be: rcssserver 19 recovers stamina out of the capacity, so what
/// the capacity lost the stamina gained, and only a dash's cost is left to send (nothing
/// while the player does not dash). Both ends compute it from the same `f32`s.
fn stamina_guess(base_stamina: f32, base_capacity: f32, capacity: f32) -> f32 {
    base_stamina + (base_capacity - capacity)
}

fn side_code(s: Option<Side>) -> u8 {
    match s {
        None => 0,
        Some(Side::Left) => 1,
        Some(Side::Right) => 2,
    }
}

fn side_from(code: u8, r: &Reader<'_>) -> Result<Option<Side>, WireError> {
    match code {
        0 => Ok(None),
        1 => Ok(Some(Side::Left)),
        2 => Ok(Some(Side::Right)),
        c => Err(WireError::Invalid {
            offset: r.pos(),
            what: "side",
            found: format!("{c}"),
        }),
    }
}

fn player_mask(p: &Player, b: &Player) -> u64 {
    let floats = [
        (p.x, b.x, P_X),
        (p.y, b.y, P_Y),
        (p.vx, b.vx, P_VX),
        (p.vy, b.vy, P_VY),
        (p.body, b.body, P_BODY),
        (p.neck, b.neck, P_NECK),
    ];
    let others = [
        (!same_stamina(&p.stamina, &b.stamina), P_STAMINA),
        (p.counts != b.counts, P_COUNTS),
        (!same_view(p.view, b.view), P_VIEW),
        (!same_pair(p.focus, b.focus), P_FOCUS),
        (p.state != b.state, P_STATE),
        (!same_pair(p.point, b.point), P_POINT),
        (p.attention != b.attention, P_ATTENTION),
        (p.player_type != b.player_type, P_TYPE),
        (p.unum != b.unum, P_UNUM),
        (p.side != b.side, P_SIDE),
    ];
    let moved = floats
        .iter()
        .filter(|(now, before, _)| !same(*now, *before));
    let changed = others.iter().filter(|(changed, _)| *changed);
    moved
        .map(|f| f.2)
        .chain(changed.map(|c| c.1))
        .fold(0, |m, bit| m | bit)
}

fn put_pair(w: &mut Writer, v: Option<(f32, f32)>, base: Option<(f32, f32)>, scale: u8) {
    match v {
        None => w.u8(0),
        Some((a, b)) => {
            w.u8(1);
            let (pa, pb) = base.unwrap_or((0.0, 0.0));
            w.num(a, pa, scale);
            w.num(b, pb, scale);
        }
    }
}

fn get_pair(
    r: &mut Reader<'_>,
    base: Option<(f32, f32)>,
    scale: u8,
    what: &'static str,
) -> Result<Option<(f32, f32)>, WireError> {
    match r.u8(what)? {
        0 => Ok(None),
        1 => {
            let (pa, pb) = base.unwrap_or((0.0, 0.0));
            let a = r.num(pa, scale, what)?;
            let b = r.num(pb, scale, what)?;
            Ok(Some((a, b)))
        }
        c => Err(WireError::Invalid {
            offset: r.pos(),
            what,
            found: format!("presence byte {c}"),
        }),
    }
}

fn put_player(w: &mut Writer, p: &Player, b: &Player, m: u64) {
    w.varint(m);
    if m & P_X != 0 {
        w.num(p.x, b.x + b.vx, POS);
    }
    if m & P_Y != 0 {
        w.num(p.y, b.y + b.vy, POS);
    }
    if m & P_VX != 0 {
        w.num(p.vx, b.vx, POS);
    }
    if m & P_VY != 0 {
        w.num(p.vy, b.vy, POS);
    }
    if m & P_BODY != 0 {
        w.num(p.body, b.body, ANGLE);
    }
    if m & P_STAMINA != 0 {
        match &p.stamina {
            None => w.u8(0),
            Some(s) => {
                let bs = b.stamina.unwrap_or_default();
                // Bit 0..3: which of stamina, effort, recovery, capacity changed; bit 4:
                // capacity present; bit 5: present at all (so that the byte is never 0).
                let mut sm = STAMINA_PRESENT;
                if !same(s.stamina, bs.stamina) {
                    sm |= 1;
                }
                if !same(s.effort, bs.effort) {
                    sm |= 2;
                }
                if !same(s.recovery, bs.recovery) {
                    sm |= 4;
                }
                let bc = bs.capacity.unwrap_or(0.0);
                if let Some(c) = s.capacity {
                    sm |= 16;
                    if !same(c, bc) {
                        sm |= 8;
                    }
                }
                w.u8(sm);
                let mut capacity = bc;
                if let (Some(c), true) = (s.capacity, sm & 8 != 0) {
                    w.num(c, bc, CAPACITY);
                    capacity = c;
                }
                if sm & 1 != 0 {
                    w.num(s.stamina, stamina_guess(bs.stamina, bc, capacity), STAMINA);
                }
                if sm & 2 != 0 {
                    w.num(s.effort, bs.effort, RATIO);
                }
                if sm & 4 != 0 {
                    w.num(s.recovery, bs.recovery, RATIO);
                }
            }
        }
    }
    if m & P_COUNTS != 0 {
        match &p.counts {
            None => w.u8(0),
            Some(c) => {
                let bc = b.counts.unwrap_or_default();
                let mut cm = 0u64;
                let mut all_one = true;
                for i in 0..12 {
                    if c.values[i] != bc.values[i] {
                        cm |= 1 << i;
                        all_one &= c.values[i] == bc.values[i].wrapping_add(1);
                    }
                }
                // One varint says which counters changed, whether every change is +1 (a
                // command sent once: nearly always), and whether the length follows.
                let len_changed = b.counts.is_none() || c.len != bc.len;
                let head =
                    (cm << 3) | (u64::from(all_one) << 2) | (u64::from(len_changed) << 1) | 1;
                w.varint(head);
                if len_changed {
                    w.u8(c.len);
                }
                if !all_one {
                    for i in 0..12 {
                        if cm & (1 << i) != 0 {
                            w.signed(i64::from(c.values[i]) - i64::from(bc.values[i]));
                        }
                    }
                }
            }
        }
    }
    if m & P_NECK != 0 {
        w.num(p.neck, b.neck, NECK);
    }
    if m & P_VIEW != 0 {
        match p.view {
            None => w.u8(0),
            Some((q, width)) => {
                w.u8(match q {
                    ViewQuality::High => 1,
                    ViewQuality::Low => 2,
                });
                w.num(width, b.view.map_or(0.0, |v| v.1), ANGLE);
            }
        }
    }
    if m & P_FOCUS != 0 {
        put_pair(w, p.focus, b.focus, POS);
    }
    if m & P_STATE != 0 {
        w.varint(u64::from(p.state));
    }
    if m & P_POINT != 0 {
        put_pair(w, p.point, b.point, POS);
    }
    if m & P_ATTENTION != 0 {
        match p.attention {
            None => w.u8(0),
            Some((s, n)) => {
                w.u8(side_code(Some(s)));
                w.u8(n);
            }
        }
    }
    if m & P_TYPE != 0 {
        w.signed(i64::from(p.player_type));
    }
    if m & P_UNUM != 0 {
        w.u8(p.unum);
    }
    if m & P_SIDE != 0 {
        w.u8(side_code(p.side));
    }
}

fn get_player(r: &mut Reader<'_>, b: &Player) -> Result<Player, WireError> {
    let at = r.pos();
    let m = r.varint("player mask")?;
    if m & !P_ALL != 0 {
        return Err(WireError::Invalid {
            offset: at,
            what: "player mask",
            found: format!("{m:#x}"),
        });
    }
    let mut p = b.clone();
    if m & P_X != 0 {
        p.x = r.num(b.x + b.vx, POS, "x")?;
    }
    if m & P_Y != 0 {
        p.y = r.num(b.y + b.vy, POS, "y")?;
    }
    if m & P_VX != 0 {
        p.vx = r.num(b.vx, POS, "vx")?;
    }
    if m & P_VY != 0 {
        p.vy = r.num(b.vy, POS, "vy")?;
    }
    if m & P_BODY != 0 {
        p.body = r.num(b.body, ANGLE, "body")?;
    }
    if m & P_STAMINA != 0 {
        let at = r.pos();
        p.stamina = match r.u8("stamina mask")? {
            0 => None,
            sm if sm & !STAMINA_BITS != 0 || sm & STAMINA_PRESENT == 0 => {
                return Err(WireError::Invalid {
                    offset: at,
                    what: "stamina mask",
                    found: format!("{sm:#x}"),
                })
            }
            sm => {
                let bs = b.stamina.unwrap_or_default();
                let mut s = bs;
                let bc = bs.capacity.unwrap_or(0.0);
                let capacity = if sm & 8 != 0 {
                    r.num(bc, CAPACITY, "capacity")?
                } else {
                    bc
                };
                s.capacity = (sm & 16 != 0).then_some(capacity);
                if sm & 1 != 0 {
                    s.stamina =
                        r.num(stamina_guess(bs.stamina, bc, capacity), STAMINA, "stamina")?;
                }
                if sm & 2 != 0 {
                    s.effort = r.num(bs.effort, RATIO, "effort")?;
                }
                if sm & 4 != 0 {
                    s.recovery = r.num(bs.recovery, RATIO, "recovery")?;
                }
                Some(s)
            }
        };
    }
    if m & P_COUNTS != 0 {
        let at = r.pos();
        let head = r.varint("counts")?;
        p.counts = if head == 0 {
            None
        } else {
            let cm = head >> 3;
            if head & 1 == 0 || cm >> 12 != 0 {
                return Err(WireError::Invalid {
                    offset: at,
                    what: "counts",
                    found: format!("{head:#x}"),
                });
            }
            let mut c = b.counts.unwrap_or_default();
            if head & 2 != 0 {
                c.len = r.u8("counts length")?;
            }
            let all_one = head & 4 != 0;
            for i in 0..12 {
                if cm & (1 << i) != 0 {
                    let d = if all_one { 1 } else { r.signed("count")? };
                    c.values[i] = (i64::from(c.values[i]).wrapping_add(d)) as u32;
                }
            }
            Some(c)
        };
    }
    if m & P_NECK != 0 {
        p.neck = r.num(b.neck, NECK, "neck")?;
    }
    if m & P_VIEW != 0 {
        let q = match r.u8("view quality")? {
            0 => None,
            1 => Some(ViewQuality::High),
            2 => Some(ViewQuality::Low),
            c => {
                return Err(WireError::Invalid {
                    offset: r.pos(),
                    what: "view quality",
                    found: format!("{c}"),
                })
            }
        };
        p.view = match q {
            None => None,
            Some(q) => Some((q, r.num(b.view.map_or(0.0, |v| v.1), ANGLE, "view width")?)),
        };
    }
    if m & P_FOCUS != 0 {
        p.focus = get_pair(r, b.focus, POS, "focus")?;
    }
    if m & P_STATE != 0 {
        p.state = r.u32("state")?;
    }
    if m & P_POINT != 0 {
        p.point = get_pair(r, b.point, POS, "point")?;
    }
    if m & P_ATTENTION != 0 {
        let code = r.u8("attention side")?;
        p.attention = match side_from(code, r)? {
            None => None,
            Some(s) => Some((s, r.u8("attention unum")?)),
        };
    }
    if m & P_TYPE != 0 {
        let at = r.pos();
        let t = r.signed("player type")?;
        p.player_type = i16::try_from(t).map_err(|_| WireError::Invalid {
            offset: at,
            what: "player type",
            found: format!("{t}"),
        })?;
    }
    if m & P_UNUM != 0 {
        p.unum = r.u8("unum")?;
    }
    if m & P_SIDE != 0 {
        let code = r.u8("side")?;
        p.side = side_from(code, r)?;
    }
    Ok(p)
}

pub(crate) fn put_team(w: &mut Writer, t: &Team) {
    w.opt_str(t.name.as_deref());
    w.varint(u64::from(t.score));
    match t.penalty {
        None => w.u8(0),
        Some(p) => {
            w.u8(1);
            w.varint(u64::from(p.scored));
            w.varint(u64::from(p.missed));
        }
    }
}

pub(crate) fn get_team(r: &mut Reader<'_>) -> Result<Team, WireError> {
    let name = r.opt_string("team name")?;
    let score = r.u32("score")?;
    let penalty = match r.u8("penalty")? {
        0 => None,
        _ => Some(PenaltyTally {
            scored: r.u32("penalty scored")?,
            missed: r.u32("penalty missed")?,
        }),
    };
    Ok(Team {
        name,
        score,
        penalty,
    })
}

/// Writes `f` as the change from `base` (`None`: a keyframe).
pub(crate) fn put_frame(w: &mut Writer, f: &Frame, base: Option<&Frame>) {
    static EMPTY: std::sync::OnceLock<Frame> = std::sync::OnceLock::new();
    let base = base.unwrap_or_else(|| EMPTY.get_or_init(Frame::default));
    w.signed(i64::from(f.time) - i64::from(base.time));
    let mut flags = 0;
    if f.stime != base.stime {
        flags |= F_STIME;
    }
    if f.mode != base.mode {
        flags |= F_MODE;
    }
    if f.teams != base.teams {
        flags |= F_TEAMS;
    }
    if !same_ball(&f.ball, &base.ball) {
        flags |= F_BALL;
    }
    if f.players.len() != base.players.len() {
        flags |= F_COUNT;
    }
    w.varint(flags);
    if flags & F_STIME != 0 {
        w.varint(f.stime.map_or(0, |s| u64::from(s) + 1));
    }
    if flags & F_MODE != 0 {
        w.u8(f.mode.index());
    }
    if flags & F_TEAMS != 0 {
        put_team(w, &f.teams[0]);
        put_team(w, &f.teams[1]);
    }
    if flags & F_BALL != 0 {
        let (b, p) = (&f.ball, &base.ball);
        // The ball's fields in mask order, each with the base frame's.
        let fields = [
            (b.x, p.x),
            (b.y, p.y),
            (b.vx, p.vx),
            (b.vy, p.vy),
            (b.z, p.z),
        ];
        let mut m = 0u8;
        for (i, &(x, y)) in fields.iter().enumerate() {
            if !same(x, y) {
                m |= 1 << i;
            }
        }
        w.u8(m);
        for (i, (x, y)) in fields.into_iter().enumerate() {
            if m & (1 << i) != 0 {
                // Positions are predicted to move by the velocity.
                let base = match i {
                    0 => p.x + p.vx,
                    1 => p.y + p.vy,
                    _ => y,
                };
                w.num(x, base, POS);
            }
        }
    }
    // Frames with more players than the wire allows keep the first MAX_PLAYERS.
    let players = &f.players[..f.players.len().min(MAX_PLAYERS)];
    if flags & F_COUNT != 0 {
        w.varint(players.len() as u64);
    }
    let mut bitmap = vec![0u8; players.len().div_ceil(8)];
    let mut masks = Vec::with_capacity(players.len());
    for (i, p) in players.iter().enumerate() {
        let b = base.players.get(i).unwrap_or(&EMPTY_PLAYER);
        let m = player_mask(p, b);
        if m != 0 {
            bitmap[i / 8] |= 1 << (i % 8);
        }
        masks.push(m);
    }
    w.buf.extend_from_slice(&bitmap);
    for (i, p) in players.iter().enumerate() {
        if masks[i] != 0 {
            let b = base.players.get(i).unwrap_or(&EMPTY_PLAYER);
            put_player(w, p, b, masks[i]);
        }
    }
}

/// Reads a frame written by [`put_frame`] against the same `base`.
pub(crate) fn get_frame(r: &mut Reader<'_>, base: Option<&Frame>) -> Result<Frame, WireError> {
    static EMPTY: std::sync::OnceLock<Frame> = std::sync::OnceLock::new();
    let base = base.unwrap_or_else(|| EMPTY.get_or_init(Frame::default));
    let at = r.pos();
    let dt = r.signed("time")?;
    let time = u32::try_from(i64::from(base.time) + dt).map_err(|_| WireError::Invalid {
        offset: at,
        what: "time",
        found: format!("{} + {dt}", base.time),
    })?;
    let flags = r.varint("frame flags")?;
    let mut f = Frame {
        time,
        stime: base.stime,
        mode: base.mode,
        teams: base.teams.clone(),
        ball: base.ball,
        players: Vec::new(),
    };
    if flags & F_STIME != 0 {
        let s = r.u32("stime")?;
        f.stime = s.checked_sub(1);
    }
    if flags & F_MODE != 0 {
        let at = r.pos();
        let m = r.u8("play mode")?;
        f.mode = PlayMode::from_index(u32::from(m)).ok_or_else(|| WireError::Invalid {
            offset: at,
            what: "play mode",
            found: format!("{m}"),
        })?;
    }
    if flags & F_TEAMS != 0 {
        f.teams = [get_team(r)?, get_team(r)?];
    }
    if flags & F_BALL != 0 {
        let m = r.u8("ball mask")?;
        let b = base.ball;
        if m & 1 != 0 {
            f.ball.x = r.num(b.x + b.vx, POS, "ball x")?;
        }
        if m & 2 != 0 {
            f.ball.y = r.num(b.y + b.vy, POS, "ball y")?;
        }
        if m & 4 != 0 {
            f.ball.vx = r.num(b.vx, POS, "ball vx")?;
        }
        if m & 8 != 0 {
            f.ball.vy = r.num(b.vy, POS, "ball vy")?;
        }
        if m & 16 != 0 {
            f.ball.z = r.num(b.z, POS, "ball height")?;
        }
    }
    let count = if flags & F_COUNT != 0 {
        let at = r.pos();
        let n = r.varint("player count")?;
        if n > MAX_PLAYERS as u64 {
            return Err(WireError::Invalid {
                offset: at,
                what: "player count",
                found: format!("{n}"),
            });
        }
        n as usize
    } else {
        base.players.len().min(MAX_PLAYERS)
    };
    let bitmap = r.take(count.div_ceil(8), "player bitmap")?;
    f.players.reserve_exact(count);
    for i in 0..count {
        let b = base.players.get(i).unwrap_or(&EMPTY_PLAYER);
        if bitmap[i / 8] & (1 << (i % 8)) != 0 {
            f.players.push(get_player(r, b)?);
        } else {
            f.players.push(b.clone());
        }
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rcss_formats::model::Counts;

    fn sample() -> Frame {
        let mut f = Frame {
            time: 547,
            stime: None,
            mode: PlayMode::PLAY_ON,
            teams: [
                Team {
                    name: Some("HELIOS_L".into()),
                    score: 0,
                    penalty: None,
                },
                Team {
                    name: Some("HELIOS_R".into()),
                    score: 1,
                    penalty: Some(PenaltyTally {
                        scored: 2,
                        missed: 1,
                    }),
                },
            ],
            ball: Ball {
                x: 31.6843,
                y: -11.0433,
                vx: -0.5052,
                vy: 0.2618,
                z: 0.0,
            },
            players: Vec::new(),
        };
        for i in 0..22u8 {
            f.players.push(Player {
                side: Some(if i < 11 { Side::Left } else { Side::Right }),
                unum: i % 11 + 1,
                player_type: i16::from(i % 18),
                state: 0x9,
                x: -50.0706 + f32::from(i),
                y: 1.8438,
                vx: -0.0,
                vy: 0.0001,
                body: -88.613,
                neck: 87.0,
                point: (i == 3).then_some((12.5, -3.25)),
                view: Some((ViewQuality::High, 180.0)),
                focus: Some((0.0, 0.0)),
                stamina: Some(Stamina {
                    stamina: 5206.89,
                    effort: 0.800302,
                    recovery: 1.0,
                    capacity: Some(91121.2),
                }),
                attention: (i == 5).then_some((Side::Left, 8)),
                counts: Some(Counts {
                    values: [0, 146, 503, 0, 2, 651, 15, 81, 0, 0, 576, 0],
                    len: 12,
                }),
            });
        }
        f
    }

    fn round_trip(f: &Frame, base: Option<&Frame>) -> usize {
        let mut w = Writer::default();
        put_frame(&mut w, f, base);
        let mut r = Reader::new(&w.buf);
        let back = get_frame(&mut r, base).unwrap();
        assert_eq!(&back, f);
        assert!(r.is_empty());
        w.buf.len()
    }

    #[test]
    fn keyframes_and_deltas_round_trip() {
        let a = sample();
        let key = round_trip(&a, None);
        assert!(key < 1600, "a keyframe of 22 players takes {key} bytes");
        let mut b = a.clone();
        b.time += 1;
        b.players[4].x += 0.25;
        b.players[4].counts.as_mut().unwrap().values[1] += 1;
        b.players[20].state = 0x40001;
        b.players.truncate(21);
        let delta = round_trip(&b, Some(&a));
        assert!(delta < 30, "a small change takes {delta} bytes");
        assert_eq!(round_trip(&a, Some(&a)), 2 + 3);
        round_trip(&Frame::default(), Some(&a));
    }

    #[test]
    fn damaged_frames_are_errors() {
        let a = sample();
        let mut w = Writer::default();
        put_frame(&mut w, &a, None);
        for cut in 0..w.buf.len() {
            assert!(get_frame(&mut Reader::new(&w.buf[..cut]), None).is_err());
        }
    }
}
