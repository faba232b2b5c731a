#!/usr/bin/env bash
# Runs every test: the README's test command. Fuzz targets run their seed corpora.
set -euo pipefail
cd "$(dirname "$0")"
go test -race -count=1 ./...
# Allocation counts differ under the race detector, so the allocation tests
# are built without it (//go:build !race) and run here again, without -race:
# only the packages that have one, found by name, to stay quick.
alloc_pkgs=$(grep -rl --include='*_test.go' -E '^func Test[A-Za-z]*Allocations' . | xargs -n1 dirname | sort -u)
if [ -n "$alloc_pkgs" ]; then
	go test -count=1 -run 'Allocations' $alloc_pkgs
fi
# Nested modules, which import frameworks and provider SDKs the main module
# does not require. No -race: the SDKs take minutes to build with it, and
# what these modules test is the shapes of declarations and calls, not
# concurrency (the adapters call runtime, which the line above races).
(cd internal/sdkcheck && go test -count=1 ./...) # declarations against the providers' Go SDKs
for mod in adapters/*/go.mod; do                 # the framework adapters (docs/adapters.md)
	(cd "$(dirname "$mod")" && go test -count=1 ./...)
done
