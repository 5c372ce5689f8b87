//! u128 vs two-u64 bitboards for shogi's 81 squares, on the operations move generation leans
//! on: popping squares, membership tests, and-not + popcount. The two-u64 layout is the usual
//! one (files 1-7 in the low word's 63 bits, files 8-9 in the high word's 18 bits); the u128
//! one is `sente::shogi::Bitboard`. Timed with `std::time::Instant`, best of 5 runs.

use sente::shogi::Bitboard;
use sente::xorshift::xorshift64;
use std::hint::black_box;
use std::time::Instant;

/// Two words split at a file boundary: squares 0..63 in `lo`, 63..81 in `hi` (bit sq - 63).
#[derive(Clone, Copy)]
struct SplitBitboard {
    lo: u64,
    hi: u64,
}

impl SplitBitboard {
    fn from_u128(x: u128) -> Self {
        Self {
            lo: (x as u64) & ((1 << 63) - 1),
            hi: (x >> 63) as u64,
        }
    }

    #[inline(always)]
    fn has(self, sq: usize) -> bool {
        if sq < 63 {
            (self.lo >> sq) & 1 != 0
        } else {
            (self.hi >> (sq - 63)) & 1 != 0
        }
    }

    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        Self {
            lo: self.lo & !o.lo,
            hi: self.hi & !o.hi,
        }
    }

    #[inline(always)]
    fn count(self) -> u32 {
        self.lo.count_ones() + self.hi.count_ones()
    }

    /// Calls `f` for every square, low word first.
    #[inline(always)]
    fn for_each(self, mut f: impl FnMut(usize)) {
        let mut lo = self.lo;
        while lo != 0 {
            f(lo.trailing_zeros() as usize);
            lo &= lo - 1;
        }
        let mut hi = self.hi;
        while hi != 0 {
            f(63 + hi.trailing_zeros() as usize);
            hi &= hi - 1;
        }
    }
}

fn random_boards(n: usize) -> Vec<u128> {
    let mut next = xorshift64(0x2545_F491_4F6C_DD1D);
    // About 40 of 81 squares set, like a middlegame occupancy.
    (0..n)
        .map(|_| {
            let a = ((next() as u128) << 64 | next() as u128) & Bitboard::ALL.0;
            let b = ((next() as u128) << 64 | next() as u128) & Bitboard::ALL.0;
            a & (b | b >> 5)
        })
        .collect()
}

fn best_of<F: FnMut() -> u64>(name: &str, mut f: F) -> f64 {
    let mut best = f64::MAX;
    let mut check = 0;
    for _ in 0..5 {
        let start = Instant::now();
        check = black_box(f());
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!("  {name:<28} {:>8.2} ms  (checksum {check})", best * 1e3);
    best
}

fn main() {
    let boards = random_boards(1 << 16);
    let wide: Vec<Bitboard> = boards.iter().map(|&b| Bitboard(b)).collect();
    let split: Vec<SplitBitboard> = boards
        .iter()
        .map(|&b| SplitBitboard::from_u128(b))
        .collect();
    println!(
        "shogi bitboard layouts, {} boards, best of 5:",
        boards.len()
    );

    println!("pop every square:");
    let a = best_of("u128", || {
        let mut sum = 0u64;
        for _ in 0..20 {
            for &b in black_box(&wide) {
                for sq in b {
                    sum += sq as u64;
                }
            }
        }
        sum
    });
    let b = best_of("2 x u64", || {
        let mut sum = 0u64;
        for _ in 0..20 {
            for &b in black_box(&split) {
                b.for_each(|sq| sum += sq as u64);
            }
        }
        sum
    });
    println!("  u128 / 2xu64 time ratio: {:.2}", a / b);

    println!("membership of all 81 squares:");
    let a = best_of("u128", || {
        let mut n = 0u64;
        for &b in black_box(&wide) {
            for sq in 0..81 {
                n += b.has(black_box(sq)) as u64;
            }
        }
        n
    });
    let b = best_of("2 x u64", || {
        let mut n = 0u64;
        for &b in black_box(&split) {
            for sq in 0..81 {
                n += b.has(black_box(sq)) as u64;
            }
        }
        n
    });
    println!("  u128 / 2xu64 time ratio: {:.2}", a / b);

    println!("and-not + popcount of neighbouring boards:");
    let a = best_of("u128", || {
        let mut n = 0u64;
        for _ in 0..50 {
            for w in black_box(&wide).windows(2) {
                n += w[0].and_not(w[1]).count() as u64;
            }
        }
        n
    });
    let b = best_of("2 x u64", || {
        let mut n = 0u64;
        for _ in 0..50 {
            for w in black_box(&split).windows(2) {
                n += w[0].and_not(w[1]).count() as u64;
            }
        }
        n
    });
    println!("  u128 / 2xu64 time ratio: {:.2}", a / b);
}
