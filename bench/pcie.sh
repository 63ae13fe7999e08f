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
# time (the figure that holds on a loaded machine).
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
cc -O2 -o "$T/timeit" "$S/bench/timeit.c"
C="$B/prolog/roce-check"
set -- "this build, PCIe path read (10 HCAs x 4 functions)" -- "$C" --config /dev/null -r "$T/full" --format env ::: \
	"this build, no bus/pci (no PCIe path to read)" -- "$C" --config /dev/null -r "$T/nopci" --format env
[ -n "$O" ] && set -- "$@" ::: "other build ($O), same full tree" -- "$O/prolog/roce-check" --config /dev/null -r "$T/full" --format env
echo "== roce-check, 10 HCAs behind PCIe switches, $N runs each, round-robin, inside a netns with eth0-9"
ip netns exec "$NS" "$T/timeit" "$N" "$@"
src=$(sed -n 's/^abs_top_srcdir = //p' "$B/Makefile")
[ -f "$B/lib/.libs/libroce.a" ] || make -C "$B" lib/libroce.la >/dev/null
# shellcheck disable=SC2046
cc -O2 -I"$B" -I"$src/lib" -o "$T/pcie-bench" "$S/bench/pcie-bench.c" "$B/lib/.libs/libroce.a" \
	$(pkg-config --cflags --libs hwloc json-c libmnl libibverbs)
echo "== in one process, 10 HCAs behind PCIe switches"
"$T/pcie-bench" "$T/full" "$((N * 4))"
echo "PCIe findings in one run: $(ip netns exec "$NS" "$C" --config /dev/null -r "$T/full" | grep -cE ' (pcie_link|acs|iommu) ')"
