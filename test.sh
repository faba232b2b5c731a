#!/usr/bin/env bash
# Runs every test: the README's test command. Fuzz targets run their seed corpora.
set -euo pipefail
cd "$(dirname "$0")"
go test -race -count=1 ./...
(cd internal/sdkcheck && go test -count=1 ./...) # declarations against the providers' Go SDKs (no -race: no concurrency, and the SDKs are slow to build)
