//! The UCI session (chess), which also serves USI (shogi) as a dialect: the two protocols share
//! their command set and differ in names, position syntax, clock sides, mate units and a few
//! shogi-only commands (see `usi`).

use super::controller::{Controller, Finished, Reporter, SearchRequest};
use super::go::{parse_go, GoDialect, MateRequest};
use super::input::{rest_after, tokens, Event};
use super::options::{split_setoption, uci_declaration, EngineSettings, OptionEffect, OptionTable};
use super::output::Output;
use super::perft_job::PerftJob;
use super::record::{has_legal_move, legal_moves, GameRecord};
use super::{usi, Flow, Protocol, ProtocolGame};
use crate::game::{Game, GameResult};
use crate::search::{Limits, Score, ScoreBound, SearchEvent, SearchInfo};
use std::sync::mpsc::Sender;

/// Engine name as both protocols report it.
pub const ENGINE_NAME: &str = concat!("Sente ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Sente developers";

/// Which protocol the session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Usi,
}

impl Dialect {
    fn go(self) -> GoDialect {
        match self {
            Dialect::Uci => GoDialect::Uci,
            Dialect::Usi => GoDialect::Usi,
        }
    }

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
pub struct UciSession<G: ProtocolGame> {
    dialect: Dialect,
    out: Output,
    settings: EngineSettings,
    record: GameRecord<G>,
    /// The last accepted `position` line, replayed when rule options change.
    last_position: Option<String>,
    /// Why the last `position` command was refused (the engine kept the previous position,
    /// which the GUI no longer has): `go` says so, and `go mate` does not solve a stale problem.
    refused_position: Option<String>,
    controller: Controller<G, G::Backend>,
    /// An answer that needed no search but must wait for `stop` / `ponderhit` (the root had no
    /// move during `go infinite` or `go ponder`).
    held_answer: Option<Vec<String>>,
    /// USI `go mate` in progress.
    mate_job: Option<usi::MateJob<G>>,
    next_mate_id: u64,
    /// `go perft` in progress.
    perft_job: Option<PerftJob>,
    next_perft_id: u64,
    events: Sender<Event>,
    /// The `EvalFile` value the backend's evaluator was last set from.
    loaded_eval_file: String,
    debug: bool,
}

impl<G: ProtocolGame> UciSession<G> {
    pub fn new(dialect: Dialect, out: Output, events: Sender<Event>) -> Self {
        let settings = EngineSettings::default();
        let mut controller = Controller::new(G::new_backend(), events.clone());
        controller.configure(settings.hash_mb, settings.threads);
        let record = GameRecord::new(start_position::<G>(&settings));
        Self {
            dialect,
            out,
            settings,
            record,
            last_position: None,
            refused_position: None,
            controller,
            held_answer: None,
            mate_job: None,
            next_mate_id: 1,
            perft_job: None,
            next_perft_id: 1,
            events,
            loaded_eval_file: String::new(),
            debug: false,
        }
    }

    /// The position the next `go` searches.
    pub fn position(&self) -> &G {
        self.record.current()
    }

    fn info(&self, text: &str) {
        self.out.line(&format!("info string {text}"));
    }

    fn identify(&self) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line(&format!("id author {ENGINE_AUTHOR}"));
        let usi = self.dialect == Dialect::Usi;
        for def in self.dialect.options().declared() {
            self.out.line(&uci_declaration(def, usi));
        }
        self.out.line(&format!("{}ok", self.dialect.name()));
    }

    fn set_option(&mut self, line: &str) {
        let Some((name, value)) = split_setoption(rest_after(line, 1)) else {
            self.info("setoption needs: setoption name <id> [value <x>]");
            return;
        };
        match self
            .dialect
            .options()
            .apply(&mut self.settings, name, value)
        {
            Ok(OptionEffect::None) => {}
            Ok(OptionEffect::ClearHash) => self.controller.clear(),
            Ok(OptionEffect::RulesChanged) => self.replay_position(),
            Err(super::options::OptionError::Unknown(_)) if self.dialect == Dialect::Usi => {
                // USI: GUIs send options the engine never declared; ignore them silently.
            }
            Err(super::options::OptionError::Unknown(name)) => {
                self.info(&format!("No such option: {name}"));
            }
            Err(error) => self.info(&format!("{error}; value ignored")),
        }
        self.controller
            .configure(self.settings.hash_mb, self.settings.threads);
    }

    /// Loads the evaluator `EvalFile` asks for, if it changed (at `isready` and before `go`).
    fn sync_evaluator(&mut self) {
        let wanted = self.settings.eval_file.clone();
        if wanted == self.loaded_eval_file {
            return;
        }
        let Some(result) = self
            .controller
            .with_idle_backend(|backend| G::load_evaluator(backend, &wanted))
        else {
            return; // searching: retried at the next isready or go
        };
        match result {
            Ok(description) => self.info(&format!("Using {description}")),
            Err(error) => self.info(&format!("EvalFile: {error}; evaluation unchanged")),
        }
        self.loaded_eval_file = wanted;
    }

