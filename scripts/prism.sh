#!/usr/bin/env bash
# Opt-in (not run by .ci/run): installs Stoplight Prism (@stoplight/prism-cli,
# from npm; needs node and npm) into a cache directory and runs
# internal/prisme2e's TestPrism, which calls every operation of a dozen public
# OpenAPI documents through the generated Tool adapter against `prism mock`,
# a mock that validates each request against the document.
#   scripts/prism.sh            # PRISM_DIR=~/.cache/opentoolgen-prism by default
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${PRISM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opentoolgen-prism}
version=${PRISM_VERSION:-5}
if [ ! -x "$dir/node_modules/.bin/prism" ]; then
	mkdir -p "$dir"
	npm install --no-audit --no-fund --prefix "$dir" "@stoplight/prism-cli@$version"
fi
"$dir/node_modules/.bin/prism" --version
OPENTOOLGEN_PRISM="$dir/node_modules/.bin/prism" go test -count=1 -v -run '^TestPrism$' -timeout 30m ./internal/prisme2e/ "$@"
