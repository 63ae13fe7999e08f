#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/report-nodes.sh BUILDDIR [BEFORE_BUILDDIR] - roce-report --nodes over
# JOBS (default "250 1000") jobs of NODES (64) nodes, 8 RoCE ports each (the
# issue's 1,000 x 64 = 64,000 fragments): median wall time, CPU time and max
# RSS of RUNS (3) runs per size and format (FORMATS, default text json).
# Every fragment is a real roce-epilog's (its mlx5_0 lost packets: every
# job has a problem on every node, the most work per row), filed again
# under other job ids and node names.  RSS should not grow with the jobs:
# it is bounded by the node ports (NODES x 9 rows).
# With BEFORE_BUILDDIR, both builds are measured in turn on the same files.
set -u
B=${1:?usage: bench/report-nodes.sh BUILDDIR [BEFORE_BUILDDIR]}
A=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib/fabric.sh"
. "$top/tests/lib/netns.sh"
RUNS=${RUNS:-3}
NODES=${NODES:-64}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
T=$(mktemp -d)
NS=roce-bnodes-$$
trap 'netns_destroy $NS; rm -rf "$T"' EXIT
TIME=$T/report-time
${CC:-cc} -O2 -o "$TIME" "$top/bench/report-time.c" || { echo "cannot build bench/report-time.c"; exit 1; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

builds="after"
declare -A dir=([after]=$B)
if [ -n "$A" ]; then
	builds="before after"
	dir[before]=$A
fi
"$B/prolog/roce-report" --help | grep -q -- --nodes || { echo "$B/prolog/roce-report has no --nodes"; exit 1; }

INNS=""
if netns_available && netns_create "$NS"; then
	for i in $(seq 0 7); do netns_veth "$NS" "eth$i" 9000; done
	INNS="ip netns exec $NS"
fi

# --- one real fragment of an 8-port node
R=$T/sys8; mkdir -p "$R"; fab_example "$R" 8
printf 'ReportDir=%s\nStateDir=%s\n' "$T/tmpl" "$T/state" >"$T/roce.conf"
export SLURM_JOB_ID=777 SLURM_JOB_UID=0 SLURMD_NODENAME=tmpl
$INNS "$B/prolog/roce-prolog" --config "$T/roce.conf" --sysfs-root "$R"
fab_counter "$R" mlx5_0 1 hw_counters out_of_sequence 12
$INNS "$B/prolog/roce-epilog" --config "$T/roce.conf" --sysfs-root "$R"
TEMPLATE=$T/tmpl/777/tmpl.json
[ -s "$TEMPLATE" ] || { echo "no template fragment"; exit 1; }
echo "fragment of an 8-port node: $(wc -c <"$TEMPLATE") bytes"

MAXJOBS=0
for j in ${JOBS:-250 1000}; do ((j > MAXJOBS)) && MAXJOBS=$j; done
# Jobs 100001.. each of NODES nodes, ending a minute apart.
awk -v jobs="$MAXJOBS" -v nodes="$NODES" -v dir="$T/all" '
	{ line[NR] = $0 }
	END {
		for (j = 1; j <= jobs; j++) {
			id = 100000 + j
			system("mkdir -p " dir "/" id)
			for (i = 1; i <= nodes; i++) {
				f = sprintf("%s/%d/node%03d.json", dir, id, i)
				for (k = 1; k <= NR; k++) {
					l = line[k]
					sub(/"name": ?"tmpl"/, sprintf("\"name\":\"node%03d\"", i), l)
					sub(/"job_id": ?"777"/, sprintf("\"job_id\":\"%d\"", id), l)
					sub(/"end_ns": ?[0-9]+/, sprintf("\"end_ns\":%d000000000", 1790000000 + 60 * j), l)
					print l > f
				}
				close(f)
			}
		}
	}' "$TEMPLATE"
check=$("$B/prolog/roce-report" --nodes --report-dir "$T/all" --format json 2>"$T/err" | jq -r '[.jobs, .unusable_fragments] | @tsv')
[ "$check" = "$MAXJOBS	0" ] || { echo "fixture not read whole: $check; $(head -3 "$T/err")"; exit 1; }

printf '\n%-5s %-6s %-10s %-7s %10s %10s %12s\n' jobs nodes fragments format "wall ms" "cpu ms" "max RSS KiB"
for j in ${JOBS:-250 1000}; do
	# the first j jobs, the same files (hard links)
	mkdir -p "$T/r$j"
	for id in $(seq 100001 $((100000 + j))); do cp -al "$T/all/$id" "$T/r$j/"; done
	for fmt in ${FORMATS:-text json}; do
		for b in $builds; do
			: >"$T/w.$b"; : >"$T/c.$b"; : >"$T/m.$b"
		done
		for _ in $(seq "$RUNS"); do
			for b in $builds; do
				"$TIME" "${dir[$b]}/prolog/roce-report" --nodes --report-dir "$T/r$j" --format "$fmt" \
					2>"$T/err" | tail -n 1 >"$T/one"
				read -r ms cpu kb <"$T/one"
				echo "$ms" >>"$T/w.$b"; echo "$cpu" >>"$T/c.$b"; echo "$kb" >>"$T/m.$b"
			done
		done
		for b in $builds; do
			label=$fmt; [ -n "$A" ] && label="$fmt/$b"
			printf '%-5s %-6s %-10s %-7s %10s %10s %12s\n' "$j" "$NODES" $((j * NODES)) "$label" \
				"$(median <"$T/w.$b")" "$(median <"$T/c.$b")" "$(median <"$T/m.$b")"
		done
	done
	rm -rf "$T/r$j"
done
