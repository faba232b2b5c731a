#!/usr/bin/env bash
# The generated OpenDyn bindings at two commits, side by side in one run: the
# benchmarks of testdata/opendyn/e2e (the generated calls next to the same C
# functions linked at build time), each commit's test binary run in turn
# (old new, new old, …) so that the load of a shared machine hits both alike;
# the medians and quartiles of each figure at the end. Opt-in: not part of CI.
# Usage: scripts/bench-opendyn.sh OLD [NEW=HEAD] [runs=10] [bench regexp]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
old=${1:?usage: scripts/bench-opendyn.sh OLD [NEW] [runs] [bench]}
new=${2:-HEAD}
runs=${3:-10}
bench=${4:-'VsLinked|Cos$|Adler32|StrLen|Divmod'}
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/old" >/dev/null 2>&1; git -C "$root" worktree remove --force "$work/new" >/dev/null 2>&1; rm -rf "$work"' EXIT
for side in old new; do
	rev=$old
	[ "$side" = new ] && rev=$new
	git worktree add -q --detach "$work/$side" "$rev"
	(cd "$work/$side" && go test -c -o "$work/$side.test" ./testdata/opendyn/e2e)
done
cd "$work/new/testdata/opendyn/e2e" # the tests compile ../*.c
for i in $(seq "$runs"); do
	order="old new"
	[ $((i % 2)) = 0 ] && order="new old"
	for side in $order; do
		echo "== $side, run $i, load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?)" >&2
		"$work/$side.test" -test.run '^$' -test.bench "$bench" -test.benchmem |
			awk -v side="$side" '/^Benchmark/ { for (i = 3; i < NF; i += 2) print side, $1, $(i + 1), $i }'
	done
done | tee "$work/raw" >/dev/null
echo "$old (old) and $new (new), $runs runs each: median (quartiles)"
sort -k2,2 -k3,3 -k1,1r -k4,4g "$work/raw" | awk '
	function flush() {
		if (n == 0) return
		printf "%-40s %-16s %-3s %10.4g (%.4g–%.4g)\n", key2, key3, key1, v[int((n + 1) / 2)], v[int((n + 3) / 4)], v[int((3 * n + 3) / 4)]
		n = 0
	}
	{ if ($1 != key1 || $2 != key2 || $3 != key3) { flush(); key1 = $1; key2 = $2; key3 = $3 } v[++n] = $4 }
	END { flush() }'
