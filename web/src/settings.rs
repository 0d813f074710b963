//! The page's one set of user settings: what to draw, in which colours, how to play. Saved in
//! the browser's localStorage on every change, exportable and importable as JSON.
//!
//! Every part of the page that has options adds its own section struct here; each section and
//! each field has a serde default, so settings saved by an older page (or hand-written JSON
//! with only some keys) load with the rest at their defaults instead of being thrown away.

use serde::{Deserialize, Serialize};

/// localStorage key; the number changes only if a future layout cannot read this one.
const STORAGE_KEY: &str = "pitchside.settings.v1";

/// Version of the JSON layout, written into exports.
pub const SETTINGS_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub version: u32,
    pub colours: Colours,
    /// What the field draws (issue 12's section).
    pub field: FieldSettings,
    /// Speed and what happens when a log opens.
    pub playback: Playback,
    /// The timeline's event markers and the event and statistics panels.
    pub timeline: Timeline,
    /// Captions: their language, and whether the browser speaks them.
    pub captions: Captions,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            version: SETTINGS_VERSION,
            colours: Colours::default(),
            field: FieldSettings::default(),
            playback: Playback::default(),
            timeline: Timeline::default(),
            captions: Captions::default(),
        }
    }
}

/// Team colours, as CSS colour strings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Colours {
    pub left: String,
    pub left_goalie: String,
    pub right: String,
    pub right_goalie: String,
}

impl Default for Colours {
    /// Yellow against blue: the pair that protanopia and deuteranopia (the common colour
    /// blindnesses) keep apart, checked by simulation in the tests below.
    fn default() -> Self {
        Colours {
            left: "#f5d90a".into(),
            left_goalie: "#7cdf5a".into(),
            right: "#3aa0ff".into(),
            right_goalie: "#d070ff".into(),
        }
    }
}

impl Colours {
    /// From the Okabe–Ito palette, chosen so that all four stay apart from each other and
    /// from the grass under protanopia, deuteranopia and tritanopia alike: with the default
    /// colours, a viewer with deuteranopia sees the right goalie's purple as his team-mates'
    /// blue.
    pub fn colour_blind_safe() -> Colours {
        Colours {
            left: "#e69f00".into(),
            left_goalie: "#f0e442".into(),
            right: "#56b4e9".into(),
            right_goalie: "#cc79a7".into(),
        }
    }
}

/// Captions of the broadcast view (book, "Broadcast").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Captions {
    /// Show a line about what is going on under the field.
    pub show: bool,
    /// The language's code (`en`, `de`); an unknown one reads as English.
    pub lang: String,
    /// Read each line aloud with the browser's speech synthesis.
    pub speak: bool,
}

impl Default for Captions {
    fn default() -> Self {
        Captions {
            show: true,
            lang: "en".into(),
            speak: false,
        }
    }
}

// ---- The field's section: overlays, interpolation, colours of what is drawn on the pitch. ----

/// Whose view cones are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Cones {
    Off,
    #[default]
    Selected,
    All,
}

/// Whose trails are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Trails {
    #[default]
    Off,
    Ball,
    /// The ball and every player.
    All,
}

/// What the field draws. Defaults show what a team developer looks at most (view cone and
/// areas of the selected player, state highlights, ball path, offside lines) and leave the
/// busier overlays (every cone, trails, stamina figures, flags, grid) for the user to turn on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FieldSettings {
    /// Move players and ball smoothly between the 100 ms cycles.
    pub interpolate: bool,
    /// The 55 landmark flags players see (rcssserver's flag positions).
    pub flags: bool,
    /// A 10 m coordinate grid with its figures.
    pub grid: bool,
    pub view_cones: Cones,
    /// A bar under each player: stamina left of `stamina_max`.
    pub stamina: bool,
    /// Effort, recovery and stamina capacity figures next to each player.
    pub stamina_details: bool,
    /// The heterogeneous player type id next to each player.
    pub player_types: bool,
    /// Rings for the state bits (kick, tackle, catch, collisions, fouls, …).
    pub highlights: bool,
    /// Pointto arrows, focus points, attentionto lines.
    pub intentions: bool,
    pub ball_velocity: bool,
    /// Where the ball will roll if nobody touches it (ball decay from server_param).
    pub ball_path: bool,
    pub trails: Trails,
    /// Cycles of trail behind the ball and the players.
    pub trail_cycles: u32,
    pub offside_lines: bool,
    /// Kickable area, catchable area and tackle area of the selected player.
    pub areas: bool,
    pub ball_colour: String,
    /// Points, circles, lines and blank screens a program sent through protocols 1 and 2
    /// (v1/v2 logs, the relay's wire), see [`crate::scene::drawings`].
    pub server_drawings: bool,
    /// The top-down 2D field, or the match in 3D (a link's `view=3d` chooses too).
    pub picture: Picture,
    /// The 3D view's camera (a link's `cam=…` chooses too).
    pub camera3d: Camera3d,
}

