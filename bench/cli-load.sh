#!/bin/bash
# CPU (user+system) of single CLI commands in two checkouts, alternating A/B command by command,
# ROUNDS rounds (default 7); prints each run and the medians. Each command gets its own copy of the
# test template's CLI data dir (tests/support/cli-data-dir.ts; run any integration test file first).
#   bench/cli-load.sh <checkout A> <checkout B> [rounds]
# Extra node options for both: NODE_OPTIONS / NODE_COMPILE_CACHE in the environment.
set -euo pipefail
A=$1 B=$2 ROUNDS=${3:-7}
T=$(ls -td "${TMPDIR:-/tmp}"/registra-test-templates/*/cli-data | grep -v /building- | head -1)
F=/work/shared/fixtures/gleif/lei-cdf-2.1.top10.xml
OUT=$(mktemp -d)
COMMANDS=('--help' 'jobs list' "import gleif-lei $F" "export --format csv --out $OUT/x.csv --filter jurisdiction=276")
for round in $(seq "$ROUNDS"); do
  for c in "${!COMMANDS[@]}"; do
    for side in A B; do
      root=${!side}
      D=$(mktemp -d)
      cp -r "$T" "$D/data"
      # shellcheck disable=SC2086
      env -u DATABASE_URL DATA_DIR="$D/data" /usr/bin/time -o "$D/time" -f '%U %S' nice -n 10 \
        "$root/node_modules/.bin/node" "$root/cli/main.ts" ${COMMANDS[$c]} >/dev/null 2>&1 || echo "failed: ${COMMANDS[$c]}" >&2
      cpu=$(awk '{printf "%.2f", $1 + $2}' "$D/time")
      echo "$round $c $side $cpu" | tee -a "$OUT/runs"
      rm -rf "$D"
    done
  done
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
for c in "${!COMMANDS[@]}"; do
  for side in A B; do
    median=$(awk -v c="$c" -v s="$side" '$2 == c && $3 == s {print $4}' "$OUT/runs" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
    echo "median cpu s, ${COMMANDS[$c]/$OUT/…}, $side: $median"
  done
done
rm -rf "$OUT"
