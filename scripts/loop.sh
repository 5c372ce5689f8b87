#!/usr/bin/env bash
# Thin wrapper of `datagen loop` (the network loop of one game; docs/retraining.md):
#   scripts/loop.sh install            # build, copy datagen/sente/tuner to $SENTE_DATA/bin
#   PGO=1 scripts/loop.sh install      # the same with profile-guided sente and datagen
#   scripts/loop.sh start GAME [CONFIG] # in the background at nice 15, log in $SENTE_DATA/GAME/loop.log
#   scripts/loop.sh stop GAME          # stop it (it resumes from its state when started again)
#   scripts/loop.sh publish GAME [CONFIG] # copy its promotions into nets/ (then rebuild, commit)
#   scripts/loop.sh status GAME [CONFIG]
#   scripts/loop.sh efficiency GAME [CONFIG] # CPU-hours, work per CPU-second, Elo per CPU-hour
# CONFIG defaults to datagen/loop/GAME.toml; SENTE_DATA (~/sente-data) must be the config's `data`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SENTE_DATA="${SENTE_DATA:-$HOME/sente-data}"
BIN="$SENTE_DATA/bin"
command="${1:?usage: scripts/loop.sh install|start|stop|publish|status|efficiency [GAME] [CONFIG]}"
if [ "$command" = install ]; then
    (cd "$ROOT" && cargo build --release -q -p sente -p datagen -p tuner)
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
    echo "installed $(cd "$ROOT" && git rev-parse --short HEAD) binaries in $BIN"
    exit 0
fi
GAME="${2:?name the game: chess or shogi}"
CONFIG="${3:-$ROOT/datagen/loop/$GAME.toml}"
DATAGEN="$BIN/datagen"
[ -x "$DATAGEN" ] || DATAGEN="$ROOT/target/release/datagen"
case "$command" in
    start)
        mkdir -p "$SENTE_DATA/$GAME"
        nohup nice -n 15 "$DATAGEN" loop --config "$CONFIG" >> "$SENTE_DATA/$GAME/loop.log" 2>&1 &
        echo "started the $GAME loop (process $!), log $SENTE_DATA/$GAME/loop.log"
        ;;
    publish) exec "$DATAGEN" loop --config "$CONFIG" --publish ;;
    status) exec "$DATAGEN" loop --config "$CONFIG" --status ;;
    efficiency) exec "$DATAGEN" loop --config "$CONFIG" --efficiency ;;
    stop)
        # The loop holds GAME/loop.lock and writes its process id there.
        LOCK="$SENTE_DATA/$GAME/loop.lock"
        [ -f "$LOCK" ] || { echo "stop: no loop of $GAME has run in $SENTE_DATA"; exit 0; }
        exec 9< "$LOCK"
        if flock -n 9; then echo "stop: no loop of $GAME is running"; exit 0; fi
        PID="$(head -n 1 "$LOCK")"
        descendants() {
            local child
            for child in $(ps -o pid= --ppid "$1"); do echo "$child"; descendants "$child"; done
        }
        # Only a live loop: `datagen loop`, or the shell loop (run.sh) this program replaced,
        # whose steps (datagen, tuner) are its descendants and hold its lock too.
        if [[ "$PID" =~ ^[0-9]+$ ]] && tr '\0' ' ' < "/proc/$PID/cmdline" 2>/dev/null | grep -qE " loop |run\.sh"; then
            mapfile -t TREE < <(descendants "$PID")
            kill -TERM "$PID" "${TREE[@]}" 2>/dev/null || true
            echo "stop: sent TERM to the loop of $GAME (process $PID) and ${#TREE[@]} processes it started"
        fi
        flock -w "${WAIT:-60}" 9 || { echo "stop: $LOCK is still held" >&2; exit 1; }
        echo "stop: the loop of $GAME has stopped"
        ;;
    *) echo "unknown command $command" >&2; exit 2 ;;
esac
