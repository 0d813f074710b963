//! Edge relays fed through a real `nats-server` with JetStream: one origin following the fake
//! rcssserver (real captures) publishes, three edges serve; WebSocket clients decode what each
//! sends as the page does. Edges must send exactly the origin's wire, late joiners the whole
//! history once, and nothing may be lost or doubled when an edge or NATS itself restarts.

use pitchside_tests::fake_server::{FakeServer, Script};
use pitchside_tests::nats_server::NatsServer;
use pitchside_tests::relay_harness::{self, RunningRelay};
use pitchside_tests::spectator::{http_get, http_request, Spectator};
use pitchside_tests::{capture, fixtures};
use pitchside_wire::feed::FeedSource;
use pitchside_wire::{Event, Notice};
use rcss_formats::Record;
use relay::config::{MatchSpec, Settings, SourceSpec};
use relay::monitor::MonitorConfig;
use relay::nats::NatsOptions;
use std::time::Duration;

const NAME: &str = "final";

async fn origin(server: &FakeServer, nats: &NatsServer) -> RunningRelay {
    origin_with(server, NatsOptions::new(nats.url())).await
}

/// The origin's operator token.
const TOKEN: &str = "origin-token-0123456789";

async fn origin_with(server: &FakeServer, opts: NatsOptions) -> RunningRelay {
    let mut mc = MonitorConfig::new(server.addr);
    mc.retry = Duration::from_millis(100);
    // The script ends long before this: the match stays as it is while the test looks.
    mc.silence = Duration::from_secs(60);
    let mut settings = Settings::new(vec![MatchSpec {
        name: NAME.into(),
        source: SourceSpec::Server(mc),
    }]);
    settings.publish = Some(opts);
    settings.control_token = Some(TOKEN.into());
    settings.max_delay = READ_IN_TURN;
    settings.lag = READ_IN_TURN_ITEMS;
    relay_harness::start_with(settings).await
}

/// How long a frame may wait for a spectator here, and how far behind it may fall: these
/// tests read their spectators one after another, so a spectator is not read while the others
/// are; with the usual bounds it would skip frames to stay live, and these tests are about
/// every frame arriving.
const READ_IN_TURN: Duration = Duration::from_secs(120);
const READ_IN_TURN_ITEMS: usize = 100_000;

async fn edge(nats: &NatsServer) -> RunningRelay {
    edge_with(NatsOptions::new(nats.url())).await
}

async fn edge_with(opts: NatsOptions) -> RunningRelay {
    let mut settings = Settings::new(Vec::new());
    settings.edge = Some(opts);
    settings.max_delay = READ_IN_TURN;
    settings.lag = READ_IN_TURN_ITEMS;
    relay_harness::start_with(settings).await
}

fn with_password(nats: &NatsServer, user: &str, password: &str) -> NatsOptions {
    let mut o = NatsOptions::new(nats.url());
    o.user = Some(user.into());
    o.password = Some(password.into());
    o
}

