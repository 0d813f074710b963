//! *Save as…* and *Validate* in the real page (headless Chromium), and the drawings of
//! protocols 1 and 2 on the field.
//!
//! - The relay's replay saved as it is: the relay's record of the match so far.
//! - The short v6 game opened from the disk, saved as v5 with the sides swapped and cycles
//!   100 to 300: the downloaded file, read by the shared library, is a v5 log whose frames are
//!   the source's cycles 100 to 300 mirrored (x → −x, y → −y, the teams swapped).
//! - The tables of the whole match: the tracking table and the player types are `rcg2csv`'s
//!   (`tests/golden/rcg2csv/`), the actions the inspector's; cycles A to B give their rows.
//! - A copy of the game cut in the middle, validated: the panel lists it as incomplete, with
//!   its line and cycle.
//! - A v1 log with drawings (`tests/fixtures/made/drawings-v1.rcg.gz`): the field draws them
//!   from their cycle until cleared, a blank screen shows the pitch alone, and the setting
//!   turns them off. What is drawn is read through the page's scene summary
//!   (`window.__pitchside_scene()`).
//!
//! Screenshots go to `tests/artifacts/save-as-*.png` and `drawings-*.png`. Needs `dist/`
//! built (scripts/build-web.sh).

use fantoccini::Locator;
use pitchside_tests::browser::Browser;
use pitchside_tests::fixtures;
use rcss_formats::{parse_log, LogVersion, Side};
use serde_json::Value;
use std::time::Duration;

const DRAWINGS_V1: &str = "made/drawings-v1.rcg.gz";

/// Opens a file from the disk as a user choosing it would, and waits until it is read.
async fn open_file(b: &Browser, path: &std::path::Path) {
    b.choose(&path.display().to_string()).await;
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    b.wait_text("#source", "the file to be the source", |t| {
        t.contains(&name)
    })
    .await;
    b.wait_text("#progress", "the file read to its end", |t| {
        t.contains(" frames, log ")
    })
    .await;
    // Sending a file to the input scrolls the page; the toolbar is at the bottom.
    b.eval("window.scrollTo(0, 0); return true").await;
}

/// Goes to `cycle` with the cycle box (which pauses).
async fn go_to(b: &Browser, cycle: u32) {
    b.type_cycle(cycle).await;
    let want = cycle.to_string();
    b.wait_text("#cycle", &format!("cycle {cycle}"), |t| t == want)
        .await;
}

async fn set_field(b: &Browser, css: &str, value: &str) {
    let e = b.client.find(Locator::Css(css)).await.unwrap();
    e.clear().await.unwrap();
    e.send_keys(value).await.unwrap();
}

