//! One streaming pass over an agent file that notes where each game time's lines are, so
//! that a file of gigabytes is opened without holding it: the page (or the relay) keeps only
//! the index, about 32 bytes per time, and decodes the byte range of the cycle on screen when
//! it is shown. The pass reads only the time at the start of each line (and a debug log's
//! level), so it runs at the speed of splitting lines.

use super::words::{WordIndex, WordsBuilder};
use super::{digits, Time};

/// Which of the three agent files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum FileKind {
    /// librcsc's debug log (`.log`): messages and drawings.
    DebugLog,
    /// librcsc's debug-client log (`.dcl`): world models.
    WorldModel,
    /// rcssserver's message log (`.rcl`): every client's commands.
    Commands,
}

/// The lines of one game time: bytes `start..end` of the file (whole lines, newlines
/// included), starting at 1-based line `first_line`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Span {
    pub time: Time,
    pub start: u64,
    pub end: u64,
    pub first_line: u64,
}

/// A line longer than this is not a line of an agent file; it is counted as bad and
/// skipped rather than held (librcsc's own buffers stop at 32 KB).
pub const MAX_LINE: usize = 1 << 20;

/// Where each game time's lines are in one file.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Index {
    pub kind: FileKind,
    /// In file order; sorted by time unless `sorted` is false (a player's clock starts
    /// over at kick-off: its log goes `0,110` then `0,0`).
    pub spans: Vec<Span>,
    pub sorted: bool,
    /// When not sorted: the spans' positions in time order (equal times in file order).
    by_time: Vec<u32>,
    /// Every category bit seen (debug logs), lines written under any category (-1) aside.
    pub levels: u32,
    pub lines: u64,
    /// Lines that start with no time where one was needed, or over [`MAX_LINE`].
    pub bad_lines: u64,
    pub bytes: u64,
}

impl Index {
    /// An index of `spans` (in file order), with the counts the pass made.
    pub fn from_spans(
        kind: FileKind,
        spans: Vec<Span>,
        levels: u32,
        lines: u64,
        bad_lines: u64,
        bytes: u64,
    ) -> Index {
        let sorted = spans.windows(2).all(|w| w[0].time <= w[1].time);
        let by_time = if sorted {
            Vec::new()
        } else {
            let mut order: Vec<u32> = (0..spans.len() as u32).collect();
            order.sort_by_key(|&i| spans[i as usize].time);
            order
        };
        Index {
            kind,
            spans,
            sorted,
            by_time,
            levels,
            lines,
            bad_lines,
            bytes,
        }
    }

    fn time_order(&self, k: usize) -> &Span {
        if self.sorted {
            &self.spans[k]
        } else {
            &self.spans[self.by_time[k] as usize]
        }
    }

