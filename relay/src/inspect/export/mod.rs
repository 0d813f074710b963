//! `pitchside-inspect export`: logs as tables for datasets, a log, a folder of them or an
//! archive's worth: for each, its tracking table and beside it the player types its `_t`
//! columns name (both as librcsc's `rcg2csv` writes them), and its actions table
//! ([`pitchside_analysis::export`]), as CSV, and with `--parquet` as Parquet too.
//!
//! Every core reads its own log, one at a time, streaming it chunk by chunk and writing the
//! rows as the frames come, so memory stays the same however many logs there are (a log's
//! actions wait for its end: a few hundred KB). With a split, matches go to `train/`,
//! `validation/` and `test/` in the given shares, by a seeded shuffle of their names, so the
//! same logs and seed always make the same split.

mod error;
mod lines;
mod sink;

pub use error::ExportError;
use sink::FLUSH_AT;

use sink::Sink;

use pitchside_analysis::actions::Actions;
use pitchside_analysis::export::{
    action_row, tracking_header, PlayerTypes, Tracking, ACTIONS_HEADER, PLAYER_TYPES_HEADER,
};
use rcss_formats::log::{Detail, Ending};
use rcss_formats::params::MatchParams;
use rcss_formats::{LogDecoder, LogError, Params, Record};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// What to write.
#[derive(Clone, Debug)]
pub struct Options {
    pub tracking: bool,
    pub actions: bool,
    pub out: PathBuf,
    /// Shares of train, validation and test (they need not add up to 1: they are scaled).
    pub split: Option<[f64; 3]>,
    pub seed: u64,
    /// Logs read at once; 0 for one per core.
    pub jobs: usize,
    /// Each table also as Parquet ([`crate::inspect::parquet`]).
    pub parquet: bool,
}

/// One log exported: where from, where to, how many rows, and how it ended.
#[derive(Clone, Debug)]
pub struct Exported {
    pub input: PathBuf,
    pub set: Option<&'static str>,
    pub shows: u64,
    /// Rows of the player types table (written with the tracking table).
    pub player_types: usize,
    pub actions: usize,
    pub ending: Ending,
}

/// Every `.rcg` / `.rcg.gz` among `paths` (folders searched below, links not followed), with
/// the name each is written under (its path below the folder it was found in, without the
/// `.rcg`/`.rcg.gz`).
pub fn logs_in(paths: &[PathBuf]) -> Vec<(PathBuf, PathBuf)> {
    fn walk(root: &Path, dir: &Path, depth: usize, out: &mut Vec<(PathBuf, PathBuf)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let Ok(t) = e.file_type() else { continue };
            if t.is_dir() && depth < 16 {
                walk(root, &p, depth + 1, out);
            } else if t.is_file() && is_log_name(&p) {
                let rel = p.strip_prefix(root).unwrap_or(&p).to_path_buf();
                out.push((p, stem(&rel)));
            }
        }
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, p, 0, &mut out);
        } else {
            let name = p.file_name().map(PathBuf::from).unwrap_or_default();
            out.push((p.clone(), stem(&name)));
        }
    }
    out.sort();
    out
}

fn is_log_name(p: &Path) -> bool {
    let n = p.to_string_lossy();
    n.ends_with(".rcg") || n.ends_with(".rcg.gz")
}

/// `dir/x.rcg.gz` → `dir/x`.
fn stem(rel: &Path) -> PathBuf {
    let s = rel.to_string_lossy();
    let s = s.strip_suffix(".gz").unwrap_or(&s);
    let s = s.strip_suffix(".rcg").unwrap_or(s);
    PathBuf::from(s)
}

/// The set of each log: a seeded shuffle of the names, cut in the given shares.
pub fn split(names: &[PathBuf], shares: [f64; 3], seed: u64) -> Vec<&'static str> {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|a, b| names[*a].cmp(&names[*b]));
    // Fisher-Yates with splitmix64: the same names and seed give the same split anywhere.
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    for i in (1..order.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    let total: f64 = shares
        .iter()
        .map(|s| s.max(0.0))
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    let n = names.len() as f64;
    let train = (shares[0].max(0.0) / total * n).round() as usize;
    let validation = (shares[1].max(0.0) / total * n).round() as usize;
    let mut sets = vec!["test"; names.len()];
    for (k, &i) in order.iter().enumerate() {
        sets[i] = if k < train {
            "train"
        } else if k < train + validation {
            "validation"
        } else {
            "test"
        };
    }
    sets
}

