//! Magic-bitboard slider tables ("fancy" magics with a shared attack table): the portable way to
//! look up rook and bishop attacks. Magic numbers are searched once at start-up with a fixed seed.

use super::bitboard::{bishop_attacks_slow, rook_attacks_slow, BISHOP_RAYS, FILE_A, FILE_H};
use super::bitboard::{RANK_1, RANK_8, ROOK_RAYS};
use super::types::Square;

/// One square's magic: relevant-occupancy mask, multiplier, shift and table offset.
#[derive(Clone, Copy, Debug, Default)]
pub struct MagicEntry {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: u32,
}

impl MagicEntry {
    /// Index into the shared table for this occupancy.
    #[inline(always)]
    pub fn index(&self, occupied: u64) -> usize {
        self.offset as usize
            + ((occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// Magic entries for both slider kinds and the shared attack table.
pub struct MagicTables {
    pub rook: [MagicEntry; 64],
    pub bishop: [MagicEntry; 64],
    pub attacks: Box<[u64]>,
}

/// Relevant occupancy mask for a rook: its rays without the board edges it runs into.
pub fn rook_mask(sq: Square) -> u64 {
    let sqb = 1u64 << sq;
    let edges = ((RANK_1 | RANK_8) & !rank_bb(sq)) | ((FILE_A | FILE_H) & !file_bb(sq));
    ROOK_RAYS[sq as usize] & !edges & !sqb
}

/// Relevant occupancy mask for a bishop: its diagonals without the board edge.
pub fn bishop_mask(sq: Square) -> u64 {
    BISHOP_RAYS[sq as usize] & !(RANK_1 | RANK_8 | FILE_A | FILE_H)
}

fn rank_bb(sq: Square) -> u64 {
    RANK_1 << (8 * (sq >> 3))
}

fn file_bb(sq: Square) -> u64 {
    FILE_A << (sq & 7)
}

/// Small deterministic xorshift generator for the magic search.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Finds magics for every square of one slider kind, appending their attack sets to `table`.
fn build_kind(
    table: &mut Vec<u64>,
    rng: &mut Xorshift,
    mask_of: fn(Square) -> u64,
    slow: fn(Square, u64) -> u64,
) -> [MagicEntry; 64] {
    let mut entries = [MagicEntry::default(); 64];
    let mut occupancies = Vec::with_capacity(4096);
    let mut references = Vec::with_capacity(4096);
    let mut epoch = vec![0u32; 4096];
    let mut scratch = vec![0u64; 4096];
    let mut attempt = 0u32;
    for sq in 0..64u8 {
        let mask = mask_of(sq);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        occupancies.clear();
        references.clear();
        let mut subset = 0u64;
        loop {
            occupancies.push(subset);
            references.push(slow(sq, subset));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let magic = loop {
            let candidate = rng.sparse();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let mut ok = true;
            for (&occ, &reference) in occupancies.iter().zip(&references) {
                let idx = (occ.wrapping_mul(candidate) >> shift) as usize;
                if epoch[idx] < attempt {
                    epoch[idx] = attempt;
                    scratch[idx] = reference;
                } else if scratch[idx] != reference {
                    ok = false;
                    break;
                }
            }
            if ok {
                break candidate;
            }
        };
        let offset = table.len();
        table.resize(offset + size, 0);
        for (&occ, &reference) in occupancies.iter().zip(&references) {
            table[offset + (occ.wrapping_mul(magic) >> shift) as usize] = reference;
        }
        entries[sq as usize] = MagicEntry {
            mask,
            magic,
            shift,
            offset: offset as u32,
        };
    }
    entries
}

/// Searches magics for both slider kinds (deterministic) and fills the attack table.
pub fn build_magic_tables() -> MagicTables {
    let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
    let mut table = Vec::with_capacity(107_648);
    let rook = build_kind(&mut table, &mut rng, rook_mask, rook_attacks_slow);
    let bishop = build_kind(&mut table, &mut rng, bishop_mask, bishop_attacks_slow);
    MagicTables {
        rook,
        bishop,
        attacks: table.into_boxed_slice(),
    }
}