    /// The first position in time order whose time is not before `time`.
    fn lower_bound(&self, time: Time, or_equal: bool) -> usize {
        let (mut lo, mut hi) = (0, self.spans.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let t = self.time_order(mid).time;
            if t < time || (or_equal && t == time) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The spans of a game time, in file order.
    pub fn at(&self, time: Time) -> impl Iterator<Item = &Span> {
        self.positions_at(time).map(move |i| &self.spans[i])
    }

    /// Where in [`Index::spans`] the spans of a game time are, in file order.
    pub fn positions_at(&self, time: Time) -> impl Iterator<Item = usize> + '_ {
        let lo = self.lower_bound(time, false);
        let hi = self.lower_bound(time, true);
        (lo..hi).map(move |k| {
            if self.sorted {
                k
            } else {
                self.by_time[k] as usize
            }
        })
    }

    /// The latest game time in the file at or before `time`.
    pub fn at_or_before(&self, time: Time) -> Option<Time> {
        let k = self.lower_bound(time, true).checked_sub(1)?;
        Some(self.time_order(k).time)
    }

    /// The first and last game time in the file.
    pub fn range(&self) -> Option<(Time, Time)> {
        if self.spans.is_empty() {
            return None;
        }
        Some((
            self.time_order(0).time,
            self.time_order(self.spans.len() - 1).time,
        ))
    }

    /// The span holding byte `offset`, if any.
    pub fn span_at_offset(&self, offset: u64) -> Option<&Span> {
        // Spans are in file order, so their starts are increasing.
        let i = self.spans.partition_point(|s| s.start <= offset);
        let s = self.spans.get(i.checked_sub(1)?)?;
        (offset < s.end).then_some(s)
    }

    /// Bytes the index holds (what it costs a page to keep it).
    pub fn heap_bytes(&self) -> usize {
        self.spans.capacity() * std::mem::size_of::<Span>() + self.by_time.capacity() * 4
    }
}

/// Builds an [`Index`] from a file fed in chunks of any size.
pub struct Indexer {
    kind: FileKind,
    spans: Vec<Span>,
    levels: u32,
    lines: u64,
    bad_lines: u64,
    /// File offset of the byte after the last one pushed.
    offset: u64,
    /// The start of a line cut by a chunk's end.
    carry: Vec<u8>,
    /// Inside a line over [`MAX_LINE`]: dropping bytes up to its newline.
    skipping: bool,
    current: Option<Span>,
    /// A `.dcl` `%% step` line waiting for its `%% debug` line: where it started.
    step: Option<(u64, u64, u32)>,
    /// The words of each span, when asked for ([`Indexer::with_words`]).
    words: Option<WordsBuilder>,
}

impl Indexer {
    pub fn new(kind: FileKind) -> Indexer {
        Indexer {
            kind,
            spans: Vec::new(),
            levels: 0,
            lines: 0,
            bad_lines: 0,
            offset: 0,
            carry: Vec::new(),
            skipping: false,
            current: None,
            step: None,
            words: None,
        }
    }

    /// Also notes the words of each span ([`super::words`]), for searches that need not read
    /// the file again.
    pub fn with_words(kind: FileKind) -> Indexer {
        Indexer {
            words: Some(WordsBuilder::new()),
            ..Indexer::new(kind)
        }
    }

    pub fn push(&mut self, chunk: &[u8]) {
        let base = self.offset;
        self.offset += chunk.len() as u64;
        let mut rest = chunk;
        let mut at = base;
        while let Some(n) = memchr::memchr(b'\n', rest) {
            let piece = &rest[..n];
            let end = at + n as u64 + 1;
            if self.skipping {
                self.skipping = false;
            } else if self.carry.len() + piece.len() > MAX_LINE {
                self.carry.clear();
                self.lines += 1;
                self.bad_lines += 1;
                self.unread();
            } else if self.carry.is_empty() {
                self.line(piece, end - piece.len() as u64 - 1, end);
            } else {
                let mut line = std::mem::take(&mut self.carry);
                line.extend_from_slice(piece);
                let start = end - line.len() as u64 - 1;
                self.line(&line, start, end);
                line.clear();
                self.carry = line;
            }
            rest = &rest[n + 1..];
            at = end;
        }
        if !self.skipping {
            if self.carry.len() + rest.len() > MAX_LINE {
                // Counted once, as one bad line, and dropped up to its newline.
                self.carry.clear();
                self.skipping = true;
                self.lines += 1;
                self.bad_lines += 1;
                self.unread();
            } else {
                self.carry.extend_from_slice(rest);
            }
        }
    }

    pub fn finish(self) -> Index {
        self.finish_with_words().0
    }

    /// The index, and the words of its spans if they were asked for and could be kept.
    pub fn finish_with_words(mut self) -> (Index, Option<WordIndex>) {
        if !self.carry.is_empty() && !self.skipping {
            let line = std::mem::take(&mut self.carry);
            let start = self.offset - line.len() as u64;
            self.line(&line, start, self.offset);
        }
        if let Some(s) = self.current.take() {
            self.close(s);
        }
        self.spans.shrink_to_fit();
        let words = self.words.and_then(|w| w.finish(self.spans.len()));
        let index = Index::from_spans(
            self.kind,
            self.spans,
            self.levels,
            self.lines,
            self.bad_lines,
            self.offset,
        );
        (index, words)
    }

