#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/report.sh BUILDDIR [BEFORE_BUILDDIR] - the job report's costs:
#  1. roce-report merging 1024, 2048 and 4096 node fragments (SIZES="..."
#     for others, e.g. SIZES=16384; 8 RoCE ports each, made by a real
#     roce-epilog and copied under other node names): median wall time and
#     max RSS of RUNS (5) runs per size and format (FORMATS, default text
#     json prometheus html; a format a build lacks shows "-").  RSS per
#     node should stay flat if memory is linear.  REPORT_ONLY=1 stops here.
#  2. roce-prolog + roce-epilog own time on a 10-HCA fixture node (in a
#     network namespace with 10 veths when root, so netlink answers): median
#     wall and user+sys of 21 runs; then the same in process, phase by phase
#     (bench/report-phases.c: what the SPANK plugin pays, no exec).
# Where the fragments are (the merge is read-bound there):
#   (default)        a directory in TMPDIR
#   REPORT_DIR=DIR   a shared file system as the nodes see it (the fragments are
#                    written through DIR); REPORT_READ_DIR= the same directory
#                    as roce-report sees it (another client; default DIR), and
#                    REPORT_REMOUNT='CMD' runs before every run (a cold cache)
#   CEPH=1           a one-host CephFS (tests/lib/ceph.sh, root): written
#                    through one ceph-fuse client, read through another that
#                    is remounted before every run
# With BEFORE_BUILDDIR (e.g. a build of main), every measurement is taken
# for both builds in turn (before, after, before, after, ...) on the same
# fragments, so machine noise hits both alike; each row shows both medians
# and after/before.
# Times come from bench/report-time.c (fork/exec/wait4 around one run).
set -u
B=${1:?usage: bench/report.sh BUILDDIR [BEFORE_BUILDDIR]}
A=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib/fabric.sh"
. "$top/tests/lib/netns.sh"
. "$top/tests/lib/fragcopy.sh"
RUNS=${RUNS:-5}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
T=$(mktemp -d)
chmod 755 "$T"
NS=roce-bench-$$
CEPH_STARTED=0
trap 'netns_destroy $NS; [ "$CEPH_STARTED" = 1 ] && ceph_stop; rm -rf "$T"' EXIT
WDIR=$T RDIR=$T REMOUNT=:
if [ "${CEPH:-0}" = 1 ]; then
	. "$top/tests/lib/ceph.sh"
	why=$(ceph_can_run) || { echo "CEPH=1: $why"; exit 1; }
	ceph_start "$T/ceph" || { echo "CEPH=1: the cluster did not start"; exit 1; }
	CEPH_STARTED=1
	ceph_mount "$T/cw" writer && ceph_mount "$T/cr" reader || exit 1
	echo "one-host CephFS started in $CEPH_START_MS ms; fragments written through one ceph-fuse client, read through another remounted before each run"
	WDIR=$T/cw RDIR=$T/cr REMOUNT="ceph_remount $T/cr reader"
elif [ -n "${REPORT_DIR:-}" ]; then
	WDIR=$REPORT_DIR RDIR=${REPORT_READ_DIR:-$REPORT_DIR} REMOUNT=${REPORT_REMOUNT:-:}
	echo "fragments in $WDIR, read through $RDIR"
