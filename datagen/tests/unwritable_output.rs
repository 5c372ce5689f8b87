//! Issue 59, items 3 and 4: a run whose stderr cannot be written (a full disk, a closed pipe)
//! still runs to the end with intact data, since progress is best effort; and an output
//! directory that cannot be made names the path and the operation.

mod common;

use common::{data_of, run_args, scratch, scratch_dir, DATAGEN};
use sente_testkit::text;

#[test]
fn a_run_with_unwritable_stderr_completes() {
    let reference = scratch("stderr-reference");
    DATAGEN.ok(&run_args("chess", 4, &reference));
    for closed_pipe in [false, true] {
        let out = scratch(&format!("stderr-unwritable-{closed_pipe}"));
        let run = DATAGEN.run_with_unwritable_stderr(&run_args("chess", 4, &out), closed_pipe);
        assert!(
            run.status.success(),
            "closed pipe {closed_pipe}: {:?} {}",
            run.status,
            text(&run.stdout)
        );
        assert_eq!(
            data_of(&out),
            data_of(&reference),
            "closed pipe {closed_pipe}"
        );
        let _ = std::fs::remove_dir_all(&out);
    }
    let _ = std::fs::remove_dir_all(&reference);
}

#[test]
fn an_output_directory_that_cannot_be_made_is_named() {
    let dir = scratch_dir("out-under-a-file");
    let file = dir.join("file");
    std::fs::write(&file, b"not a directory").unwrap();
    let under_file = file.join("sub");
    let error = DATAGEN.failure(&run_args("chess", 2, &under_file));
    assert!(
        error.contains(&format!("creating {}", under_file.display()))
            && error.contains("Not a directory"),
        "{error}"
    );
    // sysfs refuses new directories even to root (a read-only file system for this purpose).
    let refused = std::path::Path::new("/sys/sente-datagen-test");
    let error = DATAGEN.failure(&run_args("chess", 2, refused));
    assert!(
        error.contains("creating /sys/sente-datagen-test"),
        "{error}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
