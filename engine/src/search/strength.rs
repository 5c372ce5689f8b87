//! The strength limiter behind chess's `UCI_LimitStrength`/`UCI_Elo` and shogi's `SkillLevel`.
//!
//! A skill (0 the weakest, 20 full strength, kept in hundredths) becomes a shallow MultiPV
//! search, capped in nodes and depth, whose move is drawn from a softmax over the lines' scores
//! (`choose_by_softmax`; near full strength the lines taper to one, `lines_at`). A move close
//! to the best is often chosen, a move far below it rarely, so the limited engine errs where
//! several moves look alike (a hard position) and seldom misses a move that is clearly best, as
//! a weaker player does, besides searching less.
//!
//! Chess's `UCI_Elo` reaches a skill through `CHESS_ELO_SKILL`, the table fitted against
//! Stockfish 15.1's own `UCI_Elo` at 10+0.1 (`docs/gui.md` shows the fit); its range is that
//! scale's. Shogi's `SkillLevel` reaches a skill through `SHOGI_LEVEL_SKILL`, fitted against
//! Fairy-Stockfish 11.1's `UCI_Elo` at 100,000 nodes a move.

use crate::game::GameKind;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Skill in hundredths of a level: 0 the weakest, `FULL_SKILL` and above full strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Skill(pub u32);

/// Root lines a limited search compares (its MultiPV).
pub const MAX_LINES: usize = 5;

/// The skill of an unlimited search (level 20).
pub const FULL_SKILL: Skill = Skill(2000);

/// How a skill weakens a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthLimit {
    pub node_cap: u64,
    pub depth_cap: u32,
    /// The softmax temperature of the final pick, in centipawns (0: always the best line).
    pub temperature_cp: i32,
    /// Root lines searched (MultiPV) so that alternatives have scores.
    pub lines: usize,
}

/// The limits of a skill; monotone: more skill never means fewer nodes, less depth or a hotter
/// pick. Between whole levels the node cap and the temperature move smoothly.
pub fn strength_limit(skill: Skill) -> StrengthLimit {
    let level = f64::from(skill.0.min(FULL_SKILL.0)) / 100.0;
    StrengthLimit {
        node_cap: (9.0 + 0.5 * level).exp2() as u64,
        depth_cap: 1 + level as u32,
        temperature_cp: (0.5 * (20.0 - level).powi(2)).round() as i32,
        lines: lines_at(level),
    }
}

/// Root lines at a level: `MAX_LINES` up to `TAPER_FROM`, then one fewer per level down to one
/// line at `TAPER_FROM + MAX_LINES - 1`. A MultiPV search costs depth, and near full strength the
/// pick is so cool (a few centipawns) that the extra lines buy little; searching fewer of them
/// lets the top levels approach the unlimited search instead of levelling off below it.
fn lines_at(level: f64) -> usize {
    const TAPER_FROM: f64 = 14.0;
    let fewer = (level - TAPER_FROM).max(0.0).round() as usize;
    MAX_LINES.saturating_sub(fewer).max(1)
}

/// Lowest and highest `UCI_Elo` (the range of Stockfish 15.1's `UCI_Elo`, the scale fitted to).
pub const CHESS_ELO_MIN: u32 = 1350;
pub const CHESS_ELO_MAX: u32 = 2850;

/// `UCI_Elo` → skill, fitted by matches against Stockfish 15.1 at the same `UCI_Elo`, 10+0.1
/// (`scripts/calibrate_strength.py`); linear between the points.
const CHESS_ELO_SKILL: [(u32, Skill); 5] = [
    (CHESS_ELO_MIN, Skill(508)),
    (1500, Skill(640)),
    (2000, Skill(1350)),
    (2500, Skill(1720)),
    (CHESS_ELO_MAX, FULL_SKILL),
];

/// The skill that plays at `elo` on Stockfish 15.1's `UCI_Elo` scale (`elo` within
/// `CHESS_ELO_MIN..=CHESS_ELO_MAX`; the option refuses values outside it), `None` at the top of
/// the range, which plays at full strength.
pub fn chess_elo_skill(elo: u32) -> Option<Skill> {
    let skill = interpolated_skill(&CHESS_ELO_SKILL, elo);
    (skill < FULL_SKILL).then_some(skill)
}

/// The skill at `x` on a table of `(setting, skill)` points in increasing order, linear between
/// them and clamped to the table's ends.
fn interpolated_skill(table: &[(u32, Skill)], x: u32) -> Skill {
    let x = x.clamp(table[0].0, table[table.len() - 1].0);
    let upper = table
        .iter()
        .position(|&(at, _)| at >= x)
        .unwrap_or(table.len() - 1)
        .max(1);
    let (x0, Skill(s0)) = table[upper - 1];
    let (x1, Skill(s1)) = table[upper];
    let t = f64::from(x - x0) / f64::from(x1 - x0);
    Skill((f64::from(s0) + t * (f64::from(s1) - f64::from(s0))).round() as u32)
}

/// Shogi's `SkillLevel` → skill, fitted so that the levels climb in roughly even Elo steps on
/// Fairy-Stockfish 11.1's `UCI_Elo` scale at 100,000 nodes a move, from level 0 at about 1350 to
/// full strength at about 2600 (`docs/gui.md` shows the measured table). Linear between the
/// points.
const SHOGI_LEVEL_SKILL: [(u32, Skill); 5] = [
    (0, Skill(0)),
    (5, Skill(660)),
    (10, Skill(1210)),
    (15, Skill(1400)),
    (20, FULL_SKILL),
];

