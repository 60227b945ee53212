#!/bin/bash
# A CLI test's first command on an empty DATA_DIR (the CLI migrates it) vs on a copy of the test
# template's first stage (tests/support/cli-data-dir.ts, ADR 0039), alternating, twice each; prints
# wall and CPU (user+system) times. Needs the cached template: run any integration test file first.
#   bench/cli-data-dir.sh [template-cli-data-dir]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
N="$ROOT/node_modules/.bin/node"
F=/work/shared/fixtures/gleif/elf-codes-2021.first60.csv
T=${1:-$(ls -td "${TMPDIR:-/tmp}"/registra-test-templates/*/cli-data | head -1)}
for i in 1 2; do
  for kind in fresh copy; do
    D=$(mktemp -d)
    S=$(date +%s.%N)
    if [ "$kind" = copy ]; then "$N" -e "require('node:fs/promises').cp('$T','$D/data',{recursive:true})"; else mkdir "$D/data"; fi
    /usr/bin/time -f "$kind $i: command wall %e s, cpu %U+%S s" \
      env -u DATABASE_URL DATA_DIR="$D/data" nice -n 10 "$N" "$ROOT/cli/main.ts" import elf "$F" >/dev/null 2>"$D/err" || true
    tail -1 "$D/err"
    echo "$kind $i: with the copy $(echo "$(date +%s.%N) - $S" | bc) s, load $(cut -d' ' -f1 /proc/loadavg)"
    rm -rf "$D"
  done
done
