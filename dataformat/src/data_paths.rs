//! What the data arguments of the tools name: a data file, a run directory (its `data.bin`) or a
//! pool directory (the files its manifest lists), turned into the data files to read.

use crate::pool::{Pool, MANIFEST};
use anyhow::{bail, Result};
use std::path::{Path, PathBuf};

/// The data file's name inside a run directory.
pub const DATA_FILE: &str = "data.bin";

/// The data file of the run directory `dir`.
pub fn run_data_file(dir: &Path) -> PathBuf {
    dir.join(DATA_FILE)
}

/// Data files for readers: a pool directory becomes its manifest's files, a run directory its
/// `data.bin`; files stay as they are.
pub fn expand_data_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if Pool::is_pool(path) {
            files.extend(Pool::open(path)?.files());
        } else if path.is_dir() {
            let data = run_data_file(path);
            if !data.is_file() {
                bail!(
                    "{} is a directory but neither a pool ({MANIFEST}) nor a run ({DATA_FILE})",
                    path.display()
                );
            }
            files.push(data);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::PoolEntry;
    use crate::shard::Shard;
    use sente::game::GameKind;

    #[test]
    fn pools_runs_and_files_become_data_files() {
        let dir = std::env::temp_dir().join(format!("sente-data-paths-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (pool_dir, run, empty) = (dir.join("pool"), dir.join("run"), dir.join("empty"));
        for d in [&pool_dir, &run, &empty] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(run_data_file(&run), b"").unwrap();
        let pool = Pool {
            dir: pool_dir.clone(),
            game: GameKind::Chess,
            entries: ["x.bin", "y.bin"]
                .map(|file| PoolEntry {
                    file: file.to_string(),
                    generation: 0,
                    evaluator: "classical".into(),
                    nodes: 100,
                    seed: 1,
                    shard: Shard::WHOLE,
                    games: 1,
                    positions: 1,
                    bytes: 1,
                    checksum: 1,
                })
                .to_vec(),
        };
        std::fs::write(pool_dir.join(MANIFEST), pool.render()).unwrap();
        let loose = dir.join("loose.bin");
        let files = expand_data_paths(&[pool_dir.clone(), run.clone(), loose.clone()]).unwrap();
        assert_eq!(
            files,
            [
                pool_dir.join("x.bin"),
                pool_dir.join("y.bin"),
                run.join(DATA_FILE),
                loose
            ]
        );
        let error = expand_data_paths(&[empty]).unwrap_err().to_string();
        assert!(error.contains("neither a pool"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
