//! The records a run trains or measures on, without holding imported files in memory: Sente's
//! own files are decoded into memory (4 bytes a ply), foreign files are scanned once and then
//! read again from their memory map on demand (`sente_data::format_reader::ForeignFile`), so a
//! record costs 8 bytes of index ([`RecordRef`]). Records that do not replay through the rules
//! are dropped at the scan with a warning naming the file and the record's index; damaged Sente
//! chunks are skipped with a warning, and a foreign record that does not decode is an error.

use crate::data::RecordAccess;
use anyhow::Result;
use rayon::prelude::*;
use sente::game::Game;
use sente_data::chunk::game_kind;
use sente_data::format_kind::{data_source, DataSource};
use sente_data::format_reader::ForeignFile;
use sente_data::imported::visit_kept_positions;
use sente_data::position_filter::PositionFilter;
use sente_data::read::read_games;
use sente_data::stored_game::{RecordError, StoredGame};
use std::borrow::Cow;
use std::path::PathBuf;

enum Source {
    Sente(Vec<StoredGame>),
    Foreign(ForeignFile),
}

/// One record of a [`RecordSet`]: its source file and its index there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordRef {
    source: u32,
    index: u32,
}

/// The files of a run, each record addressable by a [`RecordRef`].
#[derive(Default)]
pub struct RecordSet {
    sources: Vec<Source>,
}

impl RecordSet {
    /// Adds `files` (Sente files, or foreign ones: `FORMAT:path` or a format's extension) and
    /// returns the references of their replayable records, in file order.
    pub fn add_files<G: Game>(&mut self, files: &[PathBuf]) -> Result<Vec<RecordRef>> {
        let mut refs = Vec::new();
        for path in files {
            let source = self.sources.len() as u32;
            let replays = |r: &StoredGame| {
                visit_kept_positions::<G>(r, &PositionFilter::KEEP_ALL, |_, _, _| {})
            };
            match data_source(path) {
                DataSource::Sente(path) => {
                    let (mut games, mut indices) = (Vec::new(), Vec::new());
                    read_games(&path, Some(game_kind::<G>()), |index, record| {
                        games.push(record.clone());
                        indices.push(index);
                    })?;
                    let broken: Vec<usize> = games
                        .par_iter()
                        .enumerate()
                        .filter_map(|(i, record)| match replays(record) {
                            Ok(()) => None,
                            Err(error) => {
                                sente::eprintln_best_effort!(
                                    "tuner: {}: game {} does not replay ({error}); skipped",
                                    path.display(),
                                    indices[i]
                                );
                                Some(i)
                            }
                        })
                        .collect();
                    let mut broken = broken.into_iter().peekable();
                    let mut kept = Vec::with_capacity(games.len());
                    for (i, game) in games.into_iter().enumerate() {
                        if broken.next_if_eq(&i).is_none() {
                            kept.push(game);
                        }
                    }
                    refs.extend((0..kept.len() as u32).map(|index| RecordRef { source, index }));
                    self.sources.push(Source::Sente(kept));
                }
                DataSource::Foreign(format, path) => {
                    let file = ForeignFile::open(&path, format, game_kind::<G>())?;
                    if file.len() > u32::MAX as u64 {
                        anyhow::bail!("{}: more than 2^32 records", path.display());
                    }
                    // Decoded and checked in parallel, a block at a time, reported in file order.
                    const BLOCK: u64 = 1 << 16;
                    for block in (0..file.len()).step_by(BLOCK as usize) {
                        let checked: Vec<Result<Option<RecordError>>> = (block
                            ..(block + BLOCK).min(file.len()))
                            .into_par_iter()
                            .map(|i| Ok(replays(&file.record(i)?).err()))
                            .collect();
                        for (i, result) in (block..).zip(checked) {
                            match result? {
                                None => refs.push(RecordRef {
                                    source,
                                    index: i as u32,
                                }),
                                Some(error) => sente::eprintln_best_effort!(
                                    "tuner: {}: game {i} does not replay ({error}); skipped",
                                    path.display()
                                ),
                            }
                        }
                    }
                    self.sources.push(Source::Foreign(file));
                }
            }
        }
        Ok(refs)
    }

    /// The record `r` (decoded again for a foreign file; `None`, with a warning, if the file
    /// no longer decodes there).
    pub fn get(&self, r: RecordRef) -> Option<Cow<'_, StoredGame>> {
        match &self.sources[r.source as usize] {
            Source::Sente(games) => Some(Cow::Borrowed(&games[r.index as usize])),
            Source::Foreign(file) => match file.record(r.index as u64) {
                Ok(record) => Some(Cow::Owned(record)),
                Err(e) => {
                    sente::eprintln_best_effort!("tuner: {e:#}; skipped");
                    None
                }
            },
        }
    }
}

/// Some records of a set, in a given order.
pub struct RecordView<'a> {
    pub set: &'a RecordSet,
    pub refs: Vec<RecordRef>,
}

impl RecordAccess for RecordView<'_> {
    fn count(&self) -> usize {
        self.refs.len()
    }

    fn get(&self, i: usize) -> Option<Cow<'_, StoredGame>> {
        self.set.get(self.refs[i])
    }
}
