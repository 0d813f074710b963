//! The page's panels, one component per file. Each reads the [`crate::state::Monitor`] from
//! the context the [`crate::App`] provides.

pub mod canvas;
pub mod lobby;
pub mod operator;
pub mod scorebar;
pub mod settings;
pub mod status;
pub mod transport;