/// Waits until a relay lists the match in `/api/matches`.
async fn until_listed(relay: &RunningRelay, what: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        let (status, _, body) = http_get(relay.addr, "/api/matches").await;
        let list: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        if status == 200
            && list
                .as_array()
                .is_some_and(|l| l.iter().any(|m| m["name"] == NAME))
        {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{what} never listed the match: {}",
            String::from_utf8_lossy(&body)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The messages from the first `NewMatch` numbered 1 or more: the match itself, which every
/// spectator that joined before it began must receive byte for byte.
fn from_the_match(s: &Spectator) -> Vec<Vec<u8>> {
    let mut d = pitchside_wire::Decoder::new();
    let start = s
        .raw
        .iter()
        .position(|p| {
            let mut ev = Vec::new();
            let _ = d.decode(p, &mut ev);
            ev.iter()
                .any(|e| matches!(e, Event::Notice(Notice::NewMatch { number }) if *number >= 1))
        })
        .expect("the match began");
    s.raw[start..].to_vec()
}

fn same_records(got: &[Record], want: &[Record], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: number of records");
    for (i, (a, b)) in got.iter().zip(want).enumerate() {
        assert!(a == b, "{what}: record {i} differs:\n{a:?}\n{b:?}");
    }
}

/// The packets of a snapshot: everything up to and including the `Live` notice.
fn snapshot(s: &Spectator) -> Vec<Vec<u8>> {
    let (n, _) = s.backlog.expect("the spectator got its backlog");
    s.raw[..n].to_vec()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_edges_send_exactly_the_origins_wire_and_late_joiners_the_whole_history() {
    let nats = NatsServer::start().await;
    let datagrams = capture::split(&fixtures::read(fixtures::V5_CAPTURE)).unwrap();
    let want = capture::records(&datagrams);
    let (go, gate) = tokio::sync::watch::channel(false);
    let mut script = Script::new(datagrams, Duration::from_millis(2));
    script.burst = 4;
    script.go = Some(gate);
    let server = FakeServer::start(script).await;
    let origin = origin(&server, &nats).await;
    let edges = [edge(&nats).await, edge(&nats).await, edge(&nats).await];
    for (i, e) in edges.iter().enumerate() {
        until_listed(e, &format!("edge {i}")).await;
    }
    let path = format!("/m/{NAME}/ws");
    let mut watchers = vec![Spectator::connect(origin.addr, &path).await];
    for e in &edges {
        watchers.push(Spectator::connect(e.addr, &path).await);
    }
    for s in &mut watchers {
        s.until(15, "the snapshot", |s| s.backlog.is_some()).await;
    }
    go.send_replace(true);
    for (i, s) in watchers.iter_mut().enumerate() {
        s.until(30, &format!("every record at spectator {i}"), |s| {
            s.current_match().len() >= want.len()
        })
        .await;
    }
    same_records(
        &watchers[0].current_match(),
        &want,
        "the origin's spectator",
    );
    let reference = from_the_match(&watchers[0]);
    for (i, s) in watchers.iter().enumerate().skip(1) {
        let got = from_the_match(s);
        assert_eq!(
            got.len(),
            reference.len(),
            "edge {i}: as many messages as the origin sent"
        );
        for (j, (a, b)) in got.iter().zip(&reference).enumerate() {
            assert!(a == b, "edge {i}: message {j} differs from the origin's");
        }
    }
    // Late joiners: the same snapshot, packet for packet, and the whole match once.
    let mut late_origin = Spectator::connect(origin.addr, &path).await;
    late_origin
        .until(15, "the origin's snapshot", |s| s.backlog.is_some())
        .await;
    let want_snapshot = snapshot(&late_origin);
    same_records(
        &late_origin.current_match(),
        &want,
        "a late joiner at the origin",
    );
    for (i, e) in edges.iter().enumerate() {
        let mut late = Spectator::connect(e.addr, &path).await;
        late.until(15, "an edge's snapshot", |s| s.backlog.is_some())
            .await;
        same_records(
            &late.current_match(),
            &want,
            &format!("a late joiner at edge {i}"),
        );
        assert_eq!(
            snapshot(&late),
            want_snapshot,
            "edge {i}: a late joiner's snapshot is the origin's, byte for byte"
        );
    }
    // /api/matches says the same at the edges as at the origin (spectators apart).
    let summary = |body: Vec<u8>| {
        let mut v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        for m in v.as_array_mut().unwrap() {
            m.as_object_mut().unwrap().remove("spectators");
        }
        v
    };
    let at_origin = summary(http_get(origin.addr, "/api/matches").await.2);
    for e in &edges {
        assert_eq!(summary(http_get(e.addr, "/api/matches").await.2), at_origin);
    }
    let (status, _, log) = http_get(edges[0].addr, &format!("/m/{NAME}/match.rcg")).await;
    assert_eq!(status, 200);
    assert_eq!(
        log,
        http_get(origin.addr, &format!("/m/{NAME}/match.rcg"))
            .await
            .2,
        "an edge's download is the origin's"
    );
    for e in edges {
        e.stop().await;
    }
    origin.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edge_and_then_nats_restarting_lose_nothing() {
    let mut nats = NatsServer::start().await;
    let datagrams = capture::split(&fixtures::read("captures/F1/v5-game-end.dgrams.gz")).unwrap();
    let want = capture::records(&datagrams);
    let (go, gate) = tokio::sync::watch::channel(false);
    // 250 shows, 20 ms apart, with the server silent for 4 s before the 220th: time to
    // restart an edge, then NATS, while the match is still on, however busy the machine.
    let mut script = Script::new(datagrams, Duration::from_millis(20));
    script.pause_at = vec![(220, Duration::from_secs(4))];
    script.go = Some(gate);
    let server = FakeServer::start(script).await;
    let origin = origin(&server, &nats).await;
    let first = edge(&nats).await;
    until_listed(&first, "the edge").await;
    let path = format!("/m/{NAME}/ws");
    let mut at_origin = Spectator::connect(origin.addr, &path).await;
    let mut s = Spectator::connect(first.addr, &path).await;
    s.until(15, "the snapshot", |s| s.backlog.is_some()).await;
    go.send_replace(true);
    s.until(15, "some frames", |s| s.frames().len() >= 100)
        .await;

    // The edge dies; a new one starts; the page reconnects to it.
    drop(first);
    let second = edge(&nats).await;
    until_listed(&second, "the restarted edge").await;
    let mut s = Spectator::connect(second.addr, &path).await;
    s.until(15, "the snapshot at the new edge", |s| s.backlog.is_some())
        .await;
    let frames_at_join = s.frames().len();
    assert!(
        frames_at_join >= 100,
        "the history: {frames_at_join} frames"
    );
    s.until(15, "more frames", |s| {
        s.frames().len() >= frames_at_join + 30
    })
    .await;

    // NATS dies and comes back: the edge keeps its spectator and says what happened.
    nats.kill();
    s.until(15, "the edge telling of the lost link", |s| {
        s.notices().iter().any(|n| {
            matches!(n, Notice::Feed { source: FeedSource::Waiting, label } if label == relay::nats::edge::LOST)
        })
    })
    .await;
    // Everything before the notice is what the edge had applied: the match was still on.
    let before_outage = s.current_match().len();
    assert!(
        before_outage < want.len(),
        "NATS died mid-match: {before_outage} of {} records",
        want.len()
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    nats.restart().await;
    s.until(40, "every record, after NATS came back", |s| {
        s.current_match().len() >= want.len()
    })
    .await;
    same_records(
        &s.current_match(),
        &want,
        "the spectator at the restarted edge",
    );
    // The edge says so once it has caught up (right after the last record it read).
    let live_again = |s: &Spectator| {
        matches!(
            s.notices()
                .into_iter()
                .rev()
                .find(|n| matches!(n, Notice::Feed { .. })),
            Some(Notice::Feed {
                source: FeedSource::Live,
                ..
            })
        )
    };
    s.until(10, "the feed live again", live_again).await;
    same_records(
        &s.current_match(),
        &want,
        "nothing more after the feed came back",
    );
    at_origin
        .until(15, "every record at the origin", |s| {
            s.current_match().len() >= want.len()
        })
        .await;
    same_records(&at_origin.current_match(), &want, "the origin's spectator");
    // A page that reconnects now gets the same.
    let mut again = Spectator::connect(second.addr, &path).await;
    again
        .until(15, "a fresh snapshot", |s| s.backlog.is_some())
        .await;
    same_records(&again.current_match(), &want, "a reconnecting page");
    second.stop().await;
    origin.stop().await;
}

/// Operator requests posted to an edge reach the origin over NATS request/reply; the origin
/// checks the token and builds the command, and its answer (status, type, body) is the edge's
/// response; the edge adds nothing of its own but "no such match" and "the venue is
/// unreachable". Everyone here logs in to NATS with
/// a user and password, and an edge with the wrong password gets nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operator_commands_through_an_edge_reach_the_server_only_with_the_origins_token() {
    let nats = NatsServer::start_with(&["--user", "pitchside", "--pass", "s3cret-for-tests"]).await;
    let datagrams = capture::split(&fixtures::read(fixtures::V5_CAPTURE)).unwrap();
    let server = FakeServer::start(Script::new(datagrams, Duration::from_millis(2))).await;
    let origin = origin_with(
        &server,
        with_password(&nats, "pitchside", "s3cret-for-tests"),
    )
    .await;
    let edge = edge_with(with_password(&nats, "pitchside", "s3cret-for-tests")).await;
    let intruder = edge_with(with_password(&nats, "pitchside", "wrong")).await;
    until_listed(&edge, "the edge").await;

    let path = format!("/m/{NAME}/control");
    let right = format!("Bearer {TOKEN}");
    let wrong = "Bearer 0123456789abcdef0123456789abcdef";
    fn headers(auth: &str) -> [(&'static str, &str); 2] {
        [
            ("Authorization", auth),
            ("Content-Type", "application/json"),
        ]
    }
    let body = br#"{"cmd":"card","side":"l","unum":5,"card":"yellow"}"#;
    let card = b"(dispcard 1 5 yellow)\0".to_vec();

    // A wrong token is refused at the origin, which checks it; nothing reaches the server.
    let (status, head, reply) = http_request(edge.addr, "POST", &path, &headers(wrong), body).await;
    assert_eq!(status, 401, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{head}"
    );
    let reply: serde_json::Value = serde_json::from_slice(&reply).unwrap();
    assert!(reply["error"].is_string(), "{reply}");
    assert!(!server.commands_plain().contains(&card));

    // The right token: the origin builds the command, sends it, and its answer comes back.
    let (status, head, reply) = http_request(edge.addr, "GET", &path, &headers(&right), b"").await;
    assert_eq!(
        status, 200,
        "GET (is my token right?) travels the same way: {head}"
    );
    let reply: serde_json::Value = serde_json::from_slice(&reply).unwrap();
    assert_eq!(reply["match"], NAME);
    let (status, head, reply) =
        http_request(edge.addr, "POST", &path, &headers(&right), body).await;
    assert_eq!(status, 200, "{head} {}", String::from_utf8_lossy(&reply));
    let reply: serde_json::Value = serde_json::from_slice(&reply).unwrap();
    assert_eq!(reply["sent"], "(dispcard 1 5 yellow)");
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !server.commands_plain().contains(&card) {
        assert!(
            std::time::Instant::now() < deadline,
            "the card never reached the server"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (status, _, _) = http_request(
        edge.addr,
        "POST",
        "/m/nothing/control",
        &headers(&right),
        body,
    )
    .await;
    assert_eq!(status, 404, "a match the edge does not know");

    // The intruder never got in: no match, and its /metrics says it is not connected.
    let (_, _, list) = http_get(intruder.addr, "/api/matches").await;
    assert_eq!(list, b"[]", "an edge with the wrong password lists nothing");
    let (_, _, metrics) = http_get(intruder.addr, "/metrics").await;
    let metrics = String::from_utf8_lossy(&metrics);
    assert!(
        metrics.lines().any(|l| l == "pitchside_nats_connected 0"),
        "{metrics}"
    );

    // With the origin gone, the edge says the venue is unreachable (and keeps the match).
    origin.stop().await;
    let (status, _, _) = http_request(edge.addr, "POST", &path, &headers(&right), body).await;
    assert_eq!(status, 503, "no origin answers");
    until_listed(&edge, "the edge, after the origin stopped").await;
    edge.stop().await;
    intruder.stop().await;
}

/// A NATS that authenticates with nkeys: an origin and an edge holding the user's seed get
/// through (the match reaches the edge's spectator); an edge with another seed does not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nkeys_let_the_right_relays_in() {
    let user = nkeys::KeyPair::new_user();
    let stranger = nkeys::KeyPair::new_user();
    let conf = std::env::temp_dir().join(format!("pitchside-nkey-{}.conf", std::process::id()));
    std::fs::write(
        &conf,
        format!(
            "authorization {{ users = [ {{ nkey: {} }} ] }}\n",
            user.public_key()
        ),
    )
    .unwrap();
    let nats = NatsServer::start_with(&["-c", conf.to_str().unwrap()]).await;
    let with_seed = |seed: String| {
        let mut o = NatsOptions::new(nats.url());
        o.nkey_seed = Some(seed);
        o
    };
    let datagrams = capture::split(&fixtures::read(fixtures::V5_CAPTURE)).unwrap();
    let want = capture::records(&datagrams);
    let server = FakeServer::start(Script::new(datagrams, Duration::from_millis(2))).await;
    let origin = origin_with(&server, with_seed(user.seed().unwrap())).await;
    let edge = edge_with(with_seed(user.seed().unwrap())).await;
    let outsider = edge_with(with_seed(stranger.seed().unwrap())).await;
    until_listed(&edge, "the edge with the user's seed").await;
    let mut s = Spectator::connect(edge.addr, &format!("/m/{NAME}/ws")).await;
    s.until(20, "the whole match", |s| {
        s.current_match().len() >= want.len()
    })
    .await;
    same_records(&s.current_match(), &want, "the spectator at the edge");
    let (_, _, list) = http_get(outsider.addr, "/api/matches").await;
    assert_eq!(list, b"[]", "an edge with another seed lists nothing");
    let _ = std::fs::remove_file(&conf);
    edge.stop().await;
    outsider.stop().await;
    origin.stop().await;
}
