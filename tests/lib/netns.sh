# SPDX-License-Identifier: GPL-2.0-or-later
# netns.sh - a private network namespace with veth netdevs named like a
# fixture's (eth0, eth1, ...), for tests that need real rtnetlink answers.
# Only links inside the namespace; no addresses leave it.

netns_available() {
	[ "$(id -u)" = 0 ] && command -v ip >/dev/null && ip netns list >/dev/null 2>&1
}

# netns_create NAME: new namespace with lo up; removed by netns_destroy.
netns_create() {
	ip netns add "$1" && ip -n "$1" link set lo up
}

netns_destroy() {
	ip netns del "$1" 2>/dev/null || true
}

# netns_veth NS IFNAME MTU [up|down]: a veth IFNAME (peer p-IFNAME) in NS.
netns_veth() {
	local ns=$1 ifn=$2 mtu=$3 state=${4:-up}
	ip -n "$ns" link add "$ifn" mtu "$mtu" type veth peer name "p-$ifn" mtu "$mtu" || return 1
	ip -n "$ns" link set "p-$ifn" up
	ip -n "$ns" link set "$ifn" "$state"
}

# netns_setup TAG N [MTU]: the start of a test on real netdevs (after tap.sh):
# skip unless root with ip netns; $NS (roce-TAG-PID) with lo up and veths
# eth0..eth<N-1> at MTU (default 9000); $T a fresh scratch directory (0755:
# some checks run as nobody); at exit the test's netns_on_exit hook, then
# both are removed.
netns_on_exit() { :; }
netns__exit() {
	netns_on_exit
	netns_destroy "$NS"
	rm -rf "$T"
}
netns_setup() {
	local i
	netns_available || skip_all "needs root and ip netns"
	NS=roce-$1-$$
	T=$(mktemp -d) && chmod 755 "$T" || skip_all "no scratch directory"
	trap netns__exit EXIT
	netns_create "$NS" || skip_all "cannot create a network namespace"
	for ((i = 0; i < $2; i++)); do
		netns_veth "$NS" "eth$i" "${3:-9000}" || skip_all "cannot create veth eth$i in $NS"
	done
}

# For a check of what an unprivileged reader gets (after netns_setup):
#   netns_nobody_why PATH   why user nobody cannot be tested here ("" when
#                           it can): no setpriv, no user nobody, or PATH not
#                           readable by nobody ($T under a TMPDIR that is not
#                           world-searchable); a test skips with it
#   netns_as_nobody CMD...  CMD in $NS as user nobody
netns_nobody_why() {
	if ! command -v setpriv >/dev/null || ! id nobody >/dev/null 2>&1; then
		echo "no setpriv or no user nobody"
	elif ! netns_as_nobody test -r "$1"; then
		echo "nobody cannot reach $T (TMPDIR not world-searchable)"
	fi
}
netns_as_nobody() { ip netns exec "$NS" setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"; }
