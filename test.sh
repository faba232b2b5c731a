#!/usr/bin/env bash
# Runs every test: the README's test command. Fuzz targets run their seed corpora.
set -euo pipefail
cd "$(dirname "$0")"
go test -race -count=1 ./...
