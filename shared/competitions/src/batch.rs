//! A batch of games: N games of a team against an opponent, P fields (rcssserver processes)
//! at once, planned as autotest2d's `test.sh` plays a night of tests, so that a team's
//! existing start scripts work unchanged: which ports each field has, which sides each game
//! gives the teams, what rcssserver is told, and which games a folder already holds so that
//! an interrupted batch goes on where it stopped.
//!
//! Only the plan: starting, watching and stopping the processes is the runner's, which is
//! why nothing here does IO.

use std::collections::BTreeSet;

/// The first field's player port, rcssserver's default.
pub const FIRST_PORT: u16 = 6000;

/// How far apart the fields' ports are: the i-th field listens on `6000 + 1000·i`, as
/// autotest2d's servers do, leaving room for the coach ports just above each.
pub const PORT_STEP: u16 = 1000;

/// One field's three ports: players and the monitor, the trainer (offline coach), the online
/// coach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ports {
    pub player: u16,
    pub coach: u16,
    pub online_coach: u16,
}

impl Ports {
    /// The `index`-th field's ports from `first` on: `first + 1000·index` and the two after
    /// it; `None` past the last port.
    pub fn of_field(first: u16, index: u16) -> Option<Ports> {
        let player = first.checked_add(PORT_STEP.checked_mul(index)?)?;
        Some(Ports {
            player,
            coach: player.checked_add(1)?,
            online_coach: player.checked_add(2)?,
        })
    }
}

/// What makes a batch impossible, said before anything starts.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("--games must be at least 1")]
    NoGames,
    #[error("--parallel must be at least 1")]
    NoFields,
    #[error("--swap-every must be at least 1 (leave it out to keep the sides)")]
    NoSwap,
    #[error(
        "{fields} fields from port {first} go past port 65535: fewer fields or a lower first port"
    )]
    PortsRunOut { fields: u16, first: u16 },
}

/// One game of a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// From 1: the number its logs are named after.
    pub number: u32,
    /// The team plays on the right and the opponent on the left.
    pub swapped: bool,
}

/// N games on P fields, the sides swapped every K-th game when asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    games: u32,
    fields: Vec<Ports>,
    swap_every: Option<u32>,
}

impl Plan {
    pub fn new(
        games: u32,
        parallel: u16,
        swap_every: Option<u32>,
        first_port: u16,
    ) -> Result<Plan, PlanError> {
        if games == 0 {
            return Err(PlanError::NoGames);
        }
        if parallel == 0 {
            return Err(PlanError::NoFields);
        }
        if swap_every == Some(0) {
            return Err(PlanError::NoSwap);
        }
        let fields = (0..parallel)
            .map(|i| Ports::of_field(first_port, i))
            .collect::<Option<Vec<_>>>()
            .ok_or(PlanError::PortsRunOut {
                fields: parallel,
                first: first_port,
            })?;
        Ok(Plan {
            games,
            fields,
            swap_every,
        })
    }

    pub fn games(&self) -> u32 {
        self.games
    }

    /// Every field's ports, the first field first.
    pub fn fields(&self) -> &[Ports] {
        &self.fields
    }

    /// Game `number` (from 1): every K-th game has the sides swapped, so that over the batch
    /// neither side's quirks (the left team kicks off the first half) favour one team.
    pub fn game(&self, number: u32) -> Game {
        Game {
            number,
            swapped: self.swap_every.is_some_and(|k| number.is_multiple_of(k)),
        }
    }

    /// The games still to play, in order, when those numbered in `done` are already played.
    pub fn remaining<'a>(&'a self, done: &'a BTreeSet<u32>) -> impl Iterator<Item = Game> + 'a {
        (1..=self.games)
            .filter(|n| !done.contains(n))
            .map(|n| self.game(n))
    }
}

/// The name of game `number`'s logs without their extension: `game-0042` gives
/// `game-0042.rcg.gz` and `game-0042.rcl.gz`. Zero-padded so that a folder lists in playing
/// order.
pub fn log_name(number: u32) -> String {
    format!("game-{number:04}")
}

/// The game a log or its folder entry belongs to, from its name (`game-0042.rcg.gz` is 42);
/// `None` for anything else a batch folder may hold.
pub fn game_of(file_name: &str) -> Option<u32> {
    let digits = file_name.strip_prefix("game-")?;
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    let rest = &digits[end..];
    if end == 0 || !(rest.is_empty() || rest.starts_with('.')) {
        return None;
    }
    digits[..end].parse().ok()
}

