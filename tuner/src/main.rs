//! `tuner`: trains NNUE nets from datagen files, quantizes checkpoints, and measures nets on data.
//! See `tuner --help`.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use sente::dispatch_game;
use sente::game::GameKind;
use sente::nnue::{Architecture, Network, NnueGame};
use sente_data::data_paths::expand_data_paths;
use sente_data::file::check_regular_file;
use std::io::Write;
use std::path::{Path, PathBuf};
use tuner::checkpoint::Checkpoint;
use tuner::data::{load_games, validation_set, Filter, TargetBlend};
use tuner::evaluate::{classical_loss, quantized_loss};
use tuner::fit_classical::{fit_classical, FitConfig, FitOptions};
use tuner::init_net::net_file_arch;
use tuner::model::FloatNet;
use tuner::quantize::quantize;
use tuner::schedule::LrSchedule;
use tuner::trainer::DEFAULT_WEIGHT_DECAY;
use tuner::training::{mean_loss, net_from_checkpoint, train, TrainConfig};

#[derive(Parser)]
#[command(version, about = "Sente's CPU NNUE trainer")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Train a net from datagen files (resumes from OUT/checkpoint.bin when present).
    Train {
        #[arg(long)]
        game: GameKind,
        /// datagen files (`data.bin`), run directories or data pools (`datagen pool`).
        #[arg(long, num_args = 1.., required = true)]
        data: Vec<PathBuf>,
        /// Validation files (or run directories, pools).
        #[arg(long, num_args = 1..)]
        val: Vec<PathBuf>,
        /// Hold out every K-th game of the training files for validation (0: none). The held-out
        /// games never enter training.
        #[arg(long, default_value_t = 0)]
        val_every: usize,
        #[arg(long, default_value_t = 10)]
        superbatches: u32,
        /// Batches per superbatch.
        #[arg(long, default_value_t = 100, value_parser = at_least_one_u32)]
        batches: u32,
        #[arg(long, default_value_t = 16384, value_parser = at_least_one)]
        batch: usize,
        /// `constant:LR`, `step:LR:GAMMA:EVERY` or `cosine:START:END`.
        #[arg(long, default_value = "cosine:0.001:0.00003")]
        lr: LrSchedule,
        /// Weight of the game result in the target (λ).
        #[arg(long, default_value_t = 0.3)]
        wdl: f32,
        #[arg(long, default_value_t = DEFAULT_WEIGHT_DECAY)]
        weight_decay: f32,
        #[arg(long, default_value_t = 2, value_parser = at_least_one)]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
        /// Continue from this checkpoint instead of OUT/checkpoint.bin.
        #[arg(long)]
        resume: Option<PathBuf>,
        /// Save a checkpoint every N superbatches.
        #[arg(long, default_value_t = 1)]
        save_every: u32,
        /// Skip the first plies of each game.
        #[arg(long, default_value_t = 8)]
        min_ply: u32,
        /// Name stored in the net file.
        #[arg(long, default_value = "sente-net")]
        name: String,
        /// Train without the factor features (shared piece-kind rows, folded into the net when
        /// quantizing).
        #[arg(long)]
        no_factors: bool,
        /// Also train on every position's left-right mirror image (shogi, whose rules are
        /// symmetric; refused for chess).
        #[arg(long)]
        mirror: bool,
        /// Hidden width of the net (feature-transformer outputs per perspective): one of the
        /// supported widths (128, 256, 384, 512, 768, 1024); default: the game's default width
        /// (128). The net header records it; a resume must give the same width.
        #[arg(long, value_parser = supported_l1)]
        l1: Option<usize>,
        /// King buckets of the net (1, 2 or 4: the king's regions grouped into that many sets
        /// of feature rows); default: the --init net's, else the game's default (1). A run
        /// started from a net with fewer buckets begins with each bucket a copy of the rows it
        /// covers (the same function); the net header records it, and a resume must give it.
        #[arg(long, value_parser = supported_king_buckets)]
        king_buckets: Option<usize>,
        /// Start from this net file's weights instead of random ones: fine-tuning a promoted net
        /// on new data (usually with a lower learning rate). Its width is the run's width unless
        /// --l1 says otherwise (then refused). A resume continues from the checkpoint, which
        /// must have started from the same file.
        #[arg(long)]
        init: Option<PathBuf>,
    },
    /// Draw the Elo-per-generation plot (`elo.png`, `elo.svg`) of the promoted nets.
    EloPlot {
        /// The promotion history written by `datagen loop --publish`.
        #[arg(long, default_value = "nets/history.tsv")]
        history: PathBuf,
        /// Directory the plots go to.
        #[arg(long, default_value = "nets")]
        out: PathBuf,
    },
    /// Quantize a checkpoint into the engine's net format.
    Quantize {
        #[arg(long)]
        game: GameKind,
        checkpoint: PathBuf,
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value = "sente-net")]
        name: String,
    },
    /// Loss of a net file or a checkpoint on data files.
    Eval {
        #[arg(long)]
        game: GameKind,
        /// A `.nnue` net, a checkpoint, or `classical` (the static classical evaluator, a baseline).
        model: PathBuf,
        #[arg(long, num_args = 1.., required = true)]
        data: Vec<PathBuf>,
        #[arg(long, default_value_t = 0.3)]
        wdl: f32,
        #[arg(long, default_value_t = 2, value_parser = at_least_one)]
        threads: usize,
    },
    /// Fit the classical evaluator's values and piece-square tables to data (Texel-style) and
    /// write them as Rust source of a `ClassicalParams` constant.
    FitClassical {
        #[arg(long)]
        game: GameKind,
        /// datagen files (`data.bin`); every 20th game is held out for validation.
        #[arg(long, num_args = 1.., required = true)]
        data: Vec<PathBuf>,
        /// Weight of the game result in the target (λ); the rest is sigmoid(score / 400).
        #[arg(long, default_value_t = 0.0)]
        wdl: f32,
        /// Passes over the training positions.
        #[arg(long, default_value_t = FitConfig::default().epochs)]
        epochs: usize,
        /// Adam's starting step in centipawns (cosine decay to a tenth).
        #[arg(long, default_value_t = FitConfig::default().lr)]
        lr: f32,
        /// Positions per minibatch (0: full batch).
        #[arg(long, default_value_t = FitConfig::default().batch)]
        batch: usize,
        /// Seed of the minibatch order.
        #[arg(long, default_value_t = FitConfig::default().seed)]
        seed: u64,
        #[arg(long, default_value_t = 2, value_parser = at_least_one)]
        threads: usize,
        /// Where the fitted `ClassicalParams` constant (Rust source) goes.
        #[arg(long)]
        out: PathBuf,
    },
}

