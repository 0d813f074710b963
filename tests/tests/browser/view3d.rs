//! The 3D view in headless Chromium, drawn by SwiftShader (WebGL2 in software): a link opens
//! it; its top camera puts every player where the 2D field puts him, in the pixels the
//! worker painted; the broadcast camera shows the ball; the page says so and keeps the 2D
//! field where the browser cannot draw it; axe-core finds nothing; the picture goes on through
//! a reconnection and a new match, and a penalty shoot-out is seen from behind the goal; the
//! follow camera keeps its player in the middle; the broadcast view's instant replay of a
//! goal is seen from behind the goal, and live play from the stand again after it.
//!
//! Needs the web app built into `dist/` and Chromium (scripts/test.sh).

use pitchside_tests::browser::{scene_player, Browser};
use pitchside_tests::{fixtures, relay_harness};
use relay::config::Settings;
use serde_json::Value;
use std::time::Duration;

/// Chromium with WebGL2 in software, as a machine without a GPU draws it.
fn swiftshader() -> Vec<String> {
    ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"]
        .map(String::from)
        .to_vec()
}

/// The 3D view's summary of its last frame (`window.__pitchside_3d`), or null.
async fn summary3d(b: &Browser) -> Value {
    match b
        .eval("return window.__pitchside_3d && window.__pitchside_3d()")
        .await
    {
        Value::String(s) => serde_json::from_str(&s).expect("the 3D summary's JSON"),
        _ => Value::Null,
    }
}

