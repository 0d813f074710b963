//! The analysis panel in the real page, on the full real game: each team's table of its
//! players' actions equals what the shared library computes from the same log up to the frame
//! on screen; a figure opens the list of its moments; a moment jumps to its cycle with the
//! action drawn on the field; the pass and shot maps are drawn; the selected player's panel
//! has his figures; shots are marked on the timeline. Screenshots go to `tests/artifacts/`.

use pitchside_analysis::actions::{ActionKind, Actions};
use pitchside_tests::browser::Browser;
use pitchside_tests::fixtures;
use serde_json::Value;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_panel_lists_each_players_actions_and_shows_them_on_the_field() {
    let (relay, b) = Browser::on_bundled_replay().await;
    // The full game from the disk, stopped at its end.
    b.choose(&fixtures::path(fixtures::FULL_V6).display().to_string())
        .await;
    b.wait_text("#frames", "the whole log", |t| t.ends_with("/ 6489"))
        .await;
    if b.text("#play").await.contains("❚❚") {
        b.click("#play").await;
    }
    b.keys(&fantoccini::key::Key::End.to_string()).await;
    b.wait_text("#cycle", "the last cycle", |t| t == "6000")
        .await;

    let m = rcss_formats::parse_log(&fixtures::read(fixtures::FULL_V6));
    let actions = Actions::of_match(&m);
    let want = actions.figures();

    b.click("#analysis-toggle").await;
    b.wait_text("#analysis h2", "the panel", |t| t.contains("6000"))
        .await;
    // Each team's table: a row per player who did something, his figures as the library
    // counts them for the whole match.
    for (side, letter) in [(0usize, 'l'), (1, 'r')] {
        for (i, f) in want[side].iter().enumerate() {
            let unum = i + 1;
            let cell = |figure: &str| {
                format!(
                    "return (document.querySelector('#analysis-{letter} tr[data-unum=\"{unum}\"] button[data-figure=\"{figure}\"]') || {{}}).textContent || '0'"
                )
            };
            for (figure, value) in [
                ("kicks", f.kicks),
                ("passes", f.passes),
                ("passes_completed", f.passes_completed),
                ("shots", f.shots),
                ("goals", f.goals),
                ("dribbles", f.dribbles),
                ("recoveries", f.recoveries),
            ] {
                let shown = b.eval(&cell(figure)).await;
                assert_eq!(
                    shown.as_str().unwrap_or("0"),
                    value.to_string(),
                    "{letter}{unum} {figure}"
                );
            }
        }
    }
    b.screenshot("analysis-tables").await;

    // The passes of the left 10: a list of his passes, one per moment.
    let l10_passes = want[0][9].passes;
    assert!(l10_passes > 0);
    b.click("#analysis-l tr[data-unum=\"10\"] button[data-figure=\"passes\"]")
        .await;
    let n = b
        .eval("return document.querySelectorAll('#analysis-moments li').length")
        .await;
    assert_eq!(n.as_u64(), Some(u64::from(l10_passes)));
    // A moment: to its cycle, paused, the pass drawn as an arrow.
    let first = actions
        .actions()
        .iter()
        .filter(|a| {
            a.side == rcss_formats::Side::Left
                && a.unum == 10
                && matches!(a.kind, ActionKind::Pass { .. })
        })
        .min_by_key(|a| a.frame)
        .copied()
        .unwrap();
    b.click("#analysis-moments li:first-child button").await;
    let cycle = first.cycle.to_string();
    b.wait_text("#cycle", "the pass's cycle", |t| t == cycle)
        .await;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let s = b.scene().await;
        if s["shapes"]["action"].as_u64().unwrap_or(0) >= 3 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no arrow drawn: {s}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    b.screenshot("analysis-pass").await;
    // Jumping back to the moment keeps the list as it was when the figure was picked.
    let n = b
        .eval("return document.querySelectorAll('#analysis-moments li').length")
        .await;
    assert_eq!(n.as_u64(), Some(u64::from(l10_passes)), "the list stays");
    let violations = b.axe_violations().await;
    assert!(
        violations.is_empty(),
        "axe-core on the analysis panel: {violations:#?}"
    );

    // The maps are drawn (not a blank pitch): some pixel has a pass's green.
    let green = b
        .eval(
            "const c = document.querySelector('#pass-map');
             const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
             let n = 0;
             for (let i = 0; i < d.length; i += 4) if (d[i] > 150 && d[i + 1] > 230 && d[i + 2] > 120 && d[i + 2] < 200) n++;
             return n;",
        )
        .await;
    assert!(green.as_u64().unwrap_or(0) > 20, "pass map: {green}");

    // Shots on the timeline, as the events are.
    let markers = b
        .eval("return document.querySelectorAll('#markers .marker.shot').length")
        .await;
    let shots: u32 = want.iter().flatten().map(|f| f.shots).sum();
    assert_eq!(markers.as_u64(), Some(u64::from(shots)));

    // The selected player's panel has his figures up to the frame on screen: the end.
    b.keys(&fantoccini::key::Key::End.to_string()).await;
    b.wait_text("#cycle", "the last cycle", |t| t == "6000")
        .await;
    b.click("#player-toggle").await;
    b.wait_js(
        "return !!document.querySelector('#player-select')",
        "the player panel",
        |v| v == &Value::Bool(true),
    )
    .await;
    b.eval("document.querySelector('#player-select').value = 'l10'; document.querySelector('#player-select').dispatchEvent(new Event('change')); return true")
        .await;
    let text = b
        .wait_text("#player-actions", "his figures", |t| t.contains("passes"))
        .await;
    assert!(text.contains(&format!("{} passes", l10_passes)), "{text}");
    b.screenshot("analysis-player").await;
    b.close().await;
    relay.stop().await;
}
