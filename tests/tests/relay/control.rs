//! Refereeing through the relay: `POST /m/NAME/control` with the operator's token, against a
//! fake rcssserver that replays a real capture and records every datagram it receives. Each
//! command must reach the server as its exact bytes (NUL-terminated, zlib when compression is
//! on); everything else (no token, a wrong one, malformed or out-of-range commands, a replay,
//! coach commands without coach mode, a kick-off the server would ignore, floods) is refused
//! with its status and nothing reaches the server.

use pitchside_tests::fake_server::{FakeServer, Script};
use pitchside_tests::spectator::Spectator;
use pitchside_tests::{capture, fixtures, relay_harness};
use pitchside_wire::Notice;
use rcss_formats::command;
use relay::config::{MatchSpec, Settings, SourceSpec};
use relay::monitor::MonitorConfig;
use std::net::SocketAddr;
use std::time::Duration;

const TOKEN: &str = "referee-token-0123456789";

/// The real operator capture up to its first `(dispstart)`: parameters, then shows at time 0
/// before kick-off with both teams on; the last show repeats every 20 ms for 12 s, as a
/// server waiting for its kick-off does. `coach` turns `server::coach` on in its parameters.
fn before_kick_off(coach: bool) -> Script {
    let mut d = capture::split(&fixtures::read("captures/OPa/v5-operator.dgrams.gz")).unwrap();
    d.truncate(61);
    if coach {
        let p = &mut d[0];
        let at = p.windows(9).position(|w| w == b"(coach 0)").unwrap();
        p[at..at + 9].copy_from_slice(b"(coach 1)");
    }
    let last = d[60].clone();
    d.extend(std::iter::repeat_n(last, 600));
    let mut s = Script::new(d, Duration::ZERO);
    s.slow_from = Some((20, Duration::from_millis(20)));
    s
}

/// The real capture of a compressed v5 monitor in play (cycles 1032…), 20 ms per datagram.
fn compressed_in_play() -> Script {
    let d = capture::split(&fixtures::read(
        "captures/F1/v5-compression-6-clean.dgrams.gz",
    ))
    .unwrap();
    let mut s = Script::new(d, Duration::ZERO);
    s.slow_from = Some((20, Duration::from_millis(20)));
    s
}

fn live(server: &FakeServer, compression: Option<i32>) -> MatchSpec {
    let mut mc = MonitorConfig::new(server.addr);
    mc.compression = compression;
    mc.retry = Duration::from_millis(200);
    MatchSpec {
        name: "field".into(),
        source: SourceSpec::Server(mc),
    }
}

async fn relay(matches: Vec<MatchSpec>) -> relay_harness::RunningRelay {
    let mut settings = Settings::new(matches);
    settings.control_token = Some(TOKEN.into());
    relay_harness::start_with(settings).await
}

/// One HTTP/1.1 request with a JSON body, with the operator's `token` or none: (status,
/// head, body), within 10 s.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> (u16, String, String) {
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![("Content-Type", "application/json")];
    headers.extend(auth.as_deref().map(|a| ("Authorization", a)));
    let (status, head, body) = tokio::time::timeout(
        Duration::from_secs(10),
        pitchside_tests::spectator::http_request(addr, method, path, &headers, body.as_bytes()),
    )
    .await
    .expect("an answer within 10 s");
    (status, head, String::from_utf8_lossy(&body).into_owned())
}

async fn post(addr: SocketAddr, token: Option<&str>, body: &str) -> (u16, String) {
    let (status, _, body) = http(addr, "POST", "/m/field/control", token, body).await;
    (status, body)
}

/// Waits until the relay is registered and has shown a frame.
async fn registered(addr: SocketAddr) -> Spectator {
    let mut s = Spectator::connect(addr, "/m/field/ws").await;
    s.until(10, "a frame from the fake server", |s| {
        !s.frames().is_empty()
    })
    .await;
    s
}

