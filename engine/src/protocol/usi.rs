//! USI's own answers on top of the shared UCI/USI session: mate scores in plies and the
//! `checkmate ...` answer of `go mate` (whose solver the controller runs).

use super::session_core::pv_text;
use crate::game::Game;
use crate::mate::MateAnswer;
use crate::search::Score;

/// `cp X` / `mate N` with N in plies, never `mate -0`.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::MatePlies(0) => "cp 0".to_string(),
        Score::MatePlies(plies) => format!("mate {plies}"),
    }
}

/// `checkmate <moves>`, `checkmate nomate` or `checkmate timeout`.
pub fn checkmate_line<G: Game>(root: &G, answer: &MateAnswer<G::Move>) -> String {
    match answer {
        MateAnswer::Mate(line) => {
            let text = pv_text(root, line, |pos, m| pos.format_move(m));
            if text.is_empty() {
                "checkmate timeout".to_string()
            } else {
                format!("checkmate {text}")
            }
        }
        MateAnswer::NoMate => "checkmate nomate".to_string(),
        MateAnswer::Unknown => "checkmate timeout".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_are_plies_and_never_minus_zero() {
        assert_eq!(score_text(Score::MatePlies(5)), "mate 5");
        assert_eq!(score_text(Score::MatePlies(-4)), "mate -4");
        assert_eq!(score_text(Score::MatePlies(0)), "cp 0");
        assert_eq!(score_text(Score::Cp(-31)), "cp -31");
    }
}
