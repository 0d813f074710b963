//! The page's panels, one component per file. Each reads the [`crate::state::Monitor`] from
//! the context the [`crate::App`] provides.

pub mod agent;
pub mod analysis;
pub mod announce;
pub mod archive;
pub mod broadcast;
pub mod canvas;
pub mod dialog;
pub mod drawn;
pub mod embed;
pub mod events;
pub mod export;
pub mod field_settings;
pub mod help;
pub mod inputs;
pub mod lobby;
pub mod markers;
pub mod messages;
pub mod open;
pub mod operator;
pub mod panel;
pub mod player;
pub mod runs;
pub mod save_as;
pub mod scorebar;
pub mod series;
pub mod settings;
pub mod stage3d;
pub mod stats;
pub mod status;
pub mod time_settings;
pub mod tournament;
pub mod transport;
