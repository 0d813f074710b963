//! The command line, the environment and the TOML config file, merged into [`Settings`].
//!
//! Precedence: an option on the command line or in its environment variable wins over the
//! config file, which wins over the default. Matches are added up: those of the config file
//! first, then `--server` and `--replay` in the order given.

use crate::monitor::{MonitorConfig, Protocol};
use crate::replay::{ReplayConfig, Script};
use clap::Parser;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

const DEFAULT_LISTEN: &str = "127.0.0.1:8080";
const DEFAULT_MAX_SPECTATORS: usize = 10_000;
const DEFAULT_HISTORY_MB: usize = 64;
const DEFAULT_SEND_TIMEOUT: f64 = 10.0;
const DEFAULT_LAG: usize = 100;
const DEFAULT_SILENCE: f64 = 5.0;

/// pitchside-relay: registers with rcssserver as a monitor (or replays logs) and relays every
/// match to any number of browsers.
///
/// Every option can also be given by its environment variable; options that repeat take a
/// comma-separated list there. With no --server and no --replay (and no matches in --config),
/// a bundled real game is replayed.
// One table of the relay's options: the command line (with each option's environment
// variable) and the config file are read into these same fields, so an option is declared
// once and the file takes the command line's names with `_` for `-`. Fields only one of
// them takes are skipped by the other.
#[derive(Parser, Debug, Default, serde::Deserialize, serde::Serialize)]
#[command(name = "pitchside-relay", version, mut_args = env_and_lists)]
#[serde(default, deny_unknown_fields)]
pub struct Cli {
    /// A TOML file with options and matches (schema in the book, "Running a relay for a tournament").
    #[arg(long, value_name = "FILE")]
    #[serde(skip)]
    pub config: Option<PathBuf>,

    /// Where browsers connect [default: 127.0.0.1:8080].
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<SocketAddr>,

    /// A live match: rcssserver's player port (normally 6000), named NAME (default: the
    /// address with ':' as '-'). Repeat for several matches.
    #[arg(long, value_name = "[NAME=]HOST:PORT")]
    #[serde(skip)]
    pub server: Vec<String>,

    /// A log (.rcg or .rcg.gz, any version) played as if live, looping, named NAME (default:
    /// the file's name without .rcg/.gz). Repeat for several.
    #[arg(long, value_name = "[NAME=]FILE")]
    #[serde(skip)]
    pub replay: Vec<String>,

    /// Monitor protocol to ask rcssserver for: 1, 2, 3, 4, 5, 6 (its 2.5D fork) or json [default: 5].
    #[arg(long, value_name = "VERSION")]
    #[serde(deserialize_with = "number_or_text")]
    pub protocol: Option<String>,

    /// Ask rcssserver to zlib-compress what it sends, at level N (0-9; 0 = stored blocks,
    /// still zlib). Off unless given.
    #[arg(long, value_name = "N")]
    pub compression: Option<i32>,

    /// Most spectators at once over all matches; more are refused with a reason
    /// [default: 10000].
    #[arg(long, value_name = "N")]
    pub max_spectators: Option<usize>,

    /// Write every match to DIR as rcssserver names its logs (incomplete-NAME.rcg while it
    /// runs).
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,

    /// List every .rcg/.rcg.gz below DIR at /archive and /api/archive (the --record
    /// directory is listed too). Repeat for several.
    #[arg(long, value_name = "DIR")]
    pub archive: Vec<PathBuf>,

    /// A tournament (TOML: groups, fixtures, knockout ties; book, "Tournaments"): its
    /// standings, fixtures and bracket at /t/NAME, from the archive's logs and the matches
    /// being relayed. Repeat for several.
    #[arg(long, value_name = "FILE")]
    pub tournament: Vec<PathBuf>,

    /// A run of games the operator may start, pause and stop from the page (`/runs`): a
    /// TOML file whose `args` are `pitchside-play`'s (book, "Series and tournaments").
    /// Repeat for several.
    #[arg(long, value_name = "FILE")]
    pub run: Vec<PathBuf>,

    /// Seconds every broadcast view (`/m/NAME/broadcast`, for a stream) trails live play,
    /// fractions allowed, at most 600; the ordinary page stays live [default: 0].
    // `-1` is taken as the value, for the relay to say what is wrong with it.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub broadcast_delay: Option<f64>,

    /// Each team's home and away colours (TOML, book, "Team colours"): the broadcast view
    /// dresses the teams in them, changing a kit when two would look alike. Read again when
    /// it changes.
    #[arg(long, value_name = "FILE")]
    pub team_colours: Option<PathBuf>,

    /// History kept per match for late joiners, in MB; the oldest part goes first beyond it
    /// (a full game is about 2 MB) [default: 64].
    #[arg(long, value_name = "MB")]
    pub history_mb: Option<usize>,

    /// The built web app [default: dist].
    #[arg(long, value_name = "DIR")]
    pub dist: Option<PathBuf>,

    /// Replay speed factor: 1 = 10 cycles per second [default: 1].
    #[arg(long, value_name = "X")]
    pub speed: Option<f64>,

    /// Play replays once instead of looping.
    #[arg(long)]
    pub replay_once: bool,

    /// Seconds a send to a spectator may take before it is closed as stalled [default: 10].
    #[arg(long, value_name = "SECS")]
    pub send_timeout: Option<f64>,

    /// Messages a spectator may fall behind before it is moved ahead to the live frame
    /// (it keeps every notice and match header) [default: 100].
    #[arg(long, value_name = "N")]
    pub lag: Option<usize>,

    /// Milliseconds a frame may wait for a spectator before that spectator skips it and gets a
    /// newer one (the history and the recording keep every frame; 0: only ever the newest)
    /// [default: 200].
    #[arg(long, value_name = "MS")]
    pub max_delay: Option<u64>,

    /// Seconds of silence after which rcssserver is taken as gone and the relay registers
    /// again [default: 5].
    #[arg(long, value_name = "SECS")]
    pub silence: Option<f64>,

    /// Serve HTTPS and WSS (on --listen) with this PEM certificate chain, e.g. Let's
    /// Encrypt's fullchain.pem; needs --tls-key. Browsers install the page as an offline web
    /// app only over HTTPS (or on localhost).
    #[arg(long, value_name = "FILE")]
    pub tls_cert: Option<PathBuf>,

    /// The PEM private key of --tls-cert (PKCS#8, PKCS#1 or SEC1).
    #[arg(long, value_name = "FILE")]
    pub tls_key: Option<PathBuf>,

