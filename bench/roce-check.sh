#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# roce-check on a healthy 10-HCA node with full 256-entry GID tables, side by
# side with a shell loop that reads the same tree the way mlnx-tools'
# show_gids does (one cat per GID file), plus start-up costs.
# Usage: bench/roce-check.sh BUILDDIR [RUNS]
set -eu
B=$(cd "$1" && pwd); N=${2:-51}
S=$(cd "$(dirname "$0")/.." && pwd)
. "$S/tests/lib/fabric.sh"; . "$S/tests/lib/netns.sh"
netns_available || { echo "bench/roce-check: needs root and ip netns"; exit 0; }
T=$(mktemp -d); NS=roce-bench-$$
trap 'netns_destroy $NS; rm -rf "$T"' EXIT
netns_create "$NS"; for i in $(seq 0 9); do netns_veth "$NS" "eth$i" 9000; done
fab_example "$T" 10
cc -O2 -o "$T/timeit" "$S/bench/timeit.c"
cat >"$T/show_gids.sh" <<'SH'
#!/bin/bash
# what mlnx-tools show_gids does: one cat per GID, type and ndev file
for d in "$1"/class/infiniband/*; do
  for p in "$d"/ports/*; do
    for g in "$p"/gids/*; do
      i=${g##*/}; gid=$(cat "$g")
      [ "$gid" = 0000:0000:0000:0000:0000:0000:0000:0000 ] && continue
      t=$(cat "$p/gid_attrs/types/$i"); n=$(cat "$p/gid_attrs/ndevs/$i")
      echo "${d##*/} ${p##*/} $i $gid $t $n"
    done
  done
done
SH
chmod +x "$T/show_gids.sh"
C="$B/prolog/roce-check"
echo "== roce-check, 10 HCAs x 256 GID entries, $N runs each, round-robin, inside a netns with eth0-9"
ip netns exec "$NS" "$T/timeit" "$N" \
	"roce-check --format env (lazy)" -- "$C" --config /dev/null -r "$T" --format env ::: \
	"roce-check --gids (full GID tables)" -- "$C" --config /dev/null -r "$T" --gids ::: \
	"roce-check --verbs (libibverbs init)" -- "$C" --config /dev/null -r "$T" --verbs ::: \
	"roce-check --help (start-up only)" -- "$C" --help ::: \
	"/bin/true (fork+exec)" -- /bin/true ::: \
	"show_gids-style shell loop" -- "$T/show_gids.sh" "$T"
echo "shared libraries loaded by roce-check: $(ldd "$C" | wc -l)"
