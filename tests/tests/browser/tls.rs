//! The relay over HTTPS (`--tls-cert`, `--tls-key`) in the real page: a name that is not
//! localhost (`relay.test`, mapped to 127.0.0.1 inside Chromium) is a secure context only
//! over TLS, and there the page follows its match over WSS and its service worker takes it
//! (what makes it an offline web app). The certificate is made here, self-signed, and
//! Chromium trusts exactly its key.
//!
//! Needs `dist/` built (scripts/test.sh builds it).

use pitchside_tests::browser::Browser;
use pitchside_tests::relay_harness;
use relay::Source;
use std::time::Duration;

const HOST: &str = "relay.test";

/// Standard base64 with padding (what Chromium's SPKI list wants).
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn https_page_follows_its_match_over_wss_and_installs_its_service_worker() {
    let index = relay_harness::dist().join("index.html");
    assert!(
        index.is_file(),
        "{} is missing: build the web app first (scripts/build-web.sh)",
        index.display()
    );
    use rcgen::PublicKeyData;
    let made = rcgen::generate_simple_self_signed(vec![HOST.into()]).unwrap();
    let dir = std::env::temp_dir().join(format!("pitchside-browser-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    std::fs::write(&cert, made.cert.pem()).unwrap();
    std::fs::write(&key, made.signing_key.serialize_pem()).unwrap();
    let spki = ring::digest::digest(
        &ring::digest::SHA256,
        &made.signing_key.subject_public_key_info(),
    );

    let script =
        relay::replay::Script::from_log(relay::replay::BUNDLED_NAME, relay::replay::BUNDLED_LOG)
            .unwrap();
    let mut spec = Source::Replay {
        script,
        step: Duration::from_millis(50),
    }
    .into_spec();
    spec.name = "field-a".into();
    let mut settings = relay::config::Settings::new(vec![spec]);
    settings.tls = Some(relay::tls::server_config(&cert, &key).unwrap());
    let relay = relay_harness::start_with(settings).await;
    let port = relay.addr.port();

    let b = Browser::start_with_args(&[
        format!("--host-resolver-rules=MAP {HOST} 127.0.0.1"),
        format!(
            "--ignore-certificate-errors-spki-list={}",
            base64(spki.as_ref())
        ),
    ])
    .await;
    b.goto(&format!("https://{HOST}:{port}/m/field-a")).await;
    assert_eq!(
        b.eval("return [location.protocol, window.isSecureContext]")
            .await,
        serde_json::json!(["https:", true])
    );
    // The live feed, over wss://: the cycle moves on.
    let first: u32 = b
        .wait_text("#cycle", "a cycle of the live match", |t| {
            t.parse::<u32>().is_ok_and(|c| c > 0)
        })
        .await
        .parse()
        .unwrap();
    b.wait_text("#cycle", "the match to go on", |t| {
        t.parse::<u32>().is_ok_and(|c| c > first + 5)
    })
    .await;
    b.wait_text("#live-badge", "following live", |t| t == "LIVE")
        .await;
    b.wait_service_worker().await;
    b.screenshot("https-live").await;

    // The same name over plain HTTP: redirected to HTTPS by the relay.
    b.goto(&format!("http://{HOST}:{port}/m/field-a")).await;
    b.wait_js("return location.protocol", "a redirect to https", |v| {
        v.as_str() == Some("https:")
    })
    .await;
    b.close().await;
    relay.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn base64_matches_the_standard_alphabet_and_padding() {
    assert_eq!(base64(b""), "");
    assert_eq!(base64(b"f"), "Zg==");
    assert_eq!(base64(b"fo"), "Zm8=");
    assert_eq!(base64(b"foo"), "Zm9v");
    assert_eq!(base64(b"foob"), "Zm9vYg==");
    assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
}
