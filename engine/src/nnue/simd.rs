//! The NNUE arithmetic kernels: accumulator updates (add/subtract weight rows) and the activated
//! dot product of the output layer, each written once over a small vector abstraction (instantiated
//! for AVX2 and AVX-512) and once in scalar form. The level is detected once at run time; every
//! level gives bit-identical results (all sums wrap the same way), which the tests check against
//! the scalar twins.

use std::sync::OnceLock;

/// Which instruction set the kernels use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SimdLevel {
    Scalar,
    Avx2,
    Avx512,
}

impl SimdLevel {
    /// The best level this CPU supports (detected once).
    pub fn detected() -> SimdLevel {
        static LEVEL: OnceLock<SimdLevel> = OnceLock::new();
        *LEVEL.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            {
                if std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                {
                    return SimdLevel::Avx512;
                }
                if std::is_x86_feature_detected!("avx2") {
                    return SimdLevel::Avx2;
                }
            }
            SimdLevel::Scalar
        })
    }

    /// Every level this CPU can run, for tests comparing them.
    pub fn available() -> Vec<SimdLevel> {
        [SimdLevel::Scalar, SimdLevel::Avx2, SimdLevel::Avx512]
            .into_iter()
            .filter(|&l| l <= SimdLevel::detected())
            .collect()
    }
}

/// `dst[i] = src[i] + Σ add[k][i] − Σ sub[k][i]` with wrapping `i16` arithmetic. All slices have
/// the length of `dst`, a multiple of 32.
pub fn update(level: SimdLevel, dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    update_rows(level, dst, src, add, sub);
}

/// `update` with the number of added and removed rows fixed at compile time (the common
/// incremental updates: one or two of each), so the kernels unroll over the rows.
#[inline]
pub fn update_fixed<const A: usize, const S: usize>(
    level: SimdLevel,
    dst: &mut [i16],
    src: &[i16],
    add: &[&[i16]; A],
    sub: &[&[i16]; S],
) {
    update_rows(level, dst, src, add, sub);
}

/// The rows an update adds or subtracts: a slice of any length, or an array whose length the
/// kernels then know at compile time.
pub trait Rows<'r>: AsRef<[&'r [i16]]> {}
impl<'r, T: AsRef<[&'r [i16]]> + ?Sized> Rows<'r> for T {}

/// `update` over either kind of row set: checks the lengths and picks the kernel.
#[inline(always)]
fn update_rows<'r, A: Rows<'r> + ?Sized, S: Rows<'r> + ?Sized>(
    level: SimdLevel,
    dst: &mut [i16],
    src: &[i16],
    add: &A,
    sub: &S,
) {
    let n = dst.len();
    assert!(n.is_multiple_of(32) && src.len() == n);
    assert!(add
        .as_ref()
        .iter()
        .chain(sub.as_ref())
        .all(|row| row.len() == n));
    match level {
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512 if SimdLevel::detected() >= SimdLevel::Avx512 => {
            // SAFETY: AVX-512F/BW support was detected at run time; lengths were checked above.
            unsafe { x86::update_avx512(dst, src, add, sub) }
        }
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 | SimdLevel::Avx512 if SimdLevel::detected() >= SimdLevel::Avx2 => {
            // SAFETY: AVX2 support was detected at run time; lengths were checked above.
            unsafe { x86::update_avx2(dst, src, add, sub) }
        }
        _ => update_scalar(dst, src, add.as_ref(), sub.as_ref()),
    }
}

/// Scalar twin of `update` (portable code, row by row so the compiler can vectorise it).
pub fn update_scalar(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    dst.copy_from_slice(src);
    update_in_place_scalar(dst, add, sub);
}

