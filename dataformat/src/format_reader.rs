//! Streaming readers of the foreign formats: each record of a file becomes a Sente record (a
//! position, or a game for binpack chains and viriformat games) handed to a callback, never
//! the whole file in memory. A record that does not decode stops the read with an error naming
//! the file and the record's byte offset (text: its line).

use crate::binpack_chunk::decode_binpack_chunk;
use crate::file::open_regular_file;
use crate::format_chess_records::{
    bullet_from_bytes, check_marlin_header, decode_binpack_chain, decode_bullet, decode_viri,
};
use crate::format_kind::ForeignFormat;
use crate::format_shogi_records::decode_shogi_record;
use crate::format_text::decode_text_line;
use crate::stored_game::StoredGame;
use anyhow::{anyhow, bail, Context, Result};
use sente::game::GameKind;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// Reads every record of `path` in `format` as game `game`'s records, in file order; returns
/// how many records (positions or games) were read.
pub fn read_foreign(
    path: &Path,
    format: ForeignFormat,
    game: GameKind,
    mut visit: impl FnMut(StoredGame),
) -> Result<u64> {
    format.check_game(game, path)?;
    let file = open_regular_file(path)?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let at = |offset: u64, e: anyhow::Error| {
        anyhow!(
            "{}: {format} record at byte {offset}: {e:#}",
            path.display()
        )
    };
    let mut count = 0u64;
    if let Some(size) = format.record_size() {
        if len % size as u64 != 0 {
            bail!(
                "{}: {len} bytes is not a whole number of {size}-byte {format} records (truncated record at byte {})",
                path.display(),
                len / size as u64 * size as u64
            );
        }
        let mut record = vec![0u8; size];
        let mut offset = 0u64;
        while offset < len {
            reader
                .read_exact(&mut record)
                .with_context(|| format!("reading {}", path.display()))?;
            let decoded = match format {
                ForeignFormat::Bulletformat => {
                    bullet_from_bytes(&record).and_then(|b| decode_bullet(&b))
                }
                _ => decode_shogi_record(format, &record),
            };
            visit(decoded.map_err(|e| at(offset, e))?);
            offset += size as u64;
            count += 1;
        }
        return Ok(count);
    }
    match format {
        ForeignFormat::Text => {
            let mut line = String::new();
            let mut number = 0u64;
            loop {
                line.clear();
                let n = reader
                    .read_line(&mut line)
                    .with_context(|| format!("reading {}", path.display()))?;
                if n == 0 {
                    break;
                }
                number += 1;
                if line.trim().is_empty() {
                    continue;
                }
                let decoded = match game {
                    GameKind::Chess => decode_text_line::<sente::chess::Position>(&line),
                    GameKind::Shogi => decode_text_line::<sente::shogi::Position>(&line),
                };
                visit(decoded.map_err(|e| anyhow!("{}: line {number}: {e:#}", path.display()))?);
                count += 1;
            }
        }
        ForeignFormat::Viriformat => {
            let mut offset = 0u64;
            let mut buffer = Vec::new();
            while offset < len {
                let mut header = [0u8; 32];
                reader
                    .read_exact(&mut header)
                    .map_err(|_| at(offset, anyhow!("truncated game header")))?;
                check_marlin_header(&header).map_err(|e| at(offset, e))?;
                let mut game_bytes = header.to_vec();
                loop {
                    let mut pair = [0u8; 4];
                    reader.read_exact(&mut pair).map_err(|_| {
                        at(offset, anyhow!("truncated game (no terminating null move)"))
                    })?;
                    game_bytes.extend_from_slice(&pair);
                    if pair == [0; 4] {
                        break;
                    }
                }
                let game = viriformat::dataformat::Game::deserialise_from(
                    &mut &game_bytes[..],
                    std::mem::take(&mut buffer),
                )
                .map_err(|e| at(offset, e.into()))?;
                visit(decode_viri(&game).map_err(|e| at(offset, e))?);
                buffer = game.into_move_buffer();
                offset += game_bytes.len() as u64;
                count += 1;
            }
        }
        ForeignFormat::Binpack => {
            let mut offset = 0u64;
            let mut chunk = Vec::new();
            let mut chain: Vec<sfbinpack::TrainingDataEntry> = Vec::new();
            let mut chain_at = 0u64;
            while offset < len {
                let mut header = [0u8; 8];
                reader
                    .read_exact(&mut header)
                    .map_err(|_| at(offset, anyhow!("truncated chunk header")))?;
                if &header[..4] != b"BINP" {
                    return Err(at(offset, anyhow!("bad magic (not a binpack chunk)")));
                }
                let size = u32::from_le_bytes(header[4..8].try_into().expect("4 bytes")) as u64;
                if offset + 8 + size > len {
                    return Err(at(
                        offset,
                        anyhow!(
                            "truncated chunk ({size} bytes declared, {} left)",
                            len - offset - 8
                        ),
                    ));
                }
                chunk.resize(size as usize, 0);
                reader
                    .read_exact(&mut chunk)
                    .with_context(|| format!("reading {}", path.display()))?;
                let mut failed = None;
                decode_binpack_chunk(&chunk, |entry, at_chain| {
                    if failed.is_some() {
                        return;
                    }
                    if chain
                        .last()
                        .is_some_and(|last| !last.is_continuation(&entry))
                    {
                        match decode_binpack_chain(&chain) {
                            Ok(record) => visit(record),
                            Err(e) => failed = Some(at(chain_at, e)),
                        }
                        count += 1;
                        chain.clear();
                    }
                    if chain.is_empty() {
                        chain_at = offset + 8 + at_chain as u64;
                    }
                    chain.push(entry);
                })
                .map_err(|e| at(offset + 8 + e.offset as u64, anyhow!("{}", e.reason)))?;
                if let Some(e) = failed {
                    return Err(e);
                }
                offset += 8 + size;
            }
            if !chain.is_empty() {
                visit(decode_binpack_chain(&chain).map_err(|e| at(chain_at, e))?);
                count += 1;
            }
        }
        _ => unreachable!("fixed-size formats are read above"),
    }
    Ok(count)
}
