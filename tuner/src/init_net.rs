//! Starting a training run from a quantized net file (`tuner train --init NET`): fine-tuning a
//! promoted net on new data instead of training from random weights.
//!
//! The file's integers are divided by the quantization scales the architecture declares (feature
//! weights and biases by QA, output weights by QB, output biases by QA·QB), so quantizing the
//! float net again gives the same file. The file holds the feature weights with the factor rows
//! already folded in; the run's factor rows start at zero, which gives every real feature the
//! net's own weights.

use crate::model::{FloatNet, WEIGHT_CLIP};
use anyhow::{bail, Context, Result};
use sente::nnue::format::{fnv1a64, read_net};
use sente::nnue::NnueGame;
use std::path::Path;

/// A float net made from a net file, and what had to change to fit the trainer's bounds.
pub struct InitialNet {
    pub net: FloatNet,
    /// Weights beyond the trainer's clip (`WEIGHT_CLIP`), clamped to it.
    pub clamped: usize,
    /// FNV-1a of the file: names the starting point in the run's settings.
    pub checksum: u64,
}

/// Reads `path` as game `G`'s net of width `l1` and turns it into the float net a run starts
/// from, with the game's factor rows (zero) when `factors` is set.
pub fn initial_net<G: NnueGame>(path: &Path, l1: usize, factors: bool) -> Result<InitialNet> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let file = read_net(&bytes, &G::ARCH)
        .with_context(|| format!("{} is not a {} net", path.display(), G::NAME))?;
    let arch = file.header.arch;
    if arch.l1 != l1 {
        bail!(
            "{} is {} wide; this run trains {} wide (--l1 {}): give --l1 {} to start from it",
            path.display(),
            arch.l1,
            l1,
            l1,
            arch.l1
        );
    }
    // The factor rows start at zero (`FloatNet::for_game`); everything else comes from the file.
    let mut net = FloatNet::for_game::<G>(arch, factors, 0);
    let layout = net.layout;
    let (qa, qb) = (arch.qa as f32, arch.qb as f32);
    let mut clamped = 0;
    let mut clipped = |target: &mut [f32], values: &[i16], scale: f32| {
        assert_eq!(target.len(), values.len());
        for (t, &q) in target.iter_mut().zip(values) {
            let value = q as f32 / scale;
            clamped += (value.abs() > WEIGHT_CLIP) as usize;
            *t = value.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    };
    let real_end = layout.ft_w + arch.feature_rows() * arch.l1;
    clipped(&mut net.params[layout.ft_w..real_end], &file.ft_weights, qa);
    clipped(
        &mut net.params[layout.out_w..layout.out_b],
        &file.out_weights,
        qb,
    );
    let ft_bias = &mut net.params[layout.ft_b..layout.out_w];
    assert_eq!(ft_bias.len(), file.ft_bias.len());
    for (t, &q) in ft_bias.iter_mut().zip(&file.ft_bias) {
        *t = q as f32 / qa;
    }
    let out_bias = &mut net.params[layout.out_b..layout.total];
    assert_eq!(out_bias.len(), file.out_bias.len());
    for (t, &q) in out_bias.iter_mut().zip(&file.out_bias) {
        *t = q as f32 / (qa * qb);
    }
    Ok(InitialNet {
        net,
        clamped,
        checksum: fnv1a64(&bytes),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantize::quantize;
    use sente::chess::Position;
    use sente::nnue::arch::SUPPORTED_L1;

    /// A trained-looking float net: seeded weights, nonzero factor rows and biases.
    fn float_net(l1: usize, factors: bool) -> FloatNet {
        let mut net = FloatNet::for_game::<Position>(Position::ARCH.with_l1(l1), factors, 7);
        let l = net.layout;
        for (i, p) in net.params[l.ft_b..l.total].iter_mut().enumerate() {
            *p += ((i * 37 % 101) as f32 - 50.0) / 400.0;
        }
        let real_end = l.ft_w + net.arch.feature_rows() * l1;
        for (i, p) in net.params[real_end..l.ft_b].iter_mut().enumerate() {
            *p = ((i * 53 % 97) as f32 - 48.0) / 200.0;
        }
        net
    }

    fn written(net: &FloatNet, dir: &Path) -> std::path::PathBuf {
        let (bytes, _) = quantize(net, "init test");
        let path = dir.join("net.nnue");
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn a_net_read_back_quantizes_to_the_same_file() {
        let dir = std::env::temp_dir().join(format!("sente-init-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for factors in [false, true] {
            let trained = float_net(SUPPORTED_L1[0], factors);
            let path = written(&trained, &dir);
            let start = initial_net::<Position>(&path, trained.arch.l1, factors).unwrap();
            assert_eq!(start.clamped, 0);
            assert_eq!(start.net.arch, trained.arch);
            let (again, _) = quantize(&start.net, "init test");
            assert_eq!(again, std::fs::read(&path).unwrap(), "factors {factors}");
            // Factor rows start at zero: the real rows carry the folded weights.
            let l = start.net.layout;
            let real_end = l.ft_w + start.net.arch.feature_rows() * start.net.arch.l1;
            assert!(
                start.net.params[real_end..l.ft_b].iter().all(|&w| w == 0.0),
                "factors {factors}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn another_width_or_a_damaged_file_is_refused() {
        let dir = std::env::temp_dir().join(format!("sente-init-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = written(&float_net(SUPPORTED_L1[0], true), &dir);
        let wider = SUPPORTED_L1[1];
        let error = initial_net::<Position>(&path, wider, true)
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.contains(&format!("--l1 {}", SUPPORTED_L1[0])),
            "{error}"
        );
        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let error = initial_net::<Position>(&path, SUPPORTED_L1[0], true)
            .err()
            .unwrap();
        assert!(format!("{error:#}").contains("checksum"), "{error:#}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