    /// Allocates a changed hash size or thread count and clears tables now (at `isready`), so
    /// that the next search does not pay for them on its clock; reports what failed.
    fn prepare_backend(&mut self) {
        for problem in self.controller.prepare() {
            self.info(&problem);
        }
    }

    fn replay_position(&mut self) {
        match self.last_position.clone() {
            Some(line) => self.set_position(&line),
            None => self.record = GameRecord::new(start_position::<G>(&self.settings)),
        }
    }

    fn new_game(&mut self) {
        self.finish_search();
        self.controller.clear();
        self.prepare_backend();
        self.record = GameRecord::new(start_position::<G>(&self.settings));
        self.last_position = None;
        self.refused_position = None;
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
        let start = match setup.first().map(|t| t.to_ascii_lowercase()) {
            Some(kind) if kind == "startpos" && setup.len() == 1 => {
                start_position::<G>(&self.settings)
            }
            Some(kind) if (kind == "fen" || kind == "sfen") && setup.len() > 1 => {
                match G::from_text(&setup[1..].join(" ")) {
                    Ok(pos) if pos.rules_conflict(&self.settings.rules).is_some() => {
                        let why = pos.rules_conflict(&self.settings.rules).unwrap_or_default();
                        self.info(&format!("Invalid position: {why}; position unchanged"));
                        self.refused_position = Some(why);
                        return;
                    }
                    Ok(mut pos) => {
                        pos.apply_rules(&self.settings.rules);
                        pos
                    }
                    Err(error) => {
                        self.info(&format!("Invalid position: {error}; position unchanged"));
                        self.refused_position = Some(error.to_string());
                        return;
                    }
                }
            }
            _ => {
                let keyword = if self.dialect == Dialect::Uci {
                    "fen"
                } else {
                    "sfen"
                };
                self.info(&format!(
                    "Invalid position command: expected 'startpos' or '{keyword} <text>'; position unchanged"
                ));
                self.refused_position = Some("not a position command".to_string());
                return;
            }
        };
        let mut record = GameRecord::new(start);
        for (index, text) in moves.iter().enumerate() {
            match record.current().parse_move(text) {
                Ok(m) => record.push(m),
                Err(error) => {
                    self.info(&format!(
                        "{error} at move {}; position set up to the move before",
                        index + 1
                    ));
                    break;
                }
            }
        }
        self.record = record;
        self.last_position = Some(line.to_string());
        self.refused_position = None;
    }

    fn go(&mut self, args: &[&str]) {
        self.finish_search();
        self.sync_evaluator();
        let dialect = self.dialect.go();
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
                self.out.line("checkmate timeout");
                return;
            }
            self.info(&format!(
                "the last position was refused ({why}); searching the previous position"
            ));
        }
        let root = self.record.current().clone();
        if let Some(depth) = params.perft {
            if let Err(message) = crate::perft::check_depth(depth) {
                self.info(&message);
                return;
            }
            let id = self.next_perft_id;
            self.next_perft_id += 1;
            let job = PerftJob::start(root, depth, self.out.clone(), id, self.events.clone());
            self.perft_job = Some(job);
            return;
        }
        if let (Dialect::Usi, Some(request)) = (self.dialect, params.mate) {
            let id = self.next_mate_id;
            self.next_mate_id += 1;
            let table_mb = self.settings.hash_mb;
            let job = usi::MateJob::start(root, request, table_mb, id, self.events.clone());
            self.mate_job = Some(job);
            return;
        }
        let hold = params.ponder || params.is_unbounded(dialect);
        let immediate = if !has_legal_move(&root) {
            Some(self.no_move_answer(&root))
        } else if self.dialect == Dialect::Usi && root.can_declare_win() {
            Some(vec!["bestmove win".to_string()])
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
                lines.iter().for_each(|l| self.out.line(l));
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
        let limits = Limits {
            depth: params.depth,
            nodes: params.nodes,
            move_time_ms: params.move_time,
            mate_in: match params.mate {
                Some(MateRequest::Moves(n)) => Some(n),
                _ => None,
            },
            infinite: params.is_unbounded(dialect),
            clock: params.clock(dialect),
            search_moves,
        };
        let request = SearchRequest {
            root: root.clone(),
            history: self.record.history().to_vec(),
            limits,
            options: self.settings.search_options(),
            ponder: params.ponder,
            reporter: info_reporter(
                self.dialect,
                self.out.clone(),
                root,
                self.settings.search.show_wdl,
            ),
        };
        self.prepare_backend();
        let (_, previous) = self.controller.start(request);
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

    fn print_answer(&self, finished: Finished<G>) {
        let root = &finished.root;
        if self.dialect == Dialect::Usi && finished.result.declare_win && root.can_declare_win() {
            self.out.line("bestmove win");
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
                    self.no_move_answer(root)
                        .iter()
                        .for_each(|l| self.out.line(l));
                    return;
                }
            },
        };
        let mut line = format!("bestmove {}", root.format_move(best));
        if let Some(ponder) = finished.result.ponder {
            let mut child = root.clone();
            child.make_move(best);
            if child.is_legal_move(ponder) {
                line.push_str(&format!(" ponder {}", child.format_move(ponder)));
            }
        }
        self.out.line(&line);
    }

    /// Ends the running search (printing its answer) and prints any held answer.
    fn finish_search(&mut self) {
        if let Some(job) = self.perft_job.take() {
            job.finish();
        }
        if let Some(job) = self.mate_job.take() {
            self.out.line(&job.finish());
        }
        if let Some(finished) = self.controller.stop() {
            self.print_answer(finished);
        }
        if let Some(lines) = self.held_answer.take() {
            lines.iter().for_each(|l| self.out.line(l));
        }
    }

    fn ponderhit(&mut self) {
        if let Some(lines) = self.held_answer.take() {
            lines.iter().for_each(|l| self.out.line(l));
            return;
        }
        if let Some(finished) = self.controller.ponderhit() {
            self.print_answer(finished);
        }
    }
}

