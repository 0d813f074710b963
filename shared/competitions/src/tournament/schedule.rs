//! A group's round-robin schedule: every pair once, in rounds of games played at once on
//! several fields, with no team playing two rounds running where that can be avoided (a
//! team's binaries and its people need the break between games).

use super::plan::Fixture;
use std::collections::HashSet;

/// The pairs of the circle method, round by round: every pair exactly once, each team once
/// per round, the fixed team's side alternating so sides come out even.
fn circle(teams: &[String]) -> Vec<(usize, usize)> {
    let mut ring: Vec<Option<usize>> = (0..teams.len()).map(Some).collect();
    if ring.len() % 2 == 1 {
        ring.push(None);
    }
    let n = ring.len();
    let mut out = Vec::new();
    for round in 0..n.saturating_sub(1) {
        for i in 0..n / 2 {
            if let (Some(a), Some(b)) = (ring[i], ring[n - 1 - i]) {
                out.push(if (i == 0 && round % 2 == 1) || (i > 0 && i % 2 == 1) {
                    (b, a)
                } else {
                    (a, b)
                });
            }
        }
        ring[1..].rotate_right(1);
    }
    out
}

/// Every pair of `teams` once, as fixtures with their round and field: up to `fields` games
/// per round (at least one), no team twice in a round, as few rounds as the fields allow,
/// and as few teams as can be playing a round right after playing the one before. A search
/// finds that order (a greedy pick strands pairs of the same teams at the end); past its
/// budget, or beyond 64 teams, rounds are filled greedily, rested teams first.
pub fn round_robin(teams: &[String], fields: u32) -> Vec<Fixture> {
    let n = teams.len();
    let fields = (fields.max(1) as usize).min((n / 2).max(1));
    let games = circle(teams);
    let rounds = if n <= 64 {
        (0..=2 * n as u32)
            .find_map(|excess| {
                let mut s = Search {
                    rounds: Vec::new(),
                    budget: 200_000,
                    fields,
                    n,
                };
                s.run(&mut games.clone(), 0, excess).then_some(s.rounds)
            })
            .unwrap_or_else(|| greedy(&games, fields))
    } else {
        greedy(&games, fields)
    };
    let mut out = Vec::with_capacity(games.len());
    for (r, round) in rounds.iter().enumerate() {
        for (f, &(a, b)) in round.iter().enumerate() {
            out.push(Fixture {
                round: Some(r as u32 + 1),
                field: Some(f as u32 + 1),
                left: teams[a].clone(),
                right: teams[b].clone(),
                date: None,
            });
        }
    }
    out
}

fn mask(games: &[(usize, usize)]) -> u64 {
    games.iter().fold(0, |m, &(a, b)| m | 1 << a | 1 << b)
}

struct Search {
    rounds: Vec<Vec<(usize, usize)>>,
    /// Rounds tried before giving up.
    budget: u32,
    fields: usize,
    n: usize,
}

impl Search {
    /// Orders `left` into rounds with at most `excess` teams playing twice running beyond
    /// those the numbers force (a round of 2k teams after one of 2j leaves n - 2j rested).
    fn run(&mut self, left: &mut Vec<(usize, usize)>, previous: u64, excess: u32) -> bool {
        if left.is_empty() {
            return true;
        }
        let k = self.fields.min(left.len());
        for size in (1..=k).rev() {
            let mut found_any = false;
            let mut pick = Vec::with_capacity(size);
            if self.choose(
                left,
                0,
                size,
                0,
                &mut pick,
                previous,
                excess,
                &mut found_any,
            ) {
                return true;
            }
            // Smaller rounds only when no round of this size exists at all.
            if found_any || self.budget == 0 {
                return false;
            }
        }
        false
    }

