//! Where protocol answers go: whole lines, flushed one by one, shared between the protocol loop
//! and the search thread that reports progress.

use super::debug_log::{DebugLog, Direction};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A cloneable line writer. Every line is written in one piece and flushed at once.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    /// The `Debug Log File` log, shared by every clone (`debug_log.rs`).
    log: Arc<Mutex<Option<DebugLog>>>,
}

impl Output {
    pub fn new(sink: Box<dyn Write + Send>) -> Self {
        Self {
            sink: Arc::new(Mutex::new(sink)),
            log: Arc::new(Mutex::new(None)),
        }
    }

    /// Standard output.
    pub fn stdout() -> Self {
        Self::new(Box::new(std::io::stdout()))
    }

    /// Writes one line and flushes. A closed pipe is ignored: the GUI is gone and EOF on
    /// input will end the engine.
    pub fn line(&self, text: &str) {
        let mut sink = match self.sink.lock() {
            Ok(sink) => sink,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut buffer = Vec::with_capacity(text.len() + 1);
        buffer.extend_from_slice(text.as_bytes());
        buffer.push(b'\n');
        let _ = sink.write_all(&buffer);
        let _ = sink.flush();
        self.log(Direction::Out, text);
    }

    /// Logs a line read from the GUI (when a log is open).
    pub fn log_input(&self, text: &str) {
        self.log(Direction::In, text);
    }

    fn log(&self, direction: Direction, text: &str) {
        if let Ok(mut log) = self.log.lock() {
            if let Some(log) = log.as_mut() {
                log.write(direction, text);
            }
        }
    }

    /// Starts logging to `path` (appending), or stops with an empty path; on an error the
    /// previous log stays.
    pub fn set_debug_log(&self, path: &str) -> Result<(), String> {
        let new = if path.trim().is_empty() {
            None
        } else {
            Some(DebugLog::open(path.trim())?)
        };
        if let Ok(mut log) = self.log.lock() {
            *log = new;
        }
        Ok(())
    }
}

/// An in-memory sink for tests: what was written, readable from another handle.
#[derive(Clone, Default)]
pub struct Captured {
    bytes: Arc<Mutex<Vec<u8>>>,
}

impl Captured {
    pub fn output(&self) -> Output {
        Output::new(Box::new(self.clone()))
    }

    /// All lines written so far.
    pub fn lines(&self) -> Vec<String> {
        let bytes = self.bytes.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes)
            .lines()
            .map(str::to_string)
            .collect()
    }
}

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut bytes) = self.bytes.lock() {
            bytes.extend_from_slice(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