/// `text` as one word for the shell rcssserver hands its start commands to.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=@,+".contains(&b));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The command rcssserver runs to start a team (`server::team_l_start`): its script with the
/// arguments autotest2d gives it, the host the team runs on, the server's host, the player
/// port, the coach port and the online-coach port, so that a team's `start_left` works as it
/// is.
pub fn start_command(script: &str, team_host: &str, server_host: &str, ports: Ports) -> String {
    let words = [
        shell_word(script),
        shell_word(team_host),
        shell_word(server_host),
        ports.player.to_string(),
        ports.coach.to_string(),
        ports.online_coach.to_string(),
    ];
    words.join(" ")
}

/// What rcssserver is told for one game.
#[derive(Clone, Debug)]
pub struct GameSetup<'a> {
    pub ports: Ports,
    /// The folder both logs go to.
    pub log_dir: &'a str,
    /// The logs' names, without `.rcg.gz` ([`log_name`] for a batch's game).
    pub name: String,
    /// The start commands of the left and the right team ([`start_command`]).
    pub left: String,
    pub right: String,
    /// A level game goes to penalties (knockout ties); off for a series, as autotest2d has it.
    pub shoot_outs: bool,
}

/// rcssserver's command-line options for one game, written as autotest2d writes them
/// (`-server::port=6000`): autotest2d's (two halves and no extra
/// time, the server starting the teams and playing on by itself, gzipped game and text logs
/// with fixed names), then `extra`, the user's own `server::`/`player::` options, which come
/// last so that they win.
pub fn server_args(setup: &GameSetup, extra: &[String]) -> Vec<String> {
    let name = setup.name.clone();
    let p = setup.ports;
    let options = [
        ("server::port", p.player.to_string()),
        ("server::coach_port", p.coach.to_string()),
        ("server::olcoach_port", p.online_coach.to_string()),
        ("server::nr_normal_halfs", "2".into()),
        ("server::nr_extra_halfs", "0".into()),
        ("server::penalty_shoot_outs", setup.shoot_outs.to_string()),
        ("server::auto_mode", "true".into()),
        ("server::game_logging", "true".into()),
        ("server::text_logging", "true".into()),
        ("server::game_log_compression", "1".into()),
        ("server::text_log_compression", "1".into()),
        ("server::game_log_fixed", "true".into()),
        ("server::text_log_fixed", "true".into()),
        ("server::game_log_fixed_name", name.clone()),
        ("server::text_log_fixed_name", name),
        ("server::game_log_dir", setup.log_dir.to_owned()),
        ("server::text_log_dir", setup.log_dir.to_owned()),
        ("server::team_l_start", setup.left.clone()),
        ("server::team_r_start", setup.right.clone()),
    ];
    options
        .iter()
        .flat_map(|(option, value)| server_option(option, value))
        .chain(extra.iter().cloned())
        .collect()
}

/// One rcssserver option as command-line words. rcssserver joins its arguments with single
/// spaces and parses the line, wrapping in single quotes any argument that holds a space, so
/// a start command given as one argument (`-server::team_l_start=./start_left host 6000 …`)
/// is refused as a whole. autotest2d gets through because its shell splits
/// `-server::team_l_start="./start_left host 6000 …"` into words; this splits the same way,
/// so the server joins the words back into one double-quoted string (two spaces in a row
/// come back too: the empty word between them joins as nothing).
fn server_option(option: &str, value: &str) -> Vec<String> {
    if value.contains(char::is_whitespace) {
        format!("-{option}=\"{value}\"")
            .split(' ')
            .map(str::to_owned)
            .collect()
    } else {
        vec![format!("-{option}={value}")]
    }
}

