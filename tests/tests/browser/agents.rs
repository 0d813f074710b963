//! What the agents thought, in the real page: a real game's `.rcg` chosen together with every
//! agent's debug log and world-model log (gzipped) and the server's message log. The page pairs
//! them with the players, lists what it could not pair, and for a selected player shows his
//! messages, drawings, beliefs against the truth and commands at a chosen cycle, all checked
//! against what the shared library reads from the same files. Screenshots go to
//! `tests/artifacts/`.

use fantoccini::Locator;
use pitchside_agents::commands;
use pitchside_agents::debuglog::{self, Item};
use pitchside_agents::index::{FileKind, Indexer, Search};
use pitchside_agents::worldmodel;
use pitchside_agents::Time;
use pitchside_tests::agent_looks::look;
use pitchside_tests::browser::Browser;
use pitchside_tests::static_server::StaticServer;
use pitchside_tests::{debug_client, fixtures, relay_harness};
use serde_json::Value;
use std::time::Duration;

/// The cycle looked at: mid-game, the ball in play.
const CYCLE: u32 = 60;

fn shapes(s: &Value, tag: &str) -> u64 {
    s["shapes"][tag].as_u64().unwrap_or(0)
}

/// Stops playback and goes to `cycle` as a user does (`t`, the cycle, Enter).
async fn go_to(b: &Browser, cycle: u32) {
    if b.text("#play").await.contains("❚❚") {
        b.click("#play").await;
    }
    b.wait_text("#play", "playback stopped", |t| t.contains("▶"))
        .await;
    b.type_cycle(cycle).await;
    b.wait_text("#cycle", "the chosen cycle", |t| t == cycle.to_string())
        .await;
}

/// Clicks player `id` (`l7`) where the last scene drew him.
async fn select(b: &Browser, id: &str) {
    b.click_player(&b.scene().await, id).await;
}

