//! The `sente` binary: with no arguments it speaks UCI, CECP or USI on stdin/stdout (the first
//! command picks the protocol); subcommands run developer tools (perft, bench).

use clap::{Parser, Subcommand};
use sente::game::{Game, GameKind};
use std::io::Write;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "sente",
    version,
    about = "Sente: a chess and shogi engine (UCI, CECP, USI)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaves of the legal move tree, per root move, to DEPTH plies.
    Perft {
        depth: u32,
        /// `startpos` (chess, the default), `shogi`, a FEN, or an SFEN (nine ranks).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        position: Vec<String>,
    },
    /// Fixed-depth searches over built-in positions: node total (a search signature) and nps.
    Bench {
        /// `chess` or `shogi`; both when left out.
        game: Option<String>,
        /// Search depth (the bench's default when left out).
        depth: Option<u32>,
        /// Evaluate with this net file (the game's embedded default otherwise).
        #[arg(long, conflicts_with = "classical")]
        net: Option<std::path::PathBuf>,
        /// Evaluate with the classical evaluator.
        #[arg(long)]
        classical: bool,
        /// Search the positions of FILE (one FEN / SFEN per line, optional `moves ...`; `#`
        /// comments) instead of the built-in ones; needs GAME.
        #[arg(long, value_name = "FILE", requires = "game")]
        positions: Option<std::path::PathBuf>,
        /// Search switches changed from the defaults, `name=on|off,...` (e.g.
        /// `material_scaling=off`): the signature of a technique before it is made the default.
        #[arg(long, value_name = "CHANGES", default_value = "")]
        search: String,
        /// Search parameters changed from the defaults, `name=value,...` (e.g.
        /// `rfp_margin=90,lmr_base=70`, as `datagen spsa` prints them): a tuned set's signature.
        #[arg(long, value_name = "CHANGES", default_value = "")]
        params: String,
    },
    /// The classical and NNUE evaluations of a position (chess FEN or shogi SFEN).
    Eval {
        /// A net file for the position's game (the embedded default net otherwise).
        #[arg(long)]
        net: Option<std::path::PathBuf>,
        /// `startpos` (chess, the default), `shogi`, a FEN, or an SFEN.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        position: Vec<String>,
    },
    /// Probes Syzygy tables (directories PATHS, ':'-separated) for each FEN on standard input:
    /// `wdl W dtz D` per line; the mean probe times go to standard error.
    Syzygy { paths: String },
    /// For each FEN on standard input: its Polyglot key and the book's moves with weights.
    Polyglot { book: String },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            sente::protocol::run_stdio::<sente::chess::Position, sente::shogi::Position>();
            ExitCode::SUCCESS
        }
        Some(Command::Perft { depth, position }) => perft(depth, &position.join(" ")),
        Some(Command::Bench {
            game,
            depth,
            net,
            classical,
            positions,
            search,
            params,
        }) => {
            // Names and ranges are the same in every game: checked before any search.
            let checked = sente::search::SearchFeatures::check_changes(&search)
                .and(sente::search::SearchParams::default().with_changes(&params));
            if let Err(error) = checked {
                sente::eprintln_best_effort!("sente bench: {error}");
                return ExitCode::from(2);
            }
            let search = sente::bench::BenchSearch {
                features: search,
                params,
            };
            let eval = match (&net, classical) {
                (Some(path), _) => sente::bench::BenchEval::Net(path),
                (None, true) => sente::bench::BenchEval::Classical,
                (None, false) => sente::bench::BenchEval::Default,
            };
            bench(game.as_deref(), depth, eval, search, positions.as_deref())
        }
        Some(Command::Eval { net, position }) => eval(&position.join(" "), net.as_deref()),
        Some(Command::Polyglot { book }) => {
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            match sente::chess::polyglot::probe_lines(&book, stdin, stdout) {
                Ok(_) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("sente polyglot: {error}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Syzygy { paths }) => {
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            match sente::chess::syzygy::probe_lines(&paths, stdin, stdout) {
                Ok((count, wdl_ns, dtz_ns)) => {
                    eprintln!(
                        "{count} positions: {:.2} us per WDL probe, {:.2} us per DTZ probe",
                        wdl_ns / 1000.0,
                        dtz_ns / 1000.0
                    );
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    eprintln!("sente syzygy: {error}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

fn eval(position: &str, net: Option<&std::path::Path>) -> ExitCode {
    let text = match position.trim() {
        "" | "startpos" => sente::chess::Position::startpos().to_text(),
        word if GameKind::from_name(word) == Some(GameKind::Shogi) => {
            sente::shogi::Position::startpos().to_text()
        }
        other => other.to_string(),
    };
    match sente::nnue::eval_report(&text, net) {
        Ok(report) => {
            let mut out = std::io::stdout().lock();
            match write!(out, "{report}").and_then(|()| out.flush()) {
                // A closed pipe (`sente eval | head -1`) ends quietly.
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    sente::eprintln_best_effort!("sente eval: writing to standard output: {e}");
                    ExitCode::from(2)
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(error) => {
            sente::eprintln_best_effort!("sente eval: {error}");
            ExitCode::from(2)
        }
    }
}

fn bench(
    game: Option<&str>,
    depth: Option<u32>,
    eval: sente::bench::BenchEval,
    search: sente::bench::BenchSearch,
    positions: Option<&std::path::Path>,
) -> ExitCode {
    // A name that is no game is `run_bench`'s error (`unknown game`), not clap's.
    let games = match game {
        Some(game) => vec![game],
        None => GameKind::ALL.iter().map(|kind| kind.name()).collect(),
    };
    let mut out = std::io::stdout().lock();
    for game in games {
        let result = match positions {
            Some(path) => {
                sente::bench::run_bench_file(game, path, depth, eval, search.clone(), &mut out)
            }
            None => sente::bench::run_bench(game, depth, eval, search.clone(), &mut out),
        };
        if let Err(error) = result {
            sente::eprintln_best_effort!("sente bench: {error}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

fn perft(depth: u32, position: &str) -> ExitCode {
    let text = position.trim();
    let board_field = text.split_whitespace().next().unwrap_or("");
    // `shogi` names the shogi start position; an SFEN board has nine ranks.
    let is_shogi =
        GameKind::from_name(text) == Some(GameKind::Shogi) || board_field.matches('/').count() == 8;
    let result = if is_shogi {
        run_perft::<sente::shogi::Position>(depth, text, GameKind::Shogi.name())
    } else {
        run_perft::<sente::chess::Position>(depth, text, "startpos")
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            sente::eprintln_best_effort!("sente perft: {message}");
            ExitCode::from(2)
        }
    }
}

fn run_perft<G: Game>(depth: u32, text: &str, start_word: &str) -> Result<(), String> {
    sente::perft::check_depth(depth)?;
    let pos = if text.is_empty() || text == start_word {
        G::startpos()
    } else {
        G::from_text(text).map_err(|e| format!("bad position '{text}': {e}"))?
    };
    let started = std::time::Instant::now();
    let mut out = std::io::stdout().lock();
    let nodes = sente::perft::perft_divide(&pos, depth, &mut out).map_err(|e| e.to_string())?;
    let seconds = started.elapsed().as_secs_f64();
    let _ = writeln!(
        out,
        "Time: {:.3} s ({:.2} Mnps)",
        seconds,
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}
