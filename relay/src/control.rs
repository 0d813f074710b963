//! Refereeing from the page: the operator's token, its checks, and the commands it may send.
//!
//! rcssserver has no authentication: whoever can send it UDP can kick off, give cards and
//! move players. The relay is the only monitor the operator needs, so it carries these
//! commands for whoever holds its control token, and nobody else:
//!
//! - One token per relay ([`Gate`]), given (`--control-token`) or 128 random bits made at
//!   start; the relay prints the operator link `http://HOST:PORT/m/NAME#control=TOKEN`. The
//!   token travels in the fragment, so it never reaches access logs or `Referer` headers; the
//!   page sends it back as `Authorization: Bearer TOKEN`. It is compared in constant time.
//! - Failed attempts are logged and counted per client address (per /64 for IPv6, which a
//!   single host usually holds whole): after [`MAX_FAILURES`] within [`FAILURE_WINDOW`] that
//!   address is refused with 429 until the oldest failure ages out, right token or not, so
//!   guessing gets nowhere.
//! - A command is JSON in the page's units (metres, degrees); [`parse`] checks every value
//!   and [`handle`] builds the server's text itself ([`rcss_formats::command`]), so no
//!   text from a browser ever reaches the server. It also refuses what the server would not
//!   act on: a kick-off outside the moments `(dispstart)` works, coach commands when the
//!   server is not in coach mode, anything for a replayed match, and floods ([`Flood`]).
//!
//! [`handle`] is the whole decision after the token check, so that any path that carries a
//! command to the match's relay (the HTTP endpoint here, a forwarded request from another
//! relay) ends in the same place.

use crate::monitor::{ControlError, ControlRequest};
use crate::MatchHandle;
use rcss_formats::command::{self, Card, Command};
use rcss_formats::params::field::{HALF_LENGTH, HALF_WIDTH};
use rcss_formats::Side;
use serde_json::Value;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How far outside the pitch a position may be, in metres.
pub const MARGIN: f32 = 5.0;
/// Failed token checks an address may make within [`FAILURE_WINDOW`].
pub const MAX_FAILURES: usize = 5;
pub const FAILURE_WINDOW: Duration = Duration::from_secs(60);
/// Addresses whose failures are remembered at most (a flood from many addresses cannot grow
/// memory beyond this).
const MAX_TRACKED: usize = 10_000;
/// Commands per match: a burst of [`FLOOD_BURST`], then [`FLOOD_RATE`] per second. A referee
/// clicks; a page or script that sends more is broken or hostile, and the server must not be
/// swamped either way.
pub const FLOOD_BURST: u32 = 20;
pub const FLOOD_RATE: f64 = 5.0;
/// How long the match's task may take to send a command and hear the server's answer.
const REPLY_TIMEOUT: Duration = Duration::from_secs(3);
/// Shortest token the relay accepts from its operator.
pub const MIN_TOKEN_LEN: usize = 16;

/// Why a command was not carried to the server; each has its HTTP status.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("{0}")]
    Malformed(String),
    #[error("no control token, or not this relay's: open the operator link the relay printed")]
    Unauthorized,
    #[error("too many failed attempts from this address: try again in {0} s")]
    LockedOut(u64),
    #[error("too many commands: at most {FLOOD_BURST} at once and {FLOOD_RATE} a second; try again in {0} s")]
    Flood(u64),
    #[error("this match is a replay: there is no server to command")]
    Replay,
    #[error(
        "{0} needs rcssserver in coach mode (server::coach=true or server::coach_w_referee=true)"
    )]
    CoachMode(&'static str),
    #[error("rcssserver ignores a kick-off now (cycle {time}, {mode}): it acts only before kick-off, at half time and before extra time")]
    NotNow { time: u32, mode: &'static str },
    #[error("no match called {0}")]
    UnknownMatch(String),
    #[error("{0}")]
    Server(ControlError),
    #[error("the match's task did not answer in time")]
    Timeout,
}

impl Refusal {
    /// The HTTP status for it.
    pub fn status(&self) -> u16 {
        match self {
            Refusal::Malformed(_) => 400,
            Refusal::Unauthorized => 401,
            Refusal::UnknownMatch(_) => 404,
            Refusal::Replay | Refusal::CoachMode(_) | Refusal::NotNow { .. } => 409,
            Refusal::LockedOut(_) | Refusal::Flood(_) => 429,
            Refusal::Server(ControlError::Replay) => 409,
            Refusal::Server(ControlError::NotRegistered) => 503,
            Refusal::Server(ControlError::Send(_)) | Refusal::Timeout => 502,
        }
    }

    /// Seconds to wait before trying again, for `Retry-After`.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Refusal::LockedOut(s) | Refusal::Flood(s) => Some(*s),
            _ => None,
        }
    }
}

