//! The CECP (xboard/WinBoard, protocol 1 and 2) session: force/playing/analyze modes, clocks,
//! ping, edit mode, results by rule. Plays chess (`normal`, `fischerandom`) and shogi
//! (`variant shogi`, xboard's shogi notation); `CecpDriver` switches between the two games and
//! carries the game-independent state across. Options, the evaluator, the controller and the
//! game on the board are the `SessionCore` it shares with the UCI/USI session.

use super::cecp_clock::{centiseconds_to_ms, parse_level, seconds_to_ms, CecpClock, Timing};
use super::controller::{Answer, Finished, Job, Reporter, SearchRequest};
use super::input::{rest_after, tokens, Event};
use super::move_history::{has_legal_move, legal_moves, MoveHistory};
use super::options::{cecp_declaration, EngineSettings, OptionEffect, OptionTable};
use super::output::Output;
use super::session_core::{pv_text, SessionBase, SessionCore, Voice};
use super::{Flow, Protocol, ProtocolGame, ENGINE_NAME};
use crate::chess::EditBoard;
use crate::game::{EndReason, GameKind, GameResult, Outcome, Side};
use crate::search::{Score, SearchEvent};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

/// The variants the engine declares (`feature variants`), by xboard's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Variant {
    Normal,
    FischerRandom,
    Shogi,
}

impl Variant {
    const ALL: [Variant; 3] = [Variant::Normal, Variant::FischerRandom, Variant::Shogi];

    /// xboard's name of the variant; its shogi is named as the engine names the game.
    fn name(self) -> &'static str {
        match self {
            Variant::Normal => "normal",
            Variant::FischerRandom => "fischerandom",
            Variant::Shogi => GameKind::Shogi.name(),
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The game the variant is played with.
    fn game(self) -> GameKind {
        match self {
            Variant::Normal | Variant::FischerRandom => GameKind::Chess,
            Variant::Shogi => GameKind::Shogi,
        }
    }
}

/// CECP state that survives a variant switch, besides the `SessionBase`.
struct CecpState {
    clock: CecpClock,
    /// Thinking output on (`post`).
    post: bool,
    /// Pondering allowed (`hard`).
    ponder: bool,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Side>,
    analyzing: bool,
    paused: bool,
}

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SearchKind {
    /// The engine's own move: played when the search ends.
    Think,
    /// Thinking on the opponent's time; discarded when the opponent moves.
    Ponder,
    Analyze,
}

/// Progress of the running search, for `.` (stat01) in analyze mode.
#[derive(Clone, Debug, Default)]
struct Stats {
    depth: u32,
    nodes: u64,
    time_ms: u64,
    move_text: String,
    move_number: usize,
}

/// CECP v1 edit mode state.
struct EditState {
    board: EditBoard,
    color_white: bool,
}

/// A CECP session playing game `G`.
struct CecpSession<G: ProtocolGame> {
    core: SessionCore<G>,
    state: CecpState,
    search: Option<SearchKind>,
    /// After an impossible `setboard`/edit: every move is answered as illegal.
    illegal_position: bool,
    game_over: bool,
    excluded: Vec<G::Move>,
    edit: Option<EditState>,
    /// The move the engine expects from the opponent (for `hint`), valid in `hint_position`.
    hint: Option<(u64, G::Move)>,
    last_score: Option<Score>,
    stats: Arc<Mutex<Stats>>,
    deferred_pongs: Vec<String>,
}

impl<G: ProtocolGame> CecpSession<G> {
    fn new(base: SessionBase, state: CecpState) -> Self {
        Self {
            core: SessionCore::new(base),
            state,
            search: None,
            illegal_position: false,
            game_over: false,
            excluded: Vec::new(),
            edit: None,
            hint: None,
            last_score: None,
            stats: Arc::new(Mutex::new(Stats::default())),
            deferred_pongs: Vec::new(),
        }
    }

    /// Ends this game's session, giving back what the next game's session keeps.
    fn into_parts(mut self) -> (SessionBase, CecpState) {
        self.abort_search();
        (self.core.into_base(), self.state)
    }

    fn out(&self, text: &str) {
        self.core.out.line(text);
    }

    fn error(&self, kind: &str, command: &str) {
        self.out(&format!("Error ({kind}): {}", command.trim()));
    }