fn quantize_checkpoint<G: NnueGame>(checkpoint: &Path, out: &Path, name: &str) -> Result<()> {
    let net = net_from_checkpoint::<G>(&Checkpoint::load(checkpoint)?)?;
    let (bytes, report) = quantize(&net, name);
    Network::from_bytes(&bytes, &G::ARCH).context("the quantized net does not load back")?;
    std::fs::write(out, bytes).with_context(|| format!("writing {}", out.display()))?;
    sente::try_println!(
        "wrote {} (l1 {}, {} king bucket(s); {} of {} weights clipped)",
        out.display(),
        net.arch.l1,
        net.arch.king_buckets,
        report.clipped,
        report.total
    )?;
    if let Some(warning) = report.warning() {
        sente::eprintln_best_effort!("tuner: {warning}");
    }
    Ok(())
}

fn eval_model<G: NnueGame>(model: &Path, data: &[PathBuf], lambda: f32) -> Result<()> {
    let games = load_games::<G>(data)?;
    let blend = TargetBlend {
        lambda,
        eval_scale: G::ARCH.eval_scale as f32,
    };
    let no_position = || anyhow::anyhow!("the data holds no usable {} position", G::NAME);
    let mut out = std::io::stdout().lock();
    if model.as_os_str() == "classical" {
        let (loss, count) = classical_loss::<G>(&games, &Filter::default(), &blend);
        if count == 0 {
            return Err(no_position());
        }
        writeln!(
            out,
            "classical evaluator: loss {loss:.6} over {count} positions"
        )
        .and_then(|()| out.flush())
        .context("writing to standard output")?;
        return Ok(());
    }
    // The model first: its king buckets decide the features of the positions.
    enum Model {
        Quantized(Network),
        Float(FloatNet),
    }
    let loaded = if model.extension().is_some_and(|e| e == "nnue") {
        check_regular_file(model)?;
        Model::Quantized(Network::load(model, &G::ARCH)?)
    } else {
        Model::Float(net_from_checkpoint::<G>(&Checkpoint::load(model)?)?)
    };
    let king_buckets = match &loaded {
        Model::Quantized(net) => net.arch().king_buckets,
        Model::Float(net) => net.arch.king_buckets,
    };
    let batch = validation_set::<G>(&games, &Filter::default(), &blend, king_buckets, usize::MAX);
    if batch.is_empty() {
        return Err(no_position());
    }
    let loss = match &loaded {
        Model::Quantized(net) => quantized_loss(net, &batch),
        Model::Float(net) => mean_loss(net, &batch),
    };
    writeln!(
        out,
        "{}: loss {loss:.6} over {} positions",
        model.display(),
        batch.len()
    )
    .and_then(|()| out.flush())
    .context("writing to standard output")?;
    Ok(())
}

