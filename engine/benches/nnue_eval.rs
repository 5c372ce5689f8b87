//! NNUE evaluation speed for both games with random-weight nets of the real architectures, at
//! the default hidden width and the first wider one (`l1=128`, `l1=256`): full refreshes per
//! second (features → both accumulators → output, nothing reused), and the cost of one
//! incremental update + evaluate as a search pays it (push a child, evaluate, pop), at each SIMD
//! level the CPU has; the classical evaluator for comparison.
//! Run with `cargo bench -p sente --bench nnue_eval [-- FILTER]`; a filter keeps the lines whose
//! label contains it (e.g. `chess`, `l1=256`, `incremental Avx512`).

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sente::eval::Evaluator;
use sente::game::Game;
use sente::movelist::MoveList;
use sente::nnue::arch::{CHESS, DEFAULT_L1, SHOGI};
use sente::nnue::random_net::random_network;
use sente::nnue::{evaluate_from_scratch_in, Network, NnueEval, NnueGame, SimdLevel};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// One step of a random game: the position reached and up to `CHILDREN` of its children.
struct Step<G> {
    pos: G,
    children: Vec<G>,
}

const CHILDREN: usize = 12;
const LINE_PLIES: usize = 120;

/// Random games from the start position: `lines` games of up to `LINE_PLIES` plies.
fn lines<G: Game>(lines: usize, seed: u64) -> Vec<(G, Vec<Step<G>>)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..lines {
        let root = G::startpos();
        let mut pos = root.clone();
        let mut steps = Vec::new();
        for _ in 0..LINE_PLIES {
            let mut list = G::Moves::default();
            pos.generate_legal(&mut list);
            let moves = list.as_slice();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.next_u32() as usize % moves.len()];
            pos.make_move(m);
            let mut list = G::Moves::default();
            pos.generate_legal(&mut list);
            let children = list
                .as_slice()
                .iter()
                .take(CHILDREN)
                .map(|&m| {
                    let mut c = pos.clone();
                    c.make_move(m);
                    c
                })
                .collect();
            steps.push(Step {
                pos: pos.clone(),
                children,
            });
        }
        out.push((root, steps));
    }
    out
}

/// Whether the measurement labelled `label` was asked for.
fn wanted(label: &str) -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    filters.is_empty() || filters.iter().any(|f| label.contains(f.as_str()))
}

/// `chess l1=128`: the game and the net's width, the start of every label.
fn tag<G: NnueGame>(net: &Network) -> String {
    format!("{} l1={}", G::NAME, net.arch().l1)
}

fn full_refresh<G: NnueGame>(net: &Network, level: SimdLevel, games: &[(G, Vec<Step<G>>)]) {
    let tag = tag::<G>(net);
    if !wanted(&format!("{tag} full refresh {level:?}")) {
        return;
    }
    let positions: Vec<&G> = games
        .iter()
        .flat_map(|(_, steps)| steps.iter().map(|s| &s.pos))
        .collect();
    let mut buffer = Vec::new();
    let rounds = 20;
    let start = Instant::now();
    let mut sum = 0i64;
    for _ in 0..rounds {
        for pos in &positions {
            sum += evaluate_from_scratch_in(net, level, black_box(*pos), &mut buffer) as i64;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = (rounds * positions.len()) as f64;
    black_box(sum);
    println!(
        "{tag:<14} full refresh      {level:<7?} {:>10.0} evals/s {:>8.1} ns/eval",
        n / secs,
        secs * 1e9 / n
    );
}

/// Walks each game: push the next position and evaluate it, then push, evaluate and pop each
/// of its children. Every evaluation is one incremental update (or a refresh-cache rebuild
/// after a king-key change) plus the output layer.
fn incremental<G: NnueGame, E: Evaluator<G>>(
    tag: &str,
    label: &str,
    eval: &mut E,
    games: &[(G, Vec<Step<G>>)],
) {
    if !wanted(&format!("{tag} {label}")) {
        return;
    }
    let rounds = 5;
    let mut evaluations = 0usize;
    let mut sum = 0i64;
    let start = Instant::now();
    for _ in 0..rounds {
        for (root, steps) in games {
            eval.reset(root);
            sum += eval.evaluate(root) as i64;
            for step in steps {
                eval.push(&step.pos);
                sum += eval.evaluate(&step.pos) as i64;
                for child in &step.children {
                    eval.push(child);
                    sum += eval.evaluate(child) as i64;
                    eval.pop();
                }
                evaluations += 1 + step.children.len();
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    black_box(sum);
    println!(
        "{tag:<14} {label:<25} {:>10.0} evals/s {:>8.1} ns/(push+evaluate[+pop])",
        evaluations as f64 / secs,
        secs * 1e9 / evaluations as f64
    );
}

fn run<G: NnueGame>(net: Arc<Network>, seed: u64) {
    let games = lines::<G>(40, seed);
    for level in SimdLevel::available() {
        full_refresh(&net, level, &games);
    }
    for level in SimdLevel::available() {
        let mut eval = NnueEval::<G>::new(Arc::clone(&net)).expect("architecture");
        eval.set_simd_level(level);
        incremental(
            &tag::<G>(&net),
            &format!("incremental {level:?}"),
            &mut eval,
            &games,
        );
    }
    if net.arch().l1 == DEFAULT_L1 {
        let mut classical = G::Classical::default();
        incremental(G::NAME, "classical (reference)", &mut classical, &games);
    }
}

fn main() {
    println!("detected SIMD level: {:?}", SimdLevel::detected());
    for l1 in [DEFAULT_L1, 256] {
        let chess = Arc::new(random_network(&CHESS.with_l1(l1), 1).expect("random chess net"));
        run::<sente::chess::Position>(chess, 7);
        let shogi = Arc::new(random_network(&SHOGI.with_l1(l1), 2).expect("random shogi net"));
        run::<sente::shogi::Position>(shogi, 8);
    }
}