    fn features(&self) {
        let variants: Vec<&str> = Variant::ALL.into_iter().map(Variant::name).collect();
        let variants = variants.join(",");
        self.out("feature done=0");
        self.out(&format!(
            "feature ping=1 setboard=1 usermove=1 time=1 draw=1 sigint=0 sigterm=0 reuse=1 \
             analyze=1 colors=0 name=1 memory=1 smp=1 playother=1 nps=1 debug=1 pause=1 san=0 \
             exclude=1 ics=1 egt=\"syzygy\" variants=\"{variants}\" myname=\"{ENGINE_NAME}\""
        ));
        for def in OptionTable::CECP.declared() {
            self.out(&cecp_declaration(def));
        }
        self.out("feature done=1");
    }

    fn reset_board(&mut self, start: G) {
        self.abort_search();
        self.core.history = MoveHistory::new(start);
        self.illegal_position = false;
        self.game_over = false;
        self.excluded.clear();
        self.hint = None;
    }

    fn new_game(&mut self) {
        self.abort_search();
        self.core.settings.rules.chess960 = false;
        let start = self.core.start_position();
        self.reset_board(start);
        self.state.engine_side = Some(Side::Second);
        self.state.clock.reset_for_new_game();
        self.state.paused = false;
        self.last_score = None;
        self.core.controller.clear();
        self.core.prepare_backend();
        self.restart_background();
    }

    // ----- searches -----

    /// Stops the running search and discards its answer (force, new, undo, ...).
    fn abort_search(&mut self) {
        let _ = self.core.controller.stop();
        self.search = None;
        self.flush_pongs();
    }

    fn flush_pongs(&mut self) {
        for pong in std::mem::take(&mut self.deferred_pongs) {
            self.out(&pong);
        }
    }

    /// Starts whatever the current mode asks for when nothing runs: analysis, the engine's
    /// move, or pondering.
    fn restart_background(&mut self) {
        if self.search.is_some() || self.state.paused || self.illegal_position {
            return;
        }
        let pos = self.core.history.current();
        if !has_legal_move(pos) {
            return;
        }
        if self.state.analyzing {
            self.start_search(SearchKind::Analyze);
        } else if self.game_over {
            // Nothing to play for.
        } else if self.state.engine_side == Some(pos.side_to_move()) {
            self.start_search(SearchKind::Think);
        } else if self.state.engine_side.is_some() && self.state.ponder {
            self.start_search(SearchKind::Ponder);
        }
    }

    fn start_search(&mut self, kind: SearchKind) {
        self.core.sync_evaluator();
        self.core.prepare_backend();
        let root = self.core.history.current().clone();
        if kind == SearchKind::Think {
            if let Some(m) = self.core.book_move() {
                // A book move is played at once, as a search's move would be.
                self.out(&format!("move {}", root.format_move_cecp(m)));
                self.core.history.push(m);
                self.excluded.clear();
                self.hint = None;
                self.announce_result();
                return;
            }
        }
        let mut limits = match kind {
            SearchKind::Think => {
                let side = root.side_to_move();
                let history = &self.core.history;
                let made = history
                    .moves()
                    .len()
                    .saturating_sub(usize::from(history.start().side_to_move() != side))
                    .div_ceil(2);
                self.state.clock.limits(side, made as u32)
            }
            SearchKind::Ponder | SearchKind::Analyze => crate::search::Limits {
                infinite: true,
                ..Default::default()
            },
        };
        if !self.excluded.is_empty() {
            limits.search_moves = legal_moves(&root)
                .into_iter()
                .filter(|m| !self.excluded.contains(m))
                .collect();
            if limits.search_moves.is_empty() {
                return;
            }
        }
        if let Ok(mut stats) = self.stats.lock() {
            *stats = Stats::default();
        }
        let request = SearchRequest {
            history: self.core.history.history().to_vec(),
            limits,
            options: self.core.settings.search_options(G::KIND),
            ponder: kind == SearchKind::Ponder,
            reporter: thinking_reporter(
                self.core.out.clone(),
                root.clone(),
                self.state.post,
                Arc::clone(&self.stats),
            ),
            root,
        };
        let _ = self.core.controller.start(Job::Search(Box::new(request)));
        self.search = Some(kind);
    }

    fn finished(&mut self, finished: Finished<G>) {
        let kind = self.search.take();
        self.last_score = Some(finished.result.score);
        if kind == Some(SearchKind::Think) {
            self.play_engine_move(finished);
        }
        self.flush_pongs();
        self.restart_background();
    }

