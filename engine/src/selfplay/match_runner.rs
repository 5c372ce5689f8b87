//! A match between two configurations: game pairs on seeded random openings with colours
//! swapped, played on several threads, summarised as W/D/L, pentanomial pair counts, Elo ± 95%
//! error and an optional SPRT that can end the match early. Players on a clock (see
//! `PlayerConfig::time_control`) lose on time when it runs out; such losses are counted.

use super::opening::{random_opening, Opening};
use super::played_game::{
    play_game, Adjudication, GameEnd, PlayedGame, PlayerConfig, SearchPlayer,
};
use super::stats::{Pentanomial, ScoreDistribution, Sprt, SprtVerdict, WdlCounts};
use super::time_control::ClockUsage;
use crate::eval::Evaluator;
use crate::game::{Game, Side};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Stack size of game threads (the search recurses).
const GAME_THREAD_STACK_BYTES: usize = crate::search::SEARCH_STACK_BYTES;

#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Game pairs to play (each pair: one game with each colour on the same opening).
    pub pairs: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Random plies from the start position for each opening.
    pub opening_plies: u32,
    pub seed: u64,
    pub adjudication: Adjudication,
    /// Stop as soon as the test is decided.
    pub sprt: Option<Sprt>,
    /// Called with the running totals after every counted game pair (one call at a time), e.g.
    /// to print progress or keep a result file current; `None`: silent.
    pub on_pair: Option<PairObserver>,
    /// Games of the same setup played before (other seeds) that this match continues: its
    /// totals, SPRT, progress and report start from them (`PriorCounts::default()`: none).
    pub prior: PriorCounts,
}

/// Counts of earlier games of a match's setup that the match goes on from, so that a match
/// killed midway resumes on new openings instead of replaying the games it had finished.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PriorCounts {
    pub wdl: WdlCounts,
    pub pentanomial: Pentanomial,
    /// Losses on time of the first and the second configuration.
    pub time_forfeits: [u64; 2],
}

/// What `MatchConfig::on_pair` calls: any closure over the running totals (its report has no
/// clock use; the time forfeits are there when a player is on a clock).
#[derive(Clone)]
pub struct PairObserver(Arc<dyn Fn(&MatchReport) + Send + Sync>);

impl PairObserver {
    pub fn new(observe: impl Fn(&MatchReport) + Send + Sync + 'static) -> Self {
        Self(Arc::new(observe))
    }
}

impl fmt::Debug for PairObserver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PairObserver")
    }
}

impl Default for MatchConfig {
    fn default() -> Self {
        Self {
            pairs: 50,
            concurrency: 1,
            opening_plies: 8,
            seed: 1,
            adjudication: Adjudication::default(),
            sprt: None,
            on_pair: None,
            prior: PriorCounts::default(),
        }
    }
}

/// The result of a match, from the first configuration's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    pub first_name: String,
    pub second_name: String,
    pub wdl: WdlCounts,
    pub pentanomial: Pentanomial,
    /// Elo and 95% half-width from the pentanomial distribution (pairs).
    pub elo: f64,
    pub elo_error: f64,
    pub sprt: Option<(Sprt, f64, SprtVerdict)>,
    /// Games lost on time by the first and by the second configuration; `None` when neither
    /// played on a clock.
    pub time_forfeits: Option<[u64; 2]>,
    /// How much of their clocks the first and the second configuration used over all their
    /// games; `None` when neither played on a clock.
    pub clock_use: Option<[ClockUsage; 2]>,
}

impl MatchReport {
    fn from_counts(
        first_name: &str,
        second_name: &str,
        wdl: WdlCounts,
        pentanomial: Pentanomial,
        sprt: Option<Sprt>,
        time_forfeits: Option<[u64; 2]>,
    ) -> Self {
        let distribution = ScoreDistribution::pentanomial(&pentanomial);
        let (elo, elo_error) = distribution.map_or((0.0, f64::INFINITY), |d| d.elo_with_error());
        let sprt = sprt.and_then(|s| {
            let llr = distribution?.sprt_llr(s.elo0, s.elo1);
            Some((s, llr, s.verdict(llr)))
        });
        Self {
            first_name: first_name.to_string(),
            second_name: second_name.to_string(),
            wdl,
            pentanomial,
            elo,
            elo_error,
            sprt,
            time_forfeits,
            clock_use: None,
        }
    }
}