/// Which picture of the match the field shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Picture {
    /// The top-down field, every overlay a team developer reads.
    #[default]
    #[serde(rename = "2d")]
    Flat,
    /// Figures on a pitch seen from a camera: for spectators and streams.
    #[serde(rename = "3d")]
    ThreeD,
}

impl Picture {
    /// The value in links: `view=2d`, `view=3d`.
    pub fn from_link(value: &str) -> Option<Picture> {
        match value {
            "2d" => Some(Picture::Flat),
            "3d" => Some(Picture::ThreeD),
            _ => None,
        }
    }
}

/// The 3D view's camera, by the names links use (`cam=broadcast`).
pub use pitchside_scene3d::CameraKind as Camera3d;

impl Default for FieldSettings {
    fn default() -> Self {
        FieldSettings {
            interpolate: true,
            flags: false,
            grid: false,
            view_cones: Cones::Selected,
            stamina: true,
            stamina_details: false,
            player_types: false,
            highlights: true,
            intentions: true,
            ball_velocity: true,
            ball_path: true,
            trails: Trails::Off,
            trail_cycles: 20,
            offside_lines: true,
            areas: true,
            ball_colour: "#ffffff".into(),
            server_drawings: true,
            picture: Picture::Flat,
            camera3d: Camera3d::Broadcast,
        }
    }
}

/// How matches play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Playback {
    /// Multiple of the server's pace, one of [`crate::timeline::SPEEDS`].
    pub speed: f64,
    /// Start playing as soon as a log's first frames are read (a link to a cycle always opens
    /// paused there).
    pub autoplay: bool,
}

impl Default for Playback {
    fn default() -> Self {
        Playback {
            speed: 1.0,
            autoplay: true,
        }
    }
}

impl FieldSettings {
    /// What a stream shows: players, ball and the state rings (a kick, a tackle, a catch),
    /// none of the figures and lines a team developer reads (stamina bars, the ball's path and
    /// speed, intentions, offside lines, areas) that a viewer would take for part of the game.
    pub fn broadcast() -> Self {
        FieldSettings {
            view_cones: Cones::Off,
            stamina: false,
            stamina_details: false,
            player_types: false,
            intentions: false,
            ball_velocity: false,
            ball_path: false,
            trails: Trails::Off,
            offside_lines: false,
            areas: false,
            ..FieldSettings::default()
        }
    }

    /// Every overlay on: for the screenshots and the draw-cost benchmark.
    pub fn everything() -> Self {
        FieldSettings {
            flags: true,
            grid: true,
            view_cones: Cones::All,
            stamina_details: true,
            player_types: true,
            trails: Trails::All,
            ..FieldSettings::default()
        }
    }
}

impl Playback {
    /// The speed preset nearest to the saved speed (hand-edited JSON may say anything).
    pub fn preset(&self) -> usize {
        use crate::timeline::SPEEDS;
        let mut best = crate::timeline::NORMAL_SPEED;
        for (i, s) in SPEEDS.iter().enumerate() {
            if (s.log2() - self.speed.log2()).abs()
                < (SPEEDS[best].log2() - self.speed.log2()).abs()
            {
                best = i;
            }
        }
        best
    }
}