    fn play_engine_move(&mut self, finished: Finished<G>) {
        let root = finished.root;
        if root.hash() != self.core.history.current().hash() {
            return; // the position changed under the search
        }
        let best = finished
            .result
            .best
            .filter(|&m| root.is_legal_move(m))
            .or_else(|| legal_moves(&root).first().copied());
        let Some(best) = best else {
            self.announce_result();
            return;
        };
        let text = root.format_move_cecp(best);
        let mut after = self.core.history.clone();
        after.push(best);
        let ends_in_draw = matches!(
            after.outcome(),
            Some(Outcome {
                result: GameResult::Draw,
                ..
            })
        );
        if ends_in_draw {
            self.out("offer draw");
        }
        self.core.history = after;
        self.excluded.clear();
        self.hint = finished.result.ponder.and_then(|p| {
            let pos = self.core.history.current();
            pos.is_legal_move(p).then(|| (pos.hash(), p))
        });
        self.out(&format!("move {text}"));
        self.announce_result();
    }

    /// Prints `RESULT {reason}` if the game has ended by rule on the board.
    fn announce_result(&mut self) {
        if let Some(outcome) = self.core.history.outcome() {
            let stm = self.core.history.current().side_to_move();
            self.out(&result_line::<G>(outcome, stm));
            self.game_over = true;
        }
    }

    // ----- commands -----

    fn user_move(&mut self, text: &str) {
        if self.illegal_position {
            self.out(&format!("Illegal move: {text}"));
            return;
        }
        let parsed = self.core.history.current().parse_move_cecp(text);
        let Ok(m) = parsed else {
            self.out(&format!("Illegal move: {text}"));
            return;
        };
        if self.search.is_some() {
            self.abort_search();
        }
        self.core.history.push(m);
        self.excluded.clear();
        self.announce_result();
        self.restart_background();
    }

    fn ping(&mut self, args: &[&str]) {
        let pong = format!("pong {}", args.first().copied().unwrap_or(""));
        if self.search == Some(SearchKind::Think) {
            self.deferred_pongs.push(pong);
        } else {
            self.out(pong.trim_end());
        }
    }

    fn move_now(&mut self) {
        if self.search == Some(SearchKind::Think) {
            if let Some(Answer::Search(finished)) = self.core.controller.stop() {
                self.finished(finished);
            }
        }
    }

    fn set_board(&mut self, text: &str) {
        match G::from_cecp_text(text) {
            Ok(pos) if pos.search_refusal().is_some() => {
                let why = pos.search_refusal().unwrap_or_default();
                self.abort_search();
                self.illegal_position = true;
                self.out(&format!("tellusererror Illegal position: {why}"));
            }
            Ok(mut pos) => {
                pos.apply_rules(&self.core.settings.rules);
                self.reset_board(pos);
                self.restart_background();
            }
            Err(error) => {
                self.abort_search();
                self.illegal_position = true;
                self.out(&format!("tellusererror Illegal position: {error}"));
            }
        }
    }

    fn set_side(&mut self, side: Side) {
        self.abort_search();
        if let Some(pos) = self.core.history.current().with_side_to_move(side) {
            self.reset_board(pos);
        }
        self.state.engine_side = Some(side.flip());
    }

    fn undo(&mut self, count: usize) {
        self.abort_search();
        for _ in 0..count {
            if !self.core.history.undo() {
                break;
            }
        }
        self.game_over = self.core.history.outcome().is_some();
        self.excluded.clear();
        self.restart_background();
    }

    fn hint(&self) {
        if let Some((hash, m)) = self.hint {
            let pos = self.core.history.current();
            if pos.hash() == hash && pos.is_legal_move(m) {
                self.out(&format!("Hint: {}", pos.format_move_cecp(m)));
            }
        }
    }

    fn stat01(&self) {
        if !self.state.analyzing {
            return;
        }
        let Ok(stats) = self.stats.lock() else { return };
        let total = legal_moves(self.core.history.current()).len();
        let left = total.saturating_sub(stats.move_number);
        let mut line = format!(
            "stat01: {} {} {} {left} {total}",
            stats.time_ms / 10,
            stats.nodes,
            stats.depth
        );
        if !stats.move_text.is_empty() {
            line.push(' ');
            line.push_str(&stats.move_text);
        }
        self.out(&line);
    }

