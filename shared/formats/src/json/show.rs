//! A log's shows read straight from their bytes, without serde.
//!
//! A JSON log is almost all shows (a full game: 6,000 lines of ~9 KB), and going through
//! serde's visitor for every key of every player made reading one three times slower than
//! reading the same game as text. rcssserver writes each show the same way: no whitespace, no
//! escapes, numbers without exponents, the keys of [`super::JShow`] and [`super::JPlayer`].
//! This reader takes exactly that and answers `None` for anything else (another key, a
//! duplicate, a string with an escape, a number in a form it does not read, a wrong count of
//! players...), so that serde reads the line instead and says what is wrong, with the same
//! error as before. What it returns is what serde's reading gives: the test
//! `the_fast_reader_gives_what_serde_gives` checks every show of every JSON fixture.
//!
//! With [`Detail::Light`] a player is still read whole, so that the light and the full
//! readings accept and refuse the same shows, but only what match events and summaries need
//! (side, number, type, state, position) is kept, as the text reader does.

use crate::format::Detail;
use crate::model::{Ball, Counts, Frame, Player, Side, Stamina, ViewQuality};
use crate::number::{byte, lead_digits, parse_f32_plain, parse_f32_slow, parse_u64_prefix};
use crate::window::{padded, Window};

const PLAYERS: usize = 22;

struct Cur<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Cur<'a> {
    #[inline(always)]
    fn eat(&mut self, lit: &[u8]) -> Option<()> {
        if self.b.get(self.i..self.i + lit.len())? == lit {
            self.i += lit.len();
            Some(())
        } else {
            None
        }
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// `"key":`: the key's bytes (no escapes).
    #[inline(always)]
    fn key(&mut self) -> Option<&'a [u8]> {
        self.eat(b"\"")?;
        let rest = self.b.get(self.i..)?;
        let n = memchr::memchr2(b'"', b'\\', rest)?;
        if rest[n] != b'"' {
            return None;
        }
        let k = &rest[..n];
        self.i += n + 1;
        self.eat(b":")?;
        Some(k)
    }

    /// A JSON number in the forms rcssserver prints (`-`, digits, a fraction; no exponent,
    /// no leading zeros), as the correctly rounded `f32`, which is what serde gives too.
    #[inline(always)]
    fn f32(&mut self) -> Option<f32> {
        let s = self.b.get(self.i..)?;
        // The fast path never reads an exponent or a `+`: only the slow one needs the search.
        let (v, n, plain) = match parse_f32_plain(s) {
            Some((v, n)) => (v, n, true),
            None => {
                let (v, n) = parse_f32_slow(s)?;
                (v, n, false)
            }
        };
        // What was read must be a whole JSON number of those forms.
        let neg = usize::from(s[0] == b'-');
        let first = *s.get(neg)?;
        if !first.is_ascii_digit()
            || n > 16
            || (first == b'0' && s.get(neg + 1).is_some_and(u8::is_ascii_digit))
            || s[n - 1] == b'.'
            || matches!(
                s.get(n),
                Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
            )
            || (!plain && s[..n].iter().any(|&c| c | 0x20 == b'e' || c == b'+'))
        {
            return None;
        }
        self.i += n;
        Some(v)
    }

    /// An unsigned JSON integer (no sign, no leading zero, no fraction or exponent).
    #[inline(always)]
    fn uint(&mut self) -> Option<u64> {
        let s = self.b.get(self.i..)?;
        // Eight digits at a time; `None` for no digit or more than a `u64`.
        let (v, n) = parse_u64_prefix(s)?;
        if n > 1 && s[0] == b'0' {
            return None;
        }
        if matches!(s.get(n), Some(b'.' | b'e' | b'E' | b'+' | b'-')) {
            return None;
        }
        self.i += n;
        Some(v)
    }

    /// `"key":` if it is `expected` (what the server writes next): one masked comparison of
    /// 16 bytes instead of a search.
    #[inline(always)]
    fn key_is(&mut self, expected: &Quoted) -> bool {
        let hit = self.b.get(self.i..).is_some_and(|b| expected.is_at(b));
        if hit {
            self.i += expected.len;
        }
        hit
    }

    fn int(&mut self) -> Option<i64> {
        if self.peek() == Some(b'-') {
            self.i += 1;
            let v = self.uint()?;
            if v == 0 {
                // `-0` is an integer to serde too, but keep to what the server writes.
                return None;
            }
            i64::try_from(v).ok().map(|v| -v)
        } else {
            i64::try_from(self.uint()?).ok()
        }
    }

    fn u32(&mut self) -> Option<u32> {
        u32::try_from(self.uint()?).ok()
    }

    /// `"l"` or `"r"`.
    fn side(&mut self) -> Option<Side> {
        match self.b.get(self.i..self.i + 3)? {
            b"\"l\"" => {
                self.i += 3;
                Some(Side::Left)
            }
            b"\"r\"" => {
                self.i += 3;
                Some(Side::Right)
            }
            _ => None,
        }
    }

    /// `,` then more, or the closing `close`: true if more follows.
    #[inline(always)]
    fn more(&mut self, close: u8) -> Option<bool> {
        match self.peek()? {
            b',' => {
                self.i += 1;
                Some(true)
            }
            c if c == close => {
                self.i += 1;
                Some(false)
            }
            _ => None,
        }
    }
}

