#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# noleftovers.sh SHELL TEST [ARGS...]: run a shell test (SH_LOG_COMPILER), then
# fail it when a process it started is still running: a daemon not stopped,
# a worker child that outlived its killed parent.  The test's processes are
# found by a variable only they inherit (TESTRUN_SLURM_ROCE, unique per run;
# not in this script's own environment), so tests running in parallel do not
# see each other's.  Leftovers get 10 s to
# end, are then named ("Bail out!", which fails the test) and killed.
run_id="$$.$(date +%s%N)"
env TESTRUN_SLURM_ROCE="$run_id" "$@"
rc=$?

leftovers() {
	for f in $(grep -lxzF "TESTRUN_SLURM_ROCE=$run_id" /proc/[0-9]*/environ 2>/dev/null); do
		d=${f%/environ}
		grep -q '^[0-9]* (.*) Z' "$d/stat" 2>/dev/null && continue   # a zombie is gone
		echo "${d#/proc/}"
	done
}
left=$(leftovers)
i=0
while [ -n "$left" ] && [ $i -lt 20 ]; do sleep 0.5; i=$((i + 1)); left=$(leftovers); done
if [ -n "$left" ]; then
	names=$(for p in $left; do printf '%s ' "$p:$(tr '\0' ' ' </proc/$p/cmdline 2>/dev/null | cut -c1-80)"; done)
	echo "Bail out! ${2##*/} left processes running: $names"
	for p in $left; do kill -KILL "$p" 2>/dev/null; done
	exit 1
fi
exit $rc
