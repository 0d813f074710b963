//! The pages a spectator opens from a shared link, on a phone: headless Chromium made a phone
//! through the DevTools Protocol (a 390×844 screen at 3 device pixels per CSS pixel, a mobile
//! viewport, touch), held upright and sideways, and a small 360×640 one. On the match page
//! (a team with a logo), the lobby, the archive and the embed view: nothing is wider than
//! the screen, both team names show in full, the field takes the width (upright) or the
//! height (sideways), the controls are big enough for a finger, a tap on a player selects
//! him, two fingers spread apart zoom, a past match opens from the archive with a tap. Every
//! page a shared link opens (book, "URLs" and "Links": the lobby, a match, its embed and
//! broadcast views, an archived log by `?log=` with and without them, a playlist, the
//! archive, a series and an A/B comparison, a tournament whose group has five teams) is no
//! wider than a 390×844 or a 360×640 phone. The phone match page, the stacked archive and
//! the tournament pass axe-core.
//!
//! Screenshots go to `tests/artifacts/phone-*.png`. Needs the web app built into `dist/`,
//! Chromium and axe-core (scripts/test.sh).

use pitchside_tests::browser::{scene_zoom, Browser};
use pitchside_tests::{fixtures, relay_harness};
use relay::config::Settings;
use serde_json::{json, Value};
use std::time::Duration;

/// The bundled short game's log, as rcssserver named it: in the archive, and opened by link.
const SHORT_NAME: &str = "20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz";

/// Turns the browser into a phone of `w`×`h` CSS pixels, held as its sides say.
async fn phone(b: &Browser, w: u32, h: u32) {
    let (kind, angle) = if w > h {
        ("landscapePrimary", 90)
    } else {
        ("portraitPrimary", 0)
    };
    b.cdp(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": w, "height": h, "deviceScaleFactor": 3, "mobile": true,
               "screenOrientation": {"type": kind, "angle": angle}}),
    )
    .await;
    b.cdp(
        "Emulation.setTouchEmulationEnabled",
        json!({"enabled": true, "maxTouchPoints": 5}),
    )
    .await;
}

/// Opens `url` in a new tab of a phone of `w`×`h` and closes the tab before. A fresh tab for
/// every page: in a tab that has shown a few pages and taps, or run axe-core, Chromium's
/// headless shell stops passing the test's touches to the page.
async fn open(b: &Browser, (w, h): (u32, u32), url: &str) {
    let tab = b.client.new_window(true).await.expect("a new tab");
    b.client.close_window().await.expect("close the tab before");
    b.client
        .switch_to_window(tab.handle)
        .await
        .expect("switch to the new tab");
    phone(b, w, h).await;
    b.client
        .goto(url)
        .await
        .unwrap_or_else(|e| panic!("{url}: {e}"));
}

/// Fingers on the screen at these viewport points (CSS pixels); none lifts them all.
async fn touch(b: &Browser, kind: &str, points: &[(f64, f64)]) {
    let points: Vec<Value> = points
        .iter()
        .enumerate()
        .map(|(id, (x, y))| json!({"x": x, "y": y, "id": id}))
        .collect();
    b.cdp(
        "Input.dispatchTouchEvent",
        json!({"type": kind, "touchPoints": points}),
    )
    .await;
}

/// A finger tap at a viewport point.
async fn tap(b: &Browser, x: f64, y: f64) {
    touch(b, "touchStart", &[(x, y)]).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    touch(b, "touchEnd", &[]).await;
}

/// Taps the middle of the element `css`, scrolled into view first.
async fn tap_element(b: &Browser, css: &str) {
    let at = b
        .eval(&format!(
            "const e = document.querySelector({css:?}); e.scrollIntoView({{block: 'center'}}); \
             const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];"
        ))
        .await;
    tap(b, f(&at[0]), f(&at[1])).await;
}

