//! The page's URL scheme, a contract shared by the relay (which writes operator links) and the
//! page (which reads and rewrites them); book, "Links". Pure string handling, so it is
//! tested natively and fuzzed.
//!
//! - `?log=URL` names a log on the web for the page to open; `&agents=URL` a list of the
//!   agents' files to open beside it.
//! - The fragment holds `key=value` pairs joined by `&`. The page owns `t=CYCLE` (the cycle on
//!   screen); other keys are kept exactly as written, except `control=` (the operator's
//!   secret) and `team=` (a team's key to its agents' debug stream), which are never written
//!   back to the address or put in a shared link.

/// The fragment key this page writes: the cycle on screen.
pub const CYCLE_KEY: &str = "t";
/// The operator's key: read, never written back, never copied.
pub const CONTROL_KEY: &str = "control";
/// A team's key to its agents' debug stream: as secret as the operator's, never shared.
pub const TEAM_KEY: &str = "team";
/// The query key naming a log to open.
pub const LOG_KEY: &str = "log";
/// The query key naming a list of the agents' files to open beside the `log=` match (one
/// URL per line, relative to the list's own).
pub const AGENTS_KEY: &str = "agents";
/// The query key asking for the embed view (field and score only), on any page address.
pub const EMBED_KEY: &str = "embed";

/// The query key asking for the broadcast view (book, "Broadcast"): `?log=…&broadcast`.
pub const BROADCAST_KEY: &str = "broadcast";
/// The query key choosing the captions' language of the broadcast view (`lang=de`).
pub const LANG_KEY: &str = "lang";
/// The query key holding an archive query whose logs the page plays one after another.
pub const PLAYLIST_KEY: &str = "playlist";
/// The query key choosing the field's picture: `view=2d` (the default of the ordinary page)
/// or `view=3d` (book, "The 3D view").
pub const VIEW_KEY: &str = "view";
/// The query key choosing the 3D view's camera: `cam=broadcast|top|goal|follow|free`.
pub const CAMERA_KEY: &str = "cam";

/// True for the broadcast view, made for a streaming program's browser source:
/// `/m/NAME/broadcast`, or any address whose query has the key `broadcast`.
pub fn is_broadcast(path: &str, query: &str) -> bool {
    let query = query.strip_prefix('?').unwrap_or(query);
    let view = path
        .strip_prefix("/m/")
        .map(|rest| rest.trim_end_matches('/').split('/').collect::<Vec<_>>());
    matches!(view.as_deref(), Some([name, "broadcast"]) if !name.is_empty())
        || query
            .split('&')
            .any(|p| p.split('=').next() == Some(BROADCAST_KEY))
}

/// True for the embed view: `/m/NAME/embed`, or any address whose query has the key
/// `embed` (`?log=…&embed`, `?embed=1`). The relay lets other sites frame only this view.
pub fn is_embed(path: &str, query: &str) -> bool {
    let query = query.strip_prefix('?').unwrap_or(query);
    let view = path
        .strip_prefix("/m/")
        .map(|rest| rest.trim_end_matches('/').split('/').collect::<Vec<_>>());
    matches!(view.as_deref(), Some([name, "embed"]) if !name.is_empty())
        || query
            .split('&')
            .any(|p| p.split('=').next() == Some(EMBED_KEY))
}

/// A fragment as ordered `key=value` pairs, each kept as written (still percent-encoded), so
/// that keys this page does not know about survive a rewrite unchanged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fragment {
    pairs: Vec<(String, String)>,
}

impl Fragment {
    /// Reads `#a=1&b=2` (with or without the `#`). A part without `=` is kept as a key with
    /// an empty value and written back without `=`.
    pub fn parse(hash: &str) -> Fragment {
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        let pairs = hash
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| match p.split_once('=') {
                Some((k, v)) => (k.to_owned(), v.to_owned()),
                None => (p.to_owned(), String::new()),
            })
            .collect();
        Fragment { pairs }
    }

    /// The raw value of `key`, if present (the first one).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets `key` (in place if present, else at the end), dropping repeats of it.
    pub fn set(&mut self, key: &str, value: &str) {
        match self.pairs.iter().position(|(k, _)| k == key) {
            Some(i) => {
                self.pairs[i].1 = value.to_owned();
                let mut seen = 0;
                self.pairs.retain(|(k, _)| {
                    if k == key {
                        seen += 1;
                        seen == 1
                    } else {
                        true
                    }
                });
            }
            None => self.pairs.push((key.to_owned(), value.to_owned())),
        }
    }

    pub fn remove(&mut self, key: &str) {
        self.pairs.retain(|(k, _)| k != key);
    }

    /// The cycle in `t=`, if it is a number.
    pub fn cycle(&self) -> Option<u32> {
        self.get(CYCLE_KEY)?.trim().parse().ok()
    }

    /// The fragment as it may be written to the address or shared: without `control=`. Empty
    /// when nothing is left, else starting with `#`.
    pub fn to_shareable(&self) -> String {
        let body = self
            .pairs
            .iter()
            .filter(|(k, _)| k != CONTROL_KEY && k != TEAM_KEY)
            .map(|(k, v)| {
                if v.is_empty() {
                    k.clone()
                } else {
                    format!("{k}={v}")
                }
            })
            .collect::<Vec<_>>()
            .join("&");
        if body.is_empty() {
            body
        } else {
            format!("#{body}")
        }
    }
}

