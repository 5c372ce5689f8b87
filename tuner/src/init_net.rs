//! Starting a training run from a quantized net file (`tuner train --init NET`): fine-tuning a
//! promoted net on new data instead of training from random weights.
//!
//! The file's integers are divided by the quantization scales the architecture declares (feature
//! weights and biases by QA, output weights by QB, output biases by QA·QB), so quantizing the
//! float net again gives the same file. The file holds the feature weights with the factor rows
//! already folded in; the run's factor rows start at zero, which gives every real feature the
//! net's own weights.
//!
//! A net may also start a run with more king buckets than it has (`--king-buckets`): each new
//! bucket's feature rows are a copy of the rows of the file's bucket that holds all of its king
//! regions (`NnueGame::region_bucket`), so the new net starts as exactly the file's function and
//! training then lets the buckets tell the king's positions apart.
//!
//! A net may start a run wider than it is (`--l1`): its hidden units keep their weights, and each
//! new unit gets the trainer's random feature weights, a zero bias and zero output weights, so
//! the wider net also starts as exactly the file's function; training then gives the new units a
//! say.

use crate::model::{FloatNet, WEIGHT_CLIP};
use anyhow::{bail, Context, Result};
use sente::nnue::format::{fnv1a64, read_net};
use sente::nnue::{Architecture, NnueGame, KING_REGIONS};
use std::path::Path;

/// A float net made from a net file, and what had to change to fit the trainer's bounds.
pub struct InitialNet {
    pub net: FloatNet,
    /// Weights beyond the trainer's clip (`WEIGHT_CLIP`), clamped to it.
    pub clamped: usize,
    /// FNV-1a of the file: names the starting point in the run's settings.
    pub checksum: u64,
}

/// The bucket of a net with `from` king buckets that holds every king region of bucket `bucket`
/// of a net with `to` buckets; `None` when those regions lie in several (`from` is the finer).
pub fn source_bucket<G: NnueGame>(from: usize, to: usize, bucket: usize) -> Option<usize> {
    let mut sources = (0..KING_REGIONS)
        .filter(|&region| G::region_bucket(to, region) == bucket)
        .map(|region| G::region_bucket(from, region));
    let first = sources.next()?;
    sources.all(|other| other == first).then_some(first)
}

/// Reads `path` as a net of game `G` and turns it into the float net of architecture `target` (a
/// variant of `G::ARCH`) that a run starts from, with the game's factor rows (zero) when
/// `factors` is set. The file must have `target`'s width; it may have fewer king buckets, whose
/// rows are then copied into each bucket they cover.
pub fn initial_net<G: NnueGame>(
    path: &Path,
    target: &Architecture,
    factors: bool,
) -> Result<InitialNet> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let file = read_net(&bytes, &G::ARCH)
        .with_context(|| format!("{} is not a {} net", path.display(), G::NAME))?;
    let arch = file.header.arch;
    if arch.l1 > target.l1 {
        bail!(
            "{} is {} wide; this run trains {} wide (--l1 {}): a net can start a run as wide \
             or wider, not narrower (give --l1 {} or more)",
            path.display(),
            arch.l1,
            target.l1,
            target.l1,
            arch.l1
        );
    }
    let (from, to) = (arch.king_buckets, target.king_buckets);
    let sources: Vec<usize> = (0..to)
        .map(|bucket| source_bucket::<G>(from, to, bucket))
        .collect::<Option<_>>()
        .with_context(|| {
            format!(
                "{} has {from} king bucket(s); this run trains {to} (--king-buckets {to}): a net \
                 can start a run with as many buckets or more, not fewer (give --king-buckets \
                 {from})",
                path.display()
            )
        })?;
    let (old_l1, new_l1) = (arch.l1, target.l1);
    let arch = *target;
    // The factor rows start at zero and the real rows random (`FloatNet::for_game`); the file's
    // units overwrite the first `old_l1` columns of every row, and a wider run's new units keep
    // their random feature weights but start with zero bias and zero output weights.
    let mut net = FloatNet::for_game::<G>(arch, factors, 0);
    let layout = net.layout;
    let (qa, qb) = (arch.qa as f32, arch.qb as f32);
    let mut clamped = 0;
    // Copies `values` (rows of `old_l1`) into the first `old_l1` columns of `target`'s rows of
    // `new_l1`, divided by `scale` and clamped to the trainer's clip.
    let mut copy_rows = |target: &mut [f32], values: &[i16], scale: f32, clip: bool| {
        assert_eq!(target.len() / new_l1, values.len() / old_l1);
        for (row, source) in target
            .chunks_exact_mut(new_l1)
            .zip(values.chunks_exact(old_l1))
        {
            for (t, &q) in row.iter_mut().zip(source) {
                let value = q as f32 / scale;
                if clip {
                    clamped += (value.abs() > WEIGHT_CLIP) as usize;
                    *t = value.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
                } else {
                    *t = value;
                }
            }
        }
    };
    let (old_bucket, new_bucket) = (arch.inputs * old_l1, arch.inputs * new_l1);
    for (bucket, &source) in sources.iter().enumerate() {
        let start = layout.ft_w + bucket * new_bucket;
        copy_rows(
            &mut net.params[start..start + new_bucket],
            &file.ft_weights[source * old_bucket..(source + 1) * old_bucket],
            qa,
            true,
        );
    }
    let out_w = &mut net.params[layout.out_w..layout.out_b];
    out_w.fill(0.0);
    copy_rows(out_w, &file.out_weights, qb, true);
    let ft_bias = &mut net.params[layout.ft_b..layout.out_w];
    ft_bias.fill(0.0);
    copy_rows(ft_bias, &file.ft_bias, qa, false);
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

