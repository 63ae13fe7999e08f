#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A job of many nodes: roce-report reads the fragments on several threads
# once there are hundreds of them.  The merge must not depend on that: the
# report read on every CPU is byte for byte the one read on a single CPU
# (taskset: one thread), every good fragment is in it once, and the broken
# ones are listed by name, in name order, on every run.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/jobfiles.sh"
. "$top_srcdir/tests/lib/fragcopy.sh"
B="$top_builddir/prolog"
N=1200

command -v jq >/dev/null || skip_all "needs jq"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
R=$T/sys
mkdir -p "$R"
fab_example "$R" 2

# one real fragment, copied under N node names
C=$(conf many "$T/tmpl" "$T/state")
job prolog "$C" 901 tmpl
fab_counter "$R" mlx5_0 1 hw_counters out_of_sequence 7
job epilog "$C" 901 tmpl
is "$rc" 0 "the epilog writes the template fragment"
D=$T/reports/901
fragment_copies "$T/tmpl/901/tmpl.json" "$N" "$D" gpu%04d
# three broken ones, spread over the listing
head -c 300 "$D/gpu0500.json" >"$D/gpu0500.tmp" && mv "$D/gpu0500.tmp" "$D/gpu0500.json"
cp "$D/gpu0007.json" "$D/gpu1100.json"
rm "$D/gpu0042.json" && mkfifo "$D/gpu0042.json"

report() { "$B/roce-report" 901 --report-dir "$T/reports" "$@"; }
report --format json >"$T/all.json" 2>"$T/all.err"
rc=$?
is "$rc" 0 "the report of $N nodes is made"
[ "$rc" = 0 ] || sed 's/^/# stderr: /' "$T/all.err" | head -20
is "$(jq .node_count "$T/all.json")" $((N - 3)) "every good fragment is in it"
is "$(jq -r '.nodes[].name' "$T/all.json" | sort -u | wc -l)" $((N - 3)) "each node once"
is "$(jq -r '.errors | map(sub(":.*"; "")) | join(" ")' "$T/all.json")" \
	"gpu0042.json gpu0500.json gpu1100.json" "the broken fragments are named, in name order"
like "$(jq -r '.errors[0]' "$T/all.json")" "not a regular file \\(a FIFO\\)" "the FIFO was refused, not opened"
is "$(jq '[.nodes[].ports[0].counters.out_of_sequence] | add' "$T/all.json")" $(((N - 3) * 7)) \
	"every node's counters are summed"

cpus=$(nproc)
if [ "$cpus" -gt 1 ] && command -v taskset >/dev/null; then
	for fmt in json text prometheus; do
		report --format "$fmt" >"$T/many.$fmt" 2>/dev/null
		taskset -c 0 "$B/roce-report" 901 --report-dir "$T/reports" --format "$fmt" >"$T/one.$fmt" 2>/dev/null
		ok "$fmt: read on $cpus CPUs = read on one" cmp -s "$T/many.$fmt" "$T/one.$fmt"
	done
else
	for _ in 1 2 3; do skip "one CPU here (or no taskset): the threads are not exercised"; done
fi
for i in 1 2 3; do report --format json >"$T/again.json" 2>/dev/null; cmp -s "$T/all.json" "$T/again.json" || break; done
ok "three more runs give the same bytes" cmp -s "$T/all.json" "$T/again.json"
done_testing