/// The line rcssserver 19 parses from its arguments (`rcss::conf::Parser::parse`): joined
/// with single spaces, an argument holding a space or a tab wrapped in single quotes unless it
/// is quoted already. A wrapped option is a parse error there ("while parsing
/// \"'-server::\"", as a real server said to the first version of this runner), which is why
/// [`server_args`] never hands it one. The tests' stand-in server reads its options this way.
pub fn as_rcssserver_reads(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            let quoted = a.len() >= 2
                && ((a.starts_with('"') && a.ends_with('"'))
                    || (a.starts_with('\'') && a.ends_with('\'')));
            if a.contains([' ', '\t']) && !quoted {
                format!("'{a}'")
            } else {
                a.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why a start script's or folder's path cannot be handed to rcssserver: its option parser
/// reads a `"` as the end of the value and a tab or a line break as the end of the word.
pub fn unusable_in_server_options(path: &str) -> Option<&'static str> {
    if path.contains('"') {
        Some("a double quote")
    } else if path.contains(|c: char| c.is_whitespace() && c != ' ') {
        Some("a tab or a line break")
    } else {
        None
    }
}

/// Whether a game the server played to its end counts, read from what rcssserver printed, as
/// autotest2d's `parse.awk` reads it and a little stricter: the match reached its end
/// ("Waiting after end of match", or a shoot-out's "Final score:"), no player and no online coach left before it (a crashed or
/// killed player is dropped by the server, which prints the same line a red card does), and
/// each team had eleven players. `Err` says why not, in words for the series' invalid list.
pub fn judge_server_output(printed: &str) -> Result<(), String> {
    let mut players: Vec<(String, u32)> = Vec::new();
    let mut ended = false;
    for line in printed.lines() {
        // A shoot-out's end is the match's: the players leave once it is decided, before the
        // server's wait after the match begins.
        if line.starts_with("Waiting after end of match") || line.starts_with("Final score:") {
            ended = true;
            break;
        }
        if let Some(who) = line
            .strip_prefix("A player disconnected : (")
            .and_then(|r| r.strip_suffix(')'))
        {
            return Err(format!(
                "player {who} left before the end (a crashed or killed player, or a red card)"
            ));
        }
        if let Some(team) = line
            .strip_prefix("An online coach disconnected : (")
            .and_then(|r| r.strip_suffix(')'))
        {
            return Err(format!("the online coach of {team} left before the end"));
        }
        if let Some((team, unum)) = new_player(line) {
            if !players.iter().any(|p| p.0 == team && p.1 == unum) {
                players.push((team, unum));
            }
        }
    }
    if !ended {
        return Err("the match did not reach its end".into());
    }
    let mut teams: Vec<&str> = players.iter().map(|p| p.0.as_str()).collect();
    teams.dedup();
    teams.sort_unstable();
    teams.dedup();
    if teams.len() < 2 {
        return Err(format!(
            "only {} team connected",
            if teams.is_empty() { "no" } else { "one" }
        ));
    }
    for team in teams {
        let n = players.iter().filter(|p| p.0 == team).count();
        if n < 11 {
            return Err(format!("{team} played with {n} players"));
        }
    }
    Ok(())
}

/// `(team, unum)` of rcssserver's "A new (v18) player (HELIOS_A 7) connected." line.
fn new_player(line: &str) -> Option<(String, u32)> {
    let rest = line.strip_prefix("A new (v")?;
    let (_, rest) = rest.split_once(") player (")?;
    let who = rest.strip_suffix(") connected.")?;
    let (team, unum) = who.rsplit_once(' ')?;
    Some((team.to_owned(), unum.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// autotest2d's `test.sh`: the i-th server on `DEFAULT_PORT + i * 1000`, its coach on
    /// `PORT + 1` and its online coach on `PORT + 2`.
    #[test]
    fn fields_have_autotest2d_s_ports() {
        let plan = Plan::new(300, 4, None, FIRST_PORT).unwrap();
        let players: Vec<_> = plan.fields().iter().map(|p| p.player).collect();
        assert_eq!(players, [6000, 7000, 8000, 9000]);
        assert_eq!(
            plan.fields()[2],
            Ports {
                player: 8000,
                coach: 8001,
                online_coach: 8002
            }
        );
        assert_eq!(
            Plan::new(10, 61, None, FIRST_PORT),
            Err(PlanError::PortsRunOut {
                fields: 61,
                first: 6000
            })
        );
        assert_eq!(Plan::new(0, 1, None, 6000), Err(PlanError::NoGames));
        assert_eq!(Plan::new(1, 0, None, 6000), Err(PlanError::NoFields));
        assert_eq!(Plan::new(1, 1, Some(0), 6000), Err(PlanError::NoSwap));
    }

    #[test]
    fn every_k_th_game_swaps_the_sides_and_a_batch_goes_on_where_it_stopped() {
        let plan = Plan::new(6, 2, Some(2), FIRST_PORT).unwrap();
        let swapped: Vec<_> = (1..=6).map(|n| plan.game(n).swapped).collect();
        assert_eq!(swapped, [false, true, false, true, false, true]);
        let done = BTreeSet::from([1, 2, 4]);
        let left: Vec<_> = plan.remaining(&done).map(|g| g.number).collect();
        assert_eq!(left, [3, 5, 6]);
        let kept = Plan::new(3, 1, None, FIRST_PORT).unwrap();
        assert!(kept.remaining(&BTreeSet::new()).all(|g| !g.swapped));
    }

    #[test]
    fn logs_are_named_after_their_game_and_found_again() {
        assert_eq!(log_name(42), "game-0042");
        assert_eq!(log_name(12345), "game-12345");
        for (file, game) in [
            ("game-0042.rcg.gz", Some(42)),
            ("game-0042.rcl.gz", Some(42)),
            ("game-12345.rcg", Some(12345)),
            ("game-0007", Some(7)),
            ("incomplete-game-0003.rcg", None),
            ("game-.rcg", None),
            ("game-12x.rcg", None),
            ("notes.txt", None),
        ] {
            assert_eq!(game_of(file), game, "{file}");
        }
    }

    /// rcssserver runs `team_l_start` through the shell: a script's path with a space in it
    /// must reach the shell as one word.
    #[test]
    fn start_commands_give_the_script_autotest2d_s_arguments() {
        let ports = Ports::of_field(FIRST_PORT, 1).unwrap();
        assert_eq!(
            start_command("./start_left", "localhost", "127.0.0.1", ports),
            "./start_left localhost 127.0.0.1 7000 7001 7002"
        );
        assert_eq!(
            start_command("/home/me/my team/start.sh", "localhost", "localhost", ports),
            "'/home/me/my team/start.sh' localhost localhost 7000 7001 7002"
        );
        assert_eq!(shell_word("it's"), r"'it'\''s'");
    }

    /// Game `number` on the first field, the left team started by `left`, the right by
    /// `./start_right`, both on this host.
    fn game_on_field_0<'a>(
        log_dir: &'a str,
        number: u32,
        left: &str,
        shoot_outs: bool,
    ) -> GameSetup<'a> {
        let ports = Ports::of_field(FIRST_PORT, 0).unwrap();
        GameSetup {
            ports,
            log_dir,
            name: log_name(number),
            left: start_command(left, "localhost", "localhost", ports),
            right: start_command("./start_right", "localhost", "localhost", ports),
            shoot_outs,
        }
    }

    #[test]
    fn the_server_is_told_autotest2d_s_options_and_the_user_s_last() {
        let setup = game_on_field_0("night/logs", 3, "./start_left", false);
        let args = server_args(&setup, &["-server::synch_mode=true".into()]);
        for want in [
            "-server::port=6000",
            "-server::coach_port=6001",
            "-server::olcoach_port=6002",
            "-server::nr_extra_halfs=0",
            "-server::penalty_shoot_outs=false",
            "-server::auto_mode=true",
            "-server::game_log_fixed_name=game-0003",
            "-server::text_log_dir=night/logs",
        ] {
            assert!(args.iter().any(|a| a == want), "{want} in {args:?}");
        }
        let line = as_rcssserver_reads(&args);
        assert!(
            line.contains(
                r#" -server::team_r_start="./start_right localhost localhost 6000 6001 6002" "#
            ),
            "{line}"
        );
        assert_eq!(
            args.last().map(String::as_str),
            Some("-server::synch_mode=true")
        );
    }

    /// A start script and a log folder with spaces in their paths reach the server as the
    /// shell and the folder need them, with no argument the server would wrap.
    #[test]
    fn values_with_spaces_reach_rcssserver_as_one_double_quoted_string() {
        let setup = game_on_field_0("my night/logs", 1, "/home/me/my  team/start", true);
        let args = server_args(&setup, &[]);
        assert!(args.iter().all(|a| !a.contains(' ')), "{args:?}");
        let line = as_rcssserver_reads(&args);
        for want in [
            r#" -server::game_log_dir="my night/logs" "#,
            r#" -server::team_l_start="'/home/me/my  team/start' localhost localhost 6000 6001 6002" "#,
            " -server::penalty_shoot_outs=true ",
        ] {
            assert!(line.contains(want), "{want} in {line}");
        }
        assert_eq!(unusable_in_server_options("/home/me/my team/start"), None);
        assert!(unusable_in_server_options("/tmp/a\"b").is_some());
        assert!(unusable_in_server_options("/tmp/a\tb").is_some());
    }

    fn printed(name: &str) -> String {
        String::from_utf8(pitchside_fixtures::read(&format!("server-output/{name}")))
            .expect("rcssserver prints text")
    }

    /// What real rcssserver 19 servers printed for four games played by `pitchside-play`:
    /// a whole game, one decided by a penalty shoot-out, one in which a player process was
    /// killed with SIGKILL mid-game (the server dropped him) and one in which a team started
    /// ten players. The last two played
    /// on to the end and the server ended with 0.
    #[test]
    fn a_game_counts_when_everyone_played_it_to_the_end() {
        assert_eq!(
            judge_server_output(&printed("synch-200-cycles.out.gz")),
            Ok(())
        );
        assert_eq!(
            judge_server_output(&printed("player-killed.out.gz")),
            Err(
                "player HELIOS_B 6 left before the end (a crashed or killed player, or a red card)"
                    .into()
            )
        );
        // A knockout game decided by a shoot-out: the players leave when it is decided.
        assert_eq!(judge_server_output(&printed("shoot-out.out.gz")), Ok(()));
        assert_eq!(
            judge_server_output(&printed("ten-players.out.gz")),
            Err("HELIOS_B played with 10 players".into())
        );
        let whole = printed("synch-200-cycles.out.gz");
        let cut = &whole[..whole.find("Waiting after end").expect("the end")];
        assert_eq!(
            judge_server_output(cut),
            Err("the match did not reach its end".into())
        );
        let one_team: String = whole
            .lines()
            .filter(|l| !l.contains("(HELIOS_B"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(
            judge_server_output(&one_team),
            Err("only one team connected".into())
        );
    }
}
