//! The broadcast view at 1920×1080 in headless Chromium, against a relay replaying a real
//! game as if live, twice running (the replay loops: two consecutive matches on one field),
//! with a broadcast delay, a colours file that dresses both teams in red, and a tournament:
//! - the teams wear clash-free kits (the second team's away kit) in the score graphic;
//! - the view trails the relay's live cycle by the configured delay;
//! - the kick-off caption shows; the goal's lower-third names the scorer; its instant replay
//!   shows the build-up marked REPLAY, then the view is back at the delayed live cycle;
//! - at full time the intermission card gives the result, the group's table and the next
//!   fixture, and the view follows the next match without a reload;
//! - axe-core finds nothing serious; screenshots are kept for a look.
//!
//! Needs the web app built into `dist/` and Chromium (scripts/test.sh).

use pitchside_tests::browser::Browser;
use pitchside_tests::spectator::http_get;
use pitchside_tests::{fixtures, relay_harness};
use relay::config::Settings;
use serde_json::{json, Value};
use std::time::Duration;

/// 80 ms a cycle: the game's 679 frames take 54 s, the goal (cycle 271) comes after about 23 s
/// and its replay (at most 20 s) ends well before full time.
const STEP_MS: u64 = 80;
const DELAY_S: f64 = 2.0;

