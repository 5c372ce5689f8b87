//! Syzygy endgame tables for chess, probed with the `shakmaty-syzygy` crate: opening a
//! `SyzygyPath` (several directories, ':'-separated on Unix and ';' on Windows, as Stockfish),
//! checking every table file when it is opened (name, size, and one probe each, so a damaged or
//! renamed file is reported then and not in the middle of a game), and each probe's conversion
//! of a `Position` into the crate's board.

use super::fen::answer_fen_lines;
use super::types::PieceKind;
use super::Position;
use crate::game::{Game, Side};
use crate::search::tablebase::{EndgameTables, TbWdl};
use crate::xorshift::xorshift64;
use shakmaty::{
    Bitboard, Board, ByColor, ByRole, CastlingMode, Chess, Color, FromSetup, Setup, Square,
};
use shakmaty_syzygy::{Dtz, MaybeRounded, ProbeError, SyzygyError, Tablebase, Wdl};
use std::path::{Path, PathBuf};

/// The separator of several directories in one `SyzygyPath`.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// An opened set of Syzygy tables.
pub struct SyzygyTables {
    tables: Tablebase<Chess>,
    wdl_files: usize,
    dtz_files: usize,
    max_pieces: u32,
    directories: Vec<PathBuf>,
}

impl std::fmt::Debug for SyzygyTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// A table file's material (`KQvKR`), by side and piece letter.
fn material_of(stem: &str) -> Option<[Vec<PieceKind>; 2]> {
    let (white, black) = stem.split_once('v')?;
    let side = |text: &str| -> Option<Vec<PieceKind>> {
        let kinds: Option<Vec<PieceKind>> = text
            .chars()
            .map(|c| PieceKind::from_letter(c.to_ascii_lowercase()))
            .collect();
        let kinds = kinds?;
        (kinds.first() == Some(&PieceKind::King)
            && kinds.iter().filter(|&&k| k == PieceKind::King).count() == 1)
            .then_some(kinds)
    };
    Some([side(white)?, side(black)?])
}

/// A legal position with `material` (White to move), found by a fixed pseudo-random
/// placement: the probe that checks a table file when it is opened.
fn sample_position(material: &[Vec<PieceKind>; 2]) -> Option<Chess> {
    let mut next = xorshift64(0x9E37_79B9_7F4A_7C15);
    for _ in 0..10_000 {
        let mut by_role = ByRole::<Bitboard>::default();
        let mut by_color = ByColor::<Bitboard>::default();
        let mut occupied = 0u64;
        let mut ok = true;
        for (side, kinds) in material.iter().enumerate() {
            for &kind in kinds {
                let sq = (next() % 64) as u32;
                let rank = sq / 8;
                if occupied & (1 << sq) != 0
                    || (kind == PieceKind::Pawn && (rank == 0 || rank == 7))
                {
                    ok = false;
                    break;
                }
                occupied |= 1 << sq;
                let bit = Bitboard::from_square(Square::new(sq));
                *by_role.get_mut(role_of(kind)) |= bit;
                if side == 0 {
                    by_color.white |= bit;
                } else {
                    by_color.black |= bit;
                }
            }
        }
        if !ok {
            continue;
        }
        let Ok(board) = Board::try_from_bitboards(by_role, by_color) else {
            continue;
        };
        let setup = Setup {
            board,
            ..Setup::empty()
        };
        if let Ok(pos) = Chess::from_setup(setup, CastlingMode::Standard) {
            return Some(pos);
        }
    }
    None
}

fn role_of(kind: PieceKind) -> shakmaty::Role {
    match kind {
        PieceKind::Pawn => shakmaty::Role::Pawn,
        PieceKind::Knight => shakmaty::Role::Knight,
        PieceKind::Bishop => shakmaty::Role::Bishop,
        PieceKind::Rook => shakmaty::Role::Rook,
        PieceKind::Queen => shakmaty::Role::Queen,
        PieceKind::King => shakmaty::Role::King,
    }
}

