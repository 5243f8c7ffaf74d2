#!/usr/bin/env bash
# Compares the working tree with the release's committed figures
# (docs/bench/release.txt, made by run.sh on the release) by benchstat:
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
base="$here/release.txt"
if [ -n "${RERUN:-}" ]; then
  git -C "$root" worktree add -q --detach "$out/rev" "$RERUN"
  trap 'git -C "$root" worktree remove --force "$out/rev"' EXIT
  bash "$here/run.sh" "$out/rev" "$count" > "$out/rev.txt"
  base="$out/rev.txt"
fi
bash "$here/run.sh" "$root" "$count" > "$out/new.txt"
benchstat "$base" "$out/new.txt"