fn run() -> Result<()> {
    match Cli::parse().command {
        Command::Train {
            game,
            data,
            val,
            val_every,
            superbatches,
            batches,
            batch,
            lr,
            wdl,
            weight_decay,
            threads,
            seed,
            out,
            resume,
            save_every,
            min_ply,
            name,
            no_factors,
            mirror,
            l1,
            king_buckets,
            init,
        } => {
            if mirror && game == GameKind::Chess {
                bail!("--mirror: chess has no exact left-right symmetry (castling); its features already mirror by the king's file");
            }
            use_threads(threads)?;
            if !(0.0..=1.0).contains(&wdl) {
                bail!("--wdl must be within 0..1");
            }
            let config = TrainConfig {
                data: expand_data_paths(&data)?,
                val: expand_data_paths(&val)?,
                val_every,
                superbatches,
                batches_per_superbatch: batches,
                batch_size: batch,
                schedule: lr,
                lambda: wdl,
                weight_decay,
                threads,
                seed,
                out,
                save_every,
                filter: Filter {
                    min_ply,
                    mirror,
                    ..Filter::default()
                },
                name,
                factors: !no_factors,
                l1: match (l1, &init) {
                    (Some(l1), _) => l1,
                    (None, Some(path)) => net_file_arch(path)?.l1,
                    (None, None) => dispatch_game!(game, G => G::ARCH.l1),
                },
                king_buckets: match (king_buckets, &init) {
                    (Some(buckets), _) => buckets,
                    (None, Some(path)) => net_file_arch(path)?.king_buckets,
                    (None, None) => dispatch_game!(game, G => G::ARCH.king_buckets),
                },
                init,
            };
            dispatch_game!(game, G => train::<G>(&config, resume.as_deref())?);
            Ok(())
        }
        Command::EloPlot { history, out } => {
            tuner::elo_history::plot_elo_history(&history, &out)?;
            sente::try_println!("wrote {}/elo.png and elo.svg", out.display())?;
            Ok(())
        }
        Command::Quantize {
            game,
            checkpoint,
            out,
            name,
        } => {
            dispatch_game!(game, G => quantize_checkpoint::<G>(&checkpoint, &out, &name))
        }
        Command::Eval {
            game,
            model,
            data,
            wdl,
            threads,
        } => {
            use_threads(threads)?;
            dispatch_game!(game, G => eval_model::<G>(&model, &expand_data_paths(&data)?, wdl))
        }
        Command::FitClassical {
            game,
            data,
            wdl,
            epochs,
            lr,
            batch,
            seed,
            threads,
            out,
        } => {
            use_threads(threads)?;
            let options = FitOptions {
                data: expand_data_paths(&data)?,
                lambda: wdl,
                config: FitConfig {
                    epochs,
                    lr,
                    batch,
                    seed,
                    ..FitConfig::default()
                },
                out,
            };
            dispatch_game!(game, G => fit_classical::<G>(&options)?);
            Ok(())
        }
    }
}

fn main() {
    if let Err(e) = run() {
        // A closed pipe (`tuner eval … | head -0`) ends the command quietly.
        let broken_pipe = e.chain().any(|cause| {
            cause
                .downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
        });
        if broken_pipe {
            std::process::exit(0);
        }
        sente::eprintln_best_effort!("tuner: error: {e:#}");
        std::process::exit(1);
    }
}

/// Runs rayon's work on `threads` threads.
fn use_threads(threads: usize) -> Result<()> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build_global()?;
    Ok(())
}

/// Thread counts, batch sizes and the like: at least 1.
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// `--l1`: a hidden width the engine supports (`arch::SUPPORTED_L1`).
fn supported_l1(text: &str) -> Result<usize, String> {
    let l1 = text.parse::<usize>().map_err(|e| e.to_string())?;
    if !Architecture::is_supported_l1(l1) {
        return Err(format!(
            "not a supported hidden width (supported: {})",
            Architecture::supported_l1_text()
        ));
    }
    Ok(l1)
}

/// `--king-buckets`: a king-bucket count the engine supports (`arch::SUPPORTED_KING_BUCKETS`).
fn supported_king_buckets(text: &str) -> Result<usize, String> {
    let buckets = text.parse::<usize>().map_err(|e| e.to_string())?;
    if !Architecture::is_supported_king_buckets(buckets) {
        return Err(format!(
            "not a supported king-bucket count (supported: {:?})",
            sente::nnue::arch::SUPPORTED_KING_BUCKETS
        ));
    }
    Ok(buckets)
}

/// Superbatch counts: at least 1.
fn at_least_one_u32(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}
