//! A shogi board as the game-record writers need it: read from SFEN, moves applied from USI
//! text, and the piece each move moves (KIF and CSA name it). Only what notation needs: moves
//! are checked legal by the engine before they reach a record.

use anyhow::{bail, Context, Result};

/// Piece kinds in SFEN letter order: P L N S G B R K.
const LETTERS: [char; 8] = ['P', 'L', 'N', 'S', 'G', 'B', 'R', 'K'];

/// One piece: its owner (0 black / sente, 1 white / gote), kind index, promoted or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub side: usize,
    pub kind: usize,
    pub promoted: bool,
}

/// Piece kind index of a SFEN letter.
pub fn kind_of(letter: char) -> Option<usize> {
    LETTERS
        .iter()
        .position(|&l| l == letter.to_ascii_uppercase())
}

/// A square: file 1..=9 (right to left from black's side), rank 1..=9 (top to bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Square {
    pub file: usize,
    pub rank: usize,
}

fn parse_square(text: &[u8]) -> Result<Square> {
    match text {
        [f @ b'1'..=b'9', r @ b'a'..=b'i'] => Ok(Square {
            file: (f - b'0') as usize,
            rank: (r - b'a') as usize + 1,
        }),
        _ => bail!("bad square '{}'", String::from_utf8_lossy(text)),
    }
}

/// A move as the writers describe it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    /// `None` for a drop.
    pub from: Option<Square>,
    pub to: Square,
    /// The piece as it stands before the move (a drop: unpromoted).
    pub piece: Piece,
    pub promotes: bool,
}

/// The board, both hands (counts by kind, P..R) and the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// `cells[rank - 1][file - 1]`.
    cells: [[Option<Piece>; 9]; 9],
    pub hands: [[u32; 7]; 2],
    pub side: usize,
    /// The SFEN move number of the position.
    pub move_number: u32,
}

impl Board {
    pub fn from_sfen(sfen: &str) -> Result<Self> {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        let [board, side, hand, rest @ ..] = fields.as_slice() else {
            bail!("SFEN '{sfen}' has fewer than three fields");
        };
        let mut cells = [[None; 9]; 9];
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 9 {
            bail!("SFEN '{sfen}': {} ranks", rows.len());
        }
        for (rank, row) in rows.iter().enumerate() {
            let mut file = 9usize;
            let mut promoted = false;
            for c in row.chars() {
                if c == '+' {
                    promoted = true;
                    continue;
                }
                if let Some(n) = c.to_digit(10) {
                    file = file.checked_sub(n as usize).context("rank too long")?;
                    continue;
                }
                let kind = kind_of(c).with_context(|| format!("bad piece '{c}'"))?;
                if file == 0 {
                    bail!("SFEN '{sfen}': rank {} too long", rank + 1);
                }
                cells[rank][file - 1] = Some(Piece {
                    side: usize::from(c.is_ascii_lowercase()),
                    kind,
                    promoted,
                });
                promoted = false;
                file -= 1;
            }
        }
        let mut hands = [[0u32; 7]; 2];
        if *hand != "-" {
            let mut count = 0u32;
            for c in hand.chars() {
                if let Some(d) = c.to_digit(10) {
                    count = count * 10 + d;
                    continue;
                }
                let kind = kind_of(c).filter(|&k| k < 7).context("bad hand piece")?;
                hands[usize::from(c.is_ascii_lowercase())][kind] += count.max(1);
                count = 0;
            }
        }
        Ok(Self {
            cells,
            hands,
            side: usize::from(*side == "w"),
            move_number: rest.first().and_then(|n| n.parse().ok()).unwrap_or(1),
        })
    }

    pub fn at(&self, sq: Square) -> Option<Piece> {
        self.cells[sq.rank - 1][sq.file - 1]
    }

    /// Describes the USI move `text` here, then plays it.
    pub fn play(&mut self, text: &str) -> Result<MoveInfo> {
        let bytes = text.as_bytes();
        let info = if bytes.len() == 4 && bytes[1] == b'*' {
            let kind = kind_of(bytes[0] as char).context("bad drop")?;
            let to = parse_square(&bytes[2..4])?;
            if self.hands[self.side][kind] == 0 {
                bail!("drop {text} without the piece in hand");
            }
            self.hands[self.side][kind] -= 1;
            let piece = Piece {
                side: self.side,
                kind,
                promoted: false,
            };
            self.cells[to.rank - 1][to.file - 1] = Some(piece);
            MoveInfo {
                from: None,
                to,
                piece,
                promotes: false,
            }
        } else {
            if bytes.len() < 4 {
                bail!("bad move '{text}'");
            }
            let from = parse_square(&bytes[0..2])?;
            let to = parse_square(&bytes[2..4])?;
            let promotes = bytes.get(4) == Some(&b'+');
            let piece = self
                .at(from)
                .filter(|p| p.side == self.side)
                .with_context(|| format!("move {text}: no piece of the mover on its square"))?;
            if let Some(captured) = self.at(to) {
                if captured.kind < 7 {
                    self.hands[self.side][captured.kind] += 1;
                }
            }
            self.cells[from.rank - 1][from.file - 1] = None;
            self.cells[to.rank - 1][to.file - 1] = Some(Piece {
                promoted: piece.promoted || promotes,
                ..piece
            });
            MoveInfo {
                from: Some(from),
                to,
                piece,
                promotes,
            }
        };
        self.side ^= 1;
        self.move_number += 1;
        Ok(info)
    }

    /// Whether the board is the standard initial position with black to move.
    pub fn is_initial(&self) -> bool {
        let start =
            Board::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
                .expect("the start position");
        self.cells == start.cells && self.hands == start.hands && self.side == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_captures_drops_and_promotions() {
        let mut b =
            Board::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
                .unwrap();
        assert!(b.is_initial());
        b.play("7g7f").unwrap();
        b.play("3c3d").unwrap();
        let m = b.play("8h2b+").unwrap();
        assert_eq!((m.piece.kind, m.promotes), (5, true));
        assert_eq!(b.hands[0][5], 1, "the bishop taken");
        b.play("3a2b").unwrap();
        assert_eq!(b.hands[1][5], 1);
        let drop = b.play("B*4e").unwrap();
        assert_eq!(drop.from, None);
        assert!(b.play("R*5e").is_err(), "white has no rook in hand");
        assert_eq!(b.move_number, 6);
    }
}
