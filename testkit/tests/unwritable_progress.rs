//! Issue 59, item 4: the tuner does not die (abort, exit 134) when stderr cannot be written;
//! its error still ends it with its own status.

use sente_testkit::Program;

#[test]
fn tuner_errors_to_an_unwritable_stderr_end_normally() {
    let tuner = Program::workspace_binary("tuner");
    let args = [
        "quantize",
        "--game",
        "chess",
        "/nonexistent/checkpoint",
        "--out",
        "/nonexistent/net.nnue",
    ];
    for closed_pipe in [false, true] {
        let out = tuner.run_with_unwritable_stderr(&args, closed_pipe);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{closed_pipe}: {:?}",
            out.status
        );
    }
}
