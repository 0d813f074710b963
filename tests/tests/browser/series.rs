//! The series page in headless Chromium, as a team developer uses it during a night's batch:
//! the series of half a batch with the batch's progress as `pitchside-play` writes it (game
//! k of N, each field, the time left), the rest of the batch arriving while the page is open
//! (no reload) and the batch's end, an invalid game listed with why and opened at its first
//! goal, and the batch compared with last week's (not told apart), then the games ALPHA won
//! against those it lost and the other way round, each verdict in its own colour, mark and
//! word; the figures are the relay's `/api/series`, axe-core clean.
//!
//! Needs the web app built into `dist/`, Chromium and axe-core (scripts/test.sh).

use pitchside_tests::browser::Browser;
use pitchside_tests::spectator::http_get;
use pitchside_tests::{fixtures, relay_harness};
use pitchside_wire::run::{Run, RunField, RUN_FORMAT};
use serde_json::Value;
use std::path::Path;

/// ALPHA's goals minus its opponent's in a game, from the log's name (rcssserver names its
/// logs `DATE-LEFT_GOALS-vs-RIGHT_GOALS`).
fn alpha_margin(log: &Path) -> i64 {
    let name = log.file_name().expect("a name").to_string_lossy();
    let (_, game) = name
        .trim_end_matches(".rcg.gz")
        .split_once('-')
        .expect("DATE-GAME");
    let (l, r) = game.split_once("-vs-").expect("LEFT-vs-RIGHT");
    let side = |t: &str| {
        let (team, goals) = t.split_once('_').expect("TEAM_GOALS");
        (team == "ALPHA", goals.parse::<i64>().expect("goals"))
    };
    let ((l_alpha, lg), (_, rg)) = (side(l), side(r));
    if l_alpha {
        lg - rg
    } else {
        rg - lg
    }
}

/// The verdict as the page shows it: its finding, class, badge and the colours of its edge
/// and badge.
async fn verdict_look(b: &Browser) -> Value {
    b.eval(
        "const v = document.getElementById('series-verdict'); \
         const badge = v.querySelector('.verdict-badge'); \
         return {finding: v.dataset.finding, class: v.className, badge: badge.textContent, \
                 edge: getComputedStyle(v).borderLeftColor, \
                 fill: getComputedStyle(badge).backgroundColor};",
    )
    .await
}

