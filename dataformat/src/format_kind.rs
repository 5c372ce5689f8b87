//! The training-data formats of other programs that `datagen export` writes and the tuner
//! reads, their names and file extensions, and how a data argument names one
//! (`FORMAT:path`, or the file's extension).

use anyhow::{bail, Result};
use sente::game::GameKind;
use std::path::{Path, PathBuf};

/// A foreign training-data format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForeignFormat {
    /// `FEN | score | result` (bullet's text form) or `SFEN | score | result`, one a line.
    Text,
    /// bullet's `ChessBoard`, 32 bytes a position.
    Bulletformat,
    /// Viridithas's game format (marlinformat start, then move/score pairs).
    Viriformat,
    /// Stockfish's compressed `.binpack`.
    Binpack,
    /// YaneuraOu's `PackedSfenValue`, 40 bytes a position.
    Psv,
    /// DeepLearningShogi's `HuffmanCodedPosAndEval`, 38 bytes a position.
    Hcpe,
}

impl ForeignFormat {
    pub const ALL: [ForeignFormat; 6] = [
        ForeignFormat::Text,
        ForeignFormat::Bulletformat,
        ForeignFormat::Viriformat,
        ForeignFormat::Binpack,
        ForeignFormat::Psv,
        ForeignFormat::Hcpe,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ForeignFormat::Text => "text",
            ForeignFormat::Bulletformat => "bulletformat",
            ForeignFormat::Viriformat => "viriformat",
            ForeignFormat::Binpack => "binpack",
            ForeignFormat::Psv => "psv",
            ForeignFormat::Hcpe => "hcpe",
        }
    }

    /// The file extensions that name the format (without the dot).
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            ForeignFormat::Text => &["txt", "text"],
            ForeignFormat::Bulletformat => &["bullet", "bulletformat"],
            ForeignFormat::Viriformat => &["viri", "vf", "viriformat"],
            ForeignFormat::Binpack => &["binpack"],
            ForeignFormat::Psv => &["psv"],
            ForeignFormat::Hcpe => &["hcpe"],
        }
    }

    /// Whether the format holds positions of `game`.
    pub fn supports(self, game: GameKind) -> bool {
        match self {
            ForeignFormat::Text => true,
            ForeignFormat::Bulletformat | ForeignFormat::Viriformat | ForeignFormat::Binpack => {
                game == GameKind::Chess
            }
            ForeignFormat::Psv | ForeignFormat::Hcpe => game == GameKind::Shogi,
        }
    }

    /// Fixed record size in bytes, for the formats that have one.
    pub fn record_size(self) -> Option<usize> {
        match self {
            ForeignFormat::Bulletformat => Some(32),
            ForeignFormat::Psv => Some(40),
            ForeignFormat::Hcpe => Some(38),
            _ => None,
        }
    }

    /// Refuses a format that cannot hold `game`'s positions.
    pub fn check_game(self, game: GameKind, path: &Path) -> Result<()> {
        if !self.supports(game) {
            let other = if game == GameKind::Chess {
                "shogi"
            } else {
                "chess"
            };
            bail!(
                "{}: {} is a {other} format, not {}",
                path.display(),
                self.name(),
                game.name()
            );
        }
        Ok(())
    }
}

impl std::str::FromStr for ForeignFormat {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        ForeignFormat::ALL
            .into_iter()
            .find(|f| f.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = ForeignFormat::ALL.iter().map(|f| f.name()).collect();
                format!("unknown format {text:?} (one of {})", names.join(", "))
            })
    }
}

impl std::fmt::Display for ForeignFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A data argument: Sente's own data (a file, run directory or pool) or a foreign file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataSource {
    Sente(PathBuf),
    Foreign(ForeignFormat, PathBuf),
}

/// Reads a data argument: `FORMAT:path` names the format, else a file whose extension is one
/// of a format's is that format, else it is Sente's own data.
pub fn data_source(arg: &Path) -> DataSource {
    let text = arg.to_string_lossy();
    if let Some((prefix, rest)) = text.split_once(':') {
        if let Ok(format) = prefix.parse::<ForeignFormat>() {
            return DataSource::Foreign(format, PathBuf::from(rest));
        }
    }
    let ext = arg.extension().and_then(|e| e.to_str()).unwrap_or("");
    for format in ForeignFormat::ALL {
        if format.extensions().contains(&ext) && !arg.is_dir() {
            return DataSource::Foreign(format, arg.to_path_buf());
        }
    }
    DataSource::Sente(arg.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_name_formats_by_prefix_or_extension() {
        let foreign = |f, p: &str| DataSource::Foreign(f, PathBuf::from(p));
        assert_eq!(
            data_source(Path::new("psv:/d/x.bin")),
            foreign(ForeignFormat::Psv, "/d/x.bin")
        );
        assert_eq!(
            data_source(Path::new("/d/x.binpack")),
            foreign(ForeignFormat::Binpack, "/d/x.binpack")
        );
        assert_eq!(
            data_source(Path::new("/d/data.bin")),
            DataSource::Sente(PathBuf::from("/d/data.bin"))
        );
        assert!("nope".parse::<ForeignFormat>().is_err());
        assert!(ForeignFormat::Psv
            .check_game(GameKind::Chess, Path::new("a.psv"))
            .unwrap_err()
            .to_string()
            .contains("psv is a shogi format, not chess"));
    }
}
