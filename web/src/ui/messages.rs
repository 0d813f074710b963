//! The message board: every message the source holds (referee, player talk, coach, commands
//! the server received, player-type changes, team-graphic tiles, server replies, the result),
//! the referee's decisions derived from play-mode changes and cards (marked as derived: a live
//! server does not send referee messages to monitors by default), the relay's notices, and the
//! players' and coaches' says from the server's message log (`.rcl`) when one is open.
//! Filterable by kind and team; follows playback, newest at the bottom.
//!
//! The text of real messages is cleaned first: rcssserver writes stack garbage after the text
//! in v1 and `record_messages` logs (see `shared/reference/protocol-observed.md` §7).

use crate::state::Monitor;
use leptos::prelude::*;
use pitchside_analysis::events::Events;
use rcss_formats::log::Match;
use rcss_formats::params::MatchParams;
use rcss_formats::{Message, Side};

/// What a board entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `(referee …)`, as v1 and `record_messages` logs hold it.
    Referee,
    /// Derived from the frames: play-mode changes and cards, worded as the referee's decision.
    Decision,
    /// `((player TEAM N) …)`: what a player said.
    Say,
    /// `(online_coach_left …)`, `(coach …)`: what a coach said.
    Coach,
    /// `Recv TEAM_N: …` (board 2 of `record_messages` logs): commands the server received.
    Command,
    /// `(change_player_type SIDE UNUM TYPE)`.
    PlayerType,
    /// `(team_graphic_l …)`: one 8×8 tile of a team logo.
    TeamGraphic,
    /// `(ok …)`, `(error …)`, `(warning …)`: the server's replies to a monitor.
    Server,
    /// `(result …)`: the last line of a log.
    Result,
    /// The relay's notices (what it is connected to, operator actions).
    Relay,
    Other,
}

impl Kind {
    pub const ALL: [Kind; 11] = [
        Kind::Referee,
        Kind::Decision,
        Kind::Say,
        Kind::Coach,
        Kind::Command,
        Kind::PlayerType,
        Kind::TeamGraphic,
        Kind::Server,
        Kind::Result,
        Kind::Relay,
        Kind::Other,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Kind::Referee => "referee",
            Kind::Decision => "decision (derived)",
            Kind::Say => "player say",
            Kind::Coach => "coach",
            Kind::Command => "commands",
            Kind::PlayerType => "player type",
            Kind::TeamGraphic => "team graphic",
            Kind::Server => "server",
            Kind::Result => "result",
            Kind::Relay => "relay",
            Kind::Other => "other",
        }
    }

    /// The kind in an entry, where the board is narrow.
    pub fn short(self) -> &'static str {
        match self {
            Kind::Referee => "referee",
            Kind::Decision => "derived",
            Kind::Say => "say",
            Kind::Coach => "coach",
            Kind::Command => "command",
            Kind::PlayerType => "type",
            Kind::TeamGraphic => "logo",
            Kind::Server => "server",
            Kind::Result => "result",
            Kind::Relay => "relay",
            Kind::Other => "other",
        }
    }

    /// CSS class and filter id.
    pub fn id(self) -> &'static str {
        match self {
            Kind::Referee => "referee",
            Kind::Decision => "decision",
            Kind::Say => "say",
            Kind::Coach => "coach",
            Kind::Command => "command",
            Kind::PlayerType => "player-type",
            Kind::TeamGraphic => "team-graphic",
            Kind::Server => "server",
            Kind::Result => "result",
            Kind::Relay => "relay",
            Kind::Other => "other",
        }
    }

    /// Shown unless the user hides them: everything but the flood of logo tiles and of
    /// received commands (17,000 lines in a 400-cycle `record_messages` log).
    pub fn shown_by_default(self) -> bool {
        !matches!(self, Kind::TeamGraphic | Kind::Command)
    }
}

/// One line of the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub time: u32,
    /// Frames before it: the board shows the entries whose frame has been reached.
    pub position: usize,
    pub kind: Kind,
    pub side: Option<Side>,
    pub unum: Option<u8>,
    pub text: String,
}

