//! Static exchange evaluation (swap-off with x-rays) and the material gain of noisy moves.

use super::attacks::{with_sliders, SliderAttacks};
use super::bitboard::{bb, lsb};
use super::moves::Move;
use super::position::Position;
use super::types::*;

/// Piece values for exchange evaluation and move ordering (centipawns); the king's is nominal.
pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

impl Position {
    /// Captured value plus promotion gain of a move (0 for quiet moves).
    pub fn noisy_gain(&self, m: Move) -> i32 {
        let mut gain = 0;
        if m.is_en_passant() {
            gain += SEE_VALUES[PieceKind::Pawn.index()];
        } else if !m.is_castle() {
            if let Some((_, kind)) = self.piece_at(m.to()) {
                gain += SEE_VALUES[kind.index()];
            }
        }
        if let Some(p) = m.promoted() {
            gain += SEE_VALUES[p.index()] - SEE_VALUES[PieceKind::Pawn.index()];
        }
        gain
    }

    /// Whether the exchange started by `m` on its destination square nets at least
    /// `threshold`. Castling, en passant and promotions count as an even exchange (0).
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        with_sliders!(|a| self.see_ge_with(a, m, threshold))
    }

    #[inline(always)]
    fn see_ge_with<A: SliderAttacks>(&self, a: A, m: Move, threshold: i32) -> bool {
        if !m.is_normal() {
            return 0 >= threshold;
        }
        let from = m.from();
        let to = m.to();
        let value_at = |sq: Square| self.piece_at(sq).map_or(0, |(_, k)| SEE_VALUES[k.index()]);
        let mut swap = value_at(to) - threshold;
        if swap < 0 {
            return false;
        }
        swap = value_at(from) - swap;
        if swap <= 0 {
            return true;
        }
        let k = &self.by_kind;
        let diagonal = k[PieceKind::Bishop.index()] | k[PieceKind::Queen.index()];
        let straight = k[PieceKind::Rook.index()] | k[PieceKind::Queen.index()];
        let mut occupied = self.occupied() ^ bb(from) ^ bb(to);
        let mut side = self.side;
        let mut attackers = self.attackers_to_with(a, to, occupied);
        let mut result = true;
        loop {
            side = side.flip();
            attackers &= occupied;
            let mine = attackers & self.side_pieces(side);
            if mine == 0 {
                break;
            }
            result = !result;
            let mut least = None;
            for kind in PieceKind::ALL {
                let b = mine & k[kind.index()];
                if b != 0 {
                    least = Some((kind, b));
                    break;
                }
            }
            let Some((kind, b)) = least else { break };
            if kind == PieceKind::King {
                // The king may only take last: if the other side still attacks, it cannot.
                return if attackers & !self.side_pieces(side) != 0 {
                    !result
                } else {
                    result
                };
            }
            swap = SEE_VALUES[kind.index()] - swap;
            if swap < result as i32 {
                break;
            }
            occupied ^= bb(lsb(b));
            if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
                attackers |= a.bishop(to, occupied) & diagonal;
            }
            if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
                attackers |= a.rook(to, occupied) & straight;
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use crate::chess::Position;
    use crate::game::Game;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos = Position::from_text(fen).unwrap();
        let m = pos.parse_move(uci).unwrap();
        pos.see_ge(m, threshold)
    }

    #[test]
    fn simple_captures() {
        // Pawn takes an undefended knight: +300.
        let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(fen, "e4d5", 300));
        assert!(!see(fen, "e4d5", 301));
        // Queen takes a pawn defended by a pawn: 100 - 900.
        let fen = "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1";
        assert!(see(fen, "d1d5", -800));
        assert!(!see(fen, "d1d5", -799));
    }

    #[test]
    fn x_ray_behind_the_first_attacker() {
        // Rooks doubled on the d-file against a pawn defended once by a rook: R takes p,
        // r takes R, R takes r: 100 - 500 + 500 = +100.
        let fen = "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d5", 100));
        assert!(!see(fen, "d2d5", 101));
        // Without the second rook the exchange loses the rook for a pawn.
        let fen = "3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1";
        assert!(!see(fen, "d2d5", 0));
    }

    #[test]
    fn king_recaptures_only_undefended_pieces() {
        // Bishop takes pawn, king recaptures: 100 - 300.
        let fen = "8/8/8/8/8/4k3/3p4/2B4K w - - 0 1";
        assert!(see(fen, "c1d2", -200));
        assert!(!see(fen, "c1d2", -199));
        // With the white king guarding d2 the black king cannot recapture: +100.
        let fen = "8/8/8/8/8/4k3/3p4/2B1K3 w - - 0 1";
        assert!(see(fen, "c1d2", 100));
        assert!(!see(fen, "c1d2", 101));
    }

    #[test]
    fn quiet_move_to_attacked_square() {
        // A knight stepping onto a square a pawn attacks is lost for nothing.
        let fen = "4k3/8/2p5/8/8/2N5/8/4K3 w - - 0 1";
        assert!(!see(fen, "c3b5", 0));
        assert!(see(fen, "c3b5", -300));
        assert!(see(fen, "c3e4", 0));
    }
}
