//! The lock that keeps two writers out of one output directory: `datagen run` and `datagen
//! rescore` hold `OUT/run.lock` while they write, so a second command given the same `--out`
//! (a loop started twice, a resume typed while the run still goes) stops with an error instead
//! of appending chunks to the same file. The operating system releases the lock when the holder
//! exits, killed or not, so a resume after a kill is never refused.

use anyhow::{bail, Context, Result};
use std::fs::{File, TryLockError};
use std::path::Path;

/// The lock file's name inside an output directory.
pub const RUN_LOCK: &str = "run.lock";

/// Takes the exclusive lock on the output directory `out` (which must exist); held until the
/// returned file is dropped. Fails at once if another process holds it.
pub fn lock_output(out: &Path) -> Result<File> {
    let path = out.join(RUN_LOCK);
    let file = File::create(&path).with_context(|| format!("creating {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => bail!(
            "{} is being written by another datagen process ({} is locked); wait for it or stop it",
            out.display(),
            path.display()
        ),
        Err(TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("locking {}", path.display()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_until_the_first_lets_go() {
        let dir = std::env::temp_dir().join(format!("sente-run-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = lock_output(&dir).unwrap();
        let error = lock_output(&dir).unwrap_err().to_string();
        assert!(error.contains("another datagen process"), "{error}");
        drop(first);
        lock_output(&dir).unwrap();
        let _ = std::fs::remove_dir_all(dir);
    }
}
