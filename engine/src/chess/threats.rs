//! Threats for ordering quiet moves: the squares the opponent attacks with pawns, with pawns or
//! minor pieces, with anything up to rooks, and with anything. A quiet move that takes a piece
//! out of an attack by a cheaper piece is tried earlier, and one that puts it under such an
//! attack later (`Game::THREAT_ORDERING`); whether a move's from and to squares are
//! attacked at all picks its butterfly-history table (`Game::THREAT_BUCKETS`).

use super::attacks::{with_sliders, SliderAttacks};
use super::bitboard::{bb, pawn_attacks_bb, pop_lsb, KING_ATTACKS, KNIGHT_ATTACKS};
use super::moves::Move;
use super::position::Position;
use super::types::PieceKind;

/// Ordering bonus of a queen leaving an attack by a rook or cheaper piece (and the malus of one
/// entering it), on the scale of the quiet-move history (three tables of at most ±16,384).
const QUEEN_THREAT: i32 = 24_000;
/// The same for a rook and attacks by minor pieces or pawns.
const ROOK_THREAT: i32 = 12_000;
/// The same for a knight or bishop and attacks by pawns.
const MINOR_THREAT: i32 = 8_000;

/// The squares the side not to move attacks, by the cheapest attacker class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    /// Attacked by a pawn.
    by_pawn: u64,
    /// Attacked by a pawn, knight or bishop.
    by_minor: u64,
    /// Attacked by a pawn, knight, bishop or rook.
    by_rook: u64,
    /// Attacked by any piece.
    any: u64,
}

/// Butterfly-history tables of chess (`Game::THREAT_BUCKETS`): from square attacked or not ×
/// to square attacked or not.
pub const THREAT_BUCKETS: usize = 4;

impl Position {
    /// The opponent's threats against the side to move.
    pub fn threats(&self) -> Threats {
        with_sliders!(|a| self.threats_with(a))
    }

    #[inline(always)]
    fn threats_with<A: SliderAttacks>(&self, a: A) -> Threats {
        let them = self.side.flip();
        let occupied = self.occupied();
        let by_pawn = pawn_attacks_bb(them, self.pieces(them, PieceKind::Pawn));
        let mut by_minor = by_pawn;
        let mut knights = self.pieces(them, PieceKind::Knight);
        while knights != 0 {
            by_minor |= KNIGHT_ATTACKS[pop_lsb(&mut knights) as usize];
        }
        let mut bishops = self.pieces(them, PieceKind::Bishop);
        while bishops != 0 {
            by_minor |= a.bishop(pop_lsb(&mut bishops), occupied);
        }
        let mut by_rook = by_minor;
        let mut rooks = self.pieces(them, PieceKind::Rook);
        while rooks != 0 {
            by_rook |= a.rook(pop_lsb(&mut rooks), occupied);
        }
        let mut any = by_rook | KING_ATTACKS[self.king_square(them) as usize];
        let mut queens = self.pieces(them, PieceKind::Queen);
        while queens != 0 {
            let square = pop_lsb(&mut queens);
            any |= a.bishop(square, occupied) | a.rook(square, occupied);
        }
        Threats {
            by_pawn,
            by_minor,
            by_rook,
            any,
        }
    }

    /// The butterfly-history table of the quiet move `m` by `threats`: 2 × (its from square is
    /// attacked) + (its to square is attacked); castling 0.
    pub fn threat_bucket(&self, threats: &Threats, m: Move) -> usize {
        if m.is_castle() {
            return 0;
        }
        let attacked = |square| (threats.any & bb(square) != 0) as usize;
        2 * attacked(m.from()) + attacked(m.to())
    }

