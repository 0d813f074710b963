//! The broadcast view (book, "Broadcast"), for a streaming program's browser source at
//! 1920×1080 (any 16:9 down to 1280×720): a TV score graphic, the field filling the picture,
//! lower-thirds for goals, cards, penalties, half and full time, an instant replay of each
//! goal, a caption line, and an intermission card between matches. No controls, nothing that
//! moves without reason.
//!
//! It trails live play by the relay's `--broadcast-delay` (the feed goes through the live
//! source's delay line), and follows the field from match to match without a reload. The
//! [`Director`] decides, from the frames as they come, when a moment shows and when a
//! replay runs; it is pure and tested natively.

use crate::state::Monitor;
use leptos::prelude::*;
use pitchside_analysis::actions::Actions;
use pitchside_analysis::broadcast::captions::{self, Caption, Lang};
use pitchside_analysis::broadcast::clock::clock;
use pitchside_analysis::broadcast::highlights::instant_replay;
use pitchside_analysis::broadcast::moments::{moments, Moment, MomentKind};
use pitchside_wire::link::{self, LANG_KEY};
use rcss_formats::params::ServerParams;
use rcss_formats::{Frame, PlayMode, Side};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// How long after a goal its replay starts (the goal shows live first), in ms.
pub const REPLAY_WAIT_MS: f64 = 3000.0;
/// A replayed frame shows this long: half speed.
pub const REPLAY_FRAME_MS: f64 = 200.0;
/// How long a lower-third stays up, in ms.
pub const LOWER_THIRD_MS: f64 = 8000.0;
/// More new frames than this at once is a jump (the match so far arriving, a reconnection):
/// the moments it passes are not shown.
const JUMP: usize = 50;
/// How long a caption stays, in frames (6 s).
const CAPTION_HOLD: usize = 60;

/// True when the page was opened as the broadcast view.
pub fn broadcast_mode() -> bool {
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return false;
    };
    link::is_broadcast(
        &loc.pathname().unwrap_or_default(),
        &loc.search().unwrap_or_default(),
    )
}

/// Something the view must show: a moment to put up, by its index in the moments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cue {
    /// The frame it shows at.
    pub frame: usize,
    /// For a goal: the frames its replay shows.
    pub replay: Option<(usize, usize)>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Replay {
    from: usize,
    to: usize,
    start: f64,
}

/// What the view shows now.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shot {
    /// The frame a replay shows; `None` for live.
    pub replay: Option<usize>,
    /// The frame of the goal the replay leads up to.
    pub replay_to: Option<usize>,
    /// Cues that came due since the last tick (indices into the cues).
    pub fired: Vec<usize>,
    /// A new match began: what was shown of the last one goes.
    pub reset: bool,
}

/// A replay that has waited longer than this to start is dropped: the game has moved on.
pub const REPLAY_STALE_MS: f64 = 10_000.0;

/// Decides when moments show and replays run, from the frames as they arrive.
#[derive(Clone, Debug, Default)]
pub struct Director {
    generation: u64,
    last_live: Option<usize>,
    handled: usize,
    replay: Option<Replay>,
    queued: Option<Replay>,
}

impl Director {
    /// One look at the clock: `count` frames of match number `generation` held, `cues` in
    /// frame order, `over` once the match has reached full time (no replay starts then, and
    /// one under way ends: the intermission follows).
    pub fn tick(
        &mut self,
        now: f64,
        count: usize,
        generation: u64,
        over: bool,
        cues: &[Cue],
    ) -> Shot {
        let mut shot = Shot::default();
        if generation != self.generation || count == 0 || self.last_live.is_some_and(|l| l >= count)
        {
            // A new match (or none yet): start over.
            *self = Director {
                generation,
                ..Director::default()
            };
            shot.reset = true;
            if count == 0 {
                return shot;
            }
        }
        let live = count - 1;
        let due = cues.partition_point(|c| c.frame <= live);
        let jumped = match self.last_live {
            None => true,
            Some(l) => live - l > JUMP,
        };
        if !jumped {
            for (i, cue) in cues.iter().enumerate().take(due).skip(self.handled) {
                shot.fired.push(i);
                if let Some((from, to)) = cue.replay {
                    // A goal while another is replayed: back to live for it, and only its
                    // replay to come.
                    self.replay = None;
                    self.queued = Some(Replay {
                        from,
                        to,
                        start: now + REPLAY_WAIT_MS,
                    });
                }
            }
        }
        self.handled = self.handled.max(due);
        self.last_live = Some(live);
        if over {
            self.replay = None;
            self.queued = None;
        }
        if self.queued.is_some_and(|r| now - r.start > REPLAY_STALE_MS) {
            self.queued = None;
        }
        if self.replay.is_none() && self.queued.is_some_and(|r| r.start <= now) {
            self.replay = self.queued.take().map(|r| Replay { start: now, ..r });
        }
        if let Some(r) = self.replay {
            let step = ((now - r.start) / REPLAY_FRAME_MS).max(0.0) as usize;
            let at = r.from + step;
            if at > r.to.min(live) {
                self.replay = None;
            } else {
                shot.replay = Some(at);
                shot.replay_to = Some(r.to);
            }
        }
        shot
    }
}

