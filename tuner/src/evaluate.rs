//! `tuner eval`: the loss of a quantized net (through the engine's own integer inference) or of a
//! checkpoint's float net on a data set.

use crate::batch::Batch;
use crate::data::{
    for_each_training_position, warn_unreplayable, Filter, RecordAccess, TargetBlend,
};
use rayon::prelude::*;
use sente::eval::Evaluator;
use sente::nnue::{simd, Network, NnueGame, SimdLevel};

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

/// Mean loss of the game's classical (static) evaluator over the usable positions of `games`:
/// the baseline a trained net has to beat.
pub fn classical_loss<G: NnueGame>(
    games: &(impl RecordAccess + ?Sized),
    filter: &Filter,
    blend: &TargetBlend,
) -> (f32, usize) {
    let (loss, count) = evaluator_loss::<G>(&G::Classical::default(), games, filter, blend);
    (loss as f32, count)
}

/// Mean loss of the classical evaluator `eval` over the positions of `games` that pass `filter`,
/// and how many there were. Games are summed in fixed chunks, in game order, so the result does
/// not depend on the thread count.
pub fn evaluator_loss<G: NnueGame>(
    eval: &G::Classical,
    games: &(impl RecordAccess + ?Sized),
    filter: &Filter,
    blend: &TargetBlend,
) -> (f64, usize) {
    let indices: Vec<u32> = (0..games.count() as u32).collect();
    let parts: Vec<(f64, usize)> = indices
        .par_chunks(64)
        .map(|chunk| {
            let mut eval = eval.clone();
            let (mut sum, mut count) = (0.0f64, 0usize);
            for record in chunk.iter().filter_map(|&i| games.get(i as usize)) {
                warn_unreplayable(for_each_training_position::<G>(
                    &record,
                    filter,
                    blend,
                    |pos, target| {
                        eval.reset(pos);
                        let cp = eval.evaluate(pos) as f32;
                        let p = 1.0 / (1.0 + (-cp / blend.eval_scale).exp());
                        sum += ((p - target) * (p - target)) as f64;
                        count += 1;
                    },
                ));
            }
            (sum, count)
        })
        .collect();
    let (sum, count) = parts.iter().fold((0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    (sum / count.max(1) as f64, count)
}
