# shellcheck shell=bash
# Node odds for a promotion match between nets of different speed (sourced, not run). A wider net
# searches fewer nodes in the same time, so an equal-node match flatters it; the loop's
# MATCH_A_NODES=auto gives the new net the nodes it searches in the time the best net searches
# MATCH_NODES. Nets of the same file size share an architecture and play at equal nodes; otherwise
# `sente bench GAME --net` runs ROUNDS times for each net, alternating, and its nodes per second
# of CPU time (not wall time: the loop's machine is busy, and a descheduled process is not slower)
# give a speed ratio per round; the median ratio scales the node count (within 1/4 to 4 times).
#
#   node_odds SENTE GAME NEW_NET BEST_NET NODES [ROUNDS]   # → "NODES_FOR_NEW RATIO"

# Nodes per CPU second of `SENTE bench GAME --net NET`.
node_odds_speed() {
    local sente="$1" game="$2" net="$3" out nodes cpu
    out="$( { TIMEFORMAT='cpu %3U %3S'; time "$sente" bench "$game" --net "$net" 2>&1; } 2>&1 )"
    nodes="$(grep -oE 'Nodes searched *: *[0-9]+' <<< "$out" | grep -oE '[0-9]+$' || true)"
    cpu="$(grep -oE '^cpu [0-9.]+ [0-9.]+' <<< "$out" | awk '{ print $2 + $3 }' || true)"
    awk -v n="$nodes" -v c="$cpu" 'BEGIN { if (n > 0 && c > 0) printf "%d\n", n / c }'
}

node_odds() {
    local sente="$1" game="$2" new="$3" best="$4" nodes="$5" rounds="${6:-5}" ratios=() i a b
    if [ "$(stat -c %s "$new")" = "$(stat -c %s "$best")" ]; then
        echo "$nodes 1.000"
        return
    fi
    for ((i = 0; i < rounds; i++)); do
        a="$(node_odds_speed "$sente" "$game" "$new")"
        b="$(node_odds_speed "$sente" "$game" "$best")"
        if [ -z "$a" ] || [ -z "$b" ] || [ "$b" -eq 0 ]; then
            echo "node_odds: sente bench gave no speed" >&2
            return 1
        fi
        ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", a / b }')")
    done
    printf '%s\n' "${ratios[@]}" | sort -g | awk -v n="$nodes" '
        { r[NR] = $1 }
        END {
            m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
            if (m < 0.25) m = 0.25
            if (m > 4) m = 4
            printf "%d %.3f\n", n * m + 0.5, m
        }'
}
