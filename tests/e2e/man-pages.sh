#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The man pages against the code: every roce.conf key of lib/read/policy.c's keys[]
# is in roce.conf(5), and the default the page states for it is the code's
# (tests/helpers/policy-default sets KEY=<stated default> on roce_policy_defaults()
# through the real parser and finds the policy unchanged); every long option
# of every program (its getopt table)
# and of the plugin is in its page; every page renders without a warning
# (man -l, and mandoc -Tlint when installed).  Needs no root.
set -u
. "$top_srcdir/tests/lib/tap.sh"
M=$top_srcdir/man
PAGES="spank-roce.8 roce.conf.5 roce-check.8 roce-healthcheck.8 roce-prolog.8 roce-epilog.8 roce-report.1"

# Words of a getopt_long table: { "name", ... } lines between "struct option" and the NULL entry.
long_options() { # FILE
	sed -n '/struct option/,/{ NULL/p' "$1" | sed -n 's/^[[:space:]]*{ "\([a-z-]*\)",.*/\1/p'
}
# mentions PAGE WORD: the page has WORD as roff writes it (hyphens escaped).
mentions() {
	local w=${2//-/\\\\-}
	grep -qF -- "$(printf '%b' "$w")" "$M/$1"
}

# --- roce.conf keys, and their defaults as roce.conf(5) states them
keys=$(sed -n 's/^[[:space:]]*{ "\([A-Za-z]*\)", set_.*/\1/p' "$top_srcdir/lib/read/policy.c")
[ -n "$keys" ] || skip_all "no keys[] table in lib/read/policy.c"
for k in $keys; do
	ok "roce.conf.5 documents $k=" grep -qE "^\.B[IR]? $k=" "$M/roce.conf.5"
done
ok "roce.conf.5 documents as many keys as keys[] has ($(echo "$keys" | wc -l))" \
	test "$(grep -cE '^\.(B|BI|BR) [A-Z][A-Za-z]*=' "$M/roce.conf.5")" -ge "$(echo "$keys" | wc -l)"

# KEY<TAB>DEFAULT for each key entry of roce.conf(5): ".TP", ".B[IR] Key=...",
# then "Default:" followed by ".BR value" on the next line, or "Default: empty".
stated_defaults() {
	awk '
	/^\.TP/ { tp = 1; next }
	tp && match($0, /^\.B[IR]? [A-Z][A-Za-z]*=/) { key = substr($0, RSTART, RLENGTH - 1); sub(/^\.B[IR]? /, "", key); tp = 0; next }
	{ tp = 0 }
	key != "" && /^Default: empty/ { print key "\t"; key = ""; next }
	key != "" && /^Default:$/ { want = 1; next }
	want { v = $0; sub(/^\.BR? /, "", v); sub(/ .*/, "", v); gsub(/\\-/, "-", v); sub(/[.,]$/, "", v)
	       print key "\t" v; want = 0; key = "" }' "$M/roce.conf.5"
}
probe=$top_builddir/tests/helpers/policy-default
if [ -x "$probe" ]; then
	stated=$(stated_defaults)
	for k in $keys; do
		line=$(printf '%s\n' "$stated" | grep -m1 "^$k	") || { fail "roce.conf.5 states a default for $k"; continue; }
		v=${line#*	}
		ok "roce.conf.5: $k's default \"$v\" is the code's" "$probe" "$k" "$v"
	done
else
	skip "$probe not built (make check builds it)"
fi

# --- program options
check_options() { # PAGE SOURCE
	local o
	for o in $(long_options "$2"); do
		ok "$1 documents --$o" mentions "$1" "--$o"
	done
}
check_options roce-check.8 "$top_srcdir/prolog/roce-check.c"
check_options roce-report.1 "$top_srcdir/prolog/roce-report.c"
check_options roce-prolog.8 "$top_srcdir/prolog/jobmain.c"
check_options roce-epilog.8 "$top_srcdir/prolog/jobmain.c"

# --- the plugin: its option, its plugstack arguments, its variable
ok "spank-roce.8 documents --roce" mentions spank-roce.8 "--roce"
for w in config= default= SLURM_ROCE SPANK_ROCE_MODE ROCE_EXPORTED; do
	ok "spank-roce.8 documents $w" mentions spank-roce.8 "$w"
done
for v in $(grep -ho '"NCCL_[A-Z_]*"' "$top_srcdir/lib/check/plan.c" | tr -d '"' | sort -u); do
	ok "spank-roce.8 documents $v" mentions spank-roce.8 "$v"
done

# --- report verdicts: every code lib/fragment/verdicts.c and lib/report/report_verdicts.c can give is in roce-report(1)
codes=$(grep -ho '"[a-z_]*", ROCE_SEV_' "$top_srcdir/lib/fragment/verdicts.c" "$top_srcdir/lib/report/report_verdicts.c" | sed 's/", ROCE_SEV_//; s/"//' | sort -u)
ok "lib/fragment/verdicts.c has verdict codes" test "$(echo "$codes" | wc -w)" -ge 10
for c in $codes; do
	ok "roce-report.1 documents the verdict $c" grep -qE "^\.BR? .*\b$c\b" "$M/roce-report.1"
done

# --- drain reasons: the fixed vocabulary of lib/check/check_drain.c's short_reason(),
# and the reasons checks in their own files give (lib/check/check_*.c)
for r in "port %u DOWN" "port %u netdev down" "port %u no RoCE v2 GID" "%s missing" "port %u at %s Gb/s"; do
	grep -qF "\"%s $r\"" "$top_srcdir"/lib/check/check*.c || grep -qF "\"$r\"" "$top_srcdir"/lib/check/check*.c || {
		fail "lib/check/check*.c still has the drain reason '$r'"; continue; }
	pat=$(printf '%s' "$r" | sed 's/%u/1/; s/at %s/at 25/; s/%s/mlx5_2/')
	ok "roce-check.8 and spank-roce.8 show the drain reason '$pat'" \
		sh -c "grep -qF -- '$pat' '$M/roce-check.8' && grep -qF -- '$pat' '$M/spank-roce.8'"
done

# --- rendering
if command -v man >/dev/null && man --version >/dev/null 2>&1; then
	for p in $PAGES; do
		w=$(MANWIDTH=80 man --warnings -l "$M/$p" 2>&1 >/dev/null)
		is "$w" "" "man -l $p: no warnings"
	done
else
	skip "man is not installed"
fi
if command -v mandoc >/dev/null; then
	for p in $PAGES; do
		w=$(mandoc -Tlint -Wwarning "$M/$p" 2>&1)
		is "$w" "" "mandoc -Tlint $p"
	done
else
	skip "mandoc is not installed"
fi
done_testing
