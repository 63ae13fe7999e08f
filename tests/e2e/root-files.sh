#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Root's files (docs/threat-model.md): what roce-prolog, roce-epilog and
# roce-report do as root with directories and files others can reach.
#  - StateDir and ReportDir are resolved component by component without
#    following a link; every component must be root's and writable by nobody
#    else (sticky excepted); an existing directory is never chmod'ed; none is
#    made in a directory others can write (a sticky /tmp: the error names the
#    install -d that makes it); a ReportDir on a kernel file system (cgroup)
#    is refused.  Refusals are logged with the path and why, and the prolog
#    and epilog still exit 0.
#  - roce-report never opens a FIFO or a device node planted as a fragment,
#    nor follows a job directory that is a symlink.
#  - A job id used again (MaxJobId wrap, a new StateSaveLocation), on a file
#    system without ACLs (tests/helpers/noacl.c stands in for one) and with them:
#    the later user's report is theirs alone.
# The planted-symlink, full-disk and killed-writer cases of report-safety.sh
# are not repeated.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/jobfiles.sh"
B="$top_builddir/prolog"
NOACL="$top_builddir/tests/helpers/.libs/noacl.so"

[ "$(id -u)" = 0 ] || skip_all "needs root (chown, mknod, mount, setpriv)"
command -v setpriv >/dev/null || skip_all "needs setpriv"
command -v jq >/dev/null || skip_all "needs jq"
T=$(mktemp -d)
CG=$T/cg
writer=""
# cgroups an epilog that followed ReportDir there would have made, by name only
cg_clean() { mountpoint -q "$CG" && rmdir "$CG/roce-$$/815" "$CG/roce-$$" "$CG/815" 2>/dev/null; umount "$CG" 2>/dev/null; }
cleanup() {
	[ -n "$writer" ] && kill "$writer" 2>/dev/null
	cg_clean
	rm -rf "$T"
}
trap cleanup EXIT
chmod 755 "$T"
R=$T/sys
mkdir -p "$R"
fab_example "$R" 2
E=4001 L=5001 ADMIN_GID=4242   # the earlier and the later user of a job id
# (The fixture's eth0/eth1 do not exist in this network namespace: every
# fragment has the check's own check_failed verdict, and only that.)
listing() { ls -A "$1" | tr '\n' ' '; }

# state_refused WHAT JOBID CONF WHY TARGET LISTING: prolog and epilog with
# that StateDir exit 0, the log says WHY, TARGET keeps mode 755 and LISTING
state_refused() {
	job prolog "$3" "$2"
	is "$rc" 0 "$1: prolog exit 0"
	like "$out" "$4" "$1: refused, the log names the path and why"
	job epilog "$3" "$2"
	is "$rc" 0 "$1: epilog exit 0"
	is "$(stat -c %a "$5")" 755 "$1: the target's mode unchanged"
	is "$(listing "$5")" "$6" "$1: nothing written or removed in the target"
}

# --- StateDir a symlink to a directory of root's: not followed
mkdir -m 755 "$T/etc"
echo keep >"$T/etc/keep"
: >"$T/etc/5.with.6"   # a name the epilog's scan would remove from its StateDir
ln -s "$T/etc" "$T/lstate"
state_refused "StateDir a symlink to a root directory" 811 "$(conf lstate "$T/reports" "$T/lstate")" \
	"StateDir $T/lstate: $T/lstate is a symbolic link" "$T/etc" "5.with.6 keep "

# --- StateDir in a directory a user owns: moved away and replaced by a symlink
P=$T/svc
mkdir -p "$P/state" && chmod 700 "$P/state" && chmod 755 "$P" && chown 5000 "$P"
mkdir -m 755 "$T/etc2"
: >"$T/etc2/5.with.6"
as_user 5000 "" sh -c "mv '$P/state' '$P/old' && ln -s '$T/etc2' '$P/state'"
ok "StateDir's parent owned by uid 5000: that user replaced StateDir with a symlink" test -L "$P/state"
state_refused "StateDir replaced by the parent's owner" 812 "$(conf svc "$T/reports" "$P/state")" \
	"StateDir $P/state: $P is owned by uid 5000, not root" "$T/etc2" "5.with.6 "

