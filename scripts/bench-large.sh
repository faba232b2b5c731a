#!/usr/bin/env bash
# Generation time and peak memory of opentoolgen on the largest documents:
# the synthetic OpenTool documents of 5,000, 10,000 and 20,000 functions
# (gen/bench_test.go, 10, 20 and 41 MB), and, when GRAPH names it, Microsoft
# Graph's OpenAPI document (20 MB; graph-beta.json, 47 MB, the same way). With
# BUILD=1, also the peak memory of `go build` of each generated package;
# with TAGS="tag1 tag2", Graph generated one package per tag
# (-include tag:TAG) and each built, which is the advice for a document
# whose whole package is too large for the compiler.
#
# Opt-in: not part of CI; the documents are read where they are, never
# copied into the repository. Usage:
#
#	scripts/bench-large.sh [sizes]          # sizes default to "5000 10000 20000"
#	GRAPH=/path/to/graph.json BUILD=1 TAGS="users groups" scripts/bench-large.sh ""
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
sizes=${1-5000 10000 20000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/opentoolgen" ./cmd/opentoolgen

# gen DOC DIR [ARGS…]: generate DOC into DIR, report its time, peak RSS and
# output; with BUILD=1, build it and report the compiler's.
gen() {
	local doc=$1 out=$2
	shift 2
	local mb
	mb=$(printf '%.1f' "$(echo "$(wc -c <"$doc") / 1000000" | bc -l)")
	/usr/bin/time -f "generate: %e s wall, %U s user, %M KB peak RSS" \
		"$work/opentoolgen" -o "$out" -pkg p "$@" "$doc" 2>&1 >/dev/null | grep '^generate:' || true
	echo "  input ${mb} MB; output: $(ls "$out" | wc -l) files, $(cat "$out"/*.go | wc -l) lines," \
		"largest $(cd "$out" && wc -l ./*.go | sort -n | tail -2 | head -1)"
	if [ "${BUILD:-}" = 1 ]; then
		cat >"$out/go.mod" <<EOM
module p
go 1.26
require github.com/opentoolgen/opentoolgen v0.0.0
replace github.com/opentoolgen/opentoolgen => $root
EOM
		cp "$root/go.sum" "$out/"
		(cd "$out" && go mod tidy >/dev/null 2>&1 && go build -o /dev/null github.com/opentoolgen/opentoolgen/runtime/... &&
			/usr/bin/time -f "  go build: %e s wall, %U s user, %M KB peak RSS" go build -o /dev/null . 2>&1 | tail -1)
	fi
}

for n in $sizes; do
	go test ./gen -run '^TestWriteSynthetic$' -synth-out="$work/synth$n.json" -synth-n="$n" >/dev/null
	echo "synthetic OpenTool document, $n functions"
	gen "$work/synth$n.json" "$work/out$n"
	rm -rf "$work/out$n" "$work/synth$n.json"
done
if [ -n "${GRAPH:-}" ]; then
	echo "$GRAPH"
	gen "$GRAPH" "$work/graph"
	rm -rf "$work/graph"
	set -f # TAGS are globs for -include, not for the shell
	for tag in ${TAGS:-}; do
		echo "$GRAPH -include tag:$tag"
		gen "$GRAPH" "$work/graph-$tag" -include "tag:$tag"
		rm -rf "$work/graph-$tag"
	done
fi
