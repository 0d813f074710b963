//! The words of an agent file and the spans (game times) each occurs in, made in the indexing
//! pass, so that a search of a whole game's files does not read them again.
//!
//! A full game's debug logs are over a gigabyte of text, kept on disk (gzipped, often); reading
//! them all again for each search costs seconds however fast the reading. Their text is
//! written by a program, so it has few distinct words: a helios-base player's log of 6,000
//! cycles has a few hundred. A *word* here is a run of ASCII letters and `_`, in lower case.
//! For a searched text (ASCII letters in any case, as [`super::index::Finder`] finds it):
//! - made of word characters only, it occurs in a span exactly when one of the span's words
//!   contains it, so the answer comes from the words alone ([`Lookup::Exact`]);
//! - with other characters (spaces, digits, brackets), each run of word characters in it must
//!   be a whole word of the span (the first run may end one, the last may start one), which
//!   narrows the spans to read ([`Lookup::Candidates`]);
//! - with no word character at all, every span must be read ([`Lookup::Unknown`]).
//!
//! The index is bounded: past [`MAX_WORDS`] distinct words or [`MAX_POSTINGS`] entries, or
//! when a line too long to be read ([`super::index::MAX_LINE`]) falls in a span, it is given
//! up and a search reads the file.

/// Distinct words kept at most (and their bytes, [`MAX_WORD_BYTES`]).
pub const MAX_WORDS: usize = 1 << 18;
pub const MAX_WORD_BYTES: usize = 8 << 20;
/// (word, span) entries kept at most: 64 MB.
pub const MAX_POSTINGS: usize = 16 << 20;

