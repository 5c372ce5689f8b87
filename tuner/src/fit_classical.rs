//! `tuner fit-classical`: Texel-style fitting of the generation-0 classical evaluators.
//!
//! Both classical evaluators are linear in their parameters (chess: the middlegame and endgame
//! values and piece-square tables, tapered by fixed phase weights; shogi: board values, hand
//! values and piece-square tables). The engine exposes that linear form itself
//! (`ClassicalParams::to_vector` and `ClassicalEval::coefficients`), so nothing about the
//! evaluation is written twice here: every usable training position becomes one sparse row of
//! coefficients (side to move's point of view), and Adam minimises the mean of
//! `(sigmoid(row · w / scale) − target)²` over the rows with seeded minibatches. Every 20th game is
//! held out for validation. The fitted parameters are recentred (each table's mean moves into its
//! piece value, which leaves every score unchanged), rounded, and written as Rust source of a
//! `ClassicalParams` constant.

use crate::adamw::AdamW;
use crate::data::{for_each_training_position, load_games, warn_unreplayable, Filter, TargetBlend};
use crate::evaluate::evaluator_loss;
use anyhow::{bail, Context, Result};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use sente::game::{Game, Side};
use sente::nnue::NnueGame;
use sente_data::stored_game::StoredGame;
use std::fmt::Write as _;
use std::path::PathBuf;

/// What the fitter needs of a game's classical evaluator.
pub trait ClassicalFit: NnueGame {
    /// The engine file that defines this game's `ClassicalParams`.
    const ENGINE_FILE: &'static str;
    /// The default parameters as a vector (the engine's `to_vector` layout).
    fn default_vector() -> Vec<f32>;
    /// Replaces `out` with the sparse coefficients of the default evaluator's score (side to
    /// move's point of view) in this position.
    fn side_coefficients(&self, out: &mut Vec<(u32, f32)>);
    /// The engine's evaluator with the (rounded) parameters `v`.
    fn classical_from_vector(v: &[f32]) -> Self::Classical;
    /// Piece values and the table entries that go with them: adding `c` to the value and `-c` to
    /// the entries leaves every score unchanged. Kings (one per side) have no value: shifting
    /// their table alone changes nothing.
    fn value_groups() -> Vec<(Option<usize>, Vec<usize>)>;
    /// The named values printed in the summary.
    fn value_names() -> Vec<(String, usize)>;
    /// The body of a `ClassicalParams { .. }` expression for the rounded parameters `v`.
    fn params_source(v: &[f32]) -> String;
}

/// The `ClassicalFit` methods that every game's classical module (`sente::<game>`) provides the
/// same way: `ClassicalParams::{DEFAULT, to_vector, from_vector}` and
/// `ClassicalEval::coefficients`.
macro_rules! linear_form_of {
    ($game:ident) => {
        fn default_vector() -> Vec<f32> {
            sente::$game::ClassicalParams::DEFAULT.to_vector()
        }

        fn side_coefficients(&self, out: &mut Vec<(u32, f32)>) {
            static DEFAULT: sente::$game::ClassicalEval = sente::$game::ClassicalEval {
                params: sente::$game::ClassicalParams::DEFAULT,
            };
            DEFAULT.coefficients(self, out);
            side_relative(self.side_to_move(), out);
        }

        fn classical_from_vector(v: &[f32]) -> Self::Classical {
            sente::$game::ClassicalEval::new(sente::$game::ClassicalParams::from_vector(v))
        }
    };
}

const CHESS_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
const SHOGI_NAMES: [&str; 14] = [
    "pawn", "lance", "knight", "silver", "bishop", "rook", "gold", "king", "+pawn", "+lance",
    "+knight", "+silver", "horse", "dragon",
];

/// Negates the coefficients when `side` is the second player.
fn side_relative(side: Side, out: &mut [(u32, f32)]) {
    if side == Side::Second {
        for (_, c) in out.iter_mut() {
            *c = -*c;
        }
    }
}

/// Writes `rows` of `per_line` numbers, each line indented by `indent` spaces.
fn number_lines(s: &mut String, values: &[i32], per_line: usize, indent: usize) {
    for line in values.chunks(per_line) {
        let text: Vec<String> = line.iter().map(|x| x.to_string()).collect();
        let _ = writeln!(s, "{:indent$}{},", "", text.join(", "));
    }
}

