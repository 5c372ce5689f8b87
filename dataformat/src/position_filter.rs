//! Which recorded positions are training positions: the filters the trainer applies and
//! `datagen export` applies before writing (ply, in check, noisy move, score cap), in one place.

/// The position filters shared by `tuner` and `datagen export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionFilter {
    /// Skip positions at game ply `min_ply` or earlier (the first position of a game from the
    /// start position is ply 1).
    pub min_ply: u32,
    /// Skip positions with the side to move in check.
    pub skip_in_check: bool,
    /// Skip positions whose chosen move is a capture or promotion (the eval is not quiet).
    pub skip_noisy_move: bool,
    /// Skip positions whose |score| is at least this (mate scores).
    pub max_abs_score: i32,
}

impl Default for PositionFilter {
    fn default() -> Self {
        Self {
            min_ply: 8,
            skip_in_check: true,
            skip_noisy_move: true,
            max_abs_score: 10_000,
        }
    }
}

impl PositionFilter {
    /// A filter that keeps every scored position.
    pub const KEEP_ALL: PositionFilter = PositionFilter {
        min_ply: 0,
        skip_in_check: false,
        skip_noisy_move: false,
        max_abs_score: i32::MAX,
    };

    /// Whether a position is kept: `ply` counted as in `min_ply` (`None`: the record has no
    /// ply, which then passes), `quiet` whether its move is neither capture nor promotion
    /// (`None`: no move recorded, which passes).
    pub fn keeps(&self, ply: Option<u32>, score: i16, in_check: bool, quiet: Option<bool>) -> bool {
        score != crate::stored_game::SCORE_NONE
            && ply.is_none_or(|p| p > self.min_ply)
            && (score as i32).abs() < self.max_abs_score
            && !(self.skip_in_check && in_check)
            && !(self.skip_noisy_move && quiet == Some(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stored_game::SCORE_NONE;

    #[test]
    fn each_filter_drops_what_it_names() {
        let f = PositionFilter::default();
        assert!(f.keeps(Some(9), 50, false, Some(true)));
        assert!(!f.keeps(Some(8), 50, false, Some(true)));
        assert!(f.keeps(None, 50, false, None));
        assert!(!f.keeps(Some(9), SCORE_NONE, false, Some(true)));
        assert!(!f.keeps(Some(9), 10_000, false, Some(true)));
        assert!(!f.keeps(Some(9), -10_000, false, Some(true)));
        assert!(!f.keeps(Some(9), 50, true, Some(true)));
        assert!(!f.keeps(Some(9), 50, false, Some(false)));
        assert!(PositionFilter::KEEP_ALL.keeps(Some(1), 31_990, true, Some(false)));
    }
}
