#!/bin/bash
# Per-file CPU of test files, A (some files as they are at BASE) vs B (the working tree), alternating
# run by run (ADR 0039). Each run is one Vitest process with one worker; the tier-times reporter
# writes each file's worker CPU (tests/support/file-cpu.ts) to $OUT/ab-{A,B}-<round>.json, and the
# summary at the end gives each file's median (the worker's first file, which imports the app, left out).
#
#   BASE=main SWAP=tests/support/global-setup.ts ROUNDS="1 2 3" bench/test-file-cpu.sh tests/integration/smoke.test.ts …
#
# The SWAP files are overwritten with BASE's version for the A runs and restored after each.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${BASE:?BASE=<commit> for the A runs}" "${SWAP:?SWAP=<paths> to take from BASE}"
OUT=${OUT:-$(mktemp -d)}
PROJECT=${PROJECT:-integration}
restore() { git checkout -q -- $SWAP; }
trap restore EXIT
for round in ${ROUNDS:-1 2 3}; do
  for v in A B; do
    if [ "$v" = A ]; then for f in $SWAP; do git show "$BASE:$f" > "$f"; done; else restore; fi
    REGISTRA_TIER_TIMES="$OUT/ab-$v-$round.json" nice -n 10 npx vitest run --project "$PROJECT" --maxWorkers=1 \
      --reporter=dot --reporter=./tests/support/tier-times.ts "$@" > "$OUT/ab-$v-$round.log" 2>&1 || echo "$v $round: failed (see $OUT/ab-$v-$round.log)"
    echo "$v $round $(uptime)"
  done
done
restore
node_modules/.bin/node -e '
const { readdirSync, readFileSync } = require("node:fs");
const [out, project] = process.argv.slice(1);
const rows = {};
for (const name of readdirSync(out).filter((n) => /^ab-[AB]-.*\.json$/.test(n))) {
  const v = name[3];
  const files = JSON.parse(readFileSync(`${out}/${name}`, "utf8"))[project] ?? [];
  const first = Math.min(...files.map((f) => f.started));
  for (const f of files) if (f.started !== first) ((rows[f.file] ??= { A: [], B: [] })[v]).push(f.cpu);
}
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)] ?? NaN; };
let a = 0, b = 0;
for (const [file, r] of Object.entries(rows)) {
  a += median(r.A); b += median(r.B);
  console.log(`${file.padEnd(50)} A ${median(r.A).toFixed(2)} s  B ${median(r.B).toFixed(2)} s  (runs ${r.A.length}/${r.B.length})`);
}
console.log(`sum of medians: A ${a.toFixed(2)} s, B ${b.toFixed(2)} s, B/A ${(b / a).toFixed(3)}`);
' "$OUT" "$PROJECT"
