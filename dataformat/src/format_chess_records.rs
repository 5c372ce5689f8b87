//! Chess's foreign formats through the field's crates: bullet's `ChessBoard` (`bulletformat`,
//! 32 bytes, the board from the mover's side, score and result the mover's), Viridithas's games
//! (`viriformat`: a marlinformat start position, then each move with a White-relative score,
//! the result in the header) and Stockfish's `.binpack` (`sfbinpack`: chains of positions with
//! move, mover's score in Stockfish's internal units, ply and result), written from and read
//! into Sente chess positions and moves.

use crate::format_writer::{
    first_player_result, FormatWriter, GameEncoder, GameSink, RecordSink, Records, Sample,
};
use crate::imported::{END_IMPORTED, END_IMPORTED_NO_PLY};
use crate::stored_game::{
    StoredGame, RESULT_DRAW, RESULT_FIRST_WINS, RESULT_SECOND_WINS, SCORE_NONE,
};
use anyhow::{anyhow, bail, Context, Result};
use bulletformat::{BulletFormat, ChessBoard};
use sente::chess::{Move, PieceKind, Position};
use sente::game::{Game, GameMove, Side};
use std::io::Write;
use std::path::Path;

/// Stockfish's "no score" value, which its trainer skips; marks the plies the export's
/// filter drops inside binpack chains and viriformat games.
pub const VALUE_NONE: i16 = 32002;
/// Stockfish's mate bound: scores at least this far from 0 are mates (kept as they are).
const MATE_IN_MAX_PLY: i32 = 32000 - 246;
/// Stockfish's internal units per pawn that binpack scores are written in (its classic
/// `PawnValueEg`, the scale of the data its trainer was made for): 100 cp = 208 units.
pub const BINPACK_PAWN: i32 = 208;

/// Sente centipawns to binpack units (mates unchanged; exact back for |cp| < 15266).
pub fn cp_to_binpack(cp: i16) -> i16 {
    let cp = cp as i32;
    if cp == SCORE_NONE as i32 {
        return VALUE_NONE;
    }
    if cp.abs() >= MATE_IN_MAX_PLY {
        return cp as i16;
    }
    let v = (cp * BINPACK_PAWN + cp.signum() * 50) / 100;
    v.clamp(-(MATE_IN_MAX_PLY - 1), MATE_IN_MAX_PLY - 1) as i16
}

/// Binpack units to Sente centipawns (`VALUE_NONE` to `SCORE_NONE`).
pub fn binpack_to_cp(v: i16) -> i16 {
    let v = v as i32;
    if v == VALUE_NONE as i32 {
        return SCORE_NONE;
    }
    if v.abs() >= MATE_IN_MAX_PLY {
        return v.clamp(-32000, 32000) as i16;
    }
    ((v * 100 + v.signum() * BINPACK_PAWN / 2) / BINPACK_PAWN) as i16
}

/// A move's parts: from, to, castling (king takes rook), en passant, promotion kind (1..=4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessMoveParts {
    pub from: u8,
    pub to: u8,
    pub castle: bool,
    pub en_passant: bool,
    pub promotion: Option<u8>,
}

pub fn move_parts(m: Move) -> ChessMoveParts {
    ChessMoveParts {
        from: m.from(),
        to: m.to(),
        castle: m.is_castle(),
        en_passant: m.is_en_passant(),
        promotion: m.promoted().map(|k| k.index() as u8),
    }
}

pub fn sente_move(p: ChessMoveParts) -> Move {
    if p.castle {
        Move::castle(p.from, p.to)
    } else if p.en_passant {
        Move::en_passant(p.from, p.to)
    } else if let Some(kind) = p.promotion {
        Move::promotion(p.from, p.to, PieceKind::from_index(kind))
    } else {
        Move::normal(p.from, p.to)
    }
}

fn parse_fen(text: &str) -> Result<Position> {
    Position::from_text(text).map_err(|e| anyhow!("position {text}: {e}"))
}

fn checked_move(pos: &Position, m: Move) -> Result<u16> {
    if !pos.is_legal_move(m) {
        bail!("move {:?} is not legal in {}", move_parts(m), pos.to_text());
    }
    Ok(m.to_bits())
}