    // ---- Connections ----
    /// Seconds a client has from a request's first byte to the end of its head; slower
    /// clients are closed [default: 10].
    #[arg(long, value_name = "SECS")]
    pub header_timeout: Option<f64>,

    /// Seconds a connection may sit with no request under way and no byte moving before it
    /// is closed (WebSocket spectators are not affected) [default: 60].
    #[arg(long, value_name = "SECS")]
    pub idle_timeout: Option<f64>,

    /// Seconds a TLS handshake may take [default: 10].
    #[arg(long, value_name = "SECS")]
    pub tls_handshake_timeout: Option<f64>,

    /// Connections one client address (an IPv4 address, or an IPv6 /64) may hold,
    /// spectators included; raise it for a venue behind one NAT address [default: 256].
    #[arg(long, value_name = "N")]
    pub max_per_address: Option<usize>,

    /// Connections in all [default: the open-files limit less a reserve for the relay's
    /// own files and sockets].
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,

    /// Web origins (scheme://host[:port]) whose pages may call the control endpoint from
    /// the browser (CORS); by default no other site may. Repeat for several.
    #[arg(long, value_name = "ORIGIN")]
    pub cors_origin: Vec<String>,

    /// Sites whose pages may show the embed view (`/m/NAME/embed`, `?embed`) in a frame, sent
    /// as the page's `frame-ancestors`. Default: any site. The full page may never be framed.
    /// Repeat for several.
    #[arg(long, value_name = "ORIGIN")]
    pub embed_origins: Vec<String>,

    // ---- Refereeing (issue 11) ----
    /// The operator's secret for refereeing from the page (at least 16 letters, digits,
    /// '-', '_', '.', '~'); the relay prints the operator link with it. Default: 128 random
    /// bits, new at every start.
    #[arg(long, value_name = "TOKEN", hide_env_values = true)]
    pub control_token: Option<String>,

    /// A file whose first line is the operator's secret (safer than --control-token, which
    /// every user of the machine can read in the process list).
    #[arg(long, value_name = "FILE")]
    pub control_token_file: Option<PathBuf>,

    /// Be the agents' debug server: receive librcsc agents' debug-client messages (their
    /// `--debug_server_port`) on this UDP port (PORT binds loopback; ADDR:PORT the network
    /// the agents run on) for the first live match, and show them to pages with the team's
    /// key. Off unless given.
    #[arg(long, value_name = "PORT")]
    #[serde(deserialize_with = "number_or_text")]
    pub debug_port: Option<String>,

    /// A team's key for its agents' debug stream, TEAM=KEY (repeat for each team; a team
    /// without one gets a random key, logged when it is first seen).
    #[arg(long = "team-key", value_name = "TEAM=KEY", hide_env_values = true)]
    #[serde(deserialize_with = "team_keys")]
    pub team_keys: Vec<String>,

    /// Also publish every match to NATS with JetStream (an origin, for edge relays); serve
    /// this relay's own spectators as ever. Only to a NATS on a private network unless it
    /// asks for credentials.
    #[arg(long, value_name = "nats://HOST:PORT")]
    pub publish: Option<String>,

    /// Be an edge relay: no server of its own; serve every match an origin publishes on this
    /// NATS, with the same page and wire.
    #[arg(long, value_name = "nats://HOST:PORT")]
    pub edge: Option<String>,

    /// NATS user name (with --nats-password).
    #[arg(long, value_name = "USER")]
    pub nats_user: Option<String>,

    /// NATS password (prefer the environment variable: the command line is visible to
    /// every user of the machine).
    #[arg(long, value_name = "PASSWORD", hide_env_values = true)]
    pub nats_password: Option<String>,

    /// A file holding an nkey seed (SU…), for NATS servers that authenticate with nkeys.
    #[arg(long, value_name = "FILE")]
    pub nats_nkey: Option<PathBuf>,

    /// Bytes each match's JetStream stream keeps, in MB; the oldest items go first
    /// [default: 256].
    #[arg(long, value_name = "MB")]
    pub nats_stream_mb: Option<usize>,

    /// Hours each match's items stay in JetStream [default: 24].
    #[arg(long, value_name = "HOURS")]
    pub nats_stream_hours: Option<f64>,

    /// The config file's `[[match]]` tables (book, "Configuration file").
    #[arg(skip)]
    #[serde(rename = "match", skip_serializing)]
    pub matches: Vec<FileMatch>,
}

/// Every option takes its environment variable, `PITCHSIDE_` and its name, and an option that
/// repeats takes a comma-separated list there and on the command line.
fn env_and_lists(arg: clap::Arg) -> clap::Arg {
    let id = arg.get_id().as_str();
    if matches!(id, "help" | "version") {
        return arg;
    }
    let env = format!("PITCHSIDE_{}", id.to_uppercase());
    let arg = arg.env(env);
    if matches!(arg.get_action(), clap::ArgAction::Append) {
        arg.value_delimiter(',')
    } else {
        arg
    }
}

/// `protocol = 5` and `protocol = "json"` both work, as `debug_port = 6032` and
/// `debug_port = "0.0.0.0:6032"` do.
fn number_or_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Value {
        Number(i64),
        Text(String),
    }
    Ok(
        <Option<Value> as serde::Deserialize>::deserialize(d)?.map(|v| match v {
            Value::Number(n) => n.to_string(),
            Value::Text(t) => t,
        }),
    )
}

/// The file's `[team_keys]` table (`TEAM = "KEY"`) as the command line's `TEAM=KEY` list.
fn team_keys<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Keys {
        Table(std::collections::BTreeMap<String, String>),
        List(Vec<String>),
    }
    Ok(match <Keys as serde::Deserialize>::deserialize(d)? {
        Keys::Table(table) => table.into_iter().map(|(t, k)| format!("{t}={k}")).collect(),
        Keys::List(list) => list,
    })
}

