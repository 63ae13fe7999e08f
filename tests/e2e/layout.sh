#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# layout.sh - the shape of the tree, from the sources and the built objects:
#   1. lib/'s folders are its layers: README's Layout lists them, low to high
#      (the one list: this script reads it from there), and every lib/ folder
#      is in it
#   2. the include graph has no circle (a module is X.c + X.h; tsort finds loops)
#   3. no include runs up a layer: lib/ < spank/, prolog/ (which never include
#      each other) < tests/, fuzz/, bench/; inside lib/ a file includes its own
#      folder and those below it only
#   4. the call graph (nm of the built objects: who defines what another file
#      uses) has no circle between two files, and no call runs up a layer
#   5. no file under lib/ is over 700 lines
#   6. every lib/ object exports only roce_<file>_* (or roce_<file>) symbols;
#      the EXCEPTIONS below say why not
# Run it directly (bash tests/e2e/layout.sh) after adding a lib/ file: it
# names the file, the include, the call or the symbol.  TAP output.
set -u
top_srcdir=$(cd "${top_srcdir:-$(dirname "$0")/../..}" && pwd)
top_builddir=${top_builddir:-$top_srcdir/build}
. "$top_srcdir/tests/lib/tap.sh"
cd "$top_srcdir" || exit 1

# ---------------------------------------------------------------- layers
# README's Layout block lists lib/'s folders, one a line, low to high:
#     lib/base/      ...
LAYERS=($(sed -n '/^## Layout/,/^## /s|^    \(lib/[a-z_/]*\)/\( .*\)\{0,1\}$|\1|p' README.md))
folders=$(find lib -name '*.c' -o -name '*.h' | sed 's|/[^/]*$||' | sort -u)
missing=""
for f in $folders; do
	case " ${LAYERS[*]} " in *" $f "*) ;; *) missing+="$f is not in README's Layout (add it where it belongs among the layers)"$'\n' ;; esac
