#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The job report's file safety: an epilog killed mid-write or hitting a full
# disk leaves no partial fragment and still exits 0; planted symlinks and
# foreign directories are refused; only the job's user, root and the
# ReportDir group can read a report.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/jobfiles.sh"
B="$top_builddir/prolog"

[ "$(id -u)" = 0 ] || skip_all "needs root (chown, tmpfs, setpriv)"
command -v setpriv >/dev/null || skip_all "needs setpriv"
T=$(mktemp -d)
MNT=$T/full
# the worker child a test stalled: it must die with its killed parent
stalled_pid() { read -r p <"$T/stalled" 2>/dev/null && echo "$p"; }
gone() { [ ! -e "/proc/$1" ] || grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null; }
died_with_parent() { # PID: gone within 5 s
	local i
	for i in $(seq 50); do gone "$1" && return 0; sleep 0.1; done
	return 1
}
cleanup() {
	local p; p=$(stalled_pid) && [ -n "$p" ] && ! gone "$p" && kill -KILL "$p"
	umount "$MNT" 2>/dev/null; rm -rf "$T"
}
trap cleanup EXIT
chmod 755 "$T"
R=$T/sys
mkdir -p "$R"
fab_example "$R" 2

# --- who can read a report, and list what
C=$(conf perms "$T/reports" "$T/state")
mkdir -m 751 "$T/reports"   # as roce.conf(5) says: its group lists it, users only search it
chgrp 4242 "$T/reports"
(umask 000; job prolog "$C" 801; job epilog "$C" 801; echo "$rc" >"$T/rc")
is "$(cat "$T/rc")" 0 "perms: epilog exit 0 under umask 000"
F=$T/reports/801/n1.json
is "$(stat -c '%a %u %g' "$F")" "440 0 4242" "perms: fragment 0440 root:<ReportDir group> whatever the umask"
out=$(as_user 4001 "" "$B/roce-report" 801 --report-dir "$T/reports" 2>&1); rc=$?
is "$rc" 0 "perms: the job's user reads the report"
like "$out" "RoCE fabric report for job 801" "perms: and sees it"
out=$(as_user 5000 4242 "$B/roce-report" 801 --report-dir "$T/reports" 2>&1); rc=$?
is "$rc" 0 "perms: a member of the ReportDir group (admin) reads it"
out=$(as_user 65534 "" "$B/roce-report" 801 --report-dir "$T/reports" 2>&1); rc=$?
is "$rc" 3 "perms: another user is refused (exit 3)"
like "$out" "job 801 is not yours" "perms: with a clear message"
out=$(as_user 65534 "" cat "$F" 2>&1); rc=$?
ok "perms: and the file itself is unreadable to them" test "$rc" != 0
out=$(as_user 4001 "" sh -c "echo x >>'$F'" 2>&1); rc=$?
ok "perms: the job's user cannot alter the fragment" test "$rc" != 0
# who can list what: job ids, node names and users are the admins' to see
is "$(as_user 65534 "" ls "$T/reports" 2>&1 >/dev/null | grep -c 'Permission denied')" 1 \
	"perms: another user cannot list ReportDir (they may only search it)"
is "$(as_user 65534 "" ls "$T/reports/801" 2>&1 >/dev/null | grep -c 'Permission denied')" 1 \
	"perms: nor the job's directory"
is "$(as_user 4001 "" ls "$T/reports/801" 2>&1)" "n1.json" "perms: the job's user lists their job's directory"
is "$(as_user 5000 4242 ls "$T/reports" "$T/reports/801" 2>&1 | tr '\n' ' ')" "$T/reports: 801  $T/reports/801: n1.json " \
	"perms: the admins (ReportDir's group) list both"
is "$(stat -c '%a %U %g' "$T/reports/801")" "750 root 4242" "perms: the job directory root's, the admins' group, 0750 (+ the user's ACL entry)"