/// What is wrong with a table whose probe failed on its own data, in one line (`None` for
/// other failures, such as a table missing for a capture's result).
fn damage(error: &SyzygyError) -> Option<String> {
    let SyzygyError::ProbeFailed {
        metric,
        material,
        error,
    } = error
    else {
        return None;
    };
    let what = match error.as_ref() {
        ProbeError::Read { error } => format!("read error ({error})"),
        ProbeError::Magic { magic } => format!("not a table (magic bytes {magic:02x?})"),
        ProbeError::CorruptedTable { .. } => "corrupted data".to_string(),
    };
    Some(format!("{metric} table {material}: {what}"))
}

impl SyzygyTables {
    /// Opens every table file in the directories of `paths`; any problem (a missing directory,
    /// a file whose size or content is not a table's) is an error naming the directory or the
    /// file, and nothing is opened.
    pub fn open(paths: &str) -> Result<SyzygyTables, String> {
        // SAFETY: the tables are memory-mapped read-only. The crate's contract is that the
        // files are not modified while mapped and that reads do not fail: a table file
        // truncated or removed under a running engine (not a user's ordinary action, and the
        // same contract as Stockfish's mapped tables) may end the process with SIGBUS. Every
        // file is checked by name, size and a probe below before the tables are used.
        let mut tables = unsafe { Tablebase::<Chess>::with_mmap_filesystem() };
        let mut directories = Vec::new();
        let mut files = Vec::new();
        for dir in paths.split(PATH_SEPARATOR).map(str::trim) {
            if dir.is_empty() {
                continue;
            }
            let path = Path::new(dir);
            let entries = std::fs::read_dir(path)
                .map_err(|e| format!("cannot read directory '{dir}': {e}"))?;
            let mut names: Vec<PathBuf> = entries
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension()
                        .is_some_and(|ext| ext == "rtbw" || ext == "rtbz")
                })
                .collect();
            names.sort();
            for file in names {
                let stem = file
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or_default()
                    .to_string();
                let Some(material) = material_of(&stem) else {
                    return Err(format!(
                        "'{}' is not named as a Syzygy table (e.g. KQvKR.rtbw)",
                        file.display()
                    ));
                };
                tables
                    .add_file(&file)
                    .map_err(|e| format!("'{}': {e}", file.display()))?;
                files.push((file, material));
            }
            directories.push(path.to_path_buf());
        }
        if directories.is_empty() {
            return Err("no directory given".to_string());
        }
        let (mut wdl_files, mut dtz_files, mut max_pieces) = (0, 0, 0);
        for (file, material) in &files {
            let pieces = (material[0].len() + material[1].len()) as u32;
            max_pieces = max_pieces.max(pieces);
            let Some(pos) = sample_position(material) else {
                continue;
            };
            let dtz = file.extension().is_some_and(|e| e == "rtbz");
            let result = if dtz {
                dtz_files += 1;
                tables.probe_dtz(&pos).map(|_| ())
            } else {
                wdl_files += 1;
                tables.probe_wdl_after_zeroing(&pos).map(|_| ())
            };
            if let Some(what) = result.err().as_ref().and_then(damage) {
                return Err(format!("'{}' is damaged: {what}", file.display()));
            }
        }
        if files.is_empty() {
            return Err(format!("no Syzygy table files (.rtbw/.rtbz) in '{paths}'"));
        }
        Ok(SyzygyTables {
            tables,
            wdl_files,
            dtz_files,
            max_pieces,
            directories,
        })
    }

    /// The crate's position for `pos`, or `None` where the tables cannot hold it (castling).
    pub fn convert(pos: &Position) -> Option<Chess> {
        if pos.castling_rights() != 0 {
            return None;
        }
        let kind =
            |k: PieceKind| Bitboard(pos.pieces(Side::First, k) | pos.pieces(Side::Second, k));
        let by_role = ByRole {
            pawn: kind(PieceKind::Pawn),
            knight: kind(PieceKind::Knight),
            bishop: kind(PieceKind::Bishop),
            rook: kind(PieceKind::Rook),
            queen: kind(PieceKind::Queen),
            king: kind(PieceKind::King),
        };
        let by_color = ByColor {
            white: Bitboard(pos.side_pieces(Side::First)),
            black: Bitboard(pos.side_pieces(Side::Second)),
        };
        let board = Board::try_from_bitboards(by_role, by_color).ok()?;
        let setup = Setup {
            board,
            turn: if pos.side_to_move() == Side::First {
                Color::White
            } else {
                Color::Black
            },
            ep_square: pos.en_passant_square().map(|sq| Square::new(u32::from(sq))),
            halfmoves: pos.halfmove_clock(),
            ..Setup::empty()
        };
        // A check no legal move could give (two knights) is still a position of the tables.
        match Chess::from_setup(setup, CastlingMode::Standard) {
            Ok(pos) => Some(pos),
            Err(error) => error.ignore_impossible_check().ok(),
        }
    }

    /// WDL of the crate's position, as after a zeroing move.
    pub fn wdl_of(&self, pos: &Chess) -> Result<TbWdl, SyzygyError> {
        self.tables
            .probe_wdl_after_zeroing(pos)
            .map(|wdl| match wdl {
                Wdl::Loss => -2,
                Wdl::BlessedLoss => -1,
                Wdl::Draw => 0,
                Wdl::CursedWin => 1,
                Wdl::Win => 2,
            })
    }

    /// DTZ of the crate's position (a rounded value may be one ply long).
    pub fn dtz_of(&self, pos: &Chess) -> Result<i32, SyzygyError> {
        self.tables.probe_dtz(pos).map(|d| match d {
            MaybeRounded::Rounded(Dtz(n)) | MaybeRounded::Precise(Dtz(n)) => n,
        })
    }
}

