//! The files around the log tools of `pitchside-inspect` (`validate`, `reverse`, `rename`,
//! `convert`, `clip`): the tools themselves are pure functions of the shared library
//! ([`rcss_formats::tools`]); this reads the source chunk by chunk and writes the output
//! as it comes, gzipped when its name ends in `.gz`, so memory stays flat for any size.

use rcss_formats::tools::validate::{Streaming, Validation};
use rcss_formats::tools::{Edits, Rewriter, Rewritten};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Validates the log at `path`.
pub fn validate_file(path: &Path) -> std::io::Result<Validation> {
    let file = std::fs::File::open(path)?;
    let mut s = Streaming::new();
    let take = |bytes: &[u8]| {
        s.feed(bytes);
        Ok(true)
    };
    super::chunks::read_chunks(file, take, |e| e)?;
    Ok(s.finish())
}

/// Why a rewrite wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum RewriteError {
    /// Reading the source failed (the caller names it).
    #[error("{0}")]
    Read(std::io::Error),
    /// Writing the output failed.
    #[error("{path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the output is the input file")]
    SameFile,
}

/// Rewrites the log at `input` into `output` with `edits`. The output is written next to
/// its place and moved there when complete, so a failed run leaves no half file under its
/// name, and a run that wrote no show (a clip of cycles the log does not have, a source
/// that is no log) leaves a file already there as it was.
pub fn rewrite_file(input: &Path, output: &Path, edits: Edits) -> Result<Rewritten, RewriteError> {
    if let (Ok(a), Ok(b)) = (input.canonicalize(), output.canonicalize()) {
        if a == b {
            return Err(RewriteError::SameFile);
        }
    }
    let mut file = std::fs::File::open(input).map_err(RewriteError::Read)?;
    let name = output
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let write_error = |source| RewriteError::Write {
        path: output.to_path_buf(),
        source,
    };
    let partial = output.with_file_name(format!(".{name}.partial"));
    let sink = std::io::BufWriter::new(std::fs::File::create(&partial).map_err(write_error)?);
    let mut sink: Box<dyn Write> = if name.ends_with(".gz") {
        Box::new(flate2::write::GzEncoder::new(
            sink,
            flate2::Compression::default(),
        ))
    } else {
        Box::new(sink)
    };
    let result = (|| -> Result<Rewritten, RewriteError> {
        let mut r = Rewriter::new(edits);
        let take = |bytes: &[u8]| {
            sink.write_all(&r.feed(bytes)).map_err(write_error)?;
            Ok(!r.done())
        };
        super::chunks::read_chunks(&mut file, take, RewriteError::Read)?;
        let (rest, done) = r.finish();
        sink.write_all(&rest).map_err(write_error)?;
        sink.flush().map_err(write_error)?;
        drop(sink);
        Ok(done)
    })();
    match result {
        Ok(done) if done.shows > 0 => {
            std::fs::rename(&partial, output).map_err(write_error)?;
            Ok(done)
        }
        other => {
            let _ = std::fs::remove_file(&partial);
            other
        }
    }
}