    /// A line too long to read: its words are not known.
    fn unread(&mut self) {
        if let Some(w) = &mut self.words {
            w.unread();
        }
    }

    /// Bytes fed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    fn line(&mut self, line: &[u8], start: u64, end: u64) {
        self.lines += 1;
        let number = self.lines;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            self.extend(end);
            return;
        }
        let time = match self.kind {
            FileKind::DebugLog => match Time::parse_prefix(line) {
                Some((t, rest)) => {
                    // LEVEL_ANY (-1) is no category of its own.
                    if let Some(level) = level(rest).filter(|&l| l != u32::MAX) {
                        self.levels |= level;
                    }
                    Some(t)
                }
                // A message's text with a newline in it: its own lines go with it.
                None if self.current.is_some() => None,
                None => {
                    self.bad_lines += 1;
                    None
                }
            },
            FileKind::Commands => match Time::parse_prefix(line) {
                Some((t, _)) => Some(t),
                None => {
                    self.bad_lines += 1;
                    None
                }
            },
            FileKind::WorldModel => {
                if let Some(n) = line.strip_prefix(b"%% step ").and_then(|r| digits(r)) {
                    self.step = Some((start, number, n.0));
                    return;
                }
                if let Some(body) = line.strip_prefix(b"%% debug [") {
                    let from_step = self.step.map(|(_, _, n)| Time {
                        cycle: n,
                        stopped: 0,
                    });
                    Some(message_time(body).or(from_step).unwrap_or_default())
                } else {
                    self.bad_lines += 1;
                    None
                }
            }
        };
        let (start, number) = match self.step.take() {
            Some((s, n, _)) => (s, n),
            None => (start, number),
        };
        match (time, self.current) {
            (Some(t), Some(cur)) if cur.time == t => self.extend(end),
            (Some(t), _) => {
                if let Some(s) = self.current.take() {
                    self.close(s);
                }
                self.current = Some(Span {
                    time: t,
                    start,
                    end,
                    first_line: number,
                });
            }
            (None, _) => self.extend(end),
        }
        // The line's words go with the span it is in (the one not yet closed), if any.
        if let (Some(w), Some(_)) = (&mut self.words, &self.current) {
            w.line(self.spans.len() as u32, line);
        }
    }

    fn extend(&mut self, end: u64) {
        if let Some(cur) = &mut self.current {
            cur.end = end;
        }
    }

    fn close(&mut self, s: Span) {
        self.spans.push(s);
    }
}

/// A debug log line's level, after its time.
fn level(rest: &[u8]) -> Option<u32> {
    let rest = rest.strip_prefix(b" ")?;
    let end = rest.iter().position(|&b| b == b' ').unwrap_or(rest.len());
    let v: i64 = std::str::from_utf8(&rest[..end]).ok()?.parse().ok()?;
    i32::try_from(v)
        .map(|v| v as u32)
        .or_else(|_| u32::try_from(v))
        .ok()
}

/// `(time C,S)` near the start of a debug-client message.
fn message_time(body: &[u8]) -> Option<Time> {
    let head = &body[..body.len().min(96)];
    let i = memchr::memmem::find(head, b"(time ")?;
    Time::parse_prefix(&head[i + 6..]).map(|(t, _)| t)
}

/// Gives `found` the start of every occurrence in `hay`, overlapping ones included (a find
/// of `00` in `000` at 0 and at 1: each may start a span of its own), until it says stop;
/// whether it went through.
fn each_find(
    searcher: &memchr::memmem::Finder<'_>,
    hay: &[u8],
    found: &mut dyn FnMut(usize) -> bool,
) -> bool {
    let mut at = 0;
    while let Some(i) = hay.get(at..).and_then(|h| searcher.find(h)) {
        if !found(at + i) {
            return false;
        }
        at += i + 1;
    }
    true
}

