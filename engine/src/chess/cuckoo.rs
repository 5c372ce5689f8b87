//! Upcoming-repetition detection (Marcel van Kervinck's cuckoo tables): every reversible
//! piece move on an empty board, keyed by the Zobrist difference it makes, so that a search
//! node can tell in a few probes whether the side to move has a move into a position already on
//! the line (a draw it can claim) before searching any move.

use super::bitboard::{between, BISHOP_RAYS, KING_ATTACKS, KNIGHT_ATTACKS, ROOK_RAYS};
use super::position::Position;
use super::types::{piece_side, Square, NO_PIECE};
use super::zobrist::{ZobristKeys, ZOBRIST};
use crate::game::HistoryEntry;

/// Slots of the table (a power of two; both hash functions index it).
const SLOTS: usize = 8192;

/// The table: the key of a move (both squares' piece keys and the side key) and its squares,
/// the lower square first; an empty slot has key 0 and no squares.
pub struct CuckooTable {
    keys: [u64; SLOTS],
    squares: [(Square, Square); SLOTS],
}

#[inline(always)]
const fn first_slot(key: u64) -> usize {
    (key as usize) & (SLOTS - 1)
}

#[inline(always)]
const fn second_slot(key: u64) -> usize {
    ((key >> 16) as usize) & (SLOTS - 1)
}

const fn empty_board_moves(kind: usize, sq: usize) -> u64 {
    match kind {
        1 => KNIGHT_ATTACKS[sq],
        2 => BISHOP_RAYS[sq],
        3 => ROOK_RAYS[sq],
        4 => BISHOP_RAYS[sq] | ROOK_RAYS[sq],
        5 => KING_ATTACKS[sq],
        _ => 0,
    }
}

const fn build(z: &ZobristKeys) -> CuckooTable {
    let mut table = CuckooTable {
        keys: [0; SLOTS],
        squares: [(0, 0); SLOTS],
    };
    let mut piece = 0;
    while piece < 12 {
        let kind = piece % 6;
        let mut a = 0;
        while a < 64 {
            let mut b = a + 1;
            while b < 64 {
                if empty_board_moves(kind, a) & (1u64 << b) != 0 {
                    let mut key = z.pieces[piece][a] ^ z.pieces[piece][b] ^ z.black_to_move;
                    let mut squares = (a as Square, b as Square);
                    let mut slot = first_slot(key);
                    // Cuckoo insertion: take the slot, and move its old entry to that entry's
                    // other slot, until an empty slot takes the last one.
                    loop {
                        let old_key = table.keys[slot];
                        let old_squares = table.squares[slot];
                        table.keys[slot] = key;
                        table.squares[slot] = squares;
                        if old_key == 0 {
                            break;
                        }
                        key = old_key;
                        squares = old_squares;
                        slot = if slot == first_slot(key) {
                            second_slot(key)
                        } else {
                            first_slot(key)
                        };
                    }
                }
                b += 1;
            }
            a += 1;
        }
        piece += 1;
    }
    table
}

/// The table, built at compile time from the position hash's keys.
pub static CUCKOO: CuckooTable = build(&ZOBRIST);

impl CuckooTable {
    /// The squares of the reversible move whose key is `key`, if there is one.
    #[inline(always)]
    pub fn lookup(&self, key: u64) -> Option<(Square, Square)> {
        let slot = first_slot(key);
        if self.keys[slot] == key {
            return Some(self.squares[slot]);
        }
        let slot = second_slot(key);
        (self.keys[slot] == key).then(|| self.squares[slot])
    }
}

impl Position {
    /// Whether the side to move has a reversible move into a position of `history` (oldest
    /// first, the last entry is the parent): inside the search tree (less than `ply` plies back)
    /// any such position counts, as the usual one-occurrence search rule would count it once
    /// reached; at or before the root the move must be the side to move's own and the position
    /// must already have occurred twice, so that the move makes a threefold repetition.
    pub fn upcoming_repetition(&self, history: &[HistoryEntry], ply: usize) -> bool {
        let reach = (self.halfmove as usize).min(history.len());
        if reach < 3 {
            return false;
        }
        let occupied = self.occupied();
        let mut back = 3;
        while back <= reach {
            let earlier = history[history.len() - back].hash;
            if let Some((a, b)) = CUCKOO.lookup(self.hash ^ earlier) {
                if between(a, b) & occupied == 0 {
                    if ply > back {
                        return true;
                    }
                    let from = if self.board[a as usize] == NO_PIECE {
                        b
                    } else {
                        a
                    };
                    if piece_side(self.board[from as usize]) == self.side
                        && occurred_before(history, history.len() - back, earlier)
                    {
                        return true;
                    }
                }
            }
            back += 2;
        }
        false
    }
}