/// The value of `key` in a query string (`?a=1&log=…`), percent-decoded.
pub fn query_value(search: &str, key: &str) -> Option<String> {
    let search = search.strip_prefix('?').unwrap_or(search);
    search
        .split('&')
        .filter_map(|p| p.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| percent_decode(v))
}

/// A query string with `key` set to `value` (percent-encoded) or removed (`None`), other keys
/// kept as written. Empty, or starting with `?`.
pub fn with_query_value(search: &str, key: &str, value: Option<&str>) -> String {
    let search = search.strip_prefix('?').unwrap_or(search);
    let mut parts: Vec<String> = search
        .split('&')
        .filter(|p| !p.is_empty() && p.split('=').next() != Some(key))
        .map(str::to_owned)
        .collect();
    if let Some(v) = value {
        parts.push(format!("{key}={}", percent_encode_query(v)));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

/// Decodes `%XX` escapes; a malformed escape is kept as written. `+` stays `+`: log URLs may
/// hold it literally.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Escapes what would end or confuse a query value (`&`, `#`, `%`, `+`, space, non-ASCII);
/// `:` and `/` stay readable, as they are legal in a query.
pub fn percent_encode_query(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'~'
            | b':'
            | b'/'
            | b'@'
            | b'!'
            | b'$'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b','
            | b';'
            | b'=' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragment_keeps_other_keys_and_never_writes_control() {
        let mut f = Fragment::parse("#control=s3cr%2Ft&view=top&t=12&flag");
        assert_eq!(f.cycle(), Some(12));
        assert_eq!(f.get(CONTROL_KEY), Some("s3cr%2Ft"));
        f.set(CYCLE_KEY, "2345");
        assert_eq!(f.to_shareable(), "#view=top&t=2345&flag");
        f.remove(CYCLE_KEY);
        assert_eq!(f.to_shareable(), "#view=top&flag");
        assert_eq!(Fragment::parse("#control=x").to_shareable(), "");
        let team = Fragment::parse("#team=k3y&t=5");
        assert_eq!(team.get(TEAM_KEY), Some("k3y"));
        assert_eq!(team.to_shareable(), "#t=5", "a team's key is never shared");
        let mut g = Fragment::parse("");
        g.set(CYCLE_KEY, "7");
        assert_eq!(g.to_shareable(), "#t=7");
        let mut dup = Fragment::parse("t=1&a=2&t=3");
        dup.set(CYCLE_KEY, "9");
        assert_eq!(dup.to_shareable(), "#t=9&a=2");
    }

    #[test]
    fn the_embed_view_is_named_by_its_path_or_its_query() {
        assert!(is_embed("/m/final/embed", ""));
        assert!(is_embed("/m/final/embed/", ""));
        assert!(is_embed("/", "?log=https://x/a.rcg&embed"));
        assert!(is_embed("/", "embed=1"));
        assert!(!is_embed("/m/final", ""));
        assert!(!is_embed("/m/embed", ""));
        assert!(!is_embed("/", "?log=https://x/embed.rcg"));
        assert!(!is_embed("/", "?embedded"));
    }

    #[test]
    fn the_broadcast_view_is_named_by_its_path_or_its_query() {
        assert!(is_broadcast("/m/field-1/broadcast", ""));
        assert!(is_broadcast("/m/field-1/broadcast/", "?lang=de"));
        assert!(is_broadcast("/", "?log=https://x/a.rcg&broadcast"));
        assert!(!is_broadcast("/m/field-1", ""));
        assert!(!is_broadcast("/m/broadcast", ""));
        assert!(!is_broadcast("/m/field-1/embed", ""));
        assert!(!is_embed("/m/field-1/broadcast", ""));
        assert!(!is_broadcast("/", "?log=https://x/broadcast.rcg"));
    }

    #[test]
    fn cycle_must_be_a_number() {
        assert_eq!(Fragment::parse("#t=abc").cycle(), None);
        assert_eq!(Fragment::parse("#t=-5").cycle(), None);
        assert_eq!(Fragment::parse("#t=").cycle(), None);
        assert_eq!(Fragment::parse("#x=1").cycle(), None);
        assert_eq!(Fragment::parse("t=6000").cycle(), Some(6000));
    }

    #[test]
    fn log_urls_survive_the_query() {
        let url = "https://example.org/logs/a b&c#1+2.rcg.gz";
        let q = with_query_value("?x=1", LOG_KEY, Some(url));
        assert_eq!(
            q,
            "?x=1&log=https://example.org/logs/a%20b%26c%231%2B2.rcg.gz"
        );
        assert_eq!(query_value(&q, LOG_KEY).as_deref(), Some(url));
        assert_eq!(query_value(&q, "x").as_deref(), Some("1"));
        assert_eq!(with_query_value(&q, LOG_KEY, None), "?x=1");
        assert_eq!(with_query_value("?log=a", LOG_KEY, None), "");
        assert_eq!(
            query_value("?log=http://h/f.rcg", LOG_KEY).as_deref(),
            Some("http://h/f.rcg")
        );
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%41"), "%zzA");
        assert_eq!(percent_decode("%C3%A9"), "é");
    }
}
