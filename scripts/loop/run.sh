#!/usr/bin/env bash
# The network loop of one game, run for days: generation after generation of
#   generate (self-play with the current best net; the verified run joins the game's data pool)
#   → train (on the whole pool) → SPRT against the current best → promote or generate more.
# Everything lives in $SENTE_DATA/$GAME (default ~/sente-data); the repository is never touched
# (scripts/loop/publish.sh copies promoted nets into nets/). Kill it at any moment and start it
# again with the same command: every step resumes or restarts from its last complete state.
#
#   scripts/loop/run.sh install            # copy target/release binaries to $SENTE_DATA/bin
#   PGO=1 scripts/loop/run.sh install      # the same with profile-guided sente and datagen
#   GAME=chess nohup nice -n 10 scripts/loop/run.sh > ~/sente-data/chess/loop.log 2>&1 &
#   GAME=chess scripts/loop/stop.sh        # stop it and what it runs (before a restart)
#
# Settings (environment): NODES per move (1250: at equal datagen CPU, chess data at 1,250 nodes
# trained a net +60 ± 40 Elo stronger than data at 2,500 nodes, see docs/measurements.md), POSITIONS of new data per attempt (3000000),
# GEN_THREADS for datagen (1), THREADS for training and matches (2), SUPERBATCHES / BATCHES /
# BATCH / LR / WDL / VAL_EVERY / TRAIN_FLAGS for the trainer (160 superbatches: on chess gen 3's
# 7.9M positions 80 beat 40 by +95 and 160 beat 80 by +36; shogi's 3.6M positions gained +18 ± 19
# from 40 to 80, so the shogi loop runs with SUPERBATCHES=80; see docs/measurements.md),
# MATCH_PAIRS (1500: 400 left a +26.1 ± 20.0 chess net undecided at LLR 2.06) / MATCH_NODES / SPRT
# for the promotion match, MATCH_EXTRA_ROUNDS (4) rounds of MATCH_EXTRA_PAIRS (250) more pairs
# that an SPRT still undecided after MATCH_PAIRS goes on with (chess gen 14 stood at +10.8 ± 10.3,
# LLR 2.09, after 1,500 pairs; a second SPRT passed it in 867 more) while its merged LLR is at
# least MATCH_EXTRA_MIN_LLR (0: leaning toward H1; chess gen 15 attempt 3 stood at +1.6 ± 10.5,
# LLR −1.18, after 1,500 pairs) (MATCH_A_NODES: the new net's own node limit, default MATCH_NODES, for a
# new net slower than the best, e.g. a wider one: give it the nodes it searches in the same time;
# `auto` measures that with `sente bench`, see node_odds.sh, and keeps it in the attempt's
# node-odds.txt),
# DATAGEN_SEARCH: the self-play search switches (`datagen run --search`; unset: datagen's default,
# which keeps material scaling out of the recorded scores), MAX_GEN to stop after a generation, MAX_ATTEMPTS to stop when a generation has been rejected
# that many times (a bounded run: a cluster job's slot, a test), RESCORE_POSITIONS (0: off) /
# RESCORE_NODES (1000) for rescoring: after each promotion, before the next generation's first
# data, the oldest pool files (generation below the new one; oldest generation first, then in
# manifest order) until their positions reach RESCORE_POSITIONS are labelled again by the new best
# net at RESCORE_NODES nodes (`datagen rescore`, GEN_THREADS threads), join the pool as data of the
# new generation and their sources are retired to pool/retired/ (a chess gen-7 file rescored by
# gen 10 trained +23.7 ± 15.6 over its old labels, see docs/retraining.md). INIT=best starts each
# attempt's training from the current best net's weights instead of random ones (`tuner train
# --init`: fine-tuning; its width is the best net's, so leave --l1 out of TRAIN_FLAGS or give the
# same, and give a lower LR), for a pool too small to train a stronger net from scratch.
set -euo pipefail
ROOT="${SENTE_LOOP_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
SENTE_DATA="${SENTE_DATA:-$HOME/sente-data}"
BIN="$SENTE_DATA/bin"

