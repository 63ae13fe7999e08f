#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The job prolog's fingerprint in SharedDir (issue 11, laid out by digest in
# issue 26: docs/agreement.md): SharedDir/JOB/TIME.DIGEST.NODE, written
# atomically, root's 0444 in a job directory only the job's user (ACL entry)
# and root may list, SharedDir itself 0711; what the node offers NCCL,
# without its name, so that nodes offering the same have the same digest;
# the epilog removes it (the last one the job's directory); SharedDir unset
# writes nothing; a SharedDir root must not write through is refused with a
# log line, and the report still works.  Each port's rail is the subnet of
# its GID's address on its netdev, read from the kernel (rtnetlink), or the
# Rails= entry that holds the address; addresses themselves are not in it.
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
# two rails: mlx5_0's GID 192.0.2.10 on eth0 (192.0.2.0/26), mlx5_1's 192.0.2.75 on eth1 (192.0.2.64/26)
fab_roce_ipv4 "$R" mlx5_1 1 eth1 192.0.2.75
ip -n "$NS" addr add 192.0.2.10/26 dev eth0
ip -n "$NS" addr add 192.0.2.75/26 dev eth1
ip -n "$NS" addr add 198.51.100.7/24 dev eth1 # a second address: not the GID's

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
is "$(jq -r '[.schema, .job_id, .verdict, has("node")] | join(" ")' "$F")" "slurm-roce/fingerprint/5 101 pass false" \
	"schema, job, verdict, no node name"
is "$(setpriv --reuid 4001 --regid 4001 --clear-groups ls "$T/shared" 2>&1 >/dev/null | grep -c 'Permission denied')" 1 \
	"the job user lists the job's directory, not SharedDir: which jobs run here is not theirs to see"
is "$(jq -c '[.ports[] | [.device, .port, .netdev, .active_mtu, .netdev_mtu]]' "$F")" \
	'[["mlx5_0",1,"eth0",4096,9000],["mlx5_1",1,"eth1",4096,9000]]' "the healthy ports in order, netdevs and MTUs"
is "$(jq -c '[.gid_index, .addr_family, .traffic_class, .pfc_priority]' "$F")" '[3,4,-1,-1]' \
	"GID index and family, traffic class, PFC priority"
is "$(jq -c '[.ports[] | .rail]' "$F")" '["192.0.2.0/26","192.0.2.64/26"]' \
	"each port's rail: the subnet of its GID's address on its netdev (rtnetlink)"
ok "no address in it" sh -c "! grep -q '192\.0\.2\.10\b\|192\.0\.2\.75\|198\.51' '$F'"
is "$(jq -c '[.devices[] | [.device, .hca_type, .board_id, .fw_ver]], .driver, .trust, [.ports[] | [.rate_gbps, .ecn_np, .ecn_rp]]' "$F" | tr '\n' ' ')" \
	'[["mlx5_0","MT28908","MT_0000000223","20.39.1002"],["mlx5_1","MT28908","MT_0000000223","20.39.1002"]] "" "unknown" [[100,-1,-1],[100,-1,-1]] ' \
	"the adapters' model and firmware, the driver (no version here), trust, link rates, ECN (PfcPriority=none: not looked at)"
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

# Rails=: the entry that holds the address is the rail, whatever the netdev's prefix
CR=$(conf rails "$T/shared")
echo "Rails=a@192.0.2.0/25,b@203.0.113.0/24" >>"$CR"
job prolog "$CR" 105 nodeA
is "$(jq -c '[.ports[] | .rail]' "$T"/shared/105/*.nodeA)" '["192.0.2.0/25","192.0.2.0/25"]' \
	"Rails=: each port's rail is the entry holding its address"
# an address the netdev does not have (it changed since the GID table was read): unknown, never guessed
ip -n "$NS" addr del 192.0.2.75/26 dev eth1
job prolog "$C" 106 nodeA
is "$(jq -c '[.ports[] | .rail]' "$T"/shared/106/*.nodeA)" '["192.0.2.0/26",""]' \
	"no such address on the netdev: the rail is unknown"
ip -n "$NS" addr add 192.0.2.75/26 dev eth1

# SharedDir= edited while a job runs: the epilog removes the entry from the
# directory the prolog wrote it into (the mark in StateDir names it)
job prolog "$C" 115 nodeA
F15=$(ls -d "$T"/shared/115/*.nodeA 2>/dev/null)
ok "job 115: fingerprint in the SharedDir of its prolog" test -f "$F15"
job epilog "$(conf moved "$T/shared2")" 115 nodeA
ok "SharedDir= changed before the epilog: the entry is removed from where it was written" test ! -e "$F15"
ok "... and the job's directory there with it" test ! -e "$T/shared/115"
job prolog "$C" 116 nodeA
F16=$(ls -d "$T"/shared/116/*.nodeA 2>/dev/null)
job epilog "$(conf without)" 116 nodeA
ok "SharedDir= removed before the epilog: the entry is removed all the same" test ! -e "$F16" -a ! -e "$T/shared/116"
# a mark without the directory (0.2.0's first builds): the epilog's SharedDir
job prolog "$C" 117 nodeA
F17=$(ls -d "$T"/shared/117/*.nodeA 2>/dev/null)
M17=$(ls "$T"/state/117.*nodeA*.shared)
is "$(sed -n 2p "$M17")" "$T/shared" "the mark's second line is the SharedDir written into"
sed -i 2d "$M17"
job epilog "$C" 117 nodeA
ok "a mark with the entry alone: removed from the epilog's SharedDir" test ! -e "$F17"

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

# a SharedDir every user can list (made by hand 0755): refused, named, left as it is
mkdir -m 755 "$T/listed"
CO=$(conf listed "$T/listed")
job prolog "$CO" 105 nodeA
is "$rc" 0 "prolog with a listable SharedDir: exit 0"
like "$out" "no fingerprint in SharedDir: SharedDir $T/listed: $T/listed is listable by every user \(mode 755\).*chmod o-r" \
	"the log line says why and what to do"
is "$(stat -c %a "$T/listed") $(ls -A "$T/listed")" "755 " "nothing written in it, its mode left alone"

done_testing