async fn attr(b: &Browser, css: &str, name: &str) -> String {
    match b.client.find(Locator::Css(css)).await {
        Ok(e) => e.attr(name).await.unwrap().unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// What a form field holds now.
async fn value(b: &Browser, css: &str) -> String {
    let e = b.client.find(Locator::Css(css)).await.unwrap();
    e.prop("value").await.unwrap().unwrap_or_default()
}

/// Clicks `css` once nothing covers it: the panels beside the field settle after a log opens.
async fn click(b: &Browser, css: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let e = b.client.find(Locator::Css(css)).await.unwrap();
        match e.click().await {
            Ok(_) => return,
            Err(e) if std::time::Instant::now() > deadline => panic!("cannot click {css}: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// Waits until the save-as status says `state` (`saved`, `validated`, …).
/// Clicks the save-as drawer's `button` and waits until the page has saved: what its status
/// says, and the downloaded file, whose name ends with `suffix`.
async fn save(b: &Browser, button: &str, suffix: &str) -> (String, std::path::PathBuf) {
    b.click(button).await;
    let status = wait_state(b, "saved").await;
    (status, b.wait_download(suffix).await)
}

/// A file of `tests/golden/`.
fn golden(rel: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(rel)
}

async fn wait_state(b: &Browser, state: &str) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let now = attr(b, "#saveas-status", "data-state").await;
        if now == state {
            return b.text("#saveas-status").await;
        }
        if std::time::Instant::now() > deadline {
            b.screenshot("save-as-failed").await;
            panic!(
                "waited 30 s for the save-as status {state}; it is {now}: {}",
                b.text("#saveas-status").await
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn drawn(s: &Value) -> u64 {
    s["shapes"]["server_drawing"].as_u64().unwrap_or(0)
}

fn players(s: &Value) -> usize {
    s["players"].as_array().map_or(0, Vec::len)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn save_as_writes_the_log_asked_for_validate_lists_findings_and_drawings_show() {
    let (relay, b) = Browser::on_bundled_replay().await;

    // ---- Save as on the relay's replay: its record of the match so far, as it names it ----
    b.wait_text("#frames", "some frames", |t| {
        t.split(" / ").nth(1).and_then(|n| n.parse::<u32>().ok()) > Some(20)
    })
    .await;
    click(&b, "#export-toggle").await;
    b.click("#saveas-save").await;
    // The match goes on: what the relay has so far stops before time over.
    let status = wait_state(&b, "incomplete").await;
    assert!(
        status.contains("incomplete: the log stops at cycle "),
        "{status}"
    );
    let live = b.wait_download(".rcg").await;
    let name = live.file_name().unwrap().to_string_lossy().into_owned();
    assert!(status.contains(&name), "{status} names {name}");
    let got = parse_log(&std::fs::read(&live).unwrap());
    assert_eq!(
        got.version,
        Some(LogVersion::V6),
        "the relay's ULG6, as it is"
    );
    assert!(got.frames.len() > 20, "{}", got.frames.len());
    std::fs::remove_file(&live).unwrap();
    click(&b, "#export-toggle").await;

    // ---- Save as: the short v6 game as v5, sides swapped, cycles 100 to 300 ----
    open_file(&b, &fixtures::path(fixtures::SHORT_V6)).await;
    go_to(&b, 100).await;
    click(&b, "#export-toggle").await;
    // The form starts with the whole match.
    assert_eq!(value(&b, "#saveas-from").await, "1");
    assert_eq!(value(&b, "#saveas-to").await, "600");
    // A: the cycle on screen; B typed.
    b.click("#saveas-from-here").await;
    assert_eq!(value(&b, "#saveas-from").await, "100");
    set_field(&b, "#saveas-to", "300").await;
    b.client
        .find(Locator::Css("#saveas-version"))
        .await
        .unwrap()
        .select_by_value("5")
        .await
        .unwrap();
    b.click("#saveas-reverse").await;
    // After a swap the left side is the right team: the name fields say so.
    assert_eq!(
        attr(&b, "#saveas-left", "placeholder").await,
        "SHORT_R_a",
        "the left name field shows the team that will be left"
    );
    b.screenshot("save-as-panel").await;
    let (status, file) = save(&b, "#saveas-save", "-100-300-reversed.v5.rcg").await;
    eprintln!("{status}; {}", file.display());
    assert!(
        status.contains("20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1-100-300-reversed.v5.rcg"),
        "{status}"
    );
    b.screenshot("save-as-saved").await;

    let out = parse_log(&std::fs::read(&file).unwrap());
    assert_eq!(out.error, None);
    assert_eq!(out.version, Some(LogVersion::V5));
    let src = parse_log(&fixtures::read(fixtures::SHORT_V6));
    let want: Vec<_> = src
        .frames
        .iter()
        .filter(|f| (100..=300).contains(&f.time))
        .collect();
    assert!(want.len() >= 201, "{}", want.len());
    assert_eq!(out.frames.len(), want.len(), "the frames of cycles 100-300");
    let close = |a: f32, b: f32| (a - b).abs() < 1e-3;
    for (o, s) in out.frames.iter().zip(&want) {
        assert_eq!(o.time, s.time);
        assert_eq!(o.mode, s.mode.mirrored(), "cycle {}", s.time);
        assert!(
            close(o.ball.x, -s.ball.x) && close(o.ball.y, -s.ball.y),
            "cycle {}: ball {:?} against {:?}",
            s.time,
            (o.ball.x, o.ball.y),
            (s.ball.x, s.ball.y)
        );
        for side in 0..2 {
            assert_eq!(o.teams[side].name, s.teams[1 - side].name);
            assert_eq!(o.teams[side].score, s.teams[1 - side].score);
        }
        for (k, p) in o.players.iter().enumerate() {
            // l1..l11 of the output are r1..r11 of the source, and the other way round.
            let q = &s.players[(k + 11) % 22];
            assert_eq!((p.unum, p.state), (q.unum, q.state));
            let side = if k < 11 { Side::Left } else { Side::Right };
            assert_eq!(p.side, Some(side));
            assert!(
                close(p.x, -q.x) && close(p.y, -q.y),
                "cycle {}: {side:?} {}: {:?} against {:?}",
                s.time,
                p.unum,
                (p.x, p.y),
                (q.x, q.y)
            );
        }
    }

    // ---- The tables: the whole match's tracking table is rcg2csv's, its actions the
    // inspector's; a range of cycles gives those cycles' rows ----
    b.click("#saveas-reverse").await;
    set_field(&b, "#saveas-from", "1").await;
    set_field(&b, "#saveas-to", "600").await;
    let (status, tracking) = save(&b, "#saveas-tracking", ".tracking.csv").await;
    assert!(
        status.contains("SHORT_R_a_1.tracking.csv (CSV, 679 shows"),
        "{status}"
    );
    let mut want = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(
            &std::fs::read(golden("rcg2csv/short-v6.tracking.csv.gz")).unwrap()[..],
        ),
        &mut want,
    )
    .unwrap();
    assert!(
        std::fs::read_to_string(&tracking).unwrap() == want,
        "the page's tracking table is rcg2csv's"
    );
    // The player types beside it: rcg2csv's NAME.player_types.csv, byte for byte.
    let (status, types) = save(&b, "#saveas-player-types", ".player_types.csv").await;
    assert!(
        status.contains("SHORT_R_a_1.player_types.csv (CSV, 18 player types"),
        "{status}"
    );
    assert!(
        std::fs::read(&types).unwrap()
            == std::fs::read(golden("rcg2csv/short-v6.player_types.csv")).unwrap(),
        "the page's player types table is rcg2csv's"
    );
    // The drawer scrolled to the table buttons and the status that names the file.
    b.eval(
        "document.getElementById('saveas-status').scrollIntoView({block: 'center'}); return true",
    )
    .await;
    b.screenshot("save-as-player-types").await;
    std::fs::remove_file(&types).unwrap();
    let (_, actions) = save(&b, "#saveas-actions", ".actions.csv").await;
    let dir = std::env::temp_dir().join(format!("pitchside-page-tables-{}", std::process::id()));
    let opts = relay::inspect::export::Options {
        tracking: false,
        actions: true,
        out: dir.clone(),
        split: None,
        seed: 0,
        jobs: 1,
        parquet: false,
    };
    relay::inspect::export::export_one(&fixtures::path(fixtures::SHORT_V6), &dir.join("s"), &opts)
        .unwrap();
    let inspector = std::fs::read_to_string(dir.join("s.actions.csv")).unwrap();
    assert!(inspector.lines().count() > 50, "{inspector}");
    assert!(
        std::fs::read_to_string(&actions).unwrap() == inspector,
        "the page's actions table is the inspector's"
    );
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::remove_file(&tracking).unwrap();
    set_field(&b, "#saveas-from", "100").await;
    set_field(&b, "#saveas-to", "300").await;
    let (_, part) = save(&b, "#saveas-tracking", "-100-300.tracking.csv").await;
    let part = std::fs::read_to_string(&part).unwrap();
    let cycles: Vec<u32> = part
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    let in_range = src
        .frames
        .iter()
        .filter(|f| (100..=300).contains(&f.time))
        .count();
    assert_eq!(cycles.len(), in_range);
    assert!(cycles.iter().all(|c| (100..=300).contains(c)), "{cycles:?}");
    b.screenshot("save-as-tables").await;
    click(&b, "#export-toggle").await;

    // ---- Validate: a copy cut in the middle is incomplete, with its line and cycle ----
    let plain = fixtures::read(fixtures::SHORT_V6);
    let cut = std::env::temp_dir().join(format!("pitchside-cut-{}.rcg", std::process::id()));
    std::fs::write(&cut, &plain[..plain.len() / 2]).unwrap();
    open_file(&b, &cut).await;
    click(&b, "#export-toggle").await;
    b.click("#saveas-validate").await;
    wait_state(&b, "validated").await;
    let finding = b
        .wait_text(
            "#saveas-findings li[data-kind='incomplete']",
            "the incomplete finding",
            |t| !t.is_empty(),
        )
        .await;
    eprintln!("{}", b.text("#saveas-findings").await);
    assert!(
        finding.contains("incomplete: the log stops at cycle "),
        "{finding}"
    );
    assert!(
        finding.contains("line ") && finding.contains(", cycle "),
        "the finding has its line and cycle: {finding}"
    );
    b.screenshot("save-as-validate").await;
    // The drawer with its findings, as a screen reader and the keyboard get it.
    let violations = b.axe_violations().await;
    assert!(violations.is_empty(), "{violations:#?}");
    let _ = std::fs::remove_file(&cut);
    click(&b, "#export-toggle").await;

    // ---- Drawings of protocol 1 on the field ----
    open_file(&b, &fixtures::path(DRAWINGS_V1)).await;
    go_to(&b, 9).await;
    let s = b.wait_scene("cycle 9", |s| s["time"] == 9).await;
    assert_eq!(
        (drawn(&s), players(&s)),
        (0, 22),
        "nothing drawn before cycle 10"
    );
    go_to(&b, 15).await;
    let s = b
        .wait_scene("the drawings of cycle 10", |s| {
            s["time"] == 15 && drawn(s) == 3
        })
        .await;
    assert_eq!(players(&s), 22);
    b.screenshot("drawings-v1").await;
    go_to(&b, 25).await;
    b.wait_scene("cycle 20's clear and two drawings", |s| {
        s["time"] == 25 && drawn(s) == 2
    })
    .await;
    b.screenshot("drawings-cleared").await;
    // A blank screen: the pitch alone for its cycle.
    go_to(&b, 30).await;
    let s = b
        .wait_scene("the blank screen of cycle 30", |s| {
            s["time"] == 30 && players(s) == 0
        })
        .await;
    assert!(s["ball"].is_null(), "{s}");
    assert_eq!(drawn(&s), 0);
    assert!(s["shapes"]["pitch_line"].as_u64() > Some(10), "{s}");
    b.screenshot("drawings-blank").await;
    go_to(&b, 31).await;
    b.wait_scene("the match again at 31", |s| {
        s["time"] == 31 && players(s) == 22 && drawn(s) == 2
    })
    .await;
    // The setting turns them off.
    b.click("#settings-toggle").await;
    b.click("#set-server-drawings").await;
    b.wait_scene("no drawings with the setting off", |s| {
        s["time"] == 31 && drawn(s) == 0
    })
    .await;
    b.click("#set-server-drawings").await;
    b.wait_scene("drawings back", |s| drawn(s) == 2).await;
    b.click("#settings-toggle").await;

    b.close().await;
    relay.stop().await;
}
