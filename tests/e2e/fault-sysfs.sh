#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fault matrix, sysfs side: roce-check on fixture trees (written as the
# kernel writes them, then broken the way sick drivers, careless admins or
# hostile files break them) with real veths in a private network namespace.
# Every case must end in a defined finding naming the file, exit 0/1 (never
# a crash), and finish promptly.  Cases whose finding is known to be
# misleading are TAP TODO (reported to the owner of check.c).
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
CHECK="$top_builddir/prolog/roce-check"

netns_setup fs 2   # $T is 0755: the EACCES case runs roce-check as nobody

crashes=""
n_runs=0
# run ROOT ARGS...: roce-check in the namespace; sets out, rc, ms.
run() {
	local root=$1 t0; shift
	t0=$(date +%s%N)
	out=$(ip netns exec "$NS" timeout -s KILL 90 "$CHECK" --config /dev/null --sysfs-root "$root" "$@" 2>&1)
	rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	n_runs=$((n_runs + 1))
	if [ "$rc" -gt 2 ] || grep -qE 'Sanitizer|runtime error|Segmentation' <<<"$out"; then
		crashes="$crashes
--- $root $* (exit $rc)
$out"
	fi
}
# fixture NAME: a fresh healthy two-HCA node; sets R, D0, D1 (device dirs).
fixture() {
	R=$T/$1
	rm -rf "$R"; mkdir -p "$R"
	fab_example "$R" 2
	D0=$(fab_devdir "$R" mlx5_0); D1=$(fab_devdir "$R" mlx5_1)
}
# todo NAME CMD...: a TAP TODO test (known wrong, reported), counted but not failing the suite.
todo() {
	local name=$1; shift
	_tap_n=$((_tap_n + 1))
	if "$@"; then echo "ok $_tap_n - $name # TODO passes now: drop the TODO"; else echo "not ok $_tap_n - $name # TODO"; fi
}

# 1. no RDMA subsystem at all
R=$T/empty; mkdir -p "$R"
run "$R"
is "$rc" 1 "no class/infiniband: exit 1"
like "$out" "FAIL +devices +node +no RDMA devices: cannot list $R/class/infiniband: No such file or directory" "no class/infiniband: named in the finding"

# 2. a device without ports/
fixture noports; rm -rf "$D0/ports"
run "$R"
like "$out" "UNKNOWN device +mlx5_0 +mlx5_0 ports cannot be listed \(cannot list .*/mlx5_0/ports: No such file or directory\)" "missing ports/: UNKNOWN naming the directory"
like "$out" "NCCL_IB_HCA==mlx5_1:1$" "missing ports/: the healthy HCA is still used"

# 3. a port without gids/
fixture nogids; rm -rf "$D0/ports/1/gids"
run "$R"
like "$out" "UNKNOWN gid +mlx5_0:1 +.*GID table cannot be read \(missing: cannot (list|open) .*/ports/1/gids(/0)?: No such file or directory\)" "missing gids/: UNKNOWN naming the directory"

# 4. garbage in a value
fixture garbage; printf 'banana\n' >"$D0/ports/1/state"
run "$R"
like "$out" "UNKNOWN port_state +mlx5_0:1 .*malformed: .*/ports/1/state: \"banana\" is not \"<n>: <STATE>\"" "garbage state: MALFORMED naming file and value"
is "$rc" 0 "garbage state: warn mode goes on with the other HCA (exit 0)"

# 5. a truncated GID
fixture truncgid; printf '0000:0000:00\n' >"$D1/ports/1/gids/3"
run "$R"
like "$out" "UNKNOWN gid +mlx5_1:1 .*GID 3 cannot be read \(malformed: .*/gids/3: \"0000:0000:00\" is not a GID\)" "truncated GID 3: UNKNOWN naming the file and value (not a drain-worthy FAIL)"
like "$out" "NCCL_IB_HCA==mlx5_0:1$" "truncated GID 3: that port is left out"

# 6. an oversized value (more than a page)
fixture oversized; head -c 5000 /dev/zero | tr '\0' E >"$D0/ports/1/link_layer"
run "$R"
like "$out" "UNKNOWN link_layer +mlx5_0:1 .*link_layer: value longer than 4096 bytes" "oversized link_layer: MALFORMED, bounded read"

# 7. binary bytes
fixture binary; printf '4: ACT\0IVE\n' >"$D0/ports/1/state"
run "$R"
like "$out" "UNKNOWN port_state +mlx5_0:1 .*ports/1/state: value is not text" "NUL byte in state: MALFORMED"