/// Finds a text (ASCII letters in any case) in a file fed in chunks of any size: the offsets
/// where it starts, each once. What a search of the agents' files runs on each file, plain or
/// inflated, without keeping the file.
pub struct Finder {
    needle: Vec<u8>,
    searcher: memchr::memmem::Finder<'static>,
    /// The last `needle.len() - 1` bytes before `offset`, lowered, then the chunk (reused).
    hay: Vec<u8>,
    offset: u64,
}

impl Finder {
    pub fn new(needle: &str) -> Finder {
        let needle = needle.as_bytes().to_ascii_lowercase();
        Finder {
            searcher: memchr::memmem::Finder::new(&needle).into_owned(),
            needle,
            hay: Vec::new(),
            offset: 0,
        }
    }

    /// Bytes fed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Feeds the next chunk; `found` gets each offset where the text starts (in file order)
    /// and says whether to go on.
    pub fn push(&mut self, chunk: &[u8], found: &mut dyn FnMut(u64) -> bool) {
        if self.needle.is_empty() {
            return;
        }
        if self.needle.iter().any(u8::is_ascii_alphabetic) {
            self.push_lowered(chunk, found);
        } else {
            self.push_as_is(chunk, found);
        }
    }

    /// A text with letters: the chunk lowered (a copy) after the last bytes before it.
    fn push_lowered(&mut self, chunk: &[u8], found: &mut dyn FnMut(u64) -> bool) {
        let kept = self.hay.len();
        let hay_start = self.offset - kept as u64;
        self.hay.extend_from_slice(chunk);
        self.hay[kept..].make_ascii_lowercase();
        each_find(&self.searcher, &self.hay, &mut |i| {
            found(hay_start + i as u64)
        });
        self.offset += chunk.len() as u64;
        self.keep_tail();
    }

    /// A text without letters is found in the chunk as it is: only a find across the
    /// chunk's start is looked for in a copy (the last bytes before it and its first ones).
    /// Searches of numbers read gigabytes: a copy of each chunk cost as much as the search.
    fn push_as_is(&mut self, chunk: &[u8], found: &mut dyn FnMut(u64) -> bool) {
        let kept = self.hay.len();
        let hay_start = self.offset - kept as u64;
        let head = chunk.len().min(self.needle.len() - 1);
        self.hay.extend_from_slice(&chunk[..head]);
        // Those starting in the chunk are found in it.
        let mut stopped = false;
        each_find(&self.searcher, &self.hay, &mut |i| {
            if i >= kept {
                return false;
            }
            stopped = !found(hay_start + i as u64);
            !stopped
        });
        self.hay.truncate(kept);
        if !stopped {
            let at = self.offset;
            each_find(&self.searcher, chunk, &mut |i| found(at + i as u64));
        }
        self.skip(chunk);
    }

    /// Goes past `chunk` (searched, or left), keeping the last bytes before its end.
    fn skip(&mut self, chunk: &[u8]) {
        self.offset += chunk.len() as u64;
        let keep = self.needle.len() - 1;
        if chunk.len() >= keep {
            self.hay.clear();
            self.hay.extend_from_slice(&chunk[chunk.len() - keep..]);
        } else {
            self.hay.extend_from_slice(chunk);
            self.keep_tail();
        }
    }

    /// Keeps the last `needle.len() - 1` bytes of `hay`: where a find across the next
    /// chunk's start begins.
    fn keep_tail(&mut self) {
        let keep = (self.needle.len() - 1).min(self.hay.len());
        let from = self.hay.len() - keep;
        self.hay.copy_within(from.., 0);
        self.hay.truncate(keep);
    }
}

/// Finds the game times whose lines hold a text (ASCII letters in any case), over a file
/// fed in chunks, with the index made from the same file.
pub struct Search<'i> {
    index: &'i Index,
    finder: Finder,
    found: Vec<Time>,
}

