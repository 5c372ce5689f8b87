//! Seeded random nets of a given architecture, for tests and benchmarks: weights drawn in ranges
//! that put the accumulators across the activation's range, so every part of the network
//! matters, while no product or sum of a real net's size overflows.

use super::arch::Architecture;
use super::format::write_net;
use super::network::{NetLoadError, Network};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Feature-transformer weights are drawn from ±`FT_RANGE`.
pub const FT_RANGE: i16 = 48;
/// Output weights are drawn from ±`OUT_RANGE` (|clamp(x)·w| ≤ 255·64 fits in i16).
pub const OUT_RANGE: i16 = 64;

fn uniform(rng: &mut Xoshiro256PlusPlus, lo: i32, hi: i32) -> i32 {
    lo + (rng.next_u32() % (hi - lo + 1) as u32) as i32
}

/// The bytes of a random net file for `arch`, the same for the same `seed`.
pub fn random_net_bytes(arch: &Architecture, seed: u64) -> Vec<u8> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (ft, out) = (FT_RANGE as i32, OUT_RANGE as i32);
    let ft_w: Vec<i16> = (0..arch.feature_rows() * arch.l1)
        .map(|_| uniform(&mut rng, -ft, ft) as i16)
        .collect();
    let ft_b: Vec<i16> = (0..arch.l1)
        .map(|_| uniform(&mut rng, 0, 128) as i16)
        .collect();
    let out_w: Vec<i16> = (0..arch.output_buckets * 2 * arch.l1)
        .map(|_| uniform(&mut rng, -out, out) as i16)
        .collect();
    let out_b: Vec<i32> = (0..arch.output_buckets)
        .map(|_| uniform(&mut rng, -20_000, 20_000))
        .collect();
    write_net(
        arch,
        &format!("random-{seed}"),
        &ft_w,
        &ft_b,
        &out_w,
        &out_b,
    )
}

/// A random net for `arch`, loaded from memory.
pub fn random_network(arch: &Architecture, seed: u64) -> Result<Network, NetLoadError> {
    Network::from_bytes(&random_net_bytes(arch, seed), arch)
}