/// The last scene, once it has `want` of the agents' drawings (or after `tries` looks 100 ms
/// apart, whatever it has then).
async fn scene_with_drawings(b: &Browser, want: u64, tries: usize) -> Value {
    let mut s = b.scene().await;
    for _ in 0..tries {
        if shapes(&s, "agent_drawing") == want {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        s = b.scene().await;
    }
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_opened_with_its_agents_files_shows_what_each_agent_thought() {
    let relay = relay_harness::start_bundled_replay().await;

    // A file of a team that is not in this match, to be listed as not paired.
    let stray_dir = std::env::temp_dir().join(format!("pitchside-agents-{}", std::process::id()));
    std::fs::create_dir_all(&stray_dir).unwrap();
    let stray = stray_dir.join("OTHER_TEAM-3.log");
    std::fs::write(&stray, "5,0 4 M hello\n").unwrap();

    let logs = fixtures::path(&format!("{}/agent-logs", fixtures::AGENTS_DIR));
    let mut paths = vec![
        fixtures::path(fixtures::AGENTS_RCG),
        fixtures::path(fixtures::AGENTS_RCL),
        stray.clone(),
    ];
    let mut agent_files: Vec<_> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    agent_files.sort();
    paths.extend(agent_files);

    let b = Browser::start().await;
    b.open_replay(relay.addr).await;
    let list: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    b.choose(&list.join("\n")).await;
    b.wait_text("#source", "the match's log", |t| {
        t.contains("HELIOS_A_0-vs-HELIOS_B_0")
    })
    .await;
    // Indexing done: the panel lists its one problem, the stray file.
    let problems = b
        .wait_text("#agent-problems", "the unpaired file", |t| {
            t.contains("OTHER_TEAM-3.log")
        })
        .await;
    assert!(
        problems.contains("its team OTHER_TEAM is not playing in this match"),
        "{problems}"
    );
    assert!(problems.contains("1 file problem"), "{problems}");

    // Go to the cycle, paused. With nobody selected every agent's lines are listed: the first
    // 200, then a button for the others (all of them made again at every cycle kept a full
    // game's page busy and its memory high).
    go_to(&b, CYCLE).await;
    b.wait_js(
        "const m = document.getElementById('agent-messages'); return m ? m.dataset.pending : ''",
        "every agent's lines of the cycle read",
        |v| v.as_str() == Some("false"),
    )
    .await;
    let count =
        "return document.querySelectorAll('#agent-messages li:not(.more):not(.empty)').length";
    assert_eq!(b.eval(count).await.as_u64(), Some(200));
    let more = b
        .eval("const m = document.querySelector('#agent-messages .more button'); if (m) m.scrollIntoView(); return m ? m.textContent : ''")
        .await;
    let others: u64 = more
        .as_str()
        .and_then(|t| t.strip_prefix("Show the other "))
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the button for the other lines: {more:?}"));
    b.screenshot("agents-more-lines").await;
    b.click("#agent-messages .more button").await;
    b.wait_js(count, "every line listed", |v| {
        v.as_u64() == Some(200 + others)
    })
    .await;
    assert_eq!(
        b.eval("return document.querySelectorAll('#agent-messages .more').length")
            .await
            .as_u64(),
        Some(0)
    );

    // The left 7.
    select(&b, "l7").await;
    b.wait_text("#agent-panel h2", "the agent's title", |t| {
        t.starts_with(&format!("Agent l7 at {CYCLE},0"))
    })
    .await;

    // What the library reads from the same file at that time.
    let log = fixtures::read(&format!(
        "{}/agent-logs/HELIOS_A-7.log.gz",
        fixtures::AGENTS_DIR
    ));
    let mut ix = Indexer::new(FileKind::DebugLog);
    ix.push(&log);
    let ix = ix.finish();
    let time = Time {
        cycle: CYCLE,
        stopped: 0,
    };
    let span = ix.at(time).next().unwrap();
    let (entries, _) = debuglog::decode(&log[span.start as usize..span.end as usize], 1);
    let messages: Vec<&str> = entries
        .iter()
        .filter_map(|e| match &e.item {
            Item::Message(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    let drawings = entries
        .iter()
        .filter(|e| matches!(e.item, Item::Drawing(_)))
        .count() as u64;
    assert!(!messages.is_empty() && drawings > 0);
    let shown = b
        .wait_text("#agent-messages", "the agent's messages", |t| {
            !t.contains("No messages")
        })
        .await;
    for m in messages.iter().take(20) {
        assert!(shown.contains(m.trim()), "{m:?} not in the panel");
    }
    let count = b
        .eval("return document.querySelectorAll('#agent-messages li').length")
        .await;
    assert_eq!(count.as_u64(), Some(messages.len() as u64));

    // The drawings, and the world model against the truth.
    let dcl = fixtures::read(&format!(
        "{}/agent-logs/HELIOS_A-7.dcl.gz",
        fixtures::AGENTS_DIR
    ));
    let mut wix = Indexer::new(FileKind::WorldModel);
    wix.push(&dcl);
    let wix = wix.finish();
    let ws = wix.at(time).next().unwrap();
    let (wms, _) = worldmodel::decode(&dcl[ws.start as usize..ws.end as usize], 1);
    let wm = wms.last().unwrap();
    let beliefs = 1 + usize::from(wm.ball.is_some()) + wm.players.len();
    let dcl_drawings = wm.drawings.len() as u64;
    let s = scene_with_drawings(&b, drawings + dcl_drawings, 100).await;
    assert_eq!(shapes(&s, "agent_drawing"), drawings + dcl_drawings, "{s}");
    assert!(shapes(&s, "belief") >= beliefs as u64, "{s}");
    assert!(shapes(&s, "belief_error") as usize >= beliefs - 1, "{s}");
    let table = b
        .wait_text("#agent-beliefs", "the belief table", |t| t.contains("ball"))
        .await;
    assert!(table.contains("me"), "{table}");
    let me_error: f64 = b
        .eval(
            "return document.querySelector('#agent-beliefs tr[data-what=\"me\"] .err').textContent",
        )
        .await
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(me_error < 1.0, "the agent knows where it is: {me_error}");
    let commands = b.text("#agent-commands").await;
    assert!(
        commands.contains("(dash") || commands.contains("(turn"),
        "{commands}"
    );
    let shot = b.screenshot("agents-l7").await;
    eprintln!("screenshot: {}", shot.display());

    // The message board has the players' says from the message log: at this frame, the ones
    // sent before it, the last of them last.
    let rcl = fixtures::read(fixtures::AGENTS_RCL);
    let (sent, _) = commands::decode(&rcl, 1);
    let says: Vec<(Time, String)> = sent
        .iter()
        .filter(|e| matches!(e.sender, commands::Sender::Player { .. }))
        .flat_map(|e| {
            e.commands
                .iter()
                .filter(|c| commands::name(c) == "say")
                .map(move |c| (e.time, c.clone()))
        })
        .collect();
    let heard: Vec<&(Time, String)> = says.iter().filter(|(t, _)| *t < time).collect();
    assert!(heard.len() > 100, "{}", heard.len());
    b.click("#messages-toggle").await;
    b.wait_js(
        "return document.querySelectorAll('#messages li[data-kind=\"say\"]').length",
        "the says on the board",
        |v| v.as_u64().unwrap_or(0) > 0,
    )
    .await;
    let last = b
        .eval("const l = document.querySelectorAll('#messages li[data-kind=\"say\"] .text'); return l[l.length - 1].textContent")
        .await;
    assert_eq!(last.as_str(), Some(heard[heard.len() - 1].1.as_str()));
    b.eval("document.getElementById('messages').scrollIntoView(); return true")
        .await;
    b.screenshot("agents-says").await;
    b.click("#messages-toggle").await;

    // Hiding the categories of the drawings takes them off the field (a drawing under several
    // categories, or under any, stays while one of them is shown).
    let hidden: u32 = entries
        .iter()
        .filter(|e| matches!(e.item, Item::Drawing(_)))
        .fold(0, |a, e| a | e.level)
        & ix.levels;
    for bit in pitchside_agents::level::bits(hidden) {
        b.click(&format!("#agent-panel input[data-level=\"{bit}\"]"))
            .await;
    }
    let staying = entries
        .iter()
        .filter(|e| matches!(e.item, Item::Drawing(_)))
        .filter(|e| pitchside_agents::level::shown(e.level, hidden))
        .count() as u64;
    assert!(staying < drawings);
    let s = scene_with_drawings(&b, staying + dcl_drawings, 50).await;
    assert_eq!(shapes(&s, "agent_drawing"), staying + dcl_drawings, "{s}");

    // A search across the match finds the cycles the library finds.
    let needle = "updateTheirDefenseLine";
    let mut search = Search::new(&ix, needle);
    search.push(&log);
    let cycles = search.finish().len();
    assert!(cycles > 10);
    let field = b
        .client
        .find(Locator::Css("#agent-search-text"))
        .await
        .unwrap();
    field.send_keys(needle).await.unwrap();
    b.click(".agent-search button").await;
    let found = b
        .wait_text(".agent-found", "the search's result", |t| {
            t.contains(" cycle")
        })
        .await;
    // The panel counts cycles; the library's search counts game times (a stoppage repeats a
    // cycle), so the panel's figure is at most the library's.
    let n: usize = found
        .split(": ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(n > 10 && n <= cycles, "{found} against {cycles}");
    b.screenshot("agents-search").await;
    b.close().await;
}

/// A relay playing the agents' match once, a frame every `step_ms`, as their debug server
/// with the left team's `key`; and its debug port.
async fn start_debug_server(
    step_ms: u64,
    key: &str,
) -> (relay_harness::RunningRelay, std::net::SocketAddr) {
    let port = debug_client::free_port();
    let (settings, _) =
        debug_client::agents_match(Duration::from_millis(step_ms), port, &[("HELIOS_A", key)]);
    (relay_harness::start_with(settings).await, port)
}

/// A browser on the match page opened with the team's `key`, once the agents' stream has
/// brought the agent panel.
async fn open_with_key(relay: std::net::SocketAddr, key: &str) -> Browser {
    let b = Browser::start().await;
    b.goto(&format!("http://{relay}/m/field-a#team={key}"))
        .await;
    b.wait_js(
        "return !!document.querySelector('#agent-panel')",
        "the agent panel (the stream arrived)",
        |v| v == &Value::Bool(true),
    )
    .await;
    b
}

/// Live: the relay is the agents' debug server for the match it plays; the captured
/// helios-base datagrams sent to its debug port reach the page opened with the left team's
/// link, which shows the left 7's beliefs as it does from his file, and not the right 7's;
/// a page without the key gets no agent panel at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agents_debug_stream_reaches_the_page_with_the_teams_key_only() {
    const KEY: &str = "helios-a-team-key-for-this-test";
    let (relay, port) = start_debug_server(20, KEY).await;
    // The relay knows the teams once frames came; then the agents speak.
    let mut spectator =
        pitchside_tests::spectator::Spectator::connect(relay.addr, "/m/field-a/ws").await;
    spectator
        .until(30, "the first frames", |s| s.frames().len() > 10)
        .await;
    let all = debug_client::datagrams();
    debug_client::send_all(&all, port).await;

    let b = open_with_key(relay.addr, KEY).await;
    assert!(
        !b.url().await.contains(KEY),
        "the key is taken out of the address"
    );
    go_to(&b, CYCLE).await;
    // His world model at that time, as he sent it.
    let wm = all
        .iter()
        .filter(|(who, _)| who == "l7")
        .map(|(_, d)| worldmodel::parse_message(d).unwrap())
        .find(|w| w.time.cycle == CYCLE)
        .expect("the left 7 spoke at that cycle");
    // With nobody selected, each agent's `message` line of the cycle: what it is doing.
    let doing = wm.message.clone().expect("a message line");
    let all_lines = b
        .wait_text("#agent-messages", "every agent's message line", |t| {
            t.contains(&doing)
        })
        .await;
    assert!(all_lines.contains("HELIOS_A 7"), "{all_lines}");
    assert!(!all_lines.contains("HELIOS_B"), "{all_lines}");
    b.screenshot("agents-live-all").await;
    select(&b, "l7").await;
    b.wait_text("#agent-panel h2", "the agent's title", |t| {
        t.starts_with(&format!("Agent l7 at {CYCLE},0"))
    })
    .await;
    let beliefs = 1 + usize::from(wm.ball.is_some()) + wm.players.len();
    let table = b
        .wait_text("#agent-beliefs", "the belief table", |t| t.contains("ball"))
        .await;
    assert!(table.contains("me"), "{table}");
    let rows = b
        .eval("return document.querySelectorAll('#agent-beliefs tr[data-what]').length")
        .await;
    assert_eq!(rows.as_u64(), Some(beliefs as u64), "{table}");
    if let Some(msg) = &wm.message {
        let shown = b.text("#agent-panel").await;
        assert!(shown.contains(msg.as_str()), "its message line: {shown}");
    }
    let s = b.scene().await;
    assert!(shapes(&s, "belief") >= beliefs as u64, "{s}");
    assert_eq!(shapes(&s, "agent_drawing"), wm.drawings.len() as u64, "{s}");
    let shot = b.screenshot("agents-live").await;
    eprintln!("screenshot: {}", shot.display());

    // The other team's agent: nothing of his reached this page.
    select(&b, "r7").await;
    b.wait_text("#agent-panel h2", "the other agent's title", |t| {
        t.starts_with("Agent r7")
    })
    .await;
    let none = b
        .eval("return document.querySelector('#agent-beliefs') === null")
        .await;
    assert_eq!(none, Value::Bool(true), "no beliefs of the other team");

    // The same match without the key (this tab's memory of it cleared): no agents at all.
    b.eval("sessionStorage.clear(); return true").await;
    b.goto(&format!("http://{}/m/field-a", relay.addr)).await;
    b.wait_text("#cycle", "frames", |t| !t.is_empty()).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let panel = b
        .eval("return document.querySelector('#agent-panel') === null")
        .await;
    assert_eq!(panel, Value::Bool(true), "a spectator sees no agent panel");
    b.close().await;
}

/// Following a live match at its edge, as a team developer does: the agents' messages for a
/// cycle reach the relay after the cycle's frame (the agents think about what they were just
/// shown), so the datagrams here are sent in step with the match, each cycle's once its frame
/// has gone out. Read at any instant, the panel shows the agent's latest lines: of the cycle
/// on screen, or of the last cycle that has them, said so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn following_live_the_panel_shows_each_agents_latest_lines_at_every_look() {
    const KEY: &str = "helios-a-team-key-for-the-looks";
    let (relay, port) = start_debug_server(100, KEY).await;

    // The agents: each cycle's datagrams sent once the relay has sent that cycle's frame.
    let addr = relay.addr;
    let agents = tokio::spawn(async move {
        let all: Vec<(u32, Vec<u8>)> = debug_client::datagrams()
            .into_iter()
            .filter(|(who, _)| who != "?")
            .map(|(_, d)| (worldmodel::parse_message(&d).unwrap().time.cycle, d))
            .collect();
        let socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        let mut spectator =
            pitchside_tests::spectator::Spectator::connect(addr, "/m/field-a/ws").await;
        let mut next = 0;
        while next < all.len() && spectator.step().await {
            let Some(now) = spectator.frames().last().map(|f| f.time) else {
                continue;
            };
            while next < all.len() && all[next].0 <= now {
                socket.send_to(&all[next].1, port).unwrap();
                next += 1;
            }
        }
    });

    let b = open_with_key(relay.addr, KEY).await;
    // Looks a quarter of a second apart while the match plays (about ten seconds of it).
    let (mut live, mut shown, mut earlier) = (0, 0, 0);
    for i in 0..24 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let l = look(&b).await;
        if !l.live {
            continue;
        }
        live += 1;
        if l.agents().contains("HELIOS_A 7") {
            shown += 1;
        }
        assert!(
            !l.agents().iter().any(|w| w.starts_with("HELIOS_B")),
            "the other team's lines: {l:?}"
        );
        earlier += l.split().1;
        if i == 12 {
            b.screenshot("agents-live-edge").await;
        }
    }
    eprintln!("looks at the live edge: {live}, with the left 7's lines: {shown}, lines said to be of an earlier cycle: {earlier}");
    assert!(live >= 20, "{live} looks at the live edge");
    assert!(
        shown * 100 >= live * 95,
        "{shown} of {live} looks show the left 7's lines"
    );
    b.close().await;
    agents.abort();
    relay.stop().await;
}

/// By address: `?log=` names the match and `&agents=` the list of its agents' files (the
/// fixture's `agents.txt`, relative names), both on another site; the page downloads them,
/// pairs every one and shows the left 7's beliefs as when the files are dropped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_and_its_agents_files_open_by_address() {
    let relay = relay_harness::start_bundled_replay().await;
    let files = StaticServer::start().await;
    let log = files.url(fixtures::AGENTS_RCG, true);
    let list = files.url(&format!("{}/agents.txt", fixtures::AGENTS_DIR), true);
    let listed = std::fs::read_to_string(fixtures::path(&format!(
        "{}/agents.txt",
        fixtures::AGENTS_DIR
    )))
    .unwrap()
    .lines()
    .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    .count();
    let b = Browser::start().await;
    b.goto(&format!("http://{}/?log={log}&agents={list}", relay.addr))
        .await;
    let indexed = b
        .wait_js(
            "return document.getElementById('agent-index') && document.getElementById('agent-index').dataset.files",
            "the agents' files indexed",
            |v| v.as_str().is_some_and(|s| !s.is_empty()),
        )
        .await;
    assert_eq!(indexed.as_str(), Some(listed.to_string().as_str()));
    let problems = b
        .eval("const p = document.getElementById('agent-problems'); return p ? p.textContent : ''")
        .await;
    assert_eq!(problems.as_str(), Some(""), "every file paired: {problems}");
    go_to(&b, CYCLE).await;
    select(&b, "l7").await;
    b.wait_text("#agent-panel h2", "the agent's title", |t| {
        t.starts_with(&format!("Agent l7 at {CYCLE},0"))
    })
    .await;
    let table = b
        .wait_text("#agent-beliefs", "the belief table", |t| t.contains("ball"))
        .await;
    assert!(table.contains("me"), "{table}");
    b.screenshot("agents-by-address").await;
    b.close().await;
}

/// Opens `game` with `files` (replacing what the page showed) and waits until every agent
/// file is indexed; the index figures the page gives (files, bytes of text, bytes held).
async fn open_with_agents(
    b: &Browser,
    game: &std::path::Path,
    files: &[std::path::PathBuf],
) -> Value {
    let mut paths = vec![game.display().to_string()];
    paths.extend(files.iter().map(|p| p.display().to_string()));
    b.eval(
        "const e = document.getElementById('agent-index'); if (e) e.dataset.ms = ''; return true",
    )
    .await;
    b.choose(&paths.join("\n")).await;
    b.wait_js(
        "const e = document.getElementById('agent-index'); return e ? e.dataset.ms || '' : ''",
        "the agents' files indexed",
        |v| v.as_str().is_some_and(|s| !s.is_empty()),
    )
    .await;
    b.eval("const d = document.getElementById('agent-index').dataset; return [d.files, d.bytes, d.indexBytes]")
        .await
}

/// The text of every message line the panel lists at `cycle` (nobody selected), once every
/// file's lines for it are read.
async fn lines_at(b: &Browser, cycle: u32) -> Vec<String> {
    go_to(b, cycle).await;
    b.wait_js(
        "const m = document.getElementById('agent-messages'); return m ? m.dataset.pending : ''",
        "the lines of the cycle read",
        |v| v.as_str() == Some("false"),
    )
    .await;
    let v = b
        .eval("return Array.from(document.querySelectorAll('#agent-messages li .text')).map(e => e.textContent)")
        .await;
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Runs *Find* for `needle` and returns what the panel says it found, and the cycles it lists
/// to jump to (the first 200).
async fn find(b: &Browser, needle: &str) -> (String, Vec<u32>) {
    let field = b
        .client
        .find(Locator::Css("#agent-search-text"))
        .await
        .unwrap();
    field.clear().await.unwrap();
    field.send_keys(needle).await.unwrap();
    b.click(".agent-search button").await;
    let found = b
        .wait_text(".agent-found", "the search's result", |t| {
            t.starts_with(&format!("\"{needle}\": "))
        })
        .await;
    let hits = b
        .eval("return Array.from(document.querySelectorAll('#agent-hits button')).map(e => e.textContent)")
        .await;
    let cycles = hits
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().parse().unwrap())
        .collect();
    (found, cycles)
}

/// A gzipped agent file is the same to the page as its text: a long game's files of one
/// player (made from the fixture's twelve times over, so that the worker reads the gzipped
/// ones from access points well into the file), opened gzipped and then plain beside the full
/// game of the same teams, give the same index, the same lines at cycles visited forwards and
/// backwards (the lines the shared library decodes from the text), and the same cycles found.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gzipped_agent_files_read_and_search_as_the_plain_ones() {
    use pitchside_agents::gz;
    use std::io::Write;
    const COPIES: u32 = 12;
    let dir = std::env::temp_dir().join(format!("pitchside-agents-gz-{}", std::process::id()));
    let (plain_dir, gz_dir) = (dir.join("plain"), dir.join("gz"));
    std::fs::create_dir_all(&plain_dir).unwrap();
    std::fs::create_dir_all(&gz_dir).unwrap();
    let made = |ext: &str| {
        let src = fixtures::read(&format!(
            "{}/agent-logs/HELIOS_A-7.{ext}.gz",
            fixtures::AGENTS_DIR
        ));
        fixtures::repeated_agent_file(&src, ext == "dcl", COPIES)
    };
    let (log, dcl) = (made("log"), made("dcl"));
    let (mut plain_files, mut gz_files) = (Vec::new(), Vec::new());
    for (ext, text) in [("log", &log), ("dcl", &dcl)] {
        let p = plain_dir.join(format!("HELIOS_A-7.{ext}"));
        std::fs::write(&p, text).unwrap();
        plain_files.push(p);
        let g = gz_dir.join(format!("HELIOS_A-7.{ext}.gz"));
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        z.write_all(text).unwrap();
        let bytes = z.finish().unwrap();
        // Access points past the first in each file (several in the debug log), so that
        // reads start from points other than the file's start.
        let (_, points) = gz::inflate_all(&bytes, Some(gz::SPACING)).unwrap();
        let least = if ext == "log" { 4 } else { 2 };
        assert!(
            points.len() >= least,
            "{ext}: {} access points",
            points.len()
        );
        std::fs::write(&g, bytes).unwrap();
        gz_files.push(g);
    }

    // What the library reads at each cycle: the log's messages, then the world model's
    // message line (the panel lists the player's files in that order).
    let mut ix = Indexer::new(FileKind::DebugLog);
    ix.push(&log);
    let ix = ix.finish();
    let mut wix = Indexer::new(FileKind::WorldModel);
    wix.push(&dcl);
    let wix = wix.finish();
    let cycles = [60, 1150, 700, 701, 702, 90, 1190, 333];
    let expected: Vec<Vec<String>> = cycles
        .iter()
        .map(|&cycle| {
            let time = Time { cycle, stopped: 0 };
            let mut out = Vec::new();
            for s in ix.at(time) {
                let (entries, _) = debuglog::decode(&log[s.start as usize..s.end as usize], 1);
                out.extend(entries.into_iter().filter_map(|e| match e.item {
                    Item::Message(t) => Some(t),
                    _ => None,
                }));
            }
            if let Some(s) = wix.at(time).last() {
                let (w, _) = worldmodel::decode(&dcl[s.start as usize..s.end as usize], 1);
                out.extend(w.last().and_then(|w| w.message.clone()));
            }
            out
        })
        .collect();
    assert!(expected.iter().all(|e| e.len() > 3), "{expected:?}");
    // Texts the words answer alone, ones they narrow to a few cycles to read, one with no
    // letters (every cycle read), one found nowhere: the cycles the library finds in the text.
    let needles = [
        "updateTheirDefenseLine",
        "WM: BALL rpos=(1",
        "ball_move=(-0.5",
        "0.000000, 0.000000",
        "no such text anywhere",
    ];
    let wanted: Vec<Vec<u32>> = needles
        .iter()
        .map(|needle| {
            let mut search = Search::new(&ix, needle);
            search.push(&log);
            let mut cycles: Vec<u32> = search.finish().iter().map(|t| t.cycle).collect();
            cycles.sort();
            cycles.dedup();
            cycles
        })
        .collect();
    assert!(wanted[0].len() > 100, "{}", wanted[0].len());
    assert!(wanted[1].len() > 10 && wanted[2].len() > 10 && wanted[3].len() > 10);
    assert!(wanted[4].is_empty());

    let (_relay, b) = Browser::on_bundled_replay().await;
    let game = fixtures::path(fixtures::FULL_JSON);
    let mut seen = Vec::new();
    for (what, files) in [("gzipped", &gz_files), ("plain", &plain_files)] {
        let report = open_with_agents(&b, &game, files).await;
        let mut lines = Vec::new();
        for &c in &cycles {
            lines.push(lines_at(&b, c).await);
        }
        if what == "gzipped" {
            let shot = b.screenshot("agents-gzipped").await;
            eprintln!("screenshot: {}", shot.display());
        }
        let mut found = Vec::new();
        for needle in needles {
            found.push(find(&b, needle).await);
        }
        seen.push((what, report, lines, found));
    }
    let (gz_seen, plain_seen) = (&seen[0], &seen[1]);
    assert_eq!(gz_seen.1, plain_seen.1, "the index figures");
    assert_eq!(
        gz_seen.1[1].as_str(),
        Some((log.len() + dcl.len()).to_string().as_str()),
        "bytes of text"
    );
    for (k, &c) in cycles.iter().enumerate() {
        assert_eq!(gz_seen.2[k], expected[k], "gzipped, cycle {c}");
        assert_eq!(plain_seen.2[k], expected[k], "plain, cycle {c}");
    }
    for (k, needle) in needles.iter().enumerate() {
        let want = &wanted[k];
        let label = format!(
            "\"{needle}\": {} cycle{}",
            want.len(),
            if want.len() == 1 { "" } else { "s" }
        );
        let listed: Vec<u32> = want.iter().take(200).copied().collect();
        for (what, _, _, found) in &seen {
            assert_eq!(found[k].0, label, "{what}: {needle:?}");
            assert_eq!(
                found[k].1, listed,
                "{what}: the cycles listed for {needle:?}"
            );
        }
    }
    b.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
