#!/usr/bin/env bash
# Sizes of generated mains, stripped (-ldflags='-s -w'), against the official
# MCP Go SDK's one-tool stdio server (scripts/binsize/gosdkserver), built in
# the same run with the same Go: the figures of docs/server.md.
#   scripts/binsize.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" internal/binsize*' EXIT
go build -o "$tmp/opentoolgen" ./cmd/opentoolgen
# The quick start's petstore main, generated as the README does, once per -with.
mkdir -p "$tmp/mod"
cp examples/petstore/petstore.yaml "$tmp/petstore.yaml"
build() { # name, -with value ("" for none)
	local dir="internal/binsize$1"
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$tmp/petstore.yaml" "$dir/"
	(cd "$dir" && "$tmp/opentoolgen" -q -o petstore -cmd cmd/petstore ${2:+-with "$2"} petstore.yaml)
	go build -ldflags='-s -w' -o "$tmp/$1" "./$dir/cmd/petstore"
	rm -rf "$dir"
}
mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }
go build -ldflags='-s -w' -o "$tmp/gosdk" ./scripts/binsize/gosdkserver
build default ""
[ -n "${ONLY_DEFAULT:-}" ] || build nats nats
[ -n "${ONLY_DEFAULT:-}" ] || build otel otel
[ -n "${ONLY_DEFAULT:-}" ] || build both nats,otel
base=$(stat -c %s "$tmp/gosdk")
printf '%-28s %8s %8s\n' binary MB "x go-sdk"
for b in gosdk default nats otel both; do
	[ -f "$tmp/$b" ] || continue
	printf '%-28s %8s %8.3f\n' "$b" "$(mb "$tmp/$b")" "$(awk -v a="$(stat -c %s "$tmp/$b")" -v b="$base" 'BEGIN { print a / b }')"
done
go version