impl EndgameTables<Position> for SyzygyTables {
    fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    fn probe_wdl(&self, pos: &Position) -> Option<TbWdl> {
        if pos.occupied().count_ones() > self.max_pieces {
            return None;
        }
        self.wdl_of(&Self::convert(pos)?).ok()
    }

    fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        if pos.occupied().count_ones() > self.max_pieces {
            return None;
        }
        self.dtz_of(&Self::convert(pos)?).ok()
    }

    fn describe(&self) -> String {
        let dirs: Vec<String> = self
            .directories
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        format!(
            "Syzygy tables: {} WDL and {} DTZ files, up to {} pieces, from {}",
            self.wdl_files,
            self.dtz_files,
            self.max_pieces,
            dirs.join(&PATH_SEPARATOR.to_string())
        )
    }
}

/// `sente syzygy PATHS`: for each FEN line of `input`, the tables' WDL (as after a zeroing
/// move) and DTZ through the engine's probe (FEN → `Position` → the crate's board), written
/// as `wdl W dtz D` (`-` where the tables have no answer) or `error ...` for a bad FEN. Returns
/// the number of positions and the mean time of one WDL and one DTZ probe in nanoseconds.
pub fn probe_lines(
    paths: &str,
    input: impl std::io::BufRead,
    output: impl std::io::Write,
) -> Result<(usize, f64, f64), String> {
    let tables = SyzygyTables::open(paths)?;
    let (mut wdl_ns, mut dtz_ns) = (0u128, 0u128);
    let count = answer_fen_lines(input, output, |pos| {
        let started = std::time::Instant::now();
        let wdl = tables.probe_wdl(pos);
        wdl_ns += started.elapsed().as_nanos();
        let started = std::time::Instant::now();
        let dtz = tables.probe_dtz(pos);
        dtz_ns += started.elapsed().as_nanos();
        let show = |v: Option<i32>| v.map_or("-".to_string(), |v| v.to_string());
        format!("wdl {} dtz {}", show(wdl), show(dtz))
    })?;
    let per = |total: u128| total as f64 / count.max(1) as f64;
    Ok((count, per(wdl_ns), per(dtz_ns)))
}
