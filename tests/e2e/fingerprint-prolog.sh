#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The job prolog's fingerprint in SharedDir (issue 11): written atomically,
# root's 0440 with the job user's ACL entry, what the node offers NCCL; the
# epilog removes it; SharedDir unset writes nothing; a SharedDir root must
# not write through is refused with a log line, and the report still works.
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
job prolog "$C" 101 nodeA
is "$rc/$out" "0/" "prolog with SharedDir: exit 0, silent"
F=$T/shared/101.nodeA.json
ok "fingerprint written as SharedDir/JOBID.NODE.json" test -f "$F"
is "$(stat -c '%a %U' "$T/shared" "$F" | tr '\n' ' ')" "711 root 440 root " "SharedDir 0711 root (searched, not listed), fingerprint 0440 root"
like "$(getfacl -cn "$F" 2>/dev/null | tr '\n' ' ')" 'user:4001:r--' "the job user may read it (ACL)"
is "$(setpriv --reuid 4001 --regid 4001 --clear-groups cat "$F" | jq -r .node)" nodeA "the job user reads it by its name"
is "$(setpriv --reuid 4001 --regid 4001 --clear-groups ls "$T/shared" 2>&1 >/dev/null | grep -c 'Permission denied')" 1 \
	"but lists nothing: names in SharedDir are built, never listed"
is "$(jq -r '[.schema, .job_id, .node, .verdict] | join(" ")' "$F")" "slurm-roce/fingerprint/1 101 nodeA pass" \
	"schema, job, node, verdict"
is "$(jq -c '[.ports[] | [.device, .port, .netdev, .active_mtu, .netdev_mtu]]' "$F")" \
	'[["mlx5_0",1,"eth0",4096,9000],["mlx5_1",1,"eth1",4096,9000]]' "the healthy ports in order, netdevs and MTUs"
is "$(jq -c '[.gid_index, .addr_family, .traffic_class, .pfc_priority]' "$F")" '[3,4,-1,-1]' \
	"GID index and family, traffic class, PFC priority"
is "$(ls -A "$T/shared")" "101.nodeA.json" "no temporaries left"

# a port down: left out of the fingerprint, verdict warn
fab_port "$R" mlx5_1 1 state="1: DOWN" phys="3: Disabled"
job prolog "$C" 102 nodeA
is "$(jq -c '[.verdict, [.ports[].device]]' "$T/shared/102.nodeA.json")" '["warn",["mlx5_0"]]' "a port down is not offered"
fab_port "$R" mlx5_1 1 state="4: ACTIVE" phys="5: LinkUp"

job epilog "$C" 101 nodeA
is "$rc" 0 "epilog: exit 0"
ok "epilog removes the job's fingerprint" test ! -e "$F"
ok "and only its own" test -f "$T/shared/102.nodeA.json"
ok "the report is still written" test -f "$T/reports/101/nodeA.json"

# unset: nothing
C0=$(conf without)
job prolog "$C0" 103 nodeA
is "$rc/$out" "0/" "prolog without SharedDir: exit 0, silent"
ok "nothing written for job 103" test ! -e "$T/shared/103.nodeA.json"

# a SharedDir that is a symbolic link: refused, named, the report unharmed
mkdir -p "$T/elsewhere" && ln -s "$T/elsewhere" "$T/link"
CL=$(conf link "$T/link")
job prolog "$CL" 104 nodeA
is "$rc" 0 "prolog with a linked SharedDir: exit 0 (never fails the job)"
like "$out" "no fingerprint in SharedDir: SharedDir $T/link: .*symbolic link" "the log line names SharedDir and why"
is "$(ls -A "$T/elsewhere")" "" "nothing written through the link"
ok "the counter snapshot was still taken" test -f "$T/state/104.json"

done_testing
