//! Accessibility, audited with axe-core in headless Chromium on the pages people use: the
//! lobby, a live match, a log opened from a file and the settings drawer. No serious or
//! critical violation is allowed.
//!
//! Needs the web app built into `dist/`, Chromium and axe-core (scripts/install-tools.sh
//! --browser installs both).

use pitchside_tests::browser::Browser;
use pitchside_tests::{fixtures, relay_harness};
use std::time::Duration;

fn assert_clean(page: &str, violations: &[String]) {
    assert!(
        violations.is_empty(),
        "{page}: {} serious or critical accessibility violations:\n{}",
        violations.len(),
        violations.join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_a_live_match_a_log_and_the_settings_pass_axe() {
    // Two matches: with one, the lobby opens it at once.
    let relay = relay_harness::start_two_short_games(Duration::from_millis(100)).await;
    let b = Browser::start().await;
    let mut found = Vec::new();

    b.open_home(relay.addr).await;
    b.wait_text("#matches", "the match card", |t| t.contains("field-a"))
        .await;
    found.push(("the lobby", b.axe_violations().await));

    b.goto(&format!("http://{}/m/field-a", relay.addr)).await;
    b.wait_text("#team-l", "the left team", |t| t == "SHORT_L_a")
        .await;
    found.push(("a live match", b.axe_violations().await));

    b.click("#settings-toggle").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    found.push(("the settings drawer", b.axe_violations().await));
    b.click("#colours-safe").await;
    b.wait_js(
        "return document.querySelector('#colour-left').value",
        "the safe palette",
        |v| v == "#e69f00",
    )
    .await;
    b.click("#settings-toggle").await;
    b.screenshot("colour-blind-safe").await;
    b.click("#settings-toggle").await;
    b.click("#colours-default").await;

    b.goto(&format!("http://{}/m/field-b", relay.addr)).await;
    b.wait_text("#team-l", "the match", |t| t == "SHORT_L_a")
        .await;
    let input = b
        .client
        .find(fantoccini::Locator::Css("input[type=file]"))
        .await
        .expect("file input");
    input
        .send_keys(&fixtures::path(fixtures::SHORT_V6).display().to_string())
        .await
        .expect("upload");
    b.wait_text("#source", "the file", |t| t.starts_with("File"))
        .await;
    found.push(("a log", b.axe_violations().await));

    // The live region speaks the goal at cycle 271 when play passes it, not when a seek does.
    let playing = "return document.querySelector('#play').title.startsWith('Pause')";
    if b.eval(playing).await == serde_json::json!(true) {
        b.click("#play").await;
    }
    let before = b.text("#announce").await;
    // The keyboard alone: T puts the cursor in the cycle box, a number and Enter go there.
    // The first seek jumps over the goal at 271: nothing may be said of it.
    for cycle in ["290", "262"] {
        b.type_cycle(cycle).await;
        b.wait_text("#cycle", "the seek", |t| t == cycle).await;
        assert_eq!(
            b.text("#announce").await,
            before,
            "a seek announces nothing"
        );
    }
    if b.eval(playing).await == serde_json::json!(false) {
        b.click("#play").await;
    }
    let said = b
        .wait_js(
            "return document.querySelector('#announce').textContent",
            "the goal announced",
            |v| v.as_str().is_some_and(|t| t.contains("Goal")),
        )
        .await;
    assert_eq!(said, "Goal for SHORT_R_a! SHORT_L_a 0, SHORT_R_a 1.");
    let region = b
        .eval(
            "const r = document.querySelector('#announce'); \
             return [r.getAttribute('role'), r.getAttribute('aria-live'), \
             document.querySelectorAll('main').length, document.querySelector('h1').textContent]",
        )
        .await;
    assert_eq!(
        region,
        serde_json::json!(["status", "polite", 1, "SHORT_L_a against SHORT_R_a"])
    );
    b.screenshot("a11y-goal-announced").await;

    // What a screen reader gets: the accessibility tree, with the live region holding the
    // goal, the main landmark and the level-one heading. Kept as text and as a picture.
    let tree = b.accessibility_tree().await;
    let artifacts = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("artifacts");
    let _ = std::fs::create_dir_all(&artifacts);
    std::fs::write(artifacts.join("a11y-tree.txt"), &tree).expect("write the tree");
    let lines: Vec<&str> = tree.lines().collect();
    let status = lines
        .iter()
        .position(|l| l.trim_start().starts_with("status ") && l.contains("[live: polite]"))
        .unwrap_or_else(|| panic!("no polite status region in:\n{tree}"));
    assert!(
        lines[status + 1..]
            .iter()
            .take(3)
            .any(|l| l.contains("Goal for SHORT_R_a! SHORT_L_a 0, SHORT_R_a 1.")),
        "the live region does not hold the goal:\n{tree}"
    );
    assert!(tree.contains("main \"\""), "{tree}");
    // Every button says what it does, in words: none is named by a symbol alone.
    for line in &lines {
        let l = line.trim_start();
        if let Some(name) = l.strip_prefix("button \"") {
            assert!(
                name.chars().filter(|c| c.is_alphanumeric()).count() >= 2,
                "a button named by a symbol: {l}"
            );
        }
    }
    assert!(tree.contains("image \"The field"), "{tree}");
    assert!(
        tree.contains("heading \"SHORT_L_a against SHORT_R_a\""),
        "{tree}"
    );
    let html = format!(
        "<!doctype html><title>Accessibility tree</title><pre style='font: 13px monospace'>{}</pre>",
        tree.replace('&', "&amp;").replace('<', "&lt;")
    );
    std::fs::write(artifacts.join("a11y-tree.html"), html).expect("write");
    b.goto(&format!(
        "file://{}",
        artifacts.join("a11y-tree.html").display()
    ))
    .await;
    b.screenshot("a11y-tree").await;
    b.close().await;
    relay.stop().await;
    for (page, v) in &found {
        eprintln!("{page}: {v:#?}");
    }
    for (page, v) in &found {
        assert_clean(page, v);
    }
}