/// What the timeline and the panels beside it show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Timeline {
    /// Event markers on the timeline.
    pub markers: bool,
    /// Event kinds (their ids, e.g. `free_kick`) whose markers and list entries are hidden.
    pub hidden_kinds: Vec<String>,
    /// The list of events beside the field.
    pub events_panel: bool,
    /// The statistics panel.
    pub stats_panel: bool,
    /// The analysis panel (each player's actions).
    pub analysis_panel: bool,
}

/// The panels beside the field, each opened and closed by a button over the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    Events,
    Stats,
    Analysis,
}

impl Timeline {
    pub fn is_open(&self, panel: Panel) -> bool {
        [self.events_panel, self.stats_panel, self.analysis_panel][panel as usize]
    }

    /// Whether `panel` is open, to change.
    pub fn panel(&mut self, panel: Panel) -> &mut bool {
        match panel {
            Panel::Events => &mut self.events_panel,
            Panel::Stats => &mut self.stats_panel,
            Panel::Analysis => &mut self.analysis_panel,
        }
    }
}

impl Default for Timeline {
    fn default() -> Self {
        Timeline {
            markers: true,
            // Tackles are many; a user who wants them on the timeline ticks them.
            hidden_kinds: vec!["tackle".into()],
            events_panel: true,
            stats_panel: false,
            analysis_panel: false,
        }
    }
}

