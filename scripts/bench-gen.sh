#!/usr/bin/env bash
# Generation speed of opentoolgen on the synthetic OpenTool document of 2,000
# functions with nested schemas (issue 3's target: under 1 s and 200 MB), and
# the dispatch overhead of a generated adapter next to a map[string]any one.
# Opt-in: not part of CI. Usage: scripts/bench-gen.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go test ./gen -run '^TestWriteSynthetic$' -synth-out="$work/synth.json" >/dev/null
go build -o "$work/opentoolgen" ./cmd/opentoolgen
echo "document: $(wc -c <"$work/synth.json") bytes, 2000 functions"
for i in $(seq "$runs"); do
	rm -rf "$work/out"
	/usr/bin/time -f "run $i: %e s wall, %U s user, %S s sys, %M KB max RSS" "$work/opentoolgen" -o "$work/out" "$work/synth.json"
done
echo "output: $(cat "$work"/out/*.go | wc -l) lines, $(cat "$work"/out/*.go | wc -c) bytes in $(ls "$work"/out | wc -l) files"
start=$(date +%s.%N)
(cd "$work/out" && cat >go.mod <<EOM
module synth
go 1.26
require github.com/opentoolgen/opentoolgen v0.0.0
replace github.com/opentoolgen/opentoolgen => $root
EOM
cp "$root/go.sum" . && go mod tidy >/dev/null 2>&1 && go build ./... )
echo "go build of the output: $(echo "$(date +%s.%N) - $start" | bc) s"
go test ./gen -run '^$' -bench 'Generate2000|Dispatch' -benchmem -count "$runs"