impl<'i> Search<'i> {
    pub fn new(index: &'i Index, needle: &str) -> Search<'i> {
        Search {
            index,
            finder: Finder::new(needle),
            found: Vec::new(),
        }
    }

    pub fn push(&mut self, chunk: &[u8]) {
        let (index, found) = (self.index, &mut self.found);
        self.finder.push(chunk, &mut |at| {
            if let Some(s) = index.span_at_offset(at) {
                if found.last() != Some(&s.time) {
                    found.push(s.time);
                }
            }
            true
        });
    }

    /// Every game time with the text, in file order, each once.
    pub fn finish(mut self) -> Vec<Time> {
        self.found.dedup();
        self.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(kind: FileKind, text: &[u8], chunk: usize) -> Index {
        let mut ix = Indexer::new(kind);
        for c in text.chunks(chunk.max(1)) {
            ix.push(c);
        }
        ix.finish()
    }

    const LOG: &[u8] =
        b"1,0 4 M a\n1,0 32 l 0 0 1 1\n1,1 4 M b\ncontinued\n2,0 -2147483648 M c\n\n3,0 4 M d";

    #[test]
    fn debug_log_spans_levels_and_any_chunking() {
        let whole = index(FileKind::DebugLog, LOG, LOG.len());
        let t = |c, s| Time {
            cycle: c,
            stopped: s,
        };
        let times: Vec<_> = whole.spans.iter().map(|s| s.time).collect();
        assert_eq!(times, vec![t(1, 0), t(1, 1), t(2, 0), t(3, 0)]);
        assert_eq!(whole.levels, 4 | 32 | 0x8000_0000);
        assert_eq!(whole.lines, 7);
        assert_eq!(whole.bad_lines, 0);
        let s = whole.at(t(1, 1)).next().unwrap();
        assert_eq!(
            &LOG[s.start as usize..s.end as usize],
            b"1,1 4 M b\ncontinued\n"
        );
        assert_eq!(s.first_line, 3);
        let last = whole.spans.last().unwrap();
        assert_eq!(&LOG[last.start as usize..last.end as usize], b"3,0 4 M d");
        for chunk in 1..LOG.len() {
            assert_eq!(
                index(FileKind::DebugLog, LOG, chunk),
                whole,
                "chunk {chunk}"
            );
        }
        assert_eq!(whole.range(), Some((t(1, 0), t(3, 0))));
        assert_eq!(whole.span_at_offset(0).unwrap().time, t(1, 0));
        assert_eq!(whole.span_at_offset(30).unwrap().time, t(1, 1));
    }

    #[test]
    fn a_clock_that_starts_over_is_still_found_by_time() {
        let log = b"0,0 4 M a\n0,1 4 M b\n0,2 4 M c\n0,0 4 M d\n1,0 4 M e\n";
        let ix = index(FileKind::DebugLog, log, 3);
        assert!(!ix.sorted);
        let t = |c, s| Time {
            cycle: c,
            stopped: s,
        };
        let at0: Vec<u64> = ix.at(t(0, 0)).map(|s| s.first_line).collect();
        assert_eq!(at0, vec![1, 4]);
        assert_eq!(ix.positions_at(t(0, 0)).collect::<Vec<_>>(), vec![0, 3]);
        assert_eq!(ix.at(t(0, 2)).count(), 1);
        assert_eq!(ix.at_or_before(t(0, 5)), Some(t(0, 2)));
        assert_eq!(ix.at_or_before(t(5, 0)), Some(t(1, 0)));
        assert_eq!(ix.range(), Some((t(0, 0), t(1, 0))));
        let sorted = index(FileKind::DebugLog, b"1,0 4 M a\n3,0 4 M b\n", 100);
        assert_eq!(sorted.at_or_before(t(2, 7)), Some(t(1, 0)));
        assert_eq!(sorted.at_or_before(t(0, 7)), None);
    }

    #[test]
    fn world_model_records_start_at_their_step_line() {
        let dcl = b"%% step 5\n%% debug [((debug (format-version 5)) (time 5,0) (b 1 2))]\n%% step 5\n%% debug [((debug (format-version 5)) (time 5,1) (b 1 2))]\n%% step 6\n%% debug [((debug (format-version 5)) (b 1 2))]\n";
        let ix = index(FileKind::WorldModel, dcl, 7);
        assert_eq!(ix.spans.len(), 3);
        assert_eq!(
            ix.spans[1].time,
            Time {
                cycle: 5,
                stopped: 1
            }
        );
        assert_eq!(ix.spans[1].first_line, 3);
        assert!(dcl[ix.spans[1].start as usize..]
            .starts_with(b"%% step 5\n%% debug [((debug (format-version 5)) (time 5,1)"));
        // No (time …): the step's cycle.
        assert_eq!(
            ix.spans[2].time,
            Time {
                cycle: 6,
                stopped: 0
            }
        );
    }

    #[test]
    fn overlong_and_timeless_lines_are_counted_and_skipped() {
        let mut text = b"1,0 4 M a\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        text.extend_from_slice(b"\n2,0 4 M b\n");
        let ix = index(FileKind::DebugLog, &text, 4096);
        assert_eq!(ix.spans.len(), 2);
        assert_eq!(ix.bad_lines, 1);
        let rcl = index(FileKind::Commands, b"junk\n1,0\tRecv A_1: (dash 10)\n", 3);
        assert_eq!(rcl.bad_lines, 1);
        assert_eq!(rcl.spans.len(), 1);
    }

    #[test]
    fn search_finds_times_across_chunk_edges() {
        let ix = index(FileKind::DebugLog, LOG, 5);
        for chunk in 1..LOG.len() {
            let mut s = Search::new(&ix, "CONT");
            for c in LOG.chunks(chunk) {
                s.push(c);
            }
            assert_eq!(
                s.finish(),
                vec![Time {
                    cycle: 1,
                    stopped: 1
                }],
                "chunk {chunk}"
            );
        }
        let mut s = Search::new(&ix, " m ");
        s.push(LOG);
        assert_eq!(s.finish().len(), 4);
    }

    /// Texts with letters (found in any case) and without (found as they are, in the chunk
    /// itself): every chunking of a real debug log finds the offsets one scan of it finds,
    /// finds across chunk edges and overlapping ones included, and stops when told.
    #[test]
    fn the_finder_finds_what_one_scan_finds_however_the_text_comes() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents/agents-100/agent-logs/HELIOS_A-7.log.gz");
        let (text, _) = crate::gz::inflate_all(&std::fs::read(path).unwrap(), None).unwrap();
        let text = &text[..text.len().min(200_000)];
        let lower = text.to_ascii_lowercase();
        for needle in ["0.000", "00", "-0.", ", ", "BALL rpos", "ball", "(u"] {
            let n = needle.to_ascii_lowercase();
            let want: Vec<u64> = (0..lower.len().saturating_sub(n.len() - 1))
                .filter(|&i| lower[i..].starts_with(n.as_bytes()))
                .map(|i| i as u64)
                .collect();
            assert!(want.len() > 3, "{needle:?}: {}", want.len());
            for chunk in [1, 2, 3, 7, 4096, 65_536, text.len()] {
                let mut f = Finder::new(needle);
                let mut got = Vec::new();
                for c in text.chunks(chunk) {
                    f.push(c, &mut |o| {
                        got.push(o);
                        true
                    });
                }
                let differ = got.iter().zip(&want).position(|(a, b)| a != b);
                assert!(
                    got.len() == want.len() && differ.is_none(),
                    "{needle:?} in chunks of {chunk}: {} finds against {}, first apart at {differ:?}: {:?} against {:?}",
                    got.len(),
                    want.len(),
                    differ.map(|k| &got[k.saturating_sub(2)..(k + 3).min(got.len())]),
                    differ.map(|k| &want[k.saturating_sub(2)..(k + 3).min(want.len())]),
                );
                assert_eq!(f.offset(), text.len() as u64);
                // Told to stop at the third find: the finds before it, and the next chunks
                // are searched again from their own start.
                let mut f = Finder::new(needle);
                let mut first = Vec::new();
                for c in text.chunks(chunk) {
                    let mut n = 0;
                    f.push(c, &mut |o| {
                        n += 1;
                        first.push(o);
                        n < 3
                    });
                }
                assert!(want.iter().take(3).all(|o| first.contains(o)), "{needle:?}");
            }
        }
    }
}
