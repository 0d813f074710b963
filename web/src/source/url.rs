//! Logs on the web: naming them, and explaining why one could not be downloaded.
//!
//! A browser tells a page almost nothing when a download fails: "Failed to fetch" covers a
//! server that does not answer, a wrong address, a plain-HTTP log asked for by an HTTPS page,
//! and a server that answers but does not let pages from elsewhere read the answer (CORS). So
//! the explanation lists what it can be, most likely first, and how to get the log anyway.

/// The last part of the URL's path, for the badge and messages ("game.rcg.gz").
pub fn file_name(url: &str) -> String {
    let no_fragment = url.split('#').next().unwrap_or(url);
    let path = no_fragment.split('?').next().unwrap_or(no_fragment);
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .filter(|s| !s.is_empty())
        .map(crate::link::percent_decode)
        .unwrap_or_else(|| url.to_owned())
}

/// `https` from `https://…`, lowercased; `None` for a relative URL.
fn scheme(url: &str) -> Option<String> {
    let (scheme, _) = url.split_once(':')?;
    let ok = !scheme.is_empty()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    ok.then(|| scheme.to_ascii_lowercase())
}

/// `host:port` of an absolute http(s) URL.
fn authority(url: &str) -> Option<&str> {
    let rest = url.split_once("://")?.1;
    Some(rest.split(['/', '?', '#']).next().unwrap_or(rest))
}

/// Why a download of `url`, asked for by the page at `page`, failed before any byte arrived.
pub fn explain_fetch_failure(page: &str, url: &str, reason: &str) -> String {
    let start = format!("Cannot download {url}");
    match scheme(url).as_deref() {
        Some("file") => {
            return format!(
                "{start}: browsers do not let a page read files from your disk by their address. \
                 Drop the file on the page or choose it with “Open file” instead."
            )
        }
        Some("http") if scheme(page).as_deref() == Some("https") => {
            return format!(
                "{start}: this page was loaded over HTTPS and the log's address is plain HTTP, \
                 which browsers block. Use an https:// address for the log, or download it and \
                 drop it on the page."
            )
        }
        Some("http" | "https") | None => {}
        Some(other) => {
            return format!("{start}: pitchside downloads logs over http and https, not {other}.")
        }
    }
    let same_site = scheme(url).is_none() || authority(url) == authority(page);
    let why = if same_site {
        "the server did not answer. Check the address and that the server is running.".to_owned()
    } else {
        let host = authority(url).unwrap_or(url);
        format!(
            "either {host} did not answer, or it does not allow pages from other sites to read \
             the file. A server allows it by sending the header “Access-Control-Allow-Origin” \
             (CORS); many file hosts do not. Download the log and drop it on the page instead, \
             or serve it from the same place as this page."
        )
    };
    let detail = if reason.is_empty() {
        String::new()
    } else {
        format!(" (The browser said: {reason}.)")
    };
    format!("{start}: {why}{detail}")
}

/// Why a download failed with HTTP status `code`.
pub fn explain_status(url: &str, code: u16, reason: &str) -> String {
    let what = match code {
        404 | 410 => "there is no file at this address",
        401 | 403 => "the server does not allow reading it",
        500..=599 => "the server failed",
        _ => "the server refused",
    };
    format!("Cannot download {url}: {what} ({reason}).")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_path() {
        assert_eq!(
            file_name("https://h.org/logs/a%20b.rcg.gz?x=1#t=5"),
            "a b.rcg.gz"
        );
        assert_eq!(file_name("/fixtures/short.rcg"), "short.rcg");
        assert_eq!(file_name("https://h.org/"), "h.org");
    }

    #[test]
    fn failures_are_explained_by_what_they_can_be() {
        let page = "https://monitor.example/m/final#t=3";
        let cors = explain_fetch_failure(page, "https://other.example/g.rcg", "Failed to fetch");
        assert!(
            cors.contains("other.example") && cors.contains("CORS"),
            "{cors}"
        );
        assert!(cors.contains("drop it on the page"), "{cors}");
        let mixed = explain_fetch_failure(page, "http://other.example/g.rcg", "");
        assert!(mixed.contains("plain HTTP"), "{mixed}");
        let same = explain_fetch_failure(page, "https://monitor.example/g.rcg", "");
        assert!(
            !same.contains("CORS") && same.contains("did not answer"),
            "{same}"
        );
        let relative = explain_fetch_failure(page, "logs/g.rcg", "");
        assert!(!relative.contains("CORS"), "{relative}");
        let disk = explain_fetch_failure(page, "file:///home/me/g.rcg", "");
        assert!(disk.contains("from your disk"), "{disk}");
        let ftp = explain_fetch_failure(page, "ftp://h/g.rcg", "");
        assert!(ftp.contains("not ftp"), "{ftp}");
        let missing = explain_status("https://h/g.rcg", 404, "HTTP 404 Not Found");
        assert!(missing.contains("no file at this address"), "{missing}");
    }
}
