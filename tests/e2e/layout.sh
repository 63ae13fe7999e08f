#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# layout.sh - the shape of the tree (issue 10's "done when"), from the
# sources and the built objects:
#   1. the include graph has no circle (a module is X.c + X.h; tsort finds loops)
#   2. no include runs up a layer: lib/ < spank/, prolog/ (which never include
#      each other) < tests/, fuzz/, bench/; inside lib/ the LAYERS below
#   3. no file under lib/ is over 700 lines
#   4. every lib/ object exports only roce_<file>_* (or roce_<file>) symbols,
#      "verdicts" also roce_verdict_*; the EXCEPTIONS below say why not
# Run it directly (bash tests/e2e/layout.sh) after adding a lib/ file: it
# names the file, the include or the symbol.  TAP output.
set -u
top_srcdir=$(cd "${top_srcdir:-$(dirname "$0")/../..}" && pwd)
top_builddir=${top_builddir:-$top_srcdir/build}
. "$top_srcdir/tests/lib/tap.sh"
cd "$top_srcdir" || exit 1

# lib/'s layers, low to high: a module may include its own layer and those
# below.  A new lib/ file goes into the layer of what it does.
LAYERS=(
	"base: error arena decimal cpus parprint printable clock timearg hostname pciaddr pcicap counter model nodelist slurmnodes"
	"readers: readfile safefile jsonin jsonpull sysfs policy"
	"collectors: rdma pcie gdr nl nlmsg rtlink dcb dcb_pfc dcb_app dcb_ets dcb_buffer verbs netclass trust topo collect"
	"pure: finding check check_drain check_link check_fw check_ecn check_ets check_trust pciecheck plan locality gpuset choice json"
	"pipeline: pipeline snapshot snapshot_json delta"
	"report: verdicts ranwith fragment fragment_read report reportdir report_text report_json report_prometheus report_metric report_heatmap report_html report_ranwith report_verdicts nodehealth nodehealth_text nodehealth_json nodehealth_prometheus nodehealth_html"
	"processes: worker stuck slurmver"
	"agreement: fingerprint agree shareddir"
	"job: job"
)
# file:prefix:why - exported prefixes a lib/ file may have besides its own.
EXCEPTIONS=(
	"model:roce_(node|device|port|gid|netdev|reading|status|link_layer|devices|ib_mtu|fnv1a)_?:the model's types, each with its pure predicates (issue 10: they live with the model)"
	"policy:roce_(gdr_level|mode|token|action)_:the policy's value types (GdrLevel, Mode, a token of roce.conf, warn|fail|ignore), parsed and named with it"
	"check:roce_verdict_name:the name of check.h's enum roce_verdict (pass/warn/fail of a finding)"
	"jsonin:roce_jin_:short for \"JSON in\", the strict reader's prefix (style.md, example 4)"
	"rdma:roce_(collect|parse)_:collectors are roce_collect_<source> (collect.c, verbs.c too); roce_parse_* are rdma's sysfs text parsers, exported for the fuzz targets"
	"verbs:roce_collect_verbs:collectors are roce_collect_<source>"
	"sysfs:roce_(path|natural_cmp):the sysfs root path builder and the order of sysfs listings, used by every reader of sysfs"
	"snapshot_json:roce_snapshot_(to|from)_json:the JSON form of a snapshot (as report_json.c is roce_report_json)"
	"fingerprint:roce_fp_verdict_name:issue 11 (landed after this check): the rest of fingerprint.c is roce_fingerprint_*; rename to roce_fingerprint_verdict_name and drop this line"
)

