#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# netlink-veth.sh - the netlink collector against the real kernel, in a
# network namespace of our own: veth pairs with chosen MTUs and states,
# loopback, a netdev that does not exist.  veth has no DCB ops, so the DCB
# answer must be "not supported" (unknown), never "disabled".  TAP output.
set -u
top_srcdir=${top_srcdir:-$(dirname "$0")/../..}
. "$top_srcdir/tests/lib/tap.sh"

probe="${top_builddir:-.}/tests/helpers/nlprobe"
ns="roce-nl-$$"

[ "$(id -u)" = 0 ] || skip_all "needs root (network namespaces)"
command -v ip >/dev/null 2>&1 || skip_all "no ip(8)"
[ -x "$probe" ] || skip_all "$probe not built (make check builds it)"
ip netns add "$ns" 2>/dev/null || skip_all "ip netns add failed (no network namespace support)"
trap 'ip netns del "$ns" 2>/dev/null' EXIT

in_ns() { ip netns exec "$ns" "$@"; }
setup() {
	in_ns ip link set lo up &&
	in_ns ip link add rnl9k type veth peer name rnl9kp &&
	in_ns ip link set rnl9k mtu 9000 && in_ns ip link set rnl9kp mtu 9000 &&
	in_ns ip addr add 192.0.2.1/24 dev rnl9k && in_ns ip addr add 192.0.2.2/24 dev rnl9kp &&
	in_ns ip link set rnl9k up && in_ns ip link set rnl9kp up &&
	in_ns ip link add rnl15 type veth peer name rnl15p &&
	in_ns ip link set rnl15 mtu 1500 &&
	in_ns ip link add rnlhalf type veth peer name rnlhalfp &&
	in_ns ip link set rnlhalf up
}
setup || skip_all "could not create veth pairs in $ns"

# operstate follows carrier asynchronously (linkwatch): wait for it to settle.
settled() {
	in_ns ip -o link show rnl9k | grep -q 'state UP ' &&
	in_ns ip -o link show rnlhalf | grep -q 'state LOWERLAYERDOWN '
}
lab_poll 5 settled

out=$(in_ns "$probe" -t 2000 rnl9k rnl15 rnlhalf lo rnl-nosuch 2>&1)
probe_rc=$?
out_c=$(in_ns "$probe" -c -t 2000 rnl9k rnl-nosuch rnl9k 2>&1)

# expect KEY VALUE [text]: "<netdev>.<key>=<value>" in the probe output
expect() {
	local got
	got=$(printf '%s\n' "$out" | sed -n "s/^$1=//p" | head -1)
	if [ "$got" = "$2" ]; then pass "${3:-$1 = $2}"; else fail "${3:-$1 = $2} (got '$got')" "$1=$got"; fi
}

plan 24
if [ "$probe_rc" = 0 ]; then pass "nlprobe ran in $ns"; else fail "nlprobe ran in $ns (rc $probe_rc)" "$(printf '%s\n' "$out" | head -20)"; fi

expect rnl9k.link ok
expect rnl9k.mtu 9000
expect rnl9k.up 1 "rnl9k (up, peer up) is up"
expect rnl9k.operstate UP
expect rnl9k.ifindex "$(in_ns ip -o link show rnl9k | cut -d: -f1)" "rnl9k ifindex matches ip link"

expect rnl15.mtu 1500
expect rnl15.up 0 "rnl15 (admin down) is down"
expect rnl15.operstate DOWN

# up, but its peer is down: no carrier
expect rnlhalf.up 0 "rnlhalf (up, peer down) is not up"
expect rnlhalf.operstate LOWERLAYERDOWN

# loopback reports no carrier state: UNKNOWN with IFF_UP|IFF_RUNNING is up
expect lo.operstate UNKNOWN
expect lo.up 1 "lo (operstate UNKNOWN, running) counts as up"
expect lo.mtu 65536

expect rnl-nosuch.link missing
expect rnl-nosuch.link_why "netdev rnl-nosuch does not exist in this network namespace"
expect rnl-nosuch.pfc missing

expect rnl9k.pfc "not supported" "DCB PFC on veth is not supported (unknown), not disabled"
expect rnl9k.dscp "not supported" "DCB APP table on veth is not supported"
expect rnl15.pfc "not supported" "DCB on a down veth is not supported either"

# roce_collect_netlink over a model: duplicate port netdevs collapse
out=$out_c
expect collect.rc 2 "roce_collect_netlink: two netdevs not all ok (veth DCB unsupported, one missing)"
cnt=$(printf '%s\n' "$out" | grep -c '^rnl9k\.mtu=')
if [ "$cnt" = 1 ]; then pass "a netdev named by two ports is read once"; else fail "a netdev named by two ports is read once (seen $cnt)"; fi
expect rnl9k.mtu 9000 "collect: rnl9k mtu 9000"
expect rnl-nosuch.link missing "collect: missing netdev is missing"

done_testing
