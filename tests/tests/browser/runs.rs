//! Runs of games in headless Chromium, as an organiser uses them. The runs page (`/runs`): a
//! spectator sees the relay's runs and no button; the operator, with the link the relay
//! printed, starts a run, sees it play and say what it does, pauses it and sees it paused;
//! axe-core clean. The lobby: a field's card says which game of the run it plays.
//!
//! The relay starts a program of the test's in place of `pitchside-play` (the runner's own
//! behaviour is `pitchside-play`'s tests'): it says what it plays, ends with exit code 0 on
//! SIGUSR1 as a paused runner does, and runs a minute at most.
//!
//! Needs the web app built into `dist/`, Chromium and axe-core (scripts/test.sh).

use pitchside_tests::browser::Browser;
use pitchside_tests::{fixtures, relay_harness};
use relay::runs::RunSpec;

const TOKEN: &str = "the-organisers-runs-token";

/// The stand-in runner: notes its arguments, says it plays, pauses on SIGUSR1.
const RUNNER: &str = r#"#!/bin/sh
echo "$*" > "$(dirname "$0")/runner-args.txt"
trap 'echo "paused after game 1"; exit 0' USR1
trap 'echo "stopped"; exit 130' TERM
echo "game 1 of 2 under way"
i=0
while [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_starts_and_pauses_a_run_from_the_page_and_a_spectator_cannot() {
    relay_harness::need_web_app();
    let tmp = fixtures::scratch("runs-page");
    let runner = tmp.join("pitchside-play");
    std::fs::write(&runner, RUNNER).expect("write the runner");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&runner, std::fs::Permissions::from_mode(0o755))
        .expect("make it runnable");
    let args = [
        "--team",
        "start_left",
        "--opponent",
        "start_right",
        "--games",
        "2",
    ];
    let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    args.extend(["--out".into(), "night".into()]);
    let mut settings = relay::config::Settings::new(vec![relay_harness::bundled(
        "demo",
        std::time::Duration::from_millis(100),
    )]);
    settings.control_token = Some(TOKEN.into());
    settings.play_program = runner;
    settings.runs = vec![RunSpec {
        name: "night".into(),
        dir: tmp.clone(),
        args,
        out: tmp.join("night"),
    }];
    let relay = relay_harness::start_with(settings).await;
    let b = Browser::start().await;

    // A spectator: the run and where it is, no button.
    b.goto(&format!("http://{}/runs", relay.addr)).await;
    b.wait_text("#run-night .run-phase", "the idle run", |t| {
        t == "Not started"
    })
    .await;
    let buttons = b
        .eval("return document.querySelectorAll('#run-night button').length;")
        .await;
    assert_eq!(buttons, 0, "a spectator gets no button");

    // The operator's link (a page load of its own: a fragment alone does not reload the
    // page): Start, and the run plays.
    b.goto("about:blank").await;
    b.goto(&format!("http://{}/runs#control={TOKEN}", relay.addr))
        .await;
    b.wait_js(
        "return document.querySelectorAll('#run-night button').length;",
        "the operator's buttons",
        |n| n == 3,
    )
    .await;
    let disabled = b
        .eval("return [...document.querySelectorAll('#run-night button')].map(x => x.disabled);")
        .await;
    assert_eq!(
        disabled,
        serde_json::json!([false, true, true]),
        "only Start, while idle"
    );
    b.eval("document.querySelector('#run-night .run-start').click(); return null;")
        .await;
    b.wait_text("#run-night .run-phase", "the run playing", |t| {
        t == "Playing"
    })
    .await;
    b.wait_text("#run-night .run-said", "what the runner says", |t| {
        t.contains("game 1 of 2 under way")
    })
    .await;
    let given = std::fs::read_to_string(tmp.join("runner-args.txt")).expect("the runner ran");
    assert_eq!(
        given.trim(),
        "--team start_left --opponent start_right --games 2 --out night --continue",
        "the run file's arguments and --continue, nothing from the page"
    );
    b.screenshot("runs-playing").await;
    assert!(
        b.axe_violations().await.is_empty(),
        "axe-core: {:?}",
        b.axe_violations().await
    );

    // Pause: the runner ends as a paused one does, and the page says so.
    b.eval("document.querySelector('#run-night .run-pause').click(); return null;")
        .await;
    b.wait_text("#runs-said", "the action's answer", |t| {
        t.contains("night: asked to pause")
    })
    .await;
    b.wait_text("#run-night .run-phase", "the paused run", |t| {
        t == "Paused: start to go on"
    })
    .await;
    b.screenshot("runs-paused").await;
    relay.stop().await;
}

/// The lobby during a batch: the card of a field the relay follows says which game of the run
/// it plays and how far the run is, from the `pitchside-play.json` of a folder the relay
/// archives (the relay's `/api/matches` gives it as `run`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_card_of_a_field_says_which_game_of_the_run_it_plays() {
    relay_harness::need_web_app();
    let datagrams = pitchside_tests::capture::split(&fixtures::read(fixtures::V5_CAPTURE))
        .expect("the capture");
    let server =
        pitchside_tests::fake_server::FakeServer::start(pitchside_tests::fake_server::Script {
            datagrams,
            pace: std::time::Duration::from_millis(40),
            ..pitchside_tests::fake_server::Script::default()
        })
        .await;
    let tmp = fixtures::scratch("lobby-run");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock after 1970")
        .as_secs();
    let run = pitchside_wire::run::Run {
        format: pitchside_wire::run::RUN_FORMAT.into(),
        kind: "batch".into(),
        games: 300,
        played: 6,
        invalid: 0,
        fields: vec![pitchside_wire::run::RunField {
            port: server.addr.port(),
            game: Some("game-0007".into()),
            teams: None,
        }],
        running: true,
        seconds_left: None,
        updated: now,
    };
    std::fs::write(
        tmp.join("pitchside-play.json"),
        serde_json::to_vec(&run).expect("a run writes"),
    )
    .expect("write the run's status");
    let mut following = relay::monitor::MonitorConfig::new(server.addr);
    following.retry = std::time::Duration::from_millis(200);
    let mut settings = relay::config::Settings::new(vec![
        relay::config::MatchSpec {
            name: "field-1".into(),
            source: relay::config::SourceSpec::Server(following),
        },
        relay_harness::bundled("demo", std::time::Duration::from_millis(100)),
    ]);
    settings.archive = vec![tmp];
    let relay = relay_harness::start_with(settings).await;
    let b = Browser::start().await;
    b.goto(&format!("http://{}/", relay.addr)).await;
    b.wait_text(
        "[data-match='field-1'] .card-run",
        "the field's game of the run",
        |t| t == "Batch: game-0007 · 6 of 300 played",
    )
    .await;
    let others = b
        .eval("return document.querySelectorAll(\"[data-match='demo'] .card-run\").length;")
        .await;
    assert_eq!(
        others, 0,
        "a match that is no field of the run says nothing of it"
    );
    b.screenshot("lobby-run").await;
    relay.stop().await;
}
