//! Zobrist keys for pieces on squares, hand counts and the side to move, generated at compile time.

use super::types::{HAND_KINDS, SQUARES};

/// Most pieces of one kind a hand can hold (18 pawns).
pub const MAX_HAND_COUNT: usize = 18;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

pub struct Keys {
    /// `[piece slot][square]`.
    pub piece: [[u64; SQUARES]; 28],
    /// `[side][hand kind][count]`.
    pub hand: [[[u64; MAX_HAND_COUNT + 1]; HAND_KINDS]; 2],
    /// XORed in when White is to move.
    pub white_to_move: u64,
}

pub static KEYS: Keys = {
    let mut state = 0x5E47_E5E4_7E00_0001u64;
    let mut piece = [[0u64; SQUARES]; 28];
    let mut p = 0;
    while p < 28 {
        let mut sq = 0;
        while sq < SQUARES {
            let (s, k) = splitmix(state);
            state = s;
            piece[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    let mut hand = [[[0u64; MAX_HAND_COUNT + 1]; HAND_KINDS]; 2];
    let mut side = 0;
    while side < 2 {
        let mut kind = 0;
        while kind < HAND_KINDS {
            // Count 0 hashes to 0 so an empty hand adds nothing.
            let mut n = 1;
            while n <= MAX_HAND_COUNT {
                let (s, k) = splitmix(state);
                state = s;
                hand[side][kind][n] = k;
                n += 1;
            }
            kind += 1;
        }
        side += 1;
    }
    let (_, white_to_move) = splitmix(state);
    Keys {
        piece,
        hand,
        white_to_move,
    }
};