# --- an existing StateDir others can write: refused as it is, never chmod'ed
mkdir "$T/wstate" && chmod 777 "$T/wstate"
C=$(conf wstate "$T/reports" "$T/wstate")
job prolog "$C" 813
is "$rc" 0 "StateDir mode 777: prolog exit 0"
like "$out" "StateDir $T/wstate: $T/wstate is writable by group or others \(mode 777\)" "StateDir mode 777: refused, named"
is "$(stat -c %a "$T/wstate")" 777 "StateDir mode 777: its mode left alone"
is "$(listing "$T/wstate")" "" "StateDir mode 777: nothing written in it"

# --- directories in a world-writable sticky directory (/tmp, /scratch): root
# makes none there (anyone could make the name first and own it); the error
# names the path and the command that makes it
S=$T/scratch
mkdir -m 1777 "$S"
printf 'ReportDir=%s\nStateDir=%s\nSharedDir=%s\n' "$S/reports" "$S/state" "$S/shared" >"$T/sticky.conf"
job prolog "$T/sticky.conf" 820
is "$rc" 0 "StateDir missing in a sticky directory: prolog exit 0"
like "$out" "StateDir $S/state: $S/state is missing, and root makes no directory in $S, which others can write \(mode 1777\): make it as root once: install -d -m 0700 -o root $S/state" \
	"StateDir missing in a sticky directory: refused, naming the path and the install -d that makes it"
job epilog "$T/sticky.conf" 820
is "$rc" 0 "ReportDir missing in a sticky directory: epilog exit 0"
like "$out" "ReportDir $S/reports: .*install -d -m 0751 -o root $S/reports" "ReportDir: the same, with its mode"
is "$(listing "$S")" "" "nothing created in the sticky directory"
mkdir -m 700 "$S/state"
job prolog "$T/sticky.conf" 821
like "$out" "SharedDir $S/shared: .*install -d -m 0711 -o root $S/shared" "SharedDir: the same, with its mode"
is "$(listing "$S")" "state " "still nothing created there"
# a user who made the name first: refused as before
as_user 5000 "" mkdir -m 755 "$S/reports"
job epilog "$T/sticky.conf" 821
like "$out" "ReportDir $S/reports: $S/reports is owned by uid 5000, not root" "ReportDir squatted by a user: refused"
is "$(listing "$S/reports")" "" "ReportDir squatted by a user: nothing written in it"
rmdir "$S/reports"
# made as the message says: crossing the sticky directory is fine
install -d -m 0751 -o root "$S/reports" && install -d -m 0711 -o root "$S/shared"
job prolog "$T/sticky.conf" 822; job epilog "$T/sticky.conf" 822
is "$rc" 0 "made with install -d: epilog exit 0"
ok "made with install -d: the fragment is written" test -f "$S/reports/822/n1.json"

# --- ReportDir a symlink, or a symlink further up its path
mkdir -m 755 "$T/rtarget"
ln -s "$T/rtarget" "$T/rlink"
C=$(conf rlink "$T/rlink" "$T/state")
job prolog "$C" 814; job epilog "$C" 814
is "$rc" 0 "ReportDir a symlink: epilog exit 0"
like "$out" "ReportDir $T/rlink: $T/rlink is a symbolic link" "ReportDir a symlink: refused, named"
ln -s "$T" "$T/up"
C=$(conf up "$T/up/rtarget/reports" "$T/state")
job prolog "$C" 814; job epilog "$C" 814
like "$out" "ReportDir $T/up/rtarget/reports: $T/up is a symbolic link" "a symlink higher up ReportDir's path: refused, named"
is "$(listing "$T/rtarget")" "" "ReportDir through a symlink: nothing created in the target"

# --- ReportDir on a kernel file system (a mkdir there makes a cgroup)
mkdir "$CG"
if mount -t cgroup2 none "$CG" 2>/dev/null; then
	C=$(conf cg "$CG/roce-$$" "$T/state")
	job prolog "$C" 815; job epilog "$C" 815
	is "$rc" 0 "ReportDir on cgroup2: epilog exit 0"
	like "$out" "ReportDir $CG/roce-$$: .* on cgroup2, a kernel file system" "ReportDir on cgroup2: refused, named"
	ok "ReportDir on cgroup2: no cgroup created" test ! -e "$CG/roce-$$"
	C=$(conf cgroot "$CG" "$T/state")
	job prolog "$C" 815; job epilog "$C" 815
	like "$out" "ReportDir $CG: $CG is on cgroup2" "ReportDir the cgroup2 mount itself: refused"
	ok "ReportDir the cgroup2 mount: no job directory (cgroup) in it" test ! -e "$CG/815"
	cg_clean
