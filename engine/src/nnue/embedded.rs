//! The default nets compiled into the binary, one per game, shared by every evaluator.
//!
//! `engine/build.rs` embeds `nets/<game>-default.nnue` when that file exists (the network loop's
//! `promote` step writes it), so promoting a net and rebuilding makes it the default; without one
//! the classical evaluator stays the default. Nothing here names a game: the build script lists
//! the nets it found by game name. `AlignedBytes` gives the 64-byte alignment the
//! loader checks; the file is validated once, on first use, and the test `embedded_nets_are_valid`
//! rejects a broken file at `cargo test` time.

use super::arch::Architecture;
use super::format::NetFormatError;
use super::network::Network;
use crate::game_kind::GameKind;
use std::sync::{Arc, OnceLock};

include!(concat!(env!("OUT_DIR"), "/embedded_nets.rs"));

/// The bytes of the embedded net of `arch`'s game, if one is embedded.
fn embedded_bytes(arch: &Architecture) -> Option<&'static [u8]> {
    let game = GameKind::from_id(arch.game_id)?;
    EMBEDDED_NETS
        .iter()
        .find(|(name, _)| *name == game.name())
        .map(|(_, bytes)| *bytes)
}

/// Validates the embedded net of `arch`'s game: `Ok(None)` when none is embedded.
fn embedded_network(arch: &Architecture) -> Result<Option<Network>, NetFormatError> {
    embedded_bytes(arch)
        .map(|bytes| Network::from_static(bytes, arch))
        .transpose()
}

/// The default net of `arch`'s game, loaded once and shared; `None` while no net is embedded
/// (or, which the tests rule out, the embedded one is invalid).
pub fn default_network(arch: &Architecture) -> Option<Arc<Network>> {
    static DEFAULTS: [OnceLock<Option<Arc<Network>>>; GameKind::ALL.len()] =
        [const { OnceLock::new() }; GameKind::ALL.len()];
    let game = GameKind::from_id(arch.game_id)?;
    let cell = &DEFAULTS[GameKind::ALL.iter().position(|&kind| kind == game)?];
    cell.get_or_init(|| embedded_network(arch).ok().flatten().map(Arc::new))
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::NnueGame;

    fn arch_of(kind: GameKind) -> Architecture {
        crate::dispatch_game!(kind, G => <G as NnueGame>::ARCH)
    }

    #[test]
    fn embedded_nets_are_valid() {
        for arch in GameKind::ALL.map(arch_of) {
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

    /// The build script embeds exactly the `nets/<game>-default.nnue` files there are, each
    /// under a registered game's name.
    #[test]
    fn every_default_net_file_is_embedded() {
        let nets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../nets");
        for (name, _) in EMBEDDED_NETS {
            assert!(GameKind::from_name(name).is_some(), "{name}-default.nnue");
        }
        for kind in GameKind::ALL {
            let arch = arch_of(kind);
            let file = nets.join(format!("{}-default.nnue", kind.name()));
            assert_eq!(embedded_bytes(&arch).is_some(), file.is_file(), "{kind}");
        }
    }
}