/// Reads `body`, one log line's record without its trailing comma, if it is a show written
/// the way rcssserver writes them.
pub(crate) fn read_show(body: &[u8], detail: Detail) -> Option<Frame> {
    read_show_with(body, detail, detail == Detail::Light)
}

/// [`read_show`], checking players' rests with [`rest_as_written`] or not (the tests
/// compare the two).
fn read_show_with(body: &[u8], detail: Detail, check_rest: bool) -> Option<Frame> {
    let mut c = Cur { b: body, i: 0 };
    c.eat(b"{\"show\":{")?;
    let (mut time, mut stime, mut ball, mut players) = (None, None, None, None);
    loop {
        match c.key()? {
            b"time" if time.is_none() => time = Some(c.u32()?),
            b"stime" if stime.is_none() => stime = Some(c.u32()?),
            b"ball" if ball.is_none() => ball = Some(read_ball(&mut c)?),
            b"players" if players.is_none() => {
                players = Some(read_players(&mut c, detail, check_rest)?)
            }
            _ => return None,
        }
        if !c.more(b'}')? {
            break;
        }
    }
    c.eat(b"}")?;
    if c.i != body.len() {
        return None;
    }
    Some(Frame {
        time: time?,
        stime,
        ball: ball?,
        players: players?,
        ..Frame::default()
    })
}

fn read_ball(c: &mut Cur<'_>) -> Option<Ball> {
    c.eat(b"{")?;
    let mut v: [Option<f32>; 5] = [None; 5];
    loop {
        let slot = match c.key()? {
            b"x" => 0,
            b"y" => 1,
            b"vx" => 2,
            b"vy" => 3,
            // The 2.5D fork's height.
            b"z" => 4,
            _ => return None,
        };
        if v[slot].is_some() {
            return None;
        }
        v[slot] = Some(c.f32()?);
        if !c.more(b'}')? {
            break;
        }
    }
    Some(Ball {
        x: v[0]?,
        y: v[1]?,
        vx: v[2]?,
        vy: v[3]?,
        z: v[4].unwrap_or(0.0),
    })
}

/// The 22 players in the order the server writes them, l1..l11 then r1..r11, which is the
/// order frames keep; any other order is left to serde, which sorts them.
fn read_players(c: &mut Cur<'_>, detail: Detail, check_rest: bool) -> Option<Vec<Player>> {
    c.eat(b"[")?;
    let mut players = Vec::with_capacity(PLAYERS);
    loop {
        let p = read_player(c, detail, check_rest)?;
        let slot = p.side?.index() * 11 + usize::from(p.unum) - 1;
        if slot != players.len() {
            return None;
        }
        players.push(p);
        if !c.more(b']')? {
            break;
        }
    }
    if players.len() != PLAYERS {
        return None;
    }
    Some(players)
}

/// A player's keys in the order rcssserver writes them; a key's place here is its bit in
/// the set of keys read (a duplicate is serde's error).
const KEYS: [&[u8]; 34] = [
    b"side",
    b"unum",
    b"type",
    b"state",
    b"x",
    b"y",
    b"vx",
    b"vy",
    b"body",
    b"neck",
    b"px",
    b"py",
    b"vq",
    b"vw",
    b"fdist",
    b"fdir",
    b"stamina",
    b"effort",
    b"recovery",
    b"capacity",
    b"fside",
    b"fnum",
    b"kick",
    b"dash",
    b"turn",
    b"catch",
    b"move",
    b"turn_neck",
    b"change_view",
    b"say",
    b"tackle",
    b"pointto",
    b"attentionto",
    b"change_focus",
];
/// Everything a player must have: side to neck.
const K_REQUIRED: u64 = (1 << 10) - 1;
/// Where the command counts start in [`KEYS`].
const K_COUNTS: usize = 22;

