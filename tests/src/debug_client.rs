//! The agents' debug-client datagrams captured live from helios-base
//! (`agents/agents-100/debug-client.dgrams.gz`), and a sender that replays them to a relay's
//! debug port as the agents sent them: each agent from its own port, a cycle's worth at a time.

use pitchside_agents::worldmodel;
use relay::config::{Settings, SourceSpec};
use std::collections::HashMap;
use std::net::{SocketAddr, UdpSocket};
use std::time::Duration;

/// The datagrams in arrival order: (who, bytes), who as `l7`, `r7`, `lc` (the left coach), or
/// `?` for the ones that do not say whose they are (sent before the agent knew its place).
pub fn datagrams() -> Vec<(String, Vec<u8>)> {
    let raw = crate::fixtures::read(&format!(
        "{}/debug-client.dgrams.gz",
        crate::fixtures::AGENTS_DIR
    ));
    crate::capture::split(&raw)
        .expect("the datagram fixture")
        .into_iter()
        .map(|d| {
            let w = worldmodel::parse_message(&d).expect("a real datagram reads");
            let who = match (&w.me, w.coach) {
                (Some(me), _) => format!("{}{}", me.side.letter(), me.unum),
                (None, Some(s)) => format!("{}c", s.letter()),
                (None, None) => "?".into(),
            };
            (who, d)
        })
        .collect()
}

/// A datagram's text as the relay passes it on: without its NUL.
pub fn text(d: &[u8]) -> String {
    String::from_utf8_lossy(d)
        .trim_end_matches('\0')
        .trim()
        .to_owned()
}

/// Sends `all` to `port` from one socket per agent, pausing after each eight (loopback drops
/// a burst of hundreds of 2 KB datagrams).
pub async fn send_all(all: &[(String, Vec<u8>)], port: SocketAddr) {
    let mut senders: HashMap<&str, UdpSocket> = HashMap::new();
    for (i, (who, d)) in all.iter().enumerate() {
        let s = senders
            .entry(who.as_str())
            .or_insert_with(|| UdpSocket::bind("127.0.0.1:0").expect("a sender"));
        s.send_to(d, port).expect("send a datagram");
        if i % 8 == 7 {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
}

/// A free UDP port on loopback for a relay's `--debug-port`.
pub fn free_port() -> SocketAddr {
    let s = UdpSocket::bind("127.0.0.1:0").expect("a free port");
    s.local_addr().expect("its address")
}

/// The settings of a relay that plays the match these datagrams come from
/// (`fixtures::AGENTS_RCG`) once, as `field-a`, a frame every `step`, and is its agents'
/// debug server on `port`, each of `team_keys` (team, key) reading its team's stream; and
/// how many frames the match has.
pub fn agents_match(
    step: Duration,
    port: SocketAddr,
    team_keys: &[(&str, &str)],
) -> (Settings, usize) {
    let mut spec = crate::relay_harness::replay(crate::fixtures::AGENTS_RCG, "field-a", step);
    let shows = match &mut spec.source {
        SourceSpec::Replay(rc) => {
            rc.looping = false;
            rc.script.shows()
        }
        SourceSpec::Server(_) => unreachable!("a replay"),
    };
    let mut settings = Settings::new(vec![spec]);
    settings.debug_port = Some(port);
    settings.team_keys = team_keys
        .iter()
        .map(|(team, key)| ((*team).into(), (*key).into()))
        .collect();
    (settings, shows)
}