/// Two fingers `from` pixels apart around `(cx, cy)`, spread to `to` pixels apart.
async fn pinch(b: &Browser, (cx, cy): (f64, f64), from: f64, to: f64) {
    let fingers = |d: f64| [(cx - d / 2.0, cy), (cx + d / 2.0, cy)];
    touch(b, "touchStart", &fingers(from)).await;
    for i in 1..=10 {
        let d = from + (to - from) * f64::from(i) / 10.0;
        touch(b, "touchMove", &fingers(d)).await;
        tokio::time::sleep(Duration::from_millis(16)).await;
    }
    touch(b, "touchEnd", &[]).await;
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

/// Nothing is wider than the phone: the page neither scrolls sideways nor makes the mobile
/// browser zoom out to show it whole.
async fn fits(b: &Browser, w: u32, page: &str) {
    let v = b
        .eval("return [window.innerWidth, document.documentElement.scrollWidth]")
        .await;
    assert!(
        f(&v[0]) == f64::from(w) && f(&v[1]) <= f(&v[0]),
        "{page}: the page is {} px wide in a viewport of {} on a {w} px phone",
        v[1],
        v[0]
    );
}

/// Every element `css` shows its whole text: not cut to a letter and an ellipsis.
async fn in_full(b: &Browser, css: &str, page: &str) {
    let v = b
        .eval(&format!(
            "return [...document.querySelectorAll({css:?})].map(e => [e.textContent, e.scrollWidth, e.clientWidth])"
        ))
        .await;
    let all = v.as_array().cloned().unwrap_or_default();
    assert!(!all.is_empty(), "{page}: no {css}");
    for e in all {
        assert!(
            f(&e[2]) > 0.0 && f(&e[1]) <= f(&e[2]),
            "{page}: {:?} needs {} px and gets {}",
            e[0],
            e[1],
            e[2]
        );
    }
}

/// The bounding box of `css`: left, top, width, height.
async fn rect(b: &Browser, css: &str) -> [f64; 4] {
    let v = b
        .eval(&format!(
            "const r = document.querySelector({css:?}).getBoundingClientRect(); return [r.left, r.top, r.width, r.height]"
        ))
        .await;
    [f(&v[0]), f(&v[1]), f(&v[2]), f(&v[3])]
}

/// The pages a shared link opens that the walk above does not check at `(w, h)`, each with
/// what shows once it has loaded: every one is no wider than the phone. In one tab (nothing
/// here is tapped).
async fn shared_links_fit(b: &Browser, relay: std::net::SocketAddr, (w, h): (u32, u32)) {
    let log = format!("/archive/files/0/{SHORT_NAME}");
    type Loaded = dyn Fn(&str) -> bool;
    let pages: Vec<(String, &str, &Loaded)> = vec![
        ("/".into(), "#matches", &|t: &str| {
            t.contains("final") && t.contains("field-b")
        }),
        ("/m/final".into(), "#team-l", &|t: &str| t == "SHORT_L_a"),
        ("/m/final/embed".into(), "#team-l", &|t: &str| {
            t == "SHORT_L_a"
        }),
        ("/m/final/broadcast".into(), "#bc-team-l", &|t: &str| {
            t == "SHORT_L_a"
        }),
        (format!("/?log={log}#t=300"), "#team-l", &|t: &str| {
            t == "SHORT_L_a"
        }),
        (format!("/?log={log}&embed"), "#team-l", &|t: &str| {
            t == "SHORT_L_a"
        }),
        (
            format!("/?log={log}&broadcast"),
            "#bc-team-l",
            &|t: &str| t == "SHORT_L_a",
        ),
        ("/?playlist=q%3DPEN".into(), "#team-l", &|t: &str| {
            t == "PEN_L"
        }),
        ("/archive".into(), "#archive-count", &|t: &str| {
            t.starts_with("12 logs")
        }),
        (
            "/series?team=ALPHA&dir=0/t".into(),
            "#series-status",
            &|t: &str| t.contains("games counted"),
        ),
        (
            "/series?team=ALPHA&dir=0/t/day1&b_dir=0/t/day2".into(),
            "#series-verdict .verdict-text",
            &|t: &str| !t.is_empty(),
        ),
        ("/t/five".into(), "#t-status", &|t: &str| {
            t.starts_with("6 of 11 games played")
        }),
    ];
    open(b, (w, h), &format!("http://{relay}/")).await;
    for (path, ready, loaded) in pages {
        let page = format!("{path} at {w}×{h}");
        b.client
            .goto(&format!("http://{relay}{path}"))
            .await
            .unwrap_or_else(|e| panic!("{page}: {e}"));
        b.wait_text(ready, &page, loaded).await;
        fits(b, w, &page).await;
        if path.contains("b_dir") {
            b.screenshot(&format!("phone-series-ab-{w}x{h}")).await;
        }
    }
    // The five teams' cross table is in a box that ends at the screen's edge (and scrolls
    // sideways, with more teams), and shows them whole: places for the column heads.
    let cross = rect(b, ".t-scroll:has(.t-cross)").await;
    assert!(
        cross[0] >= 0.0 && cross[0] + cross[2] <= f64::from(w),
        "the cross table's box at {w}×{h}: {cross:?}"
    );
    let whole = b
        .eval("const s = document.querySelector('.t-scroll:has(.t-cross)'); return [s.scrollWidth, s.clientWidth]")
        .await;
    assert!(
        f(&whole[0]) <= f(&whole[1]),
        "the cross table needs {} px in a box {} px wide at {w}×{h}",
        whole[0],
        whole[1]
    );
    b.screenshot(&format!("phone-tournament-{w}x{h}")).await;
}

fn assert_clean(page: &str, violations: &[String]) {
    assert!(
        violations.is_empty(),
        "{page}: serious or critical accessibility violations:\n{}",
        violations.join("\n")
    );
}

/// The match page: names, field, controls, a tap on a player, a pinch.
async fn match_page(b: &Browser, relay: std::net::SocketAddr, (w, h): (u32, u32)) {
    let page = format!("the match page at {w}×{h}");
    open(b, (w, h), &format!("http://{relay}/m/final")).await;
    b.wait_text("#team-l", "the left team", |t| t == "SHORT_L_a")
        .await;
    // Stopped, so the players stay where the test taps: with a tap on the play button.
    b.wait_text("#play", "playback", |t| t.contains("❚❚")).await;
    tap_element(b, "#play").await;
    b.wait_text("#play", "the match paused", |t| t.contains("▶"))
        .await;
    b.eval("window.scrollTo(0, 0)").await;
    let s = b
        .wait_scene("a frame with every player", |s| {
            s["players"].as_array().is_some_and(|p| p.len() == 22)
        })
        .await;
    fits(b, w, &page).await;
    in_full(b, "#team-l, #team-r", &page).await;
    // The team graphic is a mark beside the name, not a third of the bar.
    let bar = rect(b, ".scorebar").await;
    let logo = rect(b, "#logo-l").await;
    assert!(
        logo[2] > 0.0 && logo[2] <= bar[2] * 0.12,
        "{page}: the logo is {} px of a {} px score bar",
        logo[2],
        bar[2]
    );
    // The field as large as the screen allows: the width upright, the height sideways
    // (under the score bar), the whole pitch on screen.
    let field = rect(b, "#field").await;
    let pitch = (
        f(&s["view"]["scale"]) * 116.0,
        f(&s["view"]["scale"]) * 79.0,
    );
    if w < h {
        assert!(
            field[2] >= f64::from(w) * 0.95 && pitch.0 >= field[2] * 0.97,
            "{page}: the field is {field:?}, the pitch {pitch:?}"
        );
    } else {
        assert!(
            field[3] >= f64::from(h) * 0.8 && field[1] + field[3] <= f64::from(h),
            "{page}: the field is {field:?} on a screen {h} px high"
        );
    }
    // What a finger taps is at least 44 px high.
    for css in [
        "#play",
        "#first",
        "#last",
        "#fit",
        "#follow-ball",
        "#events-toggle",
    ] {
        let r = rect(b, css).await;
        assert!(
            r[3] >= 44.0 && r[2] >= 40.0,
            "{page}: {css} is {}×{}",
            r[2],
            r[3]
        );
    }
    b.screenshot(&format!("phone-match-{w}x{h}")).await;

    // A tap 18 px beside a player's centre (a finger hides what it touches, and his body is
    // 4 or 5 px across on a phone) selects him; a mouse click reaches 10 px past the body.
    // Beside one with nobody else within 40 px of the tap.
    let players = s["players"].as_array().cloned().unwrap_or_default();
    let (ox, oy) = (field[0], field[1]);
    let (id, (tx, ty)) = players
        .iter()
        .flat_map(|p| [-18.0, 18.0].map(|dx| (p, (f(&p["px"]) + dx, f(&p["py"])))))
        .find(|(p, (x, y))| {
            *x > 30.0
                && *x < field[2] - 30.0
                && players
                    .iter()
                    .filter(|q| q["id"] != p["id"])
                    .all(|q| (f(&q["px"]) - x).hypot(f(&q["py"]) - y) > 40.0)
        })
        .map(|(p, at)| (p["id"].as_str().unwrap_or_default().to_owned(), at))
        .expect("a player with room beside him");
    tap(b, ox + tx, oy + ty).await;
    b.wait_scene(&format!("{id} selected by a tap"), |s| s["selected"] == id)
        .await;
    b.wait_js(
        "const p = document.querySelector('#player-panel'); return p && p.dataset.player",
        "his panel",
        |v| v == &json!(id),
    )
    .await;
    b.eval("window.scrollTo(0, 0)").await;
    b.screenshot(&format!("phone-match-selected-{w}x{h}")).await;

    // Two fingers spread apart zoom in where they are; the whole-field button, tapped,
    // fits the field again.
    let before = b.drawn_scene().await;
    let centre = (ox + field[2] / 2.0, oy + field[3] / 2.0);
    pinch(b, centre, 60.0, 180.0).await;
    let s = b
        .wait_scene("zoomed in by a pinch", |s| {
            scene_zoom(s) > scene_zoom(&before) * 2.0
        })
        .await;
    b.screenshot(&format!("phone-match-pinched-{w}x{h}")).await;
    assert!(
        scene_zoom(&s) < 4.0,
        "{page}: zoomed {} by a 3× spread",
        scene_zoom(&s)
    );
    tap_element(b, "#fit").await;
    b.wait_scene("the whole field again", |s| {
        (scene_zoom(s) - 1.0).abs() < 1e-6
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_on_a_phone_reads_the_names_taps_a_player_pinches_and_finds_past_matches() {
    relay_harness::need_web_app();
    let dir = fixtures::scratch("phone");
    for (rel, name) in [
        (fixtures::SHORT_V6, SHORT_NAME),
        (
            fixtures::PENALTY_V6,
            "20261122132810-PEN_L_0_4-vs-PEN_R_0_2.rcg.gz",
        ),
    ] {
        std::fs::copy(fixtures::path(rel), dir.join(name)).expect("copy");
    }
    // A tournament's real games, over two days: its page, a series and an A/B comparison.
    let games = fixtures::series_logs("T");
    fixtures::copy_into(&games[..5], &dir.join("t/day1"));
    fixtures::copy_into(&games[5..], &dir.join("t/day2"));
    let tournament = dir.join("five.toml");
    std::fs::copy(fixtures::path("tournaments/five.toml"), &tournament).expect("copy");
    // The bundled game (its left team has a logo) as match `final`, and a second match so
    // that `/` is the lobby.
    let mut settings = Settings::new(vec![
        relay_harness::bundled("final", Duration::from_millis(100)),
        relay_harness::replay(fixtures::SHORT_V2, "field-b", Duration::from_millis(100)),
    ]);
    settings.archive = vec![dir.clone()];
    settings.tournaments = vec![tournament];
    let relay = relay_harness::start_with(settings).await;
    let b = Browser::start().await;

    for (w, h) in [(390, 844), (844, 390)] {
        match_page(&b, relay.addr, (w, h)).await;

        let page = format!("the lobby at {w}×{h}");
        open(&b, (w, h), &format!("http://{}/", relay.addr)).await;
        b.wait_text("#matches", "both match cards", |t| {
            t.contains("final") && t.contains("field-b")
        })
        .await;
        fits(&b, w, &page).await;
        in_full(&b, ".card-teams .left, .card-teams .right", &page).await;
        b.screenshot(&format!("phone-lobby-{w}x{h}")).await;

        let page = format!("the archive at {w}×{h}");
        open(&b, (w, h), &format!("http://{}/archive", relay.addr)).await;
        b.wait_text("#archive-count", "every log", |t| t.starts_with("12 logs"))
            .await;
        fits(&b, w, &page).await;
        in_full(&b, "#archive-table td", &page).await;
        for css in [
            "#archive-table tbody tr:first-child .watch",
            "#archive-table tbody tr:first-child .actions a[download]",
        ] {
            let r = rect(&b, css).await;
            assert!(
                r[3] >= 44.0 && r[0] + r[2] <= f64::from(w),
                "{page}: {css} is at {r:?}"
            );
        }
        b.screenshot(&format!("phone-archive-{w}x{h}")).await;

        let page = format!("the embed view at {w}×{h}");
        open(&b, (w, h), &format!("http://{}/m/final/embed", relay.addr)).await;
        b.wait_text("#team-l", "the left team", |t| t == "SHORT_L_a")
            .await;
        let s = b
            .wait_scene("the field", |s| {
                s["players"].as_array().is_some_and(|p| p.len() == 22)
            })
            .await;
        fits(&b, w, &page).await;
        in_full(&b, "#team-l, #team-r", &page).await;
        let field = rect(&b, "#field").await;
        assert!(
            field[2] >= f64::from(w) - 1.0,
            "{page}: the field is {field:?}"
        );
        // Inside another site's page a finger on the whole field scrolls that page; two
        // fingers still zoom, and zoomed in one finger moves the field.
        let action = "return getComputedStyle(document.getElementById('field')).touchAction";
        assert_eq!(b.eval(action).await, "pan-x pan-y", "{page}");
        b.screenshot(&format!("phone-embed-{w}x{h}")).await;
        let centre = (field[0] + field[2] / 2.0, field[1] + field[3] / 2.0);
        pinch(&b, centre, 60.0, 180.0).await;
        b.wait_scene("the embed zoomed in by a pinch", |x| {
            scene_zoom(x) > scene_zoom(&s) * 2.0
        })
        .await;
        assert_eq!(b.eval(action).await, "none", "{page}");
    }

    // Every other page a shared link opens, on this phone and a small one.
    shared_links_fit(&b, relay.addr, (390, 844)).await;
    shared_links_fit(&b, relay.addr, (360, 640)).await;

    // A small phone: the match page still fits with both names whole.
    open(&b, (360, 640), &format!("http://{}/m/final", relay.addr)).await;
    b.wait_text("#team-l", "the left team", |t| t == "SHORT_L_a")
        .await;
    fits(&b, 360, "the match page at 360×640").await;
    in_full(&b, "#team-l, #team-r", "the match page at 360×640").await;
    b.screenshot("phone-match-360x640").await;

    // A past match from the archive, opened with a tap: the penalty shoot-out, whose tally
    // gets a line under the names on a phone.
    open(
        &b,
        (390, 844),
        &format!("http://{}/archive?q=PEN", relay.addr),
    )
    .await;
    let pen = "#archive-table tr[data-id*='PEN'] .watch";
    b.wait_js(
        &format!("return !!document.querySelector({pen:?})"),
        "the shoot-out's row",
        |v| v == &json!(true),
    )
    .await;
    tap_element(&b, pen).await;
    b.wait_text("#team-l", "the shoot-out opened", |t| t == "PEN_L")
        .await;
    // (The frame count is hidden on a phone.)
    b.wait_js(
        "return document.getElementById('frames').textContent",
        "the whole log",
        |v| v.as_str().is_some_and(|t| t.ends_with("/ 1109")),
    )
    .await;
    tap_element(&b, "#last").await;
    b.wait_text("#pen-l", "the shoot-out tally", |t| t.contains("pen 4/"))
        .await;
    b.eval("window.scrollTo(0, 0)").await;
    fits(&b, 390, "the shoot-out at 390×844").await;
    in_full(
        &b,
        "#team-l, #team-r, #pen-l, #pen-r",
        "the shoot-out at 390×844",
    )
    .await;
    b.screenshot("phone-shootout-390x844").await;

    // The audits, last: a tab where axe-core has run no longer gets the test's touches.
    for (path, ready, page) in [
        ("/m/final", "#team-l", "the phone match page"),
        ("/archive", "#archive-count", "the phone archive"),
        ("/t/five", "#t-status", "the phone tournament"),
    ] {
        open(&b, (390, 844), &format!("http://{}{path}", relay.addr)).await;
        b.wait_text(ready, "the page", |t| !t.is_empty()).await;
        assert_clean(page, &b.axe_violations().await);
    }

    b.close().await;
    relay.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