/// A key as it stands in a line, `"key":`, for [`Cur::key_is`].
struct Quoted {
    bytes: [u8; 16],
    len: usize,
    word: u128,
    mask: u128,
}

/// `"key":`, after a comma if `comma`.
const fn quoted(key: &[u8], comma: bool) -> Quoted {
    let mut bytes = [0u8; 16];
    let at = comma as usize;
    let len = key.len() + 3 + at;
    assert!(len <= 16, "keys fit in 16 bytes");
    bytes[0] = b',';
    bytes[at] = b'"';
    let mut i = 0;
    while i < key.len() {
        bytes[at + i + 1] = key[i];
        i += 1;
    }
    bytes[at + key.len() + 1] = b'"';
    bytes[at + key.len() + 2] = b':';
    let mask = if len == 16 {
        u128::MAX
    } else {
        (1u128 << (8 * len)) - 1
    };
    Quoted {
        bytes,
        len,
        word: u128::from_le_bytes(bytes),
        mask,
    }
}

const QUOTED: [Quoted; 34] = quote_keys(false);
/// `,"key":`, for [`rest_in_order`].
const COMMA_QUOTED: [Quoted; 34] = quote_keys(true);

const fn quote_keys(comma: bool) -> [Quoted; 34] {
    let mut i = 0;
    let mut out = [const { quoted(b"", false) }; 34];
    while i < 34 {
        out[i] = quoted(KEYS[i], comma);
        i += 1;
    }
    out
}

/// The length of a player's rest, from the comma after `"y":Y` to its closing brace, if it is
/// written as rcssserver writes it: the keys after `y` in [`KEYS`]'s order, the optional ones
/// left out or not, each value in the narrowest of the forms [`read_player`] takes (numbers of
/// at most seven digits either side of the point, counts of at most nine digits). It checks
/// without converting a number, so a light reading costs a fraction of a full one. Whatever it
/// takes, [`read_player`]'s general loop takes too (the test
/// `the_checked_rest_is_taken_by_the_full_reading_too` mutates real shows to see it); what it
/// refuses goes to that loop.
fn rest_as_written(b: &[u8]) -> Option<usize> {
    rest_in_order(b).or_else(|| rest_by_search(b))
}

/// Bytes of a rest [`rest_in_order`] looks at: a real one is 250 to 350.
const SEEN: usize = 448;

/// A rest seen through a [`Window`]: [`rest_in_order`] takes a rest only when everything it
/// consumed lies before the window's `len`, and each of its steps looks only at bytes it
/// consumes and the one after them.
type Rest<'a> = Window<'a, 528>;

/// [`rest_by_search`] for the rests rcssserver writes nearly always: every key in
/// [`KEYS`]'s order, the optional ones in their pairs or not at all, numbers of at most seven
/// digits either side of the point, counts of at most seven. Each step is one masked
/// comparison for the key and one or two 8-byte loads for the value, with no search, no loop
/// over bytes and no bounds check. It takes a subset of what [`rest_by_search`] takes, to the
/// same end (the test `the_in_order_check_takes_a_subset_of_the_search` mutates real shows to
/// see it).
#[inline]
fn rest_in_order(b: &[u8]) -> Option<usize> {
    let pad: [u8; 528];
    let w = match Rest::direct(b, SEEN) {
        Some(w) => w,
        None => {
            pad = padded(b, SEEN);
            Rest::over(&pad, b, SEEN)
        }
    };
    let mut i = 0;
    for k in 6..=9 {
        i = number_in_order(&w, key_in_order(&w, i, k)?)?;
    }
    if let Some(v) = key_in_order(&w, i, 10) {
        i = number_in_order(&w, v)?;
        i = number_in_order(&w, key_in_order(&w, i, 11)?)?;
    }
    i = key_in_order(&w, i, 12)?;
    match (w.load8(i) as u32) & 0xFF_FFFF {
        HIGH | LOW => i += 3,
        _ => return None,
    }
    i = number_in_order(&w, key_in_order(&w, i, 13)?)?;
    if let Some(v) = key_in_order(&w, i, 14) {
        i = number_in_order(&w, v)?;
        i = number_in_order(&w, key_in_order(&w, i, 15)?)?;
    }
    for k in 16..=18 {
        i = number_in_order(&w, key_in_order(&w, i, k)?)?;
    }
    if let Some(v) = key_in_order(&w, i, 19) {
        i = number_in_order(&w, v)?;
    }
    if let Some(v) = key_in_order(&w, i, 20) {
        match (w.load8(v) as u32) & 0xFF_FFFF {
            LOW | RIGHT => i = v + 3,
            _ => return None,
        }
        i = count_in_order(&w, key_in_order(&w, i, 21)?, 2)?;
    }
    for k in K_COUNTS..KEYS.len() {
        i = count_in_order(&w, key_in_order(&w, i, k)?, 7)?;
    }
    (w.at(i) == b'}' && i < w.len()).then_some(i + 1)
}

