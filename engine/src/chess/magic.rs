//! Magic-bitboard slider tables ("fancy" magics with a shared attack table): the portable way to
//! look up rook and bishop attacks. The magic numbers below were found by this module's own
//! search (`search_magic`, fixed seed); at start-up each is verified while its table is filled,
//! and a square whose number failed would be searched again, so the tables are always right.

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

/// Rook magic numbers, a1 .. h8.
pub const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002C03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000A001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021D00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000A0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000A00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040A00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xC100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000A0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040A00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04C1002414824001,
    0x020020000B001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084C0007,
    0x0888221800813004,
    0x4000002840840112,
];
/// Bishop magic numbers, a1 .. h8.
pub const BISHOP_MAGICS: [u64; 64] = [
    0xA010041108003100,
    0x006082020A002900,
    0x6810010619200000,
    0x08281A0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040A0210245280,
    0x000200210808A402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202C0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208B0542109008A2,
    0x0080084A08040204,
    0x0040E2A80811244C,
    0x2505022008008108,
    0x0430220100420040,
    0x010A040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000A62048043004,
    0x280120048A015004,
    0x006090002A020814,
    0x44042000240800D0,
    0x01102800040A4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500C05021,
    0x0088611002080200,
    0x0116080A00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002E00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221C0400,
    0x0422014022009020,
    0x0210046102100C00,
    0xC004008082029102,
    0x00AA461801101200,
    0x0404080080201108,
    0x020542108C205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400C0,
    0x0200100410A42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800C262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012A02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

/// Subsets of `mask` (in increasing order) and the slider attacks for each.
fn occupancies(sq: Square, mask: u64, slow: fn(Square, u64) -> u64) -> Vec<(u64, u64)> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut subset = 0u64;
    loop {
        out.push((subset, slow(sq, subset)));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    out
}

/// Fills `slots` (all `None` on entry) for `magic`; false on a destructive collision.
fn fill(slots: &mut [Option<u64>], cases: &[(u64, u64)], magic: u64, shift: u32) -> bool {
    for &(occ, reference) in cases {
        let idx = (occ.wrapping_mul(magic) >> shift) as usize;
        match slots[idx] {
            None => slots[idx] = Some(reference),
            Some(existing) if existing == reference => {}
            Some(_) => return false,
        }
    }
    true
}

/// Searches a magic number for one square with a deterministic generator.
pub fn search_magic(cases: &[(u64, u64)], mask: u64, seed: u64) -> u64 {
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let mut rng = Xorshift(seed | 1);
    let mut slots = vec![None; 1 << bits];
    loop {
        let candidate = rng.sparse();
        if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
            continue;
        }
        slots.iter_mut().for_each(|s| *s = None);
        if fill(&mut slots, cases, candidate, shift) {
            return candidate;
        }
    }
}

/// Builds the table for one slider kind from the given magics, appending to `table`.
fn build_kind(
    table: &mut Vec<u64>,
    magics: &[u64; 64],
    mask_of: fn(Square) -> u64,
    slow: fn(Square, u64) -> u64,
) -> [MagicEntry; 64] {
    let mut entries = [MagicEntry::default(); 64];
    for sq in 0..64u8 {
        let mask = mask_of(sq);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        let cases = occupancies(sq, mask, slow);
        let mut slots = vec![None; 1 << bits];
        let mut magic = magics[sq as usize];
        if !fill(&mut slots, &cases, magic, shift) {
            magic = search_magic(&cases, mask, 0x9E37_79B9_7F4A_7C15 ^ sq as u64);
            slots.iter_mut().for_each(|s| *s = None);
            fill(&mut slots, &cases, magic, shift);
        }
        let offset = table.len();
        table.extend(slots.iter().map(|s| s.unwrap_or(0)));
        entries[sq as usize] = MagicEntry {
            mask,
            magic,
            shift,
            offset: offset as u32,
        };
    }
    entries
}

/// Builds the attack table for both slider kinds.
pub fn build_magic_tables() -> MagicTables {
    let mut table = Vec::with_capacity(107_648);
    let rook = build_kind(&mut table, &ROOK_MAGICS, rook_mask, rook_attacks_slow);
    let bishop = build_kind(&mut table, &BISHOP_MAGICS, bishop_mask, bishop_attacks_slow);
    MagicTables {
        rook,
        bishop,
        attacks: table.into_boxed_slice(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_magics_are_valid_and_search_finds_others() {
        for sq in 0..64u8 {
            for (mask, slow, magics) in [
                (
                    rook_mask(sq),
                    rook_attacks_slow as fn(Square, u64) -> u64,
                    &ROOK_MAGICS,
                ),
                (bishop_mask(sq), bishop_attacks_slow, &BISHOP_MAGICS),
            ] {
                let cases = occupancies(sq, mask, slow);
                let mut slots = vec![None; 1 << mask.count_ones()];
                assert!(fill(
                    &mut slots,
                    &cases,
                    magics[sq as usize],
                    64 - mask.count_ones()
                ));
            }
        }
        // The search itself works (a bishop square: quick).
        let mask = bishop_mask(27);
        let cases = occupancies(27, mask, bishop_attacks_slow);
        let magic = search_magic(&cases, mask, 12345);
        let mut slots = vec![None; 1 << mask.count_ones()];
        assert!(fill(&mut slots, &cases, magic, 64 - mask.count_ones()));
    }
}
