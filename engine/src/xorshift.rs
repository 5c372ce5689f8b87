//! A tiny deterministic pseudo-random sequence (Marsaglia's xorshift64, shifts 13, 7, 17) for
//! the places that want reproducible "random" numbers without a seeded `rand` generator: the
//! Syzygy loader's probe positions, synthetic training batches, benchmark inputs.

/// The xorshift64 sequence from `seed` (non-zero: zero stays zero): each call returns the next
/// state.
pub fn xorshift64(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
