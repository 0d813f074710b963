//! What a stream shows besides the field, from the frames alone so that the relay (the
//! captions feed), the page (the broadcast view) and a log opened with no relay agree:
//!
//! - [`clock`]: the match clock as a viewer of football reads it (minutes of a 90-minute
//!   match, added time, the period);
//! - [`moments`]: goals (scorer and assist), cards, penalties, half time and full time, for
//!   lower-thirds;
//! - [`captions`]: short lines in words, in several languages, paced for a viewer;
//! - [`highlights`]: a goal's build-up and the best chances, as ranges of frames.
//!
//! Everything is a pure function of [`crate::actions::Actions`] and the frames, computed again
//! as a live match grows: a line or a clip may change while the play it describes is still
//! going on (a shot becomes a goal), never afterwards.

pub mod captions;
pub mod clock;
pub mod highlights;
pub mod moments;
