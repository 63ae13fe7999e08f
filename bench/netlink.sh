#!/bin/bash
# The netlink collector on 10 veth netdevs (link + DCB, 20 requests on one
# socket in one process), side by side with what a shell prolog would run
# for the same facts: `ip -j link show` and `dcb -j pfc show` / `dcb -j app
# show` per netdev (three forks each).  Medians of N round-robin runs.
# Usage: bench/netlink.sh BUILDDIR [RUNS]
set -eu
B=$(cd "$1" && pwd); N=${2:-51}
S=$(cd "$(dirname "$0")/.." && pwd)
. "$S/tests/lib/netns.sh"
netns_available || { echo "bench/netlink: needs root and ip netns"; exit 0; }
[ -x "$B/tests/nlprobe" ] || make -C "$B" tests/nlprobe >/dev/null
command -v dcb >/dev/null || { echo "bench/netlink: needs dcb(8) from iproute2"; exit 0; }
T=$(mktemp -d); NS=roce-nlbench-$$
trap 'netns_destroy $NS; rm -rf "$T"' EXIT
netns_create "$NS"
devs=""
for i in $(seq 0 9); do netns_veth "$NS" "eth$i" 9000; devs="$devs eth$i"; done
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
echo "== netlink collector, 10 veths (MTU 9000; DCB answers EOPNOTSUPP), $N runs each, round-robin, inside a netns"
# shellcheck disable=SC2086
ip netns exec "$NS" "$T/timeit" "$N" \
	"nlprobe -c (roce_collect_netlink, 20 requests)" -- "$B/tests/nlprobe" -c $devs ::: \
	"nlprobe lo (1 link + 1 DCB request)" -- "$B/tests/nlprobe" lo ::: \
	"/bin/true (fork+exec)" -- /bin/true ::: \
	"shell: ip link + dcb pfc + dcb app per netdev" -- "$T/shell.sh" $devs