/// What was sent, and what the server said back right away, if anything (`(ok …)`,
/// `(error …)`; most commands get no answer when they work).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Sent {
    pub sent: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
}

// ---- The token ----

/// 128 random bits as 32 hex digits: safe in a URL fragment as it is.
pub fn generate_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Why an operator's own token is not taken: it goes into a link, and must resist guessing.
pub fn check_token(token: &str) -> Result<(), String> {
    if token.len() < MIN_TOKEN_LEN {
        return Err(format!(
            "at least {MIN_TOKEN_LEN} characters (leave it out for a random one)"
        ));
    }
    if !token
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~'))
    {
        return Err("only letters, digits, '-', '_', '.' and '~' (it goes into a link)".into());
    }
    Ok(())
}

/// Equality whose time does not depend on where `given` differs from `expected`, so that
/// response times cannot reveal the token a character at a time. The loop runs over the
/// expected length whatever is given; a length mismatch is folded in, not returned early.
pub fn same_token(expected: &[u8], given: &[u8]) -> bool {
    let mut diff = u8::from(expected.len() != given.len());
    for (i, e) in expected.iter().enumerate() {
        diff |= e ^ given.get(i).copied().unwrap_or(0);
    }
    std::hint::black_box(diff) == 0
}

/// The token of an `Authorization: Bearer TOKEN` header value.
pub fn bearer(header: Option<&str>) -> Option<&str> {
    let v = header?.trim();
    let (scheme, rest) = v.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| rest.trim())
        .filter(|t| !t.is_empty())
}

/// The link the relay prints for the operator: the listen address, or 127.0.0.1 (`[::1]`)
/// when it listens on every interface; `https` when the relay serves TLS.
pub fn operator_link(https: bool, listen: std::net::SocketAddr, name: &str, token: &str) -> String {
    link_with(
        https,
        listen,
        name,
        pitchside_wire::link::CONTROL_KEY,
        token,
    )
}

/// A match's page with `#KEY=TOKEN`: the operator's link, or a team's ([`crate::agents`]).
pub fn link_with(
    https: bool,
    listen: std::net::SocketAddr,
    name: &str,
    fragment_key: &str,
    token: &str,
) -> String {
    page_link(https, listen, &format!("/m/{name}"), fragment_key, token)
}

/// The relay's page at `path` with `#KEY=TOKEN`.
pub fn page_link(
    https: bool,
    listen: std::net::SocketAddr,
    path: &str,
    fragment_key: &str,
    token: &str,
) -> String {
    let host = match listen.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => "127.0.0.1".to_owned(),
        IpAddr::V6(ip) if ip.is_unspecified() => "[::1]".to_owned(),
        IpAddr::V4(ip) => ip.to_string(),
        IpAddr::V6(ip) => format!("[{ip}]"),
    };
    let scheme = if https { "https" } else { "http" };
    format!(
        "{scheme}://{host}:{}{path}#{fragment_key}={token}",
        listen.port()
    )
}

