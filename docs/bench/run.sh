#!/usr/bin/env bash
# Runs the benchmarks of docs/bench/benchmarks.txt in a checkout and prints
# go test's output (benchstat's input).
#   docs/bench/run.sh [DIR] [COUNT]     # DIR: a checkout (default .), COUNT: -count (default 6)
# The PostgreSQL benchmarks need COMPACT_POSTGRES_DSN's server (default the
# local one); they skip without it. A checkout older than a benchmark file
# of this one gets it copied in (memory/turns_bench_test.go, which runs on
# the release's API), so the release runs the same benchmark.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:-.}"
count="${2:-6}"
for f in memory/turns_bench_test.go; do
  [ -e "$dir/$f" ] || cp "$here/../../$f" "$dir/$f"
done
cd "$dir"
grep -v '^#' "$here/benchmarks.txt" | while read -r pkg pattern benchtime; do
  [ -n "$pkg" ] || continue
  go test -run '^$' -bench "$pattern" -benchtime "${benchtime:-1s}" -count "$count" -timeout 60m "$pkg" | grep -E '^(Benchmark|goos|goarch|pkg|cpu)'
done