/// An imported game record (`END_IMPORTED`) that starts at `pos` and ends in `result`: each of
/// `plies`, decoded by `decode` into a move and its score from the position before it, checked
/// legal there and played.
fn imported_game<'a, T: 'a>(
    mut pos: Position,
    result: u8,
    plies: &'a [T],
    mut decode: impl FnMut(&Position, &'a T) -> (Move, i16),
) -> Result<StoredGame> {
    let start = pos.to_text();
    let mut moves = Vec::with_capacity(plies.len());
    let mut scores = Vec::with_capacity(plies.len());
    for ply in plies {
        let (m, score) = decode(&pos, ply);
        moves.push(checked_move(&pos, m)?);
        scores.push(score);
        pos.make_move(m);
    }
    Ok(StoredGame {
        start,
        moves,
        scores,
        result,
        end: END_IMPORTED,
    })
}

// ---------------------------------------------------------------- bulletformat

/// Writes bullet's `ChessBoard` records.
pub struct BulletWriter {
    pub sink: RecordSink,
}

/// The `ChessBoard` of a position with the mover's score and result (1, 0, -1): the record
/// the crate makes from the text line bullet's converter reads (`ChessBoard::from_str` of
/// [`text_line`](crate::format_text::text_line)), built from the bitboards by the crate's
/// `from_raw` without the text.
pub fn bullet_board(pos: &Position, score: i16, result: i8) -> Result<ChessBoard> {
    if pos.occupied().count_ones() > 32 {
        bail!(
            "bulletformat refuses {}: more than 32 pieces",
            pos.to_text()
        );
    }
    let mut bbs = [0u64; 8];
    bbs[0] = pos.side_pieces(Side::First);
    bbs[1] = pos.side_pieces(Side::Second);
    for kind in PieceKind::ALL {
        bbs[2 + kind.index()] = pos.pieces(Side::First, kind) | pos.pieces(Side::Second, kind);
    }
    // The crate's inputs are White's: score, and result 1.0 / 0.5 / 0.0.
    let white = pos.side_to_move() == Side::First;
    let white_score = if white { score } else { score.wrapping_neg() };
    let white_result = match first_player_result(result, pos.side_to_move()) {
        RESULT_FIRST_WINS => 1.0,
        RESULT_DRAW => 0.5,
        _ => 0.0,
    };
    ChessBoard::from_raw(bbs, (!white) as usize, white_score, white_result)
        .map_err(|e| anyhow!("bulletformat refuses {}: {e}", pos.to_text()))
}

impl FormatWriter<Position> for BulletWriter {
    fn sample(&mut self, s: &Sample<Position>) -> Result<()> {
        if s.score == SCORE_NONE {
            return Ok(());
        }
        let board = bullet_board(s.pos, s.score, s.result)?;
        self.sink.push(ChessBoard::as_bytes_slice(&[board]))
    }

    fn finish(&mut self) -> Result<u64> {
        self.sink.finish()
    }
}

/// Encodes games as bullet's `ChessBoard` records, for [`GameEncoder`]'s parallel export.
pub struct BulletEncoder;

impl GameEncoder<Position> for BulletEncoder {
    type Encoded = Records;

    fn start(&self) -> Records {
        Records::default()
    }

    fn sample(&self, out: &mut Records, s: &Sample<Position>) -> Result<()> {
        if s.score != SCORE_NONE {
            let board = bullet_board(s.pos, s.score, s.result)?;
            out.push(ChessBoard::as_bytes_slice(&[board]));
        }
        Ok(())
    }
}

/// A `ChessBoard` from its 32 bytes (checked: piece codes, piece count, kings, result).
pub fn bullet_from_bytes(r: &[u8]) -> Result<ChessBoard> {
    let board = ChessBoard {
        occ: u64::from_le_bytes(r[0..8].try_into().expect("8 bytes")),
        pcs: r[8..24].try_into().expect("16 bytes"),
        score: i16::from_le_bytes([r[24], r[25]]),
        result: r[26],
        ksq: r[27],
        opp_ksq: r[28],
        extra: [r[29], r[30], r[31]],
    };
    if board.occ.count_ones() > 32 || board.result > 2 {
        bail!("not a ChessBoard (piece count or result out of range)");
    }
    let mut kings = [0; 2];
    for (piece, _) in board {
        if piece & 7 > 5 {
            bail!("not a ChessBoard (piece code {piece})");
        }
        if piece & 7 == 5 {
            kings[(piece >> 3) as usize] += 1;
        }
    }
    if kings != [1, 1] {
        bail!("not a ChessBoard (kings {kings:?})");
    }
    Ok(board)
}

/// The position record of a `ChessBoard`: the board as the mover sees it, White to move (the
/// format keeps no side to move, castling, en passant or clocks, nor the ply).
pub fn decode_bullet(board: &ChessBoard) -> Result<StoredGame> {
    let mut squares = [None; 64];
    for (piece, sq) in *board {
        squares[sq as usize] = Some(piece);
    }
    let mut fen = String::with_capacity(80);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        fen.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    let c = b"PNBRQK"[(p & 7) as usize] as char;
                    fen.push(if p & 8 != 0 {
                        c.to_ascii_lowercase()
                    } else {
                        c
                    });
                }
            }
        }
        if empty > 0 {
            fen.push((b'0' + empty) as char);
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(" w - - 0 1");
    let pos = parse_fen(&fen)?;
    Ok(StoredGame {
        start: pos.to_text(),
        moves: Vec::new(),
        scores: vec![board.score],
        result: match board.result {
            2 => RESULT_FIRST_WINS,
            1 => RESULT_DRAW,
            _ => RESULT_SECOND_WINS,
        },
        end: END_IMPORTED_NO_PLY,
    })
}

