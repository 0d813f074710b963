//! The book (`docs/`) holds together: every chapter is in its table of contents, and every
//! link between its pages, and from the README, ARCHITECTURE.md and the book's pages to
//! files of the repository, leads somewhere: to a file that exists and, with `#anchor`, to a
//! heading of that file. CI builds the book with mdbook as well (scripts/build-web.sh); this
//! is the part mdbook does not check.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The anchor mdbook and GitHub give a heading: lower case, letters, digits, `-` and `_`
/// kept, spaces as `-`, the rest dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The lines of a Markdown text outside its fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

fn anchors(file: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    prose(&text)
        .into_iter()
        .filter(|l| l.starts_with('#'))
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

/// The targets of the inline links (`[text](target)`) of a Markdown text, code spans and
/// fenced blocks left out.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text) {
        // Code spans hold no links.
        let line: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].to_owned());
            rest = &after[end..];
        }
    }
    out
}

/// Where a link from `from` leads, `None` for the web.
fn broken(from: &Path, target: &str) -> Option<String> {
    if target.starts_with("http://")
        || target.starts_with("https://")
        || target.starts_with("mailto:")
    {
        return None;
    }
    let (path, frag) = match target.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        from.to_path_buf()
    } else {
        from.parent().unwrap().join(path)
    };
    if !file.exists() {
        return Some(format!("{}: {target}: no such file", from.display()));
    }
    if let Some(f) = frag {
        if file.extension().is_some_and(|e| e == "md") && !anchors(&file).contains(f) {
            return Some(format!("{}: {target}: no such heading", from.display()));
        }
    }
    None
}

fn chapters() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root().join("docs/src")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_chapter_is_in_the_table_of_contents() {
    let summary_path = root().join("docs/src/SUMMARY.md");
    let summary = std::fs::read_to_string(&summary_path).unwrap();
    let listed: BTreeSet<PathBuf> = links(&summary)
        .into_iter()
        .map(|l| root().join("docs/src").join(l))
        .collect();
    for c in chapters() {
        if c == summary_path {
            continue;
        }
        assert!(listed.contains(&c), "{} is not in SUMMARY.md", c.display());
    }
    for l in &listed {
        assert!(
            l.is_file(),
            "SUMMARY.md lists {}, which does not exist",
            l.display()
        );
    }
}

#[test]
fn every_link_of_the_book_and_the_readmes_leads_somewhere() {
    let mut files = chapters();
    for f in ["README.md", "ARCHITECTURE.md", "shared/formats/README.md"] {
        files.push(root().join(f));
    }
    let mut bad = Vec::new();
    let mut seen = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for l in links(&text) {
            seen += 1;
            bad.extend(broken(f, &l));
        }
    }
    assert!(seen > 40, "only {seen} links read: the reader is wrong");
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

#[test]
fn the_link_check_sees_a_missing_file_and_a_missing_heading() {
    let page = root().join("docs/src/page.md");
    assert!(broken(&page, "nowhere.md").is_some());
    assert!(broken(&page, "data.md#no-such-heading").is_some());
    assert!(broken(&page, "data.md#the-archive").is_none());
    assert!(broken(&page, "https://example.org/x").is_none());
    assert_eq!(
        anchor("Series: many matches as one result"),
        "series-many-matches-as-one-result"
    );
    assert_eq!(anchor("`/api/tournaments`"), "apitournaments");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_relay_serves_the_built_book_at_docs_under_its_own_policy() {
    use pitchside_tests::relay_harness;
    use pitchside_tests::spectator::http_get;
    relay_harness::need_web_app();
    assert!(
        relay_harness::dist().join("docs/index.html").is_file(),
        "the book is not built into dist/docs (scripts/build-web.sh builds it)"
    );
    let relay = relay_harness::start_bundled_replay().await;
    let (status, head, body) = http_get(relay.addr, "/docs/").await;
    assert_eq!(status, 200, "{head}");
    let body = String::from_utf8_lossy(&body);
    assert!(
        body.contains("Running a relay for a tournament"),
        "the table of contents"
    );
    let head = head.to_ascii_lowercase();
    assert!(
        head.contains(
            "content-security-policy: default-src 'self'; script-src 'self' 'unsafe-inline';"
        ),
        "{head}"
    );
    assert!(head.contains("frame-ancestors 'none'"), "{head}");
    let (status, _, body) = http_get(relay.addr, "/docs/relay.html").await;
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&body).contains("--max-spectators"));
    // The monitor's own page keeps its strict policy.
    let (_, head, _) = http_get(relay.addr, "/").await;
    let head = head.to_ascii_lowercase();
    assert!(
        head.contains("'wasm-unsafe-eval'") && !head.contains("script-src 'self' 'unsafe-inline'"),
        "{head}"
    );
    relay.stop().await;
}