#[derive(serde::Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct FileMatch {
    pub name: Option<String>,
    pub server: Option<String>,
    pub replay: Option<PathBuf>,
    #[serde(default, deserialize_with = "number_or_text")]
    pub protocol: Option<String>,
    pub compression: Option<i32>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Toml { path: PathBuf, message: String },
    #[error("{0}")]
    RunFile(#[from] crate::runs::RunFileError),
    #[error("{0}")]
    Protocol(#[from] crate::monitor::UnknownProtocol),
    #[error("--compression {0}: the level must be 0 to 9")]
    Compression(i32),
    #[error("{spec:?}: {reason}")]
    Match { spec: String, reason: String },
    #[error("two matches are called {0:?}: give them different names (NAME=…)")]
    Duplicate(String),
    #[error("{0}")]
    Replay(#[from] crate::replay::ReplayError),
    #[error("{0}")]
    Tls(#[from] crate::tls::TlsError),
    #[error("--tls-cert and --tls-key go together: {0} is missing")]
    TlsHalf(&'static str),
    #[error("--control-token must have {rule}")]
    Token { rule: String },
    #[error("give the control token once: --control-token or --control-token-file, not both")]
    TokenTwice,
    #[error("--debug-port {0:?}: a UDP port (6032) or ADDR:PORT (0.0.0.0:6032)")]
    DebugPort(String),
    #[error("--team-key {0:?}: TEAM=KEY, the key {1}")]
    TeamKey(String, String),
    #[error(
        "--cors-origin {0:?}: an origin is scheme://host[:port], e.g. https://tournament.example"
    )]
    Origin(String),
    #[error("--embed-origins {0:?}: an origin is scheme://host[:port], e.g. https://team.example")]
    EmbedOrigin(String),
    #[error("{0}")]
    Nats(String),
    #[error(transparent)]
    Colours(#[from] crate::colours::ColoursError),
    #[error("{what} must be {rule}, not {value}")]
    Value {
        what: &'static str,
        rule: &'static str,
        value: String,
    },
}

/// Where a match's frames come from.
pub enum SourceSpec {
    Server(MonitorConfig),
    Replay(ReplayConfig),
}

pub struct MatchSpec {
    pub name: String,
    pub source: SourceSpec,
}

/// Everything the relay needs to run.
pub struct Settings {
    pub listen: SocketAddr,
    pub matches: Vec<MatchSpec>,
    pub max_spectators: usize,
    pub record: Option<PathBuf>,
    /// Directories listed by the archive, the recording directory among them.
    pub archive: Vec<PathBuf>,
    /// Tournament files (`--tournament`).
    pub tournaments: Vec<PathBuf>,
    /// Runs the operator may start (`--run`), read and checked.
    pub runs: Vec<crate::runs::RunSpec>,
    /// The program that plays a run: `pitchside-play` beside the relay, else on `PATH`.
    pub play_program: PathBuf,
    /// How far every broadcast view trails live play (`--broadcast-delay`). The page does
    /// the delaying: the relay only says by how much, so one relay serves the live page and
    /// the delayed stream from the same history.
    pub broadcast_delay: Duration,
    /// `--team-colours`, read and checked: the teams' kits, read again when the file
    /// changes.
    pub team_colours: Option<Arc<crate::colours::TeamColours>>,
    /// Bytes of history per match.
    pub history_cap: usize,
    pub dist: PathBuf,
    pub send_timeout: Duration,
    /// Live items a spectator may fall behind.
    pub lag: usize,
    /// How long a frame may wait for a spectator before that spectator skips it.
    pub max_delay: Duration,
    /// HTTPS and WSS instead of HTTP and WS (`--tls-cert`, `--tls-key`).
    pub tls: Option<Arc<tokio_rustls::rustls::ServerConfig>>,
    /// The operator's token; `None` makes [`crate::run`] draw a random one.
    pub control_token: Option<String>,
    /// `--publish`: also publish every match to NATS.
    pub publish: Option<crate::nats::NatsOptions>,
    /// `--edge`: no sources of its own; serve what an origin publishes on NATS.
    pub edge: Option<crate::nats::NatsOptions>,
    /// Client connections: time limits and caps.
    pub limits: crate::connections::Limits,
    /// Origins whose pages may call the control endpoint (CORS).
    pub cors_origins: Vec<String>,
    /// Who may frame the embed view; empty: anyone.
    pub embed_origins: Vec<String>,
    /// `--debug-port`: where the agents' debug-client messages arrive.
    pub debug_port: Option<SocketAddr>,
    /// `--team-key`: each team's key to its debug stream.
    pub team_keys: Vec<(String, String)>,
}

impl Settings {
    /// Defaults around the given matches (for tests and embedding).
    pub fn new(matches: Vec<MatchSpec>) -> Settings {
        Settings {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            matches,
            max_spectators: DEFAULT_MAX_SPECTATORS,
            record: None,
            archive: Vec::new(),
            tournaments: Vec::new(),
            runs: Vec::new(),
            play_program: crate::runs::Runs::default_program(),
            broadcast_delay: Duration::ZERO,
            team_colours: None,
            history_cap: DEFAULT_HISTORY_MB << 20,
            dist: PathBuf::from("dist"),
            send_timeout: Duration::from_secs_f64(DEFAULT_SEND_TIMEOUT),
            lag: DEFAULT_LAG,
            max_delay: crate::fanout::DEFAULT_MAX_DELAY,
            tls: None,
            control_token: None,
            publish: None,
            edge: None,
            limits: crate::connections::Limits::default(),
            cors_origins: Vec::new(),
            embed_origins: Vec::new(),
            debug_port: None,
            team_keys: Vec::new(),
        }
    }
}

/// `scheme://host[:port]` with nothing after it, as browsers send in `Origin`.
fn valid_origin(origin: &str) -> bool {
    let Some((scheme, rest)) = origin.split_once("://") else {
        return false;
    };
    matches!(scheme, "http" | "https")
        && !rest.is_empty()
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
}

/// `--debug-port`: a bare port is on loopback (agents on the relay's machine); anything else
/// is named. Not the listener's address: a relay that spectators reach from anywhere would
/// then take any stranger's datagrams into the teams' streams.
fn debug_address(text: &str) -> Result<SocketAddr, ConfigError> {
    let text = text.trim();
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    text.parse()
        .map_err(|_| ConfigError::DebugPort(text.to_owned()))
}

/// The longest match name.
pub const MAX_NAME: usize = 64;

/// A match name goes into URLs and file names: letters, digits, `.`, `_` and `-` only.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        && !name.starts_with('.')
}

/// `HOST:PORT` as a name: `:` becomes `-`, anything else not allowed in a name too.
pub fn name_from_address(addr: &str) -> String {
    // Cut to the longest name allowed: a long file or host name still names its match
    // (found by fuzzing the config file).
    addr.chars()
        .filter(|c| !matches!(c, '[' | ']'))
        .take(MAX_NAME)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// A log's name without `.gz` and `.rcg`.
pub fn name_from_file(path: &Path) -> String {
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = file.strip_suffix(".gz").unwrap_or(&file);
    let stem = stem.strip_suffix(".rcg").unwrap_or(stem);
    name_from_address(stem)
}

/// `NAME=VALUE` or `VALUE`. A `=` inside an IPv6 address or a path is unusual enough that
/// the first `=` is taken as the separator when what precedes it is a valid name.
fn split_named(spec: &str) -> (Option<&str>, &str) {
    match spec.split_once('=') {
        Some((name, value)) if valid_name(name) => (Some(name), value),
        _ => (None, spec),
    }
}

fn check_compression(c: Option<i32>) -> Result<Option<i32>, ConfigError> {
    match c {
        Some(n) if !(0..=9).contains(&n) => Err(ConfigError::Compression(n)),
        c => Ok(c),
    }
}

/// The longest `--broadcast-delay`: ten minutes covers any stream's need to hide what the
/// teams' coaches might otherwise watch, and keeps a typo (milliseconds for seconds) from
/// holding a stream back for hours.
pub const MAX_BROADCAST_DELAY: f64 = 600.0;

fn broadcast_delay(v: f64) -> Result<Duration, ConfigError> {
    if v.is_finite() && (0.0..=MAX_BROADCAST_DELAY).contains(&v) {
        Ok(Duration::from_secs_f64(v))
    } else {
        Err(ConfigError::Value {
            what: "--broadcast-delay",
            rule: "a number of seconds from 0 to 600 (fractions allowed)",
            value: v.to_string(),
        })
    }
}

fn positive(what: &'static str, v: f64) -> Result<f64, ConfigError> {
    if v.is_finite() && v > 0.0 && v <= 1e6 {
        Ok(v)
    } else {
        Err(ConfigError::Value {
            what,
            rule: "a positive number",
            value: v.to_string(),
        })
    }
}

impl Cli {
    /// The command line laid over the config file (`--config`): an option given on the
    /// command line or in its environment variable wins; lists and team keys from the file
    /// come first, matches from the file before `--server` and `--replay`.
    fn over_config_file(self) -> Result<Cli, ConfigError> {
        let Some(path) = self.config.clone() else {
            return Ok(self);
        };
        let toml_error = |message: String| ConfigError::Toml {
            path: path.clone(),
            message,
        };
        let text = std::fs::read_to_string(&path).map_err(|source| ConfigError::Read {
            path: path.clone(),
            source,
        })?;
        let mut file: Cli = toml::from_str(&text).map_err(|e| toml_error(e.to_string()))?;
        file.paths_from(path.parent().unwrap_or(Path::new("")));
        let mut table = toml::Table::try_from(&file).map_err(|e| toml_error(e.to_string()))?;
        let given = toml::Table::try_from(&self).map_err(|e| toml_error(e.to_string()))?;
        for (key, value) in given {
            // What the command line did not give: an empty list, a flag not set (absent
            // options are left out of the table already).
            let unset = matches!(&value, toml::Value::Array(a) if a.is_empty())
                || value == toml::Value::Boolean(false);
            // Team keys add up, the command line's last so that they replace the file's.
            if !unset && key != "team_keys" {
                table.insert(key, value);
            }
        }
        let mut merged: Cli = table.try_into().map_err(|e| toml_error(e.to_string()))?;
        merged.team_keys.extend(self.team_keys);
        merged.matches = file.matches;
        (merged.config, merged.server, merged.replay) = (self.config, self.server, self.replay);
        Ok(merged)
    }

    /// Paths in a config file are relative to the file, not to where the relay was started.
    fn paths_from(&mut self, base: &Path) {
        let single = [
            &mut self.record,
            &mut self.team_colours,
            &mut self.dist,
            &mut self.tls_cert,
            &mut self.tls_key,
            &mut self.control_token_file,
            &mut self.nats_nkey,
        ];
        let replays = self.matches.iter_mut().filter_map(|m| m.replay.as_mut());
        let lists = self
            .archive
            .iter_mut()
            .chain(&mut self.tournament)
            .chain(&mut self.run);
        for path in single.into_iter().flatten().chain(lists).chain(replays) {
            *path = base.join(&*path);
        }
    }

    /// Merges the command line, the config file and the defaults, and reads replay files.
    pub fn settings(self) -> Result<Settings, ConfigError> {
        let o = self.over_config_file()?;
        let protocol: Protocol = match o.protocol.clone() {
            Some(p) => p.parse()?,
            None => Protocol::V5,
        };
        let compression = check_compression(o.compression)?;
        let speed = positive("--speed", o.speed.unwrap_or(1.0))?;
        let silence = positive("--silence", o.silence.unwrap_or(DEFAULT_SILENCE))?;
        let send_timeout = positive(
            "--send-timeout",
            o.send_timeout.unwrap_or(DEFAULT_SEND_TIMEOUT),
        )?;
        let looping = !o.replay_once;
        let step = Duration::from_secs_f64(0.1 / speed);

        let server = |address: String, protocol: Protocol, compression: Option<i32>| {
            let mut mc = MonitorConfig::new(address);
            mc.protocol = protocol;
            mc.compression = compression;
            mc.silence = Duration::from_secs_f64(silence);
            SourceSpec::Server(mc)
        };
        let replay = |path: &Path| -> Result<SourceSpec, ConfigError> {
            let bytes = std::fs::read(path).map_err(|source| ConfigError::Read {
                path: path.to_owned(),
                source,
            })?;
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            Ok(SourceSpec::Replay(ReplayConfig {
                script: Arc::new(Script::from_log(&name, &bytes)?),
                step,
                looping,
            }))
        };

        let mut matches = Vec::new();
        for m in &o.matches {
            let spec = format!("{m:?}");
            let p = match &m.protocol {
                Some(p) => p.parse()?,
                None => protocol,
            };
            let c = check_compression(m.compression.or(compression))?;
            let (name, source) = match (&m.server, &m.replay) {
                (Some(addr), None) => (
                    m.name.clone().unwrap_or_else(|| name_from_address(addr)),
                    server(addr.clone(), p, c),
                ),
                (None, Some(path)) => {
                    (
                        m.name.clone().unwrap_or_else(|| name_from_file(path)),
                        replay(path)?,
                    )
                }
                _ => {
                    return Err(ConfigError::Match {
                        spec,
                        reason: "a [[match]] needs exactly one of server = \"HOST:PORT\" or replay = \"FILE\"".into(),
                    })
                }
            };
            matches.push((spec, name, source));
        }
        for s in &o.server {
            let (name, addr) = split_named(s);
            if !addr.contains(':') {
                return Err(ConfigError::Match {
                    spec: s.clone(),
                    reason: "--server wants HOST:PORT, e.g. 127.0.0.1:6000".into(),
                });
            }
            let name = name.map_or_else(|| name_from_address(addr), str::to_owned);
            matches.push((
                s.clone(),
                name,
                server(addr.to_owned(), protocol, compression),
            ));
        }
        for r in &o.replay {
            let (name, file) = split_named(r);
            let path = PathBuf::from(file);
            let name = name.map_or_else(|| name_from_file(&path), str::to_owned);
            matches.push((r.clone(), name, replay(&path)?));
        }
        let edge_url = o.edge.clone();
        let publish_url = o.publish.clone();
        if edge_url.is_some() && (!matches.is_empty() || publish_url.is_some()) {
            return Err(ConfigError::Nats(
                "--edge serves what an origin publishes: it takes no --server, --replay, [[match]] or --publish".into(),
            ));
        }
        if matches.is_empty() && edge_url.is_none() {
            let script = Script::from_log(crate::replay::BUNDLED_NAME, crate::replay::BUNDLED_LOG)?;
            matches.push((
                "bundled".into(),
                "demo".into(),
                SourceSpec::Replay(ReplayConfig {
                    script: Arc::new(script),
                    step,
                    looping,
                }),
            ));
        }
        let mut out: Vec<MatchSpec> = Vec::new();
        for (spec, name, source) in matches {
            if !valid_name(&name) {
                return Err(ConfigError::Match {
                    spec,
                    reason: format!(
                        "{name:?} cannot be a match name: use letters, digits, '.', '_' and '-', at most {MAX_NAME}"
                    ),
                });
            }
            if out.iter().any(|m| m.name == name) {
                return Err(ConfigError::Duplicate(name));
            }
            out.push(MatchSpec { name, source });
        }

        let mut settings = Settings::new(out);
        settings.listen = match o.listen {
            Some(a) => a,
            None => DEFAULT_LISTEN.parse().map_err(|_| ConfigError::Value {
                what: "--listen",
                rule: "ADDR:PORT",
                value: DEFAULT_LISTEN.into(),
            })?,
        };
        settings.max_spectators = o.max_spectators.unwrap_or(DEFAULT_MAX_SPECTATORS);
        settings.record = o.record;
        settings.archive = o.archive.clone();
        settings.tournaments = o.tournament.clone();
        for file in &o.run {
            let spec = crate::runs::read_run_file(file)?;
            if settings.runs.iter().any(|r| r.name == spec.name) {
                return Err(ConfigError::Value {
                    what: "--run",
                    rule: "one run file per name",
                    value: file.display().to_string(),
                });
            }
            // The archive lists the run's folder, so that its series page follows it.
            if !settings.archive.iter().any(|a| spec.out.starts_with(a)) {
                settings.archive.push(spec.out.clone());
            }
            settings.runs.push(spec);
        }
        settings.broadcast_delay = broadcast_delay(o.broadcast_delay.unwrap_or(0.0))?;
        // Read now: a mistake in the file stops the start, saying where it is.
        settings.team_colours = match o.team_colours.clone() {
            Some(path) => Some(Arc::new(crate::colours::TeamColours::load(&path)?)),
            None => None,
        };
        if let Some(r) = &settings.record {
            if !settings.archive.contains(r) {
                settings.archive.push(r.clone());
            }
        }
        let mb = o.history_mb.unwrap_or(DEFAULT_HISTORY_MB);
        if mb == 0 {
            return Err(ConfigError::Value {
                what: "--history-mb",
                rule: "at least 1",
                value: "0".into(),
            });
        }
        settings.history_cap = mb.saturating_mul(1 << 20);
        settings.dist = o.dist.unwrap_or_else(|| PathBuf::from("dist"));
        settings.send_timeout = Duration::from_secs_f64(send_timeout);
        settings.lag = o.lag.unwrap_or(DEFAULT_LAG).max(2);
        if let Some(ms) = o.max_delay {
            settings.max_delay = Duration::from_millis(ms);
        }
        let tls_cert = o.tls_cert;
        let tls_key = o.tls_key;
        settings.tls = match (tls_cert, tls_key) {
            (Some(cert), Some(key)) => Some(crate::tls::server_config(&cert, &key)?),
            (Some(_), None) => return Err(ConfigError::TlsHalf("--tls-key")),
            (None, Some(_)) => return Err(ConfigError::TlsHalf("--tls-cert")),
            (None, None) => None,
        };
        let token_file = o.control_token_file;
        settings.control_token = match (o.control_token, token_file) {
            (Some(_), Some(_)) => return Err(ConfigError::TokenTwice),
            (Some(t), None) => Some(t),
            (None, Some(path)) => {
                let text = std::fs::read_to_string(&path).map_err(|source| ConfigError::Read {
                    path: path.clone(),
                    source,
                })?;
                Some(text.lines().next().unwrap_or("").trim().to_owned())
            }
            (None, None) => None,
        };
        let secs = |what: &'static str,
                    v: Option<f64>,
                    default: Duration|
         -> Result<Duration, ConfigError> {
            match v {
                Some(v) => Ok(Duration::from_secs_f64(positive(what, v)?)),
                None => Ok(default),
            }
        };
        let defaults = crate::connections::Limits::default();
        settings.limits = crate::connections::Limits {
            header_timeout: secs(
                "--header-timeout",
                o.header_timeout,
                defaults.header_timeout,
            )?,
            idle_timeout: secs("--idle-timeout", o.idle_timeout, defaults.idle_timeout)?,
            handshake_timeout: secs(
                "--tls-handshake-timeout",
                o.tls_handshake_timeout,
                defaults.handshake_timeout,
            )?,
            per_address: o.max_per_address.unwrap_or(defaults.per_address),
            max_connections: o.max_connections,
        };
        if settings.limits.per_address == 0 || settings.limits.max_connections == Some(0) {
            return Err(ConfigError::Value {
                what: "--max-per-address and --max-connections",
                rule: "at least 1",
                value: "0".into(),
            });
        }
        settings.cors_origins = o.cors_origin.clone();
        if let Some(bad) = settings.cors_origins.iter().find(|o| !valid_origin(o)) {
            return Err(ConfigError::Origin(bad.clone()));
        }
        settings.embed_origins = o.embed_origins.clone();
        if let Some(bad) = settings.embed_origins.iter().find(|o| !valid_origin(o)) {
            return Err(ConfigError::EmbedOrigin(bad.clone()));
        }
        if let Some(t) = &settings.control_token {
            crate::control::check_token(t).map_err(|rule| ConfigError::Token { rule })?;
        }
        settings.debug_port = match o.debug_port {
            None => None,
            Some(text) => Some(debug_address(&text)?),
        };
        let mut keys: Vec<(String, String)> = Vec::new();
        for pair in &o.team_keys {
            let Some((team, key)) = pair.split_once('=') else {
                return Err(ConfigError::TeamKey(pair.clone(), "is missing".into()));
            };
            keys.retain(|(t, _)| t != team);
            keys.push((team.to_owned(), key.to_owned()));
        }
        for (team, key) in &keys {
            crate::control::check_token(key).map_err(|rule| {
                ConfigError::TeamKey(format!("{team}=…"), format!("must have {rule}"))
            })?;
            // A key opens one stream: shared with another team or the operator, it would
            // open the wrong one.
            if keys.iter().filter(|(_, k)| k == key).count() > 1 {
                return Err(ConfigError::TeamKey(
                    format!("{team}=…"),
                    "is another team's key too: give each team its own".into(),
                ));
            }
            if settings.control_token.as_deref() == Some(key.as_str()) {
                return Err(ConfigError::TeamKey(
                    format!("{team}=…"),
                    "is the operator's control token: give the team its own".into(),
                ));
            }
        }
        settings.team_keys = keys;
        if edge_url.is_some() || publish_url.is_some() {
            let user = o.nats_user;
            let password = o.nats_password;
            if user.is_some() != password.is_some() {
                return Err(ConfigError::Nats(
                    "--nats-user and --nats-password go together".into(),
                ));
            }
            let nkey_seed = match o.nats_nkey {
                Some(path) => {
                    let text =
                        std::fs::read_to_string(&path).map_err(|source| ConfigError::Read {
                            path: path.clone(),
                            source,
                        })?;
                    // The file may be what `nk -gen user` prints: the seed is the line with SU….
                    let seed = text
                        .lines()
                        .map(str::trim)
                        .find(|l| l.starts_with("SU"))
                        .ok_or_else(|| {
                            ConfigError::Nats(format!(
                                "{}: no nkey user seed (a line starting with SU)",
                                path.display()
                            ))
                        })?;
                    Some(seed.to_owned())
                }
                None => None,
            };
            let mb = o.nats_stream_mb.unwrap_or(256);
            if mb == 0 {
                return Err(ConfigError::Value {
                    what: "--nats-stream-mb",
                    rule: "at least 1",
                    value: "0".into(),
                });
            }
            let hours = positive("--nats-stream-hours", o.nats_stream_hours.unwrap_or(24.0))?;
            let options = |url: String| {
                let mut o = crate::nats::NatsOptions::new(url);
                o.user = user.clone();
                o.password = password.clone();
                o.nkey_seed = nkey_seed.clone();
                o.stream_bytes = i64::try_from(mb.saturating_mul(1 << 20)).unwrap_or(i64::MAX);
                o.stream_age = Duration::from_secs_f64(hours * 3600.0);
                o
            };
            settings.publish = publish_url.map(options);
            settings.edge = edge_url.map(options);
        }
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Settings, ConfigError> {
        let mut all = vec!["pitchside-relay"];
        all.extend_from_slice(args);
        Cli::try_parse_from(all).unwrap().settings()
    }

    fn fixture(rel: &str) -> String {
        format!("{}/../tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"))
    }

    /// Found by fuzzing the config file: a long host or file name made a name the relay then
    /// refused as if its characters were wrong.
    #[test]
    fn a_long_address_or_file_still_names_its_match() {
        let long = format!("rcss.{}.venue.lan:6000", "b".repeat(100));
        let name = name_from_address(&long);
        assert_eq!(name.len(), MAX_NAME);
        assert!(valid_name(&name), "{name}");
        let file = name_from_file(Path::new(&format!("/logs/{}.rcg.gz", "x".repeat(200))));
        assert!(valid_name(&file), "{file}");
    }

    #[test]
    fn servers_and_replays_are_named_as_the_issue_says() {
        let log = fixture("logs/short-v2/20261122132541-SHORT_L_a_0-vs-SHORT_R_a_0.rcg.gz");
        let s = parse(&[
            "--server",
            "127.0.0.1:6000",
            "--server",
            "field-b=rcss-b.local:6001",
            "--replay",
            &log,
            "--replay",
            &format!("final={log}"),
            "--protocol",
            "json",
            "--compression",
            "6",
        ])
        .unwrap();
        let names: Vec<_> = s.matches.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "127.0.0.1-6000",
                "field-b",
                "20261122132541-SHORT_L_a_0-vs-SHORT_R_a_0",
                "final"
            ]
        );
        match &s.matches[1].source {
            SourceSpec::Server(mc) => {
                assert_eq!(mc.address, "rcss-b.local:6001");
                assert_eq!(mc.protocol, Protocol::Json);
                assert_eq!(mc.compression, Some(6));
            }
            SourceSpec::Replay(_) => panic!("a server"),
        }
        assert_eq!(s.max_spectators, 10_000);
    }

    #[test]
    fn mistakes_are_explained() {
        assert!(matches!(
            parse(&["--protocol", "7"]),
            Err(ConfigError::Protocol(_))
        ));
        assert!(matches!(
            parse(&["--compression", "10"]),
            Err(ConfigError::Compression(10))
        ));
        assert!(matches!(
            parse(&["--server", "a=h:1", "--server", "a=h:2"]),
            Err(ConfigError::Duplicate(_))
        ));
        assert!(matches!(
            parse(&["--server", "localhost"]),
            Err(ConfigError::Match { .. })
        ));
        assert!(matches!(
            parse(&["--tls-cert", "cert.pem"]),
            Err(ConfigError::TlsHalf("--tls-key"))
        ));
        let e = parse(&["--tls-cert", "/no/cert.pem", "--tls-key", "/no/key.pem"])
            .err()
            .unwrap();
        assert!(e.to_string().contains("/no/cert.pem"), "{e}");
        let e = parse(&["--replay", "/no/such/file.rcg"]).err().unwrap();
        assert!(e.to_string().contains("/no/such/file.rcg"), "{e}");
    }

    #[test]
    fn the_config_file_gives_matches_and_options() {
        let dir = std::env::temp_dir().join(format!("pitchside-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = fixture("logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz");
        let path = dir.join("relay.toml");
        std::fs::write(
            &path,
            format!(
                r#"
listen = "0.0.0.0:9000"
protocol = 3
max_spectators = 500
history_mb = 16
tournament = ["cups/spring.toml"]

[[match]]
name = "field-a"
server = "10.0.0.11:6000"
protocol = "json"
compression = 1

[[match]]
replay = "{log}"
"#
            ),
        )
        .unwrap();
        let s = parse(&["--config", path.to_str().unwrap(), "--server", "h:6000"]).unwrap();
        assert_eq!(s.listen, "0.0.0.0:9000".parse().unwrap());
        assert_eq!(s.max_spectators, 500);
        assert_eq!(s.history_cap, 16 << 20);
        // Paths in the file are the file's: beside it, not where the relay was started.
        assert_eq!(s.tournaments, vec![dir.join("cups/spring.toml")]);
        let s2 = parse(&[
            "--config",
            path.to_str().unwrap(),
            "--tournament",
            "a.toml,b.toml",
        ]);
        assert_eq!(
            s2.unwrap().tournaments,
            vec![PathBuf::from("a.toml"), PathBuf::from("b.toml")]
        );
        let names: Vec<_> = s.matches.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "field-a",
                "20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1",
                "h-6000"
            ]
        );
        match (&s.matches[0].source, &s.matches[2].source) {
            (SourceSpec::Server(a), SourceSpec::Server(b)) => {
                assert_eq!((a.protocol, a.compression), (Protocol::Json, Some(1)));
                assert_eq!((b.protocol, b.compression), (Protocol::V3, None));
            }
            _ => panic!("two servers"),
        }
        std::fs::write(&path, "listen = 5\n").unwrap();
        assert!(matches!(
            parse(&["--config", path.to_str().unwrap()]),
            Err(ConfigError::Toml { .. })
        ));
        // The file takes the options, not what only the command line may say.
        for line in ["server = \"h:6000\"\n", "config = \"other.toml\"\n"] {
            std::fs::write(&path, line).unwrap();
            let e = parse(&["--config", path.to_str().unwrap()]).err().unwrap();
            assert!(e.to_string().contains("unknown field"), "{line}: {e}");
        }
        std::fs::write(&path, "[[match]]\nname = \"x\"\n").unwrap();
        assert!(matches!(
            parse(&["--config", path.to_str().unwrap()]),
            Err(ConfigError::Match { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn every_option_has_an_environment_variable_and_lists_split_on_commas() {
        use clap::CommandFactory;
        for a in Cli::command().get_arguments() {
            let id = a.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            let env = a
                .get_env()
                .map(|e| e.to_string_lossy().into_owned())
                .unwrap_or_default();
            let want = format!("PITCHSIDE_{}", id.to_ascii_uppercase());
            assert_eq!(env, want, "--{id}");
        }
        // The same splitting applies to PITCHSIDE_SERVER=a=h:1,b=h:2.
        let s = parse(&["--server", "a=h:1,b=h:2"]).unwrap();
        let names: Vec<_> = s.matches.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
    }

    /// The book's options table (`docs/src/relay.md`) says what `--help` says: the same options, variables and
    /// defaults. A default in the table is a literal (`64`) exactly when the help gives it as
    /// `[default: 64]`; anything else (none, or a default in words) is said in words.
    #[test]
    fn the_books_options_table_is_the_help() {
        use clap::CommandFactory;
        let readme =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/src/relay.md"))
                .expect("the book's chapter on running a relay");
        let table: Vec<Vec<String>> = readme
            .lines()
            .skip_while(|l| !l.starts_with("| option | environment | default |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|l| {
                // Cells split on `|` outside backticks (`1\|2` is an escaped bar).
                l.replace("\\|", "/")
                    .trim_matches('|')
                    .split('|')
                    .map(|c| c.trim().to_owned())
                    .collect()
            })
            .collect();
        assert!(table.len() > 30, "the options table in the book");
        let literal = |cell: &str| {
            (cell.len() > 2
                && cell.starts_with('`')
                && cell.ends_with('`')
                && !cell[1..].contains("` "))
            .then(|| cell.trim_matches('`').to_owned())
        };
        let mut seen = Vec::new();
        for a in Cli::command().get_arguments() {
            let Some(long) = a.get_long() else { continue };
            if long == "help" || long == "version" {
                continue;
            }
            let row = table
                .iter()
                .find(|r| r[0].starts_with(&format!("`--{long}")))
                .unwrap_or_else(|| panic!("--{long} is not in the book's options table"));
            seen.push(row[0].clone());
            let env = a.get_env().map(|e| e.to_string_lossy().into_owned());
            assert_eq!(Some(row[1].trim_matches('`').to_owned()), env, "--{long}");
            let help = a
                .get_help()
                .map(|h| h.to_string())
                .unwrap_or_default()
                .replace('\n', " ");
            let said = help
                .split_once("[default: ")
                .and_then(|(_, rest)| rest.split_once(']'))
                .map(|(d, _)| d.to_owned())
                // A default in words ("the open-files limit less …") is said in words.
                .filter(|d| !d.contains(' '));
            assert_eq!(
                literal(&row[2]),
                said,
                "--{long}: book {:?}, help {help:?}",
                row[2]
            );
        }
        assert_eq!(
            seen.len(),
            table.len(),
            "rows in the book that are no option"
        );
    }

    #[test]
    fn the_debug_port_and_team_keys_are_read_from_every_place() {
        let s = parse(&[]).unwrap();
        assert_eq!(s.debug_port, None, "off unless given");
        assert!(s.team_keys.is_empty());
        let s = parse(&["--listen", "0.0.0.0:8080", "--debug-port", "6032"]).unwrap();
        assert_eq!(
            s.debug_port,
            Some("127.0.0.1:6032".parse().unwrap()),
            "a bare port never opens to where spectators come from"
        );
        let s = parse(&["--debug-port", "0.0.0.0:7000"]).unwrap();
        assert_eq!(s.debug_port, Some("0.0.0.0:7000".parse().unwrap()));
        assert!(matches!(
            parse(&["--debug-port", "sixty"]),
            Err(ConfigError::DebugPort(_))
        ));
        let s = parse(&[
            "--team-key",
            "HELIOS_A=key-of-helios-a-0001",
            "--team-key",
            "HELIOS_B=key-of-helios-b-0002",
        ])
        .unwrap();
        assert_eq!(
            s.team_keys,
            vec![
                ("HELIOS_A".to_owned(), "key-of-helios-a-0001".to_owned()),
                ("HELIOS_B".to_owned(), "key-of-helios-b-0002".to_owned())
            ]
        );
        for bad in ["HELIOS_A", "HELIOS_A=short", "HELIOS_A=has space in it ok"] {
            let e = parse(&["--team-key", bad]).err().expect(bad).to_string();
            assert!(e.contains("--team-key"), "{e}");
            assert!(
                !e.contains("short") && !e.contains("space"),
                "keys stay out of messages: {e}"
            );
        }
        let twice = parse(&[
            "--team-key",
            "HELIOS_A=the-same-key-for-both",
            "--team-key",
            "HELIOS_B=the-same-key-for-both",
        ]);
        assert!(matches!(twice, Err(ConfigError::TeamKey(..))));
        let operator = parse(&[
            "--control-token",
            "the-operators-own-token",
            "--team-key",
            "HELIOS_A=the-operators-own-token",
        ]);
        assert!(matches!(operator, Err(ConfigError::TeamKey(..))));
        let dir =
            std::env::temp_dir().join(format!("pitchside-debug-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("relay.toml");
        std::fs::write(
            &path,
            "debug_port = 6032\n[team_keys]\nHELIOS_A = \"file-key-of-helios-a\"\n",
        )
        .unwrap();
        let s = parse(&["--config", path.to_str().unwrap()]).unwrap();
        assert_eq!(s.debug_port, Some("127.0.0.1:6032".parse().unwrap()));
        assert_eq!(
            s.team_keys,
            vec![("HELIOS_A".to_owned(), "file-key-of-helios-a".to_owned())]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_control_token_is_taken_only_when_it_resists_guessing() {
        assert_eq!(parse(&[]).unwrap().control_token, None, "drawn at start");
        let s = parse(&["--control-token", "tournament-field-a-2026"]).unwrap();
        assert_eq!(s.control_token.as_deref(), Some("tournament-field-a-2026"));
        assert!(matches!(
            parse(&["--control-token", "secret"]),
            Err(ConfigError::Token { .. })
        ));
        assert!(matches!(
            parse(&["--control-token", "a token with spaces in it"]),
            Err(ConfigError::Token { .. })
        ));
    }

    #[test]
    fn nats_options_carry_credentials_and_limits() {
        let dir = std::env::temp_dir().join(format!("pitchside-nkey-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let seed = dir.join("edge.nk");
        // What `nk -gen user -pubout` prints: the seed, then the public key.
        std::fs::write(&seed, "SUAMLK2ZNL35WSMW37E7UD4VZ7ELPKW7DHC3BWBSD2GCZ7IUQQXZIORRBU\nUDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF4\n").unwrap();
        let s = parse(&[
            "--edge",
            "nats://10.0.0.2:4222",
            "--nats-nkey",
            seed.to_str().unwrap(),
            "--nats-stream-mb",
            "64",
            "--nats-stream-hours",
            "2",
        ])
        .unwrap();
        let o = s.edge.unwrap();
        assert!(s.publish.is_none());
        assert_eq!(o.url, "nats://10.0.0.2:4222");
        assert_eq!(
            o.nkey_seed.as_deref(),
            Some("SUAMLK2ZNL35WSMW37E7UD4VZ7ELPKW7DHC3BWBSD2GCZ7IUQQXZIORRBU")
        );
        assert_eq!(o.stream_bytes, 64 << 20);
        assert_eq!(o.stream_age, Duration::from_secs(7200));
        let s = parse(&[
            "--server",
            "h:6000",
            "--publish",
            "nats://n:4222",
            "--nats-user",
            "origin",
            "--nats-password",
            "pw",
        ])
        .unwrap();
        let o = s.publish.unwrap();
        assert_eq!(
            (o.user.as_deref(), o.password.as_deref()),
            (Some("origin"), Some("pw"))
        );
        assert!(matches!(
            parse(&["--edge", "nats://n:4222", "--nats-user", "u"]),
            Err(ConfigError::Nats(_))
        ));
        std::fs::write(&seed, "not a seed\n").unwrap();
        assert!(matches!(
            parse(&[
                "--edge",
                "nats://n:4222",
                "--nats-nkey",
                seed.to_str().unwrap()
            ]),
            Err(ConfigError::Nats(_))
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_broadcast_delay_and_team_colours_come_from_the_command_line_and_the_file() {
        let s = parse(&[]).unwrap();
        assert_eq!(s.broadcast_delay, Duration::ZERO, "live unless asked");
        assert!(s.team_colours.is_none());
        let s = parse(&["--broadcast-delay", "2.5"]).unwrap();
        assert_eq!(s.broadcast_delay, Duration::from_millis(2500));
        assert_eq!(
            parse(&["--broadcast-delay", "600"])
                .unwrap()
                .broadcast_delay,
            Duration::from_secs(600)
        );
        for bad in ["-1", "600.5", "NaN", "inf"] {
            let e = parse(&["--broadcast-delay", bad])
                .err()
                .expect(bad)
                .to_string();
            assert_eq!(
                e,
                format!(
                    "--broadcast-delay must be a number of seconds from 0 to 600 (fractions allowed), not {}",
                    bad.parse::<f64>().unwrap()
                )
            );
        }
        let dir =
            std::env::temp_dir().join(format!("pitchside-broadcast-config-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("kits")).unwrap();
        let colours = dir.join("kits/colours.toml");
        std::fs::write(
            &colours,
            "[teams.HELIOS2024]\nhome = \"#ffd700\"\naway = \"#ffffff\"\n",
        )
        .unwrap();
        let path = dir.join("relay.toml");
        std::fs::write(
            &path,
            "broadcast_delay = 0.75\nteam_colours = \"kits/colours.toml\"\n",
        )
        .unwrap();
        let s = parse(&["--config", path.to_str().unwrap()]).unwrap();
        assert_eq!(s.broadcast_delay, Duration::from_millis(750));
        // Relative to the config file, as every path in it.
        let c = s.team_colours.expect("read");
        assert_eq!(c.path(), colours);
        assert!(c.current().0.find("HELIOS2024").is_some());
        // The command line wins over the file.
        let s = parse(&["--config", path.to_str().unwrap(), "--broadcast-delay", "0"]).unwrap();
        assert_eq!(s.broadcast_delay, Duration::ZERO);
        std::fs::write(&path, "broadcast_delay = 900\n").unwrap();
        assert!(matches!(
            parse(&["--config", path.to_str().unwrap()]),
            Err(ConfigError::Value {
                what: "--broadcast-delay",
                ..
            })
        ));
        // A mistake in the colours file stops the start, naming the file, team and key.
        std::fs::write(
            &colours,
            "[teams.HELIOS2024]\nhome = \"gold\"\naway = \"#ffffff\"\n",
        )
        .unwrap();
        let e = parse(&["--team-colours", colours.to_str().unwrap()])
            .err()
            .expect("refused")
            .to_string();
        assert!(e.contains(colours.to_str().unwrap()), "{e}");
        assert!(
            e.contains("[teams.HELIOS2024]: home = \"gold\" is not a colour"),
            "{e}"
        );
        let e = parse(&["--team-colours", "/no/such/colours.toml"])
            .err()
            .expect("refused")
            .to_string();
        assert!(e.contains("/no/such/colours.toml"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn no_match_means_the_bundled_demo() {
        let s = parse(&[]).unwrap();
        assert_eq!(s.matches.len(), 1);
        assert_eq!(s.matches[0].name, "demo");
    }
}