fn table_source(s: &mut String, field: &str, tables: &[&[i32]], names: &[&str], per_line: usize) {
    let _ = writeln!(s, "    {field}: [");
    for (table, name) in tables.iter().zip(names) {
        let _ = writeln!(s, "        // {name}\n        [");
        number_lines(s, table, per_line, 12);
        s.push_str("        ],\n");
    }
    s.push_str("    ],\n");
}

impl ClassicalFit for sente::chess::Position {
    const ENGINE_FILE: &'static str = "engine/src/chess/classical.rs";

    linear_form_of!(chess);

    fn value_groups() -> Vec<(Option<usize>, Vec<usize>)> {
        type P = sente::chess::ClassicalParams;
        let mut groups = Vec::new();
        for k in 0..6 {
            // Pawns never stand on the first or last rank.
            let squares: Vec<usize> = (0..64)
                .filter(|sq| k != 0 || (8..56).contains(sq))
                .collect();
            let value = |index: usize| (k != 5).then_some(index);
            groups.push((
                value(P::mg_value_index(k)),
                squares.iter().map(|&sq| P::mg_table_index(k, sq)).collect(),
            ));
            groups.push((
                value(P::eg_value_index(k)),
                squares.iter().map(|&sq| P::eg_table_index(k, sq)).collect(),
            ));
        }
        groups
    }

    fn value_names() -> Vec<(String, usize)> {
        type P = sente::chess::ClassicalParams;
        let mut names = Vec::new();
        for (k, name) in CHESS_NAMES.iter().enumerate().take(5) {
            names.push((format!("{name} mg"), P::mg_value_index(k)));
            names.push((format!("{name} eg"), P::eg_value_index(k)));
        }
        names
    }

    fn params_source(v: &[f32]) -> String {
        let p = sente::chess::ClassicalParams::from_vector(v);
        let mut s = String::new();
        let _ = writeln!(s, "    mg_value: {:?},", p.mg_value);
        let _ = writeln!(s, "    eg_value: {:?},", p.eg_value);
        let mg: Vec<&[i32]> = p.mg_table.iter().map(|t| &t[..]).collect();
        let eg: Vec<&[i32]> = p.eg_table.iter().map(|t| &t[..]).collect();
        table_source(&mut s, "mg_table", &mg, &CHESS_NAMES, 8);
        table_source(&mut s, "eg_table", &eg, &CHESS_NAMES, 8);
        let _ = writeln!(s, "    phase_weight: {:?},", p.phase_weight);
        s
    }
}

impl ClassicalFit for sente::shogi::Position {
    const ENGINE_FILE: &'static str = "engine/src/shogi/classical.rs";

    linear_form_of!(shogi);

    fn value_groups() -> Vec<(Option<usize>, Vec<usize>)> {
        type P = sente::shogi::ClassicalParams;
        (0..SHOGI_NAMES.len())
            .map(|k| {
                let value = (k != 7).then_some(P::board_index(k));
                (value, (0..81).map(|sq| P::pst_index(k, sq)).collect())
            })
            .collect()
    }

    fn value_names() -> Vec<(String, usize)> {
        type P = sente::shogi::ClassicalParams;
        let mut names: Vec<(String, usize)> = SHOGI_NAMES
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != 7)
            .map(|(k, name)| (name.to_string(), P::board_index(k)))
            .collect();
        for (k, name) in SHOGI_NAMES.iter().enumerate().take(7) {
            names.push((format!("hand {name}"), P::hand_index(k)));
        }
        names
    }

    fn params_source(v: &[f32]) -> String {
        let p = sente::shogi::ClassicalParams::from_vector(v);
        let mut s = String::new();
        let _ = writeln!(s, "    board: {:?},", p.board);
        let _ = writeln!(s, "    hand: {:?},", p.hand);
        let pst: Vec<&[i32]> = p.pst.iter().map(|t| &t[..]).collect();
        // Squares are `file * 9 + rank`: one line per file.
        table_source(&mut s, "pst", &pst, &SHOGI_NAMES, 9);
        s
    }
}