/// The relay's token and who failed to give it.
pub struct Gate {
    token: String,
    failures: Mutex<HashMap<IpAddr, Vec<Instant>>>,
    /// What the log calls it: `control`, or the agents' debug stream's tally.
    label: &'static str,
}

impl Gate {
    pub fn new(token: String) -> Gate {
        Gate {
            token,
            failures: Mutex::new(HashMap::new()),
            label: "control",
        }
    }

    /// A tally of failed attempts with no token of its own, for [`Gate::check_with`].
    pub fn tally(label: &'static str) -> Gate {
        Gate {
            token: String::new(),
            failures: Mutex::new(HashMap::new()),
            label,
        }
    }

    pub fn token(&self) -> &str {
        &self.token
    }

    /// Checks the `Authorization` header of a request from `ip` at `now`: `Ok` for the
    /// right token; [`Refusal::Unauthorized`] (counted and logged) for none or a wrong one;
    /// [`Refusal::LockedOut`] while the address has too many recent failures.
    pub fn check(
        &self,
        ip: IpAddr,
        authorization: Option<&str>,
        now: Instant,
    ) -> Result<(), Refusal> {
        self.check_with(ip, authorization, now, |given| {
            same_token(self.token.as_bytes(), given.as_bytes()).then_some(())
        })
    }

    /// [`Gate::check`] for another set of keys (the teams' keys of [`crate::agents`]):
    /// `accept` says what a key grants, and failures count against the same addresses, so
    /// guessing any key costs the same lock-out.
    pub fn check_with<T>(
        &self,
        ip: IpAddr,
        authorization: Option<&str>,
        now: Instant,
        accept: impl FnOnce(&str) -> Option<T>,
    ) -> Result<T, Refusal> {
        let key = crate::connections::address_key(ip);
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let recent = failures.get_mut(&key).map(|list| {
            list.retain(|t| now.saturating_duration_since(*t) < FAILURE_WINDOW);
            list.clone()
        });
        if let Some(list) = &recent {
            if list.len() >= MAX_FAILURES {
                let oldest = list.first().copied().unwrap_or(now);
                let wait = FAILURE_WINDOW.saturating_sub(now.saturating_duration_since(oldest));
                tracing::warn!(
                    "{}: refused {ip}: locked out after {} failed attempts",
                    self.label,
                    list.len()
                );
                return Err(Refusal::LockedOut(wait.as_secs().max(1)));
            }
        }
        let given = bearer(authorization);
        if let Some(granted) = given.and_then(accept) {
            return Ok(granted);
        }
        if failures.len() >= MAX_TRACKED && !failures.contains_key(&key) {
            failures.retain(|_, l| {
                l.iter()
                    .any(|t| now.saturating_duration_since(*t) < FAILURE_WINDOW)
            });
            if failures.len() >= MAX_TRACKED {
                // Still full of fresh failures: forget one address rather than grow.
                if let Some(k) = failures.keys().next().copied() {
                    failures.remove(&k);
                }
            }
        }
        let list = failures.entry(key).or_default();
        list.push(now);
        tracing::warn!(
            "{}: {} token from {ip} ({} failed in the last {} s)",
            self.label,
            if given.is_some() { "wrong" } else { "no" },
            list.len(),
            FAILURE_WINDOW.as_secs()
        );
        Err(Refusal::Unauthorized)
    }
}

/// A token bucket for one match's commands.
pub struct Flood {
    state: Mutex<(f64, Option<Instant>)>,
}

impl Default for Flood {
    fn default() -> Self {
        Flood {
            state: Mutex::new((f64::from(FLOOD_BURST), None)),
        }
    }
}

