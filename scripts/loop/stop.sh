#!/usr/bin/env bash
# Stops the network loop of one game and every command it started (datagen, tuner, a match),
# then waits until its lock is free, so the loop can be started again at once with other
# settings; everything the loop does resumes from its last complete state.
#
#   GAME=chess scripts/loop/stop.sh
#
# The loop (scripts/loop/run.sh) holds $SENTE_DATA/$GAME/loop.lock and writes its process id
# there. Stopping by that id, rather than by matching command lines, cannot miss the loop or hit
# another game's; the commands it started are found as its descendants. A command that outlived
# an earlier, killed loop still holds the lock (it inherited it) and is named in the error.
set -euo pipefail
SENTE_DATA="${SENTE_DATA:-$HOME/sente-data}"
GAME="${GAME:?set GAME=chess or GAME=shogi}"
LOCK="$SENTE_DATA/$GAME/loop.lock"
WAIT="${WAIT:-60}"
if [ ! -f "$LOCK" ]; then
    echo "stop: no loop of $GAME has run in $SENTE_DATA"
    exit 0
fi
exec 9< "$LOCK"
if flock -n 9; then
    echo "stop: no loop of $GAME is running"
    exit 0
fi
LOOP="$(head -n 1 "$LOCK")"
descendants() {
    local child
    for child in $(ps -o pid= --ppid "$1"); do
        echo "$child"
        descendants "$child"
    done
}
# Only a live loop script: an id that outlived its loop may since name another process.
if [[ "$LOOP" =~ ^[0-9]+$ ]] && tr '\0' ' ' 2>/dev/null < "/proc/$LOOP/cmdline" | grep -q "run.sh"; then
    # The tree first, so no step is left without its loop; the loop then ends on its signal.
    mapfile -t TREE < <(descendants "$LOOP")
    kill -TERM "$LOOP" "${TREE[@]}" 2>/dev/null || true
    echo "stop: sent TERM to the loop of $GAME (process $LOOP) and ${#TREE[@]} commands it started"
fi
if ! flock -w "$WAIT" 9; then
    holders="$(fuser "$LOCK" 2>/dev/null || true)"
    echo "stop: $LOCK is still held after $WAIT s (processes:${holders:- unknown}); stop them and retry" >&2
    exit 1
fi
echo "stop: the loop of $GAME has stopped"
