#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# roce-check on a healthy 10-HCA node with full 256-entry GID tables, side by
# side with a shell loop that reads the same tree the way mlnx-tools'
# show_gids does (one cat per GID file), plus start-up costs.
#
# With BEFORE_BUILDDIR (e.g. a build of the first round, 9f5aa3e), both
# builds' roce-check run in the same round-robin (bench/timeit.c: A B A B
# ..., so that a loaded machine slows both alike) and each row of this
# build is followed by the same row of the other; then the ratios of the
# medians: how many times faster this build is, and how many times faster
# each is than the show_gids-style loop.  The loop takes seconds per run:
# it runs every SHOW_EVERY-th round (default 10; still in the same rounds).
# CPU is user + system time of the run and of every child it waited for:
# the cost whatever else the machine runs.
#
# The floor (with strace): bench/readfloor.c reads the very files that one
# `--format env` run of each build opened, and does nothing else; a build
# can be no faster than its floor without reading fewer files, so
# "before / this build's floor" is the most any rewrite could gain.
# Usage: bench/roce-check.sh BUILDDIR [BEFORE_BUILDDIR] [RUNS]
set -eu
B=$(cd "$1" && pwd)
A=""
if [ $# -ge 2 ] && [ -d "$2" ]; then
	A=$(cd "$2" && pwd); N=${3:-51}
else
	N=${2:-51}
fi
S=$(cd "$(dirname "$0")/.." && pwd)
. "$S/tests/lib/fabric.sh"; . "$S/tests/lib/netns.sh"
netns_available || { echo "bench/roce-check: needs root and ip netns"; exit 0; }
T=$(mktemp -d); NS=roce-bench-$$
trap 'netns_destroy $NS; rm -rf "$T"' EXIT
netns_create "$NS"; for i in $(seq 0 9); do netns_veth "$NS" "eth$i" 9000; done
fab_example "$T" 10
cc -O2 -o "$T/timeit" "$S/bench/timeit.c"
cc -O2 -o "$T/readfloor" "$S/bench/readfloor.c"
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

rows=()
add() { # add LABEL ARGS...: the row for this build, then for the other
	local label=$1; shift
	rows+=("$label" -- "$B/prolog/roce-check" "$@" :::)
	[ -z "$A" ] || rows+=("$label [before]" -- "$A/prolog/roce-check" "$@" :::)
}
add "roce-check --format env (lazy)" --config /dev/null -r "$T" --format env
add "roce-check --gids (full GID tables)" --config /dev/null -r "$T" --gids
add "roce-check --verbs (libibverbs init)" --config /dev/null -r "$T" --verbs
add "roce-check --help (start-up only)" --help
# floor BUILD NAME: the files under the fixture that one --format env run of
# BUILD opens for reading, each once, in the order it opens them: a row
# of readfloor
floor() {
	command -v strace >/dev/null || return 0
	ip netns exec "$NS" strace -f -y -e trace=openat -o "$T/strace.$2" \
		"$1/prolog/roce-check" --config /dev/null -r "$T" --format env >/dev/null 2>&1 || true
	grep -v -e O_DIRECTORY -e O_PATH "$T/strace.$2" | sed -n 's/.*= [0-9][0-9]*<\(.*\)>$/\1/p' |
		awk -v t="$T/" 'index($0, t) == 1 && !seen[$0]++' >"$T/files.$2"
	echo "   read floor ($2): $(wc -l <"$T/files.$2") files"
	rows+=("read floor ($2's files)" -- "$T/readfloor" "$T/files.$2" :::)
}
floor "$B" "this build"
[ -z "$A" ] || floor "$A" before
echo "== roce-check, 10 HCAs x 256 GID entries, $N runs each, round-robin, inside a netns with eth0-9"
[ -z "$A" ] || echo "   this build: $B; [before]: $A"
echo "   load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
ip netns exec "$NS" "$T/timeit" "$N" "${rows[@]}" \
	"/bin/true (fork+exec)" -- /bin/true ::: \
	"show_gids-style shell loop@${SHOW_EVERY:-10}" -- "$T/show_gids.sh" "$T" | tee "$T/out"
echo "   load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo "shared libraries loaded by roce-check: $(ldd "$B/prolog/roce-check" | wc -l)$([ -z "$A" ] || echo " [before: $(ldd "$A/prolog/roce-check" | wc -l)]")"

# the median (wall, or cpu) of a row of timeit's output
med() { awk -v l="$1" -v f="$2" 'index($0, l) == 1 && substr($0, length(l) + 1) ~ /^ +median / {
	for (i = 1; i <= NF; i++) if ($i == f) { print $(i + 1); exit } }' "$T/out"; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
sg=$(med "show_gids-style shell loop" median)
env="roce-check --format env (lazy)"
echo "show_gids-style loop / roce-check --format env (medians): $(div "$sg" "$(med "$env" median)")x$([ -z "$A" ] || echo "; [before]: $(div "$sg" "$(med "$env [before]" median)")x")"
[ -n "$A" ] || exit 0
fl=$(med "read floor (this build's files)" median)
[ -z "$fl" ] || echo "before / the read floor of this build's files: $(div "$(med "$env [before]" median)" "$fl")x (the most any rewrite reading these files could gain); this build / its floor: $(div "$(med "$env" median)" "$fl")x"
echo "before / this build (medians; > 1: this build is faster):"
for l in "$env" "roce-check --gids (full GID tables)" "roce-check --verbs (libibverbs init)" "roce-check --help (start-up only)"; do
	printf '  %-40s wall %6sx  cpu %6sx\n' "$l" "$(div "$(med "$l [before]" median)" "$(med "$l" median)")" \
		"$(div "$(med "$l [before]" cpu)" "$(med "$l" cpu)")"
done
