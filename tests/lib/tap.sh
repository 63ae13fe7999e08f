# SPDX-License-Identifier: GPL-2.0-or-later
# tap.sh - minimal TAP producer for shell tests (automake's tap-driver reads it).
# Source it; call plan N (or skip_all REASON), then ok/is/like; done_testing at the end.
_tap_n=0
_tap_failed=0
plan() { echo "1..$1"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
_tap_result() { # status name [diag]
	_tap_n=$((_tap_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_failed=$((_tap_failed + 1))
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
	fi
	return 0
}
ok() { # ok "name" cmd...
	local name=$1; shift
	if "$@"; then _tap_result 0 "$name"; else _tap_result 1 "$name" "command failed: $*"; fi
}
is() { # is GOT EXPECTED NAME
	if [ "$1" = "$2" ]; then _tap_result 0 "$3"; else _tap_result 1 "$3" "got:      '$1'
expected: '$2'"; fi
}
like() { # like TEXT GREP-E-PATTERN NAME
	if printf '%s' "$1" | grep -qE -- "$2"; then _tap_result 0 "$3"; else _tap_result 1 "$3" "pattern '$2' not in:
$1"; fi
}
unlike() {
	if printf '%s' "$1" | grep -qE -- "$2"; then _tap_result 1 "$3" "pattern '$2' unexpectedly in:
$1"; else _tap_result 0 "$3"; fi
}
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # SKIP $*"; }
done_testing() { echo "1..$_tap_n"; [ "$_tap_failed" = 0 ]; }
