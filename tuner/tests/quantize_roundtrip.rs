//! quantize → engine load → evaluate: the engine's integer inference of a quantized net agrees
//! with the trainer's float network within a stated tolerance, on every SIMD level, at the
//! default hidden width and a wider one.

use sente::nnue::arch::CHESS;
use sente::nnue::{simd, Network, SimdLevel};
use tuner::model::{FloatNet, Scratch};
use tuner::quantize::quantize;

/// Integer inference vs float inference of the same (grid-rounded) weights: only the integer
/// divisions differ.
const ARITHMETIC_TOLERANCE_CP: f32 = 2.0;
/// Quantized vs original float net (rounding of every weight; QB = 64 is coarse for the small
/// random output weights of an untrained net): mean and worst absolute difference.
const MEAN_QUANTIZATION_TOLERANCE_CP: f32 = 15.0;
const WORST_QUANTIZATION_TOLERANCE_CP: f32 = 60.0;

/// The float net with every weight moved to the nearest value the quantized net can hold.
fn rounded_to_grid(net: &FloatNet) -> FloatNet {
    let mut out = net.clone();
    let (qa, qb) = (net.arch.qa as f32, net.arch.qb as f32);
    let l = net.layout;
    for p in &mut out.params[l.ft_w..l.out_w] {
        *p = (*p * qa).round() / qa;
    }
    for p in &mut out.params[l.out_w..l.out_b] {
        *p = (*p * qb).round() / qb;
    }
    for p in &mut out.params[l.out_b..] {
        *p = (*p * qa * qb).round() / (qa * qb);
    }
    out
}

fn engine_eval(net: &Network, level: SimdLevel, stm: &[u32], nstm: &[u32], bucket: usize) -> i32 {
    let l1 = net.arch().l1;
    let mut acc = [vec![0i16; l1], vec![0i16; l1]];
    for (side, features) in [stm, nstm].into_iter().enumerate() {
        let rows: Vec<&[i16]> = features.iter().map(|&f| net.ft_row(f as usize)).collect();
        simd::update(level, &mut acc[side], net.ft_bias(), &rows, &[]);
    }
    net.output(level, &acc[0], &acc[1], bucket)
}

#[test]
fn quantized_net_evaluates_like_the_float_net() {
    for l1 in [CHESS.l1, 256] {
        quantized_net_evaluates_like_the_float_net_at_width(l1);
    }
}

fn quantized_net_evaluates_like_the_float_net_at_width(l1: usize) {
    let arch = CHESS.with_l1(l1);
    let mut float = FloatNet::new(arch, 42);
    // Give the biases some weight so outputs are not near zero.
    for (i, p) in float.params[float.layout.ft_b..float.layout.out_w]
        .iter_mut()
        .enumerate()
    {
        *p = 0.2 + (i % 5) as f32 * 0.05;
    }
    for (i, p) in float.params[float.layout.out_b..].iter_mut().enumerate() {
        *p = 0.1 * i as f32 - 0.3;
    }
    let (bytes, report) = quantize(&float, "roundtrip");
    assert_eq!(report.clipped, 0);
    assert_eq!(report.overflow_risk_buckets, 0);
    // Loaded as a net of the game (its default architecture): the header gives the width.
    let net = Network::from_bytes(&bytes, &CHESS).expect("the engine loads what the tuner writes");
    assert_eq!(net.header().name, "roundtrip");
    assert_eq!(*net.arch(), arch);

    let mut scratch = Scratch::new(&arch);
    let mut state = 12345u64;
    let grid = rounded_to_grid(&float);
    let (mut worst, mut total, mut worst_arith) = (0.0f32, 0.0f32, 0.0f32);
    for sample in 0..200 {
        let mut features = |n: usize| -> Vec<u32> {
            (0..n)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((state >> 33) % arch.feature_rows() as u64) as u32
                })
                .collect()
        };
        let (stm, nstm) = (features(20), features(20));
        let bucket = sample % arch.output_buckets;
        let expected = float.evaluate_cp(&stm, &nstm, bucket, &mut scratch);
        let scalar = engine_eval(&net, SimdLevel::Scalar, &stm, &nstm, bucket);
        for level in SimdLevel::available() {
            assert_eq!(
                engine_eval(&net, level, &stm, &nstm, bucket),
                scalar,
                "{level:?}"
            );
        }
        let diff = (scalar as f32 - expected).abs();
        worst = worst.max(diff);
        total += diff;
        let on_grid = grid.evaluate_cp(&stm, &nstm, bucket, &mut scratch);
        worst_arith = worst_arith.max((scalar as f32 - on_grid).abs());
    }
    let mean = total / 200.0;
    assert!(
        worst_arith <= ARITHMETIC_TOLERANCE_CP,
        "l1 {l1}: integer vs float inference: {worst_arith} cp"
    );
    assert!(
        mean <= MEAN_QUANTIZATION_TOLERANCE_CP,
        "l1 {l1}: mean quantization error {mean} cp"
    );
    assert!(
        worst <= WORST_QUANTIZATION_TOLERANCE_CP,
        "l1 {l1}: worst quantization error {worst} cp"
    );
}
