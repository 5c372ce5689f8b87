# Shared settings of the network loop scripts (sourced, not run).
# Every step reads GAME (chess|shogi) and GEN (generation number) and works in
# $SENTE_DATA/$GAME/gen$GEN (default SENTE_DATA=~/sente-data): bulk data never enters the repo.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
GAME="${GAME:?set GAME=chess or GAME=shogi}"
GEN="${GEN:?set GEN to the generation number (1 = trained on classical-evaluator data)}"
SENTE_DATA="${SENTE_DATA:-$HOME/sente-data}"
WORK="$SENTE_DATA/$GAME/gen$GEN"
THREADS="${THREADS:-$(nproc)}"
NODES="${NODES:-1250}"  # as run.sh
GAMES="${GAMES:-20000}"
SEED="${SEED:-$GEN}"
SUPERBATCHES="${SUPERBATCHES:-160}"  # as run.sh (docs/measurements.md)
BATCHES="${BATCHES:-50}"
BATCH="${BATCH:-16384}"
LR="${LR:-cosine:0.001:0.00003}"
WDL="${WDL:-0.0}"
VAL_EVERY="${VAL_EVERY:-20}"
MATCH_PAIRS="${MATCH_PAIRS:-1500}"  # as run.sh
MATCH_NODES="${MATCH_NODES:-5000}"
SPRT="${SPRT:-0,10}"
BIN="$ROOT/target/release"
mkdir -p "$WORK"

build() {
    (cd "$ROOT" && cargo build --release -q -p sente -p datagen -p tuner)
}

# The evaluator generation $GEN plays with: the current best net of the game, or the classical
# evaluator for generation 1.
current_best() {
    local best="$ROOT/nets/$GAME-default.nnue"
    if [ "$GEN" -le 1 ] || [ ! -f "$best" ]; then echo classical; else echo "$best"; fi
}