/// Training rows in compressed sparse form: row `i` is `index/coef[start[i]..start[i + 1]]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rows {
    pub start: Vec<u64>,
    pub index: Vec<u32>,
    pub coef: Vec<f32>,
    pub target: Vec<f32>,
}

impl Rows {
    pub fn new() -> Self {
        Self {
            start: vec![0],
            ..Self::default()
        }
    }

    pub fn len(&self) -> usize {
        self.target.len()
    }

    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    pub fn push(&mut self, row: &[(u32, f32)], target: f32) {
        for &(i, c) in row {
            self.index.push(i);
            self.coef.push(c);
        }
        self.start.push(self.index.len() as u64);
        self.target.push(target);
    }

    /// The coefficients of row `i`.
    pub fn row(&self, i: usize) -> (&[u32], &[f32]) {
        let (a, b) = (self.start[i] as usize, self.start[i + 1] as usize);
        (&self.index[a..b], &self.coef[a..b])
    }

    /// The linear score (centipawns) of row `i` under parameters `w`.
    pub fn score(&self, i: usize, w: &[f32]) -> f32 {
        let (index, coef) = self.row(i);
        index
            .iter()
            .zip(coef)
            .map(|(&j, &c)| c * w[j as usize])
            .sum()
    }

    fn append(&mut self, other: &Rows) {
        let base = self.index.len() as u64;
        self.index.extend_from_slice(&other.index);
        self.coef.extend_from_slice(&other.coef);
        self.start.extend(other.start[1..].iter().map(|s| s + base));
        self.target.extend_from_slice(&other.target);
    }
}

/// The coefficient rows and targets of every usable position of `games` (the default training
/// filter), extracted in parallel, in game order.
pub fn extract_rows<G: ClassicalFit>(games: &[&StoredGame], blend: &TargetBlend) -> Rows {
    let parts: Vec<Rows> = games
        .par_chunks(64)
        .map(|chunk| {
            let mut part = Rows::new();
            let mut row = Vec::new();
            for record in chunk {
                warn_unreplayable(for_each_training_position::<G>(
                    record,
                    &Filter::default(),
                    blend,
                    |pos, target| {
                        pos.side_coefficients(&mut row);
                        part.push(&row, target);
                    },
                ));
            }
            part
        })
        .collect();
    let mut all = Rows::new();
    for part in &parts {
        all.append(part);
    }
    all
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Rows per parallel work item: fixed, so that sums (and the fit) do not depend on the threads.
const CHUNK: usize = 2048;

/// Mean of `(sigmoid(row · w / scale) − target)²` over `rows`.
pub fn loss(rows: &Rows, w: &[f32], scale: f32) -> f64 {
    if rows.is_empty() {
        return f64::NAN;
    }
    let parts: Vec<f64> = (0..rows.len().div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            (c * CHUNK..((c + 1) * CHUNK).min(rows.len()))
                .map(|i| {
                    let d = sigmoid(rows.score(i, w) / scale) - rows.target[i];
                    (d * d) as f64
                })
                .sum()
        })
        .collect();
    parts.iter().sum::<f64>() / rows.len() as f64
}

/// The mean loss of the engine's own (integer, clamped) evaluator with the rounded parameters
/// `w` over the usable positions of `games`.
pub fn engine_loss<G: ClassicalFit>(games: &[&StoredGame], blend: &TargetBlend, w: &[f32]) -> f64 {
    let eval = G::classical_from_vector(w);
    evaluator_loss::<G>(&eval, games, &Filter::default(), blend).0
}

/// Optimiser settings.
#[derive(Clone, Debug, PartialEq)]
pub struct FitConfig {
    /// Passes over the training rows.
    pub epochs: usize,
    /// Adam's starting step size in centipawns; it decays by a cosine to a tenth.
    pub lr: f32,
    /// Rows per minibatch (0: the whole training set).
    pub batch: usize,
    /// Seed of the minibatch order.
    pub seed: u64,
    /// The logistic scale (centipawns).
    pub scale: f32,
}

impl Default for FitConfig {
    fn default() -> Self {
        Self {
            epochs: 30,
            lr: 1.0,
            batch: 16384,
            seed: 1,
            scale: 400.0,
        }
    }
}

