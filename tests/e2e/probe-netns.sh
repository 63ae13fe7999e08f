#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# probe-netns.sh - the path probe (lib/probe/, tests/helpers/pathprobe)
# between two hosts in network namespaces of their own, each with its rail
# netdev at MTU 9000 on a Linux bridge (one per rail) in a third namespace,
# the switch; TEST-NET-1 addresses only, nothing leaves the namespaces:
#   - all healthy: every size passes, the DSCP arrives as sent, well under
#     the deadline, at most 4 datagrams per try;
#   - one bridge port at MTU 1500 between hosts at 9000 (the seed site's MTU
#     outage): named with the largest size that passed;
#   - the neighbour's netdev on the other rail's bridge: no answer;
#   - another job's key: no answer, the responder counts the probes untagged;
#   - a forged datagram without the tag: no answer;
#   - an IPv6 rail (2001:db8::/32, the documentation prefix): healthy with
#     the DSCP as sent (IPv6's traffic class), and a bridge port at 1500
#     named as on IPv4, sizes counted with IPv6's 40-byte header.
# TAP output.
set -u
top_srcdir=${top_srcdir:-$(dirname "$0")/../..}
. "$top_srcdir/tests/lib/tap.sh"

pp="${top_builddir:-.}/tests/helpers/pathprobe"
tag=rpb$$
SW=$tag-sw H1=$tag-h1 H2=$tag-h2