/// `acc[i] += Σ add[k][i] − Σ sub[k][i]` in place, with wrapping `i16` arithmetic (for updates
/// with more rows than one `update` call takes). All slices have the length of `acc`, a
/// multiple of 32.
pub fn update_in_place(level: SimdLevel, acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
    assert_eq!(acc.len() % 32, 0);
    assert!(add.iter().chain(sub).all(|row| row.len() == acc.len()));
    match level {
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512 if SimdLevel::detected() >= SimdLevel::Avx512 => {
            // SAFETY: AVX-512F/BW support was detected at run time; lengths were checked above.
            unsafe { x86::update_in_place_avx512(acc, add, sub) }
        }
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 | SimdLevel::Avx512 if SimdLevel::detected() >= SimdLevel::Avx2 => {
            // SAFETY: AVX2 support was detected at run time; lengths were checked above.
            unsafe { x86::update_in_place_avx2(acc, add, sub) }
        }
        _ => update_in_place_scalar(acc, add, sub),
    }
}

/// Scalar twin of `update_in_place` (row by row, like `update_scalar`).
pub fn update_in_place_scalar(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
    for row in add {
        for (v, &r) in acc.iter_mut().zip(row.iter()) {
            *v = v.wrapping_add(r);
        }
    }
    for row in sub {
        for (v, &r) in acc.iter_mut().zip(row.iter()) {
            *v = v.wrapping_sub(r);
        }
    }
}

/// The SCReLU output sum `Σ clamp(x,0,qa) · (clamp(x,0,qa) · w)` over both perspectives, where
/// the inner product is truncated to `i16` and the sum wraps in `i32` (the tuner clips weights so
/// neither happens in practice). `weights` holds the `us` half then the `them` half.
pub fn screlu_dot(level: SimdLevel, us: &[i16], them: &[i16], weights: &[i16], qa: i16) -> i32 {
    let n = us.len();
    assert_eq!(n % 32, 0);
    assert_eq!(them.len(), n);
    assert_eq!(weights.len(), 2 * n);
    let (w_us, w_them) = weights.split_at(n);
    match level {
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512 if SimdLevel::detected() >= SimdLevel::Avx512 => {
            // SAFETY: AVX-512F/BW support was detected at run time; lengths were checked above.
            unsafe {
                x86::screlu_dot_avx512(us, w_us, qa)
                    .wrapping_add(x86::screlu_dot_avx512(them, w_them, qa))
            }
        }
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 | SimdLevel::Avx512 if SimdLevel::detected() >= SimdLevel::Avx2 => {
            // SAFETY: AVX2 support was detected at run time; lengths were checked above.
            unsafe {
                x86::screlu_dot_avx2(us, w_us, qa)
                    .wrapping_add(x86::screlu_dot_avx2(them, w_them, qa))
            }
        }
        _ => screlu_dot_half_scalar(us, w_us, qa)
            .wrapping_add(screlu_dot_half_scalar(them, w_them, qa)),
    }
}