fn is_word(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

/// FNV-1a over the lower-cased bytes.
fn hash(word: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in word {
        h = (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The spans one word occurs in.
#[derive(Clone, Debug, PartialEq)]
enum Postings {
    /// Span positions, increasing.
    List(Vec<u32>),
    /// One bit per span (for words in most spans).
    Bits(Vec<u64>),
}

/// What [`WordIndex::lookup`] says about a searched text.
#[derive(Clone, Debug, PartialEq)]
pub enum Lookup {
    /// The text occurs in exactly these spans (positions in the index's spans, increasing).
    Exact(Vec<u32>),
    /// The text can only occur in these spans: read them to know.
    Candidates(Vec<u32>),
    /// The words say nothing: read the file.
    Unknown,
}

/// Notes that a word occurs in `span` (later than any noted before). A word found in more
/// than one span in 32 so far is kept as bits from then on: while a file is indexed its
/// common words' lists would otherwise grow to 4 bytes a span, doubled by the vectors'
/// growth (some 15 MB for a player's full game), and a worker's memory, once grown, stays.
fn add_span(p: &mut Postings, span: u32) {
    match p {
        Postings::List(list) => {
            if list.len() >= 64 && list.len() * 32 > span as usize {
                let mut bits = vec![0u64; span as usize / 64 + 1];
                for &s in list.iter() {
                    bits[s as usize / 64] |= 1 << (s % 64);
                }
                bits[span as usize / 64] |= 1 << (span % 64);
                *p = Postings::Bits(bits);
            } else {
                list.push(span);
            }
        }
        Postings::Bits(bits) => {
            let w = span as usize / 64;
            if bits.len() <= w {
                bits.resize(w + 1, 0);
            }
            bits[w] |= 1 << (span % 64);
        }
    }
}

/// Builds a [`WordIndex`] from the lines of a file, each with the span it belongs to.
pub struct WordsBuilder {
    /// Open addressing: word number + 1, or 0.
    slots: Vec<u32>,
    hashes: Vec<u64>,
    /// The words' lower-case bytes, one after another; `ends[i]` is where word `i` ends.
    bytes: Vec<u8>,
    ends: Vec<u32>,
    /// Per word: the last span it was seen in, plus one (0: none), and its spans.
    last: Vec<u32>,
    lists: Vec<Postings>,
    postings: usize,
    /// Given up (too many words or entries, or a line that could not be read).
    spoiled: bool,
}

impl Default for WordsBuilder {
    fn default() -> Self {
        WordsBuilder::new()
    }
}

impl WordsBuilder {
    pub fn new() -> WordsBuilder {
        WordsBuilder {
            slots: vec![0; 1024],
            hashes: Vec::new(),
            bytes: Vec::new(),
            ends: Vec::new(),
            last: Vec::new(),
            lists: Vec::new(),
            postings: 0,
            spoiled: false,
        }
    }

    /// The words of `line`, which belongs to span `span`.
    pub fn line(&mut self, span: u32, line: &[u8]) {
        if self.spoiled {
            return;
        }
        let n = line.len();
        let mut i = 0;
        while i < n {
            while i < n && !is_word(line[i]) {
                i += 1;
            }
            let s = i;
            while i < n && is_word(line[i]) {
                i += 1;
            }
            if i > s {
                self.word(span, &line[s..i]);
            }
        }
    }

    /// A line in span `span` could not be read (too long): its words are unknown.
    pub fn unread(&mut self) {
        self.spoiled = true;
    }

    fn word(&mut self, span: u32, word: &[u8]) {
        let h = hash(word);
        let mask = self.slots.len() - 1;
        let mut i = (h as usize) & mask;
        let id = loop {
            let s = self.slots[i];
            if s == 0 {
                match self.insert(h, word) {
                    Some(id) => {
                        self.slots[i] = id + 1;
                        if self.hashes.len() * 2 > self.slots.len() {
                            self.grow();
                        }
                        break id;
                    }
                    None => return,
                }
            }
            let id = s - 1;
            if self.hashes[id as usize] == h && self.word_bytes(id).eq_ignore_ascii_case(word) {
                break id;
            }
            i = (i + 1) & mask;
        };
        let k = id as usize;
        if self.last[k] != span + 1 {
            self.last[k] = span + 1;
            add_span(&mut self.lists[k], span);
            self.postings += 1;
            if self.postings > MAX_POSTINGS {
                self.spoil();
            }
        }
    }

    fn insert(&mut self, h: u64, word: &[u8]) -> Option<u32> {
        if self.hashes.len() >= MAX_WORDS || self.bytes.len() + word.len() > MAX_WORD_BYTES {
            self.spoil();
            return None;
        }
        self.hashes.push(h);
        self.bytes
            .extend(word.iter().map(|b| b.to_ascii_lowercase()));
        self.ends.push(self.bytes.len() as u32);
        self.last.push(0);
        self.lists.push(Postings::List(Vec::new()));
        Some((self.hashes.len() - 1) as u32)
    }

    fn word_bytes(&self, id: u32) -> &[u8] {
        let k = id as usize;
        let start = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        &self.bytes[start..self.ends[k] as usize]
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let mut slots = vec![0u32; size];
        for (id, &h) in self.hashes.iter().enumerate() {
            let mut i = (h as usize) & (size - 1);
            while slots[i] != 0 {
                i = (i + 1) & (size - 1);
            }
            slots[i] = id as u32 + 1;
        }
        self.slots = slots;
    }

    fn spoil(&mut self) {
        self.spoiled = true;
        self.slots = Vec::new();
        self.hashes = Vec::new();
        self.bytes = Vec::new();
        self.ends = Vec::new();
        self.last = Vec::new();
        self.lists = Vec::new();
    }

    /// The index, for a file of `spans` spans; `None` when it was given up.
    pub fn finish(self, spans: usize) -> Option<WordIndex> {
        if self.spoiled {
            return None;
        }
        let words = (0..self.ends.len() as u32)
            .map(|id| self.word_bytes(id).to_vec().into_boxed_slice())
            .collect();
        let postings = self
            .lists
            .into_iter()
            .map(|p| match p {
                // A list of u32 costs 32 bits a span it holds, bits one a span of the file.
                Postings::List(list) if list.len() * 32 > spans => {
                    let mut bits = vec![0u64; spans.div_ceil(64)];
                    for s in list {
                        if let Some(w) = bits.get_mut(s as usize / 64) {
                            *w |= 1 << (s % 64);
                        }
                    }
                    Postings::Bits(bits)
                }
                Postings::List(mut list) => {
                    list.shrink_to_fit();
                    Postings::List(list)
                }
                Postings::Bits(mut bits) => {
                    bits.resize(spans.div_ceil(64), 0);
                    bits.shrink_to_fit();
                    Postings::Bits(bits)
                }
            })
            .collect();
        Some(WordIndex {
            words,
            postings,
            spans,
        })
    }
}

/// Every word of a file and the spans it occurs in.
#[derive(Clone, Debug, PartialEq)]
pub struct WordIndex {
    words: Vec<Box<[u8]>>,
    postings: Vec<Postings>,
    spans: usize,
}

/// Which words a run of word characters of a searched text can be part of.
#[derive(Clone, Copy, PartialEq)]
enum Fits {
    /// The whole text: inside any word.
    Inside,
    /// At the text's start (more follows): the end of a word.
    End,
    /// At the text's end: the start of a word.
    Start,
    /// Between other characters: a whole word.
    Whole,
}

impl WordIndex {
    /// Distinct words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Bytes the index holds.
    pub fn heap_bytes(&self) -> usize {
        self.words.iter().map(|w| w.len() + 16).sum::<usize>()
            + self
                .postings
                .iter()
                .map(|p| {
                    24 + match p {
                        Postings::List(l) => l.capacity() * 4,
                        Postings::Bits(b) => b.capacity() * 8,
                    }
                })
                .sum::<usize>()
    }

    /// Where `needle` (ASCII letters in any case) can occur.
    pub fn lookup(&self, needle: &str) -> Lookup {
        let n = needle.as_bytes().to_ascii_lowercase();
        if n.is_empty() {
            return Lookup::Exact(Vec::new());
        }
        let mut runs = Vec::new();
        let mut i = 0;
        while i < n.len() {
            if !is_word(n[i]) {
                i += 1;
                continue;
            }
            let s = i;
            while i < n.len() && is_word(n[i]) {
                i += 1;
            }
            let fits = match (s == 0, i == n.len()) {
                (true, true) => Fits::Inside,
                (true, false) => Fits::End,
                (false, true) => Fits::Start,
                (false, false) => Fits::Whole,
            };
            runs.push((&n[s..i], fits));
        }
        if runs.is_empty() {
            return Lookup::Unknown;
        }
        let mut spans: Option<Vec<u64>> = None;
        for (run, fits) in &runs {
            let mut these = vec![0u64; self.spans.div_ceil(64)];
            for (w, p) in self.words.iter().zip(&self.postings) {
                let ok = match fits {
                    Fits::Inside => memchr::memmem::find(w, run).is_some(),
                    Fits::End => w.ends_with(run),
                    Fits::Start => w.starts_with(run),
                    Fits::Whole => &w[..] == *run,
                };
                if ok {
                    match p {
                        Postings::List(l) => {
                            for &s in l {
                                if let Some(x) = these.get_mut(s as usize / 64) {
                                    *x |= 1 << (s % 64);
                                }
                            }
                        }
                        Postings::Bits(b) => {
                            for (x, y) in these.iter_mut().zip(b) {
                                *x |= y;
                            }
                        }
                    }
                }
            }
            spans = Some(match spans {
                None => these,
                Some(mut all) => {
                    for (x, y) in all.iter_mut().zip(&these) {
                        *x &= y;
                    }
                    all
                }
            });
        }
        let bits = spans.unwrap_or_default();
        let mut out = Vec::new();
        for (k, &w) in bits.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                out.push((k * 64) as u32 + w.trailing_zeros());
                w &= w - 1;
            }
        }
        if runs.len() == 1 && runs[0].1 == Fits::Inside {
            Lookup::Exact(out)
        } else {
            Lookup::Candidates(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(lines: &[(u32, &str)], spans: usize) -> WordIndex {
        let mut b = WordsBuilder::new();
        for (s, l) in lines {
            b.line(*s, l.as_bytes());
        }
        b.finish(spans).unwrap()
    }

    #[test]
    fn words_in_any_case_and_where_they_are() {
        let ix = index(
            &[
                (0, "1,0 4 M (updateTheirDefenseLine) x=12.5"),
                (0, "1,0 4 M pass to 7"),
                (1, "2,0 4 M Pass_Kick ok"),
                (2, "3,0 32 c 1.0 2.0 0.5"),
            ],
            3,
        );
        assert_eq!(ix.lookup("defenseline"), Lookup::Exact(vec![0]));
        assert_eq!(ix.lookup("PASS"), Lookup::Exact(vec![0, 1]));
        assert_eq!(ix.lookup("m"), Lookup::Exact(vec![0, 1]));
        // Inside any word: "c" alone, and "pass_kick".
        assert_eq!(ix.lookup("c"), Lookup::Exact(vec![1, 2]));
        assert_eq!(ix.lookup("nowhere"), Lookup::Exact(vec![]));
        // "pass to": "pass" ends a word, "to" starts one.
        assert_eq!(ix.lookup("pass to"), Lookup::Candidates(vec![0]));
        assert_eq!(ix.lookup("ss to 7"), Lookup::Candidates(vec![0]));
        // A whole word in the middle: "to" is one, "t" is not.
        assert_eq!(ix.lookup("pass t 7"), Lookup::Candidates(vec![]));
        assert_eq!(ix.lookup("12.5"), Lookup::Unknown);
        assert_eq!(ix.lookup("x=1"), Lookup::Candidates(vec![0]));
        assert_eq!(ix.lookup(""), Lookup::Exact(vec![]));
    }

    /// On real debug logs, the words answer every search as reading the file does: alone when
    /// they are exact, and by reading only the candidate spans otherwise.
    #[test]
    fn real_logs_search_the_same_through_their_words() {
        use crate::index::{FileKind, Finder, Indexer, Search};
        use crate::Time;
        use std::io::Read;
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents/agents-100/agent-logs");
        let needles = [
            "updateTheirDefenseLine",
            "defense",
            "PASS",
            "pass ",
            " pass",
            "(updateAfterSense) call",
            "world_model.cpp",
            "rcsc/player/",
            "12.5",
            "0,0",
            "e",
            "ss t",
            "no such text",
            "Body_",
            "r=0.",
            ") ",
            "M ",
            "4 M",
        ];
        for name in [
            "HELIOS_A-7.log.gz",
            "HELIOS_B-1.log.gz",
            "HELIOS_A-coach.log.gz",
        ] {
            let mut text = Vec::new();
            flate2::read::GzDecoder::new(std::fs::File::open(dir.join(name)).unwrap())
                .read_to_end(&mut text)
                .unwrap();
            let mut ix = Indexer::with_words(FileKind::DebugLog);
            for c in text.chunks(7919) {
                ix.push(c);
            }
            let (ix, words) = ix.finish_with_words();
            let words = words.unwrap();
            assert!(words.len() > 50, "{name}: {} words", words.len());
            let mut exact = 0;
            for needle in needles {
                let mut scan = Search::new(&ix, needle);
                scan.push(&text);
                let mut want = scan.finish();
                want.sort();
                want.dedup();
                let read = |p: &u32| {
                    let s = &ix.spans[*p as usize];
                    let mut f = Finder::new(needle);
                    let mut hit = false;
                    f.push(&text[s.start as usize..s.end as usize], &mut |_| {
                        hit = true;
                        false
                    });
                    hit
                };
                let mut got: Vec<Time> = match words.lookup(needle) {
                    Lookup::Exact(p) => {
                        exact += 1;
                        p.iter().map(|p| ix.spans[*p as usize].time).collect()
                    }
                    Lookup::Candidates(p) => p
                        .iter()
                        .filter(|p| read(p))
                        .map(|p| ix.spans[*p as usize].time)
                        .collect(),
                    Lookup::Unknown => (0..ix.spans.len() as u32)
                        .filter(read)
                        .map(|p| ix.spans[p as usize].time)
                        .collect(),
                };
                got.sort();
                got.dedup();
                assert_eq!(got, want, "{name}: {needle:?}");
            }
            assert!(exact >= 5, "{name}: {exact} exact");
        }
    }

    /// For real debug logs of every kind of agent (players of both teams, coaches) and many
    /// texts (ones copied from the logs at many places, some cut mid-word, with their case
    /// changed; ones spanning words and punctuation; ones found nowhere), the spans a search
    /// finds through the words (reading only the candidate spans they leave) are exactly the
    /// spans where a case-insensitive scan of the whole text finds the text.
    #[test]
    fn words_answer_as_a_full_scan_for_many_texts() {
        use crate::index::{FileKind, Finder, Indexer};
        use std::io::Read;
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents/agents-100/agent-logs");
        let fixed = [
            "pass to",
            "ss t",
            "e p",
            "(updateAfterSense) call",
            ") call internal",
            "=(",
            ", ",
            "(",
            "0.5",
            "r=0.",
            "-1 M CYCLE",
            "CYCLE 0-",
            "kickable=1.",
            "/usr/src/",
            "self_object.cpp (update",
            "Body_TurnToBall",
            "zzqx",
            "updateTheirDefenseLine!",
            "pass to nowhere at all",
            "café pass",
            "x_y",
            "_",
            " M ",
        ];
        let mut x: u64 = 7;
        let mut next = |below: usize| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 20) % below.max(1) as u64) as usize
        };
        let (mut exact, mut candidates, mut unknown, mut found_somewhere) = (0, 0, 0, 0);
        for name in [
            "HELIOS_A-1.log.gz",
            "HELIOS_A-7.log.gz",
            "HELIOS_A-coach.log.gz",
            "HELIOS_B-4.log.gz",
            "HELIOS_B-11.log.gz",
            "HELIOS_B-coach.log.gz",
        ] {
            let mut text = Vec::new();
            flate2::read::GzDecoder::new(std::fs::File::open(dir.join(name)).unwrap())
                .read_to_end(&mut text)
                .unwrap();
            let lower = text.to_ascii_lowercase();
            let mut ix = Indexer::with_words(FileKind::DebugLog);
            for c in text.chunks(65_521) {
                ix.push(c);
            }
            let (ix, words) = ix.finish_with_words();
            let words = words.unwrap_or_else(|| panic!("{name}: the words were given up"));
            let span_of = |at: usize| {
                let k = ix
                    .spans
                    .partition_point(|s| s.start <= at as u64)
                    .checked_sub(1)?;
                (at < ix.spans[k].end as usize).then_some(k as u32)
            };
            // Texts copied from the file, 1 to 40 bytes from anywhere in it (across words,
            // spaces, brackets, digits), every other letter's case flipped.
            let mut needles: Vec<String> = fixed.iter().map(|s| s.to_string()).collect();
            while needles.len() < fixed.len() + 80 {
                let at = next(text.len());
                let len = 1 + next(40);
                let piece = &text[at..(at + len).min(text.len())];
                if piece.contains(&b'\n') {
                    continue;
                }
                let Ok(s) = std::str::from_utf8(piece) else {
                    continue;
                };
                let s: String = s
                    .chars()
                    .enumerate()
                    .map(|(i, c)| {
                        if i % 2 == 0 {
                            c.to_ascii_uppercase()
                        } else {
                            c
                        }
                    })
                    .collect();
                needles.push(s);
            }
            for needle in &needles {
                let n = needle.as_bytes().to_ascii_lowercase();
                let mut want: Vec<u32> = memchr::memmem::find_iter(&lower, &n)
                    .filter_map(span_of)
                    .collect();
                want.dedup();
                let read = |p: &u32| {
                    let s = &ix.spans[*p as usize];
                    // A text found must start in the span; it may run on past its end.
                    let end = (s.end as usize + n.len()).min(text.len());
                    let mut f = Finder::new(needle);
                    let mut hit = false;
                    f.push(&text[s.start as usize..end], &mut |o| {
                        hit = o < s.end - s.start;
                        !hit
                    });
                    hit
                };
                let got: Vec<u32> = match words.lookup(needle) {
                    Lookup::Exact(p) => {
                        exact += 1;
                        p
                    }
                    Lookup::Candidates(p) => {
                        candidates += 1;
                        assert!(
                            want.iter().all(|w| p.contains(w)),
                            "{name}: {needle:?}: a span with it is not a candidate"
                        );
                        p.into_iter().filter(|p| read(p)).collect()
                    }
                    Lookup::Unknown => {
                        unknown += 1;
                        (0..ix.spans.len() as u32).filter(read).collect()
                    }
                };
                if !want.is_empty() {
                    found_somewhere += 1;
                }
                assert_eq!(got, want, "{name}: {needle:?}");
            }
        }
        // Every way of answering was taken, most texts were found, some were not.
        assert!(
            exact > 50 && candidates > 100 && unknown > 5,
            "{exact} {candidates} {unknown}"
        );
        assert!(
            found_somewhere > 400 && found_somewhere < 6 * 103,
            "{found_somewhere}"
        );
    }

    #[test]
    fn bounded_and_given_up() {
        let mut b = WordsBuilder::new();
        b.line(0, b"a b c");
        b.unread();
        assert!(b.finish(1).is_none());
        let mut b = WordsBuilder::new();
        // Many distinct words: the table grows and keeps them all.
        for i in 0..5000u32 {
            let w: String = i
                .to_string()
                .bytes()
                .map(|d| char::from(b'a' + (d - b'0')))
                .collect();
            b.line(i % 7, format!("x {w}").as_bytes());
        }
        let ix = b.finish(7).unwrap();
        assert_eq!(ix.len(), 5001);
        assert_eq!(ix.lookup("x"), Lookup::Exact((0..7).collect()));
        let mut bcd: Vec<u32> = (0..5000u32)
            .filter(|i| i.to_string().contains("123"))
            .map(|i| i % 7)
            .collect();
        bcd.sort();
        bcd.dedup();
        assert_eq!(ix.lookup("bcd"), Lookup::Exact(bcd));
    }
}
