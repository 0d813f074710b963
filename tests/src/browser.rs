//! Headless Chromium through chromedriver, for tests that use the page as a person would.
//!
//! fantoccini drives it: a small WebDriver client that builds in seconds (CDP clients such as
//! chromiumoxide compile a huge protocol crate) and speaks to Debian's chromedriver as is.

use fantoccini::{Client, ClientBuilder, Locator};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct Browser {
    pub client: Client,
    driver: Child,
    _profile: PathBuf,
    /// Where the browser saves downloads (exports), without asking.
    pub downloads: PathBuf,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The values of every `--chrome-flag FLAG` in `args`: what the benches hand to Chromium on
/// top of its usual flags (e.g. `--js-flags=--no-wasm-tier-up`, or a way of drawing canvases),
/// to find out what a figure depends on.
pub fn chrome_flags(args: &[String]) -> Vec<String> {
    args.windows(2)
        .filter(|w| w[0] == "--chrome-flag")
        .map(|w| w[1].clone())
        .collect()
}

/// Player `id` (`l7`) in a scene summary ([`Browser::scene`]), failing with the scene when
/// he is not in it.
pub fn scene_player(s: &serde_json::Value, id: &str) -> serde_json::Value {
    s["players"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["id"] == id))
        .cloned()
        .unwrap_or_else(|| panic!("{id} on the field: {s}"))
}

/// How far a scene summary is zoomed in from the whole field fitting its canvas (the page's
/// own fit: the pitch and a 5.5 m margin), whatever size panels leave the canvas.
pub fn scene_zoom(s: &serde_json::Value) -> f64 {
    let f = |v: &serde_json::Value| v.as_f64().unwrap_or(f64::NAN);
    let (w, h) = (f(&s["view"]["width"]), f(&s["view"]["height"]));
    let fit = (w / (2.0 * (52.5 + 5.5))).min(h / (2.0 * (34.0 + 5.5)));
    f(&s["view"]["scale"]) / fit
}

/// A press at the first of `points`, a move to each next one taking `leg`, and a release:
/// a drag with `source` (a mouse, or a finger for touch gestures); with one point, a click.
fn drag<S>(source: S, points: &[(f64, f64)], leg: Duration) -> S
where
    S: fantoccini::actions::InputSource<Action = fantoccini::actions::PointerAction>,
{
    use fantoccini::actions::{PointerAction, MOUSE_BUTTON_LEFT};
    let Some(&(x, y)) = points.first() else {
        return source;
    };
    let mut a = source
        .then(PointerAction::MoveTo {
            duration: None,
            x: x.round(),
            y: y.round(),
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        });
    for &(x, y) in &points[1..] {
        a = a.then(PointerAction::MoveTo {
            duration: Some(leg),
            x: x.round(),
            y: y.round(),
        });
    }
    a.then(PointerAction::Up {
        button: MOUSE_BUTTON_LEFT,
    })
}

/// A mouse drag through `points` (viewport CSS pixels), `leg` per move.
pub fn mouse_drag(points: &[(f64, f64)], leg: Duration) -> fantoccini::actions::MouseActions {
    drag(
        fantoccini::actions::MouseActions::new("mouse".into()),
        points,
        leg,
    )
}

/// A finger's drag through `points`, `leg` per move; fingers with other `id`s at once make
/// a pinch.
pub fn finger_drag(
    id: &str,
    points: &[(f64, f64)],
    leg: Duration,
) -> fantoccini::actions::TouchActions {
    drag(
        fantoccini::actions::TouchActions::new(id.into()),
        points,
        leg,
    )
}

impl Browser {
    pub async fn start() -> Browser {
        Browser::start_with_args(&[]).await
    }