    fn exclude(&mut self, args: &[&str], exclude: bool) {
        let Some(&what) = args.first() else {
            self.error("missing move", if exclude { "exclude" } else { "include" });
            return;
        };
        let pos = self.core.history.current().clone();
        if what == "all" {
            self.excluded = if exclude {
                legal_moves(&pos)
            } else {
                Vec::new()
            };
        } else {
            match pos.parse_move_cecp(what) {
                Ok(m) if exclude => {
                    if !self.excluded.contains(&m) {
                        self.excluded.push(m);
                    }
                }
                Ok(m) => self.excluded.retain(|&x| x != m),
                Err(_) => {
                    self.out(&format!("Illegal move: {what}"));
                    return;
                }
            }
        }
        if self.search == Some(SearchKind::Analyze) {
            self.abort_search();
            self.restart_background();
        }
    }

    fn set_option(&mut self, line: &str) {
        let body = rest_after(line, 1);
        let (name, value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        match self.core.apply_option(OptionTable::CECP, name, value) {
            Ok(OptionEffect::RulesChanged) => {
                let mut start = self.core.history.start().clone();
                start.apply_rules(&self.core.settings.rules);
                self.core.history = MoveHistory::replayed(start, self.core.history.moves());
            }
            Ok(OptionEffect::None | OptionEffect::ClearHash) => {}
            Err(error) => self.core.note(&format!("option ignored: {error}")),
        }
        self.core.prepare_backend();
        if self.search.is_none() {
            self.core.sync_evaluator();
        }
    }

    /// Passes hash size and threads to the controller and, when no search runs, allocates them
    /// now (before the next command is read), never on a move's clock. What fails is told to
    /// the user; the previous table stays.
    fn apply_resources(&mut self) {
        self.core.configure();
        self.core.prepare_backend();
    }

    fn draw_offered(&self) {
        let losing = matches!(self.last_score, Some(Score::Cp(cp)) if cp <= -300)
            || matches!(self.last_score, Some(Score::MatePlies(p)) if p < 0);
        if losing {
            self.out("offer draw");
        }
    }

    /// One line in edit mode. A line that is no edit command ends edit mode as `.` would (some
    /// interfaces omit the `.`) and is then handled as a normal command; `true` when consumed.
    fn edit_command(&mut self, line: &str) -> bool {
        let Some(edit) = self.edit.as_mut() else {
            return false;
        };
        match line.trim() {
            "c" => edit.color_white = !edit.color_white,
            "#" => edit.board = EditBoard::default(),
            "" => {}
            "." => self.leave_edit(),
            piece if edit.board.apply(piece, edit.color_white) => {}
            _ => {
                self.leave_edit();
                return false;
            }
        }
        true
    }

    fn leave_edit(&mut self) {
        let Some(edit) = self.edit.take() else {
            return;
        };
        let side = self.core.history.current().side_to_move();
        match G::from_edit_board(&edit.board, side) {
            Some(mut pos) => {
                pos.apply_rules(&self.core.settings.rules);
                self.reset_board(pos);
                self.restart_background();
            }
            None => {
                self.reset_board(self.core.history.current().clone());
                self.illegal_position = true;
                self.out("tellusererror Illegal position");
            }
        }
    }

    fn clock_command(&mut self, command: &str, args: &[&str], line: &str) {
        let result = match command {
            "level" => parse_level(args).map(|level| {
                self.state.clock.timing = Some(Timing::Level(level));
            }),
            "st" => one_arg(args).and_then(seconds_to_ms).map(|ms| {
                self.state.clock.timing = Some(Timing::PerMove { ms });
            }),
            "sd" => one_arg(args).and_then(|t| {
                t.parse::<u32>()
                    .map(|d| self.state.clock.depth = Some(d.max(1)))
                    .map_err(|_| super::cecp_clock::ClockError::BadNumber(t.to_string()))
            }),
            "nps" => one_arg(args).and_then(|t| {
                t.parse::<f64>()
                    .ok()
                    .filter(|n| n.is_finite() && *n >= 0.0)
                    .map(|n| self.state.clock.nps = Some(n as u64))
                    .ok_or_else(|| super::cecp_clock::ClockError::BadNumber(t.to_string()))
            }),
            "time" => one_arg(args)
                .and_then(centiseconds_to_ms)
                .map(|ms| self.state.clock.engine_ms = Some(ms)),
            _ => one_arg(args)
                .and_then(centiseconds_to_ms)
                .map(|ms| self.state.clock.opponent_ms = Some(ms)),
        };
        if let Err(error) = result {
            self.error(&format!("bad parameters: {error}"), line);
        }
    }

    fn handle_line(&mut self, line: &str) -> Flow {
        if self.edit.is_some() && self.edit_command(line) {
            return Flow::Continue;
        }
        let words = tokens(line);
        let Some(&command) = words.first() else {
            return Flow::Continue;
        };
        let args = &words[1..];
        match command {
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "ics" | "name"
            | "rating" | "partner" | "ptell" | "holding" => {}
            "egtpath" => {
                // `egtpath syzygy DIR`: the Syzygy directories (the rest of the line).
                if args
                    .first()
                    .is_some_and(|k| k.eq_ignore_ascii_case("syzygy"))
                {
                    self.core.settings.syzygy_path = rest_after(line, 2).to_string();
                    if self.search.is_none() {
                        self.core.sync_evaluator();
                    }
                } else {
                    self.core.note("egtpath: only syzygy tables are supported");
                }
            }
            "protover" => self.features(),
            "quit" => return Flow::Quit,
            "new" => self.new_game(),
            "variant" => match args.first().and_then(|v| Variant::from_name(v)) {
                Some(Variant::FischerRandom) => {
                    self.core.settings.rules.chess960 = true;
                    let start = self.core.start_position();
                    self.reset_board(start);
                }
                Some(Variant::Normal) => {
                    self.core.settings.rules.chess960 = false;
                    let start = self.core.start_position();
                    self.reset_board(start);
                }
                Some(Variant::Shogi) => {}
                None => self.error("unsupported variant", line),
            },
            "force" => {
                self.abort_search();
                self.state.engine_side = None;
                self.state.analyzing = false;
            }
            "go" => {
                self.abort_search();
                self.state.analyzing = false;
                self.state.engine_side = Some(self.core.history.current().side_to_move());
                if self.game_over || !has_legal_move(self.core.history.current()) {
                    self.announce_result();
                } else {
                    self.restart_background();
                }
            }
            "playother" => {
                self.abort_search();
                self.state.engine_side = Some(self.core.history.current().side_to_move().flip());
                self.restart_background();
            }
            "white" => self.set_side(Side::First),
            "black" => self.set_side(Side::Second),
            "usermove" => match args.first() {
                Some(text) => self.user_move(text),
                None => self.error("missing move", line),
            },
            "?" => self.move_now(),
            "ping" => self.ping(args),
            "draw" => self.draw_offered(),
            "result" => {
                self.abort_search();
                self.game_over = true;
            }
            "setboard" => self.set_board(rest_after(line, 1)),
            "edit" => match self.core.history.current().edit_board() {
                Some(board) => {
                    self.abort_search();
                    self.edit = Some(EditState {
                        board,
                        color_white: true,
                    });
                }
                None => self.error("command not legal now", line),
            },
            "hint" => self.hint(),
            "bk" => {
                match self.core.book_listing() {
                    Some(lines) if !lines.is_empty() => {
                        lines.iter().for_each(|l| self.out(&format!(" {l}")))
                    }
                    Some(_) => self.out(" no book moves in this position"),
                    None => self.out(" Sente has no opening book (set OwnBook and BookFile)"),
                }
                self.out("");
            }
            "undo" => self.undo(1),
            "remove" => self.undo(2),
            "hard" => {
                self.state.ponder = true;
                self.restart_background();
            }
            "easy" => {
                self.state.ponder = false;
                if self.search == Some(SearchKind::Ponder) {
                    self.abort_search();
                }
            }
            "post" => self.state.post = true,
            "nopost" => self.state.post = false,
            "analyze" => {
                self.abort_search();
                self.state.analyzing = true;
                self.state.engine_side = None;
                self.restart_background();
            }
            "exit" => {
                if self.state.analyzing {
                    self.abort_search();
                    self.state.analyzing = false;
                }
            }
            "." => self.stat01(),
            "exclude" => self.exclude(args, true),
            "include" => self.exclude(args, false),
            "level" | "st" | "sd" | "nps" | "time" | "otim" => {
                self.clock_command(command, args, line)
            }
            "memory" => match args.first().and_then(|t| t.parse::<usize>().ok()) {
                Some(mb) => {
                    self.core.settings.hash_mb = mb.clamp(1, 65536);
                    self.apply_resources();
                }
                None => self.error("bad parameters", line),
            },
            "cores" => match args.first().and_then(|t| t.parse::<usize>().ok()) {
                Some(n) => {
                    self.core.settings.threads = n.clamp(1, 1024);
                    self.apply_resources();
                }
                None => self.error("bad parameters", line),
            },
            "option" => self.set_option(line),
            "pause" => {
                if self.search == Some(SearchKind::Think) {
                    let _ = self.core.controller.stop();
                    self.search = None;
                }
                self.state.paused = true;
            }
            "resume" => {
                self.state.paused = false;
                self.restart_background();
            }
            _ if looks_like_move(command) && args.is_empty() => self.user_move(command),
            _ => self.error("unknown command", command),
        }
        Flow::Continue
    }

    fn job_done(&mut self, id: u64) {
        if let Some(Answer::Search(finished)) = self.core.controller.on_job_done(id) {
            self.finished(finished);
        }
    }
}

/// A bare word that may be a move in coordinate, SAN, castling or drop notation.
fn looks_like_move(word: &str) -> bool {
    let len = word.len();
    (2..=8).contains(&len)
        && word
            .chars()
            .any(|c| c.is_ascii_digit() || c == 'O' || c == '0')
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "@=+#-*x".contains(c))
        && (word.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_uppercase())
            || word.starts_with("0-0"))
}

