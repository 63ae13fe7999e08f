#!/bin/bash
# The roce plugin with GPU-to-NIC locality in a real one-node Slurm: the
# node's fixture HCAs sit at the PCI addresses of the project's two-socket
# hwloc topology (tests/fixtures/topo/two-socket.xml, TopologyFile=), and the
# step's GPUs come from SLURM_STEP_GPUS as Slurm sets it for GPU jobs (here
# passed through srun's environment: this lab has no GPUs for Slurm to allocate).
set -u
top_srcdir=$(cd "${top_srcdir:-$(dirname "$0")/../..}" && pwd)   # no "..": paths go into roce.conf
top_builddir=$(cd "${top_builddir:-$top_srcdir/build}" && pwd)
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/slurmlab.sh"

N=0
ok() { N=$((N + 1)); echo "ok $N - $1"; }
not_ok() { N=$((N + 1)); echo "not ok $N - $1"; shift; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }
check() { # check NAME 'SHELL CONDITION'
	local name=$1; shift
	if eval "$1"; then ok "$name"; else not_ok "$name" "stdout: $(head -20 "$W/out" 2>/dev/null)" "stderr: $(head -20 "$W/err" 2>/dev/null)"; fi
}

PLAN=5
plugin=$top_builddir/spank/.libs/spank_roce.so
XML=$top_srcdir/tests/fixtures/topo/two-socket.xml
if ! why=$(lab_can_run); then echo "1..0 # SKIP $why"; exit 0; fi
[ -f "$plugin" ] || { echo "1..0 # SKIP $plugin not built"; exit 0; }
[ -f "$XML" ] || { echo "1..0 # SKIP $XML missing"; exit 0; }
for d in 04 84 88; do
	[ -e "/sys/devices/pci0000:$d" ] && { echo "1..0 # SKIP this machine has a PCI root pci0000:$d (the fixture's)"; exit 0; }
done
echo "1..$PLAN"

W=$(mktemp -d "${TMPDIR:-/tmp}/spank-gpus.XXXXXX") && chmod 755 "$W"  # munged wants o+x on its socket path
trap 'lab_stop; [ "${KEEP:-0}" = 1 ] || rm -rf "$W"' EXIT
trap 'exit 1' INT TERM
FAB=$W/fab; mkdir -p "$FAB"
hca() { # hca NAME PCI: a healthy RoCE port on eth<N>
	fab_hca "$FAB" "$1" "$2" 1
	fab_roce_ipv4 "$FAB" "$1" 1 "eth${1##*_}" "192.0.2.$((20 + ${1##*_}))"
}
hca mlx5_0 0000:04:00.0; hca mlx5_1 0000:04:00.1; hca mlx5_3 0000:84:00.0; hca mlx5_2 0000:88:00.0
fab_gdr "$FAB"
printf 'PfcPriority=none\nTopologyFile=%s\nReportDir=%s/reports\nStateDir=%s/state\n' "$XML" "$W" "$W" >"$W/roce.conf"
lab_init "$W/lab" >/dev/null || { echo "Bail out! lab_init failed"; exit 1; }
SAN=0; lab_sanitize "$plugin" && SAN=1
lab_node node1 "$FAB" eth0=9000 eth1=9000 eth2=9000 eth3=9000
lab_plugstack "required $plugin config=$W/roce.conf"
lab_start || { lab_logs >&2; echo "Bail out! cluster did not start"; exit 1; }

run() { lab_run_timeout 60 "$@" >"$W/out" 2>"$W/err"; RC=$?; }
nccl() { run srun "$@" sh -c 'echo "HCA=${NCCL_IB_HCA:-none} GDR=${NCCL_NET_GDR_LEVEL:-none}"'; }

nccl --roce
check "no GPUs: every healthy HCA in device order, the policy's GDR level" \
	'grep -qx "HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1 GDR=PXB" $W/out'
nccl --roce --export=ALL,SLURM_STEP_GPUS=2
check "step GPU 2: its PIX NIC mlx5_3 only, GDR level PIX" 'grep -qx "HCA==mlx5_3:1 GDR=PIX" $W/out'
SLURM_STEP_GPUS=0,2 nccl --roce
check "step GPUs 0,2: nearest NICs in GPU order" 'grep -qx "HCA==mlx5_0:1,mlx5_1:1,mlx5_3:1 GDR=PIX" $W/out'
nccl --roce --export=ALL,SLURM_STEP_GPUS='0;reboot'
check "garbage GPU list: every healthy HCA, a warning names it" \
	'grep -qx "HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1 GDR=PXB" $W/out && grep -q "^roce: warning: node1: .*GPU list not understood" $W/err'

if [ "$SAN" = 1 ]; then
	: >"$W/out"; lab_sanitizer_reports >"$W/err"
	check "no ASan/UBSan reports" '[ ! -s $W/err ]'
else
	N=$((N + 1)); echo "ok $N # SKIP not a sanitizer build"
fi
[ "$N" = "$PLAN" ] || { echo "# planned $PLAN, ran $N"; exit 1; }
