//! Zobrist keys for the chess position hash, generated at compile time from a fixed seed.

/// Keys: one per (coloured piece, square), the side to move, each castling-rights set and each
/// en-passant file.
pub struct ZobristKeys {
    pub pieces: [[u64; 64]; 12],
    pub black_to_move: u64,
    pub castling: [u64; 16],
    pub en_passant: [u64; 8],
}

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build() -> ZobristKeys {
    let mut state = 0x5E17_E0C4_E55A_u64;
    let mut pieces = [[0u64; 64]; 12];
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            pieces[p][sq] = splitmix(&mut state);
            sq += 1;
        }
        p += 1;
    }
    let black_to_move = splitmix(&mut state);
    // Castling keys are the XOR of one key per right, so updates can XOR old and new sets.
    let mut single = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        single[i] = splitmix(&mut state);
        i += 1;
    }
    let mut castling = [0u64; 16];
    let mut set = 0;
    while set < 16 {
        let mut bit = 0;
        while bit < 4 {
            if set & (1 << bit) != 0 {
                castling[set] ^= single[bit];
            }
            bit += 1;
        }
        set += 1;
    }
    let mut en_passant = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        en_passant[f] = splitmix(&mut state);
        f += 1;
    }
    ZobristKeys {
        pieces,
        black_to_move,
        castling,
        en_passant,
    }
}

/// The keys.
pub static ZOBRIST: ZobristKeys = build();
