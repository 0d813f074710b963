//! The archive against real logs: the relay lists every log below `--archive` with teams,
//! score, shoot-out, date, duration, version and size; a damaged or half-written file does not
//! break the list; a new file appears within seconds; searches, filters, sorting and paging
//! work; each log downloads with `Range`; and nothing outside the directory can be reached
//! (`..`, encoded slashes, symbolic links).

use pitchside_tests::spectator::{http_get, http_request};
use pitchside_tests::{fixtures, relay_harness};
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

async fn list(addr: std::net::SocketAddr, query: &str) -> Value {
    let (status, _, body) = http_get(addr, &format!("/api/archive{query}")).await;
    assert_eq!(status, 200, "{query}");
    serde_json::from_slice(&body).expect("JSON")
}

/// Waits until the archive lists `n` logs and has nothing left to read.
async fn settled(addr: std::net::SocketAddr, n: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let v = list(addr, "?per_page=200").await;
        if v["total"] == n && v["indexing"] == 0 {
            return v;
        }
        assert!(Instant::now() < deadline, "waited 30 s for {n} logs: {v}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn copy(from: &str, to: &Path) {
    std::fs::create_dir_all(to.parent().expect("a parent")).expect("mkdir");
    std::fs::copy(fixtures::path(from), to).expect("copy");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_archive_lists_searches_serves_and_stays_inside_its_directory() {
    let tmp = fixtures::scratch("archive");
    let dir = tmp.join("logs");
    copy(
        fixtures::SHORT_V6,
        &dir.join("20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz"),
    );
    copy(
        fixtures::FULL_V6,
        &dir.join("day2/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz"),
    );
    copy(fixtures::PENALTY_V6, &dir.join("day2/final.rcg.gz"));
    // Half of a log, as a crashed server leaves it, and a file that is no log at all.
    let full = std::fs::read(fixtures::path(fixtures::SHORT_V2)).expect("fixture");
    std::fs::write(dir.join("cut.rcg.gz"), &full[..full.len() / 2]).expect("write");
    // The same killed server with a text and a JSON log: both cut short, said the same way.
    let text = fixtures::read(fixtures::SHORT_V6);
    let at = text[..text.len() / 3]
        .iter()
        .rposition(|b| *b == b'\n')
        .expect("a line");
    std::fs::write(dir.join("cut-v6.rcg"), &text[..=at]).expect("write");
    let json = fixtures::read(fixtures::SHORT_JSON);
    std::fs::write(dir.join("cut.json.rcg"), &json[..json.len() / 3]).expect("write");
    std::fs::write(dir.join("notes.rcg"), b"not a log\n").expect("write");
    // A name that needs escaping in a URL.
    copy(fixtures::SHORT_V2, &dir.join("odd #1 100%?.rcg.gz"));
    // Outside the archive: a secret, and a link to it from inside.
    std::fs::write(tmp.join("secret.rcg"), b"ULG5\nsecret").expect("write");
    std::os::unix::fs::symlink(tmp.join("secret.rcg"), dir.join("link.rcg")).expect("symlink");
    std::os::unix::fs::symlink(&tmp, dir.join("up")).expect("symlink");

    let relay = relay_harness::start_with_archive(fixtures::SHORT_V6, dir.clone()).await;
    let v = settled(relay.addr, 8).await;
    assert_eq!(v["version"], 1);
    let logs = v["logs"].as_array().expect("logs");
    let by_name = |n: &str| {
        logs.iter()
            .find(|l| l["name"] == n)
            .unwrap_or_else(|| panic!("{n} in {v}"))
            .clone()
    };
    let full = by_name("20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz");
    assert_eq!(full["teams"], serde_json::json!(["HELIOS_L", "HELIOS_R"]));
    assert_eq!(full["score"], serde_json::json!([2, 3]));
    assert_eq!(full["date"], "2026-11-22T13:11:24");
    assert_eq!(full["version"], "6");
    assert_eq!(full["cycles"], 6000);
    assert_eq!(full["error"], Value::Null);
    assert_eq!(
        full["id"],
        "0/day2/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz"
    );
    let final_ = by_name("final.rcg.gz");
    assert!(final_["penalties"].is_array(), "{final_}");
    assert_eq!(full["incomplete"], Value::Null);
    // Cut short, whatever the version: incomplete at its last cycle, not damaged.
    for name in ["cut.rcg.gz", "cut-v6.rcg", "cut.json.rcg"] {
        let cut = by_name(name);
        assert_eq!(cut["error"], Value::Null, "{cut}");
        let cycle = cut["incomplete"]
            .as_u64()
            .unwrap_or_else(|| panic!("{cut}"));
        assert!(cycle > 50 && cycle < 600, "{cut}");
        assert_eq!(cut["cycles"].as_u64(), Some(cycle), "{cut}");
    }
    assert_eq!(by_name("cut.json.rcg")["version"], "json");
    assert!(by_name("notes.rcg")["error"].is_string());
    assert!(
        logs.iter()
            .all(|l| l["name"] != "link.rcg" && l["name"] != "secret.rcg"),
        "a link out of the archive is listed: {v}"
    );
    // Newest first by default; the summaries were written beside the logs.
    let dates: Vec<&str> = logs.iter().filter_map(|l| l["date"].as_str()).collect();
    assert!(dates.windows(2).all(|w| w[0] >= w[1]), "{dates:?}");
    assert!(dir.join(relay::archive::INDEX_FILE).is_file());
    // A name with #, % and ? downloads by its listed address.
    let odd = by_name("odd #1 100%?.rcg.gz");
    let (status, _, body) = http_get(relay.addr, odd["url"].as_str().expect("url")).await;
    assert_eq!(status, 200, "{odd}");
    assert_eq!(
        body,
        std::fs::read(fixtures::path(fixtures::SHORT_V2)).expect("fixture")
    );

    // Search, filters, sort, paging.
    let v = list(relay.addr, "?q=helios").await;
    assert_eq!(v["total"], 1);
    // The short v6 game (whole and cut), the v2 one twice (whole under an odd name, and cut in
    // half), the JSON one cut.
    let v = list(relay.addr, "?team=short_r_a").await;
    assert_eq!(v["total"], 5, "{v}");
    let v = list(relay.addr, "?shootout=1").await;
    assert_eq!(v["logs"][0]["name"], "final.rcg.gz");
    // A parameter the archive cannot use is refused, saying what it takes, not ignored.
    for (query, says) in [
        ("?from=yesterday", "YYYY-MM-DD"),
        ("?to=2026-13-40", "YYYY-MM-DD"),
        ("?sort=bogus", "date, -date, teams, duration, size"),
        ("?shootout=maybe", "shootout is 1"),
    ] {
        let (status, _, body) = http_get(relay.addr, &format!("/api/archive{query}")).await;
        let body = String::from_utf8_lossy(&body);
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body.contains(says), "{query}: {body}");
    }
    let (status, _, body) = http_get(relay.addr, "/api/series?team=X&b_from=last-week").await;
    assert_eq!(status, 400, "{}", String::from_utf8_lossy(&body));
    let v = list(relay.addr, "?sort=duration&per_page=2&page=1").await;
    assert_eq!(
        (v["total"].clone(), v["logs"].as_array().map(Vec::len)),
        (serde_json::json!(8), Some(2))
    );
    assert_eq!(v["logs"][0]["cycles"], 6000);
    let v = list(relay.addr, "?from=2026-11-22&to=2026-11-22").await;
    assert_eq!(v["total"], 2, "{v}");

    // Download, whole and by range.
    let url = full["url"].as_str().expect("url").to_owned();
    let bytes = std::fs::read(fixtures::path(fixtures::FULL_V6)).expect("fixture");
    let (status, _, body) = http_get(relay.addr, &url).await;
    assert_eq!(status, 200);
    assert_eq!(body, bytes);
    let (status, head, body) = http_request(
        relay.addr,
        "GET",
        &url,
        &[("Range", "bytes=100-199"), ("Accept-Encoding", "gzip, br")],
        b"",
    )
    .await;
    assert_eq!(status, 206, "{head}");
    assert_eq!(body, bytes[100..200]);

    // Nothing outside: dot-dot, encoded, a link, an id of another root.
    for bad in [
        "/archive/files/0/../../secret.rcg",
        "/archive/files/0/%2e%2e/%2e%2e/secret.rcg",
        "/archive/files/0/..%2f..%2fsecret.rcg",
        "/archive/files/0%2f..%2fsecret.rcg",
        "/archive/files/0/link.rcg",
        "/archive/files/0/up/secret.rcg",
        "/archive/files/1/secret.rcg",
        "/archive/files/%2ftmp%2fsecret.rcg",
    ] {
        let (status, _, body) = http_get(relay.addr, bad).await;
        assert!(status == 404 || status == 400, "{bad}: {status}");
        assert!(!String::from_utf8_lossy(&body).contains("secret"), "{bad}");
    }

    // A new log appears within seconds; one being recorded is live, not broken.
    copy(
        fixtures::SHORT_V2,
        &dir.join("day3/20261123100000-A-vs-B.rcg.gz"),
    );
    // The recorder writes plain text; `read` gives the fixture decompressed.
    let plain = fixtures::read(fixtures::SHORT_V6);
    std::fs::write(
        dir.join("incomplete-20261123110000-C-vs-D.rcg"),
        &plain[..plain.len() / 3],
    )
    .expect("write");
    // Within the scan interval (3 s) on a quiet machine; `settled` waits up to 30 s.
    let v = settled(relay.addr, 10).await;
    let live = v["logs"]
        .as_array()
        .and_then(|l| {
            l.iter()
                .find(|l| l["name"] == "incomplete-20261123110000-C-vs-D.rcg")
        })
        .expect("the recording")
        .clone();
    assert_eq!(live["live"], true, "{live}");
    assert_eq!(
        live["incomplete"],
        Value::Null,
        "a live recording is not cut short: {live}"
    );
    relay.stop().await;
    let _ = std::fs::remove_dir_all(&tmp);
}
