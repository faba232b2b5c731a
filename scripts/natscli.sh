#!/usr/bin/env bash
# Opt-in (not run by .ci/run): checks the `nats` CLI lines of docs/nats.md
# against a running `NAME nats` (the mocktool example on an embedded server).
# Installs the nats CLI github.com/nats-io/natscli/nats@v0.5.0 with go install
# unless NATS_CLI names one. The lines it checks, each by what it prints:
#   nats micro ls                 the service mocktool (the command's name)
#   nats micro info SERVICE       the endpoint subject crud_api_for_mock.read
#   nats micro stats SERVICE      the endpoints' requests
#   nats req PREFIX.read '{"id":0}'   a result object with "text"
#   nats req PREFIX.read '{"id":99}'  the error object with code 404
#   nats req PREFIX.count ''          a result object
#   nats micro stats SERVICE --json   the 404 counted: read's last_error "404:…"
#   nats req PREFIX.sequentiallyRead ''   -32601 naming the header Opentool-Stream: 1
#   scripts/natscli.sh
set -euo pipefail
cd "$(dirname "$0")/.."
nats=${NATS_CLI:-}
if [ -z "$nats" ]; then
	GOFLAGS= go install github.com/nats-io/natscli/nats@v0.5.0
	nats="$(go env GOPATH)/bin/nats"
fi
port=${NATS_PORT:-14322}
tmp=$(mktemp -d)
go build -o "$tmp/mocktool" ./examples/mocktool/server
"$tmp/mocktool" nats --natsPort "$port" >"$tmp/log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
export NATS_URL="nats://127.0.0.1:$port"
for _ in $(seq 100); do
	"$nats" micro ls >/dev/null 2>&1 && break
	sleep 0.1
done
fail=0
check() { # check WANT CMD...: CMD's output (stdout and stderr) holds WANT
	local want=$1
	shift
	local out
	out=$("$@" 2>&1) || true
	if grep -qF -- "$want" <<<"$out"; then
		echo "ok   $*"
	else
		echo "FAIL $*: want $want in:"
		echo "$out" | sed 's/^/     /'
		fail=1
	fi
}
check mocktool "$nats" micro ls
check crud_api_for_mock.read "$nats" micro info mocktool
check Requests "$nats" micro stats mocktool
check '"text"' "$nats" req crud_api_for_mock.read '{"id":0}'
check '"code":404' "$nats" req crud_api_for_mock.read '{"id":99}'
check '{' "$nats" req crud_api_for_mock.count ''
check '"last_error": "404:no text with id 99"' "$nats" micro stats mocktool --json
check 'send the request with the header Opentool-Stream: 1' "$nats" req crud_api_for_mock.sequentiallyRead ''
exit $fail
