//! Data files on disk: only regular files are read (a device, FIFO or directory given as a data
//! file would be read forever, block or fail obscurely), and they are read memory-mapped.

use anyhow::{bail, Context, Result};
use memmap2::Mmap;
use std::path::Path;

/// Refuses anything but a regular file (symlinks followed): a device such as `/dev/zero`, a FIFO
/// or a directory given as a data file would be read forever, block or fail obscurely.
pub fn check_regular_file(path: &Path) -> Result<()> {
    let meta = std::fs::metadata(path).with_context(|| format!("opening {}", path.display()))?;
    if !meta.is_file() {
        bail!(
            "{} is not a regular file ({}); data files must be regular files",
            path.display(),
            file_kind(&meta)
        );
    }
    Ok(())
}

fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a plain file"
    }
}

/// Opens a data file for reading, refusing non-regular files (checked before opening, so that a
/// FIFO does not block, and again on the open file).
pub fn open_regular_file(path: &Path) -> Result<std::fs::File> {
    check_regular_file(path)?;
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("reading the metadata of {}", path.display()))?;
    if !meta.is_file() {
        bail!("{} is not a regular file", path.display());
    }
    Ok(file)
}

/// A read-only memory map of a data file (regular files only).
pub fn map_file(path: &Path) -> Result<Mmap> {
    let file = open_regular_file(path)?;
    // SAFETY: read-only private map of a data file; datagen appends only whole chunks and never
    // rewrites bytes that readers may have mapped (a repair writes a new file and renames it).
    unsafe { Mmap::map(&file) }.with_context(|| format!("mapping {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_are_read() {
        for (path, kind) in [("/dev/zero", "a device"), ("/tmp", "a directory")] {
            let error = map_file(Path::new(path)).unwrap_err().to_string();
            assert!(
                error.contains("is not a regular file") && error.contains(kind),
                "{error}"
            );
        }
        let missing = check_regular_file(Path::new("/nonexistent/data.bin")).unwrap_err();
        assert!(missing.to_string().contains("/nonexistent/data.bin"));
        let file = std::env::temp_dir().join(format!("sente-data-file-{}", std::process::id()));
        std::fs::write(&file, b"SENTEDAT").unwrap();
        assert_eq!(&map_file(&file).unwrap()[..], b"SENTEDAT");
        std::fs::remove_file(&file).unwrap();
    }
}
