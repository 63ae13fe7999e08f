# SPDX-License-Identifier: GPL-2.0-or-later
# jobfiles.sh - run roce-prolog/roce-epilog as slurmd would, on a fixture
# sysfs tree, for the tests of the files they write as root
# (report-safety.sh, root-files.sh).  The caller sets $B (the programs),
# $R (the sysfs fixture) and $T (its scratch directory).

conf() { # conf NAME REPORTDIR STATEDIR -> path of a roce.conf
	printf 'ReportDir=%s\nStateDir=%s\n' "$2" "$3" >"$T/$1.conf"
	echo "$T/$1.conf"
}

# job KIND CONF JOBID [NODE [UID]]: sets $out $rc.  JOB_PRELOAD, when set,
# is preloaded into the program (ahead of a sanitizer runtime, which then
# must not insist on coming first).
job() {
	local pre=()
	[ -n "${JOB_PRELOAD:-}" ] &&
		pre=(LD_PRELOAD="$JOB_PRELOAD" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
	out=$(env "${pre[@]}" SLURM_JOB_ID="$3" SLURM_JOB_UID="${5:-4001}" SLURMD_NODENAME="${4:-n1}" \
		"$B/roce-$1" --config "$2" --sysfs-root "$R" 2>&1)
	rc=$?
}

as_user() { # as_user UID GROUPS CMD...: run with only that uid and those groups
	local uid=$1 groups=$2; shift 2
	if [ -n "$groups" ]; then
		setpriv --reuid "$uid" --regid "$uid" --groups "$groups" -- "$@"
	else
		setpriv --reuid "$uid" --regid "$uid" --clear-groups -- "$@"
	fi
}
