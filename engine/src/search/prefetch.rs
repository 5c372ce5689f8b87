//! The cache hint the search gives before it reads memory it will need soon (the child's
//! transposition-table bucket, the correction-history entries of a node): one place for the
//! one `unsafe` intrinsic, and a no-op on other targets.

/// Starts loading the cache line holding `*value` into the first-level cache. It changes
/// nothing the program can see; only when the later read finds the line there is it faster.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let address: *const T = value;
        // SAFETY: a prefetch is only a cache hint: it reads nothing the program sees and never
        // faults (the address is a live reference anyway). Its scalar twin is doing nothing,
        // which every other target does.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
