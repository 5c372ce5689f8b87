//! Fast chess perft: the whole recursion runs with one slider back end (BMI2 `pext` when fast,
//! magics otherwise) and counts the last ply without building moves.

use super::attacks::{Magic, Pext, SliderAttacks};
use super::movegen::{generate, CountSink, ListSink};
use super::moves::Move;
use super::position::Position;
use crate::movelist::{ArrayMoveList, MoveList};

/// Shared body of the two perft instantiations.
macro_rules! perft_body {
    ($pos:expr, $depth:expr, $a:expr, $recurse:expr) => {{
        let pos: &Position = $pos;
        let depth: u32 = $depth;
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            let mut count = CountSink(0);
            generate::<_, _, false>(pos, $a, &mut count, !0);
            return count.0;
        }
        let mut moves = ArrayMoveList::<Move, 256>::default();
        generate::<_, _, false>(pos, $a, &mut ListSink(&mut moves), !0);
        let mut total = 0;
        for &m in moves.as_slice() {
            let mut child = *pos;
            child.make_move_with($a, m);
            total += $recurse(&child, depth - 1);
        }
        total
    }};
}

/// Perft with the magic back end.
pub(crate) fn perft_magic(pos: &Position, depth: u32, a: Magic) -> u64 {
    perft_body!(pos, depth, a, |c: &Position, d| perft_magic(c, d, a))
}

/// Perft with the PEXT back end, compiled with BMI2, BMI1 and POPCNT enabled.
///
/// # Safety
/// The CPU must support them (guaranteed by holding a `Pext`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,bmi1,popcnt")]
pub(crate) unsafe fn perft_pext(pos: &Position, depth: u32, a: Pext) -> u64 {
    // SAFETY: recursion keeps the same CPU guarantee as this call.
    perft_body!(pos, depth, a, |c: &Position, d| unsafe {
        perft_pext(c, d, a)
    })
}

/// Perft with the PEXT back end (scalar `pext` off x86_64).
///
/// # Safety
/// Always safe off x86_64; `unsafe` only to match the x86_64 signature.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) unsafe fn perft_pext(pos: &Position, depth: u32, a: Pext) -> u64 {
    // SAFETY: nothing CPU-specific runs here.
    perft_body!(pos, depth, a, |c: &Position, d| unsafe {
        perft_pext(c, d, a)
    })
}

impl Position {
    /// Perft with the preferred slider back end.
    pub fn perft_fast(&self, depth: u32) -> u64 {
        match Pext::preferred() {
            // SAFETY: `preferred` only returns a back end on a CPU with BMI2, BMI1 and POPCNT.
            Some(a) => unsafe { perft_pext(self, depth, a) },
            None => perft_magic(self, depth, Magic::new()),
        }
    }

    /// Perft forced onto the magic back end (for comparing the back ends).
    pub fn perft_with_magic(&self, depth: u32) -> u64 {
        perft_magic(self, depth, Magic::new())
    }

    /// Perft forced onto the PEXT back end; `None` when the CPU lacks BMI2, BMI1 or POPCNT.
    pub fn perft_with_pext(&self, depth: u32) -> Option<u64> {
        // SAFETY: `Pext::new` only returns a back end on a CPU with BMI2, BMI1 and POPCNT.
        Pext::new().map(|a| unsafe { perft_pext(self, depth, a) })
    }

    /// Legal moves with a chosen back end (for comparing the back ends).
    pub fn legal_moves_with<A: SliderAttacks>(&self, a: A) -> ArrayMoveList<Move, 256> {
        let mut moves = ArrayMoveList::default();
        generate::<A, _, false>(self, a, &mut ListSink(&mut moves), !0);
        moves
    }
}