async fn api(addr: std::net::SocketAddr, path: &str) -> Value {
    let (status, _, body) = http_get(addr, path).await;
    assert_eq!(status, 200, "{path}");
    serde_json::from_slice(&body).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The relay's live cycle and the cycle the view shows, read together.
async fn lag(b: &Browser, addr: std::net::SocketAddr) -> (i64, i64) {
    let shown = b
        .eval("return Number(document.querySelector('main.broadcast').dataset.cycle || -1)")
        .await
        .as_i64()
        .unwrap_or(-1);
    let live = api(addr, "/api/matches").await[0]["cycle"]
        .as_i64()
        .unwrap_or(-1);
    (live, shown)
}

/// The view trails by the delay: 2 s at 80 ms a cycle is 25 cycles (stoppages repeat
/// frames, so a little less in cycles), with room for the two reads' own timing.
fn trails_by_the_delay((live, shown): (i64, i64)) -> bool {
    let behind = live - shown;
    (15..=35).contains(&behind)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_broadcast_view_follows_two_matches_with_replays_captions_delay_and_kits() {
    relay_harness::need_web_app();
    let tmp = fixtures::scratch("broadcast");
    let archive = tmp.join("archive");
    std::fs::create_dir_all(&archive).expect("mkdir");
    // The same game played earlier, in the archive: the tournament's one result so far.
    std::fs::copy(
        fixtures::path(fixtures::SHORT_V6),
        archive.join("20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz"),
    )
    .expect("copy");
    let colours = tmp.join("colours.toml");
    std::fs::write(
        &colours,
        "[teams.SHORT_L_a]\nhome = \"#d62728\"\naway = \"#ffffff\"\n\n\
         [teams.SHORT_R_a]\nhome = \"#c0392b\"\naway = \"#1f3a93\"\n",
    )
    .expect("colours file");
    let cup = tmp.join("cup.toml");
    std::fs::write(
        &cup,
        "name = \"cup\"\ntitle = \"Test cup\"\n\n[[group]]\nname = \"A\"\n\
         teams = [\"SHORT_L_a\", \"SHORT_R_a\", \"OTHER_X\"]\n",
    )
    .expect("tournament file");
    let mut settings = Settings::new(vec![relay_harness::replay(
        fixtures::SHORT_V6,
        "field-1",
        Duration::from_millis(STEP_MS),
    )]);
    settings.archive = vec![archive];
    settings.tournaments = vec![cup];
    settings.broadcast_delay = Duration::from_secs_f64(DELAY_S);
    settings.team_colours = Some(std::sync::Arc::new(
        relay::colours::TeamColours::load(&colours).expect("the colours file"),
    ));
    let relay = relay_harness::start_with(settings).await;
    let addr = relay.addr;

    let b = Browser::start().await;
    b.cdp(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": false}),
    )
    .await;
    b.goto(&format!("http://{addr}/m/field-1/broadcast")).await;

    // Both teams' home kits are red: the right team wears its away kit, on the page too.
    let info = api(addr, "/api/matches/field-1/broadcast").await;
    assert_eq!(info["delay_seconds"], json!(DELAY_S));
    assert_eq!(info["kits"]["worn"], json!(["home", "away"]), "{info}");
    b.wait_text("#bc-team-l", "the left team", |t| t == "SHORT_L_a")
        .await;
    let kits = b
        .wait_js(
            "return [...document.querySelectorAll('.score-graphic .kit')]\
             .map(e => getComputedStyle(e).backgroundColor)",
            "the kits in the score graphic",
            |v| v[1] == "rgb(31, 58, 147)",
        )
        .await;
    assert_eq!(kits[0], "rgb(214, 39, 40)");

    // The kick-off caption, while the view trails the relay by the delay.
    let kick_off = b
        .wait_js(
            "const c = document.querySelector('.caption'); return c ? c.textContent : ''",
            "the kick-off caption",
            |v| v.as_str().is_some_and(|t| t.contains("SHORT_L_a")),
        )
        .await;
    assert!(
        kick_off.as_str().is_some_and(|t| t.contains("SHORT_R_a")),
        "{kick_off}"
    );
    b.screenshot("broadcast-kick-off-1920").await;
    let mut trailing = Vec::new();
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_millis(700)).await;
        trailing.push(lag(&b, addr).await);
    }
    assert!(
        trailing.iter().filter(|&&l| trails_by_the_delay(l)).count() >= 4,
        "(live, shown) cycles: {trailing:?}"
    );

    // The goal: its lower-third names the scorer and the score.
    let lower = b
        .wait_js(
            "const l = document.querySelector('.lower-third.goal'); \
             return l ? [l.textContent, Number(document.querySelector('main.broadcast').dataset.cycle)] : null",
            "the goal's lower-third",
            |v| !v.is_null(),
        )
        .await;
    let text = lower[0].as_str().unwrap_or_default();
    assert!(text.starts_with("GOAL"), "{text}");
    assert!(text.contains("SHORT_R_a #"), "{text}");
    assert!(text.contains("SHORT_L_a 0–1 SHORT_R_a"), "{text}");
    let goal_cycle = lower[1].as_i64().unwrap_or(0);
    assert!((271..=285).contains(&goal_cycle), "shown at {goal_cycle}");
    b.screenshot("broadcast-goal-1920").await;

    // Its replay: the build-up, before the goal, marked REPLAY, while the match goes on.
    let replay = b
        .wait_js(
            "const r = document.querySelector('.replay-badge'); \
             return r ? Number(document.querySelector('main.broadcast').dataset.cycle) : null",
            "the instant replay",
            |v| !v.is_null(),
        )
        .await;
    let first = replay.as_i64().unwrap_or(0);
    assert!((171..271).contains(&first), "the replay starts at {first}");
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (live, shown) = lag(&b, addr).await;
    assert!(
        shown > first && shown < 275 && live > 300,
        "replaying {shown} while live is at {live}"
    );
    assert_eq!(b.text(".replay-badge").await, "REPLAY");
    b.screenshot("broadcast-replay-1920").await;
    // Back to live at the delayed cycle.
    b.wait_js(
        "return !document.querySelector('.replay-badge')",
        "the end of the replay",
        |v| v == &json!(true),
    )
    .await;
    let back = lag(&b, addr).await;
    assert!(
        trails_by_the_delay(back),
        "(live, shown) after the replay: {back:?}"
    );

    // Full time: the intermission card with the result, the group and the next fixture.
    let result = b
        .wait_js(
            "const r = document.getElementById('im-result'); return r ? r.textContent : ''",
            "the intermission's result",
            |v| v.as_str().is_some_and(|t| !t.is_empty()),
        )
        .await;
    assert_eq!(result, "SHORT_L_a 0–1 SHORT_R_a");
    let rows = b
        .eval(
            "return [...document.querySelectorAll('#im-standings tbody tr')]\
             .map(r => r.querySelector('th').textContent)",
        )
        .await;
    // The group's table as the tournament's own page ranks it, the winner first.
    let cup = api(addr, "/api/tournaments/cup").await;
    let ranked: Vec<Value> = cup["groups"][0]["standings"]
        .as_array()
        .map(|r| r.iter().map(|row| row["team"].clone()).collect())
        .unwrap_or_default();
    assert_eq!(rows, Value::Array(ranked), "{cup}");
    assert_eq!(rows[0], "SHORT_R_a");
    let next = b.text("#im-fixture").await;
    assert!(next.contains("OTHER_X"), "{next}");
    b.screenshot("broadcast-intermission-1920").await;
    let violations = b.axe_violations().await;
    assert!(violations.is_empty(), "{violations:#?}");

    // The next match on the same field, without a reload: the card goes, play starts over.
    b.wait_js(
        "const m = document.querySelector('main.broadcast'); \
         return !document.getElementById('intermission') && Number(m.dataset.cycle) > 0 \
           && Number(m.dataset.cycle) < 200",
        "the second match",
        |v| v == &json!(true),
    )
    .await;
    assert_eq!(api(addr, "/api/matches").await[0]["match_number"], 2);
    b.wait_js(
        "const c = document.querySelector('.caption'); return c ? c.textContent : ''",
        "the second kick-off's caption",
        |v| v.as_str().is_some_and(|t| t.contains("SHORT_L_a")),
    )
    .await;
    b.screenshot("broadcast-second-match-1920").await;
    let violations = b.axe_violations().await;
    assert!(violations.is_empty(), "{violations:#?}");
    // The smallest picture a stream uses: everything still inside it, in proportion.
    b.cdp(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": false}),
    )
    .await;
    let fits = b
        .wait_js(
            "const g = document.querySelector('.score-graphic').getBoundingClientRect(); \
             const f = document.getElementById('field').getBoundingClientRect(); \
             return [g.right <= 1280 && g.bottom < 80, f.width >= 1000 || f.height >= 700, \
                     document.documentElement.scrollWidth <= 1280]",
            "the view at 1280×720",
            |v| v == &json!([true, true, true]),
        )
        .await;
    assert_eq!(fits, json!([true, true, true]));
    b.screenshot("broadcast-1280x720").await;

    // The ordinary page is live and wears the same kits.
    b.goto(&format!("http://{addr}/m/field-1")).await;
    b.wait_js(
        "const e = document.getElementById('team-r'); return e ? getComputedStyle(e).color : ''",
        "the right team in its away kit",
        |v| v == "rgb(31, 58, 147)",
    )
    .await;

    // Highlights of the archived game, played and recorded as one WebM.
    let archived = api(addr, "/api/archive").await;
    let url = archived["logs"][0]["url"]
        .as_str()
        .unwrap_or_else(|| panic!("an archived game's address: {archived}"))
        .to_owned();
    b.goto(&format!("http://{addr}/?log={url}")).await;
    b.wait_text("#team-l", "the archived game", |t| t == "SHORT_L_a")
        .await;
    b.click("#export-toggle").await;
    let summary = b
        .wait_text("#highlights-summary", "the highlights", |t| {
            t.starts_with("1 goal and")
        })
        .await;
    assert!(summary.contains(" s at "), "{summary}");
    b.click("#highlights-record").await;
    let video = b.wait_download(".webm").await;
    let bytes = std::fs::metadata(&video).map(|m| m.len()).unwrap_or(0);
    assert!(bytes > 10_000, "{} is {bytes} bytes", video.display());
    b.screenshot("highlights-recorded").await;
    b.close().await;
    let _ = std::fs::remove_dir_all(&tmp);
}