// ---------------------------------------------------------------- viriformat

use viriformat::chess::board::{Board as ViriBoard, DrawType, GameOutcome, WinType};
use viriformat::chess::chessmove::{Move as ViriMove, MoveFlags};
use viriformat::chess::piece::PieceType as ViriPiece;
use viriformat::chess::types::Square as ViriSquare;
use viriformat::dataformat::{Game as ViriGame, WDL};

fn viri_square(sq: u8) -> ViriSquare {
    ViriSquare::new(sq).expect("a square below 64")
}

pub fn viri_move(p: ChessMoveParts) -> ViriMove {
    let (from, to) = (viri_square(p.from), viri_square(p.to));
    if p.castle {
        ViriMove::new_with_flags(from, to, MoveFlags::Castle)
    } else if p.en_passant {
        ViriMove::new_with_flags(from, to, MoveFlags::EnPassant)
    } else if let Some(kind) = p.promotion {
        let kind = [
            ViriPiece::Knight,
            ViriPiece::Bishop,
            ViriPiece::Rook,
            ViriPiece::Queen,
        ][kind as usize - 1];
        ViriMove::new_with_promo(from, to, kind)
    } else {
        ViriMove::new(from, to)
    }
}

pub fn viri_move_parts(m: ViriMove) -> ChessMoveParts {
    ChessMoveParts {
        from: m.from().inner(),
        to: m.to().inner(),
        castle: m.is_castle(),
        en_passant: m.is_ep(),
        promotion: m.promotion_type().map(|k| k as u8),
    }
}

/// One viriformat game being encoded: the game from its first scored ply, then its bytes once
/// it ended, and how many of its plies are scored.
#[derive(Default)]
pub struct ViriEncoded {
    game: Option<ViriGame>,
    result: i8,
    first_mover: Option<Side>,
    /// The serialised games (one, or none: a game without a scored ply).
    pub bytes: Vec<u8>,
    /// The scored plies of the serialised games.
    pub scored: u64,
    pending_scored: u64,
}

/// Encodes viriformat games: each game from its first scored ply, every later ply with its
/// White-relative score (`VALUE_NONE` where the filter drops it).
pub struct ViriEncoder;

impl GameEncoder<Position> for ViriEncoder {
    type Encoded = ViriEncoded;

    fn start(&self) -> ViriEncoded {
        ViriEncoded::default()
    }

    fn sample(&self, out: &mut ViriEncoded, s: &Sample<Position>) -> Result<()> {
        if out.game.is_none() {
            if s.score == SCORE_NONE {
                return Ok(());
            }
            let mut board = ViriBoard::new();
            board
                .set_from_fen(&s.pos.to_text(), s.pos.is_chess960())
                .map_err(|e| anyhow!("viriformat refuses {}: {e}", s.pos.to_text()))?;
            out.game = Some(ViriGame::new(&board));
            out.result = s.result;
            out.first_mover = Some(s.pos.side_to_move());
        }
        let white = s.pos.side_to_move() == Side::First;
        let eval = match s.score {
            SCORE_NONE => VALUE_NONE,
            v if white => v,
            v => -v,
        };
        out.pending_scored += (s.score != SCORE_NONE) as u64;
        let game = out.game.as_mut().expect("started");
        game.add_move(viri_move(move_parts(s.mv)), eval);
        Ok(())
    }

