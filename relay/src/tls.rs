//! HTTPS and WSS on the listen address, when the relay is given a certificate and its key
//! (`--tls-cert`, `--tls-key`).
//!
//! Why: browsers register the page's service worker (what makes it an installable web app
//! that opens logs offline) only on HTTPS or on localhost, so a relay that others reach by
//! name needs TLS. rustls with ring; both TLS 1.2 and 1.3.
//!
//! ALPN offers HTTP/1.1 only: a spectator's WebSocket is an HTTP/1.1 upgrade, and a browser
//! that had negotiated HTTP/2 would need extended CONNECT (RFC 8441) for it instead.
//!
//! Handshakes run in each connection's own task with a time limit ([`crate::connections`]).
//! Someone who types `http://` for the TLS port gets a redirect to the same URL with
//! `https://` rather than garbage.

use crate::connections::{Handshake, Tracked};
use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_rustls::rustls;
use tokio_rustls::server::TlsStream;
use tokio_rustls::TlsAcceptor;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// The first byte of every TLS connection: a handshake record.
const TLS_HANDSHAKE_RECORD: u8 = 0x16;

#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("--tls-cert {}: {reason}", path.display())]
    Cert { path: PathBuf, reason: String },
    #[error("--tls-key {}: {reason}", path.display())]
    Key { path: PathBuf, reason: String },
    #[error("the certificate {} and the key {} do not make a TLS configuration: {reason}", cert.display(), key.display())]
    Config {
        cert: PathBuf,
        key: PathBuf,
        reason: String,
    },
}

/// Reads a PEM certificate chain (the server's certificate first, as Let's Encrypt's
/// `fullchain.pem` has it) and its PEM private key (PKCS#8, PKCS#1 or SEC1).
pub fn server_config(cert: &Path, key: &Path) -> Result<Arc<rustls::ServerConfig>, TlsError> {
    let cert_error = |reason: String| TlsError::Cert {
        path: cert.to_owned(),
        reason,
    };
    let chain = CertificateDer::pem_file_iter(cert)
        .map_err(|e| cert_error(e.to_string()))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| cert_error(e.to_string()))?;
    if chain.is_empty() {
        return Err(cert_error("no PEM certificate in it".into()));
    }
    let private = PrivateKeyDer::from_pem_file(key).map_err(|e| TlsError::Key {
        path: key.to_owned(),
        reason: e.to_string(),
    })?;
    let config_error = |reason: String| TlsError::Config {
        cert: cert.to_owned(),
        key: key.to_owned(),
        reason,
    };
    // The provider is named here rather than installed process-wide: nothing else in the
    // process then has to agree on one.
    let mut config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| config_error(e.to_string()))?
    .with_no_client_auth()
    .with_single_cert(chain, private)
    .map_err(|e| config_error(e.to_string()))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// The TLS handshake of each connection, in the connection's own task (so a slow or silent
/// client never holds up the others) under the handshake time limit of
/// [`crate::connections`].
#[derive(Clone)]
pub struct Tls {
    acceptor: TlsAcceptor,
}

impl Tls {
    pub fn new(config: Arc<rustls::ServerConfig>) -> Tls {
        Tls {
            acceptor: TlsAcceptor::from(config),
        }
    }
}

impl Handshake for Tls {
    type Io = TlsStream<Tracked>;

    async fn handshake(&self, tcp: Tracked, peer: SocketAddr) -> Option<TlsStream<Tracked>> {
        match handshake(self.acceptor.clone(), tcp).await {
            Ok(tls) => tls,
            Err(e) => {
                tracing::debug!("TLS with {peer}: {e}");
                None
            }
        }
    }
}

/// The TLS connection, or `None` when the client spoke plain HTTP and was redirected.
async fn handshake(
    acceptor: TlsAcceptor,
    stream: Tracked,
) -> io::Result<Option<TlsStream<Tracked>>> {
    let mut first = [0u8; 1];
    if stream.peek(&mut first).await? == 0 {
        return Ok(None);
    }
    if first[0] != TLS_HANDSHAKE_RECORD {
        redirect_to_https(stream).await?;
        return Ok(None);
    }
    acceptor.accept(stream).await.map(Some)
}

/// Answers a plain HTTP request with a redirect to the same host and path over HTTPS.
async fn redirect_to_https(mut stream: Tracked) -> io::Result<()> {
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 16 << 10 {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let response = match https_location(&String::from_utf8_lossy(&head)) {
        Some(location) => format!(
            "HTTP/1.1 308 Permanent Redirect\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ),
        None => {
            let body = "this relay speaks HTTPS: use https://\n";
            format!(
                "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
        }
    };
    stream.write_all(response.as_bytes()).await?;
    stream.shutdown().await
}

/// `https://HOST/PATH` from a plain HTTP request head, when it has a request line and a
/// `Host` header that look sane (no spaces or control characters to smuggle into the reply).
fn https_location(head: &str) -> Option<String> {
    let mut lines = head.split("\r\n");
    let mut request = lines.next()?.split(' ');
    let (_method, target) = (request.next()?, request.next()?);
    let host = lines.find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim()
            .eq_ignore_ascii_case("host")
            .then(|| value.trim())
    })?;
    let sane = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_graphic());
    (sane(host) && sane(target) && target.starts_with('/'))
        .then(|| format!("https://{host}{target}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_is_sent_to_the_same_url_over_https() {
        assert_eq!(
            https_location("GET /m/final?log=x HTTP/1.1\r\nhost: relay.example:8443\r\n\r\n")
                .as_deref(),
            Some("https://relay.example:8443/m/final?log=x")
        );
        assert_eq!(https_location("GET / HTTP/1.1\r\n\r\n"), None);
        assert_eq!(
            https_location("GET / HTTP/1.1\r\nHost: a\r\nb\r\n\r\n").as_deref(),
            Some("https://a/")
        );
        assert_eq!(
            https_location("GET http://evil/ HTTP/1.1\r\nHost: a\r\n\r\n"),
            None
        );
    }

    #[test]
    fn missing_or_wrong_files_are_named() {
        let e = server_config(Path::new("/no/cert.pem"), Path::new("/no/key.pem"))
            .err()
            .unwrap();
        assert!(e.to_string().contains("--tls-cert /no/cert.pem"), "{e}");
        let dir = std::env::temp_dir().join(format!("pitchside-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cert = dir.join("cert.pem");
        let key = dir.join("key.pem");
        let made = rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
        let other = rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
        std::fs::write(&cert, made.cert.pem()).unwrap();
        // A key file holding a certificate has no key in it.
        std::fs::write(&key, made.cert.pem()).unwrap();
        let e = server_config(&cert, &key).err().unwrap();
        assert!(e.to_string().starts_with("--tls-key"), "{e}");
        // Another certificate's key does not go with this certificate.
        std::fs::write(&key, other.signing_key.serialize_pem()).unwrap();
        let e = server_config(&cert, &key).err().unwrap();
        assert!(matches!(e, TlsError::Config { .. }), "{e}");
        std::fs::write(&key, made.signing_key.serialize_pem()).unwrap();
        let config = server_config(&cert, &key).unwrap();
        assert_eq!(config.alpn_protocols, [b"http/1.1".to_vec()]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
