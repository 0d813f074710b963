//! Tournaments: groups ranked as RoboCup 2D organisers rank them, fixtures, knockout ties.
//!
//! - [`plan`]: the tournament file's contents (groups, fixtures, ties), and its checks.
//! - [`schedule`]: a group's round-robin schedule over several fields.
//! - [`standings`]: a group's table, ranked exactly as librcsc's `rclmtableprinter` ranks it.
//! - [`progress`]: played and live games given to their fixtures; the whole state.
//! - [`next`]: the games a runner with several fields plays next.

pub mod next;
pub mod plan;
pub mod progress;
pub mod schedule;
pub mod standings;

pub use plan::{Plan, PlanError};
pub use progress::{progress, Live, Played, Progress};
pub use standings::{rank, read_result_lines, Result, Row, Table};
