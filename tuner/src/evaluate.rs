//! `tuner eval`: the loss of a quantized net (through the engine's own integer inference) or of a
//! checkpoint's float net on a data set.

use crate::batch::Batch;
use rayon::prelude::*;
use sente::nnue::{simd, Network, SimdLevel};

/// Mean loss of the quantized `net` over `batch`, computed with the engine's kernels.
pub fn quantized_loss(net: &Network, batch: &Batch) -> f32 {
    if batch.is_empty() {
        return f32::NAN;
    }
    let level = SimdLevel::detected();
    let scale = net.arch().eval_scale as f32;
    let l1 = net.arch().l1;
    let total: f64 = (0..batch.len())
        .into_par_iter()
        .map_init(
            || (vec![0i16; l1], vec![0i16; l1]),
            |(us, them), i| {
                let (s, n) = batch.features(i);
                for (acc, features) in [(&mut *us, s), (&mut *them, n)] {
                    let rows: Vec<&[i16]> =
                        features.iter().map(|&f| net.ft_row(f as usize)).collect();
                    simd::update(level, acc, net.ft_bias(), &rows, &[]);
                }
                let cp = net.output(level, us, them, batch.bucket[i] as usize) as f32;
                let p = 1.0 / (1.0 + (-cp / scale).exp());
                let d = p - batch.target[i];
                (d * d) as f64
            },
        )
        .sum();
    (total / batch.len() as f64) as f32
}
