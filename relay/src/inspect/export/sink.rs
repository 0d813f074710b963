//! A table's file, written through a buffer of rows.
//!
//! Exporting again over an old table is the usual case (a dataset made again after a
//! change), and truncating a file of several megabytes cost more than a quarter of a full
//! game's export: the kernel frees the old pages on the spot, and ext4 then writes the new
//! file back as soon as it is closed (its guard for files rewritten by truncation). So an
//! old file is renamed aside and the new one written as a fresh file; the old one is removed
//! when the new table is finished (unlinking costs well under a millisecond), and put back
//! if it never is: a failed export leaves the table that was there.

use super::error::ExportError;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes of rows gathered before they go to the file.
pub(super) const FLUSH_AT: usize = 1 << 18;

pub(super) struct Sink {
    path: PathBuf,
    file: std::io::BufWriter<std::fs::File>,
    /// Rows gathered as text before they go to the file.
    pub(super) rows: String,
    /// Where the table this one replaces was put, until this one is finished.
    aside: Option<PathBuf>,
    /// The file was made by this sink (not an old one written over), so it goes if the
    /// table is never finished.
    fresh: bool,
    finished: bool,
}

impl Sink {
    /// A new table at `path`; `rows` is empty until used (the tracking table from lines
    /// writes its rows as bytes, straight to the file's buffer).
    pub(super) fn create(path: PathBuf) -> Result<Sink, ExportError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| ExportError::Write {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let existed = std::fs::symlink_metadata(&path).is_ok();
        let aside = set_aside(&path);
        let file = match std::fs::File::create(&path) {
            Ok(f) => f,
            Err(source) => {
                if let Some((aside, _)) = aside {
                    let _ = std::fs::rename(aside, &path);
                }
                return Err(ExportError::Write { path, source });
            }
        };
        let aside = aside.map(|(aside, permissions)| {
            let _ = file.set_permissions(permissions);
            aside
        });
        Ok(Sink {
            path,
            file: std::io::BufWriter::with_capacity(64 << 10, file),
            rows: String::new(),
            fresh: aside.is_some() || !existed,
            aside,
            finished: false,
        })
    }

    /// Bytes straight to the file's buffer (rows written elsewhere as bytes).
    pub(super) fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), ExportError> {
        self.file
            .write_all(bytes)
            .map_err(|source| ExportError::Write {
                path: self.path.clone(),
                source,
            })
    }

    pub(super) fn flush_if_full(&mut self) -> Result<(), ExportError> {
        if self.rows.len() >= FLUSH_AT {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), ExportError> {
        let r = self.file.write_all(self.rows.as_bytes());
        self.rows.clear();
        r.map_err(|source| ExportError::Write {
            path: self.path.clone(),
            source,
        })
    }

    /// The table is complete: the old one it replaces is removed.
    pub(super) fn finish(mut self) -> Result<(), ExportError> {
        self.flush()?;
        self.file.flush().map_err(|source| ExportError::Write {
            path: self.path.clone(),
            source,
        })?;
        self.finished = true;
        if let Some(aside) = self.aside.take() {
            let _ = std::fs::remove_file(aside);
        }
        Ok(())
    }
}

impl Drop for Sink {
    /// A table never finished (the log was no log, or is exported another way, or writing
    /// failed) leaves what was there before: its own file goes, the old one comes back.
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        if self.fresh {
            let _ = std::fs::remove_file(&self.path);
        }
        if let Some(aside) = self.aside.take() {
            let _ = std::fs::rename(aside, &self.path);
        }
    }
}

/// Renames the regular file at `path`, if there is one, to a hidden name beside it, and
/// returns that name and the file's permissions (the new table gets them). Anything else is
/// left for `File::create` to open as before: no file, a link, a file with other names (hard
/// links see the new table), a read-only file (refused as before), a rename refused. A
/// process killed while it writes may leave the hidden file behind.
fn set_aside(path: &Path) -> Option<(PathBuf, std::fs::Permissions)> {
    static SET_ASIDE: AtomicUsize = AtomicUsize::new(0);
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.permissions().readonly() || other_names(&meta) {
        return None;
    }
    let name = path.file_name()?.to_string_lossy();
    let aside = path.with_file_name(format!(
        ".{name}.replaced-{}-{}",
        std::process::id(),
        SET_ASIDE.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::rename(path, &aside).ok()?;
    Some((aside, meta.permissions()))
}

#[cfg(unix)]
fn other_names(meta: &std::fs::Metadata) -> bool {
    std::os::unix::fs::MetadataExt::nlink(meta) > 1
}

#[cfg(not(unix))]
fn other_names(_: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_old_table_is_replaced_whole_or_kept_and_nothing_is_left_beside_it() {
        let dir = std::env::temp_dir().join(format!("pitchside-sink-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("m.tracking.csv");
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(&path, "old table, longer than the new one\n".repeat(1000)).expect("old");
        let mut sink = Sink::create(path.clone()).expect("sink");
        sink.rows.push_str("new\n");
        sink.finish().expect("written");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "new\n");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .expect("list")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names, [std::ffi::OsString::from("m.tracking.csv")]);
        // A table never finished leaves the old one, and no file where there was none.
        let before = std::fs::read(&path).expect("read");
        let mut sink = Sink::create(path.clone()).expect("sink");
        sink.rows.push_str("half a table\n");
        drop(sink);
        assert_eq!(std::fs::read(&path).expect("read"), before);
        let other = dir.join("new.csv");
        drop(Sink::create(other.clone()).expect("sink"));
        assert!(!other.exists());
        // A link is written through, as before, not replaced.
        #[cfg(unix)]
        {
            let link = dir.join("link.csv");
            std::os::unix::fs::symlink(&path, &link).expect("link");
            let mut sink = Sink::create(link.clone()).expect("sink");
            sink.rows.push_str("through\n");
            sink.finish().expect("written");
            assert!(std::fs::symlink_metadata(&link).expect("link").is_symlink());
            assert_eq!(std::fs::read_to_string(&path).expect("read"), "through\n");
        }
        // A table with another name (a hard link) is written through too, and its mode kept.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let other = dir.join("other.csv");
            std::fs::hard_link(&path, &other).expect("hard link");
            let mut sink = Sink::create(path.clone()).expect("sink");
            sink.rows.push_str("both\n");
            sink.finish().expect("written");
            assert_eq!(std::fs::read_to_string(&other).expect("read"), "both\n");
            std::fs::remove_file(&other).expect("unlink");
            std::fs::remove_file(dir.join("link.csv")).expect("unlink");
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).expect("mode");
            let mut sink = Sink::create(path.clone()).expect("sink");
            sink.rows.push_str("kept\n");
            sink.finish().expect("written");
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
