//! Refereeing from the page, in headless Chromium, against a fake rcssserver that replays the
//! real operator capture before its kick-off and records every datagram it receives. One
//! browser session: a spectator's page (no key, then a wrong key) shows no control UI; the
//! operator's link opens the panel and leaves no key in the address; in referee mode a click
//! on left 5 and a confirmed yellow card reach the server as `(dispcard 1 5 yellow)` + NUL,
//! the panel lists what was sent and the message board the relay's operator notice; the same
//! commands from the keyboard (a point typed in metres, a player picked from a list); Ctrl+K
//! kicks off.
//!
//! Screenshots go to `tests/artifacts/referee-*.png`. Needs the web app built into `dist/`.

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::Locator;
use pitchside_tests::browser::{self, Browser};
use pitchside_tests::fake_server::{FakeServer, Script};
use pitchside_tests::{capture, fixtures, relay_harness};
use relay::config::{MatchSpec, Settings, SourceSpec};
use relay::monitor::MonitorConfig;
use serde_json::Value;
use std::time::{Duration, Instant};

const TOKEN: &str = "referee-token-0123456789";

/// The real operator capture up to its first `(dispstart)`: parameters, then shows at time 0
/// before kick-off with both teams on; the last show repeats every 20 ms for 90 s, as a
/// server waiting for its kick-off does (the page has time to load on a slow machine).
fn before_kick_off() -> Script {
    let mut d = capture::split(&fixtures::read("captures/OPa/v5-operator.dgrams.gz")).unwrap();
    d.truncate(61);
    let last = d[60].clone();
    d.extend(std::iter::repeat_n(last, 4500));
    let mut s = Script::new(d, Duration::ZERO);
    s.slow_from = Some((20, Duration::from_millis(20)));
    s
}

/// The summary of the last scene drawn, once there is one with players.
async fn scene_with_players(b: &Browser) -> Value {
    b.wait_scene("a scene with 22 players", |s| {
        s["players"].as_array().is_some_and(|p| p.len() == 22)
    })
    .await
}

async fn exists(b: &Browser, css: &str) -> bool {
    b.client.find(Locator::Css(css)).await.is_ok()
}