[ "$(id -u)" = 0 ] || skip_all "needs root (network namespaces)"
command -v ip >/dev/null 2>&1 || skip_all "no ip(8)"
[ -x "$pp" ] || skip_all "$pp not built (make check builds it)"
T=$(mktemp -d) || skip_all "no scratch directory"
cleanup() {
	[ -n "${SERVER:-}" ] && kill "$SERVER" 2>/dev/null
	for ns in $H1 $H2 $SW; do ip netns del "$ns" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

# host_port N IF ADDR BRIDGE: IF in host N's namespace at 9000 with ADDR/26,
# its peer hNIF on BRIDGE in the switch
host_port() {
	local ns=$tag-h$1
	ip link add "$2" netns "$ns" mtu 9000 type veth peer name "h$1$2" netns "$SW" mtu 9000 &&
	ip -n "$SW" link set "h$1$2" master "$4" up &&
	ip -n "$ns" addr add "$3/26" dev "$2" && ip -n "$ns" link set "$2" up
}
setup() {
	for ns in $SW $H1 $H2; do ip netns add "$ns" && ip -n "$ns" link set lo up || return 1; done
	for br in br1 br2; do
		ip -n "$SW" link add "$br" mtu 9000 type bridge && ip -n "$SW" link set "$br" up || return 1
	done
	host_port 1 rail1 192.0.2.1 br1 && host_port 2 rail1 192.0.2.2 br1 &&
	host_port 1 rail2 192.0.2.65 br2 && host_port 2 rail2 192.0.2.66 br2
}
setup || skip_all "could not build the two hosts and their bridges"

# serve NS ADDR PORT PEER MS: a responder in the background, ready when it says so
serve() {
	: >"$T/serve.out"
	ip netns exec "$1" "$pp" serve 7 "$2" "$3" "$4" "$5" >"$T/serve.out" 2>&1 &
	SERVER=$!
	lab_poll 10 grep -q ready "$T/serve.out"
}
# served: wait for the responder's end (in this shell: $(...) cannot wait); its counts in $SERVED
served() { wait "$SERVER"; SERVER=; SERVED=$(tail -1 "$T/serve.out"); }
# probe KEY LOCAL PEER PORT: from h1, TOS 104 (DSCP 26), RDMA MTU 4096 on a 9000 netdev, 500 ms
probe() { ip netns exec "$H1" "$pp" probe "$1" "$2" "$3" "$4" 104 4096 9000 500 >"$T/probe.out" 2>&1; }
verdict() { head -1 "$T/probe.out"; }
field() { sed -n "s/^$1 //p" "$T/probe.out"; }

# --- all healthy, on both rails
for r in 1 2; do
	a=192.0.2.$((r == 1 ? 1 : 65)) b=192.0.2.$((r == 1 ? 2 : 66))
	serve "$H2" "$b" 4791 "$a" 1500 || { fail "the responder did not start: $(cat "$T/serve.out")"; done_testing; }
	probe 7 "$a" "$b" 4791
	is "$(verdict)" "ok" "rail $r healthy: every size (68, 1500, 4160, 9000 bytes) arrived with DSCP 26"
	ok "rail $r: 4 datagrams, answered in $(field ms) ms (deadline 500)" test "$(field sent)" = 4 -a "$(field ms)" -lt 400
	served; like "$SERVED" "^answered 4 untagged 0 stranger 0$" "rail $r: the responder answered the 4 probes"
done

# --- a bridge port at 1500 between hosts at 9000
ip -n "$SW" link set h2rail1 mtu 1500
serve "$H2" 192.0.2.2 4791 192.0.2.1 1500
probe 7 192.0.2.1 192.0.2.2 4791
is "$(verdict)" "largest size that passed 1500 of 9000" "a switch port at MTU 1500: the largest size that passed is named"
n=$(field sent)
ok "at most 8 datagrams: the two jumbo probes tried three times each, no more (sent $n)" test "$n" -ge 4 -a "$n" -le 8
served
ip -n "$SW" link set h2rail1 mtu 9000

# --- h2's rail-2 netdev on rail 1's bridge: up at both ends, unreachable between them
ip -n "$SW" link set h2rail2 master br1
serve "$H2" 192.0.2.66 4791 192.0.2.65 1500
probe 7 192.0.2.65 192.0.2.66 4791
is "$(verdict)" "no answer" "a netdev on the wrong bridge: no answer"
served; like "$SERVED" "^answered 0 " "nothing reached the responder"
ip -n "$SW" link set h2rail2 master br2

# --- another job's key: ignored, counted
serve "$H2" 192.0.2.2 4791 192.0.2.1 1500
probe 8 192.0.2.1 192.0.2.2 4791
is "$(verdict)" "no answer" "another job's key: no answer"
served; like "$SERVED" "^answered 0 untagged ([5-9]|1[0-3]) stranger 0$" "the responder counted every try untagged (4 sizes, at most 3 tries) and the done"

# --- a forged datagram without the tag, from h1's address (the job's): no answer
serve "$H2" 192.0.2.2 4791 192.0.2.1 1000
is "$(ip netns exec "$H1" "$pp" forge 192.0.2.2 4791)" "no answer" "a forged datagram without the tag gets no answer"
served; like "$SERVED" "^answered 0 untagged 2 stranger 0$" "both forged datagrams counted untagged"

# --- an IPv6 rail: rail 1's netdevs get 2001:db8:1::1 and ::2 (no DAD: usable at once)
if ip -n "$H1" addr add 2001:db8:1::1/64 dev rail1 nodad && ip -n "$H2" addr add 2001:db8:1::2/64 dev rail1 nodad; then
	serve "$H2" 2001:db8:1::2 4791 2001:db8:1::1 1500
	probe 7 2001:db8:1::1 2001:db8:1::2 4791
	is "$(verdict)" "ok" "IPv6 rail healthy: every size arrived with DSCP 26 (traffic class 104)"
	served; like "$SERVED" "^answered 4 untagged 0 stranger 0$" "IPv6: the responder answered the 4 probes"
	ip -n "$SW" link set h2rail1 mtu 1500
	serve "$H2" 2001:db8:1::2 4791 2001:db8:1::1 1500
	probe 7 2001:db8:1::1 2001:db8:1::2 4791
	is "$(verdict)" "largest size that passed 1500 of 9000" "IPv6, a switch port at MTU 1500: the largest size that passed is named"
	served
	ip -n "$SW" link set h2rail1 mtu 9000
else
	for i in 1 2 3; do skip "no IPv6 in these namespaces (ipv6.disable=1?)"; done
fi

done_testing
