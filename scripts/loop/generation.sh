#!/usr/bin/env bash
# One whole generation: generate → train → benchmark → promote. Each step can be rerun alone and
# resumes where it stopped. Run in the background: nohup scripts/loop/generation.sh > gen.log &
source "$(dirname "$0")/common.sh"
DIR="$(dirname "$0")"
"$DIR/generate.sh"
"$DIR/train.sh"
"$DIR/benchmark.sh"
"$DIR/promote.sh"