/// `"h"`, `"l"` and `"r"` as the low three bytes of a load.
const HIGH: u32 = u32::from_le_bytes(*b"\"h\"\0");
const LOW: u32 = u32::from_le_bytes(*b"\"l\"\0");
const RIGHT: u32 = u32::from_le_bytes(*b"\"r\"\0");

/// Where the value after `,"KEY":` at `i` starts, if key `k` is there.
#[inline(always)]
fn key_in_order(w: &Rest<'_>, i: usize, k: usize) -> Option<usize> {
    let q = &COMMA_QUOTED[k];
    (w.load16(i) & q.mask == q.word).then_some(i + q.len)
}

/// Where the number at `i`, `-?(0|[1-9][0-9]{0,6})(\.[0-9]{1,7})?`, ends, if it is one and a
/// comma or a brace follows it. It reads 8 bytes at a time ([`number_as_written`]'s forms, to
/// the same end, but fewer of them: a negative integer part of seven digits is left to it).
#[inline(always)]
fn number_in_order(w: &Rest<'_>, i: usize) -> Option<usize> {
    let v = w.load8(i);
    let neg = usize::from(v as u8 == b'-');
    let w1 = v >> (8 * neg);
    let int = lead_digits(w1);
    // After a sign, the top byte of `w1` is a shifted-in zero: `int` is then at most 7.
    if !(1..=7).contains(&int) || (int > 1 && w1 as u8 == b'0') {
        return None;
    }
    let mut end = i + neg + int;
    let mut after = byte(w1, int);
    if after == b'.' {
        let w2 = w.load8(end + 1);
        let frac = lead_digits(w2);
        if !(1..=7).contains(&frac) {
            return None;
        }
        end += 1 + frac;
        after = byte(w2, frac);
    }
    matches!(after, b',' | b'}').then_some(end)
}

/// Where the count at `i`, `0|[1-9][0-9]{0,max-1}` (`max` at most 7), ends, if it is one
/// and a comma or a brace follows it.
#[inline(always)]
fn count_in_order(w: &Rest<'_>, i: usize, max: usize) -> Option<usize> {
    let v = w.load8(i);
    let n = lead_digits(v);
    let ok =
        (1..=max).contains(&n) && (n == 1 || v as u8 != b'0') && matches!(byte(v, n), b',' | b'}');
    ok.then_some(i + n)
}

/// [`rest_as_written`] for any rest of that form, optional keys left out one by one.
fn rest_by_search(b: &[u8]) -> Option<usize> {
    let mut i = 0;
    let mut next = 6;
    loop {
        match b.get(i)? {
            b'}' if next > 9 => return Some(i + 1),
            b',' => i += 1,
            _ => return None,
        }
        let rest = b.get(i..)?;
        let k = (next..QUOTED.len()).find(|&k| QUOTED[k].is_at(rest))?;
        // vx, vy, body and neck are required.
        if next <= 9 && k != next {
            return None;
        }
        i += QUOTED[k].len;
        next = k + 1;
        let value = b.get(i..)?;
        i += match k {
            12 | 20 => match value.get(..3)? {
                b"\"h\"" | b"\"l\"" if k == 12 => 3,
                b"\"l\"" | b"\"r\"" if k == 20 => 3,
                _ => return None,
            },
            21 => unsigned_as_written(value, 2)?,
            K_COUNTS.. => unsigned_as_written(value, 9)?,
            _ => number_as_written(value)?,
        };
    }
}

