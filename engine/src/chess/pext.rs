//! PEXT-indexed slider tables and the run-time check for a CPU with fast BMI2. The index of an
//! occupancy is `pext(occupied, mask)`, so no multiplier is needed; the table is filled in the
//! same order (subsets of the mask enumerated in increasing order), so it is built on any CPU.

use super::bitboard::{bishop_attacks_slow, rook_attacks_slow};
use super::magic::{bishop_mask, rook_mask};
use super::types::Square;

/// One square's PEXT entry: relevant-occupancy mask and table offset.
#[derive(Clone, Copy, Debug, Default)]
pub struct PextEntry {
    pub mask: u64,
    pub offset: u32,
}

/// PEXT entries for both slider kinds and the shared attack table.
pub struct PextTables {
    pub rook: [PextEntry; 64],
    pub bishop: [PextEntry; 64],
    pub attacks: Box<[u64]>,
}

fn build_kind(
    table: &mut Vec<u64>,
    mask_of: fn(Square) -> u64,
    slow: fn(Square, u64) -> u64,
) -> [PextEntry; 64] {
    let mut entries = [PextEntry::default(); 64];
    for sq in 0..64u8 {
        let mask = mask_of(sq);
        entries[sq as usize] = PextEntry {
            mask,
            offset: table.len() as u32,
        };
        // Subsets in increasing numeric order are exactly pext indices 0, 1, 2, ...
        let mut subset = 0u64;
        loop {
            table.push(slow(sq, subset));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
    }
    entries
}

/// Builds the PEXT tables (valid whether or not this CPU can use them).
pub fn build_pext_tables() -> PextTables {
    let mut table = Vec::with_capacity(107_648);
    let rook = build_kind(&mut table, rook_mask, rook_attacks_slow);
    let bishop = build_kind(&mut table, bishop_mask, bishop_attacks_slow);
    PextTables {
        rook,
        bishop,
        attacks: table.into_boxed_slice(),
    }
}

/// Whether this CPU executes the BMI2 `pext` instruction at all, with the BMI1 and POPCNT
/// instructions that every BMI2 CPU also has: the code that runs with `pext`
/// (`attacks::with_sliders`, `perft::perft_pext`) is compiled with all three.
pub fn bmi2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether `pext` is available and fast: BMI2 present, and not an AMD CPU before Zen 3
/// (families below 0x19 run `pext` in microcode, far slower than a magic multiply).
pub fn bmi2_fast() -> bool {
    if !bmi2_available() {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        // SAFETY: `cpuid` exists on every x86_64 CPU; leaves 0 and 1 are always valid.
        #[allow(unused_unsafe)]
        let (vendor, signature) = unsafe {
            let leaf0 = __cpuid(0);
            ([leaf0.ebx, leaf0.edx, leaf0.ecx], __cpuid(1).eax)
        };
        // "AuthenticAMD" / "HygonGenuine" as the three vendor registers.
        let amd = vendor == [0x6874_7541, 0x6974_6E65, 0x444D_4163];
        let hygon = vendor == [0x6F67_7948, 0x6E65_476E, 0x656E_6975];
        if amd || hygon {
            let base = (signature >> 8) & 0xF;
            let family = if base == 0xF {
                base + ((signature >> 20) & 0xFF)
            } else {
                base
            };
            return family >= 0x19 && amd;
        }
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
