//! The NNUE arithmetic kernels: accumulator updates (add/subtract weight rows) and the activated
//! dot product of the output layer, each in AVX-512, AVX2 and scalar form. The level is detected
//! once at run time; every level gives bit-identical results (all sums wrap the same way), which
//! the tests check against the scalar twins.

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
    use super::Rows;
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    pub(super) fn update_avx2<'r, A: Rows<'r> + ?Sized, S: Rows<'r> + ?Sized>(
        dst: &mut [i16],
        src: &[i16],
        add: &A,
        sub: &S,
    ) {
        let (add, sub) = (add.as_ref(), sub.as_ref());
        let mut base = 0;
        while base < dst.len() {
            // SAFETY: every slice has dst.len() elements (checked by the caller) and
            // base + 16 <= dst.len() because the length is a multiple of 32; loadu/storeu accept
            // any alignment.
            unsafe {
                let mut v = _mm256_loadu_si256(src.as_ptr().add(base) as *const __m256i);
                for row in add {
                    let r = _mm256_loadu_si256(row.as_ptr().add(base) as *const __m256i);
                    v = _mm256_add_epi16(v, r);
                }
                for row in sub {
                    let r = _mm256_loadu_si256(row.as_ptr().add(base) as *const __m256i);
                    v = _mm256_sub_epi16(v, r);
                }
                _mm256_storeu_si256(dst.as_mut_ptr().add(base) as *mut __m256i, v);
            }
            base += 16;
        }
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn update_avx512<'r, A: Rows<'r> + ?Sized, S: Rows<'r> + ?Sized>(
        dst: &mut [i16],
        src: &[i16],
        add: &A,
        sub: &S,
    ) {
        let (add, sub) = (add.as_ref(), sub.as_ref());
        let mut base = 0;
        while base < dst.len() {
            // SAFETY: as in update_avx2, with 32-lane steps over a length that is a multiple of 32.
            unsafe {
                let mut v = _mm512_loadu_si512(src.as_ptr().add(base) as *const __m512i);
                for row in add {
                    let r = _mm512_loadu_si512(row.as_ptr().add(base) as *const __m512i);
                    v = _mm512_add_epi16(v, r);
                }
                for row in sub {
                    let r = _mm512_loadu_si512(row.as_ptr().add(base) as *const __m512i);
                    v = _mm512_sub_epi16(v, r);
                }
                _mm512_storeu_si512(dst.as_mut_ptr().add(base) as *mut __m512i, v);
            }
            base += 32;
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn update_in_place_avx2(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
        for base in (0..acc.len()).step_by(16) {
            // SAFETY: every row has acc.len() elements (checked by the caller) and
            // base + 16 <= acc.len() because the length is a multiple of 32; unaligned access.
            unsafe {
                let p = acc.as_mut_ptr().add(base) as *mut __m256i;
                let mut v = _mm256_loadu_si256(p);
                for row in add {
                    let r = _mm256_loadu_si256(row.as_ptr().add(base) as *const __m256i);
                    v = _mm256_add_epi16(v, r);
                }
                for row in sub {
                    let r = _mm256_loadu_si256(row.as_ptr().add(base) as *const __m256i);
                    v = _mm256_sub_epi16(v, r);
                }
                _mm256_storeu_si256(p, v);
            }
        }
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn update_in_place_avx512(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
        for base in (0..acc.len()).step_by(32) {
            // SAFETY: as in update_in_place_avx2, with 32-lane steps.
            unsafe {
                let p = acc.as_mut_ptr().add(base) as *mut __m512i;
                let mut v = _mm512_loadu_si512(p as *const __m512i);
                for row in add {
                    let r = _mm512_loadu_si512(row.as_ptr().add(base) as *const __m512i);
                    v = _mm512_add_epi16(v, r);
                }
                for row in sub {
                    let r = _mm512_loadu_si512(row.as_ptr().add(base) as *const __m512i);
                    v = _mm512_sub_epi16(v, r);
                }
                _mm512_storeu_si512(p, v);
            }
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn screlu_dot_avx2(acc: &[i16], weights: &[i16], qa: i16) -> i32 {
        let zero = _mm256_setzero_si256();
        let max = _mm256_set1_epi16(qa);
        let mut sum = _mm256_setzero_si256();
        for base in (0..acc.len()).step_by(16) {
            // SAFETY: acc and weights have the same length, a multiple of 32 (checked by the
            // caller), so base + 16 is in bounds; unaligned loads.
            let (x, w) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(base) as *const __m256i),
                    _mm256_loadu_si256(weights.as_ptr().add(base) as *const __m256i),
                )
            };
            let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), max);
            let vw = _mm256_mullo_epi16(v, w);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, vw));
        }
        let lo = _mm256_castsi256_si128(sum);
        let hi = _mm256_extracti128_si256::<1>(sum);
        let s = _mm_add_epi32(lo, hi);
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn screlu_dot_avx512(acc: &[i16], weights: &[i16], qa: i16) -> i32 {
        let zero = _mm512_setzero_si512();
        let max = _mm512_set1_epi16(qa);
        let mut sum = _mm512_setzero_si512();
        for base in (0..acc.len()).step_by(32) {
            // SAFETY: as in screlu_dot_avx2, with 32-lane steps.
            let (x, w) = unsafe {
                (
                    _mm512_loadu_si512(acc.as_ptr().add(base) as *const __m512i),
                    _mm512_loadu_si512(weights.as_ptr().add(base) as *const __m512i),
                )
            };
            let v = _mm512_min_epi16(_mm512_max_epi16(x, zero), max);
            let vw = _mm512_mullo_epi16(v, w);
            sum = _mm512_add_epi32(sum, _mm512_madd_epi16(v, vw));
        }
        _mm512_reduce_add_epi32(sum)
    }
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