/// `0` or a digit 1-9 and at most `max - 1` more digits: a length [`Cur::uint`] reads whole
/// and in range for the key.
#[inline(always)]
fn unsigned_as_written(b: &[u8], max: usize) -> Option<usize> {
    let n = b
        .iter()
        .take(max + 1)
        .take_while(|c| c.is_ascii_digit())
        .count();
    (n > 0 && n <= max && (n == 1 || b[0] != b'0')).then_some(n)
}

/// `-?(0|[1-9][0-9]{0,6})(\.[0-9]{1,7})?`: a form [`Cur::f32`] reads whole. The caller checks
/// that a comma or a brace follows.
#[inline(always)]
fn number_as_written(b: &[u8]) -> Option<usize> {
    let neg = usize::from(b.first() == Some(&b'-'));
    let int = unsigned_as_written(b.get(neg..)?, 7)?;
    let at = neg + int;
    if b.get(at) != Some(&b'.') {
        return Some(at);
    }
    let frac = b
        .get(at + 1..)?
        .iter()
        .take(8)
        .take_while(|c| c.is_ascii_digit())
        .count();
    (1..=7).contains(&frac).then_some(at + 1 + frac)
}

impl Quoted {
    /// True if `b` starts with this `"key":`.
    #[inline(always)]
    fn is_at(&self, b: &[u8]) -> bool {
        match b.get(..16) {
            Some(chunk) => {
                let mut a = [0u8; 16];
                a.copy_from_slice(chunk);
                u128::from_le_bytes(a) & self.mask == self.word
            }
            None => b.starts_with(&self.bytes[..self.len]),
        }
    }
}

/// A light reading of a player written as rcssserver writes him, nearly every one: the
/// keys up to the position in their order, read with the loop's own value readers, then the
/// rest checked. The loop below takes the same bytes to the same player with no search for a
/// key and no set of keys seen; anything else goes to it.
#[inline(always)]
fn player_in_order(c: &mut Cur<'_>) -> Option<Player> {
    c.eat(b"{\"side\":")?;
    let side = c.side()?;
    c.eat(b",\"unum\":")?;
    let unum = c.uint()?;
    if !(1..=11).contains(&unum) {
        return None;
    }
    c.eat(b",\"type\":")?;
    let player_type = i16::try_from(c.int()?).ok()?;
    c.eat(b",\"state\":")?;
    let state = c.u32()?;
    c.eat(b",\"x\":")?;
    let x = c.f32()?;
    c.eat(b",\"y\":")?;
    let y = c.f32()?;
    c.i += rest_as_written(c.b.get(c.i..)?)?;
    Some(Player {
        side: Some(side),
        unum: unum as u8,
        player_type,
        state,
        x,
        y,
        ..Player::default()
    })
}

