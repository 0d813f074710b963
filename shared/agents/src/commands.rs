//! rcssserver's message log (`server::text_logging`, a `.rcl` beside the `.rcg`): every
//! message each client sent, as `CYCLE,STOPPED<TAB>Recv TEAM_UNUM: MESSAGE` (the online
//! coach `Recv TEAM_Coach: …`, the trainer `Recv Coach: …`), and the referee's decisions as
//! `CYCLE,STOPPED<TAB>(referee DECISION)`. A message may hold several commands in a row
//! (`(turn 30)(turn_neck 10)`) and ends as the client ended it, NUL included.

use super::{shown, AgentLineError, Time};

/// Who sent a line.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Sender {
    Player {
        team: String,
        unum: u8,
    },
    /// A team's online coach.
    Coach {
        team: String,
    },
    /// The offline coach (trainer).
    Trainer,
    Referee,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Entry {
    pub time: Time,
    pub sender: Sender,
    /// Each command of the message (`(dash 100)`), or the referee's decision.
    pub commands: Vec<String>,
}

impl Entry {
    /// The command's name (`dash`, `say`…) for each command.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.commands.iter().map(|c| name(c))
    }
}

/// A command's name: the first word inside its bracket.
pub fn name(command: &str) -> &str {
    let c = command.trim_start_matches('(');
    let end = c
        .find(|ch: char| ch.is_whitespace() || ch == '(' || ch == ')')
        .unwrap_or(c.len());
    &c[..end]
}

/// Every line of `text` (whole lines, as the [`super::index`] cuts them), with an error for
/// each line that could not be read; `first_line` is the 1-based number of the first.
pub fn decode(text: &[u8], first_line: u64) -> (Vec<Entry>, Vec<AgentLineError>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        match parse_line(line) {
            Ok(e) => out.push(e),
            Err(e) => errors.push(AgentLineError::new(first_line + i as u64, e)),
        }
    }
    (out, errors)
}

pub fn parse_line(line: &[u8]) -> Result<Entry, String> {
    let (time, rest) = Time::parse_prefix(line)
        .ok_or_else(|| format!("expected CYCLE,STOPPED first, found {}", shown(line)))?;
    let rest = rest
        .strip_prefix(b"\t")
        .ok_or_else(|| format!("expected a tab after the time, found {}", shown(line)))?;
    // Clients end their messages with a NUL, which the server copies.
    let rest = String::from_utf8_lossy(rest);
    let rest = rest.trim_end_matches(['\0', ' ']);
    if let Some(decision) = rest
        .strip_prefix("(referee ")
        .and_then(|r| r.strip_suffix(')'))
    {
        return Ok(Entry {
            time,
            sender: Sender::Referee,
            commands: vec![decision.to_string()],
        });
    }
    let body = rest.strip_prefix("Recv ").ok_or_else(|| {
        format!(
            "expected \"Recv …\" or \"(referee …)\", found {}",
            shown(line)
        )
    })?;
    let (who, message) = body
        .split_once(": ")
        .ok_or_else(|| format!("expected \"Recv SENDER: MESSAGE\", found {}", shown(line)))?;
    let sender = if who == "Coach" {
        Sender::Trainer
    } else if let Some(team) = who.strip_suffix("_Coach") {
        Sender::Coach {
            team: team.to_string(),
        }
    } else {
        let (team, unum) = who
            .rsplit_once('_')
            .and_then(|(t, u)| Some((t, u.parse::<u8>().ok()?)))
            .filter(|(t, u)| !t.is_empty() && (1..=11).contains(u))
            .ok_or_else(|| format!("expected TEAM_NUMBER before the colon, found \"{who}\""))?;
        Sender::Player {
            team: team.to_string(),
            unum,
        }
    };
    Ok(Entry {
        time,
        sender,
        commands: split_commands(message),
    })
}

/// The top-level bracketed commands of a message, and any text outside brackets as it is.
fn split_commands(message: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = None;
    let mut in_string = false;
    for (i, c) in message.char_indices() {
        match c {
            '"' if depth > 0 => in_string = !in_string,
            '(' if !in_string => {
                if depth == 0 {
                    start = Some(i);
                }
                depth += 1;
            }
            ')' if !in_string && depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    if let Some(s) = start.take() {
                        out.push(message[s..=i].to_string());
                    }
                }
            }
            _ => {}
        }
    }
    // An unbalanced message is kept whole rather than lost.
    if depth != 0 || out.is_empty() {
        let m = message.trim();
        if !m.is_empty() {
            return vec![m.to_string()];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_coaches_and_the_referee() {
        let e =
            parse_line(b"57,0\tRecv HELIOS_A_7: (turn 30)(turn_neck -10)(say \"a (b\")\0").unwrap();
        assert_eq!(
            e.time,
            Time {
                cycle: 57,
                stopped: 0
            }
        );
        assert_eq!(
            e.sender,
            Sender::Player {
                team: "HELIOS_A".into(),
                unum: 7
            }
        );
        assert_eq!(
            e.commands,
            vec!["(turn 30)", "(turn_neck -10)", "(say \"a (b\")"]
        );
        assert_eq!(
            e.names().collect::<Vec<_>>(),
            vec!["turn", "turn_neck", "say"]
        );
        let r = parse_line(b"0,12\t(referee kick_off_l)").unwrap();
        assert_eq!(r.sender, Sender::Referee);
        assert_eq!(r.commands, vec!["kick_off_l"]);
        assert_eq!(
            parse_line(b"3,0\tRecv HELIOS_B_Coach: (change_player_type 2 17)")
                .unwrap()
                .sender,
            Sender::Coach {
                team: "HELIOS_B".into()
            }
        );
        assert_eq!(
            parse_line(b"3,0\tRecv Coach: (move (ball) 0 0)")
                .unwrap()
                .sender,
            Sender::Trainer
        );
        // Not a bracket: kept as it came.
        assert_eq!(
            parse_line(b"3,0\tRecv A_1: (init A (version 19)")
                .unwrap()
                .commands,
            vec!["(init A (version 19)"]
        );
    }

    #[test]
    fn bad_lines_say_where() {
        let (ok, errors) = decode(
            b"1,0\tRecv A_1: (dash 10)\n1,0 Recv A_1: x\n1,0\tRecv A_99: (dash 1)\nhello\n",
            7,
        );
        assert_eq!(ok.len(), 1);
        let lines: Vec<u64> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![8, 9, 10]);
        assert!(errors[1].what.contains("TEAM_NUMBER"), "{}", errors[1]);
    }
}
