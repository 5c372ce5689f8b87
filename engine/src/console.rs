//! Console output for the command-line programs (`sente` subcommands, `datagen`, `tuner`).
//! Progress and diagnostics on stderr are best effort: a full disk or a closed pipe there must not
//! end a run (`eprintln!` panics on a failed write, and with `panic = "abort"` that kills the
//! process). Report lines on stdout return their error, naming standard output, so that a
//! command fails clearly on a full disk and its caller can end quietly on a closed pipe.

use std::io::Write;

/// Writes one line to stderr; a failed write is ignored.
pub fn stderr_line(args: std::fmt::Arguments) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// Writes `args` to stdout and flushes; the error says it was standard output.
pub fn stdout(args: std::fmt::Arguments) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)
        .and_then(|()| out.flush())
        .map_err(|e| std::io::Error::new(e.kind(), format!("writing to standard output: {e}")))
}

/// `eprintln!` that never fails: the line goes to stderr if it can.
#[macro_export]
macro_rules! eprintln_best_effort {
    ($($arg:tt)*) => {
        $crate::console::stderr_line(format_args!($($arg)*))
    };
}

/// `println!` that returns an `std::io::Result` instead of panicking.
#[macro_export]
macro_rules! try_println {
    ($($arg:tt)*) => {
        $crate::console::stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` that returns an `std::io::Result` instead of panicking.
#[macro_export]
macro_rules! try_print {
    ($($arg:tt)*) => {
        $crate::console::stdout(format_args!($($arg)*))
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_format_like_println() {
        // Only the formatting can be checked in-process; the programs' tests run them with
        // stderr on /dev/full.
        crate::eprintln_best_effort!("console test {}", 1);
        assert!(crate::try_print!("").is_ok());
    }
}
