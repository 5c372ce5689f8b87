//! The Elo-per-generation plot of the shipped nets: reads `nets/history.tsv` (one row per
//! promoted net, written by `datagen loop`'s publish step) and draws, per game, the Elo of each
//! generation relative to the classical evaluator (generation 0), adding up each promotion's
//! SPRT result against its parent.

use crate::plot::{both_formats, register_font, Series};
use anyhow::{bail, Context, Result};
use plotters::style::{BLUE, GREEN, MAGENTA, RED};
use sente::game::GameKind;
use std::path::Path;

/// One promoted net: its game and the Elo (± 95% error) it showed against its parent.
#[derive(Clone, Debug, PartialEq)]
pub struct Promotion {
    pub game: GameKind,
    pub net: String,
    pub elo: f64,
    pub error: f64,
}

/// Reads the `Elo X ± Y` figure out of a result text such as `Elo 52.3 ± 21.0 (95%)`.
fn parse_elo(text: &str) -> Option<(f64, f64)> {
    let rest = &text[text.find("Elo ")? + 4..];
    let mut words = rest.split_whitespace();
    let elo = words.next()?.parse().ok()?;
    let error = match (words.next(), words.next()) {
        (Some("±" | "+-"), Some(e)) => e.parse().unwrap_or(f64::INFINITY),
        _ => f64::INFINITY,
    };
    Some((elo, error))
}

/// Parses `history.tsv`: game, net, parent, games, positions, nodes, seed, training, result.
pub fn parse_history(text: &str) -> Result<Vec<Promotion>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() < 9 {
            bail!("line {}: {} fields, expected 9", i + 1, fields.len());
        }
        let Some((elo, error)) = parse_elo(fields[8]) else {
            bail!("line {}: no `Elo X ± Y` in {:?}", i + 1, fields[8]);
        };
        if !elo.is_finite() {
            bail!(
                "line {}: Elo {elo} in {:?} is not a finite number",
                i + 1,
                fields[8]
            );
        }
        let game = fields[0]
            .parse()
            .with_context(|| format!("line {}", i + 1))?;
        out.push(Promotion {
            game,
            net: fields[1].to_string(),
            elo,
            error,
        });
    }
    Ok(out)
}

/// Generation → Elo relative to the classical evaluator, starting with (0, 0).
pub fn cumulative_elo(history: &[Promotion], game: GameKind) -> Vec<(f64, f64)> {
    let mut points = vec![(0.0, 0.0)];
    let mut total = 0.0;
    for (generation, p) in history.iter().filter(|p| p.game == game).enumerate() {
        total += p.elo;
        points.push(((generation + 1) as f64, total));
    }
    points
}

/// Writes `elo.png` and `elo.svg` into `out_dir` from the history file.
pub fn plot_elo_history(history_file: &Path, out_dir: &Path) -> Result<()> {
    let text = std::fs::read_to_string(history_file)
        .with_context(|| format!("reading {}", history_file.display()))?;
    let history = parse_history(&text)?;
    register_font();
    // One colour per game, in registry order.
    let colours = [BLUE, RED, GREEN, MAGENTA].into_iter().cycle();
    let series: Vec<Series> = GameKind::ALL
        .into_iter()
        .zip(colours)
        .map(|(game, colour)| (game.name(), cumulative_elo(&history, game), colour))
        .filter(|(_, points, _)| points.len() > 1)
        .collect();
    both_formats(
        out_dir,
        "elo",
        "Sente nets: Elo per generation (vs the classical evaluator = generation 0)",
        ("generation", "Elo (sum of SPRT results vs parent)"),
        &series,
        true,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_rows_add_up_per_game() {
        let text = "chess\tchess-a.nnue\tclassical\t10\t100\t5000\t1\tsb\tElo 50.5 ± 20.0 (95%)\n\
                    shogi\tshogi-b.nnue\tclassical\t10\t100\t5000\t1\tsb\tElo 80.0 ± 30.0 (95%)\n\
                    chess\tchess-c.nnue\tchess-a.nnue\t10\t100\t5000\t1\tsb\tElo 20.0 ± 10.0 (95%)\n";
        let history = parse_history(text).unwrap();
        assert_eq!(history.len(), 3);
        assert_eq!(history[0].error, 20.0);
        assert_eq!(
            cumulative_elo(&history, GameKind::Chess),
            vec![(0.0, 0.0), (1.0, 50.5), (2.0, 70.5)]
        );
        assert_eq!(
            cumulative_elo(&history, GameKind::Shogi),
            vec![(0.0, 0.0), (1.0, 80.0)]
        );
        assert!(parse_history("chess\tx\n").is_err());
        assert!(parse_history("chess\ta\tb\tc\td\te\tf\tg\tno result\n").is_err());
        // An all-wins match has no finite Elo (the plot's axis would never end).
        let error =
            parse_history("chess\ta\tb\tc\td\te\tf\tg\tElo +inf ± inf (95%)\n").unwrap_err();
        assert!(
            format!("{error:#}").contains("not a finite number"),
            "{error:#}"
        );
        let error = parse_history("go\ta\tb\tc\td\te\tf\tg\tElo 1 ± 2\n").unwrap_err();
        assert!(
            format!("{error:#}").contains("line 1: unknown game 'go'"),
            "{error:#}"
        );
    }

    #[test]
    fn plots_are_written() {
        let dir = std::env::temp_dir().join(format!("sente-elo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let history = dir.join("history.tsv");
        std::fs::write(
            &history,
            "chess\tchess-a.nnue\tclassical\t10\t100\t5000\t1\tsb\tElo 50.5 ± 20.0 (95%)\n",
        )
        .unwrap();
        plot_elo_history(&history, &dir).unwrap();
        assert!(std::fs::metadata(dir.join("elo.png")).unwrap().len() > 1000);
        assert!(std::fs::metadata(dir.join("elo.svg")).unwrap().len() > 1000);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
