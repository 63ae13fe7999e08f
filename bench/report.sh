#!/bin/bash
# bench/report.sh BUILDDIR - the job report's costs:
#  1. roce-report merging 1024, 2048 and 4096 node fragments (8 RoCE ports
#     each, made by a real roce-epilog and copied under other node names):
#     median wall time and max RSS of 5 runs per size and format.  RSS per
#     node should stay flat if memory is linear.
#  2. roce-prolog + roce-epilog own time on a 10-HCA fixture node (in a
#     network namespace with 10 veths when root, so netlink answers): median
#     wall and user+sys of 21 runs; then the same in process, phase by phase
#     (bench/report-phases.c: what the SPANK plugin pays, no exec).
# Times come from bench/report-time.c (fork/exec/wait4 around one run).
set -u
B=${1:?usage: bench/report.sh BUILDDIR}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib/fabric.sh"
. "$top/tests/lib/netns.sh"
RUNS=${RUNS:-5}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
T=$(mktemp -d)
NS=roce-bench-$$
trap 'netns_destroy $NS; rm -rf "$T"' EXIT
TIME=$T/report-time
${CC:-cc} -O2 -o "$TIME" "$top/bench/report-time.c" || { echo "cannot build bench/report-time.c"; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

INNS=""
if netns_available && netns_create "$NS"; then
	for i in $(seq 0 9); do netns_veth "$NS" "eth$i" 9000; done
	INNS="ip netns exec $NS"
fi

# --- one real fragment of an 8-port node
R=$T/sys8; mkdir -p "$R"; fab_example "$R" 8
printf 'ReportDir=%s\nStateDir=%s\n' "$T/tmpl" "$T/state" >"$T/roce.conf"
export SLURM_JOB_ID=777 SLURM_JOB_UID=1000 SLURMD_NODENAME=tmpl
$INNS "$B/prolog/roce-prolog" --config "$T/roce.conf" --sysfs-root "$R"
fab_counter "$R" mlx5_0 1 hw_counters out_of_sequence 12
$INNS "$B/prolog/roce-epilog" --config "$T/roce.conf" --sysfs-root "$R"
TEMPLATE=$T/tmpl/777/tmpl.json
[ -s "$TEMPLATE" ] || { echo "no template fragment"; exit 1; }
echo "fragment of an 8-port node: $(wc -c <"$TEMPLATE") bytes"

make_fragments() { # N DIR
	mkdir -p "$2/777"
	awk -v n="$1" -v dir="$2/777" '
		{ line[NR] = $0 }
		END {
			for (i = 1; i <= n; i++) {
				f = sprintf("%s/node%04d.json", dir, i)
				for (j = 1; j <= NR; j++) {
					l = line[j]
					sub(/"name": ?"tmpl"/, sprintf("\"name\":\"node%04d\"", i), l)
					print l > f
				}
				close(f)
			}
		}' "$TEMPLATE"
}

printf '\n%-6s %-11s %10s %10s %12s %14s\n' nodes format "wall ms" "cpu ms" "max RSS KiB" "RSS/node KiB"
for n in 1024 2048 4096; do
	make_fragments "$n" "$T/r$n"
	for fmt in text json prometheus; do
		: >"$T/times"; : >"$T/cpu"; : >"$T/rss"
		for _ in $(seq "$RUNS"); do
			"$TIME" "$B/prolog/roce-report" 777 --report-dir "$T/r$n" --format "$fmt" \
				2>"$T/err" | tail -n 1 >"$T/one"
			read -r ms cpu kb <"$T/one"
			echo "$ms" >>"$T/times"; echo "$cpu" >>"$T/cpu"; echo "$kb" >>"$T/rss"
		done
		printf '%-6s %-11s %10s %10s %12s %14s\n' "$n" "$fmt" "$(median <"$T/times")" "$(median <"$T/cpu")" \
			"$(median <"$T/rss")" "$(median <"$T/rss" | awk -v n="$n" '{printf "%.2f", $1 / n}')"
	done
	rm -rf "$T/r$n"
done

# --- prolog + epilog on a 10-HCA node
R=$T/sys10; mkdir -p "$R"; fab_example "$R" 10
printf 'ReportDir=%s\nStateDir=%s\n' "$T/reports" "$T/state" >"$T/roce.conf"
: >"$T/pw"; : >"$T/pc"; : >"$T/ew"; : >"$T/ec"
for i in $(seq 21); do
	export SLURM_JOB_ID=$((1000 + i))
	$INNS "$TIME" "$B/prolog/roce-prolog" --config "$T/roce.conf" --sysfs-root "$R" >"$T/one"
	read -r w c _ <"$T/one"; echo "$w" >>"$T/pw"; echo "$c" >>"$T/pc"
	$INNS "$TIME" "$B/prolog/roce-epilog" --config "$T/roce.conf" --sysfs-root "$R" >"$T/one"
	read -r w c _ <"$T/one"; echo "$w" >>"$T/ew"; echo "$c" >>"$T/ec"
done
echo
echo "10-HCA node (netlink: $([ -n "$INNS" ] && echo "veths in a netns" || echo "host netdevs")), median of 21, milliseconds:"
printf '  roce-prolog  wall %s  user+sys %s\n' "$(median <"$T/pw")" "$(median <"$T/pc")"
printf '  roce-epilog  wall %s  user+sys %s\n' "$(median <"$T/ew")" "$(median <"$T/ec")"

PH=$T/report-phases
if ${CC:-cc} -O2 -I"$B" -I"$top/lib" -o "$PH" "$top/bench/report-phases.c" "$B/lib/.libs/libroce.a" \
	$(pkg-config --libs json-c libmnl hwloc libibverbs) 2>"$T/cc.err"; then
	echo
	echo "in process, median CPU time of 101 rounds (prolog = collect + check + snapshot + state file):"
	echo " StateDir and ReportDir in $T ($(stat -f -c %T "$T")):"
	$INNS "$PH" "$R" "$T/pstate" "$T/preports" 101
	if [ -d /dev/shm ] && SHM=$(mktemp -d /dev/shm/roce-bench.XXXXXX); then
		echo " StateDir on tmpfs (/dev/shm, like /run), ReportDir in $T:"
		$INNS "$PH" "$R" "$SHM/state" "$T/preports2" 101
		rm -rf "$SHM"
	fi
else
	echo "report-phases not built: $(head -3 "$T/cc.err")"
fi
