//! The UCI/USI session: UCI (chess) and USI (shogi) share their command set and differ in
//! names, position syntax, clock sides, mate units and a few shogi-only commands (`usi` holds
//! USI's own answers). One `UciUsiSession` serves both, as a `Dialect`; what it shares with CECP
//! (options, evaluator, controller, the game on the board) is its `SessionCore`.

use super::controller::{Answer, Finished, Job, Reporter, SearchRequest};
use super::go::{parse_go, Dialect, MateRequest};
use super::input::{rest_after, tokens, Event};
use super::move_history::{has_legal_move, legal_moves, MoveHistory};
use super::options::{split_setoption, uci_declaration, OptionEffect, OptionError, OptionTable};
use super::output::Output;
use super::session_core::{pv_text, SessionBase, SessionCore, Voice};
use super::usi_book::BookState;
use super::{usi, Flow, Protocol, ProtocolGame, ENGINE_AUTHOR, ENGINE_NAME};
use crate::game::{Game, GameResult};
use crate::search::tree_stats;
use crate::search::{Limits, Score, ScoreBound, SearchEvent, SearchInfo};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::Duration;

impl Dialect {
    fn options(self) -> OptionTable {
        match self {
            Dialect::Uci => OptionTable::UCI,
            Dialect::Usi => OptionTable::USI,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Usi => "usi",
        }
    }
}

/// A UCI or USI session over game `G`.
pub struct UciUsiSession<G: ProtocolGame> {
    dialect: Dialect,
    core: SessionCore<G>,
    /// The last accepted `position` line, replayed when rule options change.
    last_position: Option<String>,
    /// Why the last `position` command was refused (the engine kept the previous position,
    /// which the GUI no longer has): `go` says so, and `go mate` does not solve a stale problem.
    refused_position: Option<String>,
    /// An answer that needed no search but must wait for `stop` / `ponderhit` (the root had no
    /// move during `go infinite` or `go ponder`).
    held_answer: Option<Vec<String>>,
    debug: bool,
    /// USI: the `BookFile` book, read when the option names a new file.
    book: BookState<G>,
    /// Whether the running (or last) search is an analysis (`go infinite`): it never resigns.
    analysis: bool,
    /// The last exact first-line `info` the running search printed, and its first move
    /// (`ConsiderationMode` repeats or replaces it before `bestmove`).
    last_pv: Arc<Mutex<Option<(String, String)>>>,
}

impl<G: ProtocolGame> UciUsiSession<G> {
    pub fn new(dialect: Dialect, out: Output, events: Sender<Event>) -> Self {
        let core = SessionCore::new(SessionBase {
            out,
            events,
            settings: Default::default(),
            voice: Voice::InfoString,
        });
        Self {
            dialect,
            core,
            last_position: None,
            refused_position: None,
            held_answer: None,
            debug: false,
            book: BookState::default(),
            analysis: false,
            last_pv: Arc::new(Mutex::new(None)),
        }
    }

    fn info(&self, text: &str) {
        self.core.note(text);
    }

    fn line(&self, text: &str) {
        self.core.out.line(text);
    }

    fn identify(&self) {
        self.line(&format!("id name {ENGINE_NAME}"));
        self.line(&format!("id author {ENGINE_AUTHOR}"));
        let usi = self.dialect == Dialect::Usi;
        for def in self.dialect.options().declared() {
            self.line(&uci_declaration(def, usi));
        }
        self.line(&format!("{}ok", self.dialect.name()));
    }

    fn set_option(&mut self, line: &str) {
        let Some((name, value)) = split_setoption(rest_after(line, 1)) else {
            self.info("setoption needs: setoption name <id> [value <x>]");
            return;
        };
        match self.core.apply_option(self.dialect.options(), name, value) {
            Ok(OptionEffect::RulesChanged) => self.replay_position(),
            Ok(OptionEffect::None | OptionEffect::ClearHash) => {}
            Err(OptionError::Unknown(_)) if self.dialect == Dialect::Usi => {
                // USI: GUIs send options the engine never declared; ignore them silently.
            }
            Err(OptionError::Unknown(name)) => self.info(&format!("No such option: {name}")),
            Err(error) => self.info(&format!("{error}; value ignored")),
        }
        self.sync_book();
    }