/// One player; with `check_rest` (light readings), the rest after the position is first
/// checked by [`rest_as_written`] rather than read.
fn read_player(c: &mut Cur<'_>, detail: Detail, check_rest: bool) -> Option<Player> {
    if check_rest {
        let start = c.i;
        if let Some(p) = player_in_order(c) {
            return Some(p);
        }
        c.i = start;
    }
    c.eat(b"{")?;
    let mut p = Player::default();
    let mut seen = 0u64;
    // Optional values, kept apart until the end as serde's struct does.
    let mut opt: [Option<f32>; 8] = [None; 8]; // px py vw fdist fdir stamina effort recovery
    let mut capacity = None;
    let mut vq = None;
    let mut fside = None;
    let mut fnum = None;
    let mut counts: [Option<u32>; 12] = [None; 12];
    let mut next = 0;
    loop {
        let k = match QUOTED.get(next) {
            Some(expected) if c.key_is(expected) => next,
            _ => {
                let key = c.key()?;
                KEYS.iter().position(|k| *k == key)?
            }
        };
        next = k + 1;
        let bit = 1u64 << k;
        if seen & bit != 0 {
            return None;
        }
        seen |= bit;
        match k {
            0 => p.side = Some(c.side()?),
            1 => {
                let u = c.uint()?;
                if !(1..=11).contains(&u) {
                    return None;
                }
                p.unum = u as u8;
            }
            2 => p.player_type = i16::try_from(c.int()?).ok()?,
            3 => p.state = c.u32()?,
            4 => p.x = c.f32()?,
            5 => {
                p.y = c.f32()?;
                if check_rest && seen == (1 << 6) - 1 {
                    if let Some(n) = c.b.get(c.i..).and_then(rest_as_written) {
                        c.i += n;
                        return Some(p);
                    }
                }
            }
            6 => p.vx = c.f32()?,
            7 => p.vy = c.f32()?,
            8 => p.body = c.f32()?,
            9 => p.neck = c.f32()?,
            10 | 11 => opt[k - 10] = Some(c.f32()?),
            12 => {
                vq = Some(match c.b.get(c.i..c.i + 3)? {
                    b"\"h\"" => ViewQuality::High,
                    b"\"l\"" => ViewQuality::Low,
                    _ => return None,
                });
                c.i += 3;
            }
            13..=18 => opt[k - 11] = Some(c.f32()?),
            19 => capacity = Some(c.f32()?),
            20 => fside = Some(c.side()?),
            21 => fnum = Some(u8::try_from(c.uint()?).ok()?),
            _ => counts[k - K_COUNTS] = Some(c.u32()?),
        }
        if !c.more(b'}')? {
            break;
        }
    }
    if seen & K_REQUIRED != K_REQUIRED {
        return None;
    }
    if detail == Detail::Light {
        // Read whole, so that the light reading accepts and refuses exactly what the full
        // one does; only what a summary needs is kept.
        return Some(Player {
            side: p.side,
            unum: p.unum,
            player_type: p.player_type,
            state: p.state,
            x: p.x,
            y: p.y,
            ..Player::default()
        });
    }
    let [px, py, vw, fdist, fdir, stamina, effort, recovery] = opt;
    p.point = px.zip(py);
    p.view = vq.zip(vw);
    p.focus = fdist.zip(fdir);
    p.stamina = match (stamina, effort, recovery) {
        (Some(stamina), Some(effort), Some(recovery)) => Some(Stamina {
            stamina,
            effort,
            recovery,
            capacity,
        }),
        _ => None,
    };
    p.attention = fside.zip(fnum);
    p.counts = counts.iter().any(Option::is_some).then(|| Counts {
        values: counts.map(|c| c.unwrap_or(0)),
        len: 12,
    });
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Record;
    use std::io::Read;

    /// Every JSON log among the fixtures.
    fn json_logs() -> Vec<Vec<u8>> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/logs");
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            for f in std::fs::read_dir(entry.unwrap().path()).unwrap() {
                let path = f.unwrap().path();
                let mut bytes = Vec::new();
                let file = std::fs::File::open(&path).unwrap();
                if path.extension().is_some_and(|e| e == "gz") {
                    flate2::read::GzDecoder::new(file)
                        .read_to_end(&mut bytes)
                        .unwrap();
                } else {
                    std::io::BufReader::new(file)
                        .read_to_end(&mut bytes)
                        .unwrap();
                }
                if bytes.starts_with(b"[") {
                    out.push(bytes);
                }
            }
        }
        assert!(out.len() >= 2, "the JSON fixtures are there");
        out
    }

    /// A small deterministic random source for damaging shows.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// Show lines without their trailing comma.
    fn shows(log: &[u8]) -> Vec<&[u8]> {
        log.split(|&b| b == b'\n')
            .filter(|l| l.starts_with(b"{\"show\":"))
            .map(|l| l.strip_suffix(b",").unwrap_or(l))
            .collect()
    }

    fn by_serde(body: &[u8]) -> Option<Frame> {
        let mut out = Vec::new();
        super::super::parse_record(body, 0, body, &mut out).ok()?;
        match out.pop() {
            Some(Record::Show(f)) => Some(f),
            _ => None,
        }
    }

    #[test]
    fn the_fast_reader_gives_what_serde_gives() {
        let mut n = 0;
        for log in json_logs() {
            for body in shows(&log) {
                let fast = read_show(body, Detail::Full).expect("a server's show is read fast");
                assert_eq!(Some(&fast), by_serde(body).as_ref());
                let light = read_show(body, Detail::Light).expect("and light");
                assert_eq!((light.time, light.ball), (fast.time, fast.ball));
                for (l, f) in light.players.iter().zip(&fast.players) {
                    assert_eq!(
                        (l.side, l.unum, l.player_type, l.state, l.x, l.y),
                        (f.side, f.unum, f.player_type, f.state, f.x, f.y)
                    );
                }
                n += 1;
            }
        }
        assert!(n > 7000, "{n} shows");
    }

    /// Damaged shows: whatever the fast reader takes, serde takes too, as the same frame;
    /// what it refuses goes to serde, which says what is wrong.
    #[test]
    fn a_damaged_show_is_never_read_differently() {
        let logs = json_logs();
        let lines: Vec<&[u8]> = logs.iter().flat_map(|l| shows(l)).step_by(7).collect();
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
        let alphabet = b"0123456789-.,:{}[]\"e lrh";
        let (mut taken, mut refused) = (0, 0);
        for _ in 0..20_000 {
            let mut body = lines[next() as usize % lines.len()].to_vec();
            for _ in 0..1 + next() % 3 {
                let at = next() as usize % body.len();
                match next() % 3 {
                    0 => body[at] = alphabet[next() as usize % alphabet.len()],
                    1 => {
                        body.remove(at);
                    }
                    _ => body.insert(at, alphabet[next() as usize % alphabet.len()]),
                }
            }
            match read_show(&body, Detail::Full) {
                Some(f) => {
                    assert_eq!(
                        Some(f),
                        by_serde(&body),
                        "{}",
                        String::from_utf8_lossy(&body)
                    );
                    taken += 1;
                }
                None => refused += 1,
            }
        }
        assert!(
            taken > 500 && refused > 1000,
            "{taken} taken, {refused} refused"
        );
    }

    /// The light reading checks a player's rest instead of reading it: on every show of
    /// every JSON fixture nearly every player is taken so, with what the full loop gives;
    /// and on damaged shows (their heads too), whatever the check takes the full loop takes as
    /// the same frame.
    #[test]
    fn the_checked_rest_is_taken_by_the_full_reading_too() {
        let logs = json_logs();
        let (mut players, mut checked) = (0, 0);
        for log in &logs {
            for body in shows(log) {
                let frame = read_show(body, Detail::Light);
                assert_eq!(frame, read_show_with(body, Detail::Light, false));
                for at in memchr::memmem::find_iter(body, b",\"vx\":") {
                    players += 1;
                    checked += usize::from(rest_as_written(&body[at..]).is_some());
                }
            }
        }
        assert!(
            checked * 100 >= players * 95,
            "{checked} of {players} checked"
        );
        let lines: Vec<&[u8]> = logs.iter().flat_map(|l| shows(l)).step_by(5).collect();
        let mut next = xorshift(0x2545_f491_4f6c_dd1du64);
        let alphabet = b"0123456789-.,:{}\"lrhe";
        let (mut taken, mut refused) = (0, 0);
        for _ in 0..20_000 {
            let mut body = lines[next() as usize % lines.len()].to_vec();
            // Damage after a player's position, where only the check looks, or in his head,
            // which the light reading reads in the server's order before the loop does.
            let at_head = next() & 1 == 0;
            let mark: &[u8] = if at_head { b"{\"side\":" } else { b",\"vx\":" };
            let starts: Vec<usize> = memchr::memmem::find_iter(&body, mark).collect();
            let from = starts[next() as usize % starts.len()];
            for _ in 0..1 + next() % 2 {
                let at = from + next() as usize % 200;
                if at >= body.len() {
                    continue;
                }
                match next() % 3 {
                    0 => body[at] = alphabet[next() as usize % alphabet.len()],
                    1 => {
                        body.remove(at);
                    }
                    _ => body.insert(at, alphabet[next() as usize % alphabet.len()]),
                }
            }
            let light = read_show(&body, Detail::Light);
            assert_eq!(
                light,
                read_show_with(&body, Detail::Light, false),
                "{}",
                String::from_utf8_lossy(&body)
            );
            if light.is_some() {
                taken += 1;
            } else {
                refused += 1;
            }
        }
        assert!(
            taken > 1000 && refused > 1000,
            "{taken} taken, {refused} refused"
        );
        // Forms at the edges of what the check takes.
        assert_eq!(number_as_written(b"-49.2615,"), Some(8));
        assert_eq!(number_as_written(b"0}"), Some(1));
        assert_eq!(number_as_written(b"1234567.1234567,"), Some(15));
        for bad in [
            &b"01"[..],
            b"1.",
            b".5",
            b"-",
            b"12345678",
            b"1.12345678",
            b"+1",
        ] {
            assert_eq!(
                number_as_written(bad),
                None,
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
        assert_eq!(unsigned_as_written(b"255,", 2), None);
        assert_eq!(unsigned_as_written(b"12,", 2), Some(2));
    }

    /// [`rest_in_order`] never decides alone: on every player of the fixtures and on damaged
    /// ones, what it takes [`rest_by_search`] takes to the same end, and it takes nearly every
    /// real player (else it would only add a step).
    #[test]
    fn the_in_order_check_takes_a_subset_of_the_search() {
        let logs = json_logs();
        let (mut players, mut in_order) = (0, 0);
        let mut rests = Vec::new();
        for log in &logs {
            for body in shows(log) {
                for at in memchr::memmem::find_iter(body, b",\"vx\":") {
                    let rest = &body[at..];
                    players += 1;
                    if let Some(n) = rest_in_order(rest) {
                        in_order += 1;
                        assert_eq!(rest_by_search(rest), Some(n));
                    }
                    if players % 7 == 0 {
                        rests.push(rest[..rest.len().min(400)].to_vec());
                    }
                }
            }
        }
        assert!(
            in_order * 100 >= players * 95,
            "{in_order} of {players} in order"
        );
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let alphabet = b"0123456789-.,:{}\"lrhe ";
        let (mut taken, mut refused) = (0, 0);
        for _ in 0..50_000 {
            let mut rest = rests[next() as usize % rests.len()].clone();
            for _ in 0..1 + next() % 2 {
                let at = next() as usize % 220;
                if at >= rest.len() {
                    continue;
                }
                match next() % 3 {
                    0 => rest[at] = alphabet[next() as usize % alphabet.len()],
                    1 => {
                        rest.remove(at);
                    }
                    _ => rest.insert(at, alphabet[next() as usize % alphabet.len()]),
                }
            }
            // Also cut short, where the 8-byte loads run past the end.
            if next() & 3 == 0 {
                rest.truncate(next() as usize % rest.len().max(1));
            }
            match rest_in_order(&rest) {
                Some(n) => {
                    taken += 1;
                    assert_eq!(
                        rest_by_search(&rest),
                        Some(n),
                        "{}",
                        String::from_utf8_lossy(&rest)
                    );
                }
                None => refused += 1,
            }
        }
        assert!(
            taken > 1000 && refused > 1000,
            "{taken} taken, {refused} refused"
        );
        // The number forms at its edges: what it leaves, the search still judges.
        for (text, end) in [
            (&b"-49.2615,"[..], Some(8)),
            (b"0}", Some(1)),
            (b"1234567.1234567,", Some(15)),
            (b"-123456.5,", Some(9)),
            (b"-1234567.5,", None),
            (b"01,", None),
            (b"1.,", None),
            (b"12345678,", None),
            (b"1.12345678,", None),
            (b"1", None),
        ] {
            assert_eq!(
                number_in_order(&Rest::over(&padded(text, SEEN), text, SEEN), 0),
                end,
                "{}",
                String::from_utf8_lossy(text)
            );
        }
        assert_eq!(
            count_in_order(&Rest::over(&padded(b"12}", SEEN), b"12}", SEEN), 0, 2),
            Some(2)
        );
        assert_eq!(
            count_in_order(&Rest::over(&padded(b"255,", SEEN), b"255,", SEEN), 0, 2),
            None
        );
        assert_eq!(
            count_in_order(&Rest::over(&padded(b"0,", SEEN), b"0,", SEEN), 0, 7),
            Some(1)
        );
        assert_eq!(
            count_in_order(&Rest::over(&padded(b"07,", SEEN), b"07,", SEEN), 0, 7),
            None
        );
    }

    #[test]
    fn numbers_are_read_only_in_the_servers_forms() {
        let f32_of = |b: &[u8]| Cur { b, i: 0 }.f32();
        assert_eq!(f32_of(b"-49.2615,"), Some(-49.2615));
        assert_eq!(f32_of(b"0}"), Some(0.0));
        assert_eq!(f32_of(b"130555,"), Some(130555.0));
        for bad in [
            &b"01"[..],
            b"1.",
            b".5",
            b"1e5",
            b"-",
            b"+1",
            b"1.5.2",
            b"12345678901234567",
            b"-.5",
            b"1E2",
        ] {
            assert_eq!(f32_of(bad), None, "{}", String::from_utf8_lossy(bad));
        }
        let mut c = Cur { b: b"0123", i: 0 };
        assert_eq!(c.uint(), None, "no leading zero");
        let mut c = Cur { b: b"7.0", i: 0 };
        assert_eq!(c.uint(), None, "no fraction");
        let mut c = Cur {
            b: b"4294967296",
            i: 0,
        };
        assert_eq!(c.u32(), None, "in range");
    }
}
