# SPDX-License-Identifier: GPL-2.0-or-later
# ceph.sh - a real one-host CephFS for tests and benchmarks (the seed site
# keeps SharedDir and ReportDir on CephFS): a monitor, a manager, one OSD
# whose objects live in memory (memstore: no disk, no block device) and a
# metadata server, on loopback, with ceph-fuse clients.  As
# ../shared/notes/cephfs.md shows; no kernel module.  Source it (bash), then:
#
#   ceph_can_run              0 if a Ceph can start here, else prints why (skip_all "$(...)")
#   ceph_start DIR            start the cluster in DIR (made if missing); sets CEPH_CONF
#                             and CEPH_START_MS (how long the start took)
#   ceph_mount MNT [NAME]     mount the file system at MNT with a new ceph-fuse client
#                             named NAME (its own pid file and admin socket), in the
#                             calling process's mount namespace
#   ceph_mount_cmd MNT NAME   the ceph-fuse command line of such a client, for a caller
#                             that runs it elsewhere (another mount namespace)
#   ceph_umount MNT [NAME]    unmount one client and wait until it has exited
#   ceph_remount MNT NAME     unmount and mount again: a client with a cold cache
#   ceph_stop                 unmount every client ceph_mount made, kill every daemon
#                             (by the pids in DIR/run), nothing left behind
#
# One cluster per test file, started once: a start costs 10-20 s on a loaded
# 2-core machine (mostly the monitor's and the MDS's own timers).  Ports are
# chosen per process so that two test files can run at once.
# A client started in another mount namespace (slurmlab.sh's nodes) must be
# unmounted there: ceph_stop kills it by its pid file, which ends its mount
# with its namespace.

CEPH_LIB=${BASH_SOURCE[0]}
. "$(dirname "$CEPH_LIB")/poll.sh"
CEPH_DIR=
CEPH_CONF=
CEPH_MOUNTS=()

ceph_can_run() {
	[ "$(id -u)" = 0 ] || { echo "needs root"; return 1; }
	local c
	for c in ceph-mon ceph-mgr ceph-osd ceph-mds ceph-fuse ceph ceph-authtool monmaptool fusermount3 ss; do
		command -v "$c" >/dev/null 2>&1 || { echo "$c not installed (scripts/deps)"; return 1; }
	done
	[ -c /dev/fuse ] || { echo "no /dev/fuse"; return 1; }
	return 0
}

# Two free-looking TCP ports for the monitor (v2, v1), from the pid.
ceph__ports() {
	local base=$((20000 + ($$ % 4000) * 2)) p
	for p in $base $((base + 8000)) $((base + 16000)); do
		if ! ss -Hltn "sport = :$p or sport = :$((p + 1))" 2>/dev/null | grep -q .; then
			echo "$p $((p + 1))"
			return 0
		fi
	done
	echo "$base $((base + 1))"
}

ceph__cmd() { timeout 60 ceph -c "$CEPH_CONF" "$@"; }

ceph__fs_active() { ceph__cmd mds stat 2>/dev/null | grep -q 'up:active'; }

ceph_start() {
	local d fsid v2 v1 mon t0=$SECONDS
	local ms0
	ms0=$(date +%s%3N)
	d=$(mkdir -p "$1" && cd "$1" && pwd) || return 1
	CEPH_DIR=$d
	CEPH_CONF=$d/ceph.conf
	fsid=$(cat /proc/sys/kernel/random/uuid)
	read -r v2 v1 < <(ceph__ports)
	mon="[v2:127.0.0.1:$v2,v1:127.0.0.1:$v1]"
	mkdir -p "$d"/{mon,osd0,mds,run,log} || return 1
	cat >"$CEPH_CONF" <<EOF
[global]
fsid = $fsid
mon host = $mon
public addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
osd pool default size = 1
osd pool default min size = 1
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
osd objectstore = memstore
memstore device bytes = 1073741824
run dir = $d/run
pid file = $d/run/\$name.pid
log file = $d/log/\$name.log
admin socket = $d/run/\$name.asok
mon data = $d/mon
osd data = $d/osd\$id
mds data = $d/mds
keyring = $d/keyring
mgr initial modules =
EOF
	ceph-authtool --create-keyring "$d/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null || return 1
	monmaptool --create --addv a "$mon" --fsid "$fsid" "$d/monmap" >/dev/null || return 1
	ceph-mon --mkfs -i a --monmap "$d/monmap" -c "$CEPH_CONF" || return 1
	ceph-mon -i a -c "$CEPH_CONF" || return 1
	[ "$(ceph__cmd osd create 2>/dev/null)" = 0 ] || { echo "ceph.sh: osd create failed" >&2; return 1; }
	ceph-osd -i 0 --mkfs -c "$CEPH_CONF" >/dev/null 2>&1 || { echo "ceph.sh: ceph-osd --mkfs failed" >&2; return 1; }
	ceph-osd -i 0 -c "$CEPH_CONF" 2>/dev/null || return 1
	ceph-mgr -i x -c "$CEPH_CONF" || return 1
	ceph__cmd osd pool create cephfs_data 8 >/dev/null 2>&1 &&
		ceph__cmd osd pool create cephfs_metadata 8 >/dev/null 2>&1 &&
		ceph__cmd fs new cephfs cephfs_metadata cephfs_data >/dev/null 2>&1 ||
		{ echo "ceph.sh: creating the file system failed" >&2; return 1; }
	ceph-mds -i a -c "$CEPH_CONF" >/dev/null || return 1
	lab_poll ${CEPH_WAIT:-120} ceph__fs_active || { echo "ceph.sh: the MDS is not active after 120 s" >&2; return 1; }
	CEPH_START_MS=$(($(date +%s%3N) - ms0))
	: "$t0"
}

