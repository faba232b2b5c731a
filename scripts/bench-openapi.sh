#!/usr/bin/env bash
# bench-openapi.sh: opentoolgen next to oapi-codegen and ogen, in one run, on
# the same public OpenAPI documents: generation wall time and peak memory,
# size of the generated code, and wall time and peak memory of `go build` of
# the output; then, with ROUNDS, generation alone in rounds that interleave
# the tools. Opt-in and slow (minutes); it needs the Go module proxy.
#
#	scripts/bench-openapi.sh                 # GitHub, Kubernetes, Stripe, OpenAI, Telegram
#	scripts/bench-openapi.sh doc.json …      # other documents
#	TOOLS="opentoolgen" scripts/bench-openapi.sh   # only some generators
#	BUILD=0 ROUNDS=5 scripts/bench-openapi.sh      # no builds; five interleaved rounds
#
# The documents come from Go modules (ogen's and libopenapi's test data,
# fetched with `go mod download`); nothing is copied into this repository.
# The peers are installed with `go install …@version` into a scratch GOBIN,
# not as module dependencies.
#
# Every tool makes a client package: oapi-codegen generates types and client
# (-generate types,client); ogen runs with ignore_not_implemented: ["all"]
# (it refuses GitHub's document otherwise) and, unless OGEN=full, without its
# server (features disabled: paths/server, webhooks/server and
# ogen/unimplemented, the server's stub handler); OGEN=full generates its
# default client and server.
# Each step has a time limit (LIMIT seconds, default 600); a generator that
# fails or times out is reported as such. Output: Markdown tables on stdout.
# With ROUNDS=N (default 0), N rounds follow in which every tool generates
# every document once, tools interleaved, and a second table gives per tool
# and document the median wall time (with the range), the median CPU time
# (user+sys) and the range of peak memory; OPENTOOLGEN=path times that
# binary instead of one built from this checkout.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${BENCH_DIR:-$(mktemp -d)}
limit=${LIMIT:-600}
tools=${TOOLS:-"opentoolgen oapi-codegen ogen"}
build=${BUILD:-1}
rounds=${ROUNDS:-0}
ogen_mode=${OGEN:-client}
oapi_version=v2.8.2
ogen_version=v1.14.0
export GOBIN=$work/bin
export GOFLAGS=-mod=mod
mkdir -p "$GOBIN"

log() { echo "$@" >&2; }

if [ -n "${OPENTOOLGEN:-}" ]; then
	cp "$OPENTOOLGEN" "$GOBIN/opentoolgen"
else
	(cd "$root" && go build -o "$GOBIN/opentoolgen" ./cmd/opentoolgen)
fi
for t in $tools; do
	case $t in
	oapi-codegen) go install "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@$oapi_version" >&2 || log "oapi-codegen: install failed" ;;
	ogen)
		# go install …@version asks the proxy for the module's version list
		# (deprecation check); where that is refused, build it in a scratch module.
		go install "github.com/ogen-go/ogen/cmd/ogen@$ogen_version" >&2 || (
			mkdir -p "$work/ogen-build" && cd "$work/ogen-build" &&
				printf 'module ogenbuild\n\ngo 1.26\n\nrequire github.com/ogen-go/ogen %s\n' "$ogen_version" >go.mod &&
				go build -o "$GOBIN/ogen" github.com/ogen-go/ogen/cmd/ogen >&2
		) || log "ogen: install failed"
		;;
	esac
done

if [ $# -eq 0 ]; then
	ogen_dir=$(go mod download -json "github.com/ogen-go/ogen@$ogen_version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	libopenapi_dir=$(go mod download -json "github.com/pb33f/libopenapi@v0.42.4" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	set -- "$ogen_dir/_testdata/examples/api.github.com.json" "$ogen_dir/_testdata/examples/k8s.json" \
		"$libopenapi_dir/test_specs/stripe.yaml" \
		"$ogen_dir/_testdata/examples/openai.yml" "$ogen_dir/_testdata/examples/telegram_bot_api.json"
fi

# measure OUT CMD…: runs CMD with the time limit, writes "seconds peak-MB
# status cpu-seconds" to OUT (cpu: user+sys).
measure() {
	local out=$1
	shift
	local status=ok
	if ! /usr/bin/time -f "%e %M %U %S" -o "$out.time" timeout "$limit" "$@" >"$out.log" 2>&1; then
		status=failed
		grep -q "Command exited with non-zero status 124" "$out.time" 2>/dev/null && status="timeout"
	fi
	local t m u s
	read -r t m u s < <(tail -n 1 "$out.time")
	echo "$t $((m / 1024)) $status $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')" >"$out"
}

# generate DIR TOOL DOC: TOOL generates DOC into DIR/api, measured into DIR/gen.
generate() {
	local dir=$1 t=$2 doc=$3
	rm -rf "$dir/api" && mkdir -p "$dir/api"
	case $t in
	opentoolgen) measure "$dir/gen" "$GOBIN/opentoolgen" -o "$dir/api" -pkg api "$doc" ;;
	oapi-codegen) measure "$dir/gen" sh -c "'$GOBIN/oapi-codegen' -generate types,client -package api '$doc' > '$dir/api/api.gen.go'" ;;
	ogen)
		# With its defaults ogen refuses documents that use what it does not
		# implement; skip those operations, as its error message suggests.
		printf 'generator:\n  ignore_not_implemented: ["all"]\n' >"$dir/ogen.yml"
		[ "$ogen_mode" = full ] ||
			printf '  features:\n    disable: [paths/server, webhooks/server, ogen/unimplemented]\n' >>"$dir/ogen.yml"
		measure "$dir/gen" "$GOBIN/ogen" -config "$dir/ogen.yml" -target "$dir/api" -package api -clean "$doc"
		;;
	esac
}