/// Waits until the fake server has received `want` on the monitor port.
async fn server_gets(server: &FakeServer, want: &[u8]) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !server.commands_plain().iter().any(|c| c == want) {
        assert!(
            Instant::now() < deadline,
            "the server never got {:?}; it got {:?}",
            String::from_utf8_lossy(want),
            server
                .commands_plain()
                .iter()
                .map(|c| String::from_utf8_lossy(c).into_owned())
                .collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_cards_a_player_and_spectators_see_no_controls() {
    let index = relay_harness::dist().join("index.html");
    assert!(index.is_file(), "{} is missing", index.display());
    let server = FakeServer::start(before_kick_off()).await;
    let mut mc = MonitorConfig::new(server.addr);
    mc.retry = Duration::from_millis(200);
    let mut settings = Settings::new(vec![MatchSpec {
        name: "field".into(),
        source: SourceSpec::Server(mc),
    }]);
    settings.control_token = Some(TOKEN.into());
    let relay = relay_harness::start_with(settings).await;
    let page = format!("http://{}/m/field", relay.addr);
    let b = Browser::start().await;

    // A spectator: the match, and nothing to referee with.
    b.goto(&page).await;
    b.wait_text("#source", "the live badge", |t| t.starts_with("Live"))
        .await;
    scene_with_players(&b).await;
    for css in ["#operator", "#referee-mode", "#kickoff", "#referee-layer"] {
        assert!(!exists(&b, css).await, "a spectator's page has {css}");
    }
    // A wrong key: told so, and still nothing to referee with.
    b.goto("about:blank").await;
    b.goto(&format!("{page}#control=not-the-relays-token"))
        .await;
    b.wait_text("#operator-refused", "the key refused", |t| {
        t.contains("operator link")
    })
    .await;
    assert!(!exists(&b, "#operator").await);
    b.screenshot("referee-spectator").await;
    // Nothing reached the server from either page.
    assert!(server.commands_plain().is_empty());

    // The operator's link: the panel, and no key left in the address.
    b.goto("about:blank").await;
    b.goto(&format!("{page}#control={TOKEN}")).await;
    b.wait_text("#operator", "the operator's panel", |t| {
        t.contains("Referee mode: off")
    })
    .await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while b.url().await.contains("control=") {
        assert!(Instant::now() < deadline, "the key stays in the address");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!exists(&b, "#referee-layer").await);
    b.click("#referee-mode").await;
    b.wait_text("#referee-mode", "referee mode on", |t| t.contains("on"))
        .await;
    assert!(exists(&b, "#referee-layer").await);

    // Left 5, clicked where the field draws him.
    let s = scene_with_players(&b).await;
    let (ox, oy) = b.canvas_origin().await;
    b.click_player(&s, "l5").await;
    b.wait_text("#player-actions", "left 5 picked", |t| t.contains("left 5"))
        .await;
    b.click("#card-yellow").await;
    b.wait_text("#confirm", "a confirmation", |t| {
        t.contains("yellow card to left 5")
    })
    .await;
    // Nothing goes before the confirmation.
    assert!(server.commands_plain().is_empty());
    b.click("#confirm-yes").await;
    server_gets(&server, b"(dispcard 1 5 yellow)\0").await;
    b.wait_text("#operator-log", "what was sent", |t| {
        t.contains("(dispcard 1 5 yellow)")
    })
    .await;
    // The relay's notice, on the board of every page (this one too).
    b.click("#messages-toggle").await;
    b.wait_text("#messages", "the operator notice", |t| {
        t.contains("operator: yellow card to left 5")
    })
    .await;
    b.screenshot("referee-card").await;

    // The same without a mouse: a point typed in metres, a free kick there; a player picked
    // from the list and moved to that point.
    for (css, v) in [("#op-x", "20"), ("#op-y", "10")] {
        let input = b.client.find(Locator::Css(css)).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(v).await.unwrap();
    }
    b.click("#op-fk-l").await;
    server_gets(&server, b"(dispfoul 320 160 1)\0").await;
    b.click("#player-select option[value='l3']").await;
    b.wait_text("#op-move", "left 3 picked", |t| t == "Move left 3 here")
        .await;
    b.click("#op-move").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while !server
        .commands_plain()
        .iter()
        .any(|c| c.starts_with(b"(dispplayer 1 3 320 160 "))
    {
        assert!(Instant::now() < deadline, "left 3 was never moved");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Drag left 2 120 px to the right and let go: the relay moves him there, facing as he did.
    let s = scene_with_players(&b).await;
    let l2 = browser::scene_player(&s, "l2");
    let scale = s["view"]["scale"].as_f64().unwrap();
    let (x0, y0) = (
        ox + l2["px"].as_f64().unwrap(),
        oy + l2["py"].as_f64().unwrap(),
    );
    let drag = browser::mouse_drag(
        &[(x0, y0), (x0 + 60.0, y0), (x0 + 120.0, y0)],
        Duration::from_millis(150),
    );
    b.client.perform_actions(drag).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let moved = loop {
        let found = server
            .commands_plain()
            .iter()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .find(|c| c.starts_with("(dispplayer 1 2 "));
        if let Some(c) = found {
            break c;
        }
        assert!(
            Instant::now() < deadline,
            "no move for left 2 reached the server"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(moved.ends_with(")\0"), "{moved:?}");
    let args: Vec<f64> = moved
        .trim_start_matches("(dispplayer 1 2 ")
        .trim_end_matches(")\0")
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    // X and Y in the server's units (metres × 16), as integers.
    let want_x = l2["x"].as_f64().unwrap() + 120.0 / scale;
    assert!(
        (args[0] / 16.0 - want_x).abs() < 0.5
            && (args[1] / 16.0 - l2["y"].as_f64().unwrap()).abs() < 0.5,
        "{moved:?}: want ({want_x:.2}, {:.2}) m",
        l2["y"]
    );

    // A right-click on the pitch offers a drop ball there.
    let (w, h) = (
        s["view"]["width"].as_f64().unwrap(),
        s["view"]["height"].as_f64().unwrap(),
    );
    let right = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x: (ox + w / 2.0).round(),
            y: (oy + h * 0.2).round(),
        })
        .then(PointerAction::Down {
            button: fantoccini::actions::MOUSE_BUTTON_RIGHT,
        })
        .then(PointerAction::Up {
            button: fantoccini::actions::MOUSE_BUTTON_RIGHT,
        });
    b.client.perform_actions(right).await.unwrap();
    b.click("#menu-drop-ball").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while !server
        .commands_plain()
        .iter()
        .any(|c| c.starts_with(b"(dispfoul ") && c.ends_with(b" 0)\0"))
    {
        assert!(Instant::now() < deadline, "no drop ball reached the server");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    b.screenshot("referee-moved-and-dropped").await;

    // Ctrl+K kicks off: the server is waiting for it at cycle 0.
    b.keys(&format!("{}k", fantoccini::key::Key::Control)).await;
    server_gets(&server, b"(dispstart)\0").await;
    let got = server.commands_plain();
    assert_eq!(
        got.len(),
        6,
        "card, free kick and move from the keyboard, move, drop ball, kick-off and nothing else: {got:?}"
    );
    assert_eq!(got[0], b"(dispcard 1 5 yellow)\0".to_vec());
    assert_eq!(got[1], b"(dispfoul 320 160 1)\0".to_vec());
    assert_eq!(got[2], b"(dispplayer 1 3 320 160 0)\0".to_vec());
    assert_eq!(got[5], b"(dispstart)\0".to_vec());
    b.close().await;
}
