#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/threat-model.md against the tree: every directory root writes into
# (the roce.conf keys of lib/read/safefile.c's configured directories) has
# its entry point; every test, fuzz target and bench a "shown by" cell names
# exists; every fuzz target of fuzz/build.sh is named; and the one thing not
# defended about SharedDir, that it is only as trusted as the least trusted
# node that writes it, is said both there and in roce.conf(5).  Needs no root.
set -u
. "$top_srcdir/tests/lib/tap.sh"
D=$top_srcdir/docs/threat-model.md
[ -f "$D" ] || skip_all "no docs/threat-model.md"
rows=$(grep '^| ' "$D")

# --- the directories root writes into, each an entry point of its own
for k in StateDir ReportDir SharedDir TopologyCache; do
	ok "lib/read/safefile.c resolves $k" grep -q "\"$k" "$top_srcdir/lib/read/safefile.c"
	ok "the threat model has an entry point for $k" sh -c 'printf "%s\n" "$1" | cut -d"|" -f2 | grep -q "$2"' _ "$rows" "$k"
done
like "$rows" '\| SharedDir and the fingerprints in it' "SharedDir's fingerprints: an entry point"
like "$rows" 'a configured directory not made yet, in a directory others can write' "squatting a directory not made yet: an entry point"
like "$rows" '\| listing ReportDir, a job.s directory, SharedDir' "listing who ran what: an entry point"
like "$rows" '\| the probe ' "the probe: an entry point, its properties to be verified when it lands"

# --- what the cells name exists
names=$(grep -oE '`(e2e/[a-z0-9-]+\.sh|unit/test_[a-z0-9_]+|fuzz/[a-z0-9_]+\.c|bench/[a-z0-9-]+\.sh)' "$D" | tr -d '`' | sort -u)
ok "the threat model names tests" test "$(echo "$names" | wc -l)" -ge 20
for n in $names; do
	case $n in
	unit/*) f=$top_srcdir/tests/$n.c ;;
	e2e/*) f=$top_srcdir/tests/$n ;;
	*) f=$top_srcdir/$n ;;
	esac
	ok "$n exists" test -f "$f"
done
for t in $(sed -n 's/^TARGETS="\(.*\)"$/\1/p' "$top_srcdir/fuzz/build.sh"); do
	case $t in pcicap) continue ;; esac   # a PCIe config space: the kernel's, no entry point of its own
	ok "fuzz target $t is named in the threat model" grep -q "fuzz/$t\.c\|fuzz/${t%_*}_\*\.c" "$D"
done

# --- SharedDir's trust, said where an admin reads it
trust='only as trusted as the least trusted node that writes it'
like "$(tr '\n' ' ' <"$D")" "$trust" "the threat model says SharedDir is $trust"
like "$(sed -n '/^\.BI SharedDir=/,/^\.TP/p' "$top_srcdir/man/roce.conf.5" | tr '\n' ' ' | sed 's/\\-/-/g')" \
	"$trust" "roce.conf(5), SharedDir, says it too"
like "$(tr '\n' ' ' <"$D")" 'bench/fingerprint-auth.sh' "with the measured cost that decided it"
done_testing
