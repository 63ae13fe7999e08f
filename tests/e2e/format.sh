#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# format.sh - lib/, spank/ and prolog/ are as .clang-format formats them
# (clang-format --dry-run --Werror names each file and line that differs).
# The style is clang-format 14's (Debian 12): other majors break lines
# differently, so they skip rather than ask for a reformat of the tree.
set -u
top_srcdir=$(cd "${top_srcdir:-$(dirname "$0")/../..}" && pwd)
. "$top_srcdir/tests/lib/tap.sh"
cd "$top_srcdir" || exit 1
command -v clang-format >/dev/null || skip_all "clang-format not installed (scripts/deps)"
major=$(clang-format --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
[ "$major" = 14 ] || skip_all "clang-format $major: the tree's style is clang-format 14's (Debian 12)"
files=$(find lib spank prolog -name '*.[ch]' | sort)
out=$(clang-format --dry-run --Werror $files 2>&1)
is "$(printf '%s\n' "$out" | grep -c 'warning: code should be clang-formatted')" 0 \
	"$(echo "$files" | wc -l) files under lib/, spank/ and prolog/ are clang-formatted (clang-format -i FILE)"
[ -z "$out" ] || printf '%s\n' "$out" | head -30 | sed 's/^/# /'
# a file that is not formatted is found (the check can fail)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
printf 'int   f( void ){return 0;}\n' >"$t/bad.c"
cp .clang-format "$t/"
check "an unformatted file fails the check" '! clang-format --dry-run --Werror "$t/bad.c" 2>/dev/null'
done_testing