fn one_arg<'a>(args: &[&'a str]) -> Result<&'a str, super::cecp_clock::ClockError> {
    match args {
        [one] => Ok(one),
        _ => Err(super::cecp_clock::ClockError::ArgumentCount {
            expected: 1,
            got: args.len(),
        }),
    }
}

/// `1-0 {White mates}` and friends, from the outcome seen by the side to move.
fn result_line<G: ProtocolGame>(outcome: Outcome, side_to_move: Side) -> String {
    let winner = match outcome.result {
        GameResult::Win => Some(side_to_move),
        GameResult::Loss => Some(side_to_move.flip()),
        GameResult::Draw => None,
    };
    let score = match winner {
        Some(Side::First) => "1-0",
        Some(Side::Second) => "0-1",
        None => "1/2-1/2",
    };
    let winner_name = winner.map(G::side_name).unwrap_or("");
    let reason = match (outcome.reason, winner) {
        (EndReason::Checkmate, Some(_)) => format!("{winner_name} mates"),
        (EndReason::Stalemate, None) => "Stalemate".to_string(),
        (EndReason::Stalemate, Some(_)) => format!("{winner_name} wins by stalemate"),
        (EndReason::FiftyMoveRule, _) => "Draw by fifty move rule".to_string(),
        (EndReason::Repetition, None) => "Draw by repetition".to_string(),
        (EndReason::InsufficientMaterial, _) => "Draw by insufficient material".to_string(),
        (EndReason::PerpetualCheck, Some(_)) => {
            format!("{winner_name} wins by perpetual check")
        }
        (EndReason::EnteringKing, Some(_)) => format!("{winner_name} wins by entering king"),
        (EndReason::EnteringKing, None) => "Draw by entering king".to_string(),
        (EndReason::MaxPlies, _) => "Draw by move limit".to_string(),
        (reason, Some(_)) => format!("{winner_name} wins ({reason:?})"),
        (reason, None) => format!("Draw ({reason:?})"),
    };
    format!("{score} {{{reason}}}")
}

