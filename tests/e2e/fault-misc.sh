#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fault matrix, the rest: hwloc topologies that cannot load, roce.conf and
# --set values that are broken or hostile, the SPANK option value check on
# hostile strings, and counter resets, wraps and vanished ports between the
# prolog's and the epilog's snapshots.  Needs no root.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
CHECK="$top_builddir/prolog/roce-check"
PROBE="$top_builddir/tests/helpers/faultprobe"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
EMPTY=$T/nosys; mkdir -p "$EMPTY"   # no RDMA devices: no netlink either
crashes=""
n_runs=0
run() { # run ARGS...: roce-check on an empty sysfs root, RUN_TIMEOUT (10) s at most; sets out, rc, ms
	local t0
	t0=$(date +%s%N)
	out=$(timeout -s KILL "${RUN_TIMEOUT:-10}" "$CHECK" --sysfs-root "$EMPTY" "$@" 2>&1)
	rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	n_runs=$((n_runs + 1))
	if [ "$rc" -gt 2 ] && [ "$rc" != 137 ] || grep -qE 'Sanitizer|runtime error|Segmentation' <<<"$out"; then
		crashes="$crashes
--- $* (exit $rc)
$out"
	fi
}

# ---------------------------------------------------------------- hwloc
printf '<?xml version="1.0"?>\n<topology version="2.0"><object type="Machine"' >"$T/bad.xml"
: >"$T/empty.xml"
mkfifo "$T/fifo.xml"
run --config /dev/null --topology "$T/bad.xml"
is "$rc" 2 "truncated hwloc XML on the command line: usage error (2)"
like "$out" "bad.xml: hwloc cannot load this XML topology" "truncated hwloc XML: named"
run --config /dev/null --topology "$T/missing.xml"
like "$rc $out" "^2 .*missing.xml: No such file or directory" "missing topology file: exit 2, named"
run --config /dev/null --topology "$T/empty.xml"
like "$rc $out" "^2 .*empty.xml: hwloc cannot load" "empty topology file: exit 2, named"
run --config /dev/null --topology "$T/fifo.xml"
like "$rc $out" "^2 .*fifo.xml: not a regular file" "FIFO as topology: refused, no hang (${ms} ms)"
run --config /dev/null --set TopologyFile="$T/bad.xml" --gpus 0
like "$out" "WARN +locality +node +topology cannot be loaded \(.*bad.xml: hwloc cannot load this XML topology.*\): NCCL_IB_HCA lists every healthy HCA" \
	"bad TopologyFile= in the policy: a warning, every healthy HCA used"
is "$rc" 1 "bad TopologyFile=: the exit status is the node's (no devices: 1), not a usage error"

# ---------------------------------------------------------------- roce.conf
mkdir "$T/confdir"
{ printf 'Mtu=9000 '; head -c 1100 /dev/zero | tr '\0' '#'; printf '\n'; } >"$T/long.conf"
printf 'Mtu=9000\nGidIndex=3\0Mode=strict\n' >"$T/nul.conf"
printf '# site policy\nMtu=9000\nReportDir=/tmp/$(id)\n' >"$T/hostile.conf"
printf 'GidIndex=3 Mode="strict"\n' >"$T/quoted.conf"
run --config "$T/confdir"
like "$rc $out" "^2 .*confdir: (not a regular file|read error: Is a directory)" "roce.conf is a directory: exit 2, named"
run --config "$T/long.conf"
like "$rc $out" "^2 .*long.conf:1: line longer than 1024 bytes" "overlong roce.conf line: exit 2, file and line"
run --config "$T/nul.conf"
like "$rc $out" "^2 .*nul.conf:2: NUL byte in line" "NUL byte in roce.conf: exit 2, file and line"
run --config "$T/hostile.conf"
like "$rc $out" '^2 .*hostile.conf:3: ReportDir: invalid value "/tmp/\$\(id\)"' "shell syntax in a roce.conf value: refused, file, line and key"
run --config "$T/quoted.conf"
like "$rc $out" '^2 .*quoted.conf:1: Mode: invalid value ""strict""' "quotes in a roce.conf value: refused"
run --config "$T/missing.conf"
like "$rc $out" "^2 .*missing.conf: cannot open: No such file or directory" "a named roce.conf that does not exist: exit 2"
for kv in 'Mode=strict;reboot' 'Hca=mlx5_0,../../etc' 'GidIndex=99999999999999999999' 'TimeoutMs=-1' 'SysfsRoot=/sys/../etc' '=3' 'GidIndex'; do
	run --config /dev/null --set "$kv"
	like "$rc $out" "^2 roce-check: --set: " "--set '$kv': refused (exit 2)"