impl Settings {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads settings from JSON; unknown keys are ignored, missing ones take their defaults.
    pub fn from_json(text: &str) -> Result<Settings, String> {
        let mut s: Settings = serde_json::from_str(text)
            .map_err(|e| format!("these are not pitchside settings: {e}"))?;
        s.version = SETTINGS_VERSION;
        s.playback.speed = crate::timeline::speed_at(s.playback.preset());
        Ok(s)
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The saved settings, or the defaults when none are saved or they cannot be read.
pub fn load() -> Settings {
    storage()
        .and_then(|s| s.get_item(STORAGE_KEY).ok()?)
        .and_then(|text| Settings::from_json(&text).ok())
        .unwrap_or_default()
}

pub fn save(settings: &Settings) {
    if let Some(s) = storage() {
        let _ = s.set_item(STORAGE_KEY, &settings.to_json());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_json_keeps_defaults_for_what_it_leaves_out() {
        let s = Settings::from_json(r##"{"colours":{"left":"red"},"unknown":1}"##).unwrap();
        assert_eq!(s.colours.left, "red");
        assert_eq!(s.colours.right, Colours::default().right);
        assert_eq!(Settings::from_json(&s.to_json()).unwrap(), s);
        assert!(Settings::from_json("[1,2]").is_err());
    }

    #[test]
    fn field_section_reads_partially_and_round_trips() {
        let s = Settings::from_json(r#"{"field":{"view_cones":"all","trail_cycles":5}}"#).unwrap();
        assert_eq!(s.field.view_cones, Cones::All);
        assert_eq!(s.field.trail_cycles, 5);
        assert!(s.field.interpolate, "left out: default");
        let all = Settings {
            field: FieldSettings::everything(),
            ..Settings::default()
        };
        assert_eq!(Settings::from_json(&all.to_json()).unwrap(), all);
    }

    #[test]
    fn the_picture_and_3d_camera_read_as_links_and_saved_settings_name_them() {
        // Older saved settings have neither: the 2D field and the broadcast camera.
        let s = Settings::from_json(r#"{"field":{"grid":true}}"#).unwrap();
        assert_eq!(
            (s.field.picture, s.field.camera3d),
            (Picture::Flat, Camera3d::Broadcast)
        );
        let s = Settings::from_json(r#"{"field":{"picture":"3d","camera3d":"goal"}}"#).unwrap();
        assert_eq!(
            (s.field.picture, s.field.camera3d),
            (Picture::ThreeD, Camera3d::Goal)
        );
        assert_eq!(Settings::from_json(&s.to_json()).unwrap(), s);
        assert_eq!(Picture::from_link("3d"), Some(Picture::ThreeD));
        assert_eq!(Picture::from_link("2d"), Some(Picture::Flat));
        assert_eq!(Picture::from_link("4d"), None);
        for c in [
            Camera3d::Broadcast,
            Camera3d::Top,
            Camera3d::Goal,
            Camera3d::Follow,
            Camera3d::Free,
        ] {
            assert_eq!(Camera3d::from_name(c.name()), Some(c));
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(json.trim_matches('"'), c.name());
        }
        assert_eq!(Camera3d::from_name("drone"), None);
    }

    #[test]
    fn a_saved_speed_snaps_to_a_preset() {
        let speed = |json: &str| Settings::from_json(json).unwrap().playback.speed;
        assert_eq!(speed(r#"{"playback":{"speed":4}}"#), 4.0);
        assert_eq!(speed(r#"{"playback":{"speed":3.1}}"#), 4.0);
        assert_eq!(speed(r#"{"playback":{"speed":0.01}}"#), 0.25);
        assert_eq!(speed(r#"{"playback":{"speed":-1}}"#), 1.0);
        assert_eq!(speed(r#"{"playback":{"speed":1e9}}"#), 16.0);
        assert!(
            Settings::from_json(r#"{"playback":{"autoplay":false}}"#)
                .unwrap()
                .playback
                .speed
                == 1.0
        );
    }

    #[test]
    fn team_colours_stay_apart_for_colour_blind_viewers() {
        // The simulation and the distance are the library's (pitchside_analysis::colour), the
        // same check the relay's choice of kits makes.
        use pitchside_analysis::colour::{delta_e, Rgb, Vision, GRASS};
        use pitchside_analysis::colour::{DEUTERANOPIA, NORMAL, PROTANOPIA, TRITANOPIA};
        let rgba = |s: &str| Rgb::parse(s).expect("a colour");
        // The simulation itself: red and green, far apart for normal vision, nearly merge
        // under deuteranopia; blue and yellow do not.
        let (red, green) = (rgba("#d62728"), rgba("#2ca02c"));
        assert!(delta_e(red, green, &NORMAL) > 60.0);
        assert!(delta_e(red, green, &DEUTERANOPIA) < 30.0);

        let min_gap = |c: &Colours, vision: &Vision| {
            let all = [&c.left, &c.left_goalie, &c.right, &c.right_goalie].map(|s| rgba(s));
            let mut gap = f64::MAX;
            for i in 0..4 {
                gap = gap.min(delta_e(all[i], GRASS, vision));
                for j in i + 1..4 {
                    gap = gap.min(delta_e(all[i], all[j], vision));
                }
            }
            gap
        };
        let d = Colours::default();
        let team_gap =
            |c: &Colours, vision: &Vision| delta_e(rgba(&c.left), rgba(&c.right), vision);
        for (name, vision) in [("protanopia", &PROTANOPIA), ("deuteranopia", &DEUTERANOPIA)] {
            assert!(
                team_gap(&d, vision) > 40.0,
                "{name}: the default teams {}",
                team_gap(&d, vision)
            );
            for c in [&d.left, &d.right] {
                let e = delta_e(rgba(c), GRASS, vision);
                assert!(e > 20.0, "{name}: {c} on the grass: {e}");
            }
        }
        // The safe palette: the teams far apart for every viewer, and no colour (goalies
        // included) near another or near the grass.
        // Why the safe palette exists: the default right goalie and his team merge.
        assert!(delta_e(rgba(&d.right_goalie), rgba(&d.right), &DEUTERANOPIA) < 10.0);
        let safe = Colours::colour_blind_safe();
        for (name, vision) in [
            ("normal vision", &NORMAL),
            ("protanopia", &PROTANOPIA),
            ("deuteranopia", &DEUTERANOPIA),
            ("tritanopia", &TRITANOPIA),
        ] {
            let teams = team_gap(&safe, vision);
            assert!(teams > 40.0, "{name}: the safe palette's teams: {teams}");
            let gap = min_gap(&safe, vision);
            assert!(gap > 15.0, "{name}: the safe palette's closest pair: {gap}");
        }
    }
}
