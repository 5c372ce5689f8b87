//! `GameEval<G>`: the evaluator the protocols hand to the search — the game's classical evaluator
//! or its NNUE evaluator — switched when `EvalFile` loads a net (a failed load keeps the previous
//! one).

use super::evaluator::NnueEval;
use super::network::{NetLoadError, Network};
use super::nnue_game::NnueGame;
use super::{default_network, NetFormatError};
use crate::eval::Evaluator;
use std::path::Path;
use std::sync::Arc;

/// Which evaluator to use: what an evaluator *name* (`EvalFile`, `datagen --net`, `match --a`)
/// or `sente bench --net/--classical` selects. `GameEval::select` builds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalChoice<'a> {
    /// The embedded default net when the binary has one, else the classical evaluator.
    Default,
    /// The classical (gen-0) evaluator.
    Classical,
    /// A net file of the game.
    Net(&'a Path),
}

impl<'a> EvalChoice<'a> {
    /// The name that selects the classical evaluator (any case).
    pub const CLASSICAL: &'static str = "classical";
    /// The name that selects the default evaluator (as does an empty name).
    pub const DEFAULT: &'static str = "default";

    /// The evaluator a name selects, surrounding whitespace ignored: empty or `default` the
    /// default, `classical` (any case) the classical evaluator, anything else a net file.
    pub fn from_name(name: &'a str) -> Self {
        let name = name.trim();
        if name.is_empty() || name == Self::DEFAULT {
            EvalChoice::Default
        } else if name.eq_ignore_ascii_case(Self::CLASSICAL) {
            EvalChoice::Classical
        } else {
            EvalChoice::Net(Path::new(name))
        }
    }
}

/// Classical or NNUE evaluation of one game.
#[derive(Clone, Debug)]
pub enum GameEval<G: NnueGame> {
    Classical(G::Classical),
    Nnue(Box<NnueEval<G>>),
}

impl<G: NnueGame> Default for GameEval<G> {
    /// The embedded default net when the binary has one, else the classical evaluator.
    fn default() -> Self {
        default_network(&G::ARCH)
            .and_then(|net| NnueEval::new(net).ok())
            .map(|eval| GameEval::Nnue(Box::new(eval)))
            .unwrap_or_else(|| GameEval::Classical(G::Classical::default()))
    }
}

impl<G: NnueGame> GameEval<G> {
    /// The evaluator `choice` selects; a net that does not load is an error naming the file.
    pub fn select(choice: EvalChoice) -> Result<Self, NetLoadError> {
        Ok(match choice {
            EvalChoice::Default => Self::default(),
            EvalChoice::Classical => Self::classical(),
            EvalChoice::Net(path) => {
                let mut eval = Self::classical();
                eval.load_net(path)?;
                eval
            }
        })
    }

    /// The classical evaluator.
    pub fn classical() -> Self {
        GameEval::Classical(G::Classical::default())
    }

    /// NNUE evaluation with `net` (which must have this game's architecture or a width variant).
    pub fn with_network(net: Arc<Network>) -> Result<Self, NetFormatError> {
        Ok(GameEval::Nnue(Box::new(NnueEval::new(net)?)))
    }

    /// Loads the net file at `path` (`EvalFile`) and switches to it: a net of this game at any
    /// supported width (`arch::SUPPORTED_L1`). On error nothing changes: the previous evaluator
    /// stays, and the error names the file and the problem.
    pub fn load_net(&mut self, path: &Path) -> Result<(), NetLoadError> {
        let net = Network::load(path, &G::ARCH)?;
        *self = Self::with_network(Arc::new(net))?;
        Ok(())
    }

    /// The loaded net, if NNUE is in use.
    pub fn network(&self) -> Option<&Arc<Network>> {
        match self {
            GameEval::Classical(_) => None,
            GameEval::Nnue(eval) => Some(eval.network()),
        }
    }

    /// One line for `info string` / diagnostics: which evaluation is in use.
    pub fn describe(&self) -> String {
        match self {
            GameEval::Classical(_) => format!("classical {} evaluation", G::NAME),
            GameEval::Nnue(eval) => {
                let net = eval.network();
                format!(
                    "NNUE {} net '{}' from {} (l1 {}{}, {:?})",
                    G::NAME,
                    net.header().name,
                    net.source(),
                    net.arch().l1,
                    king_buckets_note(net.arch()),
                    eval.simd_level()
                )
            }
        }
    }
}

impl<G: NnueGame> Evaluator<G> for GameEval<G> {
    #[inline]
    fn reset(&mut self, root: &G) {
        match self {
            GameEval::Classical(e) => e.reset(root),
            GameEval::Nnue(e) => e.reset(root),
        }
    }

    #[inline]
    fn push(&mut self, child: &G) {
        match self {
            GameEval::Classical(e) => e.push(child),
            GameEval::Nnue(e) => e.push(child),
        }
    }

    #[inline]
    fn pop(&mut self) {
        match self {
            GameEval::Classical(e) => e.pop(),
            GameEval::Nnue(e) => e.pop(),
        }
    }

    #[inline]
    fn evaluate(&mut self, pos: &G) -> i32 {
        match self {
            GameEval::Classical(e) => e.evaluate(pos),
            GameEval::Nnue(e) => e.evaluate(pos),
        }
    }
}

/// `", N king buckets"` for a net with more than one king bucket (nets with one, every net before
/// the bucket variants, are described as before).
pub fn king_buckets_note(arch: &super::Architecture) -> String {
    match arch.king_buckets {
        1 => String::new(),
        n => format!(", {n} king buckets"),
    }
}