done
run --config /dev/null --set "Mtu=$(printf '9000\nMode=off')"
is "$rc" 2 "--set with a newline in the value: refused"
is "$(printf '%s\n' "$out" | wc -l)" 1 "--set with a newline: the error message does not echo the raw newline"
mkfifo "$T/fifo.conf"
RUN_TIMEOUT=5 run --config "$T/fifo.conf"
like "$rc $out" "^2 .*fifo.conf: not a regular file" "FIFO as roce.conf: refused without blocking (${ms} ms)"

# ---------------------------------------------------------------- the SPANK option value
out=$("$PROBE" opt strict STRICT wArN off 'warn;id' '$(id)' "$(printf 'strict\nNCCL_IB_HCA=x')" '' 'off ' \
	"$(head -c 100 /dev/zero | tr '\0' a)" "$(printf '\303\251')" 'warn=strict' 'strict#' "$(printf 'str\tict')" 2>&1)
is "$out" 'value=strict mode=strict token=ok
value=STRICT mode=strict token=ok
value=wArN mode=warn token=ok
value=off mode=off token=ok
value=warn;id mode=refused token=refused
value=$(id) mode=refused token=refused
value=strict\x0aNCCL_IB_HCA=x mode=refused token=refused
value= mode=refused token=refused
value=off  mode=refused token=refused
value=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa mode=refused token=refused
value=\xc3\xa9 mode=refused token=refused
value=warn=strict mode=refused token=refused
value=strict# mode=refused token=refused
value=str\x09ict mode=refused token=refused' "hostile --roce= values: only off/warn/strict (any case) pass, every other string is refused by both checks"

# ---------------------------------------------------------------- counters
S=$T/start; E=$T/end; mkdir -p "$S"
fab_example "$S" 2
for c in port_xmit_data port_rcv_data port_xmit_packets port_rcv_packets; do
	fab_counter "$S" mlx5_0 1 counters $c 5000000; fab_counter "$S" mlx5_1 1 counters $c 5000000
done
fab_counter "$S" mlx5_0 1 hw_counters out_of_sequence 4294967000
fab_counter "$S" mlx5_1 1 hw_counters out_of_sequence 4294967000
cp -a "$S" "$E"
# mlx5_0: the driver reloaded (every counter restarted); mlx5_1: 32-bit wrap only
for c in port_xmit_data port_rcv_data port_xmit_packets port_rcv_packets; do
	fab_counter "$E" mlx5_0 1 counters $c 1000; fab_counter "$E" mlx5_1 1 counters $c 6000000
done
fab_counter "$E" mlx5_0 1 hw_counters out_of_sequence 20
fab_counter "$E" mlx5_1 1 hw_counters out_of_sequence 100
printf 'N/A (no PMA)\n' >"$(fab_devdir "$E" mlx5_1)/ports/1/counters/symbol_error"
out=$("$PROBE" delta "$S" "$E" 2>&1); rc=$?
is "$rc" 0 "counter reset: delta computed"
like "$out" "port=mlx5_0:1 presence=present reset=1" "counter reset: the port is marked reset"
like "$out" "counter=mlx5_0:1/port_xmit_data status=reset value=4000 " "counter reset: the count since the reset (words x 4), never a huge number"
like "$out" "counter=mlx5_0:1/out_of_sequence status=reset value=20 " "counter reset: a 32-bit counter of a reset port is a reset, not a wrap"
like "$out" "counter=mlx5_1:1/out_of_sequence status=wrapped value=396 " "32-bit wrap without a reset: exact delta"
like "$out" "verdict=counter_reset severity=warn subject=mlx5_0:1" "counter reset: a warning verdict"
like "$out" "counter=mlx5_1:1/symbol_error status=unread .*\"N/A \(no PMA\)\" is not a counter value" "N/A (no PMA) at the end: UNREAD, named"
rm -rf "$E/class/infiniband/mlx5_1"
out=$("$PROBE" delta "$S" "$E" 2>&1)
like "$out" "port=mlx5_1:1 presence=vanished" "a port gone by the epilog: VANISHED, not zero traffic"
is "$crashes" "" "no crash, kill or sanitizer report in $n_runs runs"
done_testing
