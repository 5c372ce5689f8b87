#!/usr/bin/env bash
# Step 2: train and quantize a net on generation $GEN's data (plus earlier generations' data
# when EXTRA_DATA lists them). Resumable from $WORK/train/checkpoint.bin. Log: $WORK/train.log
# TRAIN_FLAGS adds trainer flags (e.g. "--l1 256" for a wider net, "--mirror" for shogi).
source "$(dirname "$0")/common.sh"
build
DATA=("$WORK/data/data.bin")
for extra in ${EXTRA_DATA:-}; do DATA+=("$extra"); done
echo "train: $GAME gen $GEN on ${DATA[*]}"
"$BIN/tuner" train --game "$GAME" --data "${DATA[@]}" --superbatches "$SUPERBATCHES" \
    --batches "$BATCHES" --batch "$BATCH" --lr "$LR" --wdl "$WDL" --val-every "$VAL_EVERY" --threads "$THREADS" \
    --seed "$SEED" --name "$GAME-gen$GEN" --out "$WORK/train" ${TRAIN_FLAGS:-} 2>&1 | tee -a "$WORK/train.log"
