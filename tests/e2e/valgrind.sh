#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# valgrind memcheck on the programs a node runs as root: roce-check (text,
# json, env; whole GID tables; hwloc topology with GPUs; a hostile fixture),
# roce-prolog / roce-epilog and roce-report on the fragment they wrote.
# Fixture sysfs trees plus real veths in a private network namespace (the
# netlink replies are the kernel's).  Any memcheck error or definite or
# indirect leak fails (--error-exitcode); "possibly lost" and still-reachable
# blocks of libraries (hwloc, libibverbs) are not ours to judge.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
P=$top_builddir/prolog

command -v valgrind >/dev/null || skip_all "valgrind not installed (scripts/deps)"
netns_available || skip_all "needs root and ip netns"
# A sanitizer build cannot run under valgrind.
ldd "$P/roce-check" 2>/dev/null | grep -q 'lib[au]b*san' && skip_all "sanitizer build: valgrind cannot run it"
netns_setup vg 4

# vg NAME PROGRAM ARGS...: memcheck in the namespace; passes when valgrind
# saw no error and no definite/indirect leak (the program's own exit status
# is checked by the other tests).
vg() {
	local name=$1 prog=$2; shift 2
	ip netns exec "$NS" env SLURM_JOB_ID="${JOB:-}" SLURM_JOB_UID=4001 SLURMD_NODENAME=n1 \
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect --error-exitcode=99 --track-fds=no \
		--suppressions="$top_srcdir/tests/e2e/valgrind.supp" \
		"$P/$prog" "$@" >"$T/out" 2>"$T/vg"
	local rc=$?
	# 126/127 and "valgrind: ..." lines: the program never ran under valgrind
	if [ "$rc" != 99 ] && [ "$rc" -lt 126 ] && ! grep -q '^==[0-9]*== ' "$T/vg" && ! grep -q '^valgrind:' "$T/vg"; then
		pass "$name"
	else
		fail "$name" "$(grep '^==' "$T/vg" | head -40)"
	fi
}

# --- roce-check on a healthy two-port node
R=$T/healthy; mkdir -p "$R"; fab_example "$R" 2
for f in text json env; do
	vg "roce-check --format $f" roce-check --config /dev/null --set TimeoutMs=60000 --sysfs-root "$R" --format "$f" --set Mtu=9000
done
vg "roce-check --gids --mode strict" roce-check --config /dev/null --set TimeoutMs=60000 --sysfs-root "$R" --gids --mode strict
# the health check's exposition and its trend: a baseline, then a grown counter read back from StateDir
for run in "a baseline" "symbol_error grown"; do
	vg "roce-check --health --format prometheus ($run)" roce-check --config /dev/null --set TimeoutMs=60000 \
		--sysfs-root "$R" --set StateDir="$T/vgstate" --health --format prometheus
	fab_counter "$R" mlx5_0 1 counters symbol_error 120
done

# --- GPU locality: the two-socket topology, RDMA devices at its PCI addresses
R=$T/two
fab_two_socket "$R"
X=$top_srcdir/tests/fixtures/topo/two-socket.xml
vg "roce-check --topology two-socket.xml --gpus 0,2 (env)" roce-check --config /dev/null --set TimeoutMs=60000 --sysfs-root "$R" \
	--topology "$X" --gpus 0,2 --format env
vg "roce-check --topology --gpus 0,2 --matrix (json)" roce-check --config /dev/null --set TimeoutMs=60000 --sysfs-root "$R" \
	--topology "$X" --gpus 0,2 --matrix --format json
vg "roce-check --gpus with a bad list" roce-check --config /dev/null --set TimeoutMs=60000 --sysfs-root "$R" --topology "$X" --gpus '0,x,9'

# --- hostile fixture: garbage values, a huge one, a symlink loop, a hostile name
R=$T/hostile; mkdir -p "$R"; fab_example "$R" 2
D=$(fab_devdir "$R" mlx5_0)/ports/1
printf 'garbage\n' >"$D/state"
head -c 100000 /dev/zero | tr '\0' 'a' >"$D/phys_state"
printf 'eth0\nNCCL_EVIL=1\n' >"$D/gid_attrs/ndevs/3"
D1=$(fab_devdir "$R" mlx5_1)/ports/1
rm -f "$D1/state"; ln -s state "$D1/state"
ln -s "$(readlink "$R/class/infiniband/mlx5_0")" "$R/class/infiniband/"$'mlx5_9\nX'
vg "roce-check on a hostile fixture (json)" roce-check --config /dev/null --set TimeoutMs=60000 --sysfs-root "$R" --format json
vg "roce-check, bad roce.conf" roce-check --config /dev/null --set Mtu=jumbo

# --- the job report: prolog, epilog, roce-report in every format
R=$T/job; mkdir -p "$R"; fab_example "$R" 2
# TimeoutMs: under valgrind on a loaded machine the prolog and epilog take
# seconds; the default 2 s deadline would give up and write no fragment.
printf 'ReportDir=%s\nStateDir=%s\nPfcPriority=none\nTimeoutMs=60000\n' "$T/reports" "$T/state" >"$T/roce.conf"
JOB=77
vg "roce-prolog" roce-prolog --config "$T/roce.conf" --sysfs-root "$R"
fab_counter "$R" mlx5_0 1 counters port_xmit_data 2500
fab_counter "$R" mlx5_0 1 hw_counters packet_seq_err 3
vg "roce-epilog" roce-epilog --config "$T/roce.conf" --sysfs-root "$R"
JOB=
ok "the epilog wrote the fragment" test -s "$T/reports/77/n1.json"
for f in text json prometheus; do
	vg "roce-report --format $f" roce-report 77 --report-dir "$T/reports" --format "$f"
done
vg "roce-report on a missing job" roce-report 78 --report-dir "$T/reports"
done_testing