/// Waits until the worker has painted a frame and the page's last one is of `camera` (and of
/// cycle `time`, if given), and returns its summary.
async fn wait_painted(b: &Browser, camera: &str, time: Option<u64>) -> Value {
    b.wait_js(
        "const d = window.__pitchside_3d_drawn && window.__pitchside_3d_drawn(); \
         window.__drawn3d = (window.__drawn3d || 0) + (d ? d.length : 0); return window.__drawn3d",
        "frames painted by the 3D worker",
        |v| v.as_u64().is_some_and(|n| n >= 1),
    )
    .await;
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let s = summary3d(b).await;
        if s["camera"] == camera && time.is_none_or(|t| s["time"] == t) {
            return s;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "waited 30 s for the {camera} camera at {time:?}: {s}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The colours the worker painted at `points` (CSS pixels of the field).
async fn painted(b: &Browser, points: &[(f64, f64)]) -> Vec<Option<[u8; 4]>> {
    b.eval("window.__pitchside_3d_ask_pixels()").await;
    let points = serde_json::to_string(points).expect("json");
    let got = b
        .wait_js(
            &format!("return window.__pitchside_3d_pixels('{points}')"),
            "the 3D view's pixels",
            |v| v.is_string(),
        )
        .await;
    serde_json::from_str(got.as_str().unwrap_or("null")).expect("pixels")
}

fn distance(a: [u8; 4], b: [u8; 3]) -> f64 {
    (0..3)
        .map(|i| (f64::from(a[i]) - f64::from(b[i])).powi(2))
        .sum::<f64>()
        .sqrt()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_3d_view_shows_the_match_where_the_2d_field_does_and_from_the_stand() {
    relay_harness::need_web_app();
    let relay = relay_harness::start_archive_of(fixtures::SHORT_V6, "short.rcg.gz", "view3d").await;
    let log = format!("http://{}/?log=/archive/files/0/short.rcg.gz", relay.addr);
    let b = Browser::start_with_args(&swiftshader()).await;

    // The 2D field at cycle 150: where it puts each player.
    b.goto(&format!("{log}#t=150")).await;
    b.wait_text("#cycle", "cycle 150", |t| t == "150").await;
    let flat = b.wait_scene("the field at 150", |s| s["time"] == 150).await;

    // The same link with `view=3d&cam=top`: the same frame from straight above.
    b.goto(&format!("{log}&view=3d&cam=top#t=150")).await;
    b.wait_text("#cycle", "cycle 150", |t| t == "150").await;
    let top = wait_painted(&b, "top", Some(150)).await;
    let players = top["players"].as_array().expect("players");
    assert_eq!(players.len(), 22, "{top}");
    let mut points = Vec::new();
    let mut kits = Vec::new();
    for p in players {
        let id = format!("{}{}", p["team"].as_str().unwrap_or("?"), p["unum"]);
        let two_d = scene_player(&flat, &id);
        let (x, y) = (
            two_d["px"].as_f64().expect("px"),
            two_d["py"].as_f64().expect("py"),
        );
        let feet = &p["feet"];
        let (fx, fy) = (feet[0].as_f64().expect("x"), feet[1].as_f64().expect("y"));
        assert!(
            (fx - x).abs() < 1.0 && (fy - y).abs() < 1.0,
            "{id}: the top camera puts him at ({fx}, {fy}), the 2D field at ({x}, {y})"
        );
        // What the worker painted: his kit within 3 px of where the 2D field draws him.
        let kit: [u8; 3] = serde_json::from_value(p["kit"].clone()).expect("kit");
        for dx in -3..=3 {
            for dy in -3..=3 {
                points.push((x + f64::from(dx), y + f64::from(dy)));
                kits.push((id.clone(), kit));
            }
        }
    }
    let colours = painted(&b, &points).await;
    let grass = colours
        .first()
        .copied()
        .flatten()
        .expect("a pixel under the first player");
    let mut found = std::collections::BTreeMap::<String, bool>::new();
    for (c, (id, kit)) in colours.iter().zip(&kits) {
        let hit = c.is_some_and(|c| distance(c, *kit) < 90.0);
        *found.entry(id.clone()).or_default() |= hit;
    }
    let missing: Vec<_> = found
        .iter()
        .filter(|(_, f)| !**f)
        .map(|(id, _)| id)
        .collect();
    assert!(
        missing.is_empty(),
        "no kit colour painted within 3 px of {missing:?} (e.g. {grass:?})"
    );
    let shot = b.screenshot("view3d-top").await;
    assert!(shot.exists());

    // The broadcast camera (the default): the ball in the picture, from the stand.
    b.goto(&format!("{log}&view=3d#t=150")).await;
    b.wait_text("#cycle", "cycle 150", |t| t == "150").await;
    let stand = wait_painted(&b, "broadcast", Some(150)).await;
    let (bx, by) = (
        stand["ball"][0].as_f64().expect("ball x"),
        stand["ball"][1].as_f64().expect("ball y"),
    );
    let (w, h) = (
        stand["width"].as_f64().expect("w"),
        stand["height"].as_f64().expect("h"),
    );
    assert!(
        (0.0..=w).contains(&bx) && (0.0..=h).contains(&by),
        "{stand}"
    );
    // A screen reader meets the field's canvas: it says the picture is 3D, and from where.
    let label = || async {
        b.eval("return document.querySelector('#field').getAttribute('aria-label')")
            .await
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let said = label().await;
    assert!(
        said.starts_with("The match in 3D, seen from the main stand"),
        "{said}"
    );
    // A click on a figure selects him, as on the 2D field: the one standing furthest from
    // the others, at his middle.
    let middle = |p: &Value| -> Option<(f64, f64)> {
        let (f, h) = (&p["feet"], &p["head"]);
        Some((
            (f[0].as_f64()? + h[0].as_f64()?) / 2.0,
            (f[1].as_f64()? + h[1].as_f64()?) / 2.0,
        ))
    };
    // The camera may still be settling: wait until two frames a moment apart agree.
    let mut still = summary3d(&b).await;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let next = summary3d(&b).await;
        if next["players"] == still["players"] {
            break;
        }
        still = next;
    }
    let on_screen: Vec<(String, (f64, f64))> = still["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter_map(|p| {
            let at = middle(p)?;
            let id = format!("{}{}", p["team"].as_str()?, p["unum"]);
            ((20.0..w - 20.0).contains(&at.0) && (60.0..h - 20.0).contains(&at.1))
                .then_some((id, at))
        })
        .collect();
    let (id, at) = on_screen
        .iter()
        .max_by(|a, b| {
            let alone = |x: &(String, (f64, f64))| {
                on_screen
                    .iter()
                    .filter(|o| o.0 != x.0)
                    .map(|o| (o.1 .0 - x.1 .0).hypot(o.1 .1 - x.1 .1))
                    .fold(f64::MAX, f64::min)
            };
            alone(a).total_cmp(&alone(b))
        })
        .cloned()
        .expect("a player in the picture");
    let (ox, oy) = b.canvas_origin().await;
    b.click_at(ox + at.0, oy + at.1).await;
    let named = format!("Player {id}");
    b.wait_text("#player-toggle", "the clicked figure selected", |t| {
        t == named
    })
    .await;

    // The follow camera keeps him in the middle of the picture.
    let choose = |camera: &str| {
        format!(
            "const s = document.querySelector('#camera3d'); s.value = '{camera}'; \
             s.dispatchEvent(new Event('change', {{ bubbles: true }})); return s.value"
        )
    };
    b.eval(&choose("follow")).await;
    let said = label().await;
    assert!(said.contains("above the selected player"), "{said}");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let s = wait_painted(&b, "follow", None).await;
        let him = s["players"]
            .as_array()
            .and_then(|ps| {
                ps.iter().find(|p| {
                    p["team"].as_str().map(|t| format!("{t}{}", p["unum"])) == Some(id.clone())
                })
            })
            .and_then(middle);
        if him
            .is_some_and(|(x, y)| (x - w / 2.0).abs() < h / 10.0 && (y - h / 2.0).abs() < h / 10.0)
        {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the follow camera did not bring {id} to the middle: {him:?} in {w}x{h}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(
        b.eval("return document.querySelectorAll('.camera3d-hint').length")
            .await,
        0
    );
    b.screenshot("view3d-follow").await;
    // With nobody selected it follows the ball, and says how to choose a player.
    b.keys(&fantoccini::key::Key::Escape.to_string()).await;
    b.wait_text(".camera3d-hint", "the follow camera's hint", |t| {
        t.contains("click a player")
    })
    .await;
    b.eval(&choose("broadcast")).await;
    wait_painted(&b, "broadcast", None).await;

    // Playing on, the camera follows play and the worker keeps painting.
    b.click("#play").await;
    b.wait_text("#cycle", "playing on", |t| {
        t.parse::<u32>().is_ok_and(|c| c > 200)
    })
    .await;
    let later = wait_painted(&b, "broadcast", None).await;
    let ball = &later["ball"];
    assert!(
        ball[0].as_f64().is_some_and(|x| (0.0..=w).contains(&x)),
        "{later}"
    );
    b.click("#play").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    b.screenshot("view3d-broadcast").await;
    let violations = b.axe_violations().await;
    assert!(violations.is_empty(), "the 3D view: {violations:#?}");
    b.close().await;

    // A browser that cannot hand a canvas to a worker (no OffscreenCanvas) gets the 2D field,
    // and the page says why.
    let b = Browser::start().await;
    b.cdp(
        "Page.addScriptToEvaluateOnNewDocument",
        serde_json::json!({"source": "delete HTMLCanvasElement.prototype.transferControlToOffscreen;"}),
    )
    .await;
    b.goto(&format!("{log}&view=3d#t=150")).await;
    b.wait_text(".notice3d", "the page saying it cannot show 3D", |t| {
        t.contains("3D view cannot be shown") && t.contains("OffscreenCanvas")
    })
    .await;
    b.wait_scene("the 2D field instead", |s| s["time"] == 150)
        .await;
    b.screenshot("view3d-unsupported").await;
    b.close().await;
}

/// A live match in 3D: the picture goes on through the relay going away and coming back, and
/// through the next match.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_3d_view_survives_a_reconnection_and_a_new_match() {
    relay_harness::need_web_app();
    let first = Settings::new(vec![relay_harness::replay(
        fixtures::SHORT_V6,
        "final",
        Duration::from_millis(20),
    )]);
    let relay = relay_harness::start_with(first).await;
    let addr = relay.addr;
    let b = Browser::start_with_args(&swiftshader()).await;
    b.goto(&format!("http://{addr}/m/final?view=3d")).await;
    let before = wait_painted(&b, "broadcast", None).await;
    let team = b.text("#team-l").await;
    assert_eq!(team, "SHORT_L_a");
    assert_eq!(before["players"].as_array().map(Vec::len), Some(22));

    // The relay goes away and another takes its address, with another match: a penalty
    // shoot-out, which the broadcast camera hands to the camera behind the goal.
    relay.stop().await;
    let second = Settings::new(vec![relay_harness::replay(
        fixtures::PENALTY_V6,
        "final",
        Duration::from_millis(20),
    )]);
    let relay = relay_harness::start_at(addr, second).await;
    b.wait_text("#team-l", "the new match after reconnecting", |t| {
        !t.is_empty() && t != team
    })
    .await;
    b.eval("window.__drawn3d = 0").await;
    b.wait_js(
        "const s = window.__pitchside_3d && window.__pitchside_3d(); \
         return s && JSON.parse(s).camera",
        "the goal camera for the shoot-out",
        |v| v.as_str() == Some("goal"),
    )
    .await;
    let after = wait_painted(&b, "goal", None).await;
    assert_eq!(
        after["players"].as_array().map(Vec::len),
        Some(22),
        "{after}"
    );
    b.screenshot("view3d-reconnected").await;
    b.close().await;
    relay.stop().await;
}

/// The broadcast view in 3D: live play from the stand, the instant replay of a goal from
/// behind the goal, then the stand again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_broadcast_views_instant_replay_is_seen_from_another_angle() {
    relay_harness::need_web_app();
    // 40 ms a cycle: the goal (cycle 271) comes after about 11 s.
    let relay = relay_harness::start_with(Settings::new(vec![relay_harness::replay(
        fixtures::SHORT_V6,
        "field-1",
        Duration::from_millis(40),
    )]))
    .await;
    let b = Browser::start_with_args(&swiftshader()).await;
    b.goto(&format!(
        "http://{}/m/field-1/broadcast?view=3d",
        relay.addr
    ))
    .await;
    let live = wait_painted(&b, "broadcast", None).await;
    assert_eq!(live["players"].as_array().map(Vec::len), Some(22), "{live}");
    b.wait_js(
        "return !!document.querySelector('.replay-badge')",
        "the goal's instant replay",
        |v| v == &Value::Bool(true),
    )
    .await;
    let replay = wait_painted(&b, "goal", None).await;
    let cycle = replay["time"].as_u64().unwrap_or(0);
    assert!(
        (150..272).contains(&cycle),
        "the replay shows cycle {cycle}"
    );
    // SHORT_R_a scored at the left goal: the camera stands behind that one.
    assert_eq!(replay["end"], serde_json::json!(-1.0), "{replay}");
    // The worker paints a frame or two behind the page: let it catch up for the picture.
    tokio::time::sleep(Duration::from_millis(800)).await;
    b.screenshot("view3d-replay").await;
    b.wait_js(
        "return !document.querySelector('.replay-badge')",
        "the end of the replay",
        |v| v == &Value::Bool(true),
    )
    .await;
    let after = wait_painted(&b, "broadcast", None).await;
    assert!(
        after["time"].as_u64().is_some_and(|t| t > 271),
        "live again after the replay: {after}"
    );
    b.close().await;
    relay.stop().await;
}