    /// The ordering adjustment of the quiet move `m` by `threats`: plus the piece's bonus when
    /// it leaves a square attacked by a cheaper piece for one that is not, minus it when it
    /// moves onto such a square; 0 for pawns, kings, castling and everything else.
    pub fn threat_order(&self, threats: &Threats, m: Move) -> i32 {
        if m.is_castle() {
            return 0;
        }
        let (attacked, value) = match self.piece_at(m.from()) {
            Some((_, PieceKind::Queen)) => (threats.by_rook, QUEEN_THREAT),
            Some((_, PieceKind::Rook)) => (threats.by_minor, ROOK_THREAT),
            Some((_, PieceKind::Knight | PieceKind::Bishop)) => (threats.by_pawn, MINOR_THREAT),
            _ => return 0,
        };
        let leaves = attacked & bb(m.from()) != 0;
        let enters = attacked & bb(m.to()) != 0;
        crate::game::threat_adjustment(leaves, enters, value)
    }
}

#[cfg(test)]
mod tests {
    use super::{MINOR_THREAT, QUEEN_THREAT, ROOK_THREAT};
    use crate::chess::Position;
    use crate::game::Game;

    fn order(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_text(fen).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        pos.threat_order(&pos.threats(), m)
    }

    #[test]
    fn a_move_s_threat_bucket_says_whether_its_squares_are_attacked_by_anything() {
        // Black: knight b3 (hits a1, c1, d2, d4), queen h4 (the h-file down to h1, the
        // diagonal to the f2 pawn, which shields e1), king e8. White's bishop b2 is safe.
        let fen = "4k3/8/8/8/7q/1n6/1B3P2/R3K2R w KQ - 0 1";
        let pos = Position::from_text(fen).unwrap();
        let threats = pos.threats();
        let bucket = |uci: &str| pos.threat_bucket(&threats, pos.parse_uci(uci).unwrap());
        assert_eq!(bucket("a1a2"), 2, "from an attacked square to a safe one");
        assert_eq!(
            bucket("h1h3"),
            3,
            "from an attacked square to an attacked one"
        );
        assert_eq!(bucket("b2c1"), 1, "from a safe square to an attacked one");
        assert_eq!(bucket("e1d1"), 0, "between safe squares");
        assert_eq!(bucket("e1g1"), 0, "castling");
    }

    #[test]
    fn pieces_leave_attacks_by_cheaper_pieces_first_and_enter_them_last() {
        // Black: pawns d6 (hits e5) and g6 (hits f5), knight b3 (hits a1, d4), rook a4 (rank 4).
        let fen = "4k3/8/3p2p1/4N3/r7/1n4N1/8/R2QK3 w - - 0 1";
        assert_eq!(
            order(fen, "e5g4"),
            MINOR_THREAT,
            "the knight leaves the pawn's attack"
        );
        assert_eq!(
            order(fen, "e5c4"),
            MINOR_THREAT,
            "a rook's attack does not count for a knight"
        );
        assert_eq!(
            order(fen, "g3f5"),
            -MINOR_THREAT,
            "into the g6 pawn's attack"
        );
        assert_eq!(order(fen, "g3e2"), 0, "safe to safe");
        assert_eq!(
            order(fen, "a1a2"),
            ROOK_THREAT,
            "the rook leaves the knight's attack"
        );
        assert_eq!(
            order(fen, "d1d4"),
            -QUEEN_THREAT,
            "into the rook's and the knight's attack"
        );
        assert_eq!(order(fen, "d1d2"), -QUEEN_THREAT, "d2 is the knight's too");
        assert_eq!(order(fen, "d1c2"), 0, "safe to safe");
        assert_eq!(order(fen, "e1f2"), 0, "kings are not ordered by threats");
        // A queen attacked by a rook steps away.
        let fen = "4k3/8/8/8/r2Q4/8/8/4K3 w - - 0 1";
        assert_eq!(order(fen, "d4d1"), QUEEN_THREAT);
        assert_eq!(
            order(fen, "d4b4"),
            -QUEEN_THREAT,
            "still on the rook's rank"
        );
    }
}
