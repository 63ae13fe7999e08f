# SPDX-License-Identifier: GPL-2.0-or-later
# spanktest.sh - the start and end every tests/e2e/spank-*.sh shares: paths,
# skips, a scratch directory, the lab with the built plugin, and the closing
# sanitizer check.  Source it first (bash, after `set -u`):
#
#   . "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
#
# It makes top_srcdir and top_builddir absolute without ".." (paths go into
# roce.conf, which refuses them), sources tap.sh (plan, check, pass, fail,
# skip_all, done_testing...), fabric.sh and slurmlab.sh, sets $plugin (the
# built spank_roce.so) and defines:
#   spank_need_lab           skip unless a lab can run here and the plugin is built
#   spank_workdir NAME       $W: a fresh scratch dir (0755: munged wants o+x
#                            on its socket path), removed at exit unless KEEP=1;
#                            spank_on_exit (a hook, empty by default) runs first
#   spank_lab_init           lab_init in $W/lab; the ASan/UBSan runtimes
#                            preloaded when the plugin has them ($SAN=1)
#   (then lab_node ... for each node)
#   spank_lab_start [LINE]   plugstack LINE (default README's "optional $plugin
#                            default=off config=$W/roce.conf"),
#                            lab_start; "Bail out!" if it fails
#   run CMD...               CMD (srun, sbatch...) under lab_run_timeout
#                            $LAB_STEP_TIMEOUT: its stdout in $W/out, stderr
#                            in $W/err, exit status in $RC (a test may define
#                            its own after sourcing this)
#   tap_diag                 (tap.sh's hook) a failing check prints $W/out,
#                            $W/err and slurmctld's trouble lines
#                            (lab_trouble), then the test's check_diag lines
#   spank_sanitizer_check    the last check: no ASan/UBSan reports (SKIP in
#                            a normal build)
#   spank_need_two_socket    skip unless the two-socket topology can be used
#                            here (sets $XML; the machine must not have its
#                            PCI roots)
#   spank_two_socket_fabric  after spank_workdir: $FAB, fabric.sh's
#                            fab_two_socket (four HCAs at the two-socket
#                            topology's NIC addresses), and $W/roce.conf
#                            naming the topology

top_srcdir=$(cd "${top_srcdir:-$(dirname "$0")/../..}" && pwd)
top_builddir=$(cd "${top_builddir:-$top_srcdir/build}" && pwd)
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/slurmlab.sh"

plugin=$top_builddir/spank/.libs/spank_roce.so
SAN=0
W=

spank_need_lab() {
	local why
	why=$(lab_can_run) || skip_all "$why"
	[ -f "$plugin" ] || skip_all "$plugin not built"
}

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

run() { lab_run_timeout "$LAB_STEP_TIMEOUT" "$@" >"$W/out" 2>"$W/err"; RC=$?; }

tap_diag() {
	echo "stdout: $(head -20 "$W/out" 2>/dev/null)"
	echo "stderr: $(head -20 "$W/err" 2>/dev/null | cut -c1-400)"
	# srun -vv fills the head with its own debug lines: what the plugin said, and the first errors of
	# each node (a prolog's comes before the step's, which lab_trouble's last lines would show instead)
	echo "stdout, roce: $(grep -i roce "$W/out" 2>/dev/null | head -10 | cut -c1-400)"
	local f
	for f in "${LAB:-/nonexistent}"/log/slurmd.*.log; do
		[ -f "$f" ] && grep -E 'error: roce|roce: .*(prolog|unchecked|deadline)' "$f" | head -3 | cut -c1-300 |
			sed "s|^|${f##*/} (first): |"
	done
	lab_trouble
}

spank_sanitizer_check() {
	if [ "$SAN" = 1 ]; then
		: >"$W/out"; lab_sanitizer_reports >"$W/err"
		check "no ASan/UBSan reports" '[ ! -s $W/err ]'
	else
		skip "not a sanitizer build"
	fi
}

spank_need_two_socket() {
	XML=$top_srcdir/tests/fixtures/topo/two-socket.xml
	[ -f "$XML" ] || skip_all "$XML missing"
	local why
	why=$(fab_two_socket_clash)
	[ -z "$why" ] || skip_all "$why"
}

spank_two_socket_fabric() {
	FAB=$W/fab
	fab_two_socket "$FAB"
	printf 'PfcPriority=none\nTopologyFile=%s\nReportDir=%s/reports\nStateDir=%s/state\n' "$XML" "$W" "$W" >"$W/roce.conf"
}
