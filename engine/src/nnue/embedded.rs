//! The default nets compiled into the binary, one per game, shared by every evaluator.
//!
//! `engine/build.rs` embeds `nets/<game>-default.nnue` when that file exists (the network loop's
//! `promote` step writes it), so promoting a net and rebuilding makes it the default; without one
//! the classical evaluator stays the default. `AlignedBytes` gives the 64-byte alignment the
//! loader checks; the file is validated once, on first use, and the test `embedded_nets_are_valid`
//! rejects a broken file at `cargo test` time.

use super::arch::{Architecture, GAME_CHESS, GAME_SHOGI};
use super::format::NetFormatError;
use super::network::Network;
use std::sync::{Arc, OnceLock};

#[cfg(sente_embed_chess)]
static CHESS_NET: super::network::AlignedBytes<
    { include_bytes!("../../../nets/chess-default.nnue").len() },
> = super::network::AlignedBytes(*include_bytes!("../../../nets/chess-default.nnue"));

#[cfg(sente_embed_shogi)]
static SHOGI_NET: super::network::AlignedBytes<
    { include_bytes!("../../../nets/shogi-default.nnue").len() },
> = super::network::AlignedBytes(*include_bytes!("../../../nets/shogi-default.nnue"));

/// The bytes of the embedded net of `arch`'s game, if one is embedded.
fn embedded_bytes(arch: &Architecture) -> Option<&'static [u8]> {
    match arch.game_id {
        #[cfg(sente_embed_chess)]
        GAME_CHESS => Some(&CHESS_NET.0),
        #[cfg(sente_embed_shogi)]
        GAME_SHOGI => Some(&SHOGI_NET.0),
        _ => None,
    }
}

/// Validates the embedded net of `arch`'s game: `Ok(None)` when none is embedded.
pub fn embedded_network(arch: &Architecture) -> Result<Option<Network>, NetFormatError> {
    embedded_bytes(arch)
        .map(|bytes| Network::from_static(bytes, arch))
        .transpose()
}

/// The default net of `arch`'s game, loaded once and shared; `None` while no net is embedded
/// (or, which the tests rule out, the embedded one is invalid).
pub fn default_network(arch: &Architecture) -> Option<Arc<Network>> {
    static CHESS: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    static SHOGI: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    let cell = match arch.game_id {
        GAME_CHESS => &CHESS,
        GAME_SHOGI => &SHOGI,
        _ => return None,
    };
    cell.get_or_init(|| embedded_network(arch).ok().flatten().map(Arc::new))
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::arch::{CHESS, SHOGI};

    #[test]
    fn embedded_nets_are_valid() {
        for arch in [CHESS, SHOGI] {
            let embedded = embedded_network(&arch);
            assert!(
                embedded.is_ok(),
                "{}: {:?}",
                arch.game_name(),
                embedded.err()
            );
            assert_eq!(
                embedded.unwrap().is_some(),
                default_network(&arch).is_some()
            );
        }
    }
}