/// Exports every log of `paths`; the logs that failed are reported, not fatal.
pub fn export(paths: &[PathBuf], opts: &Options) -> (Vec<Exported>, Vec<ExportError>) {
    let logs = logs_in(paths);
    let sets = opts.split.map(|s| {
        let names: Vec<PathBuf> = logs.iter().map(|(_, n)| n.clone()).collect();
        split(&names, s, opts.seed)
    });
    let jobs = if opts.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        opts.jobs
    }
    .min(logs.len().max(1));
    // Fewer logs than cores: each log's rows are written on a core of their own.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let two_threads = 2 * jobs <= cores;
    // Two logs with one name would write the same files: the first keeps it.
    let mut first_of: std::collections::HashMap<&Path, &Path> = std::collections::HashMap::new();
    let mut same_name = Vec::new();
    let skip: Vec<bool> = logs
        .iter()
        .map(|(input, name)| match first_of.get(name.as_path()) {
            Some(other) => {
                same_name.push(ExportError::SameName {
                    path: input.clone(),
                    other: other.to_path_buf(),
                });
                true
            }
            None => {
                first_of.insert(name, input);
                false
            }
        })
        .collect();
    let next = AtomicUsize::new(0);
    // What outlives a log is allocated here, not on the threads writing the logs: a small
    // block left behind by each log among the freed buffers of the next fragmented their
    // memory, which crept up log by log (36 MB over 1,000 full games).
    let done = Mutex::new(Vec::with_capacity(logs.len()));
    let failed = Mutex::new(same_name);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((input, name)) = logs.get(i) else {
                    return;
                };
                if skip[i] {
                    continue;
                }
                let set = sets.as_ref().map(|s| s[i]);
                let dir = match set {
                    Some(set) => opts.out.join(set),
                    None => opts.out.clone(),
                };
                match export_log(input, &dir.join(name), opts, two_threads) {
                    Ok(mut e) => {
                        e.set = set;
                        // The path again below, from the list.
                        e.input = PathBuf::new();
                        if let Ok(mut d) = done.lock() {
                            d.push((i, e));
                        }
                    }
                    Err(e) => {
                        if let Ok(mut f) = failed.lock() {
                            f.push(e);
                        }
                    }
                }
            });
        }
    });
    let mut done: Vec<Exported> = done
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(|(i, mut e)| {
            e.input = logs[i].0.clone();
            e
        })
        .collect();
    done.sort_by(|a, b| a.input.cmp(&b.input));
    (done, failed.into_inner().unwrap_or_default())
}

/// Exports one log to `base.tracking.csv` (with `base.player_types.csv`) and
/// `base.actions.csv`, decoding on this thread and writing rows on a second one when a core
/// is spare ([`export`] knows; called directly, always).
pub fn export_one(input: &Path, base: &Path, opts: &Options) -> Result<Exported, ExportError> {
    export_log(input, base, opts, true)
}

/// Records batches a decoding thread may run ahead of the writing one: enough to keep both
/// busy, little enough that memory stays that of one log's chunk or two.
const AHEAD: usize = 1;

