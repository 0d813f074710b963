//! What a screen reader hears while the match plays: goals, cards, play-mode changes and the
//! final score, in a polite live region that is otherwise invisible.
//!
//! A match changes play mode every few seconds and at 16× several times a second; reading
//! each change aloud would drown the goals. So play-mode changes are spoken at most every
//! [`MODE_GAP_MS`], `play_on` never (it follows nearly every other mode), and a goal, a card
//! or the final whistle always. A seek is not play: jumping back or far ahead says nothing
//! until play moves on from the new place.

use crate::state::Monitor;
use leptos::prelude::*;
use rcss_formats::model::state::{RED_CARD, YELLOW_CARD};
use rcss_formats::{Frame, PlayMode, Side};

/// Shortest time between two spoken play-mode changes.
pub const MODE_GAP_MS: f64 = 4000.0;
/// Cycles between two frames beyond which the second is a seek, not play.
const SEEK_CYCLES: u32 = 50;

/// What of a frame can be announced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moment {
    pub time: u32,
    pub mode: PlayMode,
    pub names: [String; 2],
    pub score: [u32; 2],
    /// Bit `unum` set for each player of the side with a yellow (red) card.
    pub yellow: [u16; 2],
    pub red: [u16; 2],
}

impl Moment {
    pub fn of(f: &Frame) -> Moment {
        let mut m = Moment {
            time: f.time,
            mode: f.mode,
            names: f
                .teams
                .clone()
                .map(|t| t.name.unwrap_or_else(|| "no team".into())),
            score: [f.teams[0].score, f.teams[1].score],
            ..Moment::default()
        };
        for p in &f.players {
            let (Some(side), 1..=15) = (p.side, p.unum) else {
                continue;
            };
            let k = usize::from(side == Side::Right);
            if p.state & YELLOW_CARD != 0 {
                m.yellow[k] |= 1 << p.unum;
            }
            if p.state & RED_CARD != 0 {
                m.red[k] |= 1 << p.unum;
            }
        }
        m
    }

    fn score_line(&self) -> String {
        format!(
            "{} {}, {} {}",
            self.names[0], self.score[0], self.names[1], self.score[1]
        )
    }
}

/// An announcement, and whether it must be spoken even right after another.
#[derive(Clone, Debug, PartialEq)]
pub struct Announcement {
    pub text: String,
    pub urgent: bool,
}

/// What changed from `before` to `now` that a listener should hear, if anything.
pub fn announcement(before: &Moment, now: &Moment) -> Option<Announcement> {
    if now.time < before.time || now.time - before.time > SEEK_CYCLES {
        return None;
    }
    let mut urgent = Vec::new();
    for k in 0..2 {
        if now.score[k] > before.score[k] {
            urgent.push(format!("Goal for {}! {}.", now.names[k], now.score_line()));
        }
        for (bits_now, bits_before, what) in [
            (now.red[k], before.red[k], "Red card"),
            (now.yellow[k], before.yellow[k], "Yellow card"),
        ] {
            let new = bits_now & !bits_before;
            for unum in (1..16u16).filter(|u| new & (1 << u) != 0) {
                urgent.push(format!("{what} for {} {unum}.", now.names[k]));
            }
        }
    }
    if now.mode == PlayMode::TIME_OVER && before.mode != PlayMode::TIME_OVER {
        urgent.push(format!("Full time: {}.", now.score_line()));
    }
    if !urgent.is_empty() {
        return Some(Announcement {
            text: urgent.join(" "),
            urgent: true,
        });
    }
    if now.mode != before.mode && now.mode != PlayMode::PLAY_ON {
        let teams = [
            rcss_formats::Team {
                name: Some(now.names[0].clone()),
                ..Default::default()
            },
            rcss_formats::Team {
                name: Some(now.names[1].clone()),
                ..Default::default()
            },
        ];
        return Some(Announcement {
            text: super::scorebar::mode_words(now.mode, &teams),
            urgent: false,
        });
    }
    None
}

/// Decides whether an announcement is spoken now (at `now_ms`), keeping the gap between
/// play-mode changes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limiter {
    last_ms: Option<f64>,
}

impl Limiter {
    pub fn allow(&mut self, a: &Announcement, now_ms: f64) -> bool {
        let free = self.last_ms.is_none_or(|t| now_ms - t >= MODE_GAP_MS);
        if a.urgent || free {
            self.last_ms = Some(now_ms);
            true
        } else {
            false
        }
    }
}

