#!/usr/bin/env bash
# Compares the working tree with the release's committed figures
# (docs/bench/release*.txt, made by run.sh on the release, one per CPU the
# machines have had) by benchstat:
#   docs/bench/compare.sh [COUNT]
# With RERUN=REV it also measures REV again in a temporary worktree, in the
# same session as the working tree (the fairest comparison on a shared
# machine), and compares with that instead.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
count="${1:-6}"
command -v benchstat >/dev/null || go install golang.org/x/perf/cmd/benchstat@latest
export PATH="$PATH:$(go env GOPATH)/bin"
out="$(mktemp -d)"
# The release's figures measured on this machine's CPU (go test's "cpu:"
# line), release.txt when none is: figures from another CPU differ by 2x.
model="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)"
base="$here/release.txt"
for f in "$here"/release*.txt; do
  if [ -n "$model" ] && grep -qxF "cpu: $model" "$f"; then base="$f"; fi
done
if [ -z "${RERUN:-}" ] && ! grep -qxF "cpu: $model" "$base"; then
  echo "compare.sh: no release figures measured on this CPU ($model): compare with RERUN=f22673a" >&2
fi
if [ -n "${RERUN:-}" ]; then
  git -C "$root" worktree add -q --detach "$out/rev" "$RERUN"
  trap 'git -C "$root" worktree remove --force "$out/rev"' EXIT
  bash "$here/run.sh" "$out/rev" "$count" > "$out/rev.txt"
  base="$out/rev.txt"
fi
bash "$here/run.sh" "$root" "$count" > "$out/new.txt"
benchstat "$base" "$out/new.txt"