/// The real text of a message, without the garbage rcssserver leaves after it in some logs:
/// cut at the first byte that is not printable ASCII, then, for the kinds whose end is
/// known, after their closing parenthesis.
pub fn clean(raw: &[u8]) -> String {
    let end = raw
        .iter()
        .position(|&b| !(0x20..0x7f).contains(&b))
        .unwrap_or(raw.len());
    let text = String::from_utf8_lossy(&raw[..end]).into_owned();
    if text.starts_with("((player ") {
        // `((player TEAM N) MSG)`: MSG may hold parentheses, and is at most `say_msg_size`
        // (10) characters long: the message ends at the last `)` within that reach.
        if let Some(head) = text.find(") ") {
            let reach = (head + 2 + 10 + 1).min(text.len());
            if let Some(close) = text[..reach].rfind(')') {
                if close > head {
                    return text[..=close].to_owned();
                }
            }
        }
        return text;
    }
    if text.starts_with("Recv ") {
        // `Recv NAME: (cmd …)(cmd …)`: whole commands only.
        if let Some(colon) = text.find(": ") {
            let body = &text[colon + 2..];
            let used = balanced_groups(body);
            return format!("{}{}", &text[..colon + 2], &body[..used]);
        }
        return text;
    }
    if text.starts_with('(') {
        let used = balanced_groups(&text);
        if used > 0 {
            return text[..used].to_owned();
        }
    }
    text
}

/// Length of the run of balanced `( … )` groups at the start of `s`.
fn balanced_groups(s: &str) -> usize {
    let mut depth = 0i32;
    let mut end = 0;
    let mut in_quote = false;
    for (i, c) in s.char_indices() {
        match c {
            '"' => in_quote = !in_quote,
            '(' if !in_quote => depth += 1,
            ')' if !in_quote => {
                depth -= 1;
                if depth == 0 {
                    end = i + 1;
                } else if depth < 0 {
                    break;
                }
            }
            _ if depth == 0 => break,
            _ => {}
        }
    }
    end
}

fn side_of_name(name: &str, teams: &[Option<String>; 2]) -> Option<Side> {
    if teams[0].as_deref() == Some(name) {
        Some(Side::Left)
    } else if teams[1].as_deref() == Some(name) {
        Some(Side::Right)
    } else {
        None
    }
}

fn side_letter(s: &str) -> Option<Side> {
    Side::from_letter(*s.as_bytes().first()?)
}

/// Sorts a message into the board, with its team and player where the text names them.
pub fn classify(m: &Message, position: usize, teams: &[Option<String>; 2]) -> Entry {
    let text = clean(&m.text);
    let mut e = Entry {
        time: m.time,
        position,
        kind: Kind::Other,
        side: None,
        unum: None,
        text: text.clone(),
    };
    let words = |s: &str| -> Vec<String> {
        s.trim_matches(|c| c == '(' || c == ')')
            .split_whitespace()
            .map(|w| w.trim_matches(|c| c == '(' || c == ')').to_owned())
            .collect()
    };
    if let Some(rest) = text.strip_prefix("(referee ") {
        e.kind = Kind::Referee;
        let mode = rest.trim_end_matches(')');
        e.side = mode
            .strip_suffix("_l")
            .map(|_| Side::Left)
            .or_else(|| mode.strip_suffix("_r").map(|_| Side::Right));
    } else if text.starts_with("((player ") {
        e.kind = Kind::Say;
        let w = words(&text);
        if w.len() >= 3 {
            e.side = side_of_name(&w[1], teams);
            e.unum = w[2].parse().ok();
        }
    } else if text.starts_with("(online_coach_left") || text.starts_with("(coach_left") {
        e.kind = Kind::Coach;
        e.side = Some(Side::Left);
    } else if text.starts_with("(online_coach_right") || text.starts_with("(coach_right") {
        e.kind = Kind::Coach;
        e.side = Some(Side::Right);
    } else if text.starts_with("(coach") || text.starts_with("((coach") {
        e.kind = Kind::Coach;
    } else if let Some(rest) = text.strip_prefix("Recv ") {
        e.kind = Kind::Command;
        let name = rest.split(':').next().unwrap_or("");
        // `TEAM_UNUM`, or `TEAM_Coach` for a coach.
        if let Some((team, who)) = name.rsplit_once('_') {
            e.side = side_of_name(team, teams);
            e.unum = who.parse().ok();
        }
    } else if text.starts_with("(change_player_type ") {
        e.kind = Kind::PlayerType;
        let w = words(&text);
        if w.len() >= 4 {
            e.side = side_letter(&w[1]);
            e.unum = w[2].parse().ok();
        }
    } else if text.starts_with("(team_graphic_l") {
        e.kind = Kind::TeamGraphic;
        e.side = Some(Side::Left);
    } else if text.starts_with("(team_graphic_r") {
        e.kind = Kind::TeamGraphic;
        e.side = Some(Side::Right);
    } else if text.starts_with("(result ") {
        e.kind = Kind::Result;
    } else if text.starts_with("(ok ")
        || text.starts_with("(error ")
        || text.starts_with("(warning ")
    {
        e.kind = Kind::Server;
    }
    if e.kind == Kind::TeamGraphic {
        // The tile itself is 80 characters of XPM: say which tile it is.
        let w = words(&text);
        if w.len() >= 3 {
            e.text = format!("logo tile ({}, {})", w[1], w[2]);
        }
    }
    e
}

