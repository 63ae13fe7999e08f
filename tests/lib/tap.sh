# SPDX-License-Identifier: GPL-2.0-or-later
# tap.sh - the one TAP producer of the shell tests (automake's tap-driver
# reads it).  Source it first; every result goes through these:
#   plan N                  the plan up front (optional: done_testing prints it)
#   skip_all REASON         "1..0 # SKIP REASON" and exit: the test cannot run here
#   ok NAME CMD...          ok when CMD succeeds
#   is GOT WANT NAME        the same text
#   like TEXT ERE NAME      grep -E finds ERE in TEXT (unlike: does not)
#   check NAME 'CONDITION'  CONDITION eval'd here; when it fails, the lines
#                           of the tap_diag and check_diag hooks follow
#   pass NAME / fail NAME [DIAG...]   a result the test decided itself
#   skip REASON             one result that could not be checked here
#   done_testing            the last line: 1 when a result failed or the plan
#                           was not kept
# Hooks (empty by default): tap_diag (a library's, e.g. spanktest.sh prints
# the step's output), check_diag (the test's own).
. "$(dirname "${BASH_SOURCE[0]}")/poll.sh"
_tap_n=0
_tap_failed=0
_tap_plan=
plan() { _tap_plan=$1; echo "1..$1"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
pass() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1"; }
fail() { # fail NAME [DIAG...]: each non-empty DIAG as "# " lines
	_tap_n=$((_tap_n + 1)); _tap_failed=$((_tap_failed + 1))
	echo "not ok $_tap_n - $1"; shift
	local l
	for l in "$@"; do [ -z "$l" ] || printf '%s\n' "$l" | sed 's/^/# /'; done
	return 0
}
ok() { # ok NAME CMD...
	local name=$1; shift
	if "$@"; then pass "$name"; else fail "$name" "command failed: $*"; fi
}
is() { # is GOT EXPECTED NAME
	if [ "$1" = "$2" ]; then pass "$3"; else fail "$3" "got:      '$1'
expected: '$2'"; fi
}
like() { # like TEXT GREP-E-PATTERN NAME
	if printf '%s' "$1" | grep -qE -- "$2"; then pass "$3"; else fail "$3" "pattern '$2' not in:
$1"; fi
}
unlike() {
	if printf '%s' "$1" | grep -qE -- "$2"; then fail "$3" "pattern '$2' unexpectedly in:
$1"; else pass "$3"; fi
}
tap_diag() { :; }
check_diag() { :; }
check() { # check NAME 'SHELL CONDITION'
	local name=$1; shift
	if eval "$1"; then pass "$name"; else fail "$name" "$(tap_diag)" "$(check_diag)"; fi
}
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # SKIP $*"; }
done_testing() {
	if [ -z "$_tap_plan" ]; then
		echo "1..$_tap_n"
	elif [ "$_tap_n" != "$_tap_plan" ]; then
		echo "# planned $_tap_plan, ran $_tap_n"; return 1
	fi
	[ "$_tap_failed" = 0 ]
}
