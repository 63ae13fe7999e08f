#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fault matrix, netlink side.  A netlink peer that misbehaves (silent,
# garbage, garbled, truncated, about another netdev, late) is a child
# process on the far end of an AF_UNIX socketpair handed to
# roce_nl_open_fd() (tests/helpers/faultprobe nl); every request must end in
# a defined reading within its deadline.  A driver without DCB is a real
# veth in a private network namespace, through roce-check.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
CHECK="$top_builddir/prolog/roce-check"
PROBE="$top_builddir/tests/helpers/faultprobe"
T=$(mktemp -d)
NS=roce-nf-$$
trap 'netns_destroy $NS; rm -rf "$T"' EXIT
val() { sed -n "s/^$1=//p" <<<"$out"; }
crashes=""
probe() { # probe MODE DEADLINE_MS: sets out, rc
	out=$("$PROBE" nl "$1" "$2" 2>&1)
	rc=$?
	[ "$rc" != 0 ] && crashes="$crashes
--- nl $1 (exit $rc)
$out"
	return 0
}

# Two requests (link, DCB) of 300 ms each: at most 600 ms plus scheduling
# slack (3 s: a loaded test machine; a hang, or a deadline that garbage
# restarts, takes far longer).
probe silent 300
is "$(val link)/$(val pfc)/$(val dscp)" "timed out/timed out/timed out" "silent peer: every reading TIMEOUT"
like "$(val link_why)" "RTM_GETLINK eth0: no answer from the kernel within the deadline" "silent peer: the why names the request"
ok "silent peer: the deadline fired ($(val ms) ms for 2 x 300 ms)" test "$(val ms)" -ge 600 -a "$(val ms)" -lt 3000

probe garbage 300
is "$(val link)/$(val pfc)" "timed out/timed out" "non-netlink bytes: ignored, the request times out"
ok "non-netlink bytes: within the deadline ($(val ms) ms)" test "$(val ms)" -lt 3000

probe garbled 300
is "$(val link)/$(val pfc)/$(val dscp)" "malformed/malformed/malformed" "garbled attributes: MALFORMED"
like "$(val link_why)" "RTM_GETLINK eth0: attribute overruns the [0-9]+-byte message" "garbled attributes: the why says how"
is "$(val mtu)" 0 "garbled attributes: no value taken from it"

probe truncated 300
is "$(val link)/$(val pfc)" "timed out/timed out" "truncated datagram (nlmsg_len past its end): never parsed, times out"
ok "truncated datagram: within the deadline ($(val ms) ms)" test "$(val ms)" -lt 3000

probe overrun 300
is "$(val link)/$(val pfc)" "malformed/malformed" "last attribute cut short: MALFORMED"

probe wrongname 300
like "$(val link_why)" "reply is about netdev eth9" "reply about another netdev: MALFORMED, named"

probe eopnotsupp 300
is "$(val link)/$(val pfc)/$(val dscp)" "ok/not supported/not supported" "EOPNOTSUPP from DCB: UNSUPPORTED, link still read"
like "$(val pfc_why)" "driver has no DCB support \(Operation not supported\)" "EOPNOTSUPP: the why says unknown, not disabled"

# ETS and receive buffers (issue 12) come in the same DCB reply, through the real transport
probe etsbuf 300
is "$(val pfc)/$(val dscp)/$(val ets)/$(val buffer)" "ok/ok/ok/ok" "ETS and buffers in the DCB reply: every object read"
is "$(val prio_tc)|$(val tc_tx_bw)|$(val tc_tsa)" "0,0,0,3,0,0,0,0|50,0,0,50,0,0,0,0|2,2,2,2,2,2,2,2" \
	"ETS: priority 3 on TC 3, 50 % each for TC 0 and 3, TSA ETS"
is "$(val prio2buffer)|$(val buffer_size)|$(val total_size)" "0,0,0,1,0,0,0,0|130944,130944,0,0,0,0,0,0|524288" \
	"buffers: priority 3 alone in buffer 1, sizes and total as sent"
probe shortets 300
is "$(val pfc)/$(val dscp)/$(val ets)/$(val buffer)" "ok/ok/malformed/malformed" "ETS and buffers cut short: MALFORMED, PFC and APP still read"
like "$(val ets_why)" "RTM_GETDCB eth0: DCB_ATTR_IEEE_ETS has [0-9]+ bytes, struct ieee_ets is [0-9]+" "short ETS: netdev and attribute named"
like "$(val buffer_why)" "RTM_GETDCB eth0: DCB_ATTR_DCB_BUFFER has [0-9]+ bytes, struct dcbnl_buffer is [0-9]+" "short buffers: netdev and attribute named"
probe overrun 300
is "$(val ets)/$(val buffer)" "malformed/malformed" "garbled reply: ETS and buffers MALFORMED too"
probe eopnotsupp 300
is "$(val ets)/$(val buffer)" "not supported/not supported" "no DCB: ETS and buffers not reported"
probe wrongname 300
is "$(val ets)" "malformed" "reply about another netdev: ETS not taken"

probe late 300
is "$(val link)/$(val pfc)" "timed out/timed out" "answer after the deadline: TIMEOUT, and the stale answer is not taken for the next request"

# The real kernel: veths have no DCB.
if netns_available && netns_create "$NS" && netns_veth "$NS" eth0 9000 && netns_veth "$NS" eth1 9000; then
	R=$T/node; mkdir -p "$R"; fab_example "$R" 2
	out=$(ip netns exec "$NS" "$CHECK" --config /dev/null --sysfs-root "$R" 2>&1); rc=$?
	like "$out" "WARN +pfc +mlx5_0:1 +eth0 has no DCB: PFC unknown \(PfcPriority=none or PfcUnknown= in roce.conf\)" "veth EOPNOTSUPP: PFC unknown, one short warning naming the keys"
	is "$rc" 0 "veth EOPNOTSUPP: PfcUnknown=warn passes"
	out=$(ip netns exec "$NS" "$CHECK" --config /dev/null --sysfs-root "$R" --set PfcUnknown=fail 2>&1); rc=$?
	is "$rc" 1 "veth EOPNOTSUPP: PfcUnknown=fail fails"
	# a port netdev that does not exist in the namespace
	ip -n "$NS" link del eth1
	out=$(ip netns exec "$NS" "$CHECK" --config /dev/null --sysfs-root "$R" 2>&1); rc=$?
	like "$out" "FAIL +netdev +mlx5_1:1 +eth1 \(netdev of mlx5_1 port 1\) does not exist in this network namespace" "netdev gone: FAIL, named"
	like "$out" "NCCL_IB_HCA==mlx5_0:1$" "netdev gone: that port is left out"
	[ "$rc" -gt 2 ] && crashes="$crashes
--- roce-check (exit $rc)"
else
	for i in 1 2 3 4 5; do skip "needs root and ip netns"; done
fi
is "$crashes" "" "no crash or sanitizer report"
done_testing
