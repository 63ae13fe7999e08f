#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The netlink collector on 10 veth netdevs (link + DCB, 20 requests on one
# socket in one process), side by side with what a shell prolog would run
# for the same facts: `ip -j link show` and `dcb -j pfc show` / `dcb -j app
# show` per netdev (three forks each).  Then 1000 link + 1000 DCB requests
# in one process, where the collector's own cost shows instead of exec.
# Medians of N round-robin runs.  With BASE_BUILDDIR (an earlier build, e.g.
# of main), its nlprobe runs in the same rounds, next to ours.
# Usage: bench/netlink.sh BUILDDIR [RUNS] [BASE_BUILDDIR]
set -eu
B=$(cd "$1" && pwd); N=${2:-51}; BASE=${3:+$(cd "$3" && pwd)}
S=$(cd "$(dirname "$0")/.." && pwd)
. "$S/tests/lib/netns.sh"
netns_available || { echo "bench/netlink: needs root and ip netns"; exit 0; }
# nlprobe BUILDDIR: its nlprobe, built if need be (tests/nlprobe in a build
# of a tree older than tests/helpers/)
nlprobe() {
	local p
	for p in tests/helpers/nlprobe tests/nlprobe; do
		[ -x "$1/$p" ] || make -C "$1" "$p" >/dev/null 2>&1 || continue
		echo "$1/$p"; return 0
	done
	echo "bench/netlink: no nlprobe in $1" >&2; return 1
}
P=$(nlprobe "$B")
[ -z "$BASE" ] || PBASE=$(nlprobe "$BASE")
command -v dcb >/dev/null || { echo "bench/netlink: needs dcb(8) from iproute2"; exit 0; }
T=$(mktemp -d); NS=roce-nlbench-$$
trap 'netns_destroy $NS; rm -rf "$T"' EXIT
netns_create "$NS"
devs=""
for i in $(seq 0 9); do netns_veth "$NS" "eth$i" 9000; devs="$devs eth$i"; done
many=""
for _ in $(seq 1 100); do many="$many$devs"; done
cc -O2 -o "$T/timeit" "$S/bench/timeit.c"
cat >"$T/shell.sh" <<'SH'
#!/bin/bash
for d in "$@"; do
	ip -j link show dev "$d"
	dcb -j pfc show dev "$d" || true
	dcb -j app show dev "$d" || true
done
SH
chmod +x "$T/shell.sh"
# add_probe SUFFIX NLPROBE: the nlprobe rows of one build
rows=()
add_probe() {
	# shellcheck disable=SC2206
	rows+=("nlprobe -c (roce_collect_netlink, 20 requests)$1" -- "$2" -c $devs :::
	       "nlprobe lo (1 link + 1 DCB request)$1" -- "$2" lo :::
	       "nlprobe 10 veths x 100 (2000 requests)$1" -- "$2" $many :::)
}
add_probe "" "$P"
[ -z "$BASE" ] || { add_probe " BASE" "$PBASE"; echo "BASE = $BASE"; }
echo "== netlink collector, 10 veths (MTU 9000; DCB answers EOPNOTSUPP), $N runs each, round-robin, inside a netns"
# shellcheck disable=SC2086
ip netns exec "$NS" "$T/timeit" "$N" "${rows[@]}" \
	"/bin/true (fork+exec)" -- /bin/true ::: \
	"shell: ip link + dcb pfc + dcb app per netdev" -- "$T/shell.sh" $devs

# nlparse_build BUILDDIR OUT: bench/nlparse.c against that build's library
# and headers (a library from before lib/collect/netlink/rtlink.c names its parsers the old way)
nlparse_build() {
	local src names=""
	src=$(sed -n 's/^abs_top_srcdir = //p' "$1/Makefile")
	nm "$1/lib/.libs/libroce.a" 2>/dev/null | grep -q ' T roce_rtlink_parse$' ||
		names="-DPARSE_LINK=roce_parse_link_msg -DPARSE_DCB=roce_parse_dcb_msg"
	# shellcheck disable=SC2046,SC2086
	cc -O2 $names -I"$1" -I"$src/lib" -I"$S/tests/lib" $(pkg-config --cflags libmnl) -o "$2" \
		"$S/bench/nlparse.c" "$S/tests/lib/nlreply.c" "$1/lib/.libs/libroce.a" \
		$(pkg-config --libs libmnl json-c hwloc libibverbs)
}
median_cols() { # FILE: the median of each column
	local i
	for i in 1 2 3; do
		cut -d' ' -f"$i" "$1" | sort -n | awk '{ a[NR] = $1 } END { printf "%10.1f", a[int((NR + 1) / 2)] }'
	done
}
nlparse_build "$B" "$T/nlparse"
[ -z "$BASE" ] || nlparse_build "$BASE" "$T/nlparse-base"
for _ in $(seq 1 "$N"); do
	"$T/nlparse" >>"$T/parse"
	[ -z "$BASE" ] || "$T/nlparse-base" >>"$T/parse-base"
done
echo "== reply parsers in process (bench/nlparse.c), CPU ns per message (RTM_NEWLINK, full RTM_GETDCB, DCB EOPNOTSUPP), median of $N runs of 100000, alternating"
printf '%-10s%10s%10s%10s\n' "" link dcb eopnotsupp
printf '%-10s%s\n' ours "$(median_cols "$T/parse")"
[ -z "$BASE" ] || printf '%-10s%s\n' BASE "$(median_cols "$T/parse-base")"