/// Whether `hash` (the position at `index` of `history`) occurred earlier in `history`, with the
/// same side to move (2, 4, ... plies before it). The reach is not bounded by an irreversible
/// move: a hash match across one would need a pawn move or capture undone, which the key rules
/// out.
fn occurred_before(history: &[HistoryEntry], index: usize, hash: u64) -> bool {
    let mut i = index;
    while i >= 2 {
        i -= 2;
        if history[i].hash == hash {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn play(pos: &mut Position, history: &mut Vec<HistoryEntry>, text: &str) {
        let m = pos.parse_move(text).unwrap();
        history.push(HistoryEntry {
            hash: pos.hash(),
            in_check: pos.in_check(),
        });
        pos.make_move(m);
    }

    #[test]
    fn every_reversible_move_has_its_slot() {
        // Reversible moves of knights, bishops, rooks, queens and kings of both sides between
        // two squares, each counted once (a→b and b→a share a key): 2 × 1834.
        let used = CUCKOO.keys.iter().filter(|&&k| k != 0).count();
        assert_eq!(used, 3668);
        // Each stored key is found again by lookup with its own squares.
        let z = &ZOBRIST;
        let (a, b) = (6, 21); // Ng1-f3
        let key = z.pieces[1][a] ^ z.pieces[1][b] ^ z.black_to_move;
        assert_eq!(CUCKOO.lookup(key), Some((6, 21)));
        assert_eq!(CUCKOO.lookup(key ^ 1), None);
    }

    #[test]
    fn a_knight_shuffle_is_seen_one_move_early() {
        let mut pos =
            Position::from_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
                .unwrap();
        let mut history = Vec::new();
        // After Nf3 Nf6 Ng1, Black can play Ng8 into the start position (with White to move).
        for m in ["g1f3", "g8f6", "f3g1"] {
            play(&mut pos, &mut history, m);
        }
        // Searched from the start: the start position is 3 plies back, inside the tree at ply 4.
        assert!(pos.upcoming_repetition(&history, 4));
        // The same at the root (ply 0): a single earlier occurrence is no threefold yet.
        assert!(!pos.upcoming_repetition(&history, 0));
        // One more cycle: now moving back repeats the start position a third time.
        for m in ["f6g8", "g1f3", "g8f6", "f3g1"] {
            play(&mut pos, &mut history, m);
        }
        assert!(pos.upcoming_repetition(&history, 0));
    }

    fn hash_of(fen: &str) -> HistoryEntry {
        let pos = Position::from_text(fen).unwrap();
        HistoryEntry {
            hash: pos.hash(),
            in_check: pos.in_check(),
        }
    }

    #[test]
    fn a_slider_needs_a_free_path() {
        // Three plies ago Black's rook stood on h8 (White to move); it is on h3 now.
        let earlier = |fen: &str| vec![hash_of(fen), hash_of(fen), hash_of(fen)];
        let free = Position::from_text("4k3/8/8/6P1/8/7r/8/4K3 b - - 3 10").unwrap();
        let history = earlier("4k2r/8/8/6P1/8/8/8/4K3 w - - 0 8");
        assert!(free.upcoming_repetition(&history, 4));
        // The same with White's pawn on h5, between h3 and h8: the rook cannot go back.
        let blocked = Position::from_text("4k3/8/8/7P/8/7r/8/4K3 b - - 3 10").unwrap();
        let history = earlier("4k2r/8/8/7P/8/8/8/4K3 w - - 0 8");
        assert!(!blocked.upcoming_repetition(&history, 4));
        // With a halfmove clock below 3 (a pawn move or capture since), nothing repeats.
        let reset = Position::from_text("4k3/8/8/6P1/8/7r/8/4K3 b - - 2 10").unwrap();
        let history = earlier("4k2r/8/8/6P1/8/8/8/4K3 w - - 0 8");
        assert!(!reset.upcoming_repetition(&history, 4));
    }

    #[test]
    fn two_moves_away_is_not_upcoming() {
        // The rook went h8-h3 and the king e1-d1: one move cannot undo both.
        let pos = Position::from_text("4k3/8/8/6P1/8/7r/8/3K4 b - - 3 10").unwrap();
        let history = vec![hash_of("4k2r/8/8/6P1/8/8/8/4K3 w - - 0 8"); 3];
        assert!(!pos.upcoming_repetition(&history, 4));
    }
}