/// The architecture a net file's header declares (the run's width and king buckets for `--init`
/// without `--l1` / `--king-buckets`).
pub fn net_file_arch(path: &Path) -> Result<Architecture> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let header = sente::nnue::format::NetHeader::parse(&bytes)
        .with_context(|| format!("{} is not a net file", path.display()))?;
    Ok(header.arch)
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
            let start = initial_net::<Position>(&path, &trained.arch, factors).unwrap();
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
        let path = written(&float_net(SUPPORTED_L1[1], true), &dir);
        let narrower = SUPPORTED_L1[0];
        let error = initial_net::<Position>(&path, &Position::ARCH.with_l1(narrower), true)
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.contains(&format!("--l1 {} or more", SUPPORTED_L1[1])),
            "{error}"
        );
        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let error = initial_net::<Position>(&path, &Position::ARCH.with_l1(SUPPORTED_L1[1]), true)
            .err()
            .unwrap();
        assert!(format!("{error:#}").contains("checksum"), "{error:#}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn source_buckets_nest_fewer_buckets_into_more() {
        type Shogi = sente::shogi::Position;
        for to in [1, 2, 4] {
            for bucket in 0..to {
                assert_eq!(source_bucket::<Position>(1, to, bucket), Some(0));
                assert_eq!(source_bucket::<Position>(to, to, bucket), Some(bucket));
                assert_eq!(source_bucket::<Shogi>(1, to, bucket), Some(0));
            }
        }
        // Chess: two buckets split the back rank (regions 0, 1) from the rest (2, 3).
        let chess: Vec<_> = (0..4).map(|b| source_bucket::<Position>(2, 4, b)).collect();
        assert_eq!(chess, [Some(0), Some(0), Some(1), Some(1)]);
        // Shogi: two buckets split the camp (regions 0-2) from the rest (3).
        let shogi: Vec<_> = (0..4).map(|b| source_bucket::<Shogi>(2, 4, b)).collect();
        assert_eq!(shogi, [Some(0), Some(0), Some(0), Some(1)]);
        // Fewer buckets cannot start from more.
        assert_eq!(source_bucket::<Position>(4, 1, 0), None);
        assert_eq!(source_bucket::<Position>(4, 2, 1), None);
    }

    /// A one-bucket net read into four buckets, into a wider net, or both, evaluates every
    /// position as the file does (each bucket a copy; new units silent), and a four-bucket run
    /// refuses a one-bucket target.
    #[test]
    fn a_net_starts_a_run_with_more_king_buckets_or_wider_as_the_same_function() {
        use sente::nnue::{evaluate_from_scratch, Network, SimdLevel};
        let dir = std::env::temp_dir().join(format!("sente-init-kb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let trained = float_net(SUPPORTED_L1[0], true);
        let path = written(&trained, &dir);
        let one = Network::from_bytes(&std::fs::read(&path).unwrap(), &Position::ARCH).unwrap();
        // More buckets, a wider net, and both.
        let wider = SUPPORTED_L1[2];
        let mut four_buckets = None;
        for target in [
            trained.arch.with_king_buckets(4),
            trained.arch.with_l1(wider),
            trained.arch.with_l1(wider).with_king_buckets(4),
        ] {
            let start = initial_net::<Position>(&path, &target, true).unwrap();
            assert_eq!(start.net.arch, target);
            let (bytes, _) = quantize(&start.net, "init test");
            let other = Network::from_bytes(&bytes, &Position::ARCH).unwrap();
            assert_eq!(other.arch().king_buckets, target.king_buckets);
            assert_eq!(other.arch().l1, target.l1);
            let mut positions = 0;
            for fen in [
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "r4rk1/pp3ppp/8/3q4/8/5N2/PPP1KPPP/R6R w - - 0 1",
                "8/5k2/8/3K4/8/8/4R3/8 b - - 0 1",
                "4k3/8/8/8/8/8/8/3K4 w - - 0 1",
                "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/2KR3R w - - 0 1",
            ] {
                let pos = <Position as sente::game::Game>::from_text(fen).unwrap();
                assert_eq!(
                    evaluate_from_scratch(&one, SimdLevel::Scalar, &pos),
                    evaluate_from_scratch(&other, SimdLevel::Scalar, &pos),
                    "{fen}, {target}"
                );
                positions += 1;
            }
            assert_eq!(positions, 5);
            if target.l1 == wider {
                // The new units learn: random feature weights, zero bias and output weights.
                let (net, old) = (&start.net, trained.arch.l1);
                let l = net.layout;
                let new_units = |row: &[f32]| row[old..].to_vec();
                let features: Vec<f32> = net.params[l.ft_w..l.ft_b]
                    .chunks_exact(wider)
                    .take(net.arch.feature_rows())
                    .flat_map(new_units)
                    .collect();
                assert!(features.iter().filter(|&&w| w != 0.0).count() > features.len() / 2);
                assert!(net.params[l.ft_b..l.out_w][old..].iter().all(|&b| b == 0.0));
                assert!(net.params[l.out_w..l.out_b]
                    .chunks_exact(wider)
                    .all(|row| row[old..].iter().all(|&w| w == 0.0)));
            } else {
                four_buckets = Some(start);
            }
        }
        let start = four_buckets.unwrap();
        let fewer = trained.arch.with_king_buckets(1);
        let four_path = dir.join("four.nnue");
        std::fs::write(&four_path, quantize(&start.net, "four").0).unwrap();
        let error = initial_net::<Position>(&four_path, &fewer, true)
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("give --king-buckets 4"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