    fn game_end(&self, out: &mut ViriEncoded) -> Result<()> {
        let Some(mut game) = out.game.take() else {
            return Ok(());
        };
        let first_mover = out.first_mover.unwrap_or(Side::First);
        game.set_outcome(match first_player_result(out.result, first_mover) {
            RESULT_FIRST_WINS => GameOutcome::WhiteWin(WinType::Adjudication),
            RESULT_DRAW => GameOutcome::Draw(DrawType::Adjudication),
            _ => GameOutcome::BlackWin(WinType::Adjudication),
        });
        game.serialise_into(&mut out.bytes)
            .context("serialising a viriformat game")?;
        out.scored += std::mem::take(&mut out.pending_scored);
        Ok(())
    }
}

/// Writes viriformat games (see [`ViriEncoder`]).
pub struct ViriWriter {
    pub out: std::io::BufWriter<std::fs::File>,
    pub path: std::path::PathBuf,
    current: ViriEncoded,
    pub written: u64,
}

impl ViriWriter {
    pub fn create(path: &Path) -> Result<ViriWriter> {
        let file =
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
        Ok(ViriWriter {
            out: std::io::BufWriter::with_capacity(1 << 20, file),
            path: path.to_path_buf(),
            current: ViriEncoded::default(),
            written: 0,
        })
    }
}

impl GameSink<ViriEncoded> for ViriWriter {
    fn write_game(&mut self, game: ViriEncoded) -> Result<()> {
        self.out
            .write_all(&game.bytes)
            .with_context(|| format!("writing {}", self.path.display()))?;
        self.written += game.scored;
        Ok(())
    }

    fn finish(&mut self) -> Result<u64> {
        self.out
            .flush()
            .with_context(|| format!("writing {}", self.path.display()))?;
        Ok(self.written)
    }
}

impl FormatWriter<Position> for ViriWriter {
    fn sample(&mut self, s: &Sample<Position>) -> Result<()> {
        ViriEncoder.sample(&mut self.current, s)
    }

    fn game_end(&mut self) -> Result<()> {
        ViriEncoder.game_end(&mut self.current)?;
        let game = std::mem::take(&mut self.current);
        self.write_game(game)
    }

    fn finish(&mut self) -> Result<u64> {
        FormatWriter::game_end(self)?;
        GameSink::finish(self)
    }
}

/// A viriformat game as a Sente game record (its start's ply counts toward `--min-ply`).
pub fn decode_viri(game: &ViriGame) -> Result<StoredGame> {
    let board = game.initial_position();
    let pos = parse_fen(&board.to_string())?;
    let result = match game.outcome() {
        WDL::Win => RESULT_FIRST_WINS,
        WDL::Draw => RESULT_DRAW,
        WDL::Loss => RESULT_SECOND_WINS,
    };
    imported_game(pos, result, &game.moves, |pos, (m, eval)| {
        let score = match eval.get() {
            VALUE_NONE | -32002 => SCORE_NONE,
            v if pos.side_to_move() == Side::First => v,
            v => v.saturating_neg(),
        };
        (sente_move(viri_move_parts(*m)), score)
    })
}

/// Checks the 32-byte marlinformat header of a viriformat game before the crate unpacks it
/// (which would stop the program on a piece code no piece has).
pub fn check_marlin_header(h: &[u8; 32]) -> Result<()> {
    let occ = u64::from_le_bytes(h[0..8].try_into().expect("8 bytes"));
    if occ.count_ones() > 32 {
        bail!("bad marlinformat header (more than 32 pieces)");
    }
    let mut kings = [0; 2];
    for i in 0..occ.count_ones() as usize {
        let nibble = (h[8 + i / 2] >> (4 * (i & 1))) & 15;
        if nibble & 7 == 7 {
            bail!("bad marlinformat header (piece code 7)");
        }
        if nibble & 7 == 5 {
            kings[(nibble >> 3) as usize] += 1;
        }
    }
    if kings != [1, 1] {
        bail!("bad marlinformat header (kings {kings:?})");
    }
    if h[29] > 2 {
        bail!("bad marlinformat header (result {})", h[29]);
    }
    Ok(())
}

