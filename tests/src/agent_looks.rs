//! What a team developer sees in the Agents panel while following a live match: one "look" is
//! the panel read at an instant, as a glance would read it. The live-stream browser test and
//! the `agents-looks` bench (against real agents) count how many looks show every agent's
//! latest lines.

use crate::browser::Browser;
use serde::Deserialize;

/// The panel at one instant.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Look {
    /// The cycle on screen (the score bar's clock), as shown.
    pub cycle: String,
    /// The page follows the live match (its live badge is not "behind").
    pub live: bool,
    /// Each line of the panel: who wrote it (`TEAM UNUM`), and the cycle it is of when that
    /// is not the one on screen.
    pub lines: Vec<Line>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Line {
    pub who: String,
    pub earlier: Option<String>,
}

impl Look {
    /// The agents that have a line in this look.
    pub fn agents(&self) -> std::collections::BTreeSet<&str> {
        self.lines.iter().map(|l| l.who.as_str()).collect()
    }

    /// Lines of the cycle on screen, and lines of an earlier one (said so).
    pub fn split(&self) -> (usize, usize) {
        let earlier = self.lines.iter().filter(|l| l.earlier.is_some()).count();
        (self.lines.len() - earlier, earlier)
    }
}

/// Reads the panel now (nobody selected: every agent's lines).
pub async fn look(b: &Browser) -> Look {
    let v = b
        .eval(
            "const badge = document.querySelector('#live-badge');
             const lines = [...document.querySelectorAll('#agent-messages li:not(.empty)')].map(li => ({
               who: (li.querySelector('.who') || {}).textContent || '',
               earlier: li.dataset.earlier || null,
             }));
             return {
               cycle: (document.querySelector('#cycle') || {}).textContent || '',
               live: !!badge && !badge.classList.contains('behind'),
               lines,
             };",
        )
        .await;
    serde_json::from_value(v).unwrap_or_default()
}