# ceph_mount_cmd MNT NAME: the client command (it daemonizes once mounted)
ceph_mount_cmd() {
	printf '%s\n' ceph-fuse -c "$CEPH_CONF" --id admin --pid-file "$CEPH_DIR/run/fuse.$2.pid" \
		--admin-socket "$CEPH_DIR/run/fuse.$2.asok" --log-file "$CEPH_DIR/log/fuse.$2.log" "$1"
}

ceph__mounted() { findmnt -n -M "$1" -t fuse.ceph-fuse >/dev/null 2>&1; }

ceph_mount() {
	local mnt=$1 name=${2:-c${#CEPH_MOUNTS[@]}}
	mkdir -p "$mnt" || return 1
	mapfile -t cmd < <(ceph_mount_cmd "$mnt" "$name")
	"${cmd[@]}" >>"$CEPH_DIR/log/fuse.$name.out" 2>&1 || { echo "ceph.sh: ceph-fuse $mnt failed" >&2; return 1; }
	lab_poll 30 ceph__mounted "$mnt" || { echo "ceph.sh: $mnt not mounted" >&2; return 1; }
	CEPH_MOUNTS+=("$mnt $name")
}

# Wait for a client's process to end (its pid file names it).
ceph__client_gone() {
	local f=$CEPH_DIR/run/fuse.$1.pid pid
	[ -s "$f" ] || return 0
	pid=$(cat "$f")
	# unmounted: it only closes its session, which no one waits for
	lab_poll 2 lab_gone "$pid" || { kill -9 "$pid" 2>/dev/null && lab_poll 10 lab_gone "$pid"; }
	rm -f "$f"
}

ceph_umount() {
	local mnt=$1 name=${2:-} m
	if [ -z "$name" ]; then
		for m in "${CEPH_MOUNTS[@]}"; do [ "${m% *}" = "$mnt" ] && name=${m#* }; done
	fi
	fusermount3 -u "$mnt" 2>/dev/null || fusermount3 -uz "$mnt" 2>/dev/null
	[ -z "$name" ] || ceph__client_gone "$name"
	local keep=()
	for m in "${CEPH_MOUNTS[@]}"; do [ "${m% *}" = "$mnt" ] || keep+=("$m"); done
	CEPH_MOUNTS=("${keep[@]}")
}

ceph_remount() {
	ceph_umount "$1" "$2" && ceph_mount "$1" "$2"
}

ceph_stop() {
	local m f pid
	[ -n "$CEPH_DIR" ] || return 0
	for m in "${CEPH_MOUNTS[@]}"; do
		fusermount3 -u "${m% *}" 2>/dev/null || fusermount3 -uz "${m% *}" 2>/dev/null
	done
	CEPH_MOUNTS=()
	# SIGKILL, all at once: nothing of theirs is kept (a clean shutdown takes
	# 10-15 s).  A client in another mount namespace goes with its process,
	# and its mount with the namespace.
	local pids=()
	for f in "$CEPH_DIR"/run/fuse.*.pid "$CEPH_DIR"/run/mds.a.pid "$CEPH_DIR"/run/osd.0.pid \
		"$CEPH_DIR"/run/mgr.x.pid "$CEPH_DIR"/run/mon.a.pid; do
		pid=$(cat "$f" 2>/dev/null) || continue
		[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null && pids+=("$pid")
		rm -f "$f"
	done
	for pid in "${pids[@]}"; do lab_poll 20 lab_gone "$pid"; done
	CEPH_DIR=
}
