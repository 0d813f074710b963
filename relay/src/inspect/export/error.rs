//! What can go wrong while exporting a log: reading it, writing a table, the log itself.

use rcss_formats::LogError;
use std::path::PathBuf;

/// Why one log (or one table) was not exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {error}")]
    Log { path: PathBuf, error: LogError },
    #[error(transparent)]
    Parquet(#[from] crate::inspect::parquet::ParquetExportError),
    /// Two logs whose tables would have one name (`a/x/g.rcg` and `b/x/g.rcg`, or `g.rcg`
    /// and `g.rcg.gz`): the first in order is exported, not this one.
    #[error("{path}: not exported, its tables would overwrite those of {other} (the same name below the folders given)")]
    SameName { path: PathBuf, other: PathBuf },
}
