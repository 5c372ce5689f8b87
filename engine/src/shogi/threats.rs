//! Threats for ordering quiet moves: the squares the opponent attacks with pawns, and with pawns
//! or minor pieces (lances, knights, silvers and the gold movers). A board move that takes a
//! rook, bishop, horse or dragon out of a minor piece's attack, or a minor piece out of a pawn's,
//! is tried earlier, and one that puts it under such an attack later
//! (`Game::THREAT_ORDERING`). Drops are left alone: a piece dropped into an attack is
//! often the point of the drop. Whether a move's from and to squares are attacked by anything
//! picks its butterfly-history table (`Game::THREAT_BUCKETS`; a drop's from is never
//! attacked).

use super::attacks::piece_attacks;
use super::bitboard::Bitboard;
use super::moves::Move;
use super::position::Position;
use super::types::PieceKind;

/// Ordering bonus of a rook, bishop, horse or dragon leaving an attack by a minor piece or pawn
/// (and the malus of one entering it), on the scale of the quiet-move history.
const MAJOR_THREAT: i32 = 12_000;
/// The same for a lance, knight, silver or gold mover and attacks by pawns.
const MINOR_THREAT: i32 = 8_000;

/// The squares the side not to move attacks, by the cheapest attacker class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    /// Attacked by a pawn.
    by_pawn: Bitboard,
    /// Attacked by a pawn, lance, knight, silver or gold mover.
    by_minor: Bitboard,
    /// Attacked by any piece.
    any: Bitboard,
}

/// Butterfly-history tables of shogi (`Game::THREAT_BUCKETS`): from square attacked or not × to
/// square attacked or not.
pub const THREAT_BUCKETS: usize = 4;

impl Position {
    /// The opponent's threats against the side to move.
    pub fn threats(&self) -> Threats {
        let them = self.side_to_move_now().flip();
        let occupied = self.occupied();
        let attacks_of = |kinds: &[PieceKind]| {
            let mut attacked = Bitboard::EMPTY;
            for &kind in kinds {
                for sq in self.pieces(them, kind) {
                    attacked |= piece_attacks(them, kind, sq, occupied);
                }
            }
            attacked
        };
        let by_pawn = attacks_of(&[PieceKind::Pawn]);
        let by_minor = by_pawn
            | attacks_of(&[
                PieceKind::Lance,
                PieceKind::Knight,
                PieceKind::Silver,
                PieceKind::Gold,
                PieceKind::ProPawn,
                PieceKind::ProLance,
                PieceKind::ProKnight,
                PieceKind::ProSilver,
            ]);
        let any = by_minor
            | attacks_of(&[
                PieceKind::Rook,
                PieceKind::Bishop,
                PieceKind::Horse,
                PieceKind::Dragon,
                PieceKind::King,
            ]);
        Threats {
            by_pawn,
            by_minor,
            any,
        }
    }

    /// The butterfly-history table of the quiet move `m` by `threats`: 2 × (its from square is
    /// attacked; never for a drop) + (its to square is attacked).
    pub fn threat_bucket(&self, threats: &Threats, m: Move) -> usize {
        let attacked = |square| (threats.any & Bitboard::from_square(square)).any() as usize;
        let from = if m.is_drop() { 0 } else { attacked(m.from()) };
        2 * from + attacked(m.to())
    }

    /// The ordering adjustment of the quiet move `m` by `threats`: plus the piece's bonus when
    /// it leaves a square attacked by a cheaper piece for one that is not, minus it when it
    /// moves onto such a square; 0 for drops, pawns and kings.
    pub fn threat_order(&self, threats: &Threats, m: Move) -> i32 {
        if m.is_drop() {
            return 0;
        }
        let (attacked, value) = match self.piece_on(m.from()).kind() {
            PieceKind::Rook | PieceKind::Bishop | PieceKind::Horse | PieceKind::Dragon => {
                (threats.by_minor, MAJOR_THREAT)
            }
            PieceKind::Pawn | PieceKind::King => return 0,
            _ => (threats.by_pawn, MINOR_THREAT),
        };
        let leaves = (attacked & Bitboard::from_square(m.from())).any();
        let enters = (attacked & Bitboard::from_square(m.to())).any();
        crate::game::threat_adjustment(leaves, enters, value)
    }
}

#[cfg(test)]
mod tests {
    use super::{MAJOR_THREAT, MINOR_THREAT};
    use crate::game::Game;
    use crate::shogi::Position;

    fn order(sfen: &str, usi: &str) -> i32 {
        let pos = Position::from_text(sfen).unwrap();
        let m = pos.parse_usi(usi).unwrap();
        pos.threat_order(&pos.threats(), m)
    }

    #[test]
    fn a_move_s_threat_bucket_says_whether_its_squares_are_attacked_by_anything() {
        // Gote's rook on 1a sees the first rank and the 1-file; its king on 5a attacks 4b-6b;
        // Sente's silver on 1e stands on the rook's file, its gold on 3i is safe.
        let sfen = "4k3r/9/9/9/8S/9/9/9/4K1G2 b P 1";
        let pos = Position::from_text(sfen).unwrap();
        let threats = pos.threats();
        let bucket = |usi: &str| pos.threat_bucket(&threats, pos.parse_usi(usi).unwrap());
        assert_eq!(bucket("1e2d"), 2, "off the rook's file to a safe square");
        assert_eq!(bucket("1e1d"), 3, "along the rook's file");
        assert_eq!(bucket("3i3h"), 0, "between safe squares");
        assert_eq!(bucket("P*4b"), 1, "a drop into the king's attack");
        assert_eq!(bucket("P*3e"), 0, "a drop on a safe square");
    }

    #[test]
    fn pieces_leave_attacks_by_cheaper_pieces_first_and_enter_them_last() {
        // Gote's pawn on 5d attacks Sente's silver on 5e; gote's silver on 2c attacks 1d, 2d,
        // 3d, 1b and 3b; Sente's bishop on 7i sees 6h .. 1c.
        let sfen = "4k4/9/7s1/4p4/4S4/9/9/9/2B1K4 b P 1";
        assert_eq!(
            order(sfen, "5e4f"),
            MINOR_THREAT,
            "the silver leaves the pawn's attack"
        );
        assert_eq!(order(sfen, "7i3e"), 0, "safe to safe");
        assert_eq!(
            order(sfen, "7i2d"),
            -MAJOR_THREAT,
            "into the silver's attack"
        );
        assert_eq!(order(sfen, "P*5f"), 0, "drops are left alone");
        assert_eq!(order(sfen, "5i4h"), 0, "kings are not ordered by threats");
        // A rook attacked by a pawn steps aside.
        let sfen = "4k4/9/9/4p4/4R4/9/9/9/4K4 b - 1";
        assert_eq!(order(sfen, "5e6e"), MAJOR_THREAT);
        assert_eq!(order(sfen, "5e5f"), MAJOR_THREAT);
    }
}
