//! `Game` for the chess `Position`: the trait's entry points choose the slider back end once
//! per call and hand over to the generic code of the other modules.

use super::attacks::with_sliders;
use super::bitboard::bb;
use super::delta::Delta;
use super::fen::{parse_fen, write_fen, FenError};
use super::movegen::{generate, FindSink, ListSink};
use super::moves::Move;
use super::position::Position;
use super::types::*;
use crate::game::{Game, HistoryEntry, MoveParseError, Outcome, Side};
use crate::movelist::{ArrayMoveList, MoveList};

/// The standard starting position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Game for Position {
    type Move = Move;
    type Moves = ArrayMoveList<Move, 256>;
    type ParseError = FenError;
    type Delta = Delta;
    type CheckInfo = super::CheckSquares;
    type Threats = super::Threats;

    const KIND: Option<crate::game::GameKind> = Some(crate::game::GameKind::Chess);
    const NAME: &'static str = crate::game::GameKind::Chess.name();
    const SQUARES: usize = 64;
    const FROM_SLOTS: usize = 64;
    const PIECE_SLOTS: usize = 12;
    const THREAT_BUCKETS: usize = super::threats::THREAT_BUCKETS;

    fn startpos() -> Self {
        match parse_fen(STARTPOS_FEN) {
            Ok(p) => p,
            Err(e) => unreachable!("the start position FEN is valid: {e}"),
        }
    }

    fn from_text(text: &str) -> Result<Self, FenError> {
        parse_fen(text)
    }

    fn to_text(&self) -> String {
        write_fen(self)
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn hash_after(&self, m: Move) -> u64 {
        self.hash_after_move(m)
    }

    fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.checkers != 0
    }

    fn game_ply(&self) -> u32 {
        self.game_ply
    }

    fn fifty_move_clock(&self) -> u32 {
        self.halfmove_clock()
    }

    fn generate_legal(&self, moves: &mut Self::Moves) {
        moves.clear();
        with_sliders!(|a| generate::<_, _, false>(self, a, &mut ListSink(moves), !0))
    }

    /// Captures (capture-promotions to a queen only) and queen push-promotions; all
    /// under-promotions are left to the full generator.
    fn generate_noisy(&self, moves: &mut Self::Moves) {
        moves.clear();
        with_sliders!(|a| generate::<_, _, true>(self, a, &mut ListSink(moves), !0))
    }

    fn is_legal_move(&self, m: Move) -> bool {
        if m.is_malformed() || m.from() == m.to() {
            return false;
        }
        match self.piece_at(m.from()) {
            Some((side, _)) if side == self.side => {}
            _ => return false,
        }
        let mut find = FindSink {
            wanted: m,
            found: false,
        };
        with_sliders!(|a| generate::<_, _, false>(self, a, &mut find, bb(m.from())));
        find.found
    }

    fn make_move(&mut self, m: Move) {
        with_sliders!(|a| self.make_move_with(a, m))
    }

    fn make_null_move(&mut self) {
        self.make_null();
    }

    fn delta(&self) -> &Delta {
        &self.delta
    }

    fn is_quiet(&self, m: Move) -> bool {
        !m.is_promotion()
            && !m.is_en_passant()
            && (m.is_castle() || self.board[m.to() as usize & 63] == NO_PIECE)
    }

    fn noisy_gain(&self, m: Move) -> i32 {
        Position::noisy_gain(self, m)
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        Position::see_ge(self, m, threshold)
    }

    fn gives_check(&self, m: Move) -> bool {
        self.move_gives_check(m)
    }

    fn check_info(&self) -> super::CheckSquares {
        self.check_squares()
    }

    fn threats(&self) -> super::Threats {
        Position::threats(self)
    }

    fn threat_order(&self, threats: &super::Threats, m: Move) -> i32 {
        Position::threat_order(self, threats, m)
    }

    fn threat_bucket(&self, threats: &super::Threats, m: Move) -> usize {
        Position::threat_bucket(self, threats, m)
    }

    #[inline]
    fn gives_check_with(&self, info: &super::CheckSquares, m: Move) -> bool {
        Position::gives_check_with(self, info, m)
    }

    fn move_from_slot(m: Move) -> usize {
        m.from() as usize
    }

    fn move_to_square(m: Move) -> usize {
        m.to() as usize
    }

    fn moved_piece_slot(&self, m: Move) -> usize {
        let p = self.board[m.from() as usize & 63];
        if p == NO_PIECE {
            0
        } else {
            p as usize
        }
    }

    const CORRECTION_HISTORY: bool = true;
    const THREAT_ORDERING: bool = true;
    const HINDSIGHT_DEPTH: bool = true;
    const FRACTIONAL_LMR: bool = true;
    const MATERIAL_SCALING: bool = true;
    /// The history bonus is chess's own (shogi did not gain from it); the material scaling's
    /// base and divisor were measured with the scaling; late moves are reduced a quarter ply
    /// more than shogi's (`docs/results.tsv`).
    const SEARCH_PARAMS: &'static str = "lmr_base=100,history_quadratic=32,history_linear=128,\
        history_max=3200,material_scale_base=600,material_scale_divisor=20";

    fn correction_key(&self) -> u64 {
        self.pawn_key
    }

    fn board_material(&self) -> Option<i32> {
        Some(self.material)
    }

    fn tablebase_pieces(&self) -> Option<u32> {
        (self.castling == 0).then(|| self.occupied().count_ones())
    }

    fn open_tablebases(
        paths: &str,
    ) -> Result<crate::search::tablebase::SharedTables<Self>, String> {
        Ok(std::sync::Arc::new(super::syzygy::SyzygyTables::open(
            paths,
        )?))
    }

    fn piece_keys(&self) -> [u64; 2] {
        self.piece_keys
    }

    fn null_move_allowed(&self) -> bool {
        let own = self.side_pieces(self.side);
        own & !(self.by_kind[PieceKind::Pawn.index()] | self.by_kind[PieceKind::King.index()]) != 0
    }

    fn no_moves_outcome(&self) -> Outcome {
        self.no_moves_outcome_impl()
    }

    fn rule_outcome(&self, history: &[HistoryEntry], in_search: bool) -> Option<Outcome> {
        self.rule_outcome_impl(history, in_search)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        self.parse_uci(text)
    }

    fn format_move(&self, m: Move) -> String {
        self.format_uci(m)
    }

    fn parse_move_cecp(&self, text: &str) -> Result<Move, MoveParseError> {
        self.parse_cecp(text)
    }

    fn format_move_cecp(&self, m: Move) -> String {
        self.format_cecp(m)
    }

    fn perft(&self, depth: u32) -> u64 {
        self.perft_fast(depth)
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", write_fen(self))
    }
}

impl std::fmt::Display for Position {
    /// The board as eight lines of FEN letters (dots for empty squares) and the FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..8u8).rev() {
            for file in 0..8u8 {
                let p = self.board[make_square(file, rank) as usize];
                let c = if p == NO_PIECE { '.' } else { piece_char(p) };
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        write!(f, "{}", write_fen(self))
    }
}
