#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the PCIe path costs a roce-check run (issue 13): a node of 10 HCAs,
# each behind a PCIe switch (root port, switch upstream and downstream
# port: four functions, three config spaces of 4 KiB and four sets of link
# attributes read per HCA) and in an IOMMU group, side by side in one
# round-robin with the same tree stripped of bus/pci (no PCIe path to read:
# the cost of everything else) and, given a second build directory (e.g. of
# main), that build's roce-check on the full tree.  Medians in ms.  Then,
# in one process (bench/pcie-bench.c, no fork/exec), the PCIe collection
# and checks against the RDMA collection every run does, in wall and CPU
# time (the figure that holds on a loaded machine); given OTHER_BUILDDIR,
# the same program linked with that build's libroce too, the two
# alternating in rounds, on this tree and on one where the HCAs share their
# switches two by two (a bridge on several paths: read once per run since
# issue 13's second part), with the median over rounds of each build's
# PCIe-collection CPU median and their ratio.
# Usage: bench/pcie.sh BUILDDIR [OTHER_BUILDDIR] [RUNS]
set -eu
B=$(cd "$1" && pwd); O=${2:-}; N=${3:-51}
S=$(cd "$(dirname "$0")/.." && pwd)
. "$S/tests/lib/fabric.sh"; . "$S/tests/lib/netns.sh"
netns_available || { echo "bench/pcie: needs root and ip netns"; exit 0; }
T=$(mktemp -d); NS=roce-pbench-$$
trap 'netns_destroy $NS; rm -rf "$T"' EXIT
netns_create "$NS"; for i in $(seq 0 9); do netns_veth "$NS" "eth$i" 9000; done
mkdir -p "$T/full"
for i in $(seq 0 9); do
	b=$(printf '%02x' $((0x40 + i * 16)))
	fab_hca "$T/full" "mlx5_$i" "0000:$(printf '%02x' $((0x43 + i * 16))):00.0" 1 \
		"pci0000:$b/0000:$b:01.0/0000:$(printf '%02x' $((0x41 + i * 16))):00.0/0000:$(printf '%02x' $((0x42 + i * 16))):08.0"
	fab_roce_ipv4 "$T/full" "mlx5_$i" 1 "eth$i" "192.0.2.$((10 + i))"
	fab_iommu "$T/full" "0000:$(printf '%02x' $((0x43 + i * 16))):00.0" "$((20 + i))" identity
done
fab_gdr "$T/full"
cp -a "$T/full" "$T/nopci"; rm -rf "$T/nopci/bus"
# the same 10 HCAs, two behind each switch (downstream ports 08.0 and 10.0)
mkdir -p "$T/shared"
for i in $(seq 0 9); do
	s=$((i / 2)); b=$(printf '%02x' $((0x40 + s * 16)))
	fab_hca "$T/shared" "mlx5_$i" "0000:$(printf '%02x' $((0x43 + s * 16 + i % 2))):00.0" 1 \
		"pci0000:$b/0000:$b:01.0/0000:$(printf '%02x' $((0x41 + s * 16))):00.0/0000:$(printf '%02x' $((0x42 + s * 16))):$(printf '%02x' $((8 + 8 * (i % 2)))).0"
	fab_roce_ipv4 "$T/shared" "mlx5_$i" 1 "eth$i" "192.0.2.$((10 + i))"
done
cc -O2 -o "$T/timeit" "$S/bench/timeit.c"
C="$B/prolog/roce-check"
set -- "this build, PCIe path read (10 HCAs x 4 functions)" -- "$C" --config /dev/null -r "$T/full" --format env ::: \
	"this build, no bus/pci (no PCIe path to read)" -- "$C" --config /dev/null -r "$T/nopci" --format env
[ -n "$O" ] && set -- "$@" ::: "other build ($O), same full tree" -- "$O/prolog/roce-check" --config /dev/null -r "$T/full" --format env
echo "== roce-check, 10 HCAs behind PCIe switches, $N runs each, round-robin, inside a netns with eth0-9"
ip netns exec "$NS" "$T/timeit" "$N" "$@"
# pcie-bench BUILDDIR OUT: the in-process benchmark linked with BUILDDIR's libroce
pcie_bench() {
	local b=$1 src
	src=$(sed -n 's/^abs_top_srcdir = //p' "$b/Makefile")
	[ -f "$b/lib/.libs/libroce.a" ] || make -C "$b" lib/libroce.la >/dev/null
	# shellcheck disable=SC2046
	cc -O2 -I"$b" -I"$src/lib" -o "$2" "$S/bench/pcie-bench.c" "$b/lib/.libs/libroce.a" \
		$(pkg-config --cflags --libs hwloc json-c libmnl libibverbs)
}
pcie_bench "$B" "$T/pcie-bench"
echo "== in one process, 10 HCAs behind PCIe switches"
"$T/pcie-bench" "$T/full" "$((N * 4))"
echo "PCIe findings in one run: $(ip netns exec "$NS" "$C" --config /dev/null -r "$T/full" | grep -cE ' (pcie_link|acs|iommu) ')"
[ -n "$O" ] || exit 0
pcie_bench "$O" "$T/pcie-bench-other"
# the CPU median of roce_pcie_collect_node in one pcie-bench output
pcie_cpu() { sed -n 's/^ *roce_pcie_collect_node (PCIe paths) *[0-9.]* \/ *\([0-9.]*\).*/\1/p'; }
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for tree in full shared; do
	: >"$T/this.$tree"; : >"$T/other.$tree"
	for round in 1 2 3 4 5; do
		"$T/pcie-bench" "$T/$tree" "$N" | pcie_cpu >>"$T/this.$tree"
		"$T/pcie-bench-other" "$T/$tree" "$N" | pcie_cpu >>"$T/other.$tree"
	done
	this=$(median <"$T/this.$tree"); other=$(median <"$T/other.$tree")
	echo "== roce_pcie_collect_node CPU, $tree tree ($([ $tree = full ] && echo 'each HCA behind its own switch' || echo 'two HCAs per switch')), 5 alternating rounds of $N runs, median of the rounds' medians"
	printf '  %-44s %9.1f us\n  %-44s %9.1f us\n  this / other: %.2f\n' "this build ($B)" "$this" "other build ($O)" "$other" \
		"$(echo "$this $other" | awk '{print $1 / $2}')"
done