fn shuffled(n: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// Mean gradient of the loss over the rows `batch` (deterministic for any thread count).
fn gradient(rows: &Rows, batch: &[u32], w: &[f32], scale: f32) -> Vec<f32> {
    let parts: Vec<Vec<f64>> = batch
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut g = vec![0.0f64; w.len()];
            for &i in chunk {
                let i = i as usize;
                let p = sigmoid(rows.score(i, w) / scale);
                let dz = (2.0 * (p - rows.target[i]) * p * (1.0 - p) / scale) as f64;
                let (index, coef) = rows.row(i);
                for (&j, &c) in index.iter().zip(coef) {
                    g[j as usize] += dz * c as f64;
                }
            }
            g
        })
        .collect();
    let mut total = vec![0.0f64; w.len()];
    for part in &parts {
        for (t, g) in total.iter_mut().zip(part) {
            *t += g;
        }
    }
    let n = batch.len().max(1) as f64;
    total.iter().map(|&g| (g / n) as f32).collect()
}

/// Minimises the loss over `rows` from `init` with Adam; `progress(epoch, w)` runs after every
/// epoch. Deterministic: the same rows, start and config give the same result.
pub fn fit(
    rows: &Rows,
    init: &[f32],
    config: &FitConfig,
    mut progress: impl FnMut(usize, &[f32]),
) -> Vec<f32> {
    let mut w = init.to_vec();
    if rows.is_empty() {
        return w;
    }
    let mut adam = AdamW::new(w.len(), 0.0);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let batch = if config.batch == 0 {
        rows.len()
    } else {
        config.batch.min(rows.len())
    };
    let steps_per_epoch = rows.len().div_ceil(batch);
    let total_steps = (config.epochs * steps_per_epoch).max(1);
    let mut step = 0;
    for epoch in 0..config.epochs {
        let order = if batch == rows.len() {
            (0..rows.len() as u32).collect()
        } else {
            shuffled(rows.len(), &mut rng)
        };
        for chunk in order.chunks(batch) {
            let t = step as f32 / total_steps as f32;
            let lr = config.lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f32::consts::PI * t).cos()));
            let g = gradient(rows, chunk, &w, config.scale);
            adam.update(&mut w, &g, lr);
            step += 1;
        }
        progress(epoch + 1, &w);
    }
    w
}

/// Parameters that have a nonzero coefficient in some row.
pub fn seen(rows: &Rows, params: usize) -> Vec<bool> {
    let mut seen = vec![false; params];
    for &j in &rows.index {
        seen[j as usize] = true;
    }
    seen
}

/// Moves each table's mean (over the entries in `seen`) into its piece value, or removes it for
/// tables without a value (kings). Every score stays the same.
pub fn recentre<G: ClassicalFit>(w: &mut [f32], seen: &[bool]) {
    for (value, entries) in G::value_groups() {
        let used: Vec<f32> = entries
            .iter()
            .filter(|&&j| seen[j])
            .map(|&j| w[j])
            .collect();
        if used.is_empty() {
            continue;
        }
        let mean = used.iter().sum::<f32>() / used.len() as f32;
        for &j in &entries {
            w[j] -= mean;
        }
        if let Some(v) = value {
            w[v] += mean;
        }
    }
}

/// The Rust source of a constant `name` holding the rounded parameters `w`.
pub fn rust_source<G: ClassicalFit>(name: &str, w: &[f32], comment: &str) -> String {
    let mut s = String::new();
    for line in comment.lines() {
        let _ = writeln!(s, "// {line}");
    }
    let _ = writeln!(s, "// For {}.", G::ENGINE_FILE);
    let _ = writeln!(s, "pub const {name}: ClassicalParams = ClassicalParams {{");
    s.push_str(&G::params_source(w));
    s.push_str("};\n");
    s
}

/// Settings of a `tuner fit-classical` run.
#[derive(Clone, Debug)]
pub struct FitOptions {
    pub data: Vec<PathBuf>,
    /// Weight of the game result in the target (λ).
    pub lambda: f32,
    pub config: FitConfig,
    pub out: PathBuf,
}