# The runtime modules of the peers' output, required up front: the proxy may
# refuse the version lists that go mod tidy would otherwise ask for.
oapi_runtime=$(go mod download -json "github.com/oapi-codegen/oapi-codegen/v2@$oapi_version" 2>/dev/null |
	sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p' | xargs -r grep -h 'github.com/oapi-codegen/runtime ' | awk '{print $2}' | head -n 1 || true)

gomod() { # DIR TOOL: a module for the generated package, against this checkout
	local extra=
	case $2 in
	ogen) extra="require github.com/ogen-go/ogen $ogen_version" ;;
	oapi-codegen) [ -n "$oapi_runtime" ] && extra="require github.com/oapi-codegen/runtime $oapi_runtime" ;;
	esac
	cat >"$1/go.mod" <<EOF
module bench

go 1.26

require github.com/opentoolgen/opentoolgen v0.0.0

$extra

replace github.com/opentoolgen/opentoolgen => $root
EOF
}

echo "| document | generator | generate (s) | peak MB | Go lines | Go MB | go build (s) | build peak MB |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for doc in "$@"; do
	name=$(basename "$doc")
	for t in $tools; do
		dir=$work/out/$name/$t
		mkdir -p "$dir"
		gomod "$dir" "$t"
		generate "$dir" "$t" "$doc"
		read -r gt gm gs _ <"$dir/gen"
		lines=- size=- bt=- bm=- bs=-
		if [ "$gs" = ok ]; then
			lines=$(cat "$dir"/api/*.go | wc -l)
			size=$(du -cb "$dir"/api/*.go | tail -n 1 | awk '{printf "%.1f", $1/1048576}')
			if [ "$build" != 0 ]; then
				(cd "$dir" && go mod tidy >/dev/null 2>&1 || true)
				(cd "$dir" && measure "$dir/build" go build ./...)
				read -r bt bm bs _ <"$dir/build"
				[ "$bs" = ok ] || bt="$bs ($bt)"
			fi
		else
			gt="$gs ($gt)"
		fi
		echo "| $name | $t | $gt | $gm | $lines | $size | $bt | $bm |"
	done
done

# median: the median of the numbers on stdin, one a line.
median() { sort -n | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else printf "%.2f\n", (v[NR/2]+v[NR/2+1])/2}'; }

if [ "$rounds" -gt 0 ]; then
	log "$rounds interleaved rounds of generation"
	rm -rf "$work/rounds"
	for r in $(seq "$rounds"); do
		for doc in "$@"; do
			name=$(basename "$doc")
			for t in $tools; do
				dir=$work/rounds/$name/$t
				mkdir -p "$dir"
				generate "$dir" "$t" "$doc"
				echo "$(cat "$dir/gen")" >>"$dir/runs"
			done
		done
	done
	echo
	echo "$rounds rounds, tools interleaved within each (load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)):"
	echo
	echo "| document | generator | wall s, median (min–max) | CPU s (user+sys), median | peak MB (min–max) | status |"
	echo "|---|---|---:|---:|---:|---|"
	for doc in "$@"; do
		name=$(basename "$doc")
		for t in $tools; do
			runs=$work/rounds/$name/$t/runs
			wall=$(awk '{print $1}' "$runs" | median)
			wmin=$(awk '{print $1}' "$runs" | sort -n | head -n 1)
			wmax=$(awk '{print $1}' "$runs" | sort -n | tail -n 1)
			cpu=$(awk '{print $4}' "$runs" | median)
			mmin=$(awk '{print $2}' "$runs" | sort -n | head -n 1)
			mmax=$(awk '{print $2}' "$runs" | sort -n | tail -n 1)
			status=$(awk '{print $3}' "$runs" | sort | uniq -c | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}')
			echo "| $name | $t | $wall ($wmin–$wmax) | $cpu | $mmin–$mmax | $status |"
		done
	done
fi
log "work directory: $work"
