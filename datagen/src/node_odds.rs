//! Node odds for a promotion match between nets of different speed: a wider net searches fewer
//! nodes in the same time, so an equal-node match flatters it. Nets of one file size share an
//! architecture and play at equal nodes; otherwise the engine's bench runs `rounds` times for
//! each net, alternating, and its nodes per second of this thread's CPU time (not wall time: the
//! loop's machine is busy, and a descheduled thread is not slower) give a speed ratio per round;
//! the median ratio scales the node count, within a quarter to four times it.

use anyhow::{anyhow, Result};
use sente::bench::{run_bench, BenchSearch};
use sente::game::GameKind;
use sente::nnue::EvalChoice;
use std::path::Path;

/// This thread's CPU time in nanoseconds (`/proc/thread-self/schedstat`).
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Nodes per CPU second of the bench of `game` with the net `net`.
fn speed(game: GameKind, net: &Path) -> Result<f64> {
    let name = net
        .to_str()
        .ok_or_else(|| anyhow!("{}: not UTF-8", net.display()))?;
    let started = std::time::Instant::now();
    let cpu = thread_cpu_ns();
    let summary = run_bench(
        game.name(),
        None,
        EvalChoice::from_name(name),
        BenchSearch::default(),
        &mut std::io::sink(),
    )
    .map_err(|e| anyhow!("bench with {}: {e}", net.display()))?;
    let seconds = match (cpu, thread_cpu_ns()) {
        (Some(a), Some(b)) if b > a => (b - a) as f64 / 1e9,
        _ => started.elapsed().as_secs_f64(),
    };
    Ok(summary.nodes as f64 / seconds.max(1e-9))
}

/// The median of `ratios` scaled onto `nodes`, clamped: `(nodes for the new net, ratio)`.
pub fn scaled_nodes(nodes: u64, ratios: &mut [f64]) -> (u64, f64) {
    ratios.sort_by(f64::total_cmp);
    let n = ratios.len();
    let median = if n % 2 == 1 {
        ratios[n / 2]
    } else {
        (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0
    };
    let ratio = median.clamp(0.25, 4.0);
    ((nodes as f64 * ratio + 0.5) as u64, ratio)
}

/// `(nodes for the new net, speed ratio new / best)` for a match at `nodes` for the best net.
pub fn node_odds(
    game: GameKind,
    new: &Path,
    best: &Path,
    nodes: u64,
    rounds: usize,
) -> Result<(u64, f64)> {
    if std::fs::metadata(new)?.len() == std::fs::metadata(best)?.len() {
        return Ok((nodes, 1.0));
    }
    let mut ratios = Vec::with_capacity(rounds);
    for _ in 0..rounds.max(1) {
        let a = speed(game, new)?;
        let b = speed(game, best)?;
        ratios.push(a / b);
    }
    Ok(scaled_nodes(nodes, &mut ratios))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_ratio_scales_the_nodes_within_a_quarter_to_four_times() {
        assert_eq!(scaled_nodes(5000, &mut [0.5, 0.1, 0.6]), (2500, 0.5));
        assert_eq!(scaled_nodes(5000, &mut [0.5, 0.7]), (3000, 0.6));
        assert_eq!(scaled_nodes(5000, &mut [9.0]), (20000, 4.0));
        assert_eq!(scaled_nodes(5000, &mut [0.01]), (1250, 0.25));
    }

    #[test]
    fn nets_of_different_widths_get_a_measured_count() {
        let nets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../nets");
        let (wide, narrow) = (
            nets.join("chess-42885e0d53c3.nnue"),
            nets.join("chess-27fc6585f208.nnue"),
        );
        let (nodes, ratio) = node_odds(GameKind::Chess, &wide, &narrow, 5000, 1).unwrap();
        assert!(
            (0.25..=4.0).contains(&ratio) && nodes.abs_diff((5000.0 * ratio) as u64) <= 3,
            "{nodes} {ratio}"
        );
        assert_eq!(
            node_odds(GameKind::Chess, &wide, &wide, 5000, 1).unwrap(),
            (5000, 1.0)
        );
    }
}
