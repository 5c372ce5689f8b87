//! The text of `sente eval [fen|sfen] [--net FILE]`: a position's classical evaluation and, when a
//! net is given (or embedded), its NNUE evaluation, both in centipawns for the side to move.

use super::evaluator::{evaluate_from_scratch, NnueEval};
use super::game_eval::{EvalChoice, GameEval};
use super::network::NetLoadError;
use super::nnue_game::NnueGame;
use super::simd::SimdLevel;
use super::NetFormatError;
use crate::eval::Evaluator;
use crate::game::{Game, GameKind, Side};
use std::fmt::Write;
use std::path::Path;
use std::sync::Arc;
use thiserror::Error;

/// Why no report could be made.
#[derive(Debug, Error)]
pub enum EvalReportError {
    #[error("not a chess FEN ({chess}) nor a shogi SFEN ({shogi})")]
    Position { chess: String, shogi: String },
    #[error(transparent)]
    Net(#[from] NetLoadError),
    #[error("net: {0}")]
    Architecture(#[from] NetFormatError),
}

/// Reports the evaluations of the position `text`: a chess FEN or a shogi SFEN (the game is the
/// one whose parser accepts it). `net` names a net file for that game; without one the embedded
/// default net is used when the binary has one.
pub fn eval_report(text: &str, net: Option<&Path>) -> Result<String, EvalReportError> {
    let text = text.trim();
    match crate::chess::Position::from_text(text) {
        Ok(pos) => report_for(&pos, net),
        Err(chess) => match crate::shogi::Position::from_text(text) {
            Ok(pos) => report_for(&pos, net),
            Err(shogi) => Err(EvalReportError::Position {
                chess: chess.to_string(),
                shogi: shogi.to_string(),
            }),
        },
    }
}

/// The report for one position of game `G`.
pub fn report_for<G: NnueGame>(pos: &G, net: Option<&Path>) -> Result<String, EvalReportError> {
    let mut out = String::new();
    let side = match (G::KIND, pos.side_to_move()) {
        (Some(GameKind::Chess), Side::First) => "white",
        (Some(GameKind::Chess), Side::Second) => "black",
        (_, Side::First) => "black (sente)",
        (_, Side::Second) => "white (gote)",
    };
    let _ = writeln!(out, "game: {}", G::NAME);
    let _ = writeln!(out, "position: {}", pos.to_text());
    let _ = writeln!(out, "side to move: {side}");
    let mut classical = G::Classical::default();
    classical.reset(pos);
    let _ = writeln!(out, "classical: {:+} cp", classical.evaluate(pos));
    let choice = net.map_or(EvalChoice::Default, EvalChoice::Net);
    let network = GameEval::<G>::select(choice)?.network().cloned();
    match network {
        None => {
            let _ = writeln!(out, "nnue: no net (give one with --net FILE)");
        }
        Some(network) => {
            let level = SimdLevel::detected();
            let mut eval = NnueEval::<G>::new(Arc::clone(&network))?;
            eval.reset(pos);
            let score = eval.evaluate(pos);
            // The scalar from-scratch path cross-checks the SIMD incremental one.
            let check = evaluate_from_scratch(&network, SimdLevel::Scalar, pos);
            let _ = writeln!(
                out,
                "nnue: {score:+} cp (net '{}' from {}, l1 {}{}, output bucket {}, {level:?}{})",
                network.header().name,
                network.source(),
                network.arch().l1,
                super::game_eval::king_buckets_note(network.arch()),
                pos.output_bucket(),
                if check == score {
                    ""
                } else {
                    "; MISMATCH with the scalar reference"
                }
            );
        }
    }
    Ok(out)
}
