#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The job prolog's fingerprint in SharedDir (issue 11, laid out by digest in
# issue 26: docs/agreement.md): SharedDir/JOB/TIME.DIGEST.NODE, written
# atomically, root's 0444 in a job directory only the job's user (ACL entry)
# and root may list, SharedDir itself 0711; what the node offers NCCL,
# without its name, so that nodes offering the same have the same digest;
# the epilog removes it (the last one the job's directory); SharedDir unset
# writes nothing; a SharedDir root must not write through is refused with a
# log line, and the report still works.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
B="$top_builddir/prolog"

netns_available || skip_all "needs root and ip netns"
command -v jq >/dev/null || skip_all "needs jq"
NS=roce-fp-$$
T=$(mktemp -d)
trap 'netns_destroy $NS; rm -rf "$T"' EXIT
chmod 755 "$T"
netns_create "$NS" || skip_all "cannot create a network namespace"
netns_veth "$NS" eth0 9000
netns_veth "$NS" eth1 9000
R=$T/sys
mkdir -p "$R"
fab_example "$R" 2

conf() { # conf NAME [SHAREDDIR]
	printf 'ReportDir=%s\nStateDir=%s\nPfcPriority=none\n' "$T/reports" "$T/state" >"$T/$1.conf"
	[ -z "${2:-}" ] || echo "SharedDir=$2" >>"$T/$1.conf"
	echo "$T/$1.conf"
}
job() { # job KIND CONF JOBID NODE: sets $out, $rc
	out=$(ip netns exec "$NS" env SLURM_JOB_ID="$3" SLURM_JOB_UID=4001 SLURMD_NODENAME="$4" \
		"$B/roce-$1" --config "$2" --sysfs-root "$R" 2>&1)
	rc=$?
}

C=$(conf with "$T/shared")
t0=$(date +%s)
job prolog "$C" 101 nodeA
is "$rc/$out" "0/" "prolog with SharedDir: exit 0, silent"
F=$(ls -d "$T"/shared/101/*.nodeA 2>/dev/null)
name=${F##*/}
ok "fingerprint written as SharedDir/JOBID/TIME.DIGEST.NODE" test -f "$F"
t=${name%%.*}
ok "TIME is the prolog's clock, in seconds" test "$t" -ge "$t0" -a "$t" -le "$(date +%s)"
is "$(echo "$name" | cut -d. -f2)" "$(sha256sum <"$F" | cut -c1-32)" "DIGEST is the first 128 bits of the content's SHA-256"
is "$(stat -c '%a %U' "$T/shared" "$F" | tr '\n' ' ')" "711 root 444 root " "SharedDir 0711 root (enter, not list), fingerprint 0444 root"
is "$(stat -c '%U' "$T/shared/101")" "root" "the job's directory is root's"
like "$(getfacl -cn "$T/shared/101" 2>/dev/null | tr '\n' ' ')" 'user::rwx user:4001:r-x group::--- mask::r-x other::---' \
	"only the job user (ACL) and root may list and enter it"
is "$(jq -r '[.schema, .job_id, .verdict, has("node")] | join(" ")' "$F")" "slurm-roce/fingerprint/2 101 pass false" \
	"schema, job, verdict, no node name"
is "$(jq -c '[.ports[] | [.device, .port, .netdev, .active_mtu, .netdev_mtu]]' "$F")" \
	'[["mlx5_0",1,"eth0",4096,9000],["mlx5_1",1,"eth1",4096,9000]]' "the healthy ports in order, netdevs and MTUs"
is "$(jq -c '[.gid_index, .addr_family, .traffic_class, .pfc_priority]' "$F")" '[3,4,-1,-1]' \
	"GID index and family, traffic class, PFC priority"
is "$(ls -A "$T/shared/101")" "$name" "no temporaries left"
job prolog "$C" 101 nodeB
FB=$(ls -d "$T"/shared/101/*.nodeB 2>/dev/null)
is "$(echo "${FB##*/}" | cut -d. -f2)" "$(echo "$name" | cut -d. -f2)" "a node offering the same: the same digest"

# a port down: left out of the fingerprint, verdict warn
fab_port "$R" mlx5_1 1 state="1: DOWN" phys="3: Disabled"
job prolog "$C" 102 nodeA
is "$(jq -c '[.verdict, [.ports[].device]]' "$T"/shared/102/*.nodeA)" '["warn",["mlx5_0"]]' "a port down is not offered"
fab_port "$R" mlx5_1 1 state="4: ACTIVE" phys="5: LinkUp"

job epilog "$C" 101 nodeA
is "$rc" 0 "epilog: exit 0"
ok "epilog removes the node's fingerprint" test ! -e "$F"
ok "and only its own" test -f "$FB" -a -n "$(ls "$T"/shared/102/*.nodeA)"
ok "the report is still written" test -f "$T/reports/101/nodeA.json"
job epilog "$C" 101 nodeB
ok "the last epilog of the job removes its directory" test ! -e "$T/shared/101"

# SharedDir= edited while a job runs: the epilog removes the entry from the
# directory the prolog wrote it into (the mark in StateDir names it)
job prolog "$C" 105 nodeA
F5=$(ls -d "$T"/shared/105/*.nodeA 2>/dev/null)
ok "job 105: fingerprint in the SharedDir of its prolog" test -f "$F5"
job epilog "$(conf moved "$T/shared2")" 105 nodeA
ok "SharedDir= changed before the epilog: the entry is removed from where it was written" test ! -e "$F5"
ok "... and the job's directory there with it" test ! -e "$T/shared/105"
job prolog "$C" 106 nodeA
F6=$(ls -d "$T"/shared/106/*.nodeA 2>/dev/null)
job epilog "$(conf without)" 106 nodeA
ok "SharedDir= removed before the epilog: the entry is removed all the same" test ! -e "$F6" -a ! -e "$T/shared/106"
# a mark without the directory (0.2.0's first builds): the epilog's SharedDir
job prolog "$C" 107 nodeA
F7=$(ls -d "$T"/shared/107/*.nodeA 2>/dev/null)
M7=$(ls "$T"/state/107.*nodeA*.shared)
is "$(sed -n 2p "$M7")" "$T/shared" "the mark's second line is the SharedDir written into"
sed -i 2d "$M7"
job epilog "$C" 107 nodeA
ok "a mark with the entry alone: removed from the epilog's SharedDir" test ! -e "$F7"

# unset: nothing
C0=$(conf without)
job prolog "$C0" 103 nodeA
is "$rc/$out" "0/" "prolog without SharedDir: exit 0, silent"
ok "nothing written for job 103" test ! -e "$T/shared/103"

# a SharedDir that is a symbolic link: refused, named, the report unharmed
mkdir -p "$T/elsewhere" && ln -s "$T/elsewhere" "$T/link"
CL=$(conf link "$T/link")
job prolog "$CL" 104 nodeA
is "$rc" 0 "prolog with a linked SharedDir: exit 0 (never fails the job)"
like "$out" "no fingerprint in SharedDir: SharedDir $T/link: .*symbolic link" "the log line names SharedDir and why"
is "$(ls -A "$T/elsewhere")" "" "nothing written through the link"
ok "the counter snapshot was still taken" test -f "$T/state/104.nodeA.snapshot.json"

done_testing
