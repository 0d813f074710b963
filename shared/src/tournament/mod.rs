//! Tournaments: groups ranked as RoboCup 2D organisers rank them.
//!
//! - [`standings`]: a group's table, ranked exactly as librcsc's `rclmtableprinter` ranks it.

pub mod standings;

pub use standings::{rank, read_result_lines, Result, Row, Table};
