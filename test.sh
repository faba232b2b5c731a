#!/usr/bin/env bash
# Runs every test: the README's test command. Fuzz targets run their seed corpora.
set -euo pipefail
cd "$(dirname "$0")"
go test -race -count=1 ./...
# Nested modules, which import frameworks and provider SDKs the main module
# does not require. No -race: the SDKs take minutes to build with it, and
# what these modules test is the shapes of declarations and calls, not
# concurrency (the adapters call runtime, which the line above races).
(cd internal/sdkcheck && go test -count=1 ./...) # declarations against the providers' Go SDKs
for mod in adapters/*/go.mod; do                 # the framework adapters (docs/adapters.md)
	(cd "$(dirname "$mod")" && go test -count=1 ./...)
done