    /// USI: reads the book `BookFile` names when it changed, saying what became of it.
    fn sync_book(&mut self) {
        if self.dialect == Dialect::Usi {
            if let Some(message) = self.book.sync(&self.core.settings.usi.book) {
                self.info(&message);
            }
        }
    }

    /// USI: the book's answer to `root` (an `info` line and `bestmove`), if it has one.
    fn book_answer(&mut self, root: &G) -> Option<Vec<String>> {
        let book = &self.core.settings.usi.book;
        let chosen = self.book.choose(root, book)?;
        let best = root.format_move(chosen.mv);
        let mut after = root.clone();
        after.make_move(chosen.mv);
        let ponder = chosen.ponder.map(|p| after.format_move(p));
        let pv = match &ponder {
            Some(p) => format!("{best} {p}"),
            None => best.clone(),
        };
        let mut bestmove = format!("bestmove {best}");
        if let Some(p) = &ponder {
            bestmove.push_str(&format!(" ponder {p}"));
        }
        Some(vec![
            format!(
                "info string book move {best} (eval {}, depth {}, count {})",
                chosen.eval, chosen.depth, chosen.count
            ),
            format!(
                "info depth {} seldepth {} multipv 1 score cp {} nodes 0 nps 0 time 0 pv {pv}",
                chosen.depth, chosen.depth, chosen.eval
            ),
            bestmove,
        ])
    }

    fn replay_position(&mut self) {
        match self.last_position.clone() {
            Some(line) => self.set_position(&line),
            None => self.core.history = MoveHistory::new(self.core.start_position()),
        }
    }

    fn new_game(&mut self) {
        self.finish_search();
        self.core.controller.clear();
        self.core.prepare_backend();
        self.core.history = MoveHistory::new(self.core.start_position());
        self.last_position = None;
        self.refused_position = None;
    }

    /// Refuses a `position` command: the previous position stays.
    fn refuse_position(&mut self, message: &str, why: String) {
        self.info(&format!("{message}; position unchanged"));
        self.refused_position = Some(why);
    }

    /// `position startpos|fen|sfen ... [moves ...]`. A bad position leaves the old one; moves
    /// are played up to the first illegal one.
    fn set_position(&mut self, line: &str) {
        self.finish_search();
        let args = tokens(line);
        let args = &args[1..];
        let moves_at = args.iter().position(|t| t.eq_ignore_ascii_case("moves"));
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let rules = self.core.settings.rules;
        let start = match setup.first().map(|t| t.to_ascii_lowercase()) {
            Some(kind) if kind == "startpos" && setup.len() == 1 => self.core.start_position(),
            Some(kind) if (kind == "fen" || kind == "sfen") && setup.len() > 1 => {
                match G::from_text(&setup[1..].join(" ")) {
                    Ok(mut pos) => match pos.rules_conflict(&rules) {
                        Some(why) => {
                            return self.refuse_position(&format!("Invalid position: {why}"), why)
                        }
                        None => {
                            pos.apply_rules(&rules);
                            pos
                        }
                    },
                    Err(error) => {
                        let why = error.to_string();
                        return self.refuse_position(&format!("Invalid position: {why}"), why);
                    }
                }
            }
            _ => {
                let keyword = if self.dialect == Dialect::Uci {
                    "fen"
                } else {
                    "sfen"
                };
                return self.refuse_position(
                    &format!("Invalid position command: expected 'startpos' or '{keyword} <text>'"),
                    "not a position command".to_string(),
                );
            }
        };
        let mut history = MoveHistory::new(start);
        for (index, text) in moves.iter().enumerate() {
            match history.current().parse_move(text) {
                Ok(m) => history.push(m),
                Err(error) => {
                    self.info(&format!(
                        "{error} at move {}; position set up to the move before",
                        index + 1
                    ));
                    break;
                }
            }
        }
        self.core.history = history;
        self.last_position = Some(line.to_string());
        self.refused_position = None;
    }

