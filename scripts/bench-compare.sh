#!/usr/bin/env bash
# Side by side, in one run: generation time and peak memory of two commits of
# opentoolgen on the synthetic 2,000-function OpenTool document, GitHub's REST
# API and Kubernetes (from ogen's test data in the module cache), alternating
# the two commands run by run, and the dispatch benchmark of the generated
# adapter at each commit. Opt-in: not part of CI.
# Usage: scripts/bench-compare.sh OLD [NEW=HEAD] [runs=5]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
old=${1:?usage: scripts/bench-compare.sh OLD [NEW] [runs]}
new=${2:-HEAD}
runs=${3:-5}
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/old" >/dev/null 2>&1; git -C "$root" worktree remove --force "$work/new" >/dev/null 2>&1; rm -rf "$work"' EXIT
git worktree add -q "$work/old" "$old"
git worktree add -q "$work/new" "$new"
for side in old new; do
	(cd "$work/$side" && go build -o "$work/opentoolgen-$side" ./cmd/opentoolgen)
done
(cd "$work/new" && go test ./gen -run '^TestWriteSynthetic$' -synth-out="$work/synth.json" >/dev/null)
ogen=$(go mod download -json github.com/ogen-go/ogen@v1.14.0 | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
docs=("$work/synth.json" "$ogen/_testdata/examples/api.github.com.json" "$ogen/_testdata/examples/k8s.json")
for doc in "${docs[@]}"; do
	echo "== $(basename "$doc")"
	for i in $(seq "$runs"); do
		for side in old new; do
			rm -rf "$work/out-$side"
			/usr/bin/time -f "$side: %e s wall, %M KB max RSS" "$work/opentoolgen-$side" -o "$work/out-$side" "$doc" 2>&1 >/dev/null | grep -v '^warning\|: warning:' | tail -1
		done
	done
done
echo "== dispatch (go test -bench Dispatch), alternating"
for i in $(seq "$runs"); do
	for side in old new; do
		(cd "$work/$side" && go test ./gen -run '^$' -bench '^BenchmarkDispatch$' -benchmem -count 1 2>/dev/null | grep '^BenchmarkDispatch' | sed "s/^/$side: /")
	done
done
