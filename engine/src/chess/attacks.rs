//! Slider attack lookup: the `SliderAttacks` trait with its two back ends (magic multiply, and
//! BMI2 `pext` chosen at run time on CPUs where it is fast), and the shared tables built once.

use super::magic::{build_magic_tables, MagicTables};
use super::pext::{bmi2_available, bmi2_fast, build_pext_tables, PextTables};
use super::types::Square;
use std::sync::OnceLock;

/// All run-time-built slider tables and the CPU decision.
pub struct SliderTables {
    pub magic: MagicTables,
    pub pext: PextTables,
    /// `pext` is present and fast on this CPU: the move generator uses it.
    pub use_pext: bool,
    /// `pext` can run on this CPU at all (tests compare both back ends when it can).
    pub pext_available: bool,
}

static TABLES: OnceLock<SliderTables> = OnceLock::new();

/// The tables, built on first use.
#[inline]
pub fn tables() -> &'static SliderTables {
    TABLES.get_or_init(|| SliderTables {
        magic: build_magic_tables(),
        pext: build_pext_tables(),
        use_pext: bmi2_fast(),
        pext_available: bmi2_available(),
    })
}

/// Rook and bishop attacks for an occupancy.
pub trait SliderAttacks: Copy {
    fn rook(self, sq: Square, occupied: u64) -> u64;
    fn bishop(self, sq: Square, occupied: u64) -> u64;
    #[inline(always)]
    fn queen(self, sq: Square, occupied: u64) -> u64 {
        self.rook(sq, occupied) | self.bishop(sq, occupied)
    }
}

/// Magic-multiply back end (every CPU).
#[derive(Clone, Copy)]
pub struct Magic(&'static MagicTables);

impl Magic {
    pub fn new() -> Self {
        Magic(&tables().magic)
    }
}

impl Default for Magic {
    fn default() -> Self {
        Self::new()
    }
}

impl SliderAttacks for Magic {
    #[inline(always)]
    fn rook(self, sq: Square, occupied: u64) -> u64 {
        let t = self.0;
        t.attacks[t.rook[sq as usize & 63].index(occupied)]
    }

    #[inline(always)]
    fn bishop(self, sq: Square, occupied: u64) -> u64 {
        let t = self.0;
        t.attacks[t.bishop[sq as usize & 63].index(occupied)]
    }
}

/// BMI2 `pext` back end. Only constructible on a CPU that has BMI2, BMI1 and POPCNT.
#[derive(Clone, Copy)]
pub struct Pext(&'static PextTables);

impl Pext {
    /// The PEXT back end if this CPU can execute `pext` (fast or not).
    pub fn new() -> Option<Self> {
        let t = tables();
        t.pext_available.then_some(Pext(&t.pext))
    }

    /// The PEXT back end if the generator should use it (BMI2 present and fast).
    pub fn preferred() -> Option<Self> {
        let t = tables();
        t.use_pext.then_some(Pext(&t.pext))
    }

    #[inline(always)]
    fn extract(occupied: u64, mask: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: a `Pext` value exists only when `pext::bmi2_available()` held.
            unsafe { std::arch::x86_64::_pext_u64(occupied, mask) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            pext_scalar(occupied, mask)
        }
    }
}

/// Portable bit extract with the same result as the BMI2 instruction (the scalar twin).
pub fn pext_scalar(value: u64, mut mask: u64) -> u64 {
    let mut result = 0u64;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if value & low != 0 {
            result |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    result
}

/// `pext` through the CPU instruction; `None` without BMI2. For tests against `pext_scalar`.
pub fn pext_hardware(value: u64, mask: u64) -> Option<u64> {
    Pext::new().map(|_| Pext::extract(value, mask))
}

impl SliderAttacks for Pext {
    #[inline(always)]
    fn rook(self, sq: Square, occupied: u64) -> u64 {
        let e = self.0.rook[sq as usize & 63];
        self.0.attacks[e.offset as usize + Self::extract(occupied, e.mask) as usize]
    }

    #[inline(always)]
    fn bishop(self, sq: Square, occupied: u64) -> u64 {
        let e = self.0.bishop[sq as usize & 63];
        self.0.attacks[e.offset as usize + Self::extract(occupied, e.mask) as usize]
    }
}

/// Runs `$body` with `$a` bound to the preferred slider back end: inside a BMI2-enabled
/// function when `pext` is fast, otherwise with magics. `$body` should call `#[inline(always)]`
/// generic code so that the whole hot path is compiled with BMI2.
macro_rules! with_sliders {
    (|$a:ident| $body:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            /// Runs `f` compiled with BMI2, BMI1 and POPCNT (`count_ones`, `trailing_zeros`
            /// and the clearing of a bitboard's lowest bit become one instruction each).
            ///
            /// # Safety
            /// The CPU must support them (`pext::bmi2_available`).
            #[target_feature(enable = "bmi2,bmi1,popcnt")]
            unsafe fn with_bmi2<R>(f: impl FnOnce() -> R) -> R {
                f()
            }
            if let Some($a) = $crate::chess::attacks::Pext::preferred() {
                // SAFETY: `preferred` returned a back end, so the CPU supports BMI2, BMI1 and POPCNT.
                unsafe {
                    with_bmi2(
                        #[inline(always)]
                        || $body,
                    )
                }
            } else {
                let $a = $crate::chess::attacks::Magic::new();
                $body
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let $a = $crate::chess::attacks::Magic::new();
            $body
        }
    }};
}
pub(crate) use with_sliders;

#[cfg(test)]
mod tests {
    use super::super::bitboard::{bishop_attacks_slow, rook_attacks_slow};
    use super::*;

    #[test]
    fn magic_matches_ray_walk() {
        let m = Magic::new();
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & x.rotate_left(17);
            let sq = (x >> 58) as u8;
            assert_eq!(m.rook(sq, occ), rook_attacks_slow(sq, occ));
            assert_eq!(m.bishop(sq, occ), bishop_attacks_slow(sq, occ));
            if let Some(p) = Pext::new() {
                assert_eq!(p.rook(sq, occ), rook_attacks_slow(sq, occ));
                assert_eq!(p.bishop(sq, occ), bishop_attacks_slow(sq, occ));
                assert_eq!(pext_hardware(occ, x), Some(pext_scalar(occ, x)));
            }
        }
    }
}
