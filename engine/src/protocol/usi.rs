//! USI specifics on top of the shared UCI/USI session: mate scores in plies, `go mate`
//! answers, `gameover`.

use super::record::has_legal_move;
use crate::game::Game;
use crate::search::Score;

/// `cp X` / `mate N` with N in plies, never `mate -0`.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::MatePlies(0) => "cp 0".to_string(),
        Score::MatePlies(plies) => format!("mate {plies}"),
    }
}

/// The answer to `go mate`: a found mate as `checkmate <moves>`, `checkmate nomate` when the
/// side to move has no move at all, otherwise `checkmate notimplemented` (the full proof-number
/// solver is not part of the engine yet; the specification allows this answer).
pub fn go_mate_answer<G: Game>(pos: &G) -> String {
    if !has_legal_move(pos) {
        return "checkmate nomate".to_string();
    }
    if let Some(m) = pos.mate_in_one().filter(|&m| pos.is_legal_move(m)) {
        let mut child = pos.clone();
        child.make_move(m);
        if !has_legal_move(&child) {
            return format!("checkmate {}", pos.format_move(m));
        }
    }
    "checkmate notimplemented".to_string()
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
