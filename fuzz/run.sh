#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh - build the libFuzzer targets and run each one briefly; TAP output.
#
#   fuzz/run.sh [SECONDS]          (default $FUZZ_SECONDS, else 10 per target)
#   FUZZ_TARGETS="option gpu_set" fuzz/run.sh 60
#   FUZZ_SECONDS=0                 skip (CI fuzzes in one stage only: the
#                                  targets do not depend on the Slurm release)
#
# Runs as a test of `make check` (top_srcdir/top_builddir from the
# environment) and by hand from a build directory.  Each target starts from
# its seed corpus in a fresh temporary corpus, on one core, under ASan (with
# leak detection) and UBSan; a crash, leak, sanitizer report, timeout (10 s
# per input) or broken FUZZ_CHECK promise fails the target and leaves the
# reproducer in $top_builddir/fuzz/findings/.  Skips when clang cannot build
# libFuzzer targets.
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bld=${top_builddir:-$(pwd)}
secs=${1:-${FUZZ_SECONDS:-10}}
out=$bld/fuzz
if [ "$secs" = 0 ]; then
	echo "1..0 # SKIP FUZZ_SECONDS=0"
	exit 0
fi

log=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$work" "$log"' EXIT
sh "$src/fuzz/build.sh" "$src" "$bld" >"$log" 2>&1
rc=$?
if [ "$rc" = 77 ]; then
	echo "1..0 # SKIP $(head -1 "$log")"
	exit 0
fi
if [ "$rc" != 0 ]; then
	echo "1..1"
	echo "not ok 1 - make fuzz builds the targets"
	sed 's/^/# /' "$log"
	exit 1
fi
targets=${FUZZ_TARGETS:-$(sed -n 's/^TARGETS="\(.*\)"$/\1/p' "$src/fuzz/build.sh")}
n=0
for t in $targets; do n=$((n + 1)); done
echo "1..$n"
mkdir -p "$out/findings"
i=0
failed=0
for t in $targets; do
	i=$((i + 1))
	mkdir -p "$work/$t"
	tlog=$work/$t.log
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
		"$out/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$out/findings/$t-" "$work/$t" "$out/seeds.d/$t" >"$tlog" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tlog")
	cov=$(grep -o 'cov: [0-9]*' "$tlog" | tail -1)
	if [ "$rc" = 0 ] && ! grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$tlog"; then
		echo "ok $i - $t: ${execs:-?} execs in ${secs} s, ${cov:-cov: ?}"
	else
		failed=$((failed + 1))
		echo "not ok $i - $t: exit $rc after ${execs:-?} execs (reproducer in $out/findings/)"
		grep -E 'ERROR|runtime error|fuzz check failed|#[0-9]+ 0x|Test unit written' "$tlog" | head -30 | sed 's/^/# /'
	fi
done
[ "$failed" = 0 ]