# --- killed in the middle of writing the fragment
SO=$top_builddir/tests/helpers/.libs/stallwrite.so
if [ -f "$SO" ]; then
	C=$(conf kill "$T/kreports" "$T/kstate")
	job prolog "$C" 802
	rm -f "$T/stalled"
	env SLURM_JOB_ID=802 SLURM_JOB_UID=4001 SLURMD_NODENAME=n1 LD_PRELOAD="$SO" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		ROCE_TEST_STALL_WRITE="$T/stalled" ROCE_TEST_STALL_MATCH=/kreports/ \
		"$B/roce-epilog" --config "$C" --sysfs-root "$R" 2>/dev/null &
	pid=$!
	lab_poll 5 test -e "$T/stalled"
	ok "kill: the epilog stalled half-way through the fragment" test -e "$T/stalled"
	sleep 0.1; cpid=$(stalled_pid)
	kill -KILL "$pid"; wait "$pid" 2>/dev/null
	ok "kill: the stalled worker child does not outlive its killed parent" died_with_parent "$cpid"
	ok "kill: no fragment" test ! -e "$T/kreports/802/n1.json"
	is "$(ls -A "$T/kreports/802")" "" "kill: no partial or temporary file either"
	job epilog "$C" 802
	is "$rc" 0 "kill: a second epilog run completes"
	is "$(jq -r .name "$T/kreports/802/n1.json")" n1 "kill: and writes the whole fragment"
	# the same on a file system without O_TMPFILE: named dot-temporaries
	job prolog "$C" 809
	rm -f "$T/stalled"
	env SLURM_JOB_ID=809 SLURM_JOB_UID=4001 SLURMD_NODENAME=n1 LD_PRELOAD="$SO" ROCE_TEST_NO_TMPFILE=1 \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		ROCE_TEST_STALL_WRITE="$T/stalled" ROCE_TEST_STALL_MATCH=/kreports/ \
		"$B/roce-epilog" --config "$C" --sysfs-root "$R" 2>/dev/null &
	pid=$!
	lab_poll 5 test -e "$T/stalled"
	sleep 0.1; cpid=$(stalled_pid)
	kill -KILL "$pid"; wait "$pid" 2>/dev/null
	ok "no O_TMPFILE, killed: the worker child dies with its parent" died_with_parent "$cpid"
	ok "no O_TMPFILE, killed: no fragment" test ! -e "$T/kreports/809/n1.json"
	like "$(ls -A "$T/kreports/809")" '^\.n1\.json\.[0-9a-f]{16}$' "no O_TMPFILE, killed: only a dot-temporary, which readers ignore"
	out=$("$B/roce-report" 809 --report-dir "$T/kreports" 2>&1); rc=$?
	is "$rc" 1 "no O_TMPFILE, killed: roce-report sees no fragment"
	env SLURM_JOB_ID=809 SLURM_JOB_UID=4001 SLURMD_NODENAME=n1 LD_PRELOAD="$SO" ROCE_TEST_NO_TMPFILE=1 \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$B/roce-epilog" --config "$C" --sysfs-root "$R" 2>/dev/null
	is "$(ls -A "$T/kreports/809")" "n1.json" "no O_TMPFILE: a rerun writes the fragment and removes the stale temporary"
else
	for _ in $(seq 9); do skip "$SO not built (make check builds it)"; done
fi

# --- full disk
mkdir -p "$MNT"
if mount -t tmpfs -o size=256k tmpfs "$MNT" 2>/dev/null; then
	C=$(conf full "$MNT/reports" "$T/fstate")
	job prolog "$C" 803
	mkdir -m 751 "$MNT/reports" && mkdir "$MNT/reports/803"
	dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null
	job epilog "$C" 803
	is "$rc" 0 "full disk: epilog still exits 0"
	like "$out" "no fabric report: .*No space left on device" "full disk: logs why"
	is "$(ls -A "$MNT/reports/803")" "" "full disk: no partial fragment, no temporary"
	ok "full disk: snapshot removed all the same" test ! -e "$T/fstate/803.json"
	umount "$MNT"
else
	for _ in 1 2 3 4; do skip "cannot mount a tmpfs"; done
fi

# --- planted symlinks and foreign directories
C=$(conf plant "$T/preports" "$T/pstate")
mkdir -p "$T/pstate" "$T/elsewhere"
mkdir -m 751 "$T/preports"
chmod 700 "$T/pstate"
echo precious >"$T/victim"
ln -s "$T/victim" "$T/pstate/804.n1.snapshot.json"
job prolog "$C" 804
is "$rc" 0 "symlink in StateDir: prolog exit 0"
is "$(cat "$T/victim")" precious "symlink in StateDir: its target untouched"
ok "symlink in StateDir: replaced by our own file" test -f "$T/pstate/804.n1.snapshot.json" -a ! -L "$T/pstate/804.n1.snapshot.json"
ln -s "$T/elsewhere" "$T/preports/805"
job prolog "$C" 805; job epilog "$C" 805
is "$rc" 0 "symlinked job dir: epilog exit 0"
like "$out" "cannot open .*805" "symlinked job dir: refused"
is "$(ls -A "$T/elsewhere")" "" "symlinked job dir: nothing written through it"
mkdir "$T/preports/806"; chown 5000 "$T/preports/806"
job prolog "$C" 806; job epilog "$C" 806
like "$out" "806 is not owned by uid 0" "job dir owned by a user: refused"
is "$(ls -A "$T/preports/806")" "" "job dir owned by a user: nothing written"
mkdir -p "$T/ustate"; chown 5000 "$T/ustate"
C=$(conf ustate "$T/preports" "$T/ustate")
job prolog "$C" 807
is "$rc" 0 "StateDir owned by a user: prolog exit 0"
like "$out" "StateDir $T/ustate: $T/ustate is owned by uid 5000, not root" "StateDir owned by a user: refused, named"
ok "StateDir owned by a user: no snapshot in it" test -z "$(ls -A "$T/ustate")"
C=$(conf badconf "$T/preports" "$T/pstate")
echo "NoSuchKey=1" >>"$C"
job epilog "$C" 808
is "$rc" 0 "broken roce.conf: epilog exit 0 (never drain for reporting)"
like "$out" "NoSuchKey" "broken roce.conf: logged"
done_testing