/// CECP score: centipawns, mates as ±(100000 + moves).
fn cecp_score(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => i64::from(cp),
        Score::MatePlies(plies) if plies > 0 => 100_000 + i64::from(Score::mate_moves(plies)),
        Score::MatePlies(plies) => -100_000 + i64::from(Score::mate_moves(plies)),
    }
}

/// Thinking output (`depth score time nodes pv`) and stat01 bookkeeping.
fn thinking_reporter<G: ProtocolGame>(
    out: Output,
    root: G,
    post: bool,
    stats: Arc<Mutex<Stats>>,
) -> Reporter<G::Move> {
    Box::new(move |event| match event {
        SearchEvent::Pv(info) => {
            if let Ok(mut s) = stats.lock() {
                s.depth = info.depth;
                s.nodes = info.nodes;
                s.time_ms = info.time_ms;
            }
            if post && info.multipv == 1 {
                let pv = pv_text(&root, &info.pv, |pos, m| pos.format_move_cecp(m));
                out.line(&format!(
                    "{} {} {} {} {pv}",
                    info.depth,
                    cecp_score(info.score),
                    info.time_ms / 10,
                    info.nodes
                ));
            }
        }
        SearchEvent::CurrentMove { depth, mv, number } => {
            if let Ok(mut s) = stats.lock() {
                s.depth = depth.saturating_sub(1).max(s.depth);
                s.move_number = number;
                if root.is_legal_move(mv) {
                    s.move_text = root.format_move_cecp(mv);
                }
            }
        }
    })
}

