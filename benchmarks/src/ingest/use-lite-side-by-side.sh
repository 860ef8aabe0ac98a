#!/usr/bin/env bash
# Issue 27 item 3: the previous and the current code's use-lite embedding, side by side in one command on
# one machine. Each workload runs with the previous code, then at once with the current code, so both meet
# the same load. Usage (from the repository root; BEFORE is a checkout of the previous commit, made with
# `git worktree add /tmp/engram-before <commit>`, its node_modules linked to this one's except @engram/*):
#   bash benchmarks/src/ingest/use-lite-side-by-side.sh /tmp/engram-before /tmp/side-by-side
set -euo pipefail
BEFORE=${1:?previous checkout}
OUT=${2:-/tmp/side-by-side}
DATA=${DATA:-../shared/datasets}
mkdir -p "$OUT"
# Turn and paragraph tasks per workload (the first N of conv-26 and of MuSiQue-100).
TURNS=${TURNS:-200}
PARAGRAPHS=${PARAGRAPHS:-200}
run() {
  npx tsx --conditions=source benchmarks/src/ingest/use-lite-side-by-side.ts --data "$DATA" \
    --turns "$TURNS" --musique "$PARAGRAPHS" "$@"
}
run --root "$BEFORE" --only 'one task per session' --alone --out "$OUT/before-session.json"
run --root . --only 'one task per session' --alone --texts "$OUT/before-session.json" --out "$OUT/after-session.json"
run --root "$BEFORE" --only 'one task per turn' --out "$OUT/before-turn.json"
run --root . --only 'one task per turn' --out "$OUT/after-turn.json"
run --root "$BEFORE" --only 'one task per MuSiQue' --out "$OUT/before-musique.json"
run --root . --only 'one task per MuSiQue' --out "$OUT/after-musique.json"
npx tsx --conditions=source benchmarks/src/ingest/use-lite-side-by-side-report.ts \
  "$OUT/before-session.json,$OUT/before-turn.json,$OUT/before-musique.json" \
  "$OUT/after-session.json,$OUT/after-turn.json,$OUT/after-musique.json" \
  benchmarks/results/ingest.md
