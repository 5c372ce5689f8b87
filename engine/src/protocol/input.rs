//! Input side of the protocol loop: stdin read on its own thread, turned into events on one
//! channel that also carries "job finished" notices, and the whitespace-tolerant tokenizer.

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, Sender};

/// Something the protocol loop has to react to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// One input line, without its line ending.
    Line(String),
    /// Input closed: behave as on `quit`.
    Eof,
    /// The controller's job (search, mate solve, perft) with this id returned.
    JobDone(u64),
}

/// A channel of events fed by a thread reading `reader` line by line.
pub fn spawn_reader<R: BufRead + Send + 'static>(reader: R) -> (Sender<Event>, Receiver<Event>) {
    let (sender, receiver) = mpsc::channel();
    let lines = sender.clone();
    std::thread::spawn(move || {
        let mut reader = reader;
        let mut raw = Vec::new();
        loop {
            raw.clear();
            match reader.read_until(b'\n', &mut raw) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let text = String::from_utf8_lossy(&raw);
                    // Lines may end in \n, \r\n or stray \r (GUIs on other systems).
                    for part in text.split(['\n', '\r']).filter(|p| !p.is_empty()) {
                        if lines.send(Event::Line(part.to_string())).is_err() {
                            return;
                        }
                    }
                }
            }
        }
        let _ = lines.send(Event::Eof);
    });
    (sender, receiver)
}

/// Splits a line on any run of spaces, tabs and other whitespace.
pub fn tokens(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The text after the first `count` tokens, with its inner spacing kept (option values, FENs).
pub fn rest_after(line: &str, count: usize) -> &str {
    let mut rest = line.trim_start();
    for _ in 0..count {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = rest[end..].trim_start();
    }
    rest.trim_end()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn tokens_tolerate_tabs_and_repeated_spaces() {
        assert_eq!(tokens("\t  debug \t  \t\ton\t  "), vec!["debug", "on"]);
        assert!(tokens("   ").is_empty());
    }

    #[test]
    fn rest_after_keeps_inner_spacing() {
        assert_eq!(rest_after("  setboard  8/8 w - -  ", 1), "8/8 w - -");
        assert_eq!(rest_after("a b", 5), "");
    }

    #[test]
    fn reader_splits_crlf_and_ends_with_eof() {
        let input = Cursor::new(b"uci\r\nisready\r\rgo\n".to_vec());
        let (_, events) = spawn_reader(input);
        let got: Vec<Event> = events.iter().take(4).collect();
        assert_eq!(
            got,
            vec![
                Event::Line("uci".into()),
                Event::Line("isready".into()),
                Event::Line("go".into()),
                Event::Eof
            ]
        );
    }
}