else
	for _ in 1 2 3 4 5; do skip "cannot mount cgroup2"; done
fi

# --- a FIFO with a blocked writer and a device node among a job's fragments
C=$(conf plain "$T/reports" "$T/state")
job prolog "$C" 816; job epilog "$C" 816
J=$T/reports/816
mkfifo -m 644 "$J/n2.json"
sh -c 'exec 3>"$1"; : >"$2"' _ "$J/n2.json" "$T/released" &   # blocks until a reader opens the FIFO
writer=$!
mknod -m 644 "$J/n3.json" c 1 3   # /dev/null's numbers: harmless if opened; strace sees it
trace=()
# (LeakSanitizer cannot run under ptrace: no leak check in this one run)
command -v strace >/dev/null && trace=(env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	strace -f -qq -e trace=open,openat -o "$T/strace")
out=$("${trace[@]}" "$B/roce-report" 816 --report-dir "$T/reports" 2>&1); rc=$?
is "$rc" 0 "FIFO and device node as fragments: the report is printed"
like "$out" "error: fragment n2.json: .*not a regular file \(a FIFO\)" "the FIFO is reported by name"
like "$out" "error: fragment n3.json: .*not a regular file \(a character device\)" "the device node is reported by name"
if [ ${#trace[@]} -gt 0 ]; then
	is "$(grep -E 'n[23]\.json' "$T/strace" | grep -v O_PATH)" "" "neither is opened (strace: only O_PATH looks)"
else
	skip "no strace"
fi
ok "the FIFO's writer is still blocked" test ! -e "$T/released"
kill "$writer"; writer=""

# --- a job directory that is a symlink: roce-report does not follow it
C=$(conf other "$T/oreports" "$T/state")
job prolog "$C" 817; job epilog "$C" 817
ln -s "$T/oreports/817" "$T/reports/817"
out=$("$B/roce-report" 817 --report-dir "$T/reports" 2>&1); rc=$?
is "$rc" 1 "a job directory that is a symlink: no report"
like "$out" "$T/reports/817 is a symbolic link" "a job directory that is a symlink: named"

# --- a job id used again on a file system without ACLs: the earlier user owns their fragments
ok "the no-ACL shim is built (make check)" test -f "$NOACL"
mkdir -m 751 "$T/ureports" && chgrp "$ADMIN_GID" "$T/ureports"
C=$(conf reuse "$T/ureports" "$T/state")
JOB_PRELOAD=$NOACL
for n in n1 n2; do job prolog "$C" 77 "$n" "$E"; job epilog "$C" 77 "$n" "$E"; done
is "$(stat -c '%a %u %g' "$T/ureports/77/n2.json")" "440 $E $ADMIN_GID" "no ACLs: the fragment is given to the job's user"
# ... who rewrites it: a failed link, the later user's uid, readable by all,
# dated a day ahead
FORGE='.job_uid = '$L' | .verdicts += [{"code": "link_down", "severity": "fail", "subject": "mlx5_0:1", "message": "forged", "fix": "forged"}]'
mkdir "$T/e" && chown "$E" "$T/e"
F=$T/ureports/77/n2.json
as_user "$E" "" sh -c "jq -c '$FORGE' '$F' >'$T/e/x' && chmod u+w '$F' && cat '$T/e/x' >'$F' && chmod 644 '$F' && touch -d '+1 day' '$F'"
ok "the earlier user rewrote their fragment" grep -q forged "$F"
job prolog "$C" 77 n1 "$L"; job epilog "$C" 77 n1 "$L"
JOB_PRELOAD=""
is "$rc" 0 "job id 77 again, for uid $L on n1: epilog exit 0"
out=$(as_user "$L" "" "$B/roce-report" 77 --report-dir "$T/ureports" --format json 2>"$T/err"); rc=$?
is "$rc" 0 "reused job id: the later user reads job 77"
is "$(jq -r '.nodelist, (.verdicts | map(.code) | join(","))' <<<"$out" 2>&1 | tr '\n' ' ')" "n1 check_failed " \
	"reused job id: their report is their node alone, with no verdict of the earlier user's"
out=$("$B/roce-report" 77 --report-dir "$T/ureports" --format json 2>"$T/err")
is "$(jq -r .nodelist <<<"$out" 2>&1)" n1 "reused job id: root's report is the later instance too"
is "$(listing "$T/ureports/77")" "n1.json " "reused job id: the job directory holds the later instance only"
old=$(ls -d "$T"/ureports/77.earlier-* 2>/dev/null)
is "$(listing "${old:-/nonexistent}" 2>&1)" "n1.json n2.json " "reused job id: the earlier instance's directory moved aside whole"

# --- a job directory with other instances' fragments (as earlier versions
# left them): roce-report drops them by name instead of refusing the job
JOB_PRELOAD=$NOACL
C=$(conf b "$T/breports" "$T/state")
for n in n2 n3; do job prolog "$C" 78 "$n" "$E"; job epilog "$C" 78 "$n" "$E"; done
C=$(conf a "$T/areports" "$T/state")
job prolog "$C" 78 n1 "$L"; job epilog "$C" 78 n1 "$L"
JOB_PRELOAD=""
M=$T/mreports/78
mkdir -p "$M"
cp -a "$T/areports/78/n1.json" "$T/breports/78/n2.json" "$T/breports/78/n3.json" "$M/"
jq -c "$FORGE" "$M/n2.json" >"$T/x" && cat "$T/x" >"$M/n2.json" && chmod 644 "$M"/n[23].json   # still uid $E's files
out=$(as_user "$L" "" "$B/roce-report" 78 --report-dir "$T/mreports" --format json 2>"$T/err"); rc=$?
is "$rc" 0 "mixed instances: the later user reads job 78"
is "$(jq -r '.nodelist, (.verdicts | map(.code) | join(","))' <<<"$out" 2>&1 | tr '\n' ' ')" "n1 check_failed " \
	"mixed instances: their node only"
like "$(jq -r '.errors[]' <<<"$out" 2>&1)" "n2.json: owned by uid $E, neither root nor its job_uid $L" \
	"mixed instances: a fragment its owner could rewrite is dropped, named"
like "$(jq -r '.errors[]' <<<"$out" 2>&1)" "n3.json: job_uid $E is not the job's \(uid $L\)" \
	"mixed instances: another user's fragment is dropped, named"
out=$("$B/roce-report" 78 --report-dir "$T/mreports" --format json 2>"$T/err"); rc=$?
is "$rc $(jq -r .nodelist <<<"$out" 2>&1)" "0 n1" "mixed instances: root's report is the same node"

# --- a job id used again where root keeps the fragments (ACLs or root-owned):
# the earlier instance ended before this one began, and is moved aside
C=$(conf aged "$T/greports" "$T/state")
for n in n1 n2; do job prolog "$C" 79 "$n" "$E"; job epilog "$C" 79 "$n" "$E"; done
touch -d '-2 hours' "$T/greports/79/n1.json" "$T/greports/79/n2.json"   # that job ended two hours ago
job prolog "$C" 79 n1 "$L"; job epilog "$C" 79 n1 "$L"
is "$rc" 0 "job id 79 again after two hours: epilog exit 0"
is "$(listing "$T/greports/79") $(jq -r .job_uid "$T/greports/79/n1.json")" "n1.json  $L" \
	"job id 79 again: the job directory holds the later instance only"
old=$(ls -d "$T"/greports/79.earlier-* 2>/dev/null)
is "$(listing "${old:-/nonexistent}" 2>&1)" "n1.json n2.json " "job id 79 again: the earlier instance moved aside"
out=$(as_user "$L" "" "$B/roce-report" 79 --report-dir "$T/greports" 2>&1); rc=$?
is "$rc" 0 "job id 79 again: the later user reads their report"

# --- one instance on two nodes, n2's prolog running after n1's epilog wrote
# its fragment (a job prolog runs at a node's first step without
# PrologFlags=Alloc): kept together
C=$(conf one "$T/oneports" "$T/state")
for n in n1 n2; do job prolog "$C" 80 "$n" "$L"; job epilog "$C" 80 "$n" "$L"; done
is "$(listing "$T/oneports")" "80 " "one instance: nothing moved aside"
is "$(listing "$T/oneports/80")" "n1.json n2.json " "one instance: both fragments in its directory"
done_testing
