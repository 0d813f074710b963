//! Headless Chromium through chromedriver, for tests that use the page as a person would.
//!
//! fantoccini drives it: a small WebDriver client that builds in seconds (CDP clients such as
//! chromiumoxide compile a huge protocol crate) and speaks to Debian's chromedriver as is.

use fantoccini::{Client, ClientBuilder, Locator};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct Browser {
    pub client: Client,
    driver: Child,
    _profile: PathBuf,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Browser {
    pub async fn start() -> Browser {
        let chromedriver = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        let port = free_port();
        let driver = Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start {chromedriver} (run scripts/install-tools.sh --browser): {e}")
            });
        let profile =
            std::env::temp_dir().join(format!("pitchside-chromium-{}-{port}", std::process::id()));
        let caps = serde_json::json!({
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                    "--window-size=1280,1000",
                    format!("--user-data-dir={}", profile.display()),
                ]
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

    pub async fn close(mut self) {
        let _ = self.client.clone().close().await;
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self._profile);
    }
}