    #[allow(clippy::too_many_arguments)]
    fn choose(
        &mut self,
        left: &mut Vec<(usize, usize)>,
        from: usize,
        size: usize,
        used: u64,
        pick: &mut Vec<usize>,
        previous: u64,
        excess: u32,
        found_any: &mut bool,
    ) -> bool {
        if pick.len() == size {
            *found_any = true;
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            let rested = self.n as u32 - previous.count_ones();
            let forced = (2 * size as u32).saturating_sub(rested);
            let repeats = (used & previous).count_ones();
            let over = repeats.saturating_sub(forced);
            if over > excess {
                return false;
            }
            let round: Vec<(usize, usize)> = pick.iter().map(|&i| left[i]).collect();
            let mut rest: Vec<(usize, usize)> = left
                .iter()
                .enumerate()
                .filter(|(i, _)| !pick.contains(i))
                .map(|(_, g)| *g)
                .collect();
            self.rounds.push(round);
            if self.run(&mut rest, used, excess - over) {
                return true;
            }
            self.rounds.pop();
            return false;
        }
        for i in from..left.len() {
            let m = mask(&left[i..=i]);
            if used & m != 0 {
                continue;
            }
            pick.push(i);
            let done = self.choose(
                left,
                i + 1,
                size,
                used | m,
                pick,
                previous,
                excess,
                found_any,
            );
            pick.pop();
            if done {
                return true;
            }
            if self.budget == 0 {
                return false;
            }
        }
        false
    }
}

/// Rounds filled in order, rested teams' games first.
fn greedy(games: &[(usize, usize)], fields: usize) -> Vec<Vec<(usize, usize)>> {
    let mut left = games.to_vec();
    let mut rounds = Vec::new();
    let mut previous: HashSet<usize> = HashSet::new();
    while !left.is_empty() {
        let mut busy: HashSet<usize> = HashSet::new();
        let mut chosen: Vec<usize> = Vec::new();
        for rested in [true, false] {
            for (i, &(a, b)) in left.iter().enumerate() {
                if chosen.len() == fields {
                    break;
                }
                let free = !busy.contains(&a) && !busy.contains(&b);
                let fresh = !previous.contains(&a) && !previous.contains(&b);
                if free && (fresh || !rested) && !chosen.contains(&i) {
                    busy.extend([a, b]);
                    chosen.push(i);
                }
            }
        }
        chosen.sort_unstable();
        rounds.push(chosen.iter().map(|&i| left[i]).collect());
        for &i in chosen.iter().rev() {
            left.remove(i);
        }
        previous = busy;
    }
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn teams(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("T{i}")).collect()
    }

    fn rounds(f: &[Fixture]) -> Vec<Vec<&Fixture>> {
        let last = f.iter().filter_map(|x| x.round).max().unwrap_or(0);
        (1..=last)
            .map(|r| f.iter().filter(|x| x.round == Some(r)).collect())
            .collect()
    }

    #[test]
    fn every_pair_once_and_no_team_twice_in_a_round() {
        for n in 2..=12 {
            for fields in 1..=4 {
                let t = teams(n);
                let f = round_robin(&t, fields);
                assert_eq!(f.len(), n * (n - 1) / 2, "{n} teams");
                let mut pairs = HashSet::new();
                for x in &f {
                    let mut p = [x.left.clone(), x.right.clone()];
                    p.sort();
                    assert!(pairs.insert(p), "{n} teams, {fields} fields: a pair twice");
                }
                for r in rounds(&f) {
                    assert!(!r.is_empty() && r.len() <= fields as usize);
                    let mut seen = HashSet::new();
                    for x in &r {
                        assert!(seen.insert(&x.left) && seen.insert(&x.right));
                    }
                }
            }
        }
    }

    #[test]
    fn on_one_field_no_team_plays_twice_running() {
        // With five teams or more it can always be avoided (four cannot: a game leaves only
        // the other pair to play next, and then the first pair again).
        for n in 5..=12 {
            let f = round_robin(&teams(n), 1);
            for w in f.windows(2) {
                let a = [&w[0].left, &w[0].right];
                assert!(
                    !a.contains(&&w[1].left) && !a.contains(&&w[1].right),
                    "{n} teams: {:?} then {:?}",
                    w[0],
                    w[1]
                );
            }
        }
    }

    #[test]
    fn fields_are_filled_and_sides_even() {
        // Ten teams on two fields: 45 games in 23 rounds, nobody playing two rounds running
        // (a round of four leaves six resting).
        let f = round_robin(&teams(10), 2);
        let r = rounds(&f);
        assert_eq!(r.len(), 23);
        for w in r.windows(2) {
            let before: HashSet<&String> = w[0].iter().flat_map(|x| [&x.left, &x.right]).collect();
            assert!(w[1]
                .iter()
                .all(|x| !before.contains(&x.left) && !before.contains(&x.right)));
        }
        let mut left: HashMap<&String, i32> = HashMap::new();
        for x in &f {
            *left.entry(&x.left).or_default() += 1;
        }
        assert!(left.values().all(|&n| (3..=6).contains(&n)), "{left:?}");
    }
}