    fn go(&mut self, args: &[&str]) {
        self.finish_search();
        self.core.sync_evaluator();
        let dialect = self.dialect;
        let (params, warnings) = parse_go(args, dialect);
        for warning in warnings {
            self.info(&warning);
        }
        if let Some(why) = &self.refused_position {
            let why = why.clone();
            if let (Dialect::Usi, Some(_)) = (self.dialect, params.mate) {
                // The problem the GUI asks about was never set up: no answer for another one.
                self.info(&format!(
                    "go mate: the last position was refused ({why}); not solving the previous one"
                ));
                self.line("checkmate timeout");
                return;
            }
            self.info(&format!(
                "the last position was refused ({why}); searching the previous position"
            ));
        }
        let root = self.core.history.current().clone();
        if let Some(depth) = params.perft {
            if let Err(message) = crate::perft::check_depth(depth) {
                self.info(&message);
                return;
            }
            let out = self.core.out.clone();
            let lines = Box::new(move |line: &str| out.line(line));
            self.start(Job::Perft { root, depth, lines });
            return;
        }
        if let (Dialect::Usi, Some(request)) = (self.dialect, params.mate) {
            let time_limit = match request {
                MateRequest::TimeMs(ms) => Some(Duration::from_millis(ms)),
                MateRequest::Moves(_) | MateRequest::Infinite => None,
            };
            let table_mb = self.core.settings.hash_mb;
            self.start(Job::Mate {
                root,
                time_limit,
                table_mb,
            });
            return;
        }
        let hold = params.ponder || params.is_unbounded(dialect);
        let analysis = params.is_unbounded(dialect) && !params.ponder;
        self.analysis = analysis;
        *self.last_pv.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let consider = self.core.settings.usi.consideration_mode;
        let immediate = if !has_legal_move(&root) {
            Some(self.no_move_answer(&root))
        } else if self.dialect == Dialect::Usi && root.can_declare_win() {
            Some(vec!["bestmove win".to_string()])
        } else if let Some(m) = (!hold).then(|| self.core.book_move()).flatten() {
            Some(vec![format!("bestmove {}", root.format_move(m))])
        } else if let Some(lines) = (self.dialect == Dialect::Usi && !analysis && !consider)
            .then(|| self.book_answer(&root))
            .flatten()
        {
            Some(lines)
        } else if let Some(why) = root.search_refusal() {
            // A legal answer without a search: the first legal move.
            let first = legal_moves(&root)[0];
            Some(vec![
                format!("info string {why}; playing the first legal move"),
                format!("bestmove {}", root.format_move(first)),
            ])
        } else {
            None
        };
        if let Some(lines) = immediate {
            if hold {
                self.held_answer = Some(lines);
            } else {
                lines.iter().for_each(|l| self.line(l));
            }
            return;
        }
        let mut search_moves = Vec::new();
        for text in &params.search_moves {
            match root.parse_move(text) {
                Ok(m) => search_moves.push(m),
                Err(error) => self.info(&format!("searchmoves: {error} ignored")),
            }
        }
        let usi_settings = &self.core.settings.usi;
        let (depth, nodes) = match self.dialect {
            Dialect::Usi => (
                usi_settings.depth(params.depth),
                usi_settings.nodes(params.nodes),
            ),
            Dialect::Uci => (params.depth, params.nodes),
        };
        let limits = Limits {
            depth,
            nodes,
            move_time_ms: params.move_time,
            mate_in: match params.mate {
                Some(MateRequest::Moves(n)) => Some(n),
                _ => None,
            },
            infinite: params.is_unbounded(dialect),
            clock: params.clock(dialect),
            search_moves,
        };
        let settings = &self.core.settings;
        let options = settings.search_options(G::KIND);
        let request = SearchRequest {
            root: root.clone(),
            history: self.core.history.history().to_vec(),
            limits,
            options,
            ponder: params.ponder,
            reporter: info_reporter(
                self.dialect,
                self.core.out.clone(),
                root,
                ReportStyle {
                    show_wdl: settings.search.show_wdl,
                    bound_lines: self.dialect == Dialect::Uci || settings.usi.output_fail_lh_pv,
                    last_pv: self.last_pv.clone(),
                },
            ),
        };
        self.core.prepare_backend();
        self.start(Job::Search(Box::new(request)));
    }