# 8. a symlink loop in class/infiniband
fixture loop; rm "$R/class/infiniband/mlx5_0"; ln -s mlx5_0 "$R/class/infiniband/mlx5_0"
run "$R"
like "$out" "UNKNOWN device +mlx5_0 .*Too many levels of symbolic links" "class symlink loop: ELOOP named"
like "$out" "NCCL_IB_HCA==mlx5_1:1$" "class symlink loop: the other HCA is still used"

# 9. a symlink loop behind device (the PCI address)
fixture devloop; rm "$D0/device"; ln -s device "$D0/device"
run "$R" --format json
is "$(jq -r '.node.devices[0].errors.pci_addr.status' <<<"$out")" unreadable "device link loop: PCI address reading UNREADABLE"
like "$(jq -r '.node.devices[0].errors.pci_addr.why' <<<"$out")" "cannot resolve .*/mlx5_0/device: Too many levels of symbolic links" "device link loop: the why names the link"

# 10. a FIFO where a value should be: no hang
fixture fifo; rm "$D0/ports/1/state"; mkfifo "$D0/ports/1/state"
run "$R"
like "$out" "UNKNOWN port_state +mlx5_0:1 .*ports/1/state is not a regular file" "FIFO state: refused as not a regular file"
ok "FIFO state: no hang (${ms} ms)" test "$ms" -lt 10000

# 11. EACCES: roce-check as nobody, a file only root may read
fixture eacces; chmod -R a+rX "$R"; chmod 0400 "$D0/ports/1/state"
why=$(netns_nobody_why "$R/class/infiniband/mlx5_1/ports/1/state")
if [ -n "$why" ]; then
	skip "EACCES: $why"
else
	t0=$(date +%s%N)
	out=$(netns_as_nobody "$CHECK" --config /dev/null --sysfs-root "$R" 2>&1); rc=$?
	n_runs=$((n_runs + 1)); [ "$rc" -gt 2 ] && crashes="$crashes
--- eacces (exit $rc)
$out"
	like "$out" "UNKNOWN port_state +mlx5_0:1 .*unreadable: cannot open .*/ports/1/state: Permission denied" "EACCES (as nobody): UNREADABLE naming the file"
fi

# 12. an unknown GID type
fixture gidtype; printf 'RoCE v3\n' >"$D0/ports/1/gid_attrs/types/3"
run "$R"
like "$out" "UNKNOWN gid +mlx5_0:1 .*GID 3 cannot be read \(malformed: .*/types/3: \"RoCE v3\" is not a GID type\)" "unknown GID type: UNKNOWN naming the type file and value"

# 13. a hostile netdev name in gid_attrs/ndevs
fixture ndev; printf '../../x\n' >"$D0/ports/1/gid_attrs/ndevs/3"
run "$R" --format json
is "$(jq -r '.node.devices[0].ports[0].gids[0].errors.ndev.status' <<<"$out")" malformed "hostile ndev name: MALFORMED"
is "$(jq -r '.node.devices[0].ports[0].netdev' <<<"$out")" eth0 "hostile ndev name: never used; netdev from device/net/"

# 14. a GID table larger than any HCA has (entries 256..4096 empty files, not GIDs)
fixture biggid; d="$D0/ports/1/gids"; for ((i = 256; i <= 4096; i++)); do : >"$d/$i"; done
run "$R"
like "$out" "2 RoCE ports, 2 healthy" "4097-entry GID table: the lazy read of GID 3 is unaffected"
run "$R" --gids --format json --set TimeoutMs=60000   # 4096 reads: slow under ASan
is "$(jq -r '.node.devices[0].ports[0].gid_table_size' <<<"$out")" -1 "4097-entry GID table, --gids: the scan stops at 4096 entries (size unknown)"
ok "4097-entry GID table, --gids: finishes (${ms} ms)" test "$ms" -lt 80000
ok "4097-entry GID table, --gids: a reading says the table was cut at 4096" \
	test "$(jq -r '.node.devices[0].ports[0].errors.gids.status // "none"' <<<"$out")" = malformed

# 15. a port that vanished between listing and reading (state missing)
fixture nostate; rm "$D0/ports/1/state"
run "$R"
like "$out" "UNKNOWN port_state +mlx5_0:1 .*missing: cannot open .*/ports/1/state: No such file or directory" "missing state file: MISSING naming the file"

is "$crashes" "" "no crash, kill or sanitizer report in $n_runs runs"
done_testing