async fn api(addr: std::net::SocketAddr, query: &str) -> Value {
    let (status, _, body) = http_get(addr, &format!("/api/series{query}")).await;
    assert_eq!(status, 200);
    serde_json::from_slice(&body).expect("JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_developer_watches_a_batch_converge_and_compares_it_with_last_week() {
    relay_harness::need_web_app();
    let tmp = fixtures::scratch("series-page");
    let night = tmp.join("archive/night");
    let a = fixtures::series_logs("A");
    fixtures::copy_into(&a[..12], &night);
    fixtures::copy_into(
        &[fixtures::series("invalid").join("20261126140749-ALPHA_1-vs-BRAVO_0.rcg.gz")],
        &night,
    );
    fixtures::copy_into(&fixtures::series_logs("B"), &tmp.join("archive/last-week"));
    // The games of both batches ALPHA won, and those it lost: two series a verdict tells
    // apart either way round.
    let both: Vec<_> = a
        .iter()
        .chain(&fixtures::series_logs("B"))
        .cloned()
        .collect();
    let (won, lost): (Vec<_>, Vec<_>) = (
        both.iter()
            .filter(|g| alpha_margin(g) > 0)
            .cloned()
            .collect(),
        both.iter()
            .filter(|g| alpha_margin(g) < 0)
            .cloned()
            .collect(),
    );
    assert_eq!((won.len(), lost.len()), (5, 4));
    fixtures::copy_into(&won, &tmp.join("archive/won"));
    fixtures::copy_into(&lost, &tmp.join("archive/lost"));
    // `pitchside-play` is filling the folder: its status file says how far it is.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock after 1970")
        .as_secs();
    let mut run = Run {
        format: RUN_FORMAT.into(),
        kind: "batch".into(),
        games: 24,
        played: 12,
        invalid: 1,
        fields: vec![
            RunField {
                port: 6000,
                game: Some("game-0014".into()),
                teams: None,
            },
            RunField {
                port: 7000,
                game: None,
                teams: None,
            },
        ],
        running: true,
        seconds_left: Some(600),
        updated: now,
    };
    let write_run = |run: &Run| {
        std::fs::write(
            night.join("pitchside-play.json"),
            serde_json::to_vec(run).expect("a run writes"),
        )
        .expect("write the run's status");
    };
    write_run(&run);
    // The game field 6000 plays now: its log so far (a real log cut short), no result yet.
    let playing = night.join("game-0014.rcg.gz");
    std::fs::copy(
        fixtures::series("invalid").join("killed-server-1.rcg.gz"),
        &playing,
    )
    .expect("copy the log being written");
    let relay = relay_harness::start_with_archive(fixtures::SHORT_V6, tmp.join("archive")).await;
    let b = Browser::start().await;

    let page = format!("http://{}/series?team=ALPHA&dir=0/night", relay.addr);
    b.goto(&page).await;
    b.wait_text("#series-status", "half the batch", |t| {
        t.contains("12 games counted")
    })
    .await;
    b.wait_text("#series-run", "the batch's progress", |t| {
        t.contains(
            "Batch: 12 of 24 games played, 1 invalid in this run · about 10 min left at this pace",
        ) && t.contains("field 6000: game-0014")
            && t.contains("field 7000: between games")
    })
    .await;
    let doc = api(relay.addr, "?team=ALPHA&dir=0/night").await;
    let rate = &doc["win_rate"];
    let shown = b.text("dd.win-rate").await;
    let want = format!(
        "{:.1} % (95 % CI {:.1}–{:.1} %)",
        rate["value"].as_f64().unwrap() * 100.0,
        rate["ci"][0].as_f64().unwrap() * 100.0,
        rate["ci"][1].as_f64().unwrap() * 100.0
    );
    assert_eq!(shown, want);
    // The invalid game: listed with why, out of the figures, watched from its first goal.
    // The game being played is not one of them.
    let why = b.text("#series-invalid .why").await;
    assert_eq!(why, "BRAVO had 10 players at kick-off");
    assert_eq!(doc["invalid_games"], 1, "{doc}");
    let violations = b.axe_violations().await;
    assert!(violations.is_empty(), "the series page: {violations:#?}");
    b.screenshot("series-half").await;

    // The rest of the batch lands while the page is open: it follows without a reload.
    fixtures::copy_into(&a[12..], &night);
    // Field 6000's game is one of those just landed: its stand-in log goes.
    std::fs::remove_file(&playing).expect("remove the stand-in log");
    run.played = 24;
    run.running = false;
    run.seconds_left = None;
    run.fields.iter_mut().for_each(|f| f.game = None);
    write_run(&run);
    b.wait_text("#series-status", "the whole batch", |t| {
        t.contains("24 games counted")
    })
    .await;
    b.wait_text("#series-run", "the batch's end", |t| {
        t.starts_with("Batch ended: 24 of 24 games played") && !t.contains("field")
    })
    .await;
    let points = b
        .eval("return document.querySelector('.series-curve .a .rate').getAttribute('points').trim().split(' ').length")
        .await;
    assert_eq!(points, 24, "one point of the curve a game");
    b.screenshot("series-whole").await;

    b.click("#series-invalid .watch").await;
    let first_goal = doc["invalid"][0]["first_goal"].as_u64().expect("a goal");
    b.wait_text("#cycle", "the first goal's cycle", |t| {
        t == first_goal.to_string()
    })
    .await;
    b.wait_text("#team-l", "the match", |t| t == "ALPHA").await;

    // A/B: tonight against last week.
    let ab = format!(
        "http://{}/series?team=ALPHA&dir=0/night&b_dir=0/last-week",
        relay.addr
    );
    b.goto(&ab).await;
    let api_ab = api(relay.addr, "?team=ALPHA&dir=0/night&b_dir=0/last-week").await;
    let verdict = api_ab["comparison"]["verdict"].as_str().unwrap().to_owned();
    b.wait_text("#series-verdict .verdict-text", "the verdict", |t| {
        t == verdict
    })
    .await;
    // 2 wins in 24 against 3 in 24: not told apart.
    assert_eq!(api_ab["comparison"]["finding"], "undecided");
    let undecided = verdict_look(&b).await;
    let diff = b.text("#series-diff-win").await;
    assert!(diff.contains("Newcombe") && diff.contains("p = "), "{diff}");
    let curves = b
        .eval("return document.querySelectorAll('.series-curve .rate').length")
        .await;
    assert_eq!(curves, 2);
    let violations = b.axe_violations().await;
    assert!(violations.is_empty(), "the comparison: {violations:#?}");
    b.screenshot("series-ab").await;

    // The games won against the games lost, and the other way round: told apart, the first
    // better, the second worse; each verdict is drawn in its own colour, with its own mark
    // and word, axe-core clean.
    let mut looks = vec![undecided];
    for (a_dir, b_dir, finding) in [("won", "lost", "better"), ("lost", "won", "worse")] {
        let query = format!("?team=ALPHA&dir=0/{a_dir}&b_dir=0/{b_dir}");
        let doc = api(relay.addr, &query).await;
        assert_eq!(doc["comparison"]["finding"], finding, "{doc}");
        let verdict = doc["comparison"]["verdict"].as_str().unwrap().to_owned();
        assert!(
            verdict.starts_with(&format!("A is {finding} than B")),
            "{verdict}"
        );
        b.goto(&format!("http://{}/series{query}", relay.addr))
            .await;
        b.wait_text("#series-verdict .verdict-text", "the verdict", |t| {
            t == verdict
        })
        .await;
        let violations = b.axe_violations().await;
        assert!(violations.is_empty(), "A {finding}: {violations:#?}");
        b.screenshot(&format!("series-ab-{finding}")).await;
        looks.push(verdict_look(&b).await);
    }
    let [undecided, better, worse] = &looks[..] else {
        unreachable!()
    };
    for (look, finding, badge) in [
        (undecided, "undecided", "≈ Not told apart"),
        (better, "better", "▲ A better"),
        (worse, "worse", "▼ A worse"),
    ] {
        assert_eq!(look["finding"], finding, "{look}");
        assert_eq!(look["class"], format!("verdict {finding}"), "{look}");
        assert_eq!(look["badge"], badge, "{look}");
    }
    for (x, y) in [(undecided, better), (undecided, worse), (better, worse)] {
        assert_ne!(x["edge"], y["edge"], "{x} {y}");
        assert_ne!(x["fill"], y["fill"], "{x} {y}");
    }
    b.close().await;
    relay.stop().await;
    let _ = std::fs::remove_dir_all(&tmp);
}
