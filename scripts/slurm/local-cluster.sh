#!/usr/bin/env bash
# A real one-node Slurm cluster on this machine, to test the scale-out scripts end to end:
#  1. installs Debian's slurm-wlm and munge if missing (needs root and apt);
#  2. writes a one-node slurm.conf (node line from `slurmd -C`, select/cons_tres with CR_Core,
#     proctrack/linuxproc, no cgroups, no accounting) and a fresh munge key under a temporary
#     directory, and starts munged, slurmctld and slurmd on ports of their own (stopped on exit);
#  3. submits a 4-shard datagen array and its dependent pool-add job, and a 4-shard match array
#     and its dependent match-merge job;
#  4. waits for them, then checks that the pool holds exactly the games of one unsharded run
#     with the same seed (`datagen digest`) and that the merged match equals the unsharded match;
#  5. runs one small generation of `datagen loop` with a `[slurm]` section (a few games in a
#     2-task generate array, a short training, a 2-task match array) and checks its pool, its
#     match shards and its state.
# Usage: scripts/slurm/local-cluster.sh   (builds datagen in release mode first)
# Settings: GAME (chess), GAMES (24), NODES (300), PAIRS (6), KEEP=1 keeps the temporary directory.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SLURM_DIR="$ROOT/scripts/slurm"
GAME="${GAME:-chess}"
GAMES="${GAMES:-24}"
NODES="${NODES:-300}"
PAIRS="${PAIRS:-6}"
SHARDS=4
START=$(date +%s)
say() { echo "[local-cluster $(($(date +%s) - START))s] $*"; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge from Debian's packages"
    if [ "$(id -u)" != 0 ]; then echo "need root to install slurm-wlm and munge" >&2; exit 1; fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq slurm-wlm munge >/dev/null
fi

say "building datagen"
(cd "$ROOT" && cargo build --release -q -p datagen)
DATAGEN="$ROOT/target/release/datagen"

WORK="$(mktemp -d /tmp/sente-slurm.XXXXXX)"
PIDS=()
cleanup() {
    local status=$?
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    if [ "$status" != 0 ]; then
        echo "--- logs (failure, status $status)"
        tail -n 20 "$WORK"/*.log "$WORK"/out/*.out 2>/dev/null || true
    fi
    if [ "${KEEP:-0}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
    exit "$status"
}
trap cleanup EXIT INT TERM
mkdir -p "$WORK"/{state,spool,munge,out,runs}
chmod 700 "$WORK" "$WORK/munge"

say "munge key and munged"
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$WORK/munge/munge.key"
munged --foreground --force --key-file="$WORK/munge/munge.key" \
    --socket="$WORK/munge/munge.socket" --pid-file="$WORK/munge/munged.pid" \
    --seed-file="$WORK/munge/munge.seed" --log-file="$WORK/munged.log" >>"$WORK/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$WORK/munge/munge.socket" ] && break; sleep 0.1; done
munge --socket="$WORK/munge/munge.socket" -n | unmunge --socket="$WORK/munge/munge.socket" >/dev/null

HOST="$(hostname -s)"
NODE_LINE="$(slurmd -C | head -n 1 | sed "s/^NodeName=[^ ]*/NodeName=$HOST/")"
CPUS="$(echo "$NODE_LINE" | grep -oE 'CPUs=[0-9]+' | cut -d= -f2)"
export SLURM_CONF="$WORK/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=sente-local
SlurmctldHost=$HOST
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$WORK/munge/munge.socket
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MinJobAge=600
DependencyParameters=kill_invalid_depend
$NODE_LINE State=UNKNOWN
PartitionName=local Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF

say "slurmctld and slurmd ($NODE_LINE)"
slurmctld -D -i -f "$SLURM_CONF" >>"$WORK/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" >>"$WORK/slurmd.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do
    sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)' && break
    sleep 0.2
done
sinfo

submit() { sbatch --parsable --chdir="$WORK/out" "$@" | cut -d';' -f1; }
COMMON="ALL,DATAGEN=$DATAGEN,GAME=$GAME,SEED=7,NODES=$NODES"
say "datagen array: $SHARDS shards of $GAMES games at $NODES nodes, then pool-add"
DG=$(submit --array=0-$((SHARDS - 1)) --cpus-per-task=1 \
    --export="$COMMON,GAMES=$GAMES,OUT=$WORK/runs/gen1,EXTRA_ARGS=--verify-nodes 200" \
    "$SLURM_DIR/datagen.sbatch")
ADD=$(submit --dependency=afterok:"$DG" \
    --export="$COMMON,OUT=$WORK/runs/gen1,POOL=$WORK/pool/$GAME,GEN=1" \
    "$SLURM_DIR/pool-add.sbatch")
NET="$ROOT/nets/$GAME-default.nnue"
[ -f "$NET" ] || NET=classical
say "match array: $SHARDS shards of $PAIRS pairs ($NET vs classical), then match-merge"
MATCH=$(submit --array=0-$((SHARDS - 1)) --cpus-per-task=1 \
    --export="$COMMON,A=$NET,B=classical,PAIRS=$PAIRS,RESULTS=$WORK/match,EXTRA_ARGS=--verify-nodes 200" \
    "$SLURM_DIR/match.sbatch")
MERGE=$(submit --dependency=afterok:"$MATCH" --export="ALL,DATAGEN=$DATAGEN,RESULTS=$WORK/match" \
    "$SLURM_DIR/match-merge.sbatch")
squeue

say "waiting for jobs $DG $ADD $MATCH $MERGE"
for _ in $(seq 600); do
    [ -z "$(squeue -h -o %i)" ] && break
    sleep 1
done
if [ -n "$(squeue -h -o %i)" ]; then echo "jobs still queued after 10 minutes" >&2; squeue; exit 1; fi
for job in "$DG" "$ADD" "$MATCH" "$MERGE"; do
    states="$(scontrol show job "$job" | grep -oE 'JobState=[A-Z_]+' | sort | uniq -c | tr -s ' ')"
    echo "job $job:$states"
    if echo "$states" | grep -vq 'JobState=COMPLETED'; then echo "job $job did not complete" >&2; exit 1; fi
done
cat "$WORK"/out/sente-pool-add-*.out
cat "$WORK/match/merged.txt"

say "checking the pool against one unsharded run with the same seed"
"$DATAGEN" run --game "$GAME" --games "$GAMES" --nodes "$NODES" --verify-nodes 200 --seed 7 \
    --threads "$CPUS" --out "$WORK/single" 2>/dev/null
POOL_DIGEST="$("$DATAGEN" digest --game "$GAME" "$WORK/pool/$GAME")"
SINGLE_DIGEST="$("$DATAGEN" digest --game "$GAME" "$WORK/single")"
echo "pool:   $POOL_DIGEST"
echo "single: $SINGLE_DIGEST"
[ "$POOL_DIGEST" = "$SINGLE_DIGEST" ] || { echo "the pool differs from the single run" >&2; exit 1; }

say "checking the merged match against one unsharded match"
"$DATAGEN" match --game "$GAME" --a-net "$NET" --b-net classical --pairs "$PAIRS" --nodes "$NODES" \
    --verify-nodes 200 --seed 7 --threads "$CPUS" --result "$WORK/whole-match.txt" >/dev/null
WHOLE="$("$DATAGEN" match-merge --sprt 0,10 "$WORK/whole-match.txt")"
[ "$WHOLE" = "$(cat "$WORK/match/merged.txt")" ] || {
    echo "the merged match differs from the unsharded one:"; echo "$WHOLE"; exit 1; } >&2
say "OK: pool = single run ($POOL_DIGEST), merged match = unsharded match"

say "datagen loop with [slurm]: one small generation"
mkdir -p "$WORK/loop/repo/nets"
cp "$ROOT/nets/$GAME-default.nnue" "$WORK/loop/repo/nets/"
: > "$WORK/loop/repo/nets/history.tsv"
cat > "$WORK/loop/loop.toml" <<TOML
game = "$GAME"
data = "data"
repository = "repo"
max_attempts = 1
[generate]
nodes = 50
games = 8
[train]
superbatches = 1
batches = 2
batch = 256
val_every = 4
threads = 1
[match]
pairs = 2
nodes = 100
extra_rounds = 0
threads = 1
[slurm]
shards = 2
cpus_per_task = 1
datagen = "$DATAGEN"
TOML
"$DATAGEN" loop --config "$WORK/loop/loop.toml" | tee "$WORK/loop.log"
LOOP_GAME="$WORK/loop/data/$GAME"
SHARDS_POOLED="$(tail -n +3 "$LOOP_GAME/pool/pool.tsv" | wc -l)"
[ "$SHARDS_POOLED" = 2 ] || { echo "the loop's pool holds $SHARDS_POOLED files, not the 2 shards" >&2; exit 1; }
"$DATAGEN" verify --game "$GAME" "$LOOP_GAME/pool"
for i in 0 1; do
    ls "$LOOP_GAME"/gen*/a1/match-r1-s$i.result > /dev/null || { echo "no match shard $i" >&2; exit 1; }
done
grep -q "max_attempts 1 rejected\|promoted" "$WORK/loop.log" || { echo "the loop did not decide" >&2; exit 1; }
"$DATAGEN" loop --config "$WORK/loop/loop.toml" --status
say "OK: datagen loop ran a generation on Slurm (2 generate tasks, 2 match tasks)"
