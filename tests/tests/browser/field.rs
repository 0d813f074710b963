//! The field in headless Chromium, on real logs: what is drawn is read through the page's test
//! hook `window.__pitchside_scene()` (a summary of the scene last painted), not only from
//! screenshots. One browser session walks through: the team logo of a log that has one, a
//! player clicked and his panel, zoom by key and wheel, following the ball, flipping sides,
//! every overlay on, the message board of a `record_messages` log, and a phone-sized window.
//!
//! Screenshots go to `tests/artifacts/field-*.png`. Needs the web app built into `dist/`.

use fantoccini::actions::{Actions, WheelAction, WheelActions};
use fantoccini::key::Key;
use fantoccini::Locator;
use pitchside_tests::browser::{self, scene_player, scene_zoom, Browser};
use pitchside_tests::fixtures;
use serde_json::Value;
use std::time::Duration;

const RECORD_MESSAGES: &str = "logs/record-messages-v6/20261122132927-REC_L_0-vs-REC_R_0.rcg.gz";

async fn press(b: &Browser, keys: &str) {
    b.keys(keys).await;
}

/// Opens a log and stops the playback that opening starts, so the test decides what is shown.
async fn open_file(b: &Browser, rel: &str, frames: usize) {
    b.choose(&fixtures::path(rel).display().to_string()).await;
    let want = format!("/ {frames}");
    b.wait_text("#frames", "the whole log", |t| t.ends_with(&want))
        .await;
    b.wait_text("#play", "playback to start", |t| t.contains("❚❚"))
        .await;
    b.click("#play").await;
    b.wait_text("#play", "playback to stop", |t| t.contains("▶"))
        .await;
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

/// How many players of the scene `s` have their view cone drawn.
fn cones(s: &Value) -> usize {
    s["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["cone"] == true)
        .count()
}

/// How many entries of `kind` the message board lists.
async fn kinds(b: &Browser, kind: &str) -> usize {
    count(b, &format!("#messages .entry[data-kind={kind}]")).await
}

/// How many elements `css` finds on the page.
async fn count(b: &Browser, css: &str) -> usize {
    b.client.find_all(Locator::Css(css)).await.unwrap().len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn field_draws_logos_players_zoom_follow_overlays_and_messages() {
    let (_relay, b) = Browser::on_bundled_replay().await;

    // A log with helios' logo: the left team's 184×32 image, drawn.
    open_file(&b, fixtures::SHORT_V6, 679).await;
    let logo = b.client.find(Locator::Css("#logo-l")).await.unwrap();
    assert_eq!(
        logo.attr("data-width").await.unwrap().as_deref(),
        Some("184")
    );
    assert_eq!(
        logo.attr("data-height").await.unwrap().as_deref(),
        Some("32")
    );
    let opaque = b
        .client
        .execute(
            "const c = document.getElementById('logo-l'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] === 255) n++; return n;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        opaque.as_u64(),
        Some(184 * 32),
        "every logo pixel is painted"
    );
    assert!(
        b.client.find(Locator::Css("#logo-r")).await.is_err(),
        "the right team sent no logo"
    );

    // Into the first half's play: 22 players, the ball, both offside lines, the pitch.
    press(&b, &Key::Home.to_string()).await;
    for _ in 0..2 {
        press(&b, &format!("{}{}", Key::Shift, Key::Right)).await;
    }
    let s = b
        .wait_scene("a frame of play", |s| {
            s["players"].as_array().is_some_and(|p| p.len() == 22) && s["time"].as_u64() > Some(150)
        })
        .await;
    assert!(s["ball"].is_object());
    assert!(
        s["offside"][0].is_number() && s["offside"][1].is_number(),
        "{s}"
    );
    assert!(s["shapes"]["pitch_line"].as_u64() > Some(10));
    assert!(s["selected"].is_null());

    // Click a field player: he is selected, his panel opens, his cone and areas show.
    let (ox, oy) = b.canvas_origin().await;
    b.click_player(&s, "l7").await;
    // The selection and the drawing that follows it: the cone comes with the next scene.
    let s = b
        .wait_scene("l7 selected and drawn so", |s| {
            s["selected"] == "l7"
                && s["players"]
                    .as_array()
                    .is_some_and(|p| p.iter().any(|p| p["id"] == "l7" && p["cone"] == true))
        })
        .await;
    let me = scene_player(&s, "l7");
    assert_eq!(me["cone"], true, "the selected player's view cone is drawn");
    assert_eq!(cones(&s), 1);
    assert_eq!(s["shapes"]["kickable_area"], 1);
    assert_eq!(s["shapes"]["tackle_area"], 1);
    let panel = b.client.find(Locator::Css("#player-panel")).await.unwrap();
    assert_eq!(
        panel.attr("data-player").await.unwrap().as_deref(),
        Some("l7")
    );
    let text = panel.text().await.unwrap();
    for word in [
        "position",
        "velocity",
        "stamina",
        "kick",
        "dash",
        "Player type",
    ] {
        assert!(text.contains(word), "the panel shows {word}: {text}");
    }
    b.screenshot("field-player-panel").await;

    // A laptop's 1280×800 with the panel beside the field, at cycle 115: the right team
    // defends deep, its line at the far right of the field, under the field's buttons (zoom,
    // follow, flip) at the top right. Its label is drawn clear of them, on the canvas.
    b.client.set_window_size(1280, 800).await.unwrap();
    // T puts the cursor in the cycle box, the number shown selected.
    b.type_cycle(115).await;
    let at115 = b
        .wait_scene("cycle 115 on the laptop", |s| {
            s["time"] == 115
                && f(&s["view"]["height"]) < 600.0
                && s["offside_labels"].as_array().is_some_and(|l| l.len() == 2)
        })
        .await;
    let tools = b
        .eval(
            "const c = document.getElementById('field').getBoundingClientRect(); \
             const t = document.querySelector('.field-tools').getBoundingClientRect(); \
             return [t.left - c.left, t.top - c.top, t.right - c.left, t.bottom - c.top];",
        )
        .await;
    let tools: Vec<f64> = tools.as_array().unwrap().iter().map(f).collect();
    // The drawing knew where they were.
    let covered: Vec<f64> = at115["covered"][0]
        .as_array()
        .expect("the buttons' place in the scene")
        .iter()
        .map(f)
        .collect();
    assert!(
        covered.iter().zip(&tools).all(|(a, b)| (a - b).abs() < 0.5),
        "{covered:?} {tools:?}"
    );
    let label = at115["offside_labels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["team"] == "r")
        .expect("the right team's label")["rect"]
        .clone();
    let label: Vec<f64> = label.as_array().unwrap().iter().map(f).collect();
    assert!(
        label[0] < tools[2] && tools[0] < label[2],
        "the label is in the buttons' column: {label:?} {tools:?}"
    );
    assert!(
        label[3] <= tools[1] || label[1] >= tools[3],
        "the label {label:?} is under the buttons {tools:?}"
    );
    assert!(
        label[1] >= 0.0
            && label[3] <= f(&at115["view"]["height"])
            && label[2] <= f(&at115["view"]["width"]),
        "the label {label:?} is on the canvas: {}",
        at115["view"]
    );
    b.screenshot("field-offside-label").await;
    b.client.set_window_size(1280, 1000).await.unwrap();

    // Zoom in with the keyboard, then the wheel, at the canvas.
    assert!((scene_zoom(&s) - 1.0).abs() < 1e-9, "{s}");
    press(&b, "++").await;
    let s = b
        .wait_scene("zoomed in by keys", |s| scene_zoom(s) > 1.5)
        .await;
    let keyed = scene_zoom(&s);
    let (w, h) = (f(&s["view"]["width"]), f(&s["view"]["height"]));
    let mut wheel = WheelActions::new("wheel".into());
    wheel.push(WheelAction::Scroll {
        duration: None,
        x: (ox + w / 2.0) as i64,
        y: (oy + h / 2.0) as i64,
        delta_x: 0,
        delta_y: -300,
    });
    b.client.perform_actions(wheel).await.unwrap();
    b.wait_scene("zoomed in by the wheel", |s| scene_zoom(s) > keyed * 1.5)
        .await;

    // Follow the ball while the log plays: the view stays centred on it.
    press(&b, "f").await;
    let s = b
        .wait_scene("the view on the ball", |s| {
            (f(&s["view"]["centre"][0]) - f(&s["ball"]["x"])).abs() < 1e-6
        })
        .await;
    let start = s["time"].as_u64().unwrap();
    press(&b, " ").await;
    let s = b
        .wait_scene("the ball followed for 10 cycles", |s| {
            s["time"].as_u64() > Some(start + 10)
        })
        .await;
    assert!(
        (f(&s["view"]["centre"][0]) - f(&s["ball"]["x"])).abs() < 1e-6,
        "{s}"
    );
    assert!(
        (f(&s["view"]["centre"][1]) - f(&s["ball"]["y"])).abs() < 1e-6,
        "{s}"
    );
    press(&b, " ").await;
    b.screenshot("field-zoomed").await;

    // Back to the whole field, turned round.
    press(&b, "0").await;
    b.click("#flip").await;
    let s = b
        .wait_scene("the whole field, flipped", |s| {
            s["view"]["flipped"] == true && (scene_zoom(s) - 1.0).abs() < 1e-9
        })
        .await;
    // The left goal is now on the right of the canvas: the left team's goalie too.
    let l1 = scene_player(&s, "l1");
    assert!(
        f(&l1["x"]) < 0.0 && f(&l1["px"]) > f(&s["view"]["width"]) / 2.0,
        "{l1}"
    );
    b.click("#flip").await;

    // Every overlay on, from the settings panel.
    b.click("#settings-toggle").await;
    b.click_xpath("//button[text()='Show everything']").await;
    b.click("#settings-toggle").await;
    b.click("#player-toggle").await;
    let s = b
        .wait_scene("every overlay", |s| {
            s["shapes"]["flag"].as_u64() == Some(55)
        })
        .await;
    assert_eq!(cones(&s), 22, "everyone's cone");
    assert!(s["shapes"]["grid"].as_u64() > Some(10));
    assert!(s["shapes"]["trail"].as_u64() > Some(10), "{s}");
    assert!(s["shapes"]["ball_path"].as_u64().is_some());
    b.screenshot("field-full-overlay").await;

    // The message board of a log with messages follows playback.
    open_file(&b, RECORD_MESSAGES, 429).await;
    b.click("#messages-toggle").await;
    press(&b, &Key::End.to_string()).await;
    b.wait_text("#cycle", "the last cycle", |t| t == "400")
        .await;
    let n = count(&b, "#messages .entry").await;
    assert!(n >= 100, "{n} entries");
    assert!(kinds(&b, "say").await > 10);
    assert_eq!(
        kinds(&b, "command").await,
        0,
        "received commands are hidden by default"
    );
    // Hide what the players said: the referee's calls, the derived decisions and the
    // result remain, the result last.
    b.click("#messages label.kind-say input").await;
    b.wait_text("#messages .entry:last-child", "the last entry", |t| {
        !t.is_empty()
    })
    .await;
    assert_eq!(kinds(&b, "say").await, 0);
    assert!(kinds(&b, "referee").await > 5);
    assert!(kinds(&b, "decision").await > 5);
    assert_eq!(kinds(&b, "result").await, 1, "the final result at the end");
    let at_end = count(&b, "#messages .entry").await;
    let last = b.text("#messages .entry:last-child").await;
    assert!(
        last.contains("result") || last.contains("full time"),
        "{last}"
    );
    // One team's messages only.
    b.click("#messages-team option[value=r]").await;
    b.wait_text("#messages .entry:last-child", "the last entry", |t| {
        !t.is_empty()
    })
    .await;
    let left = count(&b, "#messages .entry.side-l").await;
    assert_eq!(left, 0, "the left team's messages are filtered out");
    assert!(count(&b, "#messages .entry.side-r").await > 0);
    b.click("#messages-team option[value='']").await;
    // Earlier in the match, only what was said by then.
    press(&b, &Key::Home.to_string()).await;
    b.wait_text("#cycle", "the first cycle", |t| t == "1").await;
    let early = count(&b, "#messages .entry").await;
    assert!(
        early < at_end / 2,
        "{early} entries at cycle 1, {at_end} at the end"
    );
    assert_eq!(kinds(&b, "result").await, 0);
    b.screenshot("field-messages").await;

    // A phone, with the settings back to their defaults: the field takes the width of the
    // screen.
    b.click("#settings-toggle").await;
    b.click_xpath("//button[text()='Reset to defaults']").await;
    b.click("#settings-toggle").await;
    b.wait_scene("the default overlays", |s| s["shapes"]["flag"].is_null())
        .await;
    b.client.set_window_size(390, 844).await.unwrap();
    let s = b
        .wait_scene("the field resized", |s| f(&s["view"]["width"]) < 400.0)
        .await;
    let inner = b
        .client
        .execute("return document.documentElement.clientWidth", vec![])
        .await
        .unwrap();
    assert!(
        f(&s["view"]["width"]) >= f(&inner) - 12.0,
        "the field is {} wide in a page {inner} px wide",
        s["view"]["width"]
    );
    // Nothing (transport, panels) makes the page wider than the phone: no sideways scrolling.
    let wide = b
        .eval("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        .await;
    assert!(
        wide.as_f64().unwrap() <= 0.0,
        "the page is {wide} px wider than the phone"
    );
    b.screenshot("field-phone").await;

    // Two fingers spread apart zoom in; one finger drags the field along.
    let before = b.scene().await;
    let (ox, oy) = b.canvas_origin().await;
    let (cx, cy) = (
        ox + f(&before["view"]["width"]) / 2.0,
        oy + f(&before["view"]["height"]) / 2.0,
    );
    let finger = |id: &str, from: f64, to: f64, y: f64| {
        browser::finger_drag(id, &[(from, y), (to, y)], Duration::from_millis(300))
    };
    b.client
        .perform_actions(
            Actions::from(finger("finger1", cx - 30.0, cx - 120.0, cy)).and(finger(
                "finger2",
                cx + 30.0,
                cx + 120.0,
                cy,
            )),
        )
        .await
        .unwrap();
    let pinched = b
        .wait_scene("zoomed in by a pinch", |s| {
            scene_zoom(s) > scene_zoom(&before) * 2.0
        })
        .await;
    b.client
        .perform_actions(finger("finger1", cx, cx + 60.0, cy))
        .await
        .unwrap();
    let dragged = b
        .wait_scene("dragged by a finger", |s| {
            f(&s["view"]["centre"][0]) < f(&pinched["view"]["centre"][0]) - 1.0
        })
        .await;
    let moved = (f(&pinched["view"]["centre"][0]) - f(&dragged["view"]["centre"][0]))
        * f(&dragged["view"]["scale"]);
    assert!(
        (moved - 60.0).abs() < 8.0,
        "the field moves with the finger: {moved} px"
    );
    // Sharp on any display: the canvas has a pixel for every device pixel.
    let sharp = b
        .client
        .execute(
            "const c = document.getElementById('field'); return c.width === Math.round(c.clientWidth * devicePixelRatio) && c.height === Math.round(c.clientHeight * devicePixelRatio);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(sharp, Value::Bool(true));
    b.close().await;
}
