//! `UCI_LimitStrength`: an Elo target becomes a node cap, a depth cap and a seeded random choice
//! among root moves whose score is close to the best.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Lowest and highest Elo the limiter distinguishes.
pub const MIN_ELO: u32 = 600;
pub const MAX_ELO: u32 = 3000;

/// How a target Elo weakens a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthLimit {
    pub node_cap: u64,
    pub depth_cap: u32,
    /// Root moves within this many centipawns of the best may be chosen.
    pub margin_cp: i32,
    /// Root lines searched (MultiPV) so that alternatives have scores.
    pub lines: usize,
}

/// The limits for a target Elo (clamped to `MIN_ELO..=MAX_ELO`); monotone: more Elo never means
/// fewer nodes, less depth or a wider margin.
pub fn strength_limit(elo: u32) -> StrengthLimit {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    let steps = (elo - MIN_ELO) as f64 / 150.0;
    StrengthLimit {
        node_cap: (64.0 * steps.exp2()) as u64,
        depth_cap: 1 + (elo - MIN_ELO) / 120,
        margin_cp: ((MAX_ELO - elo) / 8) as i32,
        lines: 4,
    }
}

/// YaneuraOu's `SkillLevel` (0 weakest .. 20 full strength) as an Elo target on the limiter's
/// scale: `None` at 20 and above; each level below 20 is an even step from `MIN_ELO` at 0.
pub fn skill_level_elo(level: u32) -> Option<u32> {
    const FULL: u32 = 20;
    (level < FULL).then(|| MIN_ELO + level * (MAX_ELO - MIN_ELO) / FULL)
}

/// Picks the index of one of the `scores` (sorted best first) within `margin_cp` of the best,
/// uniformly, from a generator seeded by `seed` (the same position and seed give the same move).
pub fn choose_near_best(scores: &[i32], margin_cp: i32, seed: u64) -> usize {
    let Some(&best) = scores.first() else {
        return 0;
    };
    let candidates = scores
        .iter()
        .take_while(|&&s| s >= best.saturating_sub(margin_cp))
        .count()
        .max(1);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (rng.next_u64() % candidates as u64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_grow_with_elo() {
        let weak = strength_limit(800);
        let strong = strength_limit(2800);
        assert!(weak.node_cap < strong.node_cap);
        assert!(weak.depth_cap < strong.depth_cap);
        assert!(weak.margin_cp > strong.margin_cp);
        assert_eq!(strength_limit(10), strength_limit(MIN_ELO));
    }

    #[test]
    fn skill_levels_are_even_steps_below_full_strength() {
        assert_eq!(skill_level_elo(20), None);
        assert_eq!(skill_level_elo(0), Some(MIN_ELO));
        let elos: Vec<u32> = (0..20).map(|l| skill_level_elo(l).unwrap()).collect();
        let step = elos[1] - elos[0];
        assert!(step > 0 && elos.windows(2).all(|w| w[1] - w[0] == step));
        assert!(elos[19] < MAX_ELO);
    }

    #[test]
    fn choice_stays_within_the_margin() {
        let scores = [100, 90, 40, -500];
        let mut seen = [false; 4];
        for seed in 0..200 {
            seen[choose_near_best(&scores, 60, seed)] = true;
        }
        assert_eq!(seen, [true, true, true, false]);
        assert_eq!(choose_near_best(&scores, 0, 7), 0);
    }
}