impl Flood {
    /// Takes one command's worth at `now`, or says how long to wait.
    pub fn take(&self, now: Instant) -> Result<(), Refusal> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let (tokens, last) = &mut *st;
        if let Some(last) = *last {
            let dt = now.saturating_duration_since(last).as_secs_f64();
            *tokens = (*tokens + dt * FLOOD_RATE).min(f64::from(FLOOD_BURST));
        }
        *last = Some(now);
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(Refusal::Flood(
                ((1.0 - *tokens) / FLOOD_RATE).ceil().max(1.0) as u64,
            ))
        }
    }
}

// ---- Commands ----

fn malformed(msg: impl Into<String>) -> Refusal {
    Refusal::Malformed(msg.into())
}

struct Fields<'a> {
    obj: &'a serde_json::Map<String, Value>,
    cmd: &'a str,
}

impl Fields<'_> {
    fn get(&self, key: &str) -> Result<&Value, Refusal> {
        self.obj
            .get(key)
            .ok_or_else(|| malformed(format!("{}: missing \"{key}\"", self.cmd)))
    }

    fn number(&self, key: &str) -> Result<f64, Refusal> {
        self.get(key)?
            .as_f64()
            .filter(|v| v.is_finite())
            .ok_or_else(|| malformed(format!("{}: \"{key}\" must be a number", self.cmd)))
    }

    fn text(&self, key: &str) -> Result<&str, Refusal> {
        self.get(key)?
            .as_str()
            .ok_or_else(|| malformed(format!("{}: \"{key}\" must be a string", self.cmd)))
    }

    fn side(&self) -> Result<Side, Refusal> {
        match self.text("side")? {
            "l" => Ok(Side::Left),
            "r" => Ok(Side::Right),
            other => Err(malformed(format!(
                "{}: side must be \"l\" or \"r\", not {other:?}",
                self.cmd
            ))),
        }
    }

    fn unum(&self) -> Result<u8, Refusal> {
        let v = self.get("unum")?;
        match v.as_u64() {
            Some(n @ 1..=11) => Ok(n as u8),
            _ => Err(malformed(format!(
                "{}: unum must be a whole number from 1 to 11, not {v}",
                self.cmd
            ))),
        }
    }

    /// A position on the pitch or within [`MARGIN`] of it.
    fn point(&self) -> Result<(f32, f32), Refusal> {
        let (x, y) = (self.number("x")?, self.number("y")?);
        let (max_x, max_y) = (
            f64::from(HALF_LENGTH + MARGIN),
            f64::from(HALF_WIDTH + MARGIN),
        );
        if x.abs() > max_x || y.abs() > max_y {
            return Err(malformed(format!(
                "{}: ({x}, {y}) is off the pitch: x must be within ±{max_x} m, y within ±{max_y} m",
                self.cmd
            )));
        }
        Ok((x as f32, y as f32))
    }

    /// Only the keys a command has: a typo must not be silently ignored.
    fn only(&self, keys: &[&str]) -> Result<(), Refusal> {
        match self
            .obj
            .keys()
            .find(|k| *k != "cmd" && !keys.contains(&k.as_str()))
        {
            Some(k) => Err(malformed(format!("{}: unknown field \"{k}\"", self.cmd))),
            None => Ok(()),
        }
    }
}