/// The session of whichever game CECP currently plays.
enum Active<C: ProtocolGame, S: ProtocolGame> {
    Chess(CecpSession<C>),
    Shogi(CecpSession<S>),
}

/// CECP over two games: chess (`normal`, `fischerandom`) and shogi.
pub struct CecpDriver<C: ProtocolGame, S: ProtocolGame> {
    active: Option<Active<C, S>>,
}

impl<C: ProtocolGame, S: ProtocolGame> CecpDriver<C, S> {
    pub fn new(out: Output, events: Sender<Event>) -> Self {
        let base = SessionBase {
            out,
            events,
            settings: EngineSettings::default(),
            voice: Voice::Cecp,
        };
        let state = CecpState {
            clock: CecpClock::default(),
            post: false,
            ponder: false,
            engine_side: Some(Side::Second),
            analyzing: false,
            paused: false,
        };
        Self {
            active: Some(Active::Chess(CecpSession::new(base, state))),
        }
    }

    /// Goes on with `game`'s session, carrying the options and CECP state across.
    fn switch(&mut self, game: GameKind) {
        let Some(active) = self.active.take() else {
            return;
        };
        let next = match (active, game) {
            (Active::Chess(session), GameKind::Shogi) => {
                let (mut base, state) = session.into_parts();
                base.settings.rules.chess960 = false;
                Active::Shogi(CecpSession::new(base, state))
            }
            (Active::Shogi(session), GameKind::Chess) => {
                let (base, state) = session.into_parts();
                Active::Chess(CecpSession::new(base, state))
            }
            (same, _) => same,
        };
        self.active = Some(next);
    }
}

impl<C: ProtocolGame, S: ProtocolGame> Protocol for CecpDriver<C, S> {
    fn handle_line(&mut self, line: &str) -> Flow {
        let words = tokens(line);
        let in_edit = match &self.active {
            Some(Active::Chess(s)) => s.edit.is_some(),
            Some(Active::Shogi(s)) => s.edit.is_some(),
            None => false,
        };
        if !in_edit {
            let game = match (words.first().copied(), words.get(1).copied()) {
                (Some("new"), _) => Some(GameKind::Chess),
                (Some("variant"), Some(name)) => Variant::from_name(name).map(Variant::game),
                _ => None,
            };
            if let Some(game) = game {
                self.switch(game);
            }
        }
        match self.active.as_mut() {
            Some(Active::Chess(s)) => s.handle_line(line),
            Some(Active::Shogi(s)) => s.handle_line(line),
            None => Flow::Quit,
        }
    }

    fn job_done(&mut self, id: u64) -> Flow {
        match self.active.as_mut() {
            Some(Active::Chess(s)) => s.job_done(id),
            Some(Active::Shogi(s)) => s.job_done(id),
            None => {}
        }
        Flow::Continue
    }

    fn shutdown(&mut self) {
        match self.active.as_mut() {
            Some(Active::Chess(s)) => s.abort_search(),
            Some(Active::Shogi(s)) => s.abort_search(),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_shapes() {
        for word in [
            "e2e4", "e7e8q", "O-O", "O-O-O", "0-0", "Nf3", "exd5", "P@e5", "c3c4+", "e8=Q",
        ] {
            assert!(looks_like_move(word), "{word}");
        }
        for word in ["hello", "protover", "?", ".", "#", "e", "12345678901"] {
            assert!(!looks_like_move(word), "{word}");
        }
    }

    #[test]
    fn mate_scores_use_the_xboard_convention() {
        assert_eq!(cecp_score(Score::MatePlies(3)), 100_002);
        assert_eq!(cecp_score(Score::MatePlies(-2)), -100_001);
        assert_eq!(cecp_score(Score::Cp(-45)), -45);
    }
}
