#!/usr/bin/env bash
# What slow and stalled clients cost the mock tool server (examples/mocktool/server,
# runtime.Serve with its defaults): 50 clients that each declare a 4 MiB body, send
# 4 MiB - 1 bytes and stall, and one client that sends a body one byte a second.
# Prints the server's VmRSS/VmHWM (from /proc, Linux only) and how the server ends
# the connections. Opt-in: not part of CI; takes about a minute.
# Usage: scripts/slow-clients.sh [flags of scripts/slowclients]
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
go build -o "$work/server" ./examples/mocktool/server
go build -o "$work/slowclients" ./scripts/slowclients
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 17001)
"$work/server" -addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do
	(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
	sleep 0.1
done
"$work/slowclients" -addr "127.0.0.1:$port" -pid "$pid" "$@"
