//! Piece values and static exchange evaluation. A capture is worth the captured piece's board
//! value plus its value in the capturer's hand (it changes sides), so exchanges count double.

use super::bitboard::Bitboard;
use super::moves::Move;
use super::position::Position;
use super::types::{PieceKind, KINDS};

/// Board values in centipawns (Bonanza-style standard values), indexed by `PieceKind`.
pub const PIECE_VALUE: [i32; KINDS] = [
    90,    // pawn
    315,   // lance
    405,   // knight
    495,   // silver
    855,   // bishop
    990,   // rook
    540,   // gold
    15000, // king
    540,   // tokin
    540,   // promoted lance
    540,   // promoted knight
    540,   // promoted silver
    945,   // horse
    1395,  // dragon
];

/// What capturing a piece of `kind` gains: its board value plus the hand piece it becomes.
#[inline]
pub fn capture_value(kind: PieceKind) -> i32 {
    if kind == PieceKind::King {
        PIECE_VALUE[PieceKind::King as usize]
    } else {
        PIECE_VALUE[kind as usize] + PIECE_VALUE[kind.unpromoted() as usize]
    }
}

/// Attackers tried in order of increasing capture value.
const CHEAPEST_FIRST: [PieceKind; KINDS] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::ProPawn,
    PieceKind::Knight,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::Silver,
    PieceKind::ProSilver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Horse,
    PieceKind::Rook,
    PieceKind::Dragon,
    PieceKind::King,
];

impl Position {
    /// Material gain of a capture or promotion for move ordering; 0 for quiet moves.
    pub fn move_gain(&self, m: Move) -> i32 {
        if m.is_drop() {
            return 0;
        }
        let mut gain = 0;
        let captured = self.piece_on(m.to());
        if captured.is_some() {
            gain += capture_value(captured.kind());
        }
        if m.is_promotion() {
            let kind = self.piece_on(m.from()).kind();
            gain += PIECE_VALUE[kind.promoted() as usize] - PIECE_VALUE[kind as usize];
        }
        gain
    }

    /// Whether the exchange started by `m` on its destination nets at least `threshold`
    /// (pins are ignored; later recaptures are not promoted).
    pub fn see_at_least(&self, m: Move, threshold: i32) -> bool {
        let to = m.to();
        let us = self.side_to_move_now();
        let moved_kind = self.placed_kind(m);
        let mut occupied = self.occupied_after(m);
        let mut swap = self.move_gain(m) - threshold;
        if swap < 0 {
            return false;
        }
        swap = capture_value(moved_kind) - swap;
        if swap <= 0 {
            return true;
        }
        let mut side = us;
        let mut result = true;
        loop {
            side = side.flip();
            let attackers = self.attackers_to(side, to, occupied) & occupied;
            if attackers.is_empty() {
                break;
            }
            let mut next = None;
            for kind in CHEAPEST_FIRST {
                let of_kind = attackers & self.pieces_kind(kind);
                if of_kind.any() {
                    next = Some((kind, of_kind.lsb()));
                    break;
                }
            }
            let Some((kind, from)) = next else { break };
            if kind == PieceKind::King {
                // The king may only take last: if the other side still attacks, it can't.
                let other = self.attackers_to(side.flip(), to, occupied) & occupied;
                return if other.any() { result } else { !result };
            }
            result = !result;
            swap = capture_value(kind) - swap;
            if swap < result as i32 {
                break;
            }
            occupied ^= Bitboard::from_square(from);
        }
        result
    }
}