// ---------------------------------------------------------------- binpack

use sfbinpack::chess::coords::Square as SfSquare;
use sfbinpack::chess::piece::Piece as SfPiece;
use sfbinpack::chess::piecetype::PieceType as SfPieceType;
use sfbinpack::chess::position::Position as SfPosition;
use sfbinpack::chess::r#move::{Move as SfMove, MoveType};
use sfbinpack::{CompressedTrainingDataEntryWriter, TrainingDataEntry};

pub fn sf_move(p: ChessMoveParts, mover: Side) -> SfMove {
    let (from, to) = (SfSquare::new(p.from as u32), SfSquare::new(p.to as u32));
    let color = if mover == Side::First {
        sfbinpack::chess::color::Color::White
    } else {
        sfbinpack::chess::color::Color::Black
    };
    if p.castle {
        SfMove::new(from, to, MoveType::Castle, SfPiece::none())
    } else if p.en_passant {
        SfMove::new(from, to, MoveType::EnPassant, SfPiece::none())
    } else if let Some(kind) = p.promotion {
        let kind = [
            SfPieceType::Knight,
            SfPieceType::Bishop,
            SfPieceType::Rook,
            SfPieceType::Queen,
        ][kind as usize - 1];
        SfMove::new(from, to, MoveType::Promotion, SfPiece::new(kind, color))
    } else {
        SfMove::new(from, to, MoveType::Normal, SfPiece::none())
    }
}

pub fn sf_move_parts(m: SfMove) -> ChessMoveParts {
    let promotion =
        (m.mtype() == MoveType::Promotion).then(|| match m.promoted_piece().piece_type() {
            SfPieceType::Knight => 1,
            SfPieceType::Bishop => 2,
            SfPieceType::Rook => 3,
            _ => 4,
        });
    ChessMoveParts {
        from: m.from().index() as u8,
        to: m.to().index() as u8,
        castle: m.mtype() == MoveType::Castle,
        en_passant: m.mtype() == MoveType::EnPassant,
        promotion,
    }
}

/// The sfbinpack position of a Sente position: what `SfPosition::from_fen` makes of its FEN
/// (pieces, side to move, the `KQkq` castling rights, en passant square, halfmove clock),
/// built without the text.
pub fn sf_position(pos: &Position) -> Result<SfPosition> {
    use sfbinpack::chess::castling_rights::CastlingRights;
    use sfbinpack::chess::color::Color;
    let color = |side| match side {
        Side::First => Color::White,
        Side::Second => Color::Black,
    };
    let kinds = [
        SfPieceType::Pawn,
        SfPieceType::Knight,
        SfPieceType::Bishop,
        SfPieceType::Rook,
        SfPieceType::Queen,
        SfPieceType::King,
    ];
    let mut sf = SfPosition::empty();
    let mut occupied = pos.occupied();
    while occupied != 0 {
        let sq = occupied.trailing_zeros() as u8;
        occupied &= occupied - 1;
        let (side, kind) = pos.piece_at(sq).expect("an occupied square");
        sf.place(
            SfPiece::new(kinds[kind.index()], color(side)),
            SfSquare::new(sq as u32),
        );
    }
    sf.set_side_to_move(color(pos.side_to_move()));
    // The FEN's `K`/`Q`/`k`/`q` (the outermost rook, outside Chess960); a file letter, which
    // the crate's FEN reader ignores, gives no right.
    for (side, rights) in [
        (
            Side::First,
            [
                CastlingRights::WHITE_KING_SIDE,
                CastlingRights::WHITE_QUEEN_SIDE,
            ],
        ),
        (
            Side::Second,
            [
                CastlingRights::BLACK_KING_SIDE,
                CastlingRights::BLACK_QUEEN_SIDE,
            ],
        ),
    ] {
        for (queen_side, right) in [(false, rights[0]), (true, rights[1])] {
            let Some(rook) = pos.castling_rook(side, queen_side) else {
                continue;
            };
            let rook_bb = 1u64 << rook;
            let own_rooks = pos.pieces(side, PieceKind::Rook) & (0xFF << (8 * (rook / 8)));
            let outer = if queen_side {
                own_rooks & (rook_bb - 1)
            } else {
                own_rooks & !(rook_bb | (rook_bb - 1))
            };
            if !pos.is_chess960() && outer == 0 {
                sf.add_castling_rights(right);
            }
        }
    }
    if let Some(ep) = pos.en_passant_square() {
        sf.set_ep_square_unchecked(SfSquare::new(ep as u32));
    }
    let halfmove = pos.halfmove_clock();
    if halfmove > u8::MAX as u32 {
        bail!(
            "sfbinpack refuses {}: halfmove clock {halfmove}",
            pos.to_text()
        );
    }
    sf.set_rule50_counter(halfmove as u16);
    Ok(sf)
}