done
for f in lib/*.[ch]; do
	[ -e "$f" ] && missing+="$f is in no folder: lib/'s files live in its layer folders"$'\n'
done
is "$missing" "" "lib/'s folders are the layers README's Layout lists (${LAYERS[*]#lib/})"

# rank FILE-OR-MODULE: a lib/ file's layer index; 100 spank/, prolog/; 200 the rest
rank() {
	local d=${1%/*} i
	case $1 in
	lib/*)
		for i in "${!LAYERS[@]}"; do [ "${LAYERS[$i]}" = "$d" ] && { echo "$i"; return; }; done
		echo 99 ;;
	spank/* | prolog/*) echo 100 ;;
	*) echo 200 ;;
	esac
}
# up FROM TO: why FROM may not use TO, or nothing
up() {
	local rf rt
	case $1:$2 in
	spank/*:prolog/* | prolog/*:spank/*) echo "the adapters share only lib/"; return ;;
	esac
	rf=$(rank "$1"); rt=$(rank "$2")
	[ "$rt" -le "$rf" ] && return
	if [ "$rt" -ge 100 ]; then echo "a higher directory"; else echo "${2%/*} is above ${1%/*}"; fi
}

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

bad=""
while read -r from to; do
	[ -n "$from" ] || continue
	why=$(up "$from" "$to")
	[ -z "$why" ] || bad+="$from includes $to ($why)"$'\n'
done <<<"$E"
is "$bad" "" "no include runs up a layer (lib/ by README's folders, then spank/ and prolog/, then tests/)"

# ---------------------------------------------------------------- calls
# The product's objects: lib/'s (libroce), the plugin's and the programs'.
# An object's source is its directory plus its name after the target prefix
# (lib/base/.libs/libroce_la-model.o is lib/base/model.c).
objs=$(cd "$top_builddir" 2>/dev/null &&
	find lib spank prolog -name '*.o' 2>/dev/null | grep -v '/libroce_plugin_la-' | sort)
if [ -z "$objs" ] || ! command -v nm >/dev/null; then
	for _ in 1 2 3; do skip "the product's objects are not built in $top_builddir (or no nm)"; done
else
	src_of() { local o=${1%.o} d; d=${o%/*}; d=${d%/.libs}; o=${o##*/}; echo "$d/${o#*-}"; }
	# "DEF symbol file" and "USE symbol file" lines, then the file pairs
	calls=$(for o in $objs; do
		s=$(src_of "$o")
		nm "$top_builddir/$o" | awk -v s="$s" '$1 == "U" { print "USE", $2, s } $2 ~ /^[TDBRV]$/ { print "DEF", $3, s }'
	done | awk '$1 == "DEF" { def[$2] = def[$2] " " $3; next }
	            { use[NR] = $2 " " $3 }
	            END { for (i in use) { split(use[i], u, " "); n = split(def[u[1]], d, " ")
	                  for (j = 1; j <= n; j++) if (d[j] != u[2]) print u[2], d[j], u[1] } }' | sort -u)
	pairs=$(printf '%s\n' "$calls" | awk 'NF { print $1, $2 }' | sort -u)
	loops=$(printf '%s\n' "$pairs" | tsort 2>&1 >/dev/null | sed 's/^tsort: //')
	is "$loops" "" "no circle of calls between files ($(printf '%s\n' "$pairs" | grep -c .) file pairs, from nm)"
	bad=""
	while read -r from to sym; do
		[ -n "$from" ] || continue
		# the plugin and roce-report each link their own copy of lib/base/slurmnodes.c
		why=$(up "$from" "$to")
		[ -z "$why" ] || bad+="$from calls $sym of $to ($why)"$'\n'
	done <<<"$calls"
	is "$bad" "" "no call runs up a layer"
	# a pair calling each other through two different symbols is a circle tsort already
	# names; this one says which symbols
	both=$(printf '%s\n' "$pairs" | awk '{ p[$1 " " $2] = 1 } END { for (k in p) { split(k, a, " "); if ((a[2] " " a[1]) in p && a[1] < a[2]) print a[1], "<->", a[2] } }')
	is "$both" "" "no two files call each other"
fi

# ---------------------------------------------------------------- size
big=$(find lib -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 700 { print $2 " has " $1 " lines" }')
is "$big" "" "no file under lib/ is over 700 lines (largest: $(find lib -name '*.[ch]' -exec wc -l {} + | grep -v ' total$' | sort -n | tail -1 | awk '{ print $2, $1 }'))"

# ---------------------------------------------------------------- prefixes
# file:prefix:why - exported prefixes a lib/ file may have besides its own.
EXCEPTIONS=(
	"model:roce_(node|device|port|gid|netdev|reading|status|link_layer|devices|ib_mtu|fnv1a)_?:the model's types, each with its pure predicates (issue 10: they live with the model)"
	"policy:roce_(gdr_level|mode|token|action)_:the policy's value types (GdrLevel, Mode, a token of roce.conf, warn|fail|ignore), parsed and named with it"
	"jsonin:roce_jin_:short for \"JSON in\", the strict reader's prefix (style.md, example 4)"
	"hwlocdl:hwloc_:libhwloc's own functions, forwarded to the library loaded on first use (not linked: its start-up cost)"
	"verbsdl:ibv_:libibverbs' own functions, forwarded to the library loaded on first use (not linked: its start-up cost)"
)
libobjs=$(find "$top_builddir/lib" -name 'libroce_la-*.o' 2>/dev/null | sort)
if [ -z "$libobjs" ] || ! command -v nm >/dev/null; then
	for _ in 1 2; do skip "lib/'s objects not built in $top_builddir (or no nm)"; done
else
	wrong=""
	for o in $libobjs; do
		file=${o##*/libroce_la-}; file=${file%.o}
		dir=${o#$top_builddir/}; dir=${dir%/.libs/*}
		allowed="^roce_${file}(_|\$)|^roce_${file%s}_"
		for x in "${EXCEPTIONS[@]}"; do
			[ "${x%%:*}" = "$file" ] || continue
			x=${x#*:}; allowed+="|^${x%%:*}"
		done
		# (the sanitizers' own symbols, __odr_asan.* and __asan_*, are not ours)
		bad=$(nm -g --defined-only "$o" | awk '{ print $3 }' | grep -vE '^__(odr_)?asan' | grep -vE "$allowed")
		[ -z "$bad" ] || wrong+="$dir/$file.c exports $(echo $bad)"$'\n'
		[ -f "$dir/$file.c" ] || wrong+="$o has no $dir/$file.c"$'\n'
	done
	is "$wrong" "" "each lib/ file exports only its own prefix (nm over $(echo "$libobjs" | wc -l) objects; ${#EXCEPTIONS[@]} agreed exceptions)"
	# an exception nobody needs any more is removed
	stale=""
	for x in "${EXCEPTIONS[@]}"; do
		file=${x%%:*}; p=${x#*:}; p=${p%%:*}
		o=$(find "$top_builddir/lib" -name "libroce_la-$file.o" | head -1)
		nm -g --defined-only "$o" 2>/dev/null | awk '{ print $3 }' | grep -qE "^$p" || stale+="$file:$p "
	done
	is "$stale" "" "every agreed exception is still needed"
fi
done_testing