/// Reads a command as the page sends it (book, "Refereeing"): `{"cmd":"card","side":"l",
/// "unum":5,"card":"yellow"}`, coordinates in metres and angles in degrees. Every value is
/// checked; the error says which and why.
pub fn parse(body: &[u8]) -> Result<Command, Refusal> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| malformed(format!("the body is not JSON: {e}")))?;
    let obj = value
        .as_object()
        .ok_or_else(|| malformed("the body must be a JSON object with \"cmd\""))?;
    let cmd = obj
        .get("cmd")
        .and_then(Value::as_str)
        .ok_or_else(|| malformed("missing \"cmd\""))?;
    let f = Fields { obj, cmd };
    Ok(match cmd {
        "kickoff" => {
            f.only(&[])?;
            Command::KickOff
        }
        "drop_ball" => {
            f.only(&["x", "y"])?;
            let (x, y) = f.point()?;
            Command::Foul { x, y, side: None }
        }
        "free_kick" => {
            f.only(&["side", "x", "y"])?;
            let side = f.side()?;
            let (x, y) = f.point()?;
            Command::Foul {
                x,
                y,
                side: Some(side),
            }
        }
        "card" => {
            f.only(&["side", "unum", "card"])?;
            let card = match f.text("card")? {
                "yellow" => Card::Yellow,
                "red" => Card::Red,
                other => {
                    return Err(malformed(format!(
                        "card: \"card\" must be \"yellow\" or \"red\", not {other:?}"
                    )))
                }
            };
            Command::Card {
                side: f.side()?,
                unum: f.unum()?,
                card,
            }
        }
        "discard" => {
            f.only(&["side", "unum"])?;
            Command::Discard {
                side: f.side()?,
                unum: f.unum()?,
            }
        }
        "move" => {
            f.only(&["side", "unum", "x", "y", "deg"])?;
            let side = f.side()?;
            let unum = f.unum()?;
            let (x, y) = f.point()?;
            let deg = f.number("deg")?;
            if deg.abs() > 360.0 {
                return Err(malformed(format!(
                    "move: deg must be within ±360, not {deg}"
                )));
            }
            Command::MovePlayer {
                side,
                unum,
                x,
                y,
                body: deg as f32,
            }
        }
        "change_mode" => {
            f.only(&["mode"])?;
            let name = f.text("mode")?;
            let mode = command::changeable_mode(name).ok_or_else(|| {
                malformed(format!(
                    "change_mode: {name:?} is not one of rcssserver's play modes (before_kick_off, play_on, free_kick_l, …)"
                ))
            })?;
            Command::ChangeMode(mode)
        }
        "recover" => {
            f.only(&[])?;
            Command::Recover
        }
        other => {
            return Err(malformed(format!(
                "unknown command {other:?}: kickoff, drop_ball, free_kick, card, discard, move, change_mode, recover"
            )))
        }
    })
}

/// Carries one command to a match's server, for a client whose token was checked
/// (`token_ok`): parses it, refuses what the server would not act on, sends it through the
/// match's task, and logs it with `client` (an address, or where a forwarded request came
/// from). Every operator action the server gets is also announced to every spectator by the
/// match's task (an operator notice).
pub async fn handle(
    m: &MatchHandle,
    token_ok: bool,
    body: &[u8],
    client: &str,
) -> Result<Sent, Refusal> {
    let name = &m.hub.name;
    if !token_ok {
        return Err(Refusal::Unauthorized);
    }
    let res = decide(m, body).await;
    match &res {
        Ok(s) => tracing::info!(
            "{name}: operator {client} sent {}{}",
            s.sent,
            s.answer
                .as_deref()
                .map(|a| format!(", rcssserver answered {a}"))
                .unwrap_or_default()
        ),
        Err(e) => tracing::warn!("{name}: operator {client}: refused ({}): {e}", e.status()),
    }
    res
}

