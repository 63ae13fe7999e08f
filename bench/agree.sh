#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/agree.sh BUILDDIR [BEFORE_BUILDDIR] - the job-wide agreement's srun
# side (issues 11, 26): N synthetic fingerprints written as the job prologs
# write them, then read and agreed on in process as srun does at step start
# (bench/agree.c: the same lib/agree/shareddir.c and lib/agree/agree.c), for
# N = 1024, 4096 and 16384 (SIZES=...); median wall, CPU and max RSS of RUNS
# runs each, the files the reader opened, and the writers' cost per node.
# Target: under 1 s for 16384 nodes, also on CephFS with a cold cache.
#
# Where (each measured in turn, side by side):
#   local                 a directory in TMPDIR
#   WRITE_DIR= READ_DIR=  a shared file system as the nodes see it (written
#                         through WRITE_DIR) and as srun sees it (read through
#                         READ_DIR: the same directory through another client);
#                         READ_REMOUNT='CMD' runs before every read (a remount
#                         of READ_DIR's client: a cold cache)
#   CEPH=1                a one-host CephFS (tests/lib/ceph.sh, root) with two
#                         ceph-fuse clients, the reader's remounted before every
#                         read; its start-up time is printed
# With BEFORE_BUILDDIR (e.g. a build of an earlier commit), its own
# bench/agree.c runs on its own layout, in turn with BUILDDIR's.
set -u
B=${1:?usage: bench/agree.sh BUILDDIR [BEFORE_BUILDDIR]}
A=${2:-}
S=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-3}
SIZES=${SIZES:-1024 4096 16384}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
T=$(mktemp -d)
chmod 755 "$T"
CEPH_STARTED=0
cleanup() {
	[ "$CEPH_STARTED" = 1 ] && ceph_stop
	rm -rf "$T"
}
trap cleanup EXIT

builds=after
declare -A bdir=([after]=$B)
[ -n "$A" ] && { builds="before after"; bdir[before]=$A; }
for b in $builds; do
	src=$(sed -n 's/^abs_top_srcdir = //p' "${bdir[$b]}/Makefile")
	# shellcheck disable=SC2046
	cc -O2 -I"${bdir[$b]}" -I"$src/lib" -o "$T/agree.$b" "$src/bench/agree.c" "${bdir[$b]}/lib/.libs/libroce.a" \
		$(pkg-config --libs libmnl json-c hwloc libibverbs) 2>"$T/cc.err" ||
		{ echo "cannot build $src/bench/agree.c: $(head -3 "$T/cc.err")"; exit 1; }
	echo "$b: ${bdir[$b]} ($(git -C "$src" describe --always --dirty 2>/dev/null))"
done

# places: "NAME WRITE READ REMOUNT"
places=("local $T/local $T/local :")
if [ "${CEPH:-0}" = 1 ]; then
	. "$S/tests/lib/ceph.sh"
	why=$(ceph_can_run) || { echo "CEPH=1: $why"; exit 1; }
	ceph_start "$T/ceph" || { echo "CEPH=1: the cluster did not start"; exit 1; }
	CEPH_STARTED=1
	ceph_mount "$T/w" writer && ceph_mount "$T/r" reader || exit 1
	echo "one-host CephFS started in $CEPH_START_MS ms ($(ceph --version | cut -d' ' -f3,5))"
	places+=("cephfs $T/w/agree $T/r/agree ceph_remount $T/r reader")
elif [ -n "${WRITE_DIR:-}" ]; then
	places+=("shared $WRITE_DIR ${READ_DIR:-$WRITE_DIR} ${READ_REMOUNT:-:}")
fi

ms() { date +%s%3N; }
for p in "${places[@]}"; do
	read -r name wdir _ <<<"$p"
	for b in $builds; do
		for n in $SIZES; do
			mkdir -p "$wdir/$b.$n"
			t0=$(ms)
			"$T/agree.$b" "$wdir/$b.$n" "$n" write || exit 1
			echo "$(( $(ms) - t0 ))" >"$T/write.$name.$b.$n"
		done
	done
done
for _ in $(seq "$RUNS"); do
	for p in "${places[@]}"; do
		read -r name _ rdir remount <<<"$p"
		for n in $SIZES; do
			for b in $builds; do
				eval "$remount" >/dev/null || { echo "$remount failed"; exit 1; }
				"$T/agree.$b" "$rdir/$b.$n" "$n" gather >>"$T/r.$name.$b.$n" || exit 1
			done
		done
	done
done
med() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
col() { cut -d' ' -f"$1" "$2" | med; }
printf '\n%-7s %-6s %6s %10s %10s %11s %6s %6s %14s\n' where build nodes wall_ms cpu_ms maxrss_kib rails files \
	write_ms/node
for p in "${places[@]}"; do
	read -r name _ <<<"$p"
	for n in $SIZES; do
		for b in $builds; do
			f=$T/r.$name.$b.$n
			files=$(col 5 "$f"); [ -n "$files" ] || files=$n
			printf '%-7s %-6s %6s %10s %10s %11s %6s %6s %14.2f\n' "$name" "$b" "$n" "$(col 1 "$f")" "$(col 2 "$f")" \
				"$(col 3 "$f")" "$(col 4 "$f" | head -1)" "$files" \
				"$(awk -v w="$(cat "$T/write.$name.$b.$n")" -v n="$n" 'BEGIN { print w / n }')"
		done
	done
done
echo "(wall, CPU, RSS: median of $RUNS runs; CephFS read through a client remounted before each run: a cold cache)"
