# SPDX-License-Identifier: GPL-2.0-or-later
# spanktest.sh - the start and end every tests/e2e/spank-*.sh shares: paths,
# TAP helpers, skips, a scratch directory, the lab with the built plugin, and
# the closing sanitizer check.  Source it first (bash, after `set -u`):
#
#   . "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
#
# It makes top_srcdir and top_builddir absolute without ".." (paths go into
# roce.conf, which refuses them), sources fabric.sh and slurmlab.sh, sets
# $plugin (the built spank_roce.so) and defines:
#   spank_skip REASON        "1..0 # SKIP REASON" and exit
#   spank_need_lab           skip unless a lab can run here and the plugin is built
#   spank_plan N             print the plan; spank_end checks it was kept
#   spank_workdir NAME       $W: a fresh scratch dir (0755: munged wants o+x
#                            on its socket path), removed at exit unless KEEP=1;
#                            spank_on_exit (a hook, empty by default) runs first
#   spank_lab_init           lab_init in $W/lab; the ASan/UBSan runtimes
#                            preloaded when the plugin has them ($SAN=1)
#   (then lab_node ... for each node)
#   spank_lab_start [LINE]   plugstack LINE (default README's "optional $plugin
#                            default=off config=$W/roce.conf"),
#                            lab_start; "Bail out!" if it fails
#   ok NAME / not_ok NAME [DIAG...] / check NAME 'CONDITION'
#                            TAP lines numbered in $N; check evaluates the
#                            condition and, when it fails, prints $W/out,
#                            $W/err and the lines of the check_diag hook
#   spank_sanitizer_check    the last check: no ASan/UBSan reports (SKIP in
#                            a normal build)
#   spank_end                exit 1 if the number of checks is not the plan
#   spank_need_two_socket    skip unless the two-socket topology can be used
#                            here (sets $XML; the machine must not have its
#                            PCI roots)
#   spank_two_socket_fabric  after spank_workdir: $FAB with four healthy RoCE
#                            HCAs at that topology's NIC addresses (mlx5_0/1
#                            on GPU 0's switch, mlx5_3 by GPU 2, mlx5_2 by
#                            GPU 3, on eth0-3), GPUDirect loaded, and
#                            $W/roce.conf naming the topology

top_srcdir=$(cd "${top_srcdir:-$(dirname "$0")/../..}" && pwd)
top_builddir=$(cd "${top_builddir:-$top_srcdir/build}" && pwd)
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/slurmlab.sh"

plugin=$top_builddir/spank/.libs/spank_roce.so
N=0
PLAN=
SAN=0
W=

spank_skip() { echo "1..0 # SKIP $*"; exit 0; }

spank_need_lab() {
	local why
	why=$(lab_can_run) || spank_skip "$why"
	[ -f "$plugin" ] || spank_skip "$plugin not built"
}

spank_plan() { PLAN=$1; echo "1..$PLAN"; }

spank_on_exit() { :; }
spank__exit() {
	lab_stop
	spank_on_exit
	[ "${KEEP:-0}" = 1 ] || [ -z "$W" ] || rm -rf "$W"
}
spank_workdir() {
	W=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") && chmod 755 "$W" || { echo "Bail out! no scratch directory"; exit 1; }
	trap spank__exit EXIT
	trap 'exit 1' INT TERM
}

spank_lab_init() {
	lab_init "$W/lab" >/dev/null || { echo "Bail out! lab_init failed"; exit 1; }
	SAN=0; lab_sanitize "$plugin" && SAN=1
}
spank_lab_start() {
	lab_plugstack "${1:-optional $plugin default=off config=$W/roce.conf}"
	lab_start || { lab_logs >&2; echo "Bail out! cluster did not start"; exit 1; }
}

ok() { N=$((N + 1)); echo "ok $N - $1"; }
not_ok() {
	N=$((N + 1)); echo "not ok $N - $1"; shift
	local l
	for l in "$@"; do [ -z "$l" ] || printf '%s\n' "$l" | sed 's/^/# /'; done
}
check_diag() { :; }
check() { # check NAME 'SHELL CONDITION' (evaluated here, with the lab functions)
	local name=$1; shift
	if eval "$1"; then
		ok "$name"
	else
		not_ok "$name" "stdout: $(head -20 "$W/out" 2>/dev/null)" \
			"stderr: $(head -20 "$W/err" 2>/dev/null | cut -c1-400)" "$(check_diag)" "$(lab_trouble)"
	fi
}
# What the daemons said went wrong with nodes and steps (a drain, a node not
# responding, a step that could not be killed or timed out), without the
# lab's start-up noise (no PMIx, no MailProg, no saved state): the first thing
# to read when a check fails on a loaded machine.
lab_trouble() {
	local f
	for f in "${LAB:-/nonexistent}"/log/slurmctld.log "${LAB:-/nonexistent}"/log/slurmd.*.log; do
		[ -f "$f" ] || continue
		grep -iE 'drain|kill task|not responding|error|timed out|cancel' "$f" |
			grep -vE 'pmix|MailProg|state file|backup state|xcpuinfo_hwloc' | tail -4 | cut -c1-300 |
			sed "s|^|${f##*/}: |"
	done
}

spank_sanitizer_check() {
	if [ "$SAN" = 1 ]; then
		: >"$W/out"; lab_sanitizer_reports >"$W/err"
		check "no ASan/UBSan reports" '[ ! -s $W/err ]'
	else
		N=$((N + 1)); echo "ok $N # SKIP not a sanitizer build"
	fi
}

spank_end() {
	[ "$N" = "$PLAN" ] || { echo "# planned $PLAN, ran $N"; exit 1; }
	exit 0
}

spank_need_two_socket() {
	XML=$top_srcdir/tests/fixtures/topo/two-socket.xml
	[ -f "$XML" ] || spank_skip "$XML missing"
	local d
	for d in 04 84 88; do
		[ -e "/sys/devices/pci0000:$d" ] && spank_skip "this machine has a PCI root pci0000:$d (the fixture's)"
	done
	return 0
}

spank_two_socket_fabric() {
	FAB=$W/fab; mkdir -p "$FAB"
	local h
	for h in mlx5_0=0000:04:00.0 mlx5_1=0000:04:00.1 mlx5_3=0000:84:00.0 mlx5_2=0000:88:00.0; do
		local name=${h%%=*}
		local n=${name##*_}
		fab_hca "$FAB" "$name" "${h#*=}" 1
		fab_roce_ipv4 "$FAB" "$name" 1 "eth$n" "192.0.2.$((20 + n))"
	done
	fab_gdr "$FAB"
	printf 'PfcPriority=none\nTopologyFile=%s\nReportDir=%s/reports\nStateDir=%s/state\n' "$XML" "$W" "$W" >"$W/roce.conf"
}
