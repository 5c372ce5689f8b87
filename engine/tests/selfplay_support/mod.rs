//! Shared setup of the self-play test binaries: the match configuration they vary.

use sente::selfplay::MatchConfig;

/// A match of `pairs` game pairs, `concurrency` games at once, on openings of `opening_plies`
/// random plies drawn from `seed`; everything else is the default.
pub fn match_config(
    pairs: usize,
    concurrency: usize,
    opening_plies: u32,
    seed: u64,
) -> MatchConfig {
    MatchConfig {
        pairs,
        concurrency,
        opening_plies,
        seed,
        ..MatchConfig::default()
    }
}