/// The team an entry is about: the one whose name its text holds, if only one does (a foul
/// names both teams: the one that fouled and the one that restarts).
fn side_named(text: &str, teams: &[Option<String>; 2]) -> Option<Side> {
    let holds = |i: usize| {
        teams[i]
            .as_deref()
            .is_some_and(|n| !n.is_empty() && text.contains(n))
    };
    match (holds(0), holds(1)) {
        (true, false) => Some(Side::Left),
        (false, true) => Some(Side::Right),
        _ => None,
    }
}

/// The referee's decisions as the library words them from the frames (play-mode changes,
/// cards, half time, players leaving), at the frame that shows each.
pub fn decisions(g: &Match, teams: &[Option<String>; 2]) -> Vec<Entry> {
    words(&Events::of_match(g), teams)
}

fn words(events: &Events, teams: &[Option<String>; 2]) -> Vec<Entry> {
    events
        .referee_messages()
        .into_iter()
        .map(|d| Entry {
            time: d.cycle,
            position: d.frame,
            kind: Kind::Decision,
            side: side_named(&d.text, teams),
            unum: None,
            text: d.text,
        })
        .collect()
}

/// Every entry of a match, in the order it happened.
pub fn entries(g: &Match, notices: &[(usize, u32, String)]) -> Vec<Entry> {
    let teams = team_names(g);
    let messages = classify_all(g, &teams);
    merge(messages, decisions(g, &teams), notices)
}

fn team_names(g: &Match) -> [Option<String>; 2] {
    g.frames
        .last()
        .map(|f| [f.teams[0].name.clone(), f.teams[1].name.clone()])
        .unwrap_or_default()
}

fn classify_all(g: &Match, teams: &[Option<String>; 2]) -> Vec<Entry> {
    g.messages
        .iter()
        .zip(&g.message_positions)
        .map(|(m, &pos)| classify(m, pos, teams))
        .collect()
}

/// The says of the server's message log as board entries: each is reached with the first
/// frame after the time it was sent (when the others hear it).
pub fn says_entries(g: &Match, says: &[crate::agents::Say]) -> Vec<Entry> {
    let teams = team_names(g);
    says.iter()
        .map(|say| {
            let position = g.frames.partition_point(|f| {
                (f.time, f.stime.unwrap_or(0)) <= (say.time.cycle, say.time.stopped)
            });
            Entry {
                time: say.time.cycle,
                position,
                kind: if say.unum.is_some() {
                    Kind::Say
                } else {
                    Kind::Coach
                },
                side: side_of_name(&say.team, &teams),
                unum: say.unum,
                text: say.text.clone(),
            }
        })
        .collect()
}

/// All entries in the order they happened. Stable: within a frame the source's messages come
/// first, then the decisions, then the relay's notices.
fn merge(
    messages: Vec<Entry>,
    decisions: Vec<Entry>,
    notices: &[(usize, u32, String)],
) -> Vec<Entry> {
    let mut out = messages;
    out.extend(decisions);
    out.extend(notices.iter().map(|(pos, time, text)| Entry {
        time: *time,
        position: *pos,
        kind: Kind::Relay,
        side: None,
        unum: None,
        text: text.clone(),
    }));
    out.sort_by_key(|e| e.position);
    out
}

/// How many of the (sorted) entries have been reached at frame `index` of `count`: those that
/// came before the next frame; at the last frame, all of them (a log's result line follows its
/// last show).
pub fn reached(all: &[Entry], index: usize, count: usize) -> usize {
    if index + 1 >= count {
        all.len()
    } else {
        all.partition_point(|e| e.position <= index)
    }
}