# ---------------------------------------------------------------- includes
# "FROM TO" per include between modules (dir/name, no extension), resolved as
# the compiler does: the including file's directory, then -I lib, tests/lib,
# tests/unit.
edges() {
	local f dir inc mod
	for f in $(find lib spank prolog tests/unit tests/lib tests/helpers fuzz bench -name '*.[ch]' 2>/dev/null | sort); do
		dir=${f%/*}; mod=${f%.[ch]}
		for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
			local to=
			for d in "$dir" lib tests/lib tests/unit; do
				[ -f "$d/$inc" ] && { to=$d/${inc%.h}; break; }
			done
			[ -n "$to" ] && [ "$to" != "$mod" ] && echo "$mod $to"
		done
	done | sort -u
}
E=$(edges)

loops=$(printf '%s\n' "$E" | tsort 2>&1 >/dev/null)
is "$loops" "" "the include graph has no circle (tsort of $(printf '%s\n' "$E" | wc -l) includes between modules)"

layer_of() { # lib module -> index in LAYERS, or empty
	local i
	for i in "${!LAYERS[@]}"; do
		case " ${LAYERS[$i]#*:} " in *" $1 "*) echo "$i"; return ;; esac
	done
}
dir_rank() {
	case $1 in
	lib/*) echo 0 ;; spank/* | prolog/*) echo 1 ;; *) echo 2 ;;
	esac
}
up=""
while read -r from to; do
	[ -n "$from" ] || continue
	rf=$(dir_rank "$from"); rt=$(dir_rank "$to")
	if [ "$rt" -gt "$rf" ]; then up+="$from includes $to (a higher directory)"$'\n'; continue; fi
	case $from:$to in
	spank/*:prolog/* | prolog/*:spank/*) up+="$from includes $to (the adapters share only lib/)"$'\n'; continue ;;
	esac
	case $from:$to in
	lib/*:lib/*)
		lf=$(layer_of "${from#lib/}"); lt=$(layer_of "${to#lib/}")
		[ -n "$lf" ] || { up+="$from is in no layer: add it to LAYERS in tests/e2e/layout.sh"$'\n'; continue; }
		[ -n "$lt" ] || continue
		[ "$lt" -gt "$lf" ] && up+="$from (${LAYERS[$lf]%%:*}) includes $to (${LAYERS[$lt]%%:*})"$'\n'
		;;
	esac
done <<<"$E"
unlisted=""
for f in lib/*.c; do
	m=${f%.c}; m=${m#lib/}
	[ -n "$(layer_of "$m")" ] || unlisted+="lib/$m.c is in no layer: add it to LAYERS in tests/e2e/layout.sh"$'\n'
done
is "$up$unlisted" "" "no include from a lower layer to a higher one (lib/ by LAYERS, then spank/ and prolog/, then tests/)"

# ---------------------------------------------------------------- size
big=$(wc -l lib/*.[ch] | awk '$2 != "total" && $1 > 700 { print $2 " has " $1 " lines" }')
is "$big" "" "no file under lib/ is over 700 lines (largest: $(wc -l lib/*.[ch] | sort -n | grep -v ' total$' | tail -1 | awk '{ print $2, $1 }'))"

# ---------------------------------------------------------------- prefixes
objs=$(ls "$top_builddir"/lib/.libs/libroce_la-*.o 2>/dev/null)
if [ -z "$objs" ] || ! command -v nm >/dev/null; then
	skip "lib/'s objects not built in $top_builddir (or no nm)"
else
	wrong=""
	for o in $objs; do
		file=${o##*/libroce_la-}; file=${file%.o}
		allowed="^roce_${file}(_|\$)|^roce_${file%s}_"
		for x in "${EXCEPTIONS[@]}"; do
			[ "${x%%:*}" = "$file" ] || continue
			x=${x#*:}; allowed+="|^${x%%:*}"
		done
		# (the sanitizers' own symbols, __odr_asan.* and __asan_*, are not ours)
		bad=$(nm -g --defined-only "$o" | awk '{ print $3 }' | grep -vE '^__(odr_)?asan' | grep -vE "$allowed")
		[ -z "$bad" ] || wrong+="lib/$file.c exports $(echo $bad)"$'\n'
		[ -f "lib/$file.c" ] || wrong+="$o has no lib/$file.c"$'\n'
	done
	is "$wrong" "" "each lib/ file exports only its own prefix (nm over $(echo "$objs" | wc -l) objects; ${#EXCEPTIONS[@]} agreed exceptions)"
	# an exception nobody needs any more is removed
	stale=""
	for x in "${EXCEPTIONS[@]}"; do
		file=${x%%:*}; p=${x#*:}; p=${p%%:*}
		o=$top_builddir/lib/.libs/libroce_la-$file.o
		nm -g --defined-only "$o" 2>/dev/null | awk '{ print $3 }' | grep -qE "^$p" || stale+="$file:$p "
	done
	is "$stale" "" "every agreed exception is still needed"
fi
done_testing