/// The relay's answer for this match (`/api/matches/NAME/broadcast`): the delay, the teams'
/// kits, the tournament around the match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    pub delay_seconds: f64,
    pub raw: Value,
}

/// The URL of the relay's broadcast answer for the match this page follows.
fn info_url(name: &str) -> String {
    format!("/api/matches/{name}/broadcast")
}

/// Asks the relay what it knows for this match's broadcast, now and every `every_ms`, and
/// puts the kits it chose into the page ([`Monitor::kits`]). `first` runs once the relay has
/// answered (a relay that cannot be reached is asked again every 2 s first: the broadcast
/// view must know its delay before it shows anything), or has said it has no such answer.
pub fn follow_info(
    m: Monitor,
    info: RwSignal<Option<Info>>,
    every_ms: i32,
    first: impl FnOnce() + 'static,
) {
    let first = std::rc::Rc::new(std::cell::Cell::new(Some(first)));
    let again = RwSignal::new(0u32);
    Effect::new(move |_| {
        again.track();
        let slot = first.clone();
        let pending = slot.take();
        leptos::task::spawn_local(async move {
            let name = match crate::source::live::match_name() {
                Some(n) => Some(n),
                None => crate::api::get_json::<Vec<Value>>("/api/matches")
                    .await
                    .ok()
                    .and_then(|l| l.first()?.get("name")?.as_str().map(str::to_owned)),
            };
            let answer = match &name {
                Some(name) => crate::api::get_json::<Value>(&info_url(name)).await,
                None => Err("no match".into()),
            };
            let answered = match &answer {
                Ok(_) => true,
                // The relay answered, but not this (an older relay, an unknown match): the
                // view goes on without it.
                Err(e) => e.starts_with("the relay answered"),
            };
            if let Ok(v) = answer {
                let kits = colours_of(&v["kits"]).map(|colours| crate::state::Kits {
                    colours,
                    teams: [0, 1].map(|k| v["teams"][k].as_str().unwrap_or_default().to_owned()),
                });
                if m.kits.try_get_untracked() != Some(kits.clone()) {
                    let _ = m.kits.try_set(kits);
                }
                let new = Info {
                    delay_seconds: v["delay_seconds"].as_f64().unwrap_or(0.0),
                    raw: v,
                };
                if info.try_get_untracked().flatten().as_ref() != Some(&new) {
                    let _ = info.try_set(Some(new));
                }
            }
            match pending {
                Some(f) if answered => f(),
                Some(f) => {
                    slot.set(Some(f));
                    crate::api::ask_again_in(2_000, again);
                    return;
                }
                None => {}
            }
            crate::api::ask_again_in(every_ms, again);
        });
    });
}

fn colours_of(kits: &Value) -> Option<crate::settings::Colours> {
    let get = |k: &str| kits.get(k)?.as_str().map(str::to_owned);
    Some(crate::settings::Colours {
        left: get("left")?,
        left_goalie: get("left_goalie")?,
        right: get("right")?,
        right_goalie: get("right_goalie")?,
    })
}

/// A lower-third on screen.
#[derive(Clone, Debug, PartialEq)]
struct LowerThird {
    kind: &'static str,
    title: String,
    line: String,
    detail: String,
    until: f64,
}

fn words(lang: Lang) -> [&'static str; 9] {
    match lang {
        Lang::En => [
            "GOAL",
            "OWN GOAL",
            "YELLOW CARD",
            "RED CARD",
            "PENALTY",
            "SHOOT-OUT",
            "HALF TIME",
            "FULL TIME",
            "assist",
        ],
        Lang::De => [
            "TOR",
            "EIGENTOR",
            "GELBE KARTE",
            "ROTE KARTE",
            "ELFMETER",
            "ELFMETERSCHIESSEN",
            "HALBZEIT",
            "ABPFIFF",
            "Vorlage",
        ],
    }
}