async fn decide(m: &MatchHandle, body: &[u8]) -> Result<Sent, Refusal> {
    let c = parse(body)?;
    if m.kind == "replay" {
        return Err(Refusal::Replay);
    }
    let view = m.hub.control_view();
    if c.needs_coach_mode() && !view.coach {
        return Err(Refusal::CoachMode(match c {
            Command::ChangeMode(_) => "change_mode",
            _ => "recover",
        }));
    }
    if c == Command::KickOff {
        if let Some((time, mode)) = view.now {
            if !command::kick_off_acts(time, mode, &view.params) {
                return Err(Refusal::NotNow {
                    time,
                    mode: mode.name(),
                });
            }
        }
    }
    m.flood.take(Instant::now())?;
    let text = c.text();
    let (tx, rx) = tokio::sync::oneshot::channel();
    m.control
        .send(ControlRequest {
            command: c,
            reply: tx,
        })
        .await
        .map_err(|_| Refusal::Server(ControlError::NotRegistered))?;
    match tokio::time::timeout(REPLY_TIMEOUT, rx).await {
        Ok(Ok(Ok(answer))) => Ok(Sent { sent: text, answer }),
        Ok(Ok(Err(e))) => Err(Refusal::Server(e)),
        Ok(Err(_)) => Err(Refusal::Server(ControlError::NotRegistered)),
        Err(_) => Err(Refusal::Timeout),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_compare_whole() {
        assert!(same_token(b"0123456789abcdef", b"0123456789abcdef"));
        assert!(!same_token(b"0123456789abcdef", b"0123456789abcdeF"));
        assert!(!same_token(b"0123456789abcdef", b"0123456789abcde"));
        assert!(!same_token(b"0123456789abcdef", b"0123456789abcdef0"));
        assert!(!same_token(b"0123456789abcdef", b""));
        let t = generate_token().unwrap();
        assert_eq!(t.len(), 32);
        assert!(check_token(&t).is_ok());
        assert_ne!(t, generate_token().unwrap());
        assert!(check_token("short").is_err());
        assert!(check_token("with space in it, long enough").is_err());
        assert!(check_token("tournament-2026_field.A~").is_ok());
    }

    #[test]
    fn bearer_headers_are_read_as_rfc_6750_says() {
        assert_eq!(bearer(Some("Bearer abc")), Some("abc"));
        assert_eq!(bearer(Some("bearer  abc ")), Some("abc"));
        assert_eq!(bearer(Some("Basic abc")), None);
        assert_eq!(bearer(Some("Bearer ")), None);
        assert_eq!(bearer(None), None);
    }

    #[test]
    fn links_name_a_reachable_host() {
        let t = "0123456789abcdef";
        assert_eq!(
            operator_link(false, "0.0.0.0:8080".parse().unwrap(), "field-a", t),
            "http://127.0.0.1:8080/m/field-a#control=0123456789abcdef"
        );
        assert_eq!(
            operator_link(false, "10.1.2.3:80".parse().unwrap(), "x", t),
            "http://10.1.2.3:80/m/x#control=0123456789abcdef"
        );
        assert_eq!(
            operator_link(true, "[::]:8080".parse().unwrap(), "x", t),
            "https://[::1]:8080/m/x#control=0123456789abcdef"
        );
    }

    #[test]
    fn failures_lock_an_address_out_for_a_while() {
        let gate = Gate::new("0123456789abcdef0123".into());
        let ip: IpAddr = "192.0.2.7".parse().unwrap();
        let other: IpAddr = "192.0.2.8".parse().unwrap();
        let t0 = Instant::now();
        let good = Some("Bearer 0123456789abcdef0123");
        assert_eq!(gate.check(ip, good, t0), Ok(()));
        for i in 0..MAX_FAILURES {
            let at = t0 + Duration::from_secs(i as u64);
            assert_eq!(
                gate.check(ip, Some("Bearer nope"), at),
                Err(Refusal::Unauthorized)
            );
        }
        // Even the right token is refused now, and says how long to wait.
        let later = t0 + Duration::from_secs(10);
        assert_eq!(gate.check(ip, good, later), Err(Refusal::LockedOut(50)));
        assert_eq!(gate.check(other, good, later), Ok(()));
        // Once the first failure is a minute old, one more attempt is allowed.
        let after = t0 + FAILURE_WINDOW + Duration::from_millis(1);
        assert_eq!(gate.check(ip, good, after), Ok(()));
        // An IPv6 host's whole /64 counts as one.
        let a: IpAddr = "2001:db8::1".parse().unwrap();
        let b: IpAddr = "2001:db8::2:3".parse().unwrap();
        for _ in 0..MAX_FAILURES {
            let _ = gate.check(a, None, t0);
        }
        assert!(matches!(
            gate.check(b, good, t0),
            Err(Refusal::LockedOut(_))
        ));
    }

    #[test]
    fn floods_are_cut_to_the_rate() {
        let f = Flood::default();
        let t0 = Instant::now();
        for _ in 0..FLOOD_BURST {
            assert_eq!(f.take(t0), Ok(()));
        }
        assert_eq!(f.take(t0), Err(Refusal::Flood(1)));
        assert_eq!(f.take(t0 + Duration::from_millis(250)), Ok(()));
    }

    #[test]
    fn commands_are_checked_value_by_value() {
        let ok = |s: &str| parse(s.as_bytes()).unwrap().text();
        let bad = |s: &str| match parse(s.as_bytes()) {
            Err(Refusal::Malformed(m)) => m,
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(ok(r#"{"cmd":"kickoff"}"#), "(dispstart)");
        assert_eq!(
            ok(r#"{"cmd":"drop_ball","x":-12.5,"y":3}"#),
            "(dispfoul -200 48 0)"
        );
        assert_eq!(
            ok(r#"{"cmd":"free_kick","side":"r","x":-30,"y":-10}"#),
            "(dispfoul -480 -160 -1)"
        );
        assert_eq!(
            ok(r#"{"cmd":"card","side":"l","unum":5,"card":"yellow"}"#),
            "(dispcard 1 5 yellow)"
        );
        assert_eq!(
            ok(r#"{"cmd":"discard","side":"r","unum":3}"#),
            "(dispdiscard -1 3)"
        );
        assert_eq!(
            ok(r#"{"cmd":"move","side":"l","unum":9,"x":30,"y":-20,"deg":90.4}"#),
            "(dispplayer 1 9 480 -320 90)"
        );
        assert_eq!(
            ok(r#"{"cmd":"change_mode","mode":"corner_kick_r"}"#),
            "(change_mode corner_kick_r)"
        );
        assert_eq!(ok(r#"{"cmd":"recover"}"#), "(recover)");
        // The edge of what is allowed: the pitch plus 5 m.
        assert_eq!(
            ok(r#"{"cmd":"drop_ball","x":57.5,"y":-39}"#),
            "(dispfoul 920 -624 0)"
        );

        assert!(bad("not json").contains("not JSON"));
        assert!(bad("[1]").contains("object"));
        assert!(bad(r#"{"x":1}"#).contains("cmd"));
        assert!(bad(r#"{"cmd":"explode"}"#).contains("unknown command"));
        assert!(bad(r#"{"cmd":"drop_ball","x":57.6,"y":0}"#).contains("off the pitch"));
        assert!(bad(r#"{"cmd":"drop_ball","x":"1","y":0}"#).contains("number"));
        assert!(bad(r#"{"cmd":"card","side":"l","unum":12,"card":"red"}"#).contains("1 to 11"));
        assert!(bad(r#"{"cmd":"card","side":"l","unum":0,"card":"red"}"#).contains("1 to 11"));
        assert!(bad(r#"{"cmd":"card","side":"l","unum":5.5,"card":"red"}"#).contains("1 to 11"));
        assert!(bad(r#"{"cmd":"card","side":"l","unum":5,"card":"green"}"#).contains("green"));
        assert!(bad(r#"{"cmd":"card","side":"x","unum":5,"card":"red"}"#).contains("side"));
        assert!(bad(r#"{"cmd":"discard","side":"l"}"#).contains("unum"));
        assert!(bad(r#"{"cmd":"move","side":"l","unum":1,"x":0,"y":0,"deg":400}"#).contains("360"));
        assert!(bad(r#"{"cmd":"change_mode","mode":"(dispbye)"}"#).contains("play modes"));
        assert!(bad(r#"{"cmd":"change_mode","mode":""}"#).contains("play modes"));
        assert!(bad(r#"{"cmd":"kickoff","text":"(dispbye)"}"#).contains("unknown field"));
    }
}