    /// A browser with more Chromium switches (host mappings, a trusted test certificate).
    pub async fn start_with_args(extra: &[String]) -> Browser {
        let chromedriver = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        let port = free_port();
        let driver = Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            // A group of its own, with the Chromium it starts: a test that panics before
            // `close` still takes all of it down (see `Drop`).
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start {chromedriver} (run scripts/install-tools.sh --browser): {e}")
            });
        let profile =
            std::env::temp_dir().join(format!("pitchside-chromium-{}-{port}", std::process::id()));
        let downloads = profile.join("downloads");
        let _ = std::fs::create_dir_all(&downloads);
        let mut args: Vec<String> = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-dev-shm-usage",
            "--window-size=1280,1000",
        ]
        .map(String::from)
        .to_vec();
        args.push(format!("--user-data-dir={}", profile.display()));
        args.extend_from_slice(extra);
        let caps = serde_json::json!({
            "goog:chromeOptions": {
                "binary": chromium,
                "prefs": {
                    "download.default_directory": downloads.display().to_string(),
                    "download.prompt_for_download": false,
                },
                "args": args,
            }
        });
        let caps = match caps {
            serde_json::Value::Object(m) => m,
            _ => unreachable!(),
        };
        let mut last_err = None;
        for _ in 0..50 {
            match ClientBuilder::native()
                .capabilities(caps.clone())
                .connect(&format!("http://127.0.0.1:{port}"))
                .await
            {
                Ok(client) => {
                    return Browser {
                        client,
                        driver,
                        _profile: profile,
                        downloads,
                    }
                }
                Err(e) => {
                    last_err = Some(e);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
        panic!("chromedriver did not accept a session: {last_err:?}");
    }

    /// The text of an element, or "" if it is not there.
    pub async fn text(&self, css: &str) -> String {
        match self.client.find(Locator::Css(css)).await {
            Ok(e) => e.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    /// A relay replaying the log bundled with it
    /// ([`start_bundled_replay`](crate::relay_harness::start_bundled_replay)) and a browser on
    /// its page, the replay under way: where every file-opening test starts.
    pub async fn on_bundled_replay() -> (crate::relay_harness::RunningRelay, Browser) {
        let relay = crate::relay_harness::start_bundled_replay().await;
        let b = Browser::start().await;
        b.open_replay(relay.addr).await;
        (relay, b)
    }

    /// Opens the page of a relay that replays a log (`relay_harness::start_bundled_replay`)
    /// and waits until it says so: the page every file-opening test starts from.
    pub async fn open_replay(&self, relay: std::net::SocketAddr) {
        self.open_home(relay).await;
        self.wait_text("#source", "the replay badge", |t| t.starts_with("Replay"))
            .await;
    }

    /// Opens the page a server (a relay, its edge, a proxy before it) serves at its root.
    pub async fn open_home(&self, server: std::net::SocketAddr) {
        self.goto(&format!("http://{server}/")).await;
    }

    /// Opens `url` in the tab, as typing it in the address bar.
    pub async fn goto(&self, url: &str) {
        self.client
            .goto(url)
            .await
            .unwrap_or_else(|e| panic!("opening {url}: {e}"));
    }

    /// Chooses files in the page's file picker (`#file-input`) as a user would: `files` is
    /// one path, or several on lines of their own.
    pub async fn choose(&self, files: &str) {
        self.send_keys_to("#file-input", files).await;
    }

    /// Types `keys` into the element `css` (a `Key` value or plain characters).
    async fn send_keys_to(&self, css: &str, keys: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css} is not on the page: {e}"))
            .send_keys(keys)
            .await
            .unwrap_or_else(|e| panic!("keys {keys:?} do not reach {css}: {e}"));
    }

    /// Waits until `pred` holds for the text of `css`, failing with what was seen.
    pub async fn wait_text(&self, css: &str, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            let t = self.text(css).await;
            if pred(&t) {
                return t;
            }
            if std::time::Instant::now() > deadline {
                let _ = self
                    .screenshot(&format!("failed-{}", css.trim_start_matches('#')))
                    .await;
                panic!("{css}: waited 30 s for {what}, last text {t:?}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Clicks at a point of the viewport (CSS pixels), as a mouse would: for the canvas, whose
    /// players have no element to click.
    pub async fn click_at(&self, x: f64, y: f64) {
        self.client
            .perform_actions(mouse_drag(&[(x, y)], Duration::ZERO))
            .await
            .unwrap_or_else(|e| panic!("click at ({x}, {y}): {e}"));
    }

    /// Runs `js` (a function body: `return …`) in the page and returns its result.
    pub async fn eval(&self, js: &str) -> serde_json::Value {
        self.client
            .execute(js, vec![])
            .await
            .unwrap_or_else(|e| panic!("script failed: {js}: {e}"))
    }

    /// Waits until `pred` holds for the result of `js`, failing with what was seen.
    pub async fn wait_js(
        &self,
        js: &str,
        what: &str,
        pred: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            let v = self.client.execute(js, vec![]).await.unwrap_or_default();
            if pred(&v) {
                return v;
            }
            if std::time::Instant::now() > deadline {
                let _ = self.screenshot("failed-wait").await;
                panic!("waited 30 s for {what} ({js}), last {v}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until the page's service worker controls it (127.0.0.1 and HTTPS are secure
    /// contexts): from then on the page opens offline.
    pub async fn wait_service_worker(&self) {
        self.wait_js(
            "return !!(navigator.serviceWorker && navigator.serviceWorker.controller)",
            "the service worker to control the page",
            |v| v.as_bool() == Some(true),
        )
        .await;
    }

    /// The summary of the scene the field drew last, read through the page's test hook
    /// `window.__pitchside_scene()` (which hands it over as JSON text), or `Null` while none
    /// is drawn.
    pub async fn drawn_scene(&self) -> serde_json::Value {
        match self
            .eval("return window.__pitchside_scene && window.__pitchside_scene()")
            .await
        {
            serde_json::Value::String(s) => serde_json::from_str(&s).expect("the scene's JSON"),
            _ => serde_json::Value::Null,
        }
    }

    /// The summary of the last scene drawn; fails when none is drawn yet.
    pub async fn scene(&self) -> serde_json::Value {
        let s = self.drawn_scene().await;
        assert!(!s.is_null(), "no scene yet");
        s
    }

    /// Waits until a scene is drawn whose summary satisfies `pred`, failing with the last
    /// one seen.
    pub async fn wait_scene(
        &self,
        what: &str,
        pred: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            let s = self.drawn_scene().await;
            if !s.is_null() && pred(&s) {
                return s;
            }
            if std::time::Instant::now() > deadline {
                let _ = self.screenshot("failed-scene").await;
                panic!("waited 30 s for {what}; last scene: {s}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The field's canvas's top-left corner in the viewport (CSS pixels): where the scene's
    /// `px`/`py` count from.
    pub async fn canvas_origin(&self) -> (f64, f64) {
        let v = self
            .eval("const r = document.getElementById('field').getBoundingClientRect(); return [r.left, r.top];")
            .await;
        (
            v[0].as_f64().expect("the canvas's left"),
            v[1].as_f64().expect("the canvas's top"),
        )
    }

    /// Clicks player `id` (`l7`) where the scene `s` drew him.
    pub async fn click_player(&self, s: &serde_json::Value, id: &str) {
        let p = scene_player(s, id);
        let (ox, oy) = self.canvas_origin().await;
        self.click_at(
            ox + p["px"].as_f64().expect("his x on the canvas"),
            oy + p["py"].as_f64().expect("his y on the canvas"),
        )
        .await;
    }

    /// Presses keys on the page, as a user would (`Key` values or plain characters).
    pub async fn keys(&self, keys: &str) {
        self.send_keys_to("body", keys).await;
    }

    /// Types `cycle` into the cycle box as a user does (`t`, the cycle, Enter), which pauses
    /// playback and goes there.
    pub async fn type_cycle(&self, cycle: impl std::fmt::Display) {
        self.keys("t").await;
        self.client
            .active_element()
            .await
            .expect("the cycle box has the focus")
            .send_keys(&format!("{cycle}{}", fantoccini::key::Key::Enter))
            .await
            .expect("the cycle typed in");
    }

    /// Clicks the element `css`.
    pub async fn click(&self, css: &str) {
        self.click_found(Locator::Css(css), css).await;
    }

    /// Clicks the element an XPath finds (a button by its words: `//button[text()='…']`).
    pub async fn click_xpath(&self, xpath: &str) {
        self.click_found(Locator::XPath(xpath), xpath).await;
    }

    /// A page that draws a list again while it is open (a live tournament's fixtures) can do
    /// so between finding an element and clicking it, which leaves the element found stale,
    /// or take it away for a moment (a looped replay between its end and its new kick-off);
    /// a person's click lands on what is there then, so the element is looked for again for
    /// up to three seconds.
    async fn click_found(&self, locator: Locator<'_>, name: &str) {
        let deadline = std::time::Instant::now() + Duration::from_secs(3);
        loop {
            let error = match self.client.find(locator).await {
                Ok(element) => match element.click().await {
                    Ok(_) => return,
                    Err(e) if e.to_string().contains("stale element") => e.to_string(),
                    Err(e) => panic!("cannot click {name}: {e}"),
                },
                Err(e) => format!("{name} is not on the page: {e}"),
            };
            if std::time::Instant::now() > deadline {
                let _ = self.screenshot("failed-click").await;
                panic!("{error}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The page's address now.
    pub async fn url(&self) -> String {
        self.client
            .current_url()
            .await
            .map(|u| u.to_string())
            .unwrap_or_default()
    }

    /// Waits for a finished download whose name ends with `suffix`; returns its path.
    ///
    /// Chromium creates the final name empty as soon as a download starts and writes into a
    /// `.crdownload` beside it, so a file only counts once no partial file is left and its
    /// size is above zero and the same at two looks in a row.
    pub async fn wait_download(&self, suffix: &str) -> PathBuf {
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        let mut last: Option<(PathBuf, u64)> = None;
        loop {
            let mut found = None;
            let mut partial = false;
            if let Ok(dir) = std::fs::read_dir(&self.downloads) {
                for e in dir.flatten() {
                    let p = e.path();
                    let name = p.to_string_lossy();
                    if name.ends_with(".crdownload") {
                        partial = true;
                    } else if name.ends_with(suffix) {
                        let len = e.metadata().map(|m| m.len()).unwrap_or(0);
                        found = Some((p, len));
                    }
                }
            }
            match found {
                Some((p, len)) if !partial && len > 0 => {
                    if last.as_ref() == Some(&(p.clone(), len)) {
                        return p;
                    }
                    last = Some((p, len));
                }
                _ => last = None,
            }
            if std::time::Instant::now() > deadline {
                panic!(
                    "no finished download ending in {suffix} in {}",
                    self.downloads.display()
                );
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Saves a screenshot under `tests/artifacts/NAME.png` and returns its path.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("artifacts");
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join(format!("{name}.png"));
        // The file input scrolls the page when a file is sent to it; show the whole page.
        let _ = self.client.execute("window.scrollTo(0, 0)", vec![]).await;
        let png = self.client.screenshot().await.expect("screenshot");
        std::fs::write(&path, png).expect("write screenshot");
        path
    }

    /// Audits the page with axe-core (installed by `scripts/install-tools.sh --browser`) and
    /// returns its serious and critical violations, one line each: rule, impact, what it
    /// says and the first elements it found. WebDriver runs the script outside the page's
    /// CSP, so the audit needs no exception in the relay's policy.
    pub async fn axe_violations(&self) -> Vec<String> {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../.tools/node_modules/axe-core/axe.min.js");
        let source = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "cannot read {} (run scripts/install-tools.sh --browser): {e}",
                path.display()
            )
        });
        self.client
            .execute(&source, vec![])
            .await
            .expect("inject axe-core");
        let result = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 axe.run(document, { resultTypes: ['violations'] })
                   .then(r => done(r.violations
                     .filter(v => v.impact === 'serious' || v.impact === 'critical')
                     .map(v => `${v.id} (${v.impact}): ${v.help}: ` +
                       v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))))
                   .catch(e => done([`axe failed: ${e}`]));",
                vec![],
            )
            .await
            .expect("run axe-core");
        result
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|v| v.as_str().unwrap_or_default().to_owned())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Runs a Chrome DevTools Protocol command through chromedriver (`goog/cdp/execute`) and
    /// returns its result: what WebDriver itself cannot say, such as the accessibility tree.
    pub async fn cdp(&self, cmd: &str, params: serde_json::Value) -> serde_json::Value {
        self.client
            .issue_cmd(Cdp {
                cmd: cmd.to_owned(),
                params,
            })
            .await
            .unwrap_or_else(|e| panic!("CDP {cmd}: {e}"))
    }

    /// The accessibility tree as a screen reader gets it, one line per node that has a role
    /// or a name: `role "name"`, indented by depth.
    pub async fn accessibility_tree(&self) -> String {
        let tree = self
            .cdp("Accessibility.getFullAXTree", serde_json::json!({}))
            .await;
        let nodes = tree["nodes"].as_array().cloned().unwrap_or_default();
        let by_id: std::collections::HashMap<&str, &serde_json::Value> = nodes
            .iter()
            .filter_map(|n| Some((n["nodeId"].as_str()?, n)))
            .collect();
        fn walk(
            id: &str,
            depth: usize,
            by_id: &std::collections::HashMap<&str, &serde_json::Value>,
            out: &mut String,
        ) {
            let Some(n) = by_id.get(id) else { return };
            let role = n["role"]["value"].as_str().unwrap_or("");
            let name = n["name"]["value"].as_str().unwrap_or("");
            let ignored = n["ignored"].as_bool().unwrap_or(false);
            let shown = !ignored && !matches!(role, "" | "none" | "generic" | "InlineTextBox");
            if shown {
                let live = n["properties"]
                    .as_array()
                    .and_then(|p| p.iter().find(|p| p["name"] == "live"))
                    .and_then(|p| p["value"]["value"].as_str())
                    .map(|v| format!(" [live: {v}]"))
                    .unwrap_or_default();
                out.push_str(&format!("{}{role} {name:?}{live}\n", "  ".repeat(depth)));
            }
            for c in n["childIds"].as_array().into_iter().flatten() {
                if let Some(c) = c.as_str() {
                    walk(c, depth + usize::from(shown), by_id, out);
                }
            }
        }
        let mut out = String::new();
        if let Some(root) = nodes.first().and_then(|n| n["nodeId"].as_str()) {
            walk(root, 0, &by_id, &mut out);
        }
        out
    }

    pub async fn close(mut self) {
        let _ = self.client.clone().close().await;
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self._profile);
    }
}

impl Drop for Browser {
    /// After `close` this finds nothing left; after a panic it ends chromedriver and every
    /// Chromium process of this browser (its process group), which would otherwise outlive
    /// the test.
    fn drop(&mut self) {
        if let Ok(None) = self.driver.try_wait() {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", self.driver.id())])
                .status();
            let _ = self.driver.wait();
            let _ = std::fs::remove_dir_all(&self._profile);
        }
    }
}

/// `POST /session/ID/goog/cdp/execute`: chromedriver's door to the DevTools Protocol.
#[derive(Debug)]
struct Cdp {
    cmd: String,
    params: serde_json::Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = serde_json::json!({"cmd": self.cmd, "params": self.params});
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Proportional set size of every Chromium process, in bytes.
pub fn chromium_pss() -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut total = 0;
    for e in dir.flatten() {
        let p = e.path();
        let name = std::fs::read_to_string(p.join("comm")).unwrap_or_default();
        if !name.starts_with("chrom") || name.starts_with("chromedriver") {
            continue;
        }
        let rollup = std::fs::read_to_string(p.join("smaps_rollup")).unwrap_or_default();
        total += rollup
            .lines()
            .find(|l| l.starts_with("Pss:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
            * 1024;
    }
    total
}

/// The peak of [`chromium_pss`] while it runs: sampled every 100 ms from when it starts to
/// when it is stopped.
pub struct PssPeak {
    peak: std::sync::Arc<std::sync::atomic::AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl PssPeak {
    pub fn start() -> PssPeak {
        let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(chromium_pss()));
        let p = peak.clone();
        let task = tokio::spawn(async move {
            loop {
                p.fetch_max(chromium_pss(), std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        });
        PssPeak { peak, task }
    }

    /// Stops sampling; the highest figure seen, in bytes.
    pub fn stop(self) -> u64 {
        self.task.abort();
        self.peak.load(std::sync::atomic::Ordering::Relaxed)
    }
}