fn export_log(
    input: &Path,
    base: &Path,
    opts: &Options,
    two_threads: bool,
) -> Result<Exported, ExportError> {
    let mut file = std::fs::File::open(input).map_err(|source| ExportError::Read {
        path: input.to_path_buf(),
        source,
    })?;
    let with_ext = |ext: &str| {
        let mut s = base.as_os_str().to_owned();
        s.push(ext);
        PathBuf::from(s)
    };
    // The tracking table alone, of a text log in the plain form: straight from its lines.
    if opts.tracking && !opts.actions {
        if let Some(done) =
            lines::tracking_from_lines(input, with_ext(".tracking.csv"), two_threads)?
        {
            if opts.parquet {
                crate::inspect::parquet::csv_to_parquet(
                    &with_ext(".tracking.csv"),
                    &with_ext(".tracking.parquet"),
                )?;
            }
            write_player_types(&with_ext, &done.player_types, opts.parquet)?;
            return Ok(Exported {
                input: input.to_path_buf(),
                set: None,
                shows: done.shows,
                player_types: done.player_type_rows,
                actions: 0,
                ending: Ending::of(&done.end, None),
            });
        }
    }
    let tracking = if opts.tracking {
        let mut sink = Sink::create(with_ext(".tracking.csv"))?;
        sink.rows.reserve(FLUSH_AT + 4096);
        tracking_header(&mut sink.rows);
        Some((sink, Tracking::new()))
    } else {
        None
    };
    let mut rows = Rows {
        tracking,
        types: opts.tracking.then(|| (String::new(), PlayerTypes::new())),
        actions: None,
        server_param: None,
        player_types: Vec::new(),
        end: rcss_formats::log::LogEnd::default(),
        shows: 0,
        teams: [String::new(), String::new()],
        want_actions: opts.actions,
    };
    // The decoder splits the work evenly with the rows: the text of a show (its numbers
    // parsed) on one core, the same numbers printed again on the other.
    let error = if two_threads {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Record>>(AHEAD);
        let (decoded, written) = std::thread::scope(|s| {
            let writer = s.spawn(move || -> Result<Rows, ExportError> {
                for mut batch in rx {
                    rows.take(&mut batch)?;
                }
                Ok(rows)
            });
            let decoded = decode(&mut file, input, |records| {
                tx.send(std::mem::take(records)).is_ok()
            });
            drop(tx);
            (decoded, writer.join())
        });
        // The writer's own failure says more than the decoder's stop it caused.
        rows = match written {
            Ok(r) => r?,
            Err(_) => {
                return Err(ExportError::Write {
                    path: base.to_path_buf(),
                    source: std::io::Error::other("the thread writing the rows stopped"),
                })
            }
        };
        decoded?
    } else {
        let mut failed = None;
        let decoded = decode(&mut file, input, |records| match rows.take(records) {
            Ok(()) => true,
            Err(e) => {
                failed = Some(e);
                false
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        decoded?
    };
    if rows.shows == 0 {
        if let Some(e) = error {
            return Err(ExportError::Log {
                path: input.to_path_buf(),
                error: e,
            });
        }
    }
    if let Some((sink, _)) = rows.tracking.take() {
        sink.finish()?;
        if opts.parquet {
            crate::inspect::parquet::csv_to_parquet(
                &with_ext(".tracking.csv"),
                &with_ext(".tracking.parquet"),
            )?;
        }
    }
    let mut n_types = 0;
    if let Some((text, t)) = rows.types.take() {
        write_player_types(&with_ext, &text, opts.parquet)?;
        n_types = t.rows();
    }
    let mut n_actions = 0;
    if opts.actions {
        let mut sink = Sink::create(with_ext(".actions.csv"))?;
        sink.rows.reserve(FLUSH_AT + 4096);
        sink.rows.push_str(ACTIONS_HEADER);
        if let Some(a) = &rows.actions {
            let mut list = a.actions().to_vec();
            list.sort_by_key(|a| (a.frame, a.end_frame));
            n_actions = list.len();
            let names = [rows.teams[0].as_str(), rows.teams[1].as_str()];
            for x in &list {
                action_row(x, names, &mut sink.rows);
                sink.flush_if_full()?;
            }
        }
        sink.finish()?;
        if opts.parquet {
            crate::inspect::parquet::csv_to_parquet(
                &with_ext(".actions.csv"),
                &with_ext(".actions.parquet"),
            )?;
        }
    }
    Ok(Exported {
        input: input.to_path_buf(),
        set: None,
        shows: rows.shows,
        player_types: n_types,
        actions: n_actions,
        ending: Ending::of(&rows.end, error.as_ref()),
    })
}

/// Writes `base.player_types.csv` (and `.parquet`): `table` as [`PlayerTypes`] wrote it,
/// empty for a log without types, as `rcg2csv` leaves it.
fn write_player_types(
    with_ext: &dyn Fn(&str) -> PathBuf,
    table: &str,
    parquet: bool,
) -> Result<(), ExportError> {
    let csv = with_ext(".player_types.csv");
    let mut sink = Sink::create(csv.clone())?;
    sink.rows.push_str(table);
    sink.finish()?;
    if parquet {
        crate::inspect::parquet::table_to_parquet(
            &csv,
            &with_ext(".player_types.parquet"),
            Some(PLAYER_TYPES_HEADER),
        )?;
    }
    Ok(())
}

/// Reads and decodes the log, handing each batch of records to `emit` (false: stop). The
/// log's damage, if any, is returned, not an error: what came before it is exported.
fn decode(
    file: &mut std::fs::File,
    input: &Path,
    mut emit: impl FnMut(&mut Vec<Record>) -> bool,
) -> Result<Option<LogError>, ExportError> {
    let mut decoder = LogDecoder::new();
    decoder.set_detail(Detail::Full);
    let mut records: Vec<Record> = Vec::new();
    let mut buf = vec![0u8; crate::inspect::CHUNK];
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(source) => {
                return Err(ExportError::Read {
                    path: input.to_path_buf(),
                    source,
                })
            }
        };
        let res = decoder.feed(&buf[..n], &mut records);
        if !emit(&mut records) {
            return Ok(None);
        }
        if let Err(e) = res {
            return Ok(Some(e));
        }
    }
    let res = decoder.finish(&mut records);
    emit(&mut records);
    Ok(res.err())
}

/// What the rows are made from, as records arrive.
struct Rows {
    tracking: Option<(Sink, Tracking)>,
    /// The player types table, with the tracking table: a few rows, kept until the end.
    types: Option<(String, PlayerTypes)>,
    actions: Option<Actions>,
    server_param: Option<Params>,
    player_types: Vec<Params>,
    end: rcss_formats::log::LogEnd,
    shows: u64,
    teams: [String; 2],
    want_actions: bool,
}

impl Rows {
    fn take(&mut self, records: &mut Vec<Record>) -> Result<(), ExportError> {
        for r in records.drain(..) {
            self.end.push(&r);
            match r {
                Record::ServerParam(p) => self.server_param = Some(p),
                Record::PlayerType(p) => {
                    if let Some((text, t)) = self.types.as_mut() {
                        t.row(&p, text);
                    }
                    if self.player_types.len() < 256 {
                        self.player_types.push(p)
                    }
                }
                Record::Show(f) => {
                    self.shows += 1;
                    if let Some((sink, t)) = self.tracking.as_mut() {
                        t.row(&f, &mut sink.rows);
                        sink.flush_if_full()?;
                    }
                    for (name, t) in self.teams.iter_mut().zip(&f.teams) {
                        if let Some(n) = &t.name {
                            if name != n {
                                *name = n.clone();
                            }
                        }
                    }
                    if self.want_actions {
                        let (sp, pt) = (&self.server_param, &self.player_types);
                        self.actions
                            .get_or_insert_with(|| Actions::new(MatchParams::new(sp.as_ref(), pt)))
                            .push(&f);
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_is_seeded_by_name_and_keeps_its_shares() {
        let names: Vec<PathBuf> = (0..100)
            .map(|i| PathBuf::from(format!("m{i:03}")))
            .collect();
        let a = split(&names, [0.8, 0.1, 0.1], 7);
        let count = |set| a.iter().filter(|s| **s == set).count();
        assert_eq!(
            (count("train"), count("validation"), count("test")),
            (80, 10, 10)
        );
        // The same names in another order, the same seed: the same sets.
        let mut shuffled = names.clone();
        shuffled.reverse();
        let b = split(&shuffled, [0.8, 0.1, 0.1], 7);
        for (i, n) in shuffled.iter().enumerate() {
            let j = names.iter().position(|m| m == n).unwrap_or(usize::MAX);
            assert_eq!(b[i], a[j], "{n:?}");
        }
        // Another seed, another split.
        assert_ne!(split(&names, [0.8, 0.1, 0.1], 8), a);
    }
}
