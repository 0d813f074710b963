//! The house rules ARCHITECTURE.md states, checked on the sources themselves:
//! - no import circle between the files (modules) of any crate: a file that reaches another
//!   through `crate::`, `super::`, `self::` or a child module's name, and is reached back from
//!   it by any path, is a circle, and the test names its files;
//! - every crate's and every folder's first lines say what it holds;
//! - the libraries under `shared/` do no IO.
//!
//! Comments, strings of doc links and `#[cfg(test)] mod tests` blocks are not imports: the
//! reader strips them before looking.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every crate's `src` folder, with its name, from the workspace's `Cargo.toml` members.
fn crates() -> Vec<(String, PathBuf)> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let table: toml::Table = manifest.parse().unwrap();
    let members = table["workspace"]["members"].as_array().unwrap();
    members
        .iter()
        .map(|m| {
            let dir = root().join(m.as_str().unwrap());
            let krate: toml::Table = std::fs::read_to_string(dir.join("Cargo.toml"))
                .unwrap()
                .parse()
                .unwrap();
            let name = krate["package"]["name"].as_str().unwrap().to_string();
            (name, dir.join("src"))
        })
        .collect()
}

/// A module's path inside its crate (`["scene", "ball"]`), from its file.
fn module_of(src: &Path, file: &Path) -> Option<Vec<String>> {
    let rel = file.strip_prefix(src).ok()?.with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.first().map(String::as_str) == Some("bin") {
        return None; // each binary is a crate root of its own
    }
    if parts.last().map(String::as_str) == Some("mod") {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    Some(parts)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without comments, string literals and its unit tests.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("//") {
            continue;
        }
        // Drop string literals (a path in a message is not an import) and trailing comments.
        let mut in_str = false;
        let mut prev = ' ';
        let mut kept = String::new();
        let b: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if !in_str && c == '/' && b.get(i + 1) == Some(&'/') {
                break;
            }
            if c == '"' && prev != '\\' && !(prev == '\'' && b.get(i + 1) == Some(&'\'')) {
                in_str = !in_str;
            } else if !in_str {
                kept.push(c);
            }
            prev = if prev == '\\' && c == '\\' { ' ' } else { c };
            i += 1;
        }
        out.push_str(&kept);
        out.push('\n');
    }
    out
}

/// `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn flatten(path: &str) -> Vec<String> {
    let path: String = path.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = path.find('{') else {
        return vec![path];
    };
    let (prefix, rest) = (&path[..open], &path[open + 1..]);
    let mut depth = 1;
    let mut end = rest.len();
    for (i, c) in rest.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    end = i;
                    break;
                }
            }
            _ => {}
        }
    }
    let inner = &rest[..end];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| flatten(p).into_iter().map(|q| format!("{prefix}{q}")))
        .collect()
}

/// The modules of the crate that `text` (module `me`) names.
fn imports(me: &[String], text: &str, modules: &BTreeSet<Vec<String>>) -> BTreeSet<Vec<String>> {
    let resolve = |path: Vec<String>| -> Option<Vec<String>> {
        (1..=path.len())
            .rev()
            .map(|k| path[..k].to_vec())
            .find(|p| modules.contains(p))
    };
    let mut out = BTreeSet::new();
    let bytes = text.as_bytes();
    let word = |i: usize| i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
    for base in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(k) = text[from..].find(base) {
            let i = from + k;
            from = i + base.len();
            if word(i) || (i >= 2 && &text[i - 2..i] == "::") {
                continue;
            }
            // The path runs over identifiers and `::`, and anything inside balanced braces.
            let mut j = i;
            let mut depth = 0;
            for (n, c) in text[i..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            j = i + n + 1;
                            break;
                        }
                    }
                    _ if depth == 0 && !(c.is_alphanumeric() || c == '_' || c == ':') => break,
                    _ => {}
                }
                j = i + n + c.len_utf8();
            }
            for p in flatten(&text[i..j]) {
                let mut path: Vec<String> = match base {
                    "crate::" => vec![],
                    "self::" => me.to_vec(),
                    _ => me[..me.len().saturating_sub(1)].to_vec(),
                };
                for seg in p.split("::").skip(1).filter(|s| !s.is_empty()) {
                    match seg {
                        "super" => {
                            path.pop();
                        }
                        "self" => {}
                        s => path.push(s.to_string()),
                    }
                }
                if let Some(m) = resolve(path) {
                    if m != me {
                        out.insert(m);
                    }
                }
            }
        }
    }
    // A child module named without `self::` (`use scene::Ball;`, `ball::draw(…)`).
    for m in modules {
        if m.len() == me.len() + 1 && m.starts_with(me) {
            let name = format!("{}::", m[me.len()]);
            let mut from = 0;
            while let Some(k) = text[from..].find(&name) {
                let i = from + k;
                from = i + name.len();
                if !(word(i) || i >= 2 && &text[i - 2..i] == "::") {
                    out.insert(m.clone());
                    break;
                }
            }
        }
    }
    out
}