    /// Starts a job on the controller (printing the answer of one still running).
    fn start(&mut self, job: Job<G>) {
        let (_, previous) = self.core.controller.start(job);
        if let Some(previous) = previous {
            self.print_answer(previous);
        }
    }

    fn no_move_answer(&self, root: &G) -> Vec<String> {
        match self.dialect {
            Dialect::Uci => {
                let score = match root.no_moves_outcome().result {
                    GameResult::Loss => "mate 0",
                    _ => "cp 0",
                };
                vec![
                    format!("info depth 0 score {score}"),
                    "bestmove (none)".to_string(),
                ]
            }
            Dialect::Usi => vec!["bestmove resign".to_string()],
        }
    }

    /// Prints what an ended job answers: `bestmove ...`, `checkmate ...`, or nothing more for a
    /// completed perft (it printed its own lines).
    fn print_answer(&self, answer: Answer<G>) {
        match answer {
            Answer::Search(finished) => self.print_bestmove(finished),
            Answer::Mate { root, answer, note } => {
                if let Some(note) = note {
                    self.info(&note);
                }
                self.line(&usi::checkmate_line(&root, &answer));
            }
            Answer::Perft { completed: true } => {}
            Answer::Perft { completed: false } => self.info("perft stopped before it finished"),
        }
    }

    fn print_bestmove(&self, finished: Finished<G>) {
        let root = &finished.root;
        if self.dialect == Dialect::Usi && finished.result.declare_win && root.can_declare_win() {
            self.line("bestmove win");
            return;
        }
        if self.dialect == Dialect::Usi && !self.analysis && self.resigns(&finished) {
            self.line("bestmove resign");
            return;
        }
        let best = finished.result.best.filter(|&m| root.is_legal_move(m));
        let best = match best {
            Some(m) => m,
            None => match legal_moves(root).first() {
                // The search must always have a move; never answer with an illegal one.
                Some(&m) if finished.result.best.is_some() => {
                    self.info("search returned an illegal move; playing the first legal move");
                    m
                }
                Some(&m) => m,
                None => {
                    self.no_move_answer(root).iter().for_each(|l| self.line(l));
                    return;
                }
            },
        };
        if self.dialect == Dialect::Usi && self.core.settings.usi.consideration_mode {
            self.final_pv(&finished, best);
        }
        let mut line = format!("bestmove {}", root.format_move(best));
        if let Some(ponder) = finished.result.ponder {
            let mut child = root.clone();
            child.make_move(best);
            if child.is_legal_move(ponder) {
                line.push_str(&format!(" ponder {}", child.format_move(ponder)));
            }
        }
        self.line(&line);
    }

    /// `ResignValue`: the search's score is at or below minus the value (a mate against the
    /// side to move counts as YaneuraOu's mated score, 32000 less the plies).
    fn resigns(&self, finished: &Finished<G>) -> bool {
        let threshold = self.core.settings.usi.resign_value;
        let score = match finished.result.score {
            Score::Cp(cp) => cp,
            Score::MatePlies(plies) if plies < 0 => -(32_000 + plies),
            Score::MatePlies(_) => return false,
        };
        finished.result.best.is_some() && score <= -threshold
    }

    /// `ConsiderationMode`: the last line the GUI shows before `bestmove` starts with the move
    /// played. The last exact PV is printed again, or, when the search was stopped after a
    /// later root move beat it, a line for the move played.
    fn final_pv(&self, finished: &Finished<G>, best: G::Move) {
        let root = &finished.root;
        let best_text = root.format_move(best);
        let last = self
            .last_pv
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        match last {
            Some((first, line)) if first == best_text => self.line(&line),
            _ => {
                let result = &finished.result;
                let mut pv = best_text;
                if let Some(ponder) = result.ponder {
                    let mut child = root.clone();
                    child.make_move(best);
                    if child.is_legal_move(ponder) {
                        pv.push_str(&format!(" {}", child.format_move(ponder)));
                    }
                }
                self.line(&format!(
                    "info depth {} seldepth {} multipv 1 score {} nodes {} pv {pv}",
                    result.depth.max(1),
                    result.depth.max(1),
                    usi::score_text(result.score),
                    result.nodes
                ));
            }
        }
    }