fn lower_third(
    mo: &Moment,
    names: &[String; 2],
    params: &ServerParams,
    lang: Lang,
    until: f64,
) -> LowerThird {
    let w = words(lang);
    let team = |s: Option<Side>| s.map_or_else(String::new, |s| names[s.index()].clone());
    let who = |s: Option<Side>, u: Option<u8>| match u {
        Some(u) => format!("{} #{u}", team(s)),
        None => team(s),
    };
    let score = format!("{} {}–{} {}", names[0], mo.score[0], mo.score[1], names[1]);
    let minute = clock(mo.cycle, params).minute();
    let (title, line, detail) = match mo.kind {
        MomentKind::Goal {
            scorer,
            assist,
            own_goal,
        } => {
            let scorer_side = if own_goal {
                mo.side.map(Side::other)
            } else {
                mo.side
            };
            let mut line = format!("{} {minute}", who(scorer_side, scorer));
            if let Some(a) = assist {
                line.push_str(&format!(" · {} #{a}", w[8]));
            }
            (if own_goal { w[1] } else { w[0] }.to_owned(), line, score)
        }
        MomentKind::YellowCard { player } => (
            w[2].to_owned(),
            format!("{} {minute}", who(mo.side, player)),
            score,
        ),
        MomentKind::RedCard { player, .. } => (
            w[3].to_owned(),
            format!("{} {minute}", who(mo.side, player)),
            score,
        ),
        MomentKind::Penalty => (w[4].to_owned(), team(mo.side), score),
        MomentKind::ShootOutKick { taker, scored } => (
            w[5].to_owned(),
            format!("{} {}", who(mo.side, taker), if scored { "✓" } else { "✗" }),
            mo.penalties
                .map(|p| format!("{} {}–{} {}", names[0], p[0], p[1], names[1]))
                .unwrap_or(score),
        ),
        MomentKind::HalfTime => (w[6].to_owned(), score, String::new()),
        MomentKind::FullTime => (w[7].to_owned(), score, String::new()),
    };
    LowerThird {
        kind: mo.kind.id(),
        title,
        line,
        detail,
        until,
    }
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The captions' language: `lang=` in the address, else the settings'.
fn lang(m: Monitor) -> Lang {
    let query = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    link::query_value(&query, LANG_KEY)
        .and_then(|c| Lang::from_code(&c))
        .unwrap_or_else(|| {
            m.settings
                .with_untracked(|s| Lang::from_code(&s.captions.lang).unwrap_or_default())
        })
}

/// Reads a line aloud, in its language.
fn speak(text: &str, lang: Lang) {
    let Some(synth) = web_sys::window().and_then(|w| w.speech_synthesis().ok()) else {
        return;
    };
    if let Ok(u) = web_sys::SpeechSynthesisUtterance::new_with_text(text) {
        u.set_lang(lang.code());
        // A line still being read when the next comes is behind the picture: the new one
        // replaces it.
        synth.cancel();
        synth.speak(&u);
    }
}

/// What the view needs from the match, worked out again when frames arrive.
#[derive(Clone, Debug, Default)]
struct Derived {
    count: usize,
    lang: Lang,
    moments: Vec<Moment>,
    cues: Vec<Cue>,
    captions: Vec<Caption>,
}

fn derive(m: Monitor, count: usize, lang: Lang) -> Derived {
    m.analysis.with_value(|a| {
        m.game.with_value(|g| {
            let Some(stats) = a.as_ref() else {
                return Derived::default();
            };
            let actions: &Actions = stats.actions();
            let frames = &g.frames;
            let moments = moments(actions, frames);
            let cues = moments
                .iter()
                .map(|mo| Cue {
                    frame: mo.frame,
                    replay: match (mo.kind, mo.side) {
                        (MomentKind::Goal { .. }, Some(side)) => {
                            let (from, to) = instant_replay(actions, frames, side, mo.frame);
                            // Frames after the goal that have not come yet: the replay runs
                            // as far as they have when it plays.
                            Some((
                                from,
                                to.max(
                                    mo.frame
                                        + pitchside_analysis::broadcast::highlights::REPLAY_AFTER,
                                ),
                            ))
                        }
                        _ => None,
                    },
                })
                .collect();
            Derived {
                count,
                lang,
                moments,
                cues,
                captions: captions::captions(actions, frames, lang),
            }
        })
    })
}

/// The last match that finished on this field: names, score, shoot-out.
#[derive(Clone, Debug, PartialEq, Default)]
struct Result_ {
    names: [String; 2],
    score: [u32; 2],
    penalties: Option<[u32; 2]>,
}

fn result_of(f: &Frame) -> Result_ {
    Result_ {
        names: [0, 1].map(|k| f.teams[k].name.clone().unwrap_or_default()),
        score: [f.teams[0].score, f.teams[1].score],
        penalties: match (f.teams[0].penalty, f.teams[1].penalty) {
            (None, None) => None,
            (a, b) => Some([a.map_or(0, |t| t.scored), b.map_or(0, |t| t.scored)]),
        },
    }
}

/// The view itself.
#[component]
pub fn BroadcastView(info: RwSignal<Option<Info>>) -> impl IntoView {
    let m = expect_context::<Monitor>();
    let director = StoredValue::new(Director::default());
    let derived = StoredValue::new(Derived::default());
    let lower = RwSignal::new(None::<LowerThird>);
    let caption = RwSignal::new(None::<String>);
    let replaying = RwSignal::new(false);
    let last_result = RwSignal::new(None::<Result_>);
    let spoken = StoredValue::new(None::<String>);
    // A log's position while its playback waits for a replay to end.
    let resume = StoredValue::new(None::<usize>);

    let tick = move || {
        let t = now();
        let count = m.count.get_untracked();
        let lang = lang(m);
        if derived.with_value(|d| d.count != count || d.lang != lang) {
            derived.set_value(derive(m, count, lang));
        }
        // How far play has got: the newest frame live, a log's playback position.
        let live_mode = m.mode.get_untracked() == crate::state::Mode::Live;
        let reached = if live_mode || count == 0 {
            count
        } else {
            resume
                .get_value()
                .unwrap_or_else(|| m.index.get_untracked())
                + 1
        };
        let over = m.game.with_value(|g| {
            reached
                .checked_sub(1)
                .and_then(|i| g.frames.get(i))
                .is_some_and(|f| f.mode == PlayMode::TIME_OVER)
        });
        let generation = m.matches.get_value();
        let shot = derived.with_value(|d| {
            director.try_update_value(|dir| dir.tick(t, reached, generation, over, &d.cues))
        });
        let Some(shot) = shot else { return };
        if shot.reset {
            // A new match: what was up about the last one comes down.
            lower.set(None);
            resume.set_value(None);
        }
        match shot.replay {
            Some(i) => {
                if !m.steered.get_untracked() {
                    m.steered.set(true);
                    if !live_mode {
                        resume.set_value(Some(m.index.get_untracked()));
                        m.pause();
                    }
                }
                if m.index.get_untracked() != i {
                    m.index.set(i);
                }
            }
            None if m.steered.get_untracked() => {
                m.steered.set(false);
                match resume.get_value() {
                    Some(at) => {
                        resume.set_value(None);
                        m.index.set(at);
                        // Playback goes on, unless the log was at its end.
                        if at + 1 < count {
                            m.play(crate::timeline::Direction::Forward);
                        }
                    }
                    None => m.index.set(count.saturating_sub(1)),
                }
            }
            // A log waits for no one in a view without controls: it plays (a `#t=` opens
            // it paused there; its end stops it).
            None if !live_mode
                && !m.playing.get_untracked()
                && m.pending_cycle.get_untracked().is_none()
                && m.index.get_untracked() + 1 < count =>
            {
                m.play(crate::timeline::Direction::Forward);
            }
            None => {}
        }
        if replaying.get_untracked() != shot.replay.is_some() {
            replaying.set(shot.replay.is_some());
            // The 3D view shows it from behind the goal it leads up to.
            let end = shot.replay_to.and_then(|to| {
                m.game
                    .with_value(|g| g.frames.get(to).map(|f| f64::from(f.ball.x).signum()))
            });
            crate::ui::stage3d::set_replaying(shot.replay.map(|_| end.unwrap_or(0.0)));
        }
        let (names, params) = m.game.with_value(|g| {
            let names = g.frames.last().map_or_else(
                || [String::new(), String::new()],
                |f| [0, 1].map(|k| f.teams[k].name.clone().unwrap_or_default()),
            );
            (names, rcss_formats::params::MatchParams::of_match(g).server)
        });
        if let Some(&i) = shot.fired.last() {
            // Of several at once (a foul and its card), the last says most.
            let lt = derived.with_value(|d| {
                d.moments
                    .get(i)
                    .map(|mo| lower_third(mo, &names, &params, lang, t + LOWER_THIRD_MS))
            });
            lower.set(lt);
        }
        if lower.with_untracked(|l| l.as_ref().is_some_and(|l| l.until < t)) {
            lower.set(None);
        }
        // The finished match, kept for the intermission: from the newest frame, so that a
        // match ending while a goal is replayed counts too.
        let shown = m.index.get_untracked();
        if let Some(r) = m.game.with_value(|g| {
            reached
                .checked_sub(1)
                .and_then(|i| g.frames.get(i))
                .filter(|f| f.mode == PlayMode::TIME_OVER)
                .map(result_of)
        }) {
            if last_result.get_untracked().as_ref() != Some(&r) {
                last_result.set(Some(r));
            }
        }
        // The caption of the cycle on screen; none during a replay.
        let settings = m.settings.with_untracked(|s| s.captions.clone());
        let line = if shot.replay.is_some() || !settings.show {
            None
        } else {
            derived.with_value(|d| {
                // A score ("0–1") is never split across two lines.
                captions::at(&d.captions, shown, CAPTION_HOLD)
                    .map(|c| c.text.replace('–', "\u{2060}–\u{2060}"))
            })
        };
        if caption.get_untracked() != line {
            if let Some(text) = &line {
                if settings.speak && spoken.get_value().as_ref() != Some(text) {
                    speak(text, lang);
                }
                spoken.set_value(Some(text.clone()));
            }
            caption.set(line);
        }
    };
    let cb = Closure::<dyn FnMut()>::new(tick);
    let timer = web_sys::window().and_then(|w| {
        w.set_interval_with_callback_and_timeout_and_arguments_0(cb.as_ref().unchecked_ref(), 50)
            .ok()
    });
    cb.forget();
    on_cleanup(move || {
        if let (Some(w), Some(id)) = (web_sys::window(), timer) {
            w.clear_interval_with_handle(id);
        }
    });

    let frame = move || {
        m.count.track();
        let i = m.index.get();
        m.game.with_value(|g| g.frames.get(i).cloned())
    };
    let newest = move || {
        let n = m.count.get();
        m.game
            .with_value(|g| n.checked_sub(1).and_then(|i| g.frames.get(i)).cloned())
    };
    let intermission = move || {
        let f = frame();
        match f {
            None => true,
            Some(f) => {
                f.mode == PlayMode::TIME_OVER
                    || (f.mode == PlayMode::BEFORE_KICK_OFF && f.time == 0)
            }
        }
    };
    view! {
        // The cycle and frame on screen, for tests and a stream's tooling to read.
        <main
            class="app broadcast"
            class:replaying=move || replaying.get()
            data-cycle=move || frame().map(|f| f.time.to_string()).unwrap_or_default()
            data-frame=move || m.index.get().to_string()
        >
            <h1 class="sr-only">"Live match"</h1>
            // During a replay the score and clock stay live, as on television.
            <ScoreGraphic frame=Signal::derive(move || if replaying.get() { newest() } else { frame() })/>
            <super::canvas::FieldCanvas/>
            <Show when=move || replaying.get()>
                <div class="replay-badge" aria-hidden="true">"REPLAY"</div>
            </Show>
            // Over a replay only the goal's own graphic stays (its scorer is the replay's
            // subject); the rest is live news, and waits for live play.
            <Show when=move || {
                lower.with(|l| l.as_ref().is_some_and(|l| l.kind == "goal" || !replaying.get()))
            }>
                {move || lower.get().map(|l| {
                    let label = format!("{} {}", l.title, l.line);
                    view! {
                    <section class=format!("lower-third {}", l.kind) aria-label=label>
                        <p class="lt-title">{l.title}</p>
                        <p class="lt-line">{l.line}</p>
                        <Show when={let d = l.detail.clone(); move || !d.is_empty()}>
                            <p class="lt-detail">{l.detail.clone()}</p>
                        </Show>
                    </section>
                    }
                })}
            </Show>
            <Show when=move || caption.with(Option::is_some) && !intermission()>
                <p class="caption" aria-hidden="true">{move || caption.get().unwrap_or_default()}</p>
            </Show>
            // What a screen reader hears: the captions, one region that is always there.
            <p class="sr-only" aria-live="polite">{move || caption.get().unwrap_or_default()}</p>
            <Show when=intermission>
                <Intermission info last_result frame=Signal::derive(frame)/>
            </Show>
        </main>
    }
}

/// The TV score graphic: team graphics, names in their colours, score, clock, shoot-out.
#[component]
fn ScoreGraphic(frame: Signal<Option<Frame>>) -> impl IntoView {
    let m = expect_context::<Monitor>();
    let params = Memo::new(move |_| {
        m.revision.track();
        m.game
            .with_value(|g| rcss_formats::params::MatchParams::of_match(g).server)
    });
    let name = move |k: usize| {
        frame
            .get()
            .and_then(|f| f.teams[k].name.clone())
            .unwrap_or_else(|| "—".into())
    };
    let score = move |k: usize| frame.get().map_or(0, |f| f.teams[k].score);
    let clock_text = move || {
        frame
            .get()
            .map(|f| clock(f.time, &params.get()).to_string())
            .unwrap_or_default()
    };
    let shoot_out = move || {
        let f = frame.get()?;
        let (a, b) = (f.teams[0].penalty?, f.teams[1].penalty?);
        Some(format!("pens {}–{}", a.scored, b.scored))
    };
    view! {
        <div class="score-graphic" role="group" aria-label="Score">
            <span class="kit" style:background=move || m.colours().left></span>
            <crate::ui::scorebar::TeamLogo side=Side::Left/>
            <span class="sg-name" id="bc-team-l">{move || name(0)}</span>
            <span class="sg-score" id="bc-score">{move || format!("{}–{}", score(0), score(1))}</span>
            <span class="sg-name" id="bc-team-r">{move || name(1)}</span>
            <crate::ui::scorebar::TeamLogo side=Side::Right/>
            <span class="kit" style:background=move || m.colours().right></span>
            <span class="sg-clock" id="bc-clock">{clock_text}</span>
            <Show when=move || shoot_out().is_some()>
                <span class="sg-pens" id="bc-pens">{move || shoot_out().unwrap_or_default()}</span>
            </Show>
        </div>
    }
}

/// Between matches: the last result, and the tournament's table and next fixture when the
/// relay knows of one.
#[component]
fn Intermission(
    info: RwSignal<Option<Info>>,
    last_result: RwSignal<Option<Result_>>,
    frame: Signal<Option<Frame>>,
) -> impl IntoView {
    let tournament = move || {
        info.get()
            .map(|i| i.raw["tournament"].clone())
            .filter(|t| t.is_object())
    };
    let coming = move || {
        let f = frame.get()?;
        if f.mode == PlayMode::TIME_OVER {
            return None;
        }
        let a = f.teams[0].name.clone()?;
        let b = f.teams[1].name.clone().unwrap_or_else(|| "…".into());
        Some(format!("{a} v {b}"))
    };
    // The match this view saw end, else the relay's last result.
    let from_relay = move || {
        let r = info.get()?.raw["last_result"].clone();
        let names = r["teams"].as_array()?;
        let score = r["score"].as_array()?;
        let n = |k: usize| names.get(k)?.as_str().map(str::to_owned);
        let g = |a: &Vec<Value>, k: usize| a.get(k).and_then(Value::as_u64).unwrap_or(0) as u32;
        Some(Result_ {
            names: [n(0)?, n(1)?],
            score: [g(score, 0), g(score, 1)],
            penalties: r["penalties"].as_array().map(|p| [g(p, 0), g(p, 1)]),
        })
    };
    let result_line = move || {
        last_result.get().or_else(from_relay).map(|r| {
            let pens = r
                .penalties
                .map(|p| format!(" ({}–{} on penalties)", p[0], p[1]))
                .unwrap_or_default();
            format!(
                "{} {}–{} {}{pens}",
                r.names[0], r.score[0], r.score[1], r.names[1]
            )
        })
    };
    let standings = move || {
        let t = tournament()?;
        let rows = t["standings"].as_array()?.clone();
        (!rows.is_empty()).then_some(rows)
    };
    let next = move || {
        let t = tournament()?;
        let n = &t["next"];
        if !n.is_object() {
            return None;
        }
        // A group fixture names its teams; a knockout tie its sides, a team once known.
        let side = |v: &Value| match v {
            Value::String(s) => s.clone(),
            Value::Object(_) => v["team"]
                .as_str()
                .or_else(|| v["label"].as_str())
                .unwrap_or("?")
                .to_owned(),
            _ => "?".into(),
        };
        let mut s = format!("{} v {}", side(&n["left"]), side(&n["right"]));
        if let Some(k) = n["knockout"].as_str() {
            s.push_str(&format!(" · {k}"));
        } else if let Some(r) = n["round"].as_u64() {
            s.push_str(&format!(" · round {r}"));
        }
        if let Some(f) = n["field"].as_u64() {
            s.push_str(&format!(" · field {f}"));
        }
        Some(s)
    };
    let cell = |v: &Value, k: &str| match &v[k] {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    view! {
        <section class="intermission" id="intermission" aria-label="Between matches">
            {move || match result_line() {
                Some(r) => view! {
                    <p class="im-kicker">"Full time"</p>
                    <p class="im-result" id="im-result">{r}</p>
                }.into_any(),
                None => view! { <p class="im-kicker">"Coming up"</p> }.into_any(),
            }}
            <Show when=move || coming().is_some()>
                <p class="im-next" id="im-coming">"Next: "{move || coming().unwrap_or_default()}</p>
            </Show>
            <Show when=move || standings().is_some()>
                <table class="im-table" id="im-standings">
                    <caption>{move || {
                        let t = tournament().unwrap_or_default();
                        let group = t["group"].as_str().map(|g| format!(" · group {g}")).unwrap_or_default();
                        let name = t["title"].as_str().or_else(|| t["name"].as_str()).unwrap_or("Tournament");
                        format!("{name}{group}")
                    }}</caption>
                    <thead><tr><th scope="col">"#"</th><th scope="col">"Team"</th><th scope="col">"P"</th><th scope="col">"W"</th><th scope="col">"D"</th><th scope="col">"L"</th><th scope="col">"Goals"</th><th scope="col">"Pts"</th></tr></thead>
                    <tbody>
                        {move || standings().unwrap_or_default().into_iter().enumerate().map(|(i, r)| view! {
                            <tr>
                                <td>{i + 1}</td>
                                <th scope="row">{cell(&r, "team")}</th>
                                <td>{cell(&r, "games")}</td>
                                <td>{cell(&r, "wins")}</td>
                                <td>{cell(&r, "draws")}</td>
                                <td>{cell(&r, "losses")}</td>
                                <td>{format!("{}:{}", cell(&r, "goals_for"), cell(&r, "goals_against"))}</td>
                                <td>{cell(&r, "points")}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </Show>
            <Show when=move || next().is_some() && coming().is_none()>
                <p class="im-next" id="im-fixture">"Next: "{move || next().unwrap_or_default()}</p>
            </Show>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn goal_at(frame: usize) -> Cue {
        Cue {
            frame,
            replay: Some((frame - 80, frame + 10)),
        }
    }

    #[test]
    fn a_goal_fires_then_replays_at_half_speed_then_live_again() {
        let mut d = Director::default();
        let cues = [
            Cue {
                frame: 20,
                replay: None,
            },
            goal_at(200),
        ];
        // The match so far arrives at once: nothing fires for what it passes.
        let s = d.tick(0.0, 150, 0, false, &cues);
        assert!(s.fired.is_empty() && s.replay.is_none());
        // Live frames, one at a time: the goal fires when its frame arrives.
        let mut t = 0.0;
        let mut fired = Vec::new();
        for count in 151..=205 {
            t += 100.0;
            let s = d.tick(t, count, 0, false, &cues);
            assert_eq!(s.replay, None);
            fired.extend(s.fired);
        }
        assert_eq!(fired, vec![1]);
        let goal_time = 100.0 * 51.0;
        // The replay waits, then shows the build-up frame by frame at half speed, while
        // live frames keep coming.
        let s = d.tick(goal_time + REPLAY_WAIT_MS - 1.0, 235, 0, false, &cues);
        assert_eq!(s.replay, None);
        let start = goal_time + REPLAY_WAIT_MS + 10.0;
        assert_eq!(d.tick(start, 236, 0, false, &cues).replay, Some(120));
        let at = |d: &mut Director, k: f64, count| {
            d.tick(start + k * REPLAY_FRAME_MS, count, 0, false, &cues)
                .replay
        };
        assert_eq!(at(&mut d, 10.0, 240), Some(130));
        assert_eq!(at(&mut d, 90.0, 300), Some(210));
        // Past its end: live again, at the newest frame.
        assert_eq!(at(&mut d, 91.0, 330), None);
        assert_eq!(at(&mut d, 92.0, 331), None);
    }

    #[test]
    fn a_new_match_starts_over_and_a_jump_fires_nothing() {
        let mut d = Director::default();
        let cues = [goal_at(100)];
        d.tick(0.0, 90, 0, false, &cues);
        assert_eq!(d.tick(100.0, 101, 0, false, &cues).fired, vec![0]);
        // A new match: fewer frames than before.
        let s = d.tick(200.0, 5, 0, false, &[]);
        assert!(s.reset && s.replay.is_none());
        d.tick(300.0, 6, 0, false, &cues);
        // A reconnection brings 200 frames at once: the goal it passes is not replayed.
        let s = d.tick(400.0, 206, 0, false, &cues);
        assert!(s.fired.is_empty());
        let later = d.tick(400.0 + REPLAY_WAIT_MS * 2.0, 207, 0, false, &cues);
        assert_eq!(later.replay, None);
        // A new match that arrives whole with more frames than the last: its number says so.
        let mut d = Director::default();
        d.tick(0.0, 90, 1, false, &cues);
        assert_eq!(d.tick(100.0, 101, 1, false, &cues).fired, vec![0]);
        // (The cues are the new match's: worked out again when its frames came.)
        let cues = [goal_at(151)];
        let s = d.tick(200.0, 150, 2, false, &cues);
        assert!(s.reset && s.fired.is_empty());
        // Its own goal then fires.
        assert_eq!(d.tick(300.0, 152, 2, false, &cues).fired, vec![0]);
        assert!(d.tick(0.0, 0, 2, false, &cues).reset);
    }

    #[test]
    fn a_goal_during_a_replay_is_seen_live_and_replays_do_not_pile_up() {
        let mut d = Director::default();
        let cues = [goal_at(100), goal_at(130)];
        d.tick(0.0, 95, 0, false, &cues);
        let mut t = 0.0;
        for count in 96..=101 {
            t += 100.0;
            d.tick(t, count, 0, false, &cues);
        }
        // The first replay runs.
        t += REPLAY_WAIT_MS + 100.0;
        assert_eq!(d.tick(t, 120, 0, false, &cues).replay, Some(20));
        t += 200.0;
        assert!(d.tick(t, 125, 0, false, &cues).replay.is_some());
        // The second goal: back to live at once, and only its replay to come.
        t += 100.0;
        let s = d.tick(t, 131, 0, false, &cues);
        assert_eq!((s.fired, s.replay), (vec![1], None));
        t += REPLAY_WAIT_MS + 100.0;
        assert_eq!(d.tick(t, 160, 0, false, &cues).replay, Some(50));
        // Full time ends a replay under way, and none starts after it.
        t += 200.0;
        assert_eq!(d.tick(t, 165, 0, true, &cues).replay, None);
        let cues = [goal_at(100), goal_at(130), goal_at(170)];
        t += 100.0;
        d.tick(t, 171, 0, false, &cues);
        t += REPLAY_WAIT_MS + 100.0;
        assert_eq!(d.tick(t, 180, 0, true, &cues).replay, None);
        // A replay that could not start for long (the tab hidden) is dropped.
        let mut d = Director::default();
        let cues = [goal_at(100)];
        d.tick(0.0, 95, 0, false, &cues);
        d.tick(100.0, 101, 0, false, &cues);
        let late = 100.0 + REPLAY_WAIT_MS + REPLAY_STALE_MS + 1.0;
        assert_eq!(d.tick(late, 300, 0, false, &cues).replay, None);
    }

    #[test]
    fn lower_thirds_say_who_scored_and_the_score() {
        let names = ["HELIOS_L".to_owned(), "HELIOS_R".to_owned()];
        let p = ServerParams::defaults();
        let goal = Moment {
            kind: MomentKind::Goal {
                scorer: Some(11),
                assist: Some(10),
                own_goal: false,
            },
            side: Some(Side::Right),
            cycle: 3166,
            frame: 3354,
            score: [1, 2],
            penalties: None,
        };
        let lt = lower_third(&goal, &names, &p, Lang::En, 0.0);
        assert_eq!(lt.title, "GOAL");
        assert_eq!(lt.line, "HELIOS_R #11 48' · assist #10");
        assert_eq!(lt.detail, "HELIOS_L 1–2 HELIOS_R");
        let own = Moment {
            kind: MomentKind::Goal {
                scorer: Some(3),
                assist: None,
                own_goal: true,
            },
            ..goal
        };
        let lt = lower_third(&own, &names, &p, Lang::De, 0.0);
        assert_eq!(
            (lt.title.as_str(), lt.line.as_str()),
            ("EIGENTOR", "HELIOS_L #3 48'")
        );
    }
}
