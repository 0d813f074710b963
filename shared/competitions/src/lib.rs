//! Many matches as one result: a team's series of games (its record, goal difference and
//! intervals, two series compared A/B) and tournaments (schedules, fixtures, group standings
//! ranked as librcsc's `rclmtableprinter` ranks them, knockout brackets, progress); and the
//! plan of a batch of games still to be played (fields, ports, sides, server options).
//!
//! Each match comes in already read ([`rcss_formats`]) and summed up
//! ([`pitchside_analysis`]); this crate only combines them. It must not do IO: the relay and
//! the inspector read the folders and hand the logs over, so both give the same answer.

pub mod batch;
pub mod series;
pub mod tournament;