fi
TIME=$T/report-time
${CC:-cc} -O2 -o "$TIME" "$top/bench/report-time.c" || { echo "cannot build bench/report-time.c"; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

# The builds measured: "after" alone, or "before after" taken in turn.
builds="after"
declare -A dir=([after]=$B)
if [ -n "$A" ]; then
	builds="before after"
	dir[before]=$A
	echo "before: $A"
	echo "after:  $B"
fi

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

make_fragments() { fragment_copies "$TEMPLATE" "$1" "$2/777" node%04d; } # N DIR

# --- roce-report: the merge
declare -A wall cpu rss
if [ -n "$A" ]; then
	printf '\n%-6s %-11s %25s %25s %23s\n' "" "" "wall ms" "cpu ms" "max RSS KiB"
	printf '%-6s %-11s %9s %9s %5s %9s %9s %5s %8s %8s %5s\n' nodes format \
		before after ratio before after ratio before after ratio
else
	printf '\n%-6s %-11s %10s %10s %12s %14s\n' nodes format "wall ms" "cpu ms" "max RSS KiB" "RSS/node KiB"
fi
for n in ${SIZES:-1024 2048 4096}; do
	make_fragments "$n" "$WDIR/r$n"
	for fmt in ${FORMATS:-text json prometheus html}; do
		for b in $builds; do : >"$T/times.$b"; : >"$T/cpu.$b"; : >"$T/rss.$b"; done
		for _ in $(seq "$RUNS"); do
			for b in $builds; do
				eval "$REMOUNT" >/dev/null || { echo "$REMOUNT failed"; exit 1; }
				"$TIME" "${dir[$b]}/prolog/roce-report" 777 --report-dir "$RDIR/r$n" --format "$fmt" \
					2>"$T/err" | tail -n 1 >"$T/one"
				read -r ms cpu kb <"$T/one"
				# a build without the format (usage error, exit 2): no figure
				grep -q -- "--format must be" "$T/err" && ms=- cpu=- kb=-
				echo "$ms" >>"$T/times.$b"; echo "$cpu" >>"$T/cpu.$b"; echo "$kb" >>"$T/rss.$b"
			done
		done
		for b in $builds; do
			wall[$b]=$(median <"$T/times.$b"); cpu[$b]=$(median <"$T/cpu.$b"); rss[$b]=$(median <"$T/rss.$b")
		done
		if [ -n "$A" ]; then
			printf '%-6s %-11s %9s %9s %5s %9s %9s %5s %8s %8s %5s\n' "$n" "$fmt" \
				"${wall[before]}" "${wall[after]}" "$(ratio "${wall[after]}" "${wall[before]}")" \
				"${cpu[before]}" "${cpu[after]}" "$(ratio "${cpu[after]}" "${cpu[before]}")" \
				"${rss[before]}" "${rss[after]}" "$(ratio "${rss[after]}" "${rss[before]}")"
		else
			printf '%-6s %-11s %10s %10s %12s %14s\n' "$n" "$fmt" "${wall[after]}" "${cpu[after]}" \
				"${rss[after]}" "$(awk -v m="${rss[after]}" -v n="$n" 'BEGIN {printf "%.2f", m / n}')"
		fi
	done
	rm -rf "${WDIR:?}/r$n"
done
[ "${REPORT_ONLY:-0}" = 1 ] && exit 0

# --- prolog + epilog on a 10-HCA node
R=$T/sys10; mkdir -p "$R"; fab_example "$R" 10
for b in $builds; do
	printf 'ReportDir=%s\nStateDir=%s\n' "$T/reports.$b" "$T/state.$b" >"$T/roce.$b.conf"
	: >"$T/pw.$b"; : >"$T/pc.$b"; : >"$T/ew.$b"; : >"$T/ec.$b"
done
for i in $(seq 21); do
	export SLURM_JOB_ID=$((1000 + i))
	for b in $builds; do
		$INNS "$TIME" "${dir[$b]}/prolog/roce-prolog" --config "$T/roce.$b.conf" --sysfs-root "$R" >"$T/one"
		read -r w c _ <"$T/one"; echo "$w" >>"$T/pw.$b"; echo "$c" >>"$T/pc.$b"
		$INNS "$TIME" "${dir[$b]}/prolog/roce-epilog" --config "$T/roce.$b.conf" --sysfs-root "$R" >"$T/one"
		read -r w c _ <"$T/one"; echo "$w" >>"$T/ew.$b"; echo "$c" >>"$T/ec.$b"
	done
done
echo
echo "10-HCA node (netlink: $([ -n "$INNS" ] && echo "veths in a netns" || echo "host netdevs")), median of 21, milliseconds:"
for b in $builds; do
	label=""; [ -n "$A" ] && label="$b "
	printf '  %sroce-prolog  wall %s  user+sys %s\n' "$label" "$(median <"$T/pw.$b")" "$(median <"$T/pc.$b")"
	printf '  %sroce-epilog  wall %s  user+sys %s\n' "$label" "$(median <"$T/ew.$b")" "$(median <"$T/ec.$b")"
done

# --- the same in process, phase by phase: each build's own report-phases.c
phases_built=""
for b in $builds; do
	src=$(sed -n 's/^abs_top_srcdir = //p' "${dir[$b]}/Makefile")
	# shellcheck disable=SC2046
	if ${CC:-cc} -O2 -I"${dir[$b]}" -I"$src/lib" -o "$T/report-phases.$b" "$src/bench/report-phases.c" \
		"${dir[$b]}/lib/.libs/libroce.a" $(pkg-config --libs json-c libmnl hwloc libibverbs) 2>"$T/cc.err"; then
		phases_built="$phases_built $b"
	else
		echo "report-phases ($b) not built: $(head -3 "$T/cc.err")"
	fi
done
if [ -n "$phases_built" ]; then
	echo
	echo "in process, median CPU time of 101 rounds (prolog = collect + check + snapshot + state file):"
	echo " StateDir and ReportDir in $T ($(stat -f -c %T "$T")):"
	for b in $phases_built; do
		[ -n "$A" ] && echo "  $b:"
		$INNS "$T/report-phases.$b" "$R" "$T/pstate.$b" "$T/preports.$b" 101
	done
	if [ -d /dev/shm ] && SHM=$(mktemp -d /dev/shm/roce-bench.XXXXXX); then
		echo " StateDir on tmpfs (/dev/shm, like /run), ReportDir in $T:"
		for b in $phases_built; do
			[ -n "$A" ] && echo "  $b:"
			$INNS "$T/report-phases.$b" "$R" "$SHM/state.$b" "$T/preports2.$b" 101
		done
		rm -rf "$SHM"
	fi
fi