fn operator_notices(s: &Spectator) -> Vec<String> {
    s.notices()
        .into_iter()
        .filter_map(|n| match n {
            Notice::Operator { text } => Some(text),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn every_command_reaches_the_server_as_its_exact_bytes() {
    let server = FakeServer::start(before_kick_off(false)).await;
    let relay = relay(vec![live(&server, None)]).await;
    let mut spectator = registered(relay.addr).await;
    let cases = [
        (r#"{"cmd":"kickoff"}"#, "(dispstart)", "kick-off"),
        (
            r#"{"cmd":"drop_ball","x":-12.5,"y":3}"#,
            "(dispfoul -200 48 0)",
            "drop ball at (-12.5, 3.0)",
        ),
        (
            r#"{"cmd":"free_kick","side":"l","x":20,"y":10}"#,
            "(dispfoul 320 160 1)",
            "free kick left at (20.0, 10.0)",
        ),
        (
            r#"{"cmd":"free_kick","side":"r","x":-30,"y":-10}"#,
            "(dispfoul -480 -160 -1)",
            "free kick right at (-30.0, -10.0)",
        ),
        (
            r#"{"cmd":"card","side":"l","unum":5,"card":"yellow"}"#,
            "(dispcard 1 5 yellow)",
            "yellow card to left 5",
        ),
        (
            r#"{"cmd":"card","side":"r","unum":7,"card":"red"}"#,
            "(dispcard -1 7 red)",
            "red card to right 7",
        ),
        (
            r#"{"cmd":"discard","side":"r","unum":3}"#,
            "(dispdiscard -1 3)",
            "right 3 discarded",
        ),
        (
            r#"{"cmd":"move","side":"l","unum":9,"x":30,"y":-20,"deg":90}"#,
            "(dispplayer 1 9 480 -320 90)",
            "left 9 moved to (30.0, -20.0) facing 90°",
        ),
    ];
    for (body, text, _) in &cases {
        let (status, reply) = post(relay.addr, Some(TOKEN), body).await;
        assert_eq!(status, 200, "{body}: {reply}");
        let reply: serde_json::Value = serde_json::from_str(&reply).unwrap();
        assert_eq!(reply, serde_json::json!({ "sent": text }), "{body}");
    }
    let got = server.commands.lock().unwrap().clone();
    let want: Vec<Vec<u8>> = cases
        .iter()
        .map(|(_, text, _)| format!("{text}\0").into_bytes())
        .collect();
    assert_eq!(got, want);
    // Every spectator is told, in words.
    spectator
        .until(5, "an operator notice per command", |s| {
            operator_notices(s).len() >= cases.len()
        })
        .await;
    let said: Vec<String> = cases.iter().map(|(_, _, s)| (*s).to_owned()).collect();
    assert_eq!(operator_notices(&spectator), said);
    relay.stop().await;
}

#[tokio::test]
async fn commands_are_compressed_when_compression_is_on() {
    let server = FakeServer::start(compressed_in_play()).await;
    let relay = relay(vec![live(&server, Some(6))]).await;
    let _spectator = registered(relay.addr).await;
    let (status, reply) = post(
        relay.addr,
        Some(TOKEN),
        r#"{"cmd":"card","side":"l","unum":5,"card":"yellow"}"#,
    )
    .await;
    assert_eq!(status, 200, "{reply}");
    // In play, a kick-off would be ignored by the server: refused here, nothing sent.
    let (status, reply) = post(relay.addr, Some(TOKEN), r#"{"cmd":"kickoff"}"#).await;
    assert_eq!(status, 409, "{reply}");
    assert!(reply.contains("play_on"), "{reply}");
    let got = server.commands.lock().unwrap().clone();
    // The relay's own request, plain (the server reads it before compression is on), then
    // the card, as one zlib stream of the text and its NUL.
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0], b"(compression 6)\0");
    assert_eq!(got[1], command::datagram("(dispcard 1 5 yellow)", true));
    assert!(rcss_formats::datagram::is_zlib(&got[1]));
    assert_eq!(
        rcss_formats::datagram::inflate(&got[1]).unwrap(),
        b"(dispcard 1 5 yellow)\0"
    );
    relay.stop().await;
}

#[tokio::test]
async fn everything_else_is_refused_and_nothing_reaches_the_server() {
    let server = FakeServer::start(before_kick_off(false)).await;
    let replay = relay::Source::Replay {
        script: relay::replay::Script::from_log(
            "short.rcg",
            &fixtures::read("logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz"),
        )
        .unwrap(),
        step: Duration::from_millis(100),
    }
    .into_spec();
    let replay_name = replay.name.clone();
    let relay = relay(vec![live(&server, None), replay]).await;
    let _spectator = registered(relay.addr).await;
    let card = r#"{"cmd":"card","side":"l","unum":5,"card":"yellow"}"#;

    // With the right token: what the relay would not send.
    let refused = [
        ("{not json", 400, "not JSON"),
        (r#"{"cmd":"explode"}"#, 400, "unknown command"),
        (r#"{"cmd":"(dispbye)"}"#, 400, "unknown command"),
        (r#"{"cmd":"drop_ball","x":60,"y":0}"#, 400, "off the pitch"),
        (
            r#"{"cmd":"drop_ball","x":0,"y":-39.5}"#,
            400,
            "off the pitch",
        ),
        (
            r#"{"cmd":"card","side":"l","unum":12,"card":"red"}"#,
            400,
            "1 to 11",
        ),
        (
            r#"{"cmd":"card","side":"l","unum":5,"card":"green"}"#,
            400,
            "green",
        ),
        (
            r#"{"cmd":"card","side":"c","unum":5,"card":"red"}"#,
            400,
            "side",
        ),
        (
            r#"{"cmd":"move","side":"l","unum":5,"x":0,"y":0,"deg":720}"#,
            400,
            "360",
        ),
        (
            r#"{"cmd":"change_mode","mode":"play_on"}"#,
            409,
            "coach mode",
        ),
        (r#"{"cmd":"recover"}"#, 409, "coach mode"),
    ];
    for (body, want, says) in refused {
        let (status, reply) = post(relay.addr, Some(TOKEN), body).await;
        assert_eq!(status, want, "{body}: {reply}");
        let v: serde_json::Value = serde_json::from_str(&reply).unwrap();
        assert!(
            v["error"].as_str().unwrap().contains(says),
            "{body}: {reply}"
        );
    }
    let path = format!("/m/{replay_name}/control");
    let (status, _, reply) = http(relay.addr, "POST", &path, Some(TOKEN), card).await;
    assert_eq!(status, 409, "a replay: {reply}");
    assert!(reply.contains("replay"), "{reply}");
    let (status, _, _) = http(relay.addr, "POST", "/m/nowhere/control", Some(TOKEN), card).await;
    assert_eq!(status, 404);

    // The page asks whether its token is right before it shows the operator panel.
    let (status, _, reply) = http(relay.addr, "GET", "/m/field/control", Some(TOKEN), "").await;
    assert_eq!(status, 200, "{reply}");
    let v: serde_json::Value = serde_json::from_str(&reply).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"match": "field", "live": true, "coach": false, "kickoff": true})
    );

    // No token, a wrong one, a token of another scheme: 401, and the reply names no token.
    let (status, _, _) = http(relay.addr, "GET", "/m/field/control", None, "").await;
    assert_eq!(status, 401);
    let (status, reply) = post(relay.addr, None, card).await;
    assert_eq!(status, 401, "{reply}");
    let wrong = "referee-token-0123456780";
    let (status, reply) = post(relay.addr, Some(wrong), card).await;
    assert_eq!(status, 401);
    assert!(!reply.contains(TOKEN) && !reply.contains(wrong), "{reply}");
    let (status, _) = post(relay.addr, Some(&TOKEN[..TOKEN.len() - 1]), card).await;
    assert_eq!(status, 401);
    let (status, _) = post(relay.addr, Some(&format!("{TOKEN}0")), card).await;
    assert_eq!(status, 401);
    // Five failures within a minute: this address is held off, even with the right token.
    let (status, head, reply) =
        http(relay.addr, "POST", "/m/field/control", Some(TOKEN), card).await;
    assert_eq!(status, 429, "{reply}");
    let retry: u64 = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("retry-after: ")
                .map(str::to_owned)
        })
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");

    assert_eq!(server.commands.lock().unwrap().len(), 0, "nothing was sent");
    relay.stop().await;
}

#[tokio::test]
async fn a_flood_is_cut_to_the_burst_and_the_rest_never_reaches_the_server() {
    let server = FakeServer::start(before_kick_off(false)).await;
    let relay = relay(vec![live(&server, None)]).await;
    let _spectator = registered(relay.addr).await;
    let addr = relay.addr;
    let flood = std::time::Instant::now();
    let tasks: Vec<_> = (0..40)
        .map(|i| {
            tokio::spawn(async move {
                let body = format!(
                    r#"{{"cmd":"move","side":"l","unum":{},"x":{i},"y":0,"deg":0}}"#,
                    i % 11 + 1
                );
                post(addr, Some(TOKEN), &body).await.0
            })
        })
        .collect();
    let mut codes = Vec::new();
    for t in tasks {
        codes.push(t.await.unwrap());
    }
    let ok = codes.iter().filter(|c| **c == 200).count();
    let limited = codes.iter().filter(|c| **c == 429).count();
    assert_eq!(ok + limited, 40, "{codes:?}");
    // The burst, and what the limiter refilled while the flood lasted (a busy machine
    // stretches it).
    let burst = relay::control::FLOOD_BURST as usize;
    let refilled = (flood.elapsed().as_secs_f64() * relay::control::FLOOD_RATE).ceil() as usize;
    assert!(
        (burst..=burst + refilled + 1).contains(&ok),
        "{ok} sent in {:?}: {codes:?}",
        flood.elapsed()
    );
    assert_eq!(server.commands.lock().unwrap().len(), ok);
    relay.stop().await;
}

#[tokio::test]
async fn coach_commands_come_back_with_the_servers_answer() {
    let mut script = before_kick_off(true);
    script.answers = vec![
        (
            b"(change_mode play_on)".to_vec(),
            b"(msg 0 1 \"(ok change_mode)\")\0".to_vec(),
        ),
        (
            b"(change_mode human_judge)".to_vec(),
            b"(msg 0 1 \"(error illegal_mode)\")\0".to_vec(),
        ),
        (
            b"(recover)".to_vec(),
            b"(msg 0 1 \"(ok recover)\")\0".to_vec(),
        ),
    ];
    let server = FakeServer::start(script).await;
    let relay = relay(vec![live(&server, None)]).await;
    let mut spectator = registered(relay.addr).await;
    let (status, _, reply) = http(relay.addr, "GET", "/m/field/control", Some(TOKEN), "").await;
    assert_eq!(status, 200);
    assert!(reply.contains(r#""coach":true"#), "{reply}");
    for (body, sent, answer) in [
        (
            r#"{"cmd":"change_mode","mode":"play_on"}"#,
            "(change_mode play_on)",
            "(ok change_mode)",
        ),
        (r#"{"cmd":"recover"}"#, "(recover)", "(ok recover)"),
        (
            r#"{"cmd":"change_mode","mode":"human_judge"}"#,
            "(change_mode human_judge)",
            "(error illegal_mode)",
        ),
    ] {
        let (status, reply) = post(relay.addr, Some(TOKEN), body).await;
        assert_eq!(status, 200, "{body}: {reply}");
        let v: serde_json::Value = serde_json::from_str(&reply).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"sent": sent, "answer": answer}),
            "{body}"
        );
    }
    spectator
        .until(5, "three operator notices", |s| {
            operator_notices(s).len() >= 3
        })
        .await;
    assert_eq!(
        operator_notices(&spectator),
        [
            "play mode set to play_on",
            "players' stamina recovered",
            "play mode set to human_judge — rcssserver refused it: (error illegal_mode)"
        ]
    );
    // An answer to the operator is no refusal of the relay by the server.
    assert!(!spectator
        .notices()
        .iter()
        .any(|n| matches!(n, Notice::ServerError { .. })));
    relay.stop().await;
}

/// A page on another site cannot use the control endpoint, even with the right token, and its
/// preflight gets no permission; a site the relay lists can. Every response carries the
/// protective headers, the page its Content-Security-Policy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_sites_cannot_referee_unless_listed_and_responses_are_protected() {
    use pitchside_tests::spectator::{assert_has_all, http_get, http_request};
    let server = FakeServer::start(before_kick_off(false)).await;
    let mut settings = Settings::new(vec![live(&server, None)]);
    settings.control_token = Some(TOKEN.into());
    settings.cors_origins = vec!["https://tournament.example".into()];
    let relay = relay_harness::start_with(settings).await;
    let _s = registered(relay.addr).await;
    let auth = format!("Bearer {TOKEN}");
    let kickoff = br#"{"cmd":"kickoff"}"#;
    let from = |origin: &str| -> Vec<(&'static str, String)> {
        vec![
            ("Authorization", auth.clone()),
            ("Content-Type", "application/json".to_string()),
            ("Origin", origin.to_string()),
        ]
    };
    let send = |headers: Vec<(&'static str, String)>, method: &'static str, body: &'static [u8]| {
        let addr = relay.addr;
        async move {
            let h: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
            http_request(addr, method, "/m/field/control", &h, body).await
        }
    };
    // What a browser asks before a cross-site POST.
    let preflight = |origin: &str| {
        send(
            vec![
                ("Origin", origin.to_string()),
                ("Access-Control-Request-Method", "POST".into()),
            ],
            "OPTIONS",
            b"",
        )
    };
    let lower = |h: &str| h.to_ascii_lowercase();

    let (status, head, body) = send(from("https://evil.example"), "POST", kickoff).await;
    assert_eq!(status, 403, "{}", String::from_utf8_lossy(&body));
    assert!(
        !lower(&head).contains("access-control-allow-origin"),
        "{head}"
    );
    let (_, head, _) = preflight("https://evil.example").await;
    assert!(
        !lower(&head).contains("access-control-allow-origin"),
        "{head}"
    );
    assert!(
        server.commands.lock().unwrap().is_empty(),
        "nothing reached the server from another site"
    );

    let (status, head, _) = preflight("https://tournament.example").await;
    assert!(status < 300, "{head}");
    assert!(
        lower(&head).contains("access-control-allow-origin: https://tournament.example"),
        "{head}"
    );
    let (status, head, body) = send(from("https://tournament.example"), "POST", kickoff).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    assert!(
        lower(&head).contains("access-control-allow-origin: https://tournament.example"),
        "{head}"
    );
    assert_eq!(
        server.commands.lock().unwrap().clone(),
        vec![b"(dispstart)\0".to_vec()]
    );

    for path in ["/", "/m/field", "/api/matches", "/healthz", "/nowhere"] {
        let (_, head, _) = http_get(relay.addr, path).await;
        let head = lower(&head);
        assert!(
            head.contains("x-content-type-options: nosniff"),
            "{path}: {head}"
        );
        assert!(
            head.contains("referrer-policy: no-referrer"),
            "{path}: {head}"
        );
    }
    for path in ["/", "/m/field"] {
        let (status, head, _) = http_get(relay.addr, path).await;
        assert_eq!(status, 200, "{path}");
        let csp = lower(&head)
            .lines()
            .find(|l| l.starts_with("content-security-policy:"))
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("{path}: no CSP: {head}"));
        assert_has_all(
            &csp,
            &[
                "script-src 'self'",
                "object-src 'none'",
                "frame-ancestors 'none'",
                "report-uri /csp-report",
            ],
            path,
        );
    }
    relay.stop().await;
}