/// Strongly connected groups of more than one module (Tarjan's algorithm).
fn circles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on: BTreeSet<&'a Vec<String>>,
        out: Vec<Vec<Vec<String>>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a Vec<String>) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on.insert(v);
            for w in &self.graph[v] {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.on.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    group.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.out.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.out
}

fn graph_of(src: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let texts: BTreeMap<Vec<String>, String> = files
        .iter()
        .filter_map(|f| Some((module_of(src, f)?, code(&std::fs::read_to_string(f).ok()?))))
        .collect();
    let modules: BTreeSet<Vec<String>> = texts.keys().cloned().collect();
    texts
        .iter()
        .map(|(m, t)| (m.clone(), imports(m, t, &modules)))
        .collect()
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "(crate root)".into()
    } else {
        m.join("/")
    }
}

#[test]
fn no_file_of_any_crate_imports_a_file_that_imports_it_back() {
    let mut found = Vec::new();
    for (krate, src) in crates() {
        for group in circles(&graph_of(&src)) {
            let names: Vec<String> = group.iter().map(|m| name(m)).collect();
            found.push(format!("{krate}: {}", names.join(" <-> ")));
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn the_circle_check_sees_a_circle_through_a_child_and_a_parent() {
    // A parent that calls its child, and the child that reaches back with `super::`: the
    // check must see it, or the test above proves nothing.
    let modules: BTreeSet<Vec<String>> = [
        vec![],
        vec!["scene".into()],
        vec!["scene".into(), "ball".into()],
    ]
    .into_iter()
    .collect();
    let scene = vec!["scene".to_string()];
    let ball = vec!["scene".to_string(), "ball".to_string()];
    let mut graph = BTreeMap::new();
    graph.insert(vec![], BTreeSet::new());
    graph.insert(
        scene.clone(),
        imports(&scene, &code("fn f() { ball::draw(); }"), &modules),
    );
    graph.insert(
        ball.clone(),
        imports(&ball, &code("use super::{Shape, style::X};"), &modules),
    );
    assert_eq!(circles(&graph), vec![vec![scene.clone(), ball.clone()]]);
    // Named only in a comment or a string: no import.
    let quiet = imports(
        &scene,
        &code("// ball::draw()\nlet s = \"ball::draw\";"),
        &modules,
    );
    assert!(quiet.is_empty(), "{quiet:?}");
    assert_eq!(
        imports(
            &ball,
            &code("use crate::{scene::{self as s}, other};"),
            &modules
        ),
        [scene].into_iter().collect()
    );
}

#[test]
fn every_crate_and_folder_opens_with_what_it_holds() {
    let mut missing = Vec::new();
    for (krate, src) in crates() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let is_root_of_folder = {
                let stem = f.file_stem().unwrap().to_string_lossy();
                stem == "lib" || stem == "main" || stem == "mod" || f.with_extension("").is_dir()
            };
            if is_root_of_folder && !text.trim_start().starts_with("//!") {
                missing.push(format!(
                    "{krate}: {}",
                    f.strip_prefix(root()).unwrap_or(&f).display()
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "these crate roots and folder modules do not open with `//!` saying what they hold:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_libraries_do_no_io() {
    // What would mean a file, a socket, a process or the clock; tests and benches may.
    const IO: [&str; 8] = [
        "std::fs",
        "std::net",
        "std::process",
        "tokio",
        "SystemTime::now",
        "Instant::now",
        "std::io::stdin",
        "std::env::var",
    ];
    let mut found = Vec::new();
    for (krate, src) in crates() {
        if !src.starts_with(root().join("shared")) && !src.to_string_lossy().contains("/shared/") {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for f in files {
            let text = code(&std::fs::read_to_string(&f).unwrap());
            for io in IO {
                if text.contains(io) {
                    found.push(format!("{krate}: {} uses {io}", f.display()));
                }
            }
        }
    }
    assert!(found.is_empty(), "IO in a library:\n{}", found.join("\n"));
}
