//! The embed view, for a match inside another site's page (book, "Embedding"): the field
//! and the score bar only, following live, with play/pause for a log, at any size down to
//! 320×180. The embedding page hears goals, cards, play-mode changes and the score through
//! `postMessage` (format version [`MESSAGE_VERSION`]), and the *Embed…* panel of the full
//! page gives the `<iframe>` snippet to copy.

use super::announce::Moment;
use crate::state::{Mode, Monitor};
use crate::timeline::Direction;
use crate::ui::dialog::Dialog;
use leptos::prelude::*;
use pitchside_wire::link::{self, EMBED_KEY};
use rcss_formats::PlayMode;
use serde_json::{json, Value};

/// The version of the messages an embedding page receives; a change that breaks a reader
/// of these messages gets a new number.
pub const MESSAGE_VERSION: u32 = 1;
/// Cycles between two frames beyond which the second is a seek: the embedding page gets
/// the new state rather than the events in between.
const SEEK_CYCLES: u32 = 50;

fn side_code(k: usize) -> &'static str {
    if k == 0 {
        "l"
    } else {
        "r"
    }
}

/// The messages for the move from `before` to `now`: a `state` message for the first frame
/// and after a seek, else one message per goal, card, play-mode change and the end.
pub fn messages(before: Option<&Moment>, now: &Moment) -> Vec<Value> {
    let base = |kind: &str| {
        json!({
            "source": "pitchside",
            "version": MESSAGE_VERSION,
            "type": kind,
            "cycle": now.time,
            "mode": now.mode.name(),
            "teams": now.names,
            "score": now.score,
        })
    };
    let Some(before) = before.filter(|b| b.time <= now.time && now.time - b.time <= SEEK_CYCLES)
    else {
        return vec![base("state")];
    };
    let mut out = Vec::new();
    for k in 0..2 {
        if now.score[k] > before.score[k] {
            let mut m = base("goal");
            m["side"] = json!(side_code(k));
            out.push(m);
        }
        for (now_bits, before_bits, card) in [
            (now.yellow[k], before.yellow[k], "yellow"),
            (now.red[k], before.red[k], "red"),
        ] {
            let new = now_bits & !before_bits;
            for unum in (1..16u16).filter(|u| new & (1 << u) != 0) {
                let mut m = base("card");
                m["side"] = json!(side_code(k));
                m["unum"] = json!(unum);
                m["card"] = json!(card);
                out.push(m);
            }
        }
    }
    if now.mode != before.mode {
        out.push(base("playmode"));
        if now.mode == PlayMode::TIME_OVER {
            out.push(base("end"));
        }
    }
    out
}

/// Sends the messages to the embedding page as the frame on screen moves. Nothing is sent
/// when the page is not in a frame.
#[component]
pub fn Messages() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let before: StoredValue<Option<Moment>> = StoredValue::new(None);
    Effect::new(move |_| {
        let i = m.index.get();
        m.count.track();
        let Some(now) = m.with_frame(i, Moment::of) else {
            return;
        };
        let out = before.with_value(|b| messages(b.as_ref(), &now));
        before.set_value(Some(now));
        let Some(w) = web_sys::window() else { return };
        let Ok(Some(parent)) = w.parent() else { return };
        if js_sys::Object::is(&parent, &w) {
            return;
        }
        for msg in out {
            if let Ok(v) = js_sys::JSON::parse(&msg.to_string()) {
                // The data is what any spectator of the match sees: any embedder may read it.
                let _ = parent.post_message(&v, "*");
            }
        }
    });
}

/// The embed view itself.
#[component]
pub fn EmbedView() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let is_log = move || m.mode.get() != Mode::Live;
    let playing = move || m.playing.get() && m.direction.get() == Direction::Forward;
    let toggle = move |_| {
        if playing() {
            m.pause();
        } else {
            m.play(Direction::Forward);
        }
    };
    view! {
        <main class="app embed">
            <super::scorebar::ScoreBar/>
            <super::canvas::FieldCanvas/>
            <Show when=move || m.error.with(Option::is_some)>
                <p class="embed-error" role="alert">{move || m.error.get().unwrap_or_default()}</p>
            </Show>
            <Show when=is_log>
                <button
                    id="play"
                    class="embed-play"
                    title=move || if playing() { "Pause" } else { "Play" }
                    aria-label=move || if playing() { "Pause" } else { "Play" }
                    on:click=toggle
                >
                    {move || if playing() { "❚❚" } else { "▶" }}
                </button>
            </Show>
            <super::announce::Announcer/>
            <Messages/>
        </main>
    }
}

/// The address of the embed view of what the page shows, if it has one: a relay's match
/// (`/m/NAME/embed`) or a log on the web (`?log=…&embed`). A file opened from the disk has
/// none.
pub fn embed_url(origin: &str, match_name: Option<&str>, log_url: Option<&str>) -> Option<String> {
    if let Some(url) = log_url {
        let q = link::with_query_value("", link::LOG_KEY, Some(url));
        return Some(format!("{origin}/{q}&{EMBED_KEY}"));
    }
    match_name.map(|n| format!("{origin}/m/{n}/embed"))
}

