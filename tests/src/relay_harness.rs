//! Runs the relay in-process on a free port.

use relay::config::{MatchSpec, Settings};
use relay::Source;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

pub struct RunningRelay {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

/// The web app built by `trunk build` (scripts/test.sh builds it before the tests), or the
/// one `PITCHSIDE_BENCH_DIST` names: a bench compares two builds of the page run by run.
pub fn dist() -> PathBuf {
    std::env::var_os("PITCHSIDE_BENCH_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../dist"))
}

/// The real log `rel` (a fixture) replayed as if live, one cycle every `step`, as match `name`.
pub fn replay(rel: &str, name: &str, step: Duration) -> MatchSpec {
    let script = relay::replay::Script::from_log("x.rcg", &crate::fixtures::read(rel))
        .unwrap_or_else(|e| panic!("the fixture {rel}: {e}"));
    let mut spec = Source::Replay { script, step }.into_spec();
    spec.name = name.into();
    spec
}

/// `script` played once (not looped) as match `name`, a frame every `step`: the match is
/// still there, ended, when the test asks about it.
pub fn replay_once(name: &str, script: relay::replay::Script, step: Duration) -> MatchSpec {
    MatchSpec {
        name: name.into(),
        source: relay::config::SourceSpec::Replay(relay::replay::ReplayConfig {
            script: std::sync::Arc::new(script),
            step,
            looping: false,
        }),
    }
}

/// Settings that replay `log` once as match `name`, a frame every `step`, recording it into
/// a fresh scratch folder (`fixtures::scratch(scratch)`); and that folder.
pub fn recorded_replay(
    name: &str,
    log: &[u8],
    step: Duration,
    scratch: &str,
) -> (Settings, PathBuf) {
    let script = relay::replay::Script::from_log(&format!("{name}.rcg"), log)
        .unwrap_or_else(|e| panic!("the log of {name}: {e}"));
    let dir = crate::fixtures::scratch(scratch);
    let mut settings = Settings::new(vec![replay_once(name, script, step)]);
    settings.record = Some(dir.clone());
    (settings, dir)
}

/// The log bundled with the relay, played as match `name` with a frame every `step`.
pub fn bundled(name: &str, step: Duration) -> MatchSpec {
    let script =
        relay::replay::Script::from_log(relay::replay::BUNDLED_NAME, relay::replay::BUNDLED_LOG)
            .expect("the bundled log");
    let mut spec = Source::Replay { script, step }.into_spec();
    spec.name = name.into();
    spec
}

/// Fails, saying what to do, when the web app the browser tests open is not built.
pub fn need_web_app() {
    let index = dist().join("index.html");
    assert!(
        index.is_file(),
        "{} is missing: build the web app first (scripts/build-web.sh)",
        index.display()
    );
}

/// What the relay wrote into `dir` with the extension `ext` (its recordings, `rcg`; the
/// agents' folders beside them, `agents`), sorted by name; none when there is no `dir`.
/// The archive's index beside them has another.
pub fn written(dir: &std::path::Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == ext))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// One match with the default settings.
/// A relay replaying the log bundled with it, slowly (a frame every 500 ms), serving the built
/// web app: what the browser tests open a page on before they open files in it. Fails with
/// what to do when the web app is not built.
pub async fn start_bundled_replay() -> RunningRelay {
    start_bundled_replay_every(std::time::Duration::from_millis(500)).await
}

/// [`start_bundled_replay`] with a frame every `step` (the benches step slower, so the page
/// they measure is busy with what they measure).
pub async fn start_bundled_replay_every(step: std::time::Duration) -> RunningRelay {
    need_web_app();
    let script =
        relay::replay::Script::from_log(relay::replay::BUNDLED_NAME, relay::replay::BUNDLED_LOG)
            .expect("the bundled log");
    start(Source::Replay { script, step }).await
}

/// A relay following the (fake) rcssserver at `server`, trying again every `retry` while it
/// does not answer.
pub async fn start_following(server: SocketAddr, retry: Duration) -> RunningRelay {
    let mut mc = relay::monitor::MonitorConfig::new(server);
    mc.retry = retry;
    start(Source::Server(mc)).await
}

/// A relay with two matches, the short v6 game as `field-a` and the short v2 game as
/// `field-b`, a frame every `step`, serving the built web app: with two matches its `/` is
/// the lobby (with one, the lobby opens it at once).
pub async fn start_two_short_games(step: Duration) -> RunningRelay {
    start_lobby(vec![
        replay(crate::fixtures::SHORT_V6, "field-a", step),
        replay(crate::fixtures::SHORT_V2, "field-b", step),
    ])
    .await
}

/// A relay playing the log bundled with it as two matches, `field-a` and `field-b`, a frame
/// every `step`, serving the built web app: a lobby at `/` and each match its own page.
pub async fn start_two_bundled(step: Duration) -> RunningRelay {
    start_lobby(vec![bundled("field-a", step), bundled("field-b", step)]).await
}

/// `matches`, with the web app, which must be built.
async fn start_lobby(matches: Vec<MatchSpec>) -> RunningRelay {
    need_web_app();
    start_with(Settings::new(matches)).await
}

/// A relay with no match and an archive holding only the fixture `log`, as
/// `/archive/files/0/NAME`, in a fresh scratch folder `scratch`.
pub async fn start_archive_of(log: &str, name: &str, scratch: &str) -> RunningRelay {
    let archive = crate::fixtures::scratch(scratch);
    std::fs::copy(crate::fixtures::path(log), archive.join(name)).expect("copy the log");
    let mut settings = Settings::new(Vec::new());
    settings.archive = vec![archive];
    start_with(settings).await
}

/// A relay with an archive, the folder `archive`, and one match, `log` replayed as `field-a`
/// a frame every 100 ms.
pub async fn start_with_archive(log: &str, archive: PathBuf) -> RunningRelay {
    let mut settings = Settings::new(vec![replay(log, "field-a", Duration::from_millis(100))]);
    settings.archive = vec![archive];
    start_with(settings).await
}

pub async fn start(source: Source) -> RunningRelay {
    start_with(Settings::new(vec![source.into_spec()])).await
}

/// Any settings; `dist` is set to the built web app and `listen` is ignored (port 0).
pub async fn start_with(settings: Settings) -> RunningRelay {
    start_at("127.0.0.1:0".parse().expect("address"), settings).await
}

/// [`start_with`] on `addr`: a relay coming back where one stopped (its pages reconnect).
pub async fn start_at(addr: SocketAddr, mut settings: Settings) -> RunningRelay {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .expect("bind relay");
    let addr = listener.local_addr().expect("relay address");
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    settings.dist = dist();
    let task = tokio::spawn(async move {
        let _ = relay::run(listener, settings, async {
            let _ = rx.await;
        })
        .await;
    });
    RunningRelay {
        addr,
        stop: Some(tx),
        task,
    }
}

impl RunningRelay {
    /// Shuts the relay down as Ctrl-C does, and waits (at most 5 s) until it has finished.
    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        let task = &mut self.task;
        tokio::time::timeout(std::time::Duration::from_secs(5), task)
            .await
            .expect("the relay stops within 5 s")
            .expect("the relay task ends cleanly");
    }
}

impl Drop for RunningRelay {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        self.task.abort();
    }
}
