//! The relay as the agents' debug server (`--debug-port`): real helios-base debug-client
//! datagrams (captured live, `agents/agents-100/debug-client.dgrams.gz`) sent to the relay
//! while it plays the same match reach the holders of that team's key, and nobody else, and
//! are recorded as `.dcl` files the page opens.

use pitchside_agents::files::{parse_name, Owner};
use pitchside_agents::index::FileKind;
use pitchside_agents::worldmodel;
use pitchside_tests::debug_client::{self, text};
use pitchside_tests::fixtures;
use pitchside_tests::relay_harness;
use pitchside_tests::spectator::{http_request, Spectator};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

const KEY_A: &str = "helios-a-debug-key-0001";
const KEY_B: &str = "helios-b-debug-key-0002";
const OPERATOR: &str = "operator-token-of-this-test";

/// `GET path` with the key or token `auth`: (status, body).
async fn get_as(addr: SocketAddr, path: &str, auth: &str) -> (u16, Vec<u8>) {
    let header = format!("Bearer {auth}");
    let (status, _, body) =
        http_request(addr, "GET", path, &[("Authorization", &header)], b"").await;
    (status, body)
}

/// Every message `auth` may read, polled from the start until `want` arrived (or 20 s).
async fn read_all(addr: SocketAddr, auth: &str, want: usize) -> Vec<serde_json::Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut from = 0;
    let mut got = Vec::new();
    loop {
        let (status, body) = get_as(addr, &format!("/m/field-a/agents?from={from}"), auth).await;
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        let answer: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
        assert_eq!(answer["v"], 1);
        got.extend(answer["messages"].as_array().cloned().unwrap_or_default());
        from = answer["next"].as_u64().expect("next");
        if got.len() >= want && answer["more"] == false {
            return got;
        }
        assert!(
            Instant::now() < deadline,
            "{} of {want} messages arrived",
            got.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A relay that plays the agents' match (fast, once) as their debug server on `port`, with
/// both teams' keys and `more` settings, and a spectator who watched the whole match: the
/// match is played before the agents speak, so the relay knows both teams.
async fn played_match(
    port: SocketAddr,
    more: impl FnOnce(&mut relay::config::Settings),
) -> (relay_harness::RunningRelay, Spectator) {
    let (mut settings, shows) = debug_client::agents_match(
        Duration::from_millis(2),
        port,
        &[("HELIOS_A", KEY_A), ("HELIOS_B", KEY_B)],
    );
    more(&mut settings);
    let relay = relay_harness::start_with(settings).await;
    let mut spectator = Spectator::connect(relay.addr, "/m/field-a/ws").await;
    spectator
        .until(30, "the whole match", |s| s.frames().len() >= shows)
        .await;
    (relay, spectator)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_teams_debug_stream_reaches_its_key_and_nobody_else_and_is_recorded() {
    let dir = fixtures::scratch("debug");
    let port = debug_client::free_port();
    let (relay, spectator) = played_match(port, |settings| {
        settings.control_token = Some(OPERATOR.into());
        settings.record = Some(dir.clone());
    })
    .await;

    // Three agents, each from its own port, as they came.
    let all = debug_client::datagrams();
    debug_client::send_all(&all, port).await;
    let of = |w: &[&str]| -> Vec<String> {
        all.iter()
            .filter(|(who, _)| w.contains(&who.as_str()))
            .map(|(_, d)| text(d))
            .collect()
    };
    let team_a = of(&["l7", "lc"]);
    let team_b = of(&["r7"]);
    assert!(team_a.len() > 180 && team_b.len() > 90);

    // Each key gets its own team's messages, every one, in order, as the agents sent them.
    for (key, team, side, want) in [
        (KEY_A, "HELIOS_A", "l", &team_a),
        (KEY_B, "HELIOS_B", "r", &team_b),
    ] {
        let got = read_all(relay.addr, key, want.len()).await;
        let texts: Vec<String> = got
            .iter()
            .map(|m| m["text"].as_str().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(&texts, want, "{team}'s stream");
        assert!(got.iter().all(|m| m["team"] == team && m["side"] == side));
        let coach = got.iter().filter(|m| m["unum"].is_null()).count();
        assert_eq!(coach, of(&[if side == "l" { "lc" } else { "rc" }]).len());
        let seqs: Vec<u64> = got.iter().filter_map(|m| m["seq"].as_u64()).collect();
        assert!(seqs.windows(2).all(|s| s[0] < s[1]));
    }
    // The operator's token opens both.
    let both = read_all(relay.addr, OPERATOR, team_a.len() + team_b.len()).await;
    assert_eq!(both.len(), team_a.len() + team_b.len());
    // The datagrams that do not say whose they are were counted, not kept.
    let (_, _, metrics) = http_request(relay.addr, "GET", "/metrics", &[], b"").await;
    let metrics = String::from_utf8(metrics).unwrap();
    let unknown = all.iter().filter(|(w, _)| w == "?").count();
    assert!(metrics.contains(&format!(
        "pitchside_debug_datagrams_total{{match=\"field-a\",result=\"unreadable\"}} {unknown}"
    )));

    // A spectator never got any of it.
    let seen = format!("{:?}", spectator.events);
    assert!(!seen.contains("format-version") && !seen.contains("AttCurSender"));

    // Recorded beside the match's log as the agents' own .dcl files, which read back to the
    // same world models, named so that the page pairs them. (Written by a thread of their
    // own: the last ones may land a moment after the stream has them.)
    let folder = relay_harness::written(&dir, "agents")
        .pop()
        .expect("a folder of .dcl files beside the .rcg");
    let written = |file: &str| -> Vec<u8> { std::fs::read(folder.join(file)).unwrap_or_default() };
    let stem = folder.file_stem().unwrap().to_string_lossy().to_string();
    assert!(
        stem.ends_with("-HELIOS_A-vs-HELIOS_B") && stem.len() == 14 + "-HELIOS_A-vs-HELIOS_B".len(),
        "{stem}"
    );
    for (file, who) in [
        ("HELIOS_A-7.dcl", "l7"),
        ("HELIOS_B-7.dcl", "r7"),
        ("HELIOS_A-coach.dcl", "lc"),
    ] {
        let named = parse_name(file).expect("a name the page pairs");
        assert_eq!(named.kind, FileKind::WorldModel);
        assert!(matches!(
            named.owner,
            Owner::Player { .. } | Owner::Coach { .. }
        ));
        let sent: Vec<_> = all
            .iter()
            .filter(|(w, _)| w == who)
            .map(|(_, d)| worldmodel::parse_message(d).unwrap())
            .collect();
        let deadline = Instant::now() + Duration::from_secs(10);
        let (models, errors) = loop {
            let (models, errors) = worldmodel::decode(&written(file), 1);
            if models.len() >= sent.len() || Instant::now() > deadline {
                break (models, errors);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert!(errors.is_empty(), "{file}: {errors:?}");
        assert_eq!(models, sent, "{file}");
    }

    // Without a key, or with a wrong one, nothing; and guessing locks the address out.
    let (status, _, _) = http_request(relay.addr, "GET", "/m/field-a/agents", &[], b"").await;
    assert_eq!(status, 401);
    let mut statuses = Vec::new();
    for _ in 0..6 {
        let (status, _) = get_as(relay.addr, "/m/field-a/agents", "not-a-key-of-this-relay").await;
        statuses.push(status);
    }
    assert!(
        statuses.contains(&401) && statuses.last() == Some(&429),
        "{statuses:?}"
    );
    let (status, _) = get_as(relay.addr, "/m/field-a/agents", KEY_A).await;
    assert_eq!(status, 429, "locked out, right key or not");
    // A tally of its own: the operator, behind the same address, still referees.
    let (status, body) = get_as(relay.addr, "/m/field-a/control", OPERATOR).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    // A match the relay is not the debug server of has no stream.
    let (status, _, _) = http_request(relay.addr, "GET", "/m/other/agents", &[], b"").await;
    assert_eq!(status, 404);
    relay.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A poll that may wait (`wait=MS`) is answered as soon as a message of its team arrives,
/// not before: the other team's messages do not wake it empty-handed, and with nothing for
/// it, it answers empty when its wait is over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_poll_is_answered_when_its_teams_agent_speaks() {
    let port = debug_client::free_port();
    let (relay, _spectator) = played_match(port, |_| {}).await;
    let all = debug_client::datagrams();
    let first = |who: &str| all.iter().find(|(w, _)| w == who).unwrap().1.clone();
    let poll = |wait_ms: u64| {
        let addr = relay.addr;
        tokio::spawn(async move {
            let (status, body) = get_as(
                addr,
                &format!("/m/field-a/agents?from=0&wait={wait_ms}"),
                KEY_A,
            )
            .await;
            assert_eq!(status, 200);
            (
                Instant::now(),
                serde_json::from_slice::<serde_json::Value>(&body).expect("JSON"),
            )
        })
    };
    // Nothing at all for its wait: an empty answer once the wait is over.
    let asked = Instant::now();
    let (answered, empty) = poll(300).await.unwrap();
    assert_eq!(
        empty["messages"].as_array().map(Vec::len),
        Some(0),
        "{empty}"
    );
    assert!(answered - asked >= Duration::from_millis(300), "it waited");

    // Team A's poll waits through team B's message and is answered by its own agent's.
    let waiting = poll(20_000);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sender = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    sender.send_to(&first("r7"), port).unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!waiting.is_finished(), "woken by the other team's message");
    let sent = Instant::now();
    sender.send_to(&first("l7"), port).unwrap();
    let (answered, answer) = tokio::time::timeout(Duration::from_secs(15), waiting)
        .await
        .expect("answered within its wait")
        .unwrap();
    assert!(answered >= sent);
    let messages = answer["messages"].as_array().cloned().unwrap_or_default();
    assert_eq!(messages.len(), 1, "{answer}");
    assert_eq!(messages[0]["team"], "HELIOS_A");
    assert_eq!(messages[0]["text"], text(&first("l7")));
    relay.stop().await;
}