/// The live region. Invisible; the text it holds is the last thing announced.
#[component]
pub fn Announcer() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let said = RwSignal::new(String::new());
    let before: StoredValue<Option<Moment>> = StoredValue::new(None);
    let limiter = StoredValue::new(Limiter::default());
    Effect::new(move |_| {
        let i = m.index.get();
        m.count.track();
        let Some(now) = m.with_frame(i, Moment::of) else {
            return;
        };
        let a = before.with_value(|b| b.as_ref().and_then(|b| announcement(b, &now)));
        before.set_value(Some(now));
        if let Some(a) = a {
            if limiter.try_update_value(|l| l.allow(&a, crate::source::now())) == Some(true) {
                said.set(a.text);
            }
        }
    });
    view! {
        <div id="announce" class="sr-only" role="status" aria-live="polite" aria-atomic="true">
            {move || said.get()}
        </div>
    }
}

/// A moment without cards, for the tests here and of the embed view's messages.
#[cfg(test)]
pub(crate) fn test_moment(time: u32, mode: PlayMode, names: [&str; 2], score: [u32; 2]) -> Moment {
    Moment {
        time,
        mode,
        names: names.map(str::to_owned),
        score,
        ..Moment::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moment(time: u32, mode: PlayMode, score: [u32; 2]) -> Moment {
        test_moment(time, mode, ["HELIOS_L", "HELIOS_R"], score)
    }

    #[test]
    fn goals_cards_and_full_time_are_urgent_and_name_the_team() {
        let a = moment(271, PlayMode::PLAY_ON, [0, 0]);
        let b = moment(272, PlayMode::GOAL_R, [0, 1]);
        assert_eq!(
            announcement(&a, &b),
            Some(Announcement {
                text: "Goal for HELIOS_R! HELIOS_L 0, HELIOS_R 1.".into(),
                urgent: true
            })
        );
        let mut c = moment(300, PlayMode::PLAY_ON, [0, 1]);
        c.yellow[0] = 1 << 11;
        let mut d = c.clone();
        d.time = 301;
        d.red[1] = 1 << 7;
        d.yellow[1] = 1 << 7;
        assert_eq!(
            announcement(&c, &d).map(|a| a.text),
            Some("Red card for HELIOS_R 7. Yellow card for HELIOS_R 7.".into())
        );
        assert_eq!(
            announcement(&moment(299, PlayMode::PLAY_ON, [0, 1]), &c).map(|a| a.text),
            Some("Yellow card for HELIOS_L 11.".into())
        );
        let end = moment(6000, PlayMode::TIME_OVER, [2, 3]);
        assert_eq!(
            announcement(&moment(5999, PlayMode::PLAY_ON, [2, 3]), &end).map(|a| a.text),
            Some("Full time: HELIOS_L 2, HELIOS_R 3.".into())
        );
    }

    #[test]
    fn play_mode_changes_are_spoken_but_not_play_on_nor_a_seek() {
        let a = moment(100, PlayMode::PLAY_ON, [0, 0]);
        let b = moment(101, PlayMode::GOAL_L, [0, 0]);
        let spoken = announcement(&a, &b).expect("a mode change");
        assert!(!spoken.urgent);
        assert_eq!(
            announcement(&b, &moment(102, PlayMode::PLAY_ON, [0, 0])),
            None
        );
        // A seek across a goal says nothing: it is not play.
        assert_eq!(
            announcement(&a, &moment(4000, PlayMode::PLAY_ON, [3, 1])),
            None
        );
        assert_eq!(
            announcement(&b, &moment(50, PlayMode::PLAY_ON, [0, 0])),
            None
        );
        assert_eq!(announcement(&a, &a), None);
    }

    #[test]
    fn mode_changes_keep_their_gap_and_goals_do_not_wait() {
        let mode = Announcement {
            text: "free kick HELIOS_L".into(),
            urgent: false,
        };
        let goal = Announcement {
            text: "Goal".into(),
            urgent: true,
        };
        let mut l = Limiter::default();
        assert!(l.allow(&mode, 0.0));
        assert!(!l.allow(&mode, 1000.0));
        assert!(l.allow(&goal, 1500.0));
        assert!(!l.allow(&mode, 4000.0));
        assert!(l.allow(&mode, 5500.0));
        // 16× playback for a minute: a mode change every 100 ms, at most one spoken per gap.
        let mut l = Limiter::default();
        let spoken = (0..600)
            .filter(|i| l.allow(&mode, f64::from(*i) * 100.0))
            .count();
        assert!(spoken <= 60_000 / MODE_GAP_MS as usize + 1, "{spoken}");
    }
}