/// Losses of a run (linear model; `engine_*`: the engine's integer evaluator, rounded params).
#[derive(Clone, Debug)]
pub struct FitReport {
    pub train_positions: usize,
    pub val_positions: usize,
    pub train_before: f64,
    pub train_after: f64,
    pub val_before: f64,
    pub val_after: f64,
    pub engine_val_before: f64,
    pub engine_val_after: f64,
    /// The fitted (recentred, unrounded) vector.
    pub fitted: Vec<f32>,
}

/// Loads the data, fits, prints the losses and a summary, and writes the constant to
/// `options.out`.
pub fn fit_classical<G: ClassicalFit>(options: &FitOptions) -> Result<FitReport> {
    if !(0.0..=1.0).contains(&options.lambda) {
        bail!("--wdl must be within 0..1");
    }
    let games = load_games::<G>(&options.data)?;
    let blend = TargetBlend {
        lambda: options.lambda,
        eval_scale: G::ARCH.eval_scale as f32,
    };
    let config = FitConfig {
        scale: blend.eval_scale,
        ..options.config.clone()
    };
    let (mut train_games, mut val_games) = (Vec::new(), Vec::new());
    for (i, record) in games.iter().enumerate() {
        if i % 20 == 19 {
            val_games.push(record);
        } else {
            train_games.push(record);
        }
    }
    let train = extract_rows::<G>(&train_games, &blend);
    let val = extract_rows::<G>(&val_games, &blend);
    if train.is_empty() {
        bail!("no usable training positions in the data");
    }
    sente::try_println!(
        "{} games: {} training positions, {} validation positions (every 20th game), {} parameters",
        games.len(),
        train.len(),
        val.len(),
        G::default_vector().len()
    )?;
    let init = G::default_vector();
    let train_before = loss(&train, &init, config.scale);
    let val_before = loss(&val, &init, config.scale);
    sente::try_println!("default: train loss {train_before:.6}, validation loss {val_before:.6}")?;
    let fitted = fit(&train, &init, &config, |epoch, w| {
        // Progress: best effort (the final report says whether stdout works).
        let _ = sente::try_println!(
            "epoch {epoch:>3}: train loss {:.6}, validation loss {:.6}",
            loss(&train, w, config.scale),
            loss(&val, w, config.scale)
        );
    });
    let mut centred = fitted;
    recentre::<G>(&mut centred, &seen(&train, init.len()));
    let train_after = loss(&train, &centred, config.scale);
    let val_after = loss(&val, &centred, config.scale);
    let engine_val_before = engine_loss::<G>(&val_games, &blend, &init);
    let engine_val_after = engine_loss::<G>(&val_games, &blend, &centred);
    sente::try_println!("fitted: train loss {train_after:.6}, validation loss {val_after:.6}")?;
    sente::try_println!(
        "engine evaluator (rounded, integer) on validation: default {engine_val_before:.6}, fitted {engine_val_after:.6}"
    )?;
    let mut default_centred = init.clone();
    recentre::<G>(&mut default_centred, &seen(&train, init.len()));
    sente::try_println!("piece values (table means folded in): default -> fitted")?;
    for (name, j) in G::value_names() {
        sente::try_println!(
            "  {name:<10} {:>6.0} -> {:>6.0}",
            default_centred[j],
            centred[j]
        )?;
    }
    let comment = format!(
        "Fitted by `tuner fit-classical --game {} --wdl {}` ({} epochs, lr {}) on {} positions:\n\
         train loss {train_before:.6} -> {train_after:.6}, validation loss {val_before:.6} -> {val_after:.6}.",
        G::NAME,
        options.lambda,
        config.epochs,
        config.lr,
        train.len(),
    );
    let source = rust_source::<G>("FITTED", &centred, &comment);
    std::fs::write(&options.out, source)
        .with_context(|| format!("writing {}", options.out.display()))?;
    sente::try_println!("wrote {}", options.out.display())?;
    Ok(FitReport {
        train_positions: train.len(),
        val_positions: val.len(),
        train_before,
        train_after,
        val_before,
        val_after,
        engine_val_before,
        engine_val_after,
        fitted: centred,
    })
}