/// Scalar twin of one half of `screlu_dot`.
pub fn screlu_dot_half_scalar(acc: &[i16], weights: &[i16], qa: i16) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in acc.iter().zip(weights) {
        let v = x.clamp(0, qa);
        let vw = v.wrapping_mul(w);
        sum = sum.wrapping_add(v as i32 * vw as i32);
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! Each kernel is written once over `Lanes`, the few 16-bit lane operations it needs; the
    //! AVX2 and AVX-512 entry points instantiate it inside a function compiled for their
    //! instruction set, where the `#[inline(always)]` operations become single instructions.

    use super::Rows;
    use std::arch::x86_64::*;

    /// A vector of `i16` lanes (sums of pairs in `i32` lanes for the dot product).
    ///
    /// # Safety
    /// Every method may only run where the instruction set of the implementation is available
    /// (inside a `#[target_feature]` function for it, after run-time detection), and `load` /
    /// `store` need `LANES` readable / writable `i16` at the pointer (any alignment).
    trait Lanes: Copy {
        const LANES: usize;
        unsafe fn zero() -> Self;
        unsafe fn splat(v: i16) -> Self;
        unsafe fn load(p: *const i16) -> Self;
        unsafe fn store(self, p: *mut i16);
        unsafe fn add(self, other: Self) -> Self;
        unsafe fn sub(self, other: Self) -> Self;
        unsafe fn max(self, other: Self) -> Self;
        unsafe fn min(self, other: Self) -> Self;
        /// Lane-wise `i16` product, truncated to 16 bits.
        unsafe fn mul_low(self, other: Self) -> Self;
        /// `self + Σ a·b` over pairs of adjacent `i16` lanes, in `i32` lanes (wrapping).
        unsafe fn add_pair_products(self, a: Self, b: Self) -> Self;
        /// The wrapping sum of the `i32` lanes.
        unsafe fn sum_i32(self) -> i32;
    }

    /// `Lanes` for a vector type from its intrinsics (the same operations under each instruction
    /// set's names; `binary` maps the lane-wise methods to theirs) and the body of `sum_i32`.
    macro_rules! lanes {
        ($name:ident($vector:ty), $lanes:literal, $feature:literal,
         $zero:ident, $splat:ident, $load:ident, $store:ident, $madd:ident, $add32:ident,
         binary: [$($method:ident = $binary:ident),*], |$v:ident| $sum:block) => {
            #[derive(Clone, Copy)]
            struct $name($vector);

            // SAFETY (every method): only called from `#[target_feature(enable = $feature)]`
            // kernels; the pointers are in bounds for `LANES` lanes (checked by the kernels'
            // callers); the loads and stores accept any alignment.
            impl Lanes for $name {
                const LANES: usize = $lanes;
                #[inline(always)]
                unsafe fn zero() -> Self {
                    Self($zero())
                }
                #[inline(always)]
                unsafe fn splat(v: i16) -> Self {
                    Self($splat(v))
                }
                #[inline(always)]
                unsafe fn load(p: *const i16) -> Self {
                    Self($load(p as *const $vector))
                }
                #[inline(always)]
                unsafe fn store(self, p: *mut i16) {
                    $store(p as *mut $vector, self.0)
                }
                $(
                    #[inline(always)]
                    unsafe fn $method(self, other: Self) -> Self {
                        Self($binary(self.0, other.0))
                    }
                )*
                #[inline(always)]
                unsafe fn add_pair_products(self, a: Self, b: Self) -> Self {
                    Self($add32(self.0, $madd(a.0, b.0)))
                }
                #[inline(always)]
                unsafe fn sum_i32(self) -> i32 {
                    let $v = self.0;
                    $sum
                }
            }
        };
    }

    lanes! { Avx2(__m256i), 16, "avx2", _mm256_setzero_si256, _mm256_set1_epi16,
        _mm256_loadu_si256, _mm256_storeu_si256, _mm256_madd_epi16, _mm256_add_epi32,
        binary: [add = _mm256_add_epi16, sub = _mm256_sub_epi16, max = _mm256_max_epi16,
            min = _mm256_min_epi16, mul_low = _mm256_mullo_epi16], |v| {
            let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
            _mm_cvtsi128_si32(s)
        }
    }

    lanes! { Avx512(__m512i), 32, "avx512f,avx512bw", _mm512_setzero_si512, _mm512_set1_epi16,
        _mm512_loadu_si512, _mm512_storeu_si512, _mm512_madd_epi16, _mm512_add_epi32,
        binary: [add = _mm512_add_epi16, sub = _mm512_sub_epi16, max = _mm512_max_epi16,
            min = _mm512_min_epi16, mul_low = _mm512_mullo_epi16], |v| { _mm512_reduce_add_epi32(v) }
    }

    /// `dst = src + Σ add − Σ sub`, `V::LANES` lanes at a time.
    ///
    /// # Safety
    /// `V`'s instruction set is available; every slice has `dst.len()` elements, a multiple of
    /// `V::LANES`.
    #[inline(always)]
    unsafe fn update<'r, V: Lanes, A: Rows<'r> + ?Sized, S: Rows<'r> + ?Sized>(
        dst: &mut [i16],
        src: &[i16],
        add: &A,
        sub: &S,
    ) {
        let (add, sub) = (add.as_ref(), sub.as_ref());
        for base in (0..dst.len()).step_by(V::LANES) {
            // SAFETY: base + V::LANES <= len for every slice (the caller's contract).
            unsafe {
                let mut v = V::load(src.as_ptr().add(base));
                for row in add {
                    v = v.add(V::load(row.as_ptr().add(base)));
                }
                for row in sub {
                    v = v.sub(V::load(row.as_ptr().add(base)));
                }
                v.store(dst.as_mut_ptr().add(base));
            }
        }
    }

    /// `acc += Σ add − Σ sub` in place, `V::LANES` lanes at a time.
    ///
    /// # Safety
    /// As `update`, with `acc` for `dst` and `src`.
    #[inline(always)]
    unsafe fn update_in_place<V: Lanes>(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
        for base in (0..acc.len()).step_by(V::LANES) {
            // SAFETY: base + V::LANES <= len for every slice (the caller's contract).
            unsafe {
                let p = acc.as_mut_ptr().add(base);
                let mut v = V::load(p);
                for row in add {
                    v = v.add(V::load(row.as_ptr().add(base)));
                }
                for row in sub {
                    v = v.sub(V::load(row.as_ptr().add(base)));
                }
                v.store(p);
            }
        }
    }

    /// One half of the SCReLU dot product, `V::LANES` lanes at a time.
    ///
    /// # Safety
    /// `V`'s instruction set is available; `acc` and `weights` have the same length, a multiple
    /// of `V::LANES`.
    #[inline(always)]
    unsafe fn screlu_dot<V: Lanes>(acc: &[i16], weights: &[i16], qa: i16) -> i32 {
        // SAFETY: base + V::LANES <= len for both slices (the caller's contract).
        unsafe {
            let (zero, max) = (V::zero(), V::splat(qa));
            let mut sum = V::zero();
            for base in (0..acc.len()).step_by(V::LANES) {
                let x = V::load(acc.as_ptr().add(base));
                let w = V::load(weights.as_ptr().add(base));
                let v = x.max(zero).min(max);
                sum = sum.add_pair_products(v, v.mul_low(w));
            }
            sum.sum_i32()
        }
    }

    /// The entry points of one instruction set: each kernel compiled for it. Their callers
    /// detected it at run time and checked every length (a multiple of 32, so of either lane
    /// count).
    macro_rules! entry_points {
        ($feature:literal, $lanes:ty, $update:ident, $update_in_place:ident, $screlu_dot:ident) => {
            #[target_feature(enable = $feature)]
            pub(super) fn $update<'r, A: Rows<'r> + ?Sized, S: Rows<'r> + ?Sized>(
                dst: &mut [i16],
                src: &[i16],
                add: &A,
                sub: &S,
            ) {
                // SAFETY: the instruction set is enabled here; the caller checked the lengths.
                unsafe { update::<$lanes, A, S>(dst, src, add, sub) }
            }

            #[target_feature(enable = $feature)]
            pub(super) fn $update_in_place(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
                // SAFETY: as above.
                unsafe { update_in_place::<$lanes>(acc, add, sub) }
            }

            #[target_feature(enable = $feature)]
            pub(super) fn $screlu_dot(acc: &[i16], weights: &[i16], qa: i16) -> i32 {
                // SAFETY: as above.
                unsafe { screlu_dot::<$lanes>(acc, weights, qa) }
            }
        };
    }

    entry_points!(
        "avx2",
        Avx2,
        update_avx2,
        update_in_place_avx2,
        screlu_dot_avx2
    );
    entry_points!(
        "avx512f,avx512bw",
        Avx512,
        update_avx512,
        update_in_place_avx512,
        screlu_dot_avx512
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn random_row(rng: &mut Xoshiro256PlusPlus, n: usize, range: i16) -> Vec<i16> {
        (0..n)
            .map(|_| ((rng.next_u32() % (2 * range as u32 + 1)) as i32 - i32::from(range)) as i16)
            .collect()
    }

    #[test]
    fn every_level_updates_like_scalar() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for n in [32, 64, 256, 1024] {
            for _ in 0..50 {
                let src = random_row(&mut rng, n, i16::MAX);
                let rows: Vec<Vec<i16>> =
                    (0..4).map(|_| random_row(&mut rng, n, i16::MAX)).collect();
                let add = [rows[0].as_slice(), rows[1].as_slice()];
                let sub = [rows[2].as_slice(), rows[3].as_slice()];
                let mut expected = vec![0; n];
                update_scalar(&mut expected, &src, &add, &sub);
                for level in SimdLevel::available() {
                    let mut got = vec![0; n];
                    update(level, &mut got, &src, &add, &sub);
                    assert_eq!(got, expected, "{level:?} n={n}");
                }
            }
        }
    }

    #[test]
    fn every_level_updates_fixed_row_counts_like_scalar() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        for n in [32, 128, 256] {
            for _ in 0..30 {
                let src = random_row(&mut rng, n, i16::MAX);
                let rows: Vec<Vec<i16>> =
                    (0..4).map(|_| random_row(&mut rng, n, i16::MAX)).collect();
                let r = |i: usize| rows[i].as_slice();
                let mut expected = vec![0; n];
                for level in SimdLevel::available() {
                    let mut got = vec![0; n];
                    update_scalar(&mut expected, &src, &[r(0)], &[r(1)]);
                    update_fixed(level, &mut got, &src, &[r(0)], &[r(1)]);
                    assert_eq!(got, expected, "1/1 {level:?} n={n}");
                    update_scalar(&mut expected, &src, &[r(0)], &[r(1), r(2)]);
                    update_fixed(level, &mut got, &src, &[r(0)], &[r(1), r(2)]);
                    assert_eq!(got, expected, "1/2 {level:?} n={n}");
                    update_scalar(&mut expected, &src, &[r(0), r(3)], &[r(1)]);
                    update_fixed(level, &mut got, &src, &[r(0), r(3)], &[r(1)]);
                    assert_eq!(got, expected, "2/1 {level:?} n={n}");
                    update_scalar(&mut expected, &src, &[r(0), r(3)], &[r(1), r(2)]);
                    update_fixed(level, &mut got, &src, &[r(0), r(3)], &[r(1), r(2)]);
                    assert_eq!(got, expected, "2/2 {level:?} n={n}");
                }
            }
        }
    }

    #[test]
    fn every_level_updates_in_place_like_scalar() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        for n in [32, 64, 256, 1024] {
            for _ in 0..50 {
                let start = random_row(&mut rng, n, i16::MAX);
                let rows: Vec<Vec<i16>> =
                    (0..5).map(|_| random_row(&mut rng, n, i16::MAX)).collect();
                let add = [rows[0].as_slice(), rows[1].as_slice(), rows[2].as_slice()];
                let sub = [rows[3].as_slice(), rows[4].as_slice()];
                let mut expected = start.clone();
                update_in_place_scalar(&mut expected, &add, &sub);
                // The plain per-element formula, summed wide and truncated once.
                let plain: Vec<i16> = (0..n)
                    .map(|i| {
                        let wide = start[i] as i64 + add.iter().map(|r| r[i] as i64).sum::<i64>()
                            - sub.iter().map(|r| r[i] as i64).sum::<i64>();
                        wide as i16
                    })
                    .collect();
                assert_eq!(expected, plain);
                for level in SimdLevel::available() {
                    let mut got = start.clone();
                    update_in_place(level, &mut got, &add, &sub);
                    assert_eq!(got, expected, "{level:?} n={n}");
                }
            }
        }
    }

    #[test]
    fn every_level_computes_the_screlu_dot_like_scalar() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for n in [32, 256, 512] {
            for range in [300, i16::MAX] {
                let us = random_row(&mut rng, n, range);
                let them = random_row(&mut rng, n, range);
                let w = random_row(&mut rng, 2 * n, range);
                let expected = screlu_dot_half_scalar(&us, &w[..n], 255)
                    .wrapping_add(screlu_dot_half_scalar(&them, &w[n..], 255));
                for level in SimdLevel::available() {
                    assert_eq!(
                        screlu_dot(level, &us, &them, &w, 255),
                        expected,
                        "{level:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn scalar_dot_matches_the_plain_formula_when_nothing_overflows() {
        let acc = [-5i16, 0, 3, 300, 100, 255, 17, 1];
        let w = [7i16, -3, 2, 5, -1, 1, 0, 9];
        let plain: i32 = acc
            .iter()
            .zip(&w)
            .map(|(&x, &w)| {
                let v = x.clamp(0, 255) as i32;
                v * v * w as i32
            })
            .sum();
        assert_eq!(screlu_dot_half_scalar(&acc, &w, 255), plain);
    }
}