    /// Ends the running job (printing its answer) and prints any held answer.
    fn finish_search(&mut self) {
        if let Some(answer) = self.core.controller.stop() {
            self.print_answer(answer);
        }
        if let Some(lines) = self.held_answer.take() {
            lines.iter().for_each(|l| self.line(l));
        }
    }

    /// `treestats`: the search tree's counters (`search::tree_stats`), `treestats reset` zeroes
    /// them; a build without the `tree-stats` feature says that it does not count.
    fn tree_stats(&mut self, args: &[&str]) {
        if !tree_stats::ENABLED {
            self.info("treestats: this build does not count (build it with --features tree-stats)");
        } else if args.first() == Some(&"reset") {
            tree_stats::reset();
        } else {
            for (name, value) in tree_stats::report() {
                self.line(&format!("treestat {name} {value}"));
            }
            self.line("treestat end");
        }
    }

    fn ponderhit(&mut self) {
        if let Some(lines) = self.held_answer.take() {
            lines.iter().for_each(|l| self.line(l));
            return;
        }
        if let Some(answer) = self.core.controller.ponderhit() {
            self.print_answer(answer);
        }
    }
}

impl<G: ProtocolGame> Protocol for UciUsiSession<G> {
    fn handle_line(&mut self, line: &str) -> Flow {
        let words = tokens(line);
        let Some(&command) = words.first() else {
            return Flow::Continue;
        };
        if self.debug {
            self.info(&format!("received: {}", line.trim()));
        }
        let args = &words[1..];
        match (command, self.dialect) {
            ("uci", Dialect::Uci) | ("usi", Dialect::Usi) => self.identify(),
            ("isready", _) => {
                self.sync_book();
                self.core.sync_evaluator();
                self.core.prepare_backend();
                self.line("readyok");
            }
            ("debug", _) => self.debug = args.first() != Some(&"off"),
            ("setoption", _) => self.set_option(line),
            ("register", _) => {
                self.line("registration checking");
                self.line("registration ok");
            }
            ("ucinewgame", Dialect::Uci) | ("usinewgame", Dialect::Usi) => self.new_game(),
            ("position", _) => self.set_position(line),
            ("go", _) => self.go(args),
            ("stop", _) => self.finish_search(),
            ("ponderhit", _) => self.ponderhit(),
            ("gameover", Dialect::Usi) => self.finish_search(),
            ("quit", _) => return Flow::Quit,
            ("d", _) => self.info(&self.core.history.current().to_text()),
            ("treestats", _) => self.tree_stats(args),
            _ => {
                let text = format!("Unknown command: '{}'", line.trim());
                match self.dialect {
                    Dialect::Uci => self.line(&text),
                    Dialect::Usi => self.info(&text),
                }
            }
        }
        Flow::Continue
    }

    fn job_done(&mut self, id: u64) -> Flow {
        if let Some(answer) = self.core.controller.on_job_done(id) {
            self.print_answer(answer);
        }
        Flow::Continue
    }

    fn shutdown(&mut self) {
        self.finish_search();
    }
}

/// What the progress lines of one search show.
struct ReportStyle {
    show_wdl: bool,
    /// Whether fail-high / fail-low lines are printed (USI `OutputFailLHPV`).
    bound_lines: bool,
    /// Where the last exact first line goes, with its first move.
    last_pv: Arc<Mutex<Option<(String, String)>>>,
}