if [ "${1:-}" = install ]; then
    (cd "$ROOT" && cargo build --release -q -p sente -p datagen -p tuner)
    # PGO=1: sente and datagen from the profile-guided build (same behaviour, faster self-play).
    from=(sente:release datagen:release tuner:release)
    if [ "${PGO:-0}" = 1 ]; then
        "$ROOT/scripts/build-pgo.sh" > /dev/null
        from=(sente:pgo/release datagen:pgo/release tuner:release)
    fi
    mkdir -p "$BIN"
    for entry in "${from[@]}"; do
        tool="${entry%%:*}"
        cp "$ROOT/target/${entry#*:}/$tool" "$BIN/$tool.tmp" && mv "$BIN/$tool.tmp" "$BIN/$tool"
    done
    echo "installed $(cd "$ROOT" && git rev-parse --short HEAD) binaries in $BIN${PGO:+ (PGO=$PGO)}"
    exit 0
fi

GAME="${GAME:?set GAME=chess or GAME=shogi}"
# bash reads a script as it runs it, so an edit or checkout of the repository would change a loop
# under way mid-command: the loop runs from a private copy of scripts/loop, removed when it ends.
if [ -z "${SENTE_LOOP_COPY:-}" ]; then
    COPY="$(mktemp -d "${TMPDIR:-/tmp}/sente-loop.XXXXXX")"
    cp "$ROOT"/scripts/loop/*.sh "$COPY/"
    SENTE_LOOP_COPY="$COPY" SENTE_LOOP_ROOT="$ROOT" exec bash "$COPY/run.sh" "$@"
fi
trap 'rm -rf "$SENTE_LOOP_COPY"' EXIT
NODES="${NODES:-1250}"
POSITIONS="${POSITIONS:-3000000}"
GEN_THREADS="${GEN_THREADS:-1}"
THREADS="${THREADS:-2}"
SUPERBATCHES="${SUPERBATCHES:-160}"
BATCHES="${BATCHES:-50}"
BATCH="${BATCH:-16384}"
LR="${LR:-cosine:0.001:0.00003}"
WDL="${WDL:-0.0}"
VAL_EVERY="${VAL_EVERY:-20}"
TRAIN_FLAGS="${TRAIN_FLAGS:-}"
MATCH_PAIRS="${MATCH_PAIRS:-1500}"
MATCH_NODES="${MATCH_NODES:-5000}"
MATCH_A_NODES="${MATCH_A_NODES:-$MATCH_NODES}"
MATCH_EXTRA_ROUNDS="${MATCH_EXTRA_ROUNDS:-4}"
MATCH_EXTRA_PAIRS="${MATCH_EXTRA_PAIRS:-250}"
MATCH_EXTRA_MIN_LLR="${MATCH_EXTRA_MIN_LLR:-0}"
SPRT="${SPRT:-0,10}"
MAX_GEN="${MAX_GEN:-1000}"
MAX_ATTEMPTS="${MAX_ATTEMPTS:-1000000}"
RESCORE_POSITIONS="${RESCORE_POSITIONS:-0}"
RESCORE_NODES="${RESCORE_NODES:-1000}"
INIT="${INIT:-}"
case "$INIT" in
    "" | best) ;;
    *) echo "INIT=$INIT: give INIT=best (start training from the best net) or leave it unset" >&2; exit 1 ;;
esac

[ -x "$BIN/datagen" ] || { echo "no binaries in $BIN: run scripts/loop/run.sh install" >&2; exit 1; }
cd "$SENTE_DATA"
mkdir -p "$GAME/runs" "$GAME/nets"
# One loop per game: a second one started by mistake stops here. The lock is released when the
# loop and every command it started have exited (they inherit it), so a step left running by a
# killed loop also keeps a new loop out. The file names the holder for scripts/loop/stop.sh.
exec 9>> "$GAME/loop.lock"
if ! flock -n 9; then
    echo "$(date '+%F %T') $GAME: another loop of $GAME is running (holds $SENTE_DATA/$GAME/loop.lock); stopping" >&2
    exit 1
fi
echo "$$" > "$GAME/loop.lock"
log() { echo "$(date -u '+%F %T') $GAME: $*"; }
# shellcheck source=match_summary.sh
source "$SENTE_LOOP_COPY/match_summary.sh"

# Whether the last LLR of a match output is at least $2 (an undecided SPRT leaning toward H0 is
# not worth more rounds: a net at +2 stays undecided for thousands of games).
llr_at_least() {
    local llr
    llr="$(grep -oE "LLR [-0-9.]+" "$1" | tail -1 | cut -d' ' -f2)"
    awk -v llr="${llr:-0}" -v min="$2" 'BEGIN { exit !(llr >= min) }'
}

# Pairs a match result file holds.
result_pairs() { awk -F'[= ]' '/^pentanomial=/ { print $2 + $3 + $4 + $5 + $6 }' "$1"; }

# play_round K PAIRS SEED [FLAGS...]: round K of the attempt's promotion match ($W, $NET, $BEST,
# $A_NODES), PAIRS pairs, output in match-rK.txt. What an interrupted run of the round left
# (its result file, kept current while it ran) becomes a piece of the round, and the round goes
# on from its pieces with the pairs still to play, on openings of a seed of its own.
play_round() {
    local K="$1" PAIRS="$2" BASE_SEED="$3"
    shift 3
    if [ -f "$W/match-r$K.result" ]; then
        local P=1
        while [ -f "$W/match-r$K-p$P.result" ]; do P=$((P + 1)); done
        mv "$W/match-r$K.result" "$W/match-r$K-p$P.result"
    fi
    local PIECES=() DONE=0 PIECE
    for PIECE in "$W"/match-r"$K"-p*.result; do
        [ -f "$PIECE" ] || continue
        PIECES+=("$PIECE")
        DONE=$((DONE + $(result_pairs "$PIECE")))
    done
    local PRIOR=() LEFT=$((PAIRS - DONE))
    if [ "${#PIECES[@]}" -gt 0 ]; then
        PRIOR=(--prior "${PIECES[@]}")
        [ "$LEFT" -ge 0 ] || LEFT=0
        log "gen $GEN attempt $A: round $K goes on from $DONE pairs an interrupted run left; $LEFT to play"
    fi
    "$BIN/datagen" match --game "$GAME" --a "$NET" --b "$BEST" --pairs "$LEFT" \
        --nodes "$MATCH_NODES" --a-nodes "$A_NODES" --threads "$THREADS" \
        --seed "$((BASE_SEED + 7919 * ${#PIECES[@]}))" --result "$W/match-r$K.result" \
        "${PRIOR[@]}" "$@" > "$W/match.tmp" 2>&1
    mv "$W/match.tmp" "$W/match-r$K.txt"
}
# shellcheck source=node_odds.sh
source "$SENTE_LOOP_COPY/node_odds.sh"

# The current best: "<generation> <net path relative to $SENTE_DATA>", seeded on the first start
# from the repo's embedded default, whose generation is the number of the game's promotions in
# nets/history.tsv.
BEST_FILE="$GAME/best.txt"
if [ ! -f "$BEST_FILE" ]; then
    HASH="$(sha256sum "$ROOT/nets/$GAME-default.nnue" | cut -c1-12)"
    cp "$ROOT/nets/$GAME-default.nnue" "$GAME/nets/$GAME-$HASH.nnue"
    SEED_GEN="$(grep -c "^$GAME	" "$ROOT/nets/history.tsv" || true)"
    echo "${SEED_GEN:-0} $GAME/nets/$GAME-$HASH.nnue" > "$BEST_FILE"
fi

# Whether the pool's manifest lists FILE.
pool_lists() {
    awk -F'\t' -v file="$1" 'NR > 2 && $1 == file { found = 1 } END { exit !found }' "$GAME/pool/pool.tsv"
}

# Rescoring for generation GEN, whose best net BEST has just been promoted. The stale files (pool
# generation < GEN) to rescore are chosen once, oldest generation first (ties: manifest order),
# until their positions reach RESCORE_POSITIONS, and fixed in gen$GEN/rescore/files.txt so that a
# resumed run sees the same list. Each file is rescored by BEST into gen$GEN/rescore/, the copy joins
# the pool as generation GEN (its labels now come from the net that plays GEN's data), then the
# source is retired to pool/retired/. A marker per step, and the manifest where a kill could fall
# between a command and its marker, make every step happen once whenever the loop is killed.
rescore_stale() {
    local dir="$GAME/gen$GEN/rescore" pool="$GAME/pool"
    local list="$dir/files.txt"
    if [ ! -f "$list" ]; then
        [ -f "$pool/pool.tsv" ] || return 0
        local chosen
        # Rows "generation positions file" of the stale files, oldest first (a stable sort keeps
        # the manifest order of one generation), taken while the positions are short of the goal.
        chosen="$(tail -n +3 "$pool/pool.tsv" \
            | awk -F'\t' -v gen="$GEN" '$2 + 0 < gen + 0 { print $2 "\t" $8 "\t" $1 }' \
            | sort -s -t $'\t' -k1,1n \
            | awk -F'\t' -v want="$RESCORE_POSITIONS" 'NR == 1 || sum < want + 0 { print; sum += $2 }')"
        [ -n "$chosen" ] || return 0
        mkdir -p "$dir"
        cut -f3 <<< "$chosen" > "$list.tmp" && mv "$list.tmp" "$list"
        log "gen $GEN: chose $(wc -l < "$list") stale pool files of generations" \
            "$(cut -f1 <<< "$chosen" | uniq | paste -sd, -), $(awk -F'\t' '{ sum += $2 } END { printf "%.0f", sum }' <<< "$chosen")" \
            "positions, to rescore with $BEST at $RESCORE_NODES nodes (list: $list)"
    fi
    [ ! -f "$dir/done" ] || return 0
    local files file stem out seed nodes label
    mapfile -t files < "$list"
    for file in "${files[@]}"; do
        stem="$dir/${file%.bin}"
        if [ ! -f "$stem.rescored" ]; then
            out="$stem-n$RESCORE_NODES"
            log "gen $GEN: rescoring $file at $RESCORE_NODES nodes -> $out"
            "$BIN/datagen" rescore --game "$GAME" --net "$BEST" --nodes "$RESCORE_NODES" \
                --threads "$GEN_THREADS" --out "$out" "$pool/$file" >> "$stem.log" 2>&1
            echo "$out" > "$stem.rescored.tmp" && mv "$stem.rescored.tmp" "$stem.rescored"
        fi
        out="$(cat "$stem.rescored")"
        if [ ! -f "$stem.added" ]; then
            # A duplicate is refused by `pool add`, so a copy that joined the pool before a kill is
            # found in the manifest (the rescoring's series: evaluator, nodes, seed) and not added again.
            seed="$(sed -n 's/^seed=//p' "$out/run.txt")"
            nodes="$(sed -n 's/^nodes=//p' "$out/run.txt")"
            label="$(cat "$out/evaluator.txt")"
            if awk -F'\t' -v label="$label" -v nodes="$nodes" -v seed="$seed" \
                'NR > 2 && $3 == label && $4 == nodes && $5 == seed { found = 1 } END { exit !found }' \
                "$pool/pool.tsv"; then
                log "gen $GEN: the rescored copy of $file is already in the pool"
            else
                "$BIN/datagen" pool add --pool "$pool" --game "$GAME" --generation "$GEN" \
                    --net "$BEST" "$out" >> "$dir/pool.txt" 2>&1
                log "gen $GEN: added the rescored copy of $file to the pool as generation $GEN"
            fi
            touch "$stem.added"
        fi
        if [ ! -f "$stem.retired" ]; then
            if pool_lists "$file"; then
                "$BIN/datagen" pool retire --pool "$pool" "$file" >> "$dir/pool.txt" 2>&1
                log "gen $GEN: retired $file to $pool/retired/"
            else
                log "gen $GEN: $file is already retired"
            fi
            # `pool retire` rewrites the manifest before it moves the files: a kill in between
            # leaves them unlisted in the pool. Finish the move.
            for name in "$file" "$file.run.txt"; do
                if [ -e "$pool/$name" ] && [ ! -e "$pool/retired/$name" ]; then
                    mkdir -p "$pool/retired" && mv "$pool/$name" "$pool/retired/$name"
                fi
            done
            touch "$stem.retired"
        fi
    done
    "$BIN/datagen" pool list "$pool" >> "$dir/pool.txt" 2>&1
    touch "$dir/done"
    log "gen $GEN: rescoring done"
}

while true; do
    read -r BEST_GEN BEST < "$BEST_FILE"
    GEN=$((BEST_GEN + 1))
    [ "$GEN" -le "$MAX_GEN" ] || { log "MAX_GEN $MAX_GEN reached"; exit 0; }
    # Attempt A of generation GEN: its data run, training and match. A failed SPRT starts the next
    # attempt, which adds more data with the same evaluator; the pool keeps everything.
    A=1
    while [ -f "$GAME/gen$GEN/a$A/rejected" ]; do A=$((A + 1)); done
    [ "$A" -le "$MAX_ATTEMPTS" ] || { log "gen $GEN: MAX_ATTEMPTS $MAX_ATTEMPTS rejected"; exit 0; }
    W="$GAME/gen$GEN/a$A"
    SEED=$((GEN * 10 + A))
    RUN="$GAME/runs/gen$GEN-n$NODES-s$SEED"
    mkdir -p "$W"

    # Rescoring starts before attempt 1 generates (never once an attempt's training set may be
    # fixed); a rescoring once started is finished.
    if { [ "$RESCORE_POSITIONS" -gt 0 ] && [ "$A" -eq 1 ] && [ ! -f "$W/generated" ]; } \
        || [ -f "$GAME/gen$GEN/rescore/files.txt" ]; then
        rescore_stale
    fi
    if [ ! -f "$W/generated" ]; then
        log "gen $GEN attempt $A: generating $POSITIONS positions at $NODES nodes with $BEST -> $RUN"
        "$BIN/datagen" run --game "$GAME" --positions "$POSITIONS" --nodes "$NODES" \
            --threads "$GEN_THREADS" --seed "$SEED" --net "$BEST" --out "$RUN" \
            ${DATAGEN_SEARCH+--search "$DATAGEN_SEARCH"} >> "$W/datagen.log" 2>&1
        touch "$W/generated"
    fi
    if [ ! -f "$W/pooled" ]; then
        # Verifies every chunk and game, refuses duplicates, copies the run into the pool and
        # updates its manifest (pool.tsv) atomically.
        "$BIN/datagen" pool add --pool "$GAME/pool" --game "$GAME" --generation "$GEN" \
            --net "$BEST" "$RUN" > "$W/pool-add.txt" 2>&1
        "$BIN/datagen" pool list "$GAME/pool" >> "$W/pool-add.txt" 2>&1
        touch "$W/pooled"
    fi

    NET="$W/train/$GAME-gen$GEN.nnue"
    if [ ! -f "$W/trained" ]; then
        # The training set is fixed when an attempt first trains (a resumed run must see the same
        # files): every file of the pool's manifest.
        [ -f "$W/data.txt" ] || tail -n +3 "$GAME/pool/pool.tsv" | cut -f1 | sed "s|^|$GAME/pool/|" > "$W/data.txt"
        mapfile -t DATA < "$W/data.txt"
        INIT_FLAGS=()
        [ "$INIT" != best ] || INIT_FLAGS=(--init "$BEST")
        log "gen $GEN attempt $A: training on ${#DATA[@]} data files${INIT:+ from $BEST}"
        # shellcheck disable=SC2086
        "$BIN/tuner" train --game "$GAME" --data "${DATA[@]}" --superbatches "$SUPERBATCHES" \
            --batches "$BATCHES" --batch "$BATCH" --lr "$LR" --wdl "$WDL" --val-every "$VAL_EVERY" \
            --threads "$THREADS" --seed "$SEED" --name "$GAME-gen$GEN" --out "$W/train" $TRAIN_FLAGS \
            "${INIT_FLAGS[@]}" >> "$W/train.log" 2>&1
        "$BIN/datagen" stats --game "$GAME" "${DATA[@]}" > "$W/data-stats.txt" 2>&1
        touch "$W/trained"
    fi

    A_NODES="$MATCH_A_NODES"
    if [ "$A_NODES" = auto ]; then
        if [ ! -f "$W/node-odds.txt" ] && [ ! -f "$W/match.txt" ]; then
            if node_odds "$BIN/sente" "$GAME" "$NET" "$BEST" "$MATCH_NODES" > "$W/node-odds.tmp"; then
                mv "$W/node-odds.tmp" "$W/node-odds.txt"
            else
                log "gen $GEN attempt $A: the speed measurement failed; equal nodes"
                echo "$MATCH_NODES 1.000" > "$W/node-odds.txt"
            fi
        fi
        A_NODES="$MATCH_NODES"
        RATIO=1.000
        [ -f "$W/node-odds.txt" ] && read -r A_NODES RATIO < "$W/node-odds.txt"
        log "gen $GEN attempt $A: node odds $A_NODES against $MATCH_NODES (speed ratio $RATIO)"
    fi
    if [ ! -f "$W/match.txt" ]; then
        # Round 1 is the SPRT proper (it stops at a verdict or after MATCH_PAIRS pairs). An
        # undecided round 1 goes on in rounds of MATCH_EXTRA_PAIRS pairs with seeds of their own,
        # each merged with the rounds before (`datagen match-merge`: the SPRT over all their
        # games), until the merged SPRT decides or MATCH_EXTRA_ROUNDS rounds have been added. Each
        # round's output and result file are kept (match-rK.txt / .result). A round a kill
        # interrupted keeps the pairs it finished: `datagen match` keeps its result file current,
        # a resumed loop keeps that file as a piece of the round (match-rK-pN.result) and plays
        # only the round's remaining pairs, on openings of a seed of their own, going on from the
        # pieces (`--prior`: the SPRT counts their games too).
        if [ ! -f "$W/match-r1.txt" ]; then
            log "gen $GEN attempt $A: SPRT [$SPRT] of $NET against $BEST"
            play_round 1 "$MATCH_PAIRS" "$((SEED + 1000))" --sprt="$SPRT"
        fi
        cp "$W/match-r1.txt" "$W/match-merged.txt"
        ROUND=1
        while ! grep -qE "AcceptH[01]" "$W/match-merged.txt" && [ "$ROUND" -le "$MATCH_EXTRA_ROUNDS" ] \
            && { [ -f "$W/match-r$((ROUND + 1)).txt" ] || [ -f "$W/match-r$((ROUND + 1)).result" ] \
                || llr_at_least "$W/match-merged.txt" "$MATCH_EXTRA_MIN_LLR"; }; do
            ROUND=$((ROUND + 1))
            if [ ! -f "$W/match-r$ROUND.txt" ]; then
                log "gen $GEN attempt $A: SPRT undecided ($(match_summary "$W/match-merged.txt" "$SPRT")); round $ROUND: $MATCH_EXTRA_PAIRS more pairs"
                play_round "$ROUND" "$MATCH_EXTRA_PAIRS" "$((SEED + 1000 + 100000 * ROUND))"
            fi
            RESULTS=()
            for ((K = 1; K <= ROUND; K++)); do
                RESULTS+=("$W/match-r$K.result")
                for PIECE in "$W"/match-r"$K"-p*.result; do
                    [ -f "$PIECE" ] && RESULTS+=("$PIECE")
                done
            done
            "$BIN/datagen" match-merge --sprt="$SPRT" "${RESULTS[@]}" > "$W/match-merged.txt" 2>&1
        done
        if ! grep -qE "AcceptH[01]" "$W/match-merged.txt" && [ "$ROUND" -le "$MATCH_EXTRA_ROUNDS" ]; then
            log "gen $GEN attempt $A: SPRT undecided and leaning toward H0 ($(match_summary "$W/match-merged.txt" "$SPRT") below MATCH_EXTRA_MIN_LLR $MATCH_EXTRA_MIN_LLR): no more rounds"
        fi
        mv "$W/match-merged.txt" "$W/match.txt"
    fi
    ODDS=""
    if [ "$A_NODES" != "$MATCH_NODES" ]; then
        ODDS=", $A_NODES against $MATCH_NODES nodes"
    fi
    RESULT="$(match_summary "$W/match.txt" "$SPRT")$ODDS"
    log "gen $GEN attempt $A: $RESULT"

    if grep -q "AcceptH1" "$W/match.txt"; then
        HASH="$(sha256sum "$NET" | cut -c1-12)"
        NAME="$GAME-$HASH.nnue"
        cp "$NET" "$GAME/nets/$NAME"
        POS="$(grep -oE "[0-9]+ scored positions" "$W/data-stats.txt" | cut -d' ' -f1)"
        GAMES_DONE="$(grep -oE "data: [0-9]+ games" "$W/data-stats.txt" | cut -d' ' -f2)"
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$GAME" "$NAME" "$GAME-$(sha256sum "$BEST" | cut -c1-12).nnue" \
            "$GAMES_DONE" "$POS" "$NODES" "$SEED (pool: $(wc -l < "$W/data.txt") runs)" \
            "sb=$SUPERBATCHES x $BATCHES x $BATCH lr=$LR wdl=$WDL $TRAIN_FLAGS${INIT:+ (fine-tuned from the parent)}" "$RESULT" \
            "$(date -u +%F)" >> "$GAME/promotions.tsv"
        echo "$GEN $GAME/nets/$NAME" > "$BEST_FILE.tmp" && mv "$BEST_FILE.tmp" "$BEST_FILE"
        log "gen $GEN promoted: $NAME (publish it with scripts/loop/publish.sh)"
    else
        touch "$W/rejected"
        log "gen $GEN attempt $A rejected; generating more data with the same net"
    fi
done
