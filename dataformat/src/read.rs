//! The tolerant reader of data files, for tools that want every intact game (`datagen stats`,
//! `verify`, `positions`, the tuner): damaged chunks and a torn tail are reported with the file
//! and chunk and skipped, and a file of another game is an error naming the game it holds.

use crate::chunk::{game_name, read_chunk, ChunkError};
use crate::file::map_file;
use crate::scan::scan;
use crate::stored_game::StoredGame;
use anyhow::{bail, Result};
use sente::game::GameKind;
use std::path::Path;

/// Calls `visit(game index in the run, game)` for every game of every valid chunk of `path`.
/// With `expected`, a file holding only another game's chunks is an error naming the game it
/// holds, and stray chunks of another game are skipped as damaged. Damaged chunks, undecodable
/// payloads and a torn tail are reported on stderr with the file and chunk, and skipped;
/// returns how many there were.
pub fn read_games(
    path: &Path,
    expected: Option<GameKind>,
    mut visit: impl FnMut(u64, &StoredGame),
) -> Result<usize> {
    let map = map_file(path)?;
    let scan = scan(&map);
    let expected = expected.map(GameKind::id);
    if let (Some(expected), Some(first)) = (expected, scan.chunks.first()) {
        if scan.chunks.iter().all(|c| c.game_id != expected) {
            bail!(
                "{} holds {} data, not {}",
                path.display(),
                game_name(first.game_id),
                game_name(expected)
            );
        }
    }
    let mut problems = 0;
    for damage in &scan.damaged {
        sente::eprintln_best_effort!("{}: {damage}; skipped", path.display());
        problems += 1;
    }
    for info in &scan.chunks {
        let decoded = match expected.filter(|&e| e != info.game_id) {
            Some(expected) => Err(ChunkError::WrongGame {
                offset: info.offset,
                expected,
                found: info.game_id,
            }),
            None => read_chunk(&map, info.offset),
        };
        match decoded {
            Ok((info, games)) => {
                for (i, game) in games.iter().enumerate() {
                    visit(info.first_game + i as u64, game);
                }
            }
            Err(e) => {
                sente::eprintln_best_effort!("{}: {e}; skipped", path.display());
                problems += 1;
            }
        }
    }
    if let Some((offset, e)) = &scan.torn_tail {
        sente::eprintln_best_effort!(
            "{}: incomplete chunk at the end (byte {offset}, {e}): a run still writing, or killed",
            path.display()
        );
        problems += 1;
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::encode_chunk;
    use crate::stored_game::sample_game as game;

    /// A scratch file holding `bytes`.
    fn file_with(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path =
            std::env::temp_dir().join(format!("sente-data-read-{name}-{}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn indices(path: &Path, expected: Option<GameKind>) -> Result<(Vec<u64>, usize)> {
        let mut seen = Vec::new();
        let problems = read_games(path, expected, |index, game| {
            assert_eq!(game.start, format!("start {index}"));
            seen.push(index);
        })?;
        Ok((seen, problems))
    }

    #[test]
    fn stray_chunks_damage_and_torn_tails_are_skipped_and_counted() {
        let (chess, shogi) = (GameKind::Chess.id(), GameKind::Shogi.id());
        let mut bytes = encode_chunk(chess, 0, &[game(0), game(1)]);
        bytes.extend(encode_chunk(shogi, 2, &[game(2)]));
        let mut damaged = encode_chunk(chess, 3, &[game(3)]);
        damaged[45] ^= 1;
        bytes.extend(damaged);
        bytes.extend(encode_chunk(chess, 4, &[game(4)]));
        bytes.extend(&encode_chunk(chess, 5, &[game(5)])[..30]);
        let path = file_with("mixed", &bytes);
        // Any game: the shogi chunk is read; the damaged chunk and the torn tail are skipped.
        assert_eq!(indices(&path, None).unwrap(), (vec![0, 1, 2, 4], 2));
        // Chess expected: the shogi chunk is skipped too.
        let chess_only = indices(&path, Some(GameKind::Chess)).unwrap();
        assert_eq!(chess_only, (vec![0, 1, 4], 3));
        // Shogi expected: one shogi chunk among chess ones is read, the two chess ones skipped.
        let shogi_only = indices(&path, Some(GameKind::Shogi)).unwrap();
        assert_eq!(shogi_only, (vec![2], 4));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_file_of_the_other_game_is_an_error_naming_it() {
        let path = file_with(
            "other-game",
            &encode_chunk(GameKind::Shogi.id(), 0, &[game(0)]),
        );
        let error = indices(&path, Some(GameKind::Chess))
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            format!("{} holds shogi data, not chess", path.display())
        );
        std::fs::remove_file(&path).unwrap();
    }
}