impl MatchReport {
    /// The running totals on one line (games, W/D/L, Elo, LLR), for progress output.
    pub fn progress_line(&self) -> String {
        let mut line = format!(
            "{} games, W {} D {} L {}, Elo {:+.1} ± {:.1}",
            self.wdl.games(),
            self.wdl.wins,
            self.wdl.draws,
            self.wdl.losses,
            self.elo,
            self.elo_error
        );
        if let Some((_, llr, _)) = self.sprt {
            line.push_str(&format!(", LLR {llr:.2}"));
        }
        line
    }
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} vs {}: {} games, W {} D {} L {}",
            self.first_name,
            self.second_name,
            self.wdl.games(),
            self.wdl.wins,
            self.wdl.draws,
            self.wdl.losses
        )?;
        writeln!(f, "pairs (0, ½, 1, 1½, 2 points): {:?}", self.pentanomial.0)?;
        write!(f, "Elo {:+.1} ± {:.1} (95%)", self.elo, self.elo_error)?;
        if let Some([first, second]) = self.time_forfeits {
            write!(
                f,
                "\nlosses on time: {} {}, {} {}",
                self.first_name, first, self.second_name, second
            )?;
        }
        if let Some(uses) = self.clock_use {
            let line = |name: &str, u: ClockUsage| {
                format!(
                    "{name} {:.0} ms per move over {} moves, {:.1}% of the time it was given",
                    u.ms_per_move(),
                    u.moves,
                    u.percent()
                )
            };
            write!(
                f,
                "\nclock use: {}; {}",
                line(&self.first_name, uses[0]),
                line(&self.second_name, uses[1])
            )?;
        }
        if let Some((s, llr, verdict)) = self.sprt {
            let (lower, upper) = s.bounds();
            write!(
                f,
                "\nSPRT [{}, {}] α={} β={}: LLR {:.2} ({:.2}, {:.2}) → {:?}",
                s.elo0, s.elo1, s.alpha, s.beta, llr, lower, upper, verdict
            )?;
        }
        Ok(())
    }
}

/// Points (0, 1 or 2 halves) the first configuration scored in a game it played as `side`.
fn half_points(record_winner: Option<Side>, side: Side) -> usize {
    match record_winner {
        None => 1,
        Some(w) if w == side => 2,
        Some(_) => 0,
    }
}

/// Plays the match of `first` against `second` from `start` (random openings of
/// `config.opening_plies` plies). `on_game` sees every finished game (e.g. to save it); it may be
/// called from several threads.
pub fn run_match<G, EA, EB>(
    start: &G,
    first: &PlayerConfig<EA>,
    second: &PlayerConfig<EB>,
    config: &MatchConfig,
    on_game: &(dyn Fn(&PlayedGame<G>) + Sync),
) -> MatchReport
where
    G: Game,
    EA: Evaluator<G> + Sync,
    EB: Evaluator<G> + Sync,
{
    let opening = |pair: usize| {
        let seed = config.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ pair as u64;
        random_opening(start, config.opening_plies, seed)
    };
    run_match_with_openings(&opening, first, second, config, on_game)
}