impl<G: ProtocolGame> Protocol for UciSession<G> {
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
                self.sync_evaluator();
                self.prepare_backend();
                self.out.line("readyok");
            }
            ("debug", _) => self.debug = args.first() != Some(&"off"),
            ("setoption", _) => self.set_option(line),
            ("register", _) => {
                self.out.line("registration checking");
                self.out.line("registration ok");
            }
            ("ucinewgame", Dialect::Uci) | ("usinewgame", Dialect::Usi) => self.new_game(),
            ("position", _) => self.set_position(line),
            ("go", _) => self.go(args),
            ("stop", _) => self.finish_search(),
            ("ponderhit", _) => self.ponderhit(),
            ("gameover", Dialect::Usi) => self.finish_search(),
            ("quit", _) => return Flow::Quit,
            ("d", _) => {
                let text = self.record.current().to_text();
                self.info(&text);
            }
            _ => {
                let text = format!("Unknown command: '{}'", line.trim());
                match self.dialect {
                    Dialect::Uci => self.out.line(&text),
                    Dialect::Usi => self.info(&text),
                }
            }
        }
        Flow::Continue
    }

    fn search_done(&mut self, id: u64) -> Flow {
        if let Some(finished) = self.controller.on_search_done(id) {
            self.print_answer(finished);
        }
        Flow::Continue
    }

    fn mate_done(&mut self, id: u64) -> Flow {
        if self.mate_job.as_ref().is_some_and(|job| job.id == id) {
            if let Some(job) = self.mate_job.take() {
                self.out.line(&job.finish());
            }
        }
        Flow::Continue
    }

    fn perft_done(&mut self, id: u64) -> Flow {
        if self.perft_job.as_ref().is_some_and(|job| job.id == id) {
            if let Some(job) = self.perft_job.take() {
                job.finish();
            }
        }
        Flow::Continue
    }

    fn shutdown(&mut self) {
        self.finish_search();
    }
}

/// The standard start position with the session's rules applied.
fn start_position<G: ProtocolGame>(settings: &EngineSettings) -> G {
    let mut pos = G::startpos();
    pos.apply_rules(&settings.rules);
    pos
}

/// Prints `info` lines for search progress.
fn info_reporter<G: ProtocolGame>(
    dialect: Dialect,
    out: Output,
    root: G,
    show_wdl: bool,
) -> Reporter<G::Move> {
    Box::new(move |event| match event {
        SearchEvent::Pv(info) => out.line(&info_line(dialect, &root, &info, show_wdl)),
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
pub fn info_line<G: Game>(
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
    let pv = pv_text(root, &info.pv, |pos, m| pos.format_move(m));
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv);
    }
    line
}

/// UCI score: centipawns, or mate in full moves.
pub fn uci_score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::MatePlies(plies) => format!("mate {}", Score::mate_moves(plies)),
    }
}

/// Formats the legal prefix of a PV, each move in the position where it is played.
pub fn pv_text<G: Game>(
    root: &G,
    pv: &[G::Move],
    format: impl Fn(&G, G::Move) -> String,
) -> String {
    let mut pos = root.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &m in pv {
        if !pos.is_legal_move(m) {
            break;
        }
        words.push(format(&pos, m));
        pos.make_move(m);
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_mate_scores_are_moves() {
        assert_eq!(uci_score_text(Score::MatePlies(1)), "mate 1");
        assert_eq!(uci_score_text(Score::MatePlies(3)), "mate 2");
        assert_eq!(uci_score_text(Score::MatePlies(-2)), "mate -1");
        assert_eq!(uci_score_text(Score::Cp(17)), "cp 17");
    }
}