/// The snippet to paste into another site's page.
pub fn iframe_snippet(url: &str) -> String {
    format!(
        "<iframe src=\"{}\" width=\"640\" height=\"400\" style=\"border:0\" \
         title=\"Live match\" allow=\"fullscreen\"></iframe>",
        url.replace('&', "&amp;").replace('"', "&quot;")
    )
}

/// The *Embed…* panel of the full page: the snippet and a button to copy it.
#[component]
pub fn EmbedPanel() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let url = move || {
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        let name = crate::source::live::match_name();
        let log = m.log_url.get();
        let live = m.mode.get() == Mode::Live;
        embed_url(
            &origin,
            if live { name.as_deref() } else { None },
            log.as_deref(),
        )
        // A relay's only match, shown at `/`: its embed view is `/?embed`.
        .or_else(|| live.then(|| format!("{origin}/?{EMBED_KEY}")))
    };
    let copied = RwSignal::new(false);
    let copy = move |_| {
        if let Some(u) = url() {
            let _ = crate::export::copy_text(&iframe_snippet(&u));
            copied.set(true);
        }
    };
    view! {
        <Dialog which=crate::state::Overlay::Embed id="embed-panel" title="Embed this match">
                {move || match url() {
                    Some(u) => view! {
                        <p>"Paste this into a page of your site to show the field and the score:"</p>
                        <textarea id="embed-snippet" readonly rows="3" aria-label="The iframe snippet"
                            prop:value=iframe_snippet(&u)></textarea>
                        <button id="embed-copy" on:click=copy>"Copy"</button>
                        <span role="status">{move || if copied.get() { " Copied." } else { "" }}</span>
                        <p class="hint">
                            "The embedding page hears goals, cards and play-mode changes through postMessage (book, \"Embedding\")."
                        </p>
                    }.into_any(),
                    None => view! {
                        <p>"A file opened from your disk has no address to embed: open a live match or a log on the web."</p>
                    }.into_any(),
                }}
        </Dialog>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moment(time: u32, mode: PlayMode, score: [u32; 2]) -> Moment {
        crate::ui::announce::test_moment(time, mode, ["A", "B"], score)
    }

    #[test]
    fn the_first_frame_and_a_seek_give_the_state_then_events_follow() {
        let a = moment(
            1,
            PlayMode::from_name(b"kick_off_l").unwrap_or_default(),
            [0, 0],
        );
        let first = messages(None, &a);
        assert_eq!(
            first,
            vec![
                json!({"source": "pitchside", "version": 1, "type": "state", "cycle": 1,
                "mode": "kick_off_l", "teams": ["A", "B"], "score": [0, 0]})
            ]
        );
        let b = moment(272, PlayMode::GOAL_R, [0, 1]);
        assert_eq!(messages(Some(&a), &b)[0]["type"], "state", "a seek");
        let before = moment(271, PlayMode::PLAY_ON, [0, 0]);
        let got = messages(Some(&before), &b);
        let kinds: Vec<_> = got.iter().map(|m| m["type"].clone()).collect();
        assert_eq!(kinds, vec![json!("goal"), json!("playmode")]);
        assert_eq!(got[0]["side"], "r");
        assert_eq!(got[0]["score"], json!([0, 1]));
        let mut c = moment(273, PlayMode::GOAL_R, [0, 1]);
        c.yellow[0] = 1 << 4;
        let got = messages(Some(&b), &c);
        assert_eq!(got.len(), 1);
        assert_eq!(
            (
                &got[0]["type"],
                &got[0]["side"],
                &got[0]["unum"],
                &got[0]["card"]
            ),
            (&json!("card"), &json!("l"), &json!(4), &json!("yellow"))
        );
        let end = messages(
            Some(&moment(5999, PlayMode::PLAY_ON, [2, 3])),
            &moment(6000, PlayMode::TIME_OVER, [2, 3]),
        );
        assert_eq!(end[1]["type"], "end");
        assert_eq!(messages(Some(&c), &c), Vec::<Value>::new());
    }

    #[test]
    fn the_embed_address_of_a_match_and_of_a_log() {
        assert_eq!(
            embed_url("https://cup.example", Some("final"), None).as_deref(),
            Some("https://cup.example/m/final/embed")
        );
        let log = embed_url(
            "https://cup.example",
            None,
            Some("https://logs.example/a b.rcg.gz"),
        )
        .unwrap_or_default();
        assert_eq!(
            log,
            "https://cup.example/?log=https://logs.example/a%20b.rcg.gz&embed"
        );
        assert!(link::is_embed(
            "/",
            "?log=https://logs.example/a%20b.rcg.gz&embed"
        ));
        assert_eq!(embed_url("https://cup.example", None, None), None);
        assert_eq!(
            iframe_snippet("https://x/?log=a&embed"),
            "<iframe src=\"https://x/?log=a&amp;embed\" width=\"640\" height=\"400\" \
             style=\"border:0\" title=\"Live match\" allow=\"fullscreen\"></iframe>"
        );
    }
}