/// Like `run_match`, with the opening of each game pair (by pair index) from `opening_for_pair`
/// (e.g. an opening book); `config.opening_plies` is not used.
pub fn run_match_with_openings<G, EA, EB>(
    opening_for_pair: &(dyn Fn(usize) -> Opening<G> + Sync),
    first: &PlayerConfig<EA>,
    second: &PlayerConfig<EB>,
    config: &MatchConfig,
    on_game: &(dyn Fn(&PlayedGame<G>) + Sync),
) -> MatchReport
where
    G: Game,
    EA: Evaluator<G> + Sync,
    EB: Evaluator<G> + Sync,
{
    let next_pair = AtomicUsize::new(0);
    let on_clock = first.time_control.is_some() || second.time_control.is_some();
    let prior = config.prior;
    // Prior games that already decide the SPRT leave nothing to play.
    let decided_before = MatchReport::from_counts(
        &first.name,
        &second.name,
        prior.wdl,
        prior.pentanomial,
        config.sprt,
        None,
    )
    .sprt
    .is_some_and(|(_, _, v)| v != SprtVerdict::Continue);
    let decided = AtomicBool::new(decided_before);
    let totals = Mutex::new((
        prior.wdl,
        prior.pentanomial,
        prior.time_forfeits,
        [ClockUsage::default(); 2],
    ));
    let threads = config.concurrency.clamp(1, config.pairs.max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let worker = || {
                // Game threads have search-sized stacks: the players search on them.
                let mut a = SearchPlayer::<G, EA>::new(first.clone()).search_on_caller_thread();
                let mut b = SearchPlayer::<G, EB>::new(second.clone()).search_on_caller_thread();
                loop {
                    let pair = next_pair.fetch_add(1, Ordering::Relaxed);
                    if pair >= config.pairs || decided.load(Ordering::Relaxed) {
                        return;
                    }
                    let opening = opening_for_pair(pair);
                    let mut game_a_first =
                        play_game(&opening, [&mut a, &mut b], &config.adjudication);
                    game_a_first.players = [first.name.clone(), second.name.clone()];
                    on_game(&game_a_first);
                    let mut game_b_first =
                        play_game(&opening, [&mut b, &mut a], &config.adjudication);
                    game_b_first.players = [second.name.clone(), first.name.clone()];
                    on_game(&game_b_first);
                    let points = [
                        half_points(game_a_first.winner, Side::First),
                        half_points(game_b_first.winner, Side::Second),
                    ];
                    let mut totals = totals.lock().unwrap_or_else(|e| e.into_inner());
                    // The SPRT stops at its decision: pairs still in flight then are not
                    // counted, so the report's verdict is the one that stopped the match.
                    if decided.load(Ordering::Relaxed) {
                        return;
                    }
                    let (wdl, penta, forfeits, clock_use) = &mut *totals;
                    // The first configuration moved first in game one and second in game two.
                    for (game, first_side) in
                        [(&game_a_first, Side::First), (&game_b_first, Side::Second)]
                    {
                        if game.end == GameEnd::TimeForfeit {
                            let loser_is_first = game.winner != Some(first_side);
                            forfeits[usize::from(!loser_is_first)] += 1;
                        }
                        for (config, side) in [(0, first_side), (1, first_side.flip())] {
                            if let Some(usage) = game.clock_usage[side.index()] {
                                clock_use[config].add(usage);
                            }
                        }
                    }
                    for p in points {
                        match p {
                            2 => wdl.wins += 1,
                            1 => wdl.draws += 1,
                            _ => wdl.losses += 1,
                        }
                    }
                    penta.0[points[0] + points[1]] += 1;
                    if config.sprt.is_some() || config.on_pair.is_some() {
                        let report = MatchReport::from_counts(
                            &first.name,
                            &second.name,
                            *wdl,
                            *penta,
                            config.sprt,
                            on_clock.then_some(*forfeits),
                        );
                        if report
                            .sprt
                            .is_some_and(|(_, _, v)| v != SprtVerdict::Continue)
                        {
                            decided.store(true, Ordering::Relaxed);
                        }
                        if let Some(on_pair) = &config.on_pair {
                            (on_pair.0)(&report);
                        }
                    }
                }
            };
            // A thread the system refuses to start just leaves the match with fewer workers.
            let _ = std::thread::Builder::new()
                .stack_size(GAME_THREAD_STACK_BYTES)
                .spawn_scoped(scope, worker);
        }
    });
    let (wdl, penta, forfeits, clock_use) = *totals.lock().unwrap_or_else(|e| e.into_inner());
    MatchReport {
        clock_use: on_clock.then_some(clock_use),
        ..MatchReport::from_counts(
            &first.name,
            &second.name,
            wdl,
            penta,
            config.sprt,
            on_clock.then_some(forfeits),
        )
    }
}
