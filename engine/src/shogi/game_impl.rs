//! `Game` for the shogi position: the glue between the trait and the shogi modules.

use super::delta::ShogiDelta;
use super::moves::Move;
use super::position::Position;
use super::sfen::{SfenError, STARTPOS_SFEN};
use super::types::{PieceKind, KINDS, SQUARES};
use super::ShogiMoves;
use crate::game::{EndReason, Game, GameResult, HistoryEntry, MoveParseError, Outcome, Side};

impl Game for Position {
    type Move = Move;
    type Moves = ShogiMoves;
    type ParseError = SfenError;
    type Delta = ShogiDelta;
    type CheckInfo = super::CheckSquares;
    type Threats = super::Threats;

    const KIND: Option<crate::game::GameKind> = Some(crate::game::GameKind::Shogi);
    const NAME: &'static str = crate::game::GameKind::Shogi.name();
    const SQUARES: usize = SQUARES;
    const FROM_SLOTS: usize = SQUARES + 7;
    const PIECE_SLOTS: usize = 2 * KINDS;
    const THREAT_BUCKETS: usize = super::threats::THREAT_BUCKETS;
    const EXTEND_CHECKS: bool = false;
    const QS_EVASION_PRUNING: bool = true;
    const ROOT_KEY_FILTER: bool = true;

    fn startpos() -> Self {
        Position::from_sfen(STARTPOS_SFEN).expect("the start position parses")
    }

    fn from_text(text: &str) -> Result<Self, SfenError> {
        Position::from_sfen(text)
    }

    fn to_text(&self) -> String {
        self.to_sfen()
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side_to_move_now()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash_key()
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
        self.checkers().any()
    }

    fn game_ply(&self) -> u32 {
        self.ply()
    }

    #[inline]
    fn generate_legal(&self, moves: &mut ShogiMoves) {
        self.generate_into(moves, false);
    }

    #[inline]
    fn generate_noisy(&self, moves: &mut ShogiMoves) {
        self.generate_into(moves, true);
    }

    #[inline]
    fn is_legal_move(&self, m: Move) -> bool {
        self.is_legal(m)
    }

    #[inline]
    fn make_move(&mut self, m: Move) {
        self.play(m);
    }

    fn make_null_move(&mut self) {
        self.play_null();
    }

    #[inline]
    fn delta(&self) -> &ShogiDelta {
        self.last_delta()
    }

    #[inline]
    fn is_quiet(&self, m: Move) -> bool {
        m.is_drop() || (!m.is_promotion() && self.piece_on(m.to()).is_none())
    }

    fn noisy_gain(&self, m: Move) -> i32 {
        self.move_gain(m)
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see_at_least(m, threshold)
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

    #[inline]
    fn move_from_slot(m: Move) -> usize {
        m.from_slot()
    }

    #[inline]
    fn move_to_square(m: Move) -> usize {
        m.to()
    }

    #[inline]
    fn moved_piece_slot(&self, m: Move) -> usize {
        let us = self.side_to_move_now() as usize;
        if !m.is_well_formed() {
            return 0;
        }
        if m.is_drop() {
            us * KINDS + m.drop_kind() as usize
        } else {
            let pc = self.piece_on(m.from());
            if pc.is_some() {
                pc.slot()
            } else {
                0
            }
        }
    }

    fn correction_key(&self) -> u64 {
        let pawns = |side| self.pieces(side, PieceKind::Pawn).0;
        let (first, second) = (pawns(Side::First), pawns(Side::Second));
        let hands = |side| {
            u64::from_le_bytes({
                let mut bytes = [0u8; 8];
                bytes[..7].copy_from_slice(&self.hand(side).0);
                bytes
            })
        };
        crate::game::mix_key(
            first as u64 ^ (second as u64).rotate_left(32) ^ hands(Side::First),
            (first >> 64) as u64
                ^ ((second >> 64) as u64).rotate_left(32)
                ^ hands(Side::Second).rotate_left(8),
        )
    }

    fn piece_keys(&self) -> [u64; 2] {
        [Side::First, Side::Second].map(|side| {
            let board = self.pieces_of(side).0 & !self.pieces(side, PieceKind::Pawn).0;
            let ranging = [
                PieceKind::Bishop,
                PieceKind::Rook,
                PieceKind::Horse,
                PieceKind::Dragon,
                PieceKind::King,
            ]
            .iter()
            .fold(0u128, |acc, &k| acc | self.pieces(side, k).0);
            let golds = [
                PieceKind::Gold,
                PieceKind::ProPawn,
                PieceKind::ProLance,
                PieceKind::ProKnight,
                PieceKind::ProSilver,
            ]
            .iter()
            .fold(0u128, |acc, &k| acc | self.pieces(side, k).0);
            crate::game::mix_key(
                board as u64 ^ (ranging as u64).rotate_left(21) ^ (golds as u64).rotate_left(42),
                (board >> 64) as u64
                    ^ ((ranging >> 64) as u64).rotate_left(21)
                    ^ ((golds >> 64) as u64).rotate_left(42),
            )
        })
    }

    fn null_move_allowed(&self) -> bool {
        self.checkers().is_empty()
    }

    fn no_moves_outcome(&self) -> Outcome {
        Outcome {
            result: GameResult::Loss,
            reason: if self.checkers().any() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            },
        }
    }

    fn rule_outcome(&self, history: &[HistoryEntry], in_search: bool) -> Option<Outcome> {
        self.rule_outcome_impl(history, in_search)
    }

    fn can_declare_win(&self) -> bool {
        self.declaration_result() == Some(GameResult::Win)
    }

    fn mate_in_one_with(&self, check_info: &mut Option<super::CheckSquares>) -> Option<Move> {
        self.find_mate_in_one_with(check_info)
    }

    fn mate_in_one_among(
        &self,
        evasions: &[Move],
        check_info: &mut Option<super::CheckSquares>,
    ) -> Option<Move> {
        self.find_mating_evasion(evasions, check_info)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        self.parse_usi(text)
    }

    fn format_move(&self, m: Move) -> String {
        if !m.is_well_formed() {
            return format!("{m:?}");
        }
        Position::format_usi(m)
    }

    fn parse_move_cecp(&self, text: &str) -> Result<Move, MoveParseError> {
        self.parse_xboard(text)
    }

    fn format_move_cecp(&self, m: Move) -> String {
        if !m.is_well_formed() {
            return format!("{m:?}");
        }
        self.format_xboard(m)
    }

    fn perft(&self, depth: u32) -> u64 {
        self.perft_count(depth)
    }
}

impl Position {
    /// Leaf count of the legal move tree, bulk-counted at the last ply.
    pub fn perft_count(&self, depth: u32) -> u64 {
        use crate::movelist::MoveList;
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_legal();
        }
        let mut moves = ShogiMoves::default();
        self.generate_into(&mut moves, false);
        let mut total = 0;
        for &m in moves.as_slice() {
            let mut child = *self;
            child.play(m);
            total += child.perft_count(depth - 1);
        }
        total
    }
}