/// The binpack entry of a sample.
pub fn binpack_entry(s: &Sample<Position>) -> Result<TrainingDataEntry> {
    let mut pos = sf_position(s.pos)?;
    pos.set_ply(s.pos.game_ply().min(u16::MAX as u32) as u16);
    Ok(TrainingDataEntry {
        pos,
        mv: sf_move(move_parts(s.mv), s.pos.side_to_move()),
        score: cp_to_binpack(s.score),
        ply: s.pos.game_ply().min(u16::MAX as u32) as u16,
        result: s.result as i16,
    })
}

/// Writes binpack entries: every ply of each game (chains), `VALUE_NONE` where the filter drops
/// the position.
pub struct BinpackWriter {
    pub writer: CompressedTrainingDataEntryWriter<std::fs::File>,
    pub written: u64,
}

impl FormatWriter<Position> for BinpackWriter {
    fn sample(&mut self, s: &Sample<Position>) -> Result<()> {
        let entry = binpack_entry(s)?;
        self.written += (s.score != SCORE_NONE) as u64;
        self.writer
            .write_entry(&entry)
            .map_err(|e| anyhow!("writing binpack: {e}"))
    }

    fn finish(&mut self) -> Result<u64> {
        self.writer.flush_and_end();
        self.writer.flush();
        Ok(self.written)
    }
}

/// One game's binpack entries and how many of them are scored.
#[derive(Default)]
pub struct BinpackGame {
    pub entries: Vec<TrainingDataEntry>,
    pub scored: u64,
}

/// Makes each game's binpack entries, for [`GameEncoder`]'s parallel export (the chains are
/// compressed by [`BinpackWriter`], in order).
pub struct BinpackEncoder;

impl GameEncoder<Position> for BinpackEncoder {
    type Encoded = BinpackGame;

    fn start(&self) -> BinpackGame {
        BinpackGame::default()
    }

    fn sample(&self, out: &mut BinpackGame, s: &Sample<Position>) -> Result<()> {
        out.entries.push(binpack_entry(s)?);
        out.scored += (s.score != SCORE_NONE) as u64;
        Ok(())
    }
}

impl GameSink<BinpackGame> for BinpackWriter {
    fn write_game(&mut self, game: BinpackGame) -> Result<()> {
        for entry in &game.entries {
            self.writer
                .write_entry(entry)
                .map_err(|e| anyhow!("writing binpack: {e}"))?;
        }
        self.written += game.scored;
        Ok(())
    }

    fn finish(&mut self) -> Result<u64> {
        FormatWriter::<Position>::finish(self)
    }
}

/// A chain of binpack entries (each the continuation of the one before) as a Sente game
/// record (its start's ply counts toward `--min-ply`).
pub fn decode_binpack_chain(chain: &[TrainingDataEntry]) -> Result<StoredGame> {
    let first = &chain[0];
    let fen = first
        .pos
        .fen()
        .map_err(|e| anyhow!("position of the chain: {e:?}"))?;
    let mut pos = parse_fen(&fen)?;
    // The entry's ply, not the FEN's move counter, is the game ply.
    let start_fen = with_ply(&pos.to_text(), first.ply as u32);
    pos = parse_fen(&start_fen)?;
    let mover = pos.side_to_move();
    let result = first_player_result(first.result.clamp(-1, 1) as i8, mover);
    imported_game(pos, result, chain, |_, e| {
        (sente_move(sf_move_parts(e.mv)), binpack_to_cp(e.score))
    })
}

/// `fen` with its full-move number set so that its game ply is `ply` (its side to move kept).
fn with_ply(fen: &str, ply: u32) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 6 {
        return fen.to_string();
    }
    format!(
        "{} {} {} {} {} {}",
        fields[0],
        fields[1],
        fields[2],
        fields[3],
        fields[4],
        ply / 2 + 1
    )
}