/// Entries shown at first: the newest ones up to the frame on screen; "earlier" adds as many.
const SHOWN: usize = 300;

#[component]
pub fn MessageBoard() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let open = RwSignal::new(false);
    let hidden = RwSignal::new(
        Kind::ALL
            .iter()
            .copied()
            .filter(|k| !k.shown_by_default())
            .collect::<Vec<Kind>>(),
    );
    let team = RwSignal::new(None::<Side>);
    let limit = RwSignal::new(SHOWN);
    // All entries, rebuilt when the match changes in more than its frames, or when frames
    // arrive (derived decisions come from them).
    // Only an open board does the work. The messages are classified when they change; the
    // decisions are found frame by frame as frames arrive (a live match adds one every
    // 100 ms), from scratch only when the match changes otherwise.
    let messages = Memo::new(move |_| {
        m.revision.track();
        if !open.get() {
            return Vec::new();
        }
        m.game.with_value(|g| classify_all(g, &team_names(g)))
    });
    let events = StoredValue::new(None::<(u64, Events)>);
    let decided = Memo::new(move |_| {
        let revision = m.revision.get();
        m.count.track();
        if !open.get() {
            return Vec::new();
        }
        m.game.with_value(|g| {
            events.update_value(|e| {
                let stale = e
                    .as_ref()
                    .is_none_or(|(r, ev)| *r != revision || ev.frames() > g.frames.len());
                if stale {
                    *e = Some((revision, Events::new(MatchParams::of_match(g))));
                }
                if let Some((_, ev)) = e {
                    for f in &g.frames[ev.frames()..] {
                        ev.push(f);
                    }
                }
            });
            let teams = team_names(g);
            events.with_value(|e| {
                e.as_ref()
                    .map(|(_, ev)| words(ev, &teams))
                    .unwrap_or_default()
            })
        })
    });
    // The says of the server's message log, when one is open with the match.
    let says = Memo::new(move |_| {
        m.revision.track();
        let says = m.agents.says.get();
        if !open.get() || says.is_empty() {
            return Vec::new();
        }
        m.game.with_value(|g| says_entries(g, &says))
    });
    let all = Memo::new(move |_| {
        let notices = m.board.notices.get();
        messages.with(|ms| {
            says.with(|ss| {
                decided.with(|ds| {
                    let mut ms = ms.clone();
                    ms.extend(ss.iter().cloned());
                    merge(ms, ds.clone(), &notices)
                })
            })
        })
    });
    let list = NodeRef::<leptos::html::Ol>::new();
    let matching = Memo::new(move |_| {
        let index = m.index.get();
        let hidden = hidden.get();
        let team = team.get();
        all.with(|all| {
            let upto = reached(all, index, m.count.get());
            all[..upto]
                .iter()
                .enumerate()
                .filter(|(_, e)| !hidden.contains(&e.kind))
                .filter(|(_, e)| team.is_none() || e.side.is_none() || e.side == team)
                .map(|(i, _)| i)
                .collect::<Vec<usize>>()
        })
    });
    let visible = Memo::new(move |_| {
        let limit = limit.get();
        matching.with(|idx| {
            all.with(|all| {
                idx[idx.len().saturating_sub(limit)..]
                    .iter()
                    .map(|&i| all[i].clone())
                    .collect::<Vec<Entry>>()
            })
        })
    });
    let older = move || matching.with(Vec::len).saturating_sub(limit.get());
    let counts = move || {
        all.with(|all| {
            let mut c = std::collections::BTreeMap::<Kind, usize>::new();
            for e in all {
                *c.entry(e.kind).or_default() += 1;
            }
            c
        })
    };
    // Keep the newest entry in sight as playback moves on (not when the user asks for older
    // ones: they are above).
    Effect::new(move |_| {
        matching.track();
        if let Some(el) = list.get() {
            let el: &web_sys::Element = el.as_ref();
            el.set_scroll_top(el.scroll_height());
        }
    });
    let now_time = move || m.with_frame(m.index.get(), |f| f.time);
    view! {
        <button id="messages-toggle" class="panel-toggle" class:on=move || open.get() on:click=move |_| open.update(|o| *o = !*o)>
            {move || {
                m.revision.track();
                format!("✉ Messages ({})", m.game.with_value(|g| g.messages.len()))
            }}
        </button>
        <Show when=move || open.get()>
            <section id="messages" class="panel messages">
                <h2>"Messages"</h2>
                <div class="filters">
                    {move || {
                        let counts = counts();
                        Kind::ALL
                            .iter()
                            .copied()
                            .filter(|k| counts.contains_key(k))
                            .map(|k| {
                                let n = counts.get(&k).copied().unwrap_or(0);
                                view! {
                                    <label class=format!("chip kind-{}", k.id())>
                                        <input
                                            type="checkbox"
                                            prop:checked=move || !hidden.get().contains(&k)
                                            on:change=move |_| hidden.update(|h| {
                                                if let Some(i) = h.iter().position(|x| *x == k) {
                                                    h.remove(i);
                                                } else {
                                                    h.push(k);
                                                }
                                            })
                                        />
                                        {format!("{} {n}", k.label())}
                                    </label>
                                }
                            })
                            .collect_view()
                    }}
                    <select
                        id="messages-team"
                        on:change=move |ev| team.set(match event_target_value(&ev).as_str() {
                            "l" => Some(Side::Left),
                            "r" => Some(Side::Right),
                            _ => None,
                        })
                    >
                        <option value="">"both teams"</option>
                        <option value="l">{move || m.with_frame(m.index.get(), |f| f.teams[0].name.clone()).flatten().unwrap_or_else(|| "left".into())}</option>
                        <option value="r">{move || m.with_frame(m.index.get(), |f| f.teams[1].name.clone()).flatten().unwrap_or_else(|| "right".into())}</option>
                    </select>
                </div>
                <Show when=move || { older() > 0 }>
                    <button class="older" on:click=move |_| limit.update(|l| *l += SHOWN)>
                        {move || format!("{} earlier messages: show {}", older(), older().min(SHOWN))}
                    </button>
                </Show>
                <ol class="board" node_ref=list>
                    <For
                        each=move || visible.get()
                        key=|e| (e.position, e.kind, e.text.clone(), e.time)
                        children=move |e: Entry| {
                            let side = match e.side {
                                Some(Side::Left) => "l",
                                Some(Side::Right) => "r",
                                None => "",
                            };
                            let time = e.time;
                            let who = e.unum.map(|u| format!("{side}{u}")).unwrap_or_default();
                            view! {
                                <li
                                    class=format!("entry kind-{} side-{side}", e.kind.id())
                                    class:now=move || now_time() == Some(time)
                                    data-kind=e.kind.id()
                                >
                                    <span class="t">{e.time}</span>
                                    <span class="k" title=e.kind.label()>{e.kind.short()}</span>
                                    <span class="who">{who}</span>
                                    <span class="text">{e.text}</span>
                                </li>
                            }
                        }
                    />
                </ol>
                <Show when=move || visible.with(Vec::is_empty)>
                    <p class="hint">"No messages up to this cycle."</p>
                </Show>
            </section>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::testutil;

    #[test]
    fn garbage_after_real_messages_is_cut() {
        assert_eq!(
            clean(b"(referee foul_charge_r)\xd7\x94\x7f"),
            "(referee foul_charge_r)"
        );
        assert_eq!(
            clean(b"(change_player_type l 2 2)6)\xefU"),
            "(change_player_type l 2 2)"
        );
        assert_eq!(
            clean(b"Recv REC_L_10: (ear (off opp))(clang (ver 7 8)) wide)(done)"),
            "Recv REC_L_10: (ear (off opp))(clang (ver 7 8))"
        );
        assert_eq!(
            clean(b"((player REC_R 10) BLCnM0E*(c)"),
            "((player REC_R 10) BLCnM0E*(c)"
        );
        assert_eq!(
            clean(b"((player REC_L 1) PajQs9)x)"),
            "((player REC_L 1) PajQs9)x)"
        );
        assert_eq!(
            clean(b"(online_coach_left 189 (freeform \"(pt -CE-I------)\"))"),
            "(online_coach_left 189 (freeform \"(pt -CE-I------)\"))"
        );
    }

    #[test]
    fn record_messages_log_sorted_by_kind_and_team() {
        let g = testutil::record_messages();
        let all = entries(g, &[]);
        let count = |k: Kind| all.iter().filter(|e| e.kind == k).count();
        assert_eq!(count(Kind::Result), 1);
        assert!(count(Kind::Command) > 10_000, "{}", count(Kind::Command));
        assert!(count(Kind::Say) > 1_000);
        assert!(count(Kind::Referee) >= 10);
        assert!(count(Kind::Coach) > 0);
        assert_eq!(count(Kind::PlayerType), 22);
        assert!(count(Kind::Decision) >= 10);
        assert_eq!(
            count(Kind::Other),
            0,
            "every message is understood: {:?}",
            all.iter().find(|e| e.kind == Kind::Other)
        );
        for e in &all {
            assert!(!e.text.contains('\u{fffd}'), "garbage left: {:?}", e.text);
            if matches!(e.kind, Kind::Say | Kind::Command) {
                assert!(e.side.is_some(), "{e:?}");
                // Coaches' commands name no player.
                assert!(e.unum.is_some() || e.text.contains("_Coach:"), "{e:?}");
            }
        }
        // Sorted by the frame they came with, and the result last.
        assert!(all.windows(2).all(|w| w[0].position <= w[1].position));
        assert_eq!(
            all.iter()
                .rev()
                .find(|e| e.kind != Kind::Decision)
                .unwrap()
                .kind,
            Kind::Result
        );
    }

    #[test]
    fn the_result_line_shows_at_the_last_frame_only() {
        let g = testutil::record_messages();
        let all = entries(g, &[]);
        let n = g.frames.len();
        let has_result = |upto: usize| all[..upto].iter().any(|e| e.kind == Kind::Result);
        assert!(has_result(reached(&all, n - 1, n)));
        assert!(!has_result(reached(&all, n - 2, n)));
        assert_eq!(
            reached(&all, 0, n),
            all.iter().filter(|e| e.position == 0).count()
        );
    }

    #[test]
    fn v1_referee_messages_and_derived_decisions_agree() {
        let g = testutil::short_v1();
        let all = entries(g, &[]);
        let referee: Vec<&Entry> = all.iter().filter(|e| e.kind == Kind::Referee).collect();
        assert!(referee.iter().any(|e| e.text == "(referee foul_charge_r)"));
        assert!(referee.iter().any(|e| e.text == "(referee time_up)"));
        let decisions: Vec<&str> = all
            .iter()
            .filter(|e| e.kind == Kind::Decision)
            .map(|e| e.text.as_str())
            .collect();
        assert!(decisions.contains(&"kick-off SHORT_L_a"), "{decisions:?}");
        assert!(decisions.iter().any(|d| d.starts_with("foul by SHORT_R_a")));
        assert_eq!(
            decisions.last(),
            Some(&"full time: SHORT_L_a 0–0 SHORT_R_a")
        );
        // A decision for one team is that team's; a foul concerns both.
        let side = |text: &str| all.iter().find(|e| e.text == text).map(|e| e.side);
        assert_eq!(side("kick-off SHORT_L_a"), Some(Some(Side::Left)));
        assert_eq!(side("corner kick SHORT_R_a"), Some(Some(Side::Right)));
        assert_eq!(side("offside SHORT_R_a → free kick SHORT_L_a"), Some(None));
    }

    #[test]
    fn goals_and_cards_are_derived_from_the_frames() {
        let full = entries(testutil::full(), &[]);
        let goals: Vec<&str> = full
            .iter()
            .filter(|e| e.kind == Kind::Decision && e.text.starts_with("goal for"))
            .map(|e| e.text.as_str())
            .collect();
        assert_eq!(goals.len(), 5, "{goals:?}");
        assert_eq!(goals[4], "goal for HELIOS_L (11): HELIOS_L 2–3 HELIOS_R");
        assert_eq!(
            full.iter().filter(|e| e.kind == Kind::TeamGraphic).count(),
            92
        );
        let ops = entries(testutil::operator(), &[]);
        let cards: Vec<&str> = ops
            .iter()
            .filter(|e| e.text.contains("card"))
            .map(|e| e.text.as_str())
            .collect();
        assert_eq!(cards.len(), 3, "{cards:?}");
        assert!(
            cards[0].contains("yellow") && cards[0].contains("OPS_L 5"),
            "{cards:?}"
        );
        assert!(
            cards[1].contains("red") && cards[1].contains("OPS_R 7"),
            "{cards:?}"
        );
        assert!(
            cards[2].contains("red") && cards[2].contains("OPS_L 5"),
            "{cards:?}"
        );
    }
}