/// Prints `info` lines for search progress.
fn info_reporter<G: ProtocolGame>(
    dialect: Dialect,
    out: Output,
    root: G,
    style: ReportStyle,
) -> Reporter<G::Move> {
    Box::new(move |event| match event {
        SearchEvent::Pv(info) => {
            if info.bound != ScoreBound::Exact && !style.bound_lines {
                return;
            }
            let line = info_line(dialect, &root, &info, style.show_wdl);
            if info.bound == ScoreBound::Exact && info.multipv == 1 {
                if let Some(&first) = info.pv.first().filter(|&&m| root.is_legal_move(m)) {
                    let mut last = style.last_pv.lock().unwrap_or_else(|e| e.into_inner());
                    *last = Some((root.format_move(first), line.clone()));
                }
            }
            out.line(&line);
        }
        SearchEvent::CurrentMove { depth, mv, number } => {
            if root.is_legal_move(mv) {
                out.line(&format!(
                    "info depth {depth} currmove {} currmovenumber {number}",
                    root.format_move(mv)
                ));
            }
        }
    })
}

/// One `info ... pv ...` line.
fn info_line<G: Game>(
    dialect: Dialect,
    root: &G,
    info: &SearchInfo<G::Move>,
    show_wdl: bool,
) -> String {
    let score = match dialect {
        Dialect::Uci => uci_score_text(info.score),
        Dialect::Usi => usi::score_text(info.score),
    };
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {score}",
        info.depth,
        info.seldepth.max(info.depth),
        info.multipv
    );
    match info.bound {
        ScoreBound::Exact => {}
        ScoreBound::Lower => line.push_str(" lowerbound"),
        ScoreBound::Upper => line.push_str(" upperbound"),
    }
    if let (true, Dialect::Uci, Some(wdl)) = (show_wdl, dialect, info.wdl) {
        line.push_str(&format!(" wdl {} {} {}", wdl.win, wdl.draw, wdl.loss));
    }
    line.push_str(&format!(
        " nodes {} nps {} hashfull {} time {}",
        info.nodes, info.nps, info.hashfull, info.time_ms
    ));
    if let Some(hits) = info.tb_hits {
        line.push_str(&format!(" tbhits {hits}"));
    }
    let pv = pv_text(root, &info.pv, |pos, m| pos.format_move(m));
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv);
    }
    line
}

/// UCI score: centipawns, or mate in full moves.
fn uci_score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::MatePlies(plies) => format!("mate {}", Score::mate_moves(plies)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_fail_lh_pv_decides_the_bound_lines() {
        use super::super::output::Captured;
        use super::super::testing::TicTacToe;
        use crate::movelist::MoveList;
        let root = TicTacToe::startpos();
        let mut legal = <TicTacToe as Game>::Moves::default();
        root.generate_legal(&mut legal);
        let info = |bound| SearchInfo {
            depth: 5,
            seldepth: 5,
            multipv: 1,
            score: Score::Cp(10),
            bound,
            wdl: None,
            nodes: 100,
            time_ms: 1500,
            nps: 0,
            hashfull: 0,
            tb_hits: None,
            pv: vec![legal.as_slice()[0]],
        };
        for bound_lines in [true, false] {
            let captured = Captured::default();
            let last_pv = Arc::new(Mutex::new(None));
            let style = ReportStyle {
                show_wdl: false,
                bound_lines,
                last_pv: last_pv.clone(),
            };
            let mut report = info_reporter(Dialect::Usi, captured.output(), root, style);
            report(SearchEvent::Pv(info(ScoreBound::Lower)));
            report(SearchEvent::Pv(info(ScoreBound::Upper)));
            report(SearchEvent::Pv(info(ScoreBound::Exact)));
            let lines = captured.lines();
            let bounds = lines.iter().filter(|l| l.contains("bound")).count();
            assert_eq!(bounds, if bound_lines { 2 } else { 0 }, "{lines:?}");
            assert_eq!(lines.len(), bounds + 1);
            // Only the exact line is what `ConsiderationMode` repeats.
            let kept = last_pv.lock().unwrap().clone().unwrap();
            assert_eq!(&kept.1, lines.last().unwrap());
        }
    }

    #[test]
    fn uci_mate_scores_are_moves() {
        assert_eq!(uci_score_text(Score::MatePlies(1)), "mate 1");
        assert_eq!(uci_score_text(Score::MatePlies(3)), "mate 2");
        assert_eq!(uci_score_text(Score::MatePlies(-2)), "mate -1");
        assert_eq!(uci_score_text(Score::Cp(17)), "cp 17");
    }
}