/// The skill of a `Skill Level`/`SkillLevel` setting (0 weakest .. 20 full strength): chess
/// takes the level as the skill (Stockfish's `Skill Level`), shogi reads `SHOGI_LEVEL_SKILL`.
/// `None` at 20 and above.
pub fn skill_level(game: Option<GameKind>, level: u32) -> Option<Skill> {
    let skill = match game {
        Some(GameKind::Shogi) => interpolated_skill(&SHOGI_LEVEL_SKILL, level),
        _ => Skill(level.saturating_mul(100)),
    };
    (skill < FULL_SKILL).then_some(skill)
}

/// Draws the index of one of `scores` with probability proportional to
/// `exp((score - best) / temperature_cp)`, from a generator seeded by `seed`. A temperature of 0
/// picks the best (the first of equals).
pub fn choose_by_softmax(scores: &[i32], temperature_cp: i32, seed: u64) -> usize {
    let Some(best) = scores.iter().copied().max() else {
        return 0;
    };
    let first_best = scores.iter().position(|&s| s == best).unwrap_or(0);
    if temperature_cp <= 0 {
        return first_best;
    }
    let weight = |s: i32| (f64::from(s - best) / f64::from(temperature_cp)).exp();
    let total: f64 = scores.iter().map(|&s| weight(s)).sum();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    // 53 random bits as a uniform number in [0, total).
    let mut draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (i, &s) in scores.iter().enumerate() {
        draw -= weight(s);
        if draw < 0.0 {
            return i;
        }
    }
    first_best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_grow_with_skill() {
        let mut last = strength_limit(Skill(0));
        for centi in (25..=2000).step_by(25) {
            let next = strength_limit(Skill(centi));
            assert!(next.node_cap >= last.node_cap, "{centi}");
            assert!(next.depth_cap >= last.depth_cap, "{centi}");
            assert!(next.temperature_cp <= last.temperature_cp, "{centi}");
            assert!(next.lines <= last.lines && next.lines >= 1, "{centi}");
            last = next;
        }
        assert_eq!(strength_limit(Skill(5000)), strength_limit(FULL_SKILL));
        assert!(strength_limit(Skill(0)).node_cap < strength_limit(Skill(1000)).node_cap);
        assert_eq!(strength_limit(Skill(1400)).lines, MAX_LINES);
        assert_eq!(strength_limit(Skill(1800)).lines, 1);
    }

    #[test]
    fn skill_levels_are_whole_levels_below_full_strength() {
        let chess = Some(GameKind::Chess);
        assert_eq!(skill_level(chess, 20), None);
        assert_eq!(skill_level(chess, 0), Some(Skill(0)));
        assert_eq!(skill_level(chess, 7), Some(Skill(700)));
    }

    #[test]
    fn shogi_levels_follow_their_table_and_climb() {
        let shogi = Some(GameKind::Shogi);
        assert_eq!(skill_level(shogi, 20), None);
        assert_eq!(skill_level(shogi, 99), None);
        for &(level, skill) in &SHOGI_LEVEL_SKILL[..SHOGI_LEVEL_SKILL.len() - 1] {
            assert_eq!(skill_level(shogi, level), Some(skill));
        }
        assert!(SHOGI_LEVEL_SKILL
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        let mut last = Skill(0);
        for level in 1..20 {
            let skill = skill_level(shogi, level).unwrap();
            assert!(skill > last, "{level}");
            last = skill;
        }
    }

    #[test]
    fn the_chess_elo_table_is_monotone_and_covers_the_range() {
        assert_eq!(CHESS_ELO_SKILL[0].0, CHESS_ELO_MIN);
        assert_eq!(CHESS_ELO_SKILL[CHESS_ELO_SKILL.len() - 1].0, CHESS_ELO_MAX);
        assert!(CHESS_ELO_SKILL
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        let mut last = chess_elo_skill(CHESS_ELO_MIN).unwrap();
        for elo in CHESS_ELO_MIN + 1..CHESS_ELO_MAX {
            let skill = chess_elo_skill(elo).unwrap();
            assert!(skill >= last && skill < FULL_SKILL, "{elo}");
            last = skill;
        }
        assert_eq!(chess_elo_skill(CHESS_ELO_MAX), None);
        for &(elo, skill) in &CHESS_ELO_SKILL[..CHESS_ELO_SKILL.len() - 1] {
            assert_eq!(chess_elo_skill(elo), Some(skill));
        }
    }

    #[test]
    fn the_softmax_prefers_close_moves_and_rarely_blunders() {
        let draws = |scores: &[i32], t: i32| {
            let mut counts = vec![0u32; scores.len()];
            for seed in 0..4000 {
                counts[choose_by_softmax(scores, t, seed)] += 1;
            }
            counts
        };
        // A hard position: three moves within 10 cp are each chosen often.
        let hard = draws(&[30, 25, 20, -400], 100);
        assert!(hard[..3].iter().all(|&c| c > 900), "{hard:?}");
        assert!(hard[3] < 120, "{hard:?}");
        // An easy one: the only good move is nearly always played.
        let easy = draws(&[300, -200, -250, -600], 100);
        assert!(easy[0] > 3900, "{easy:?}");
        // Frequencies follow the weights: e^(-50/100) ≈ 0.61 of the best's.
        let pair = draws(&[0, -50], 100);
        let ratio = f64::from(pair[1]) / f64::from(pair[0]);
        assert!((0.53..0.69).contains(&ratio), "{pair:?}");
        // Cold: always the best, wherever it is.
        assert_eq!(choose_by_softmax(&[5, 90, 90, 1], 0, 3), 1);
        assert_eq!(choose_by_softmax(&[], 50, 3), 0);
        // Mate scores far apart never overflow.
        assert_eq!(choose_by_softmax(&[31_000, -31_000], 240, 9), 0);
    }
}
