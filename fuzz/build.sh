#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# build.sh - build the libFuzzer targets and their seed corpus (what `make fuzz` runs).
#
#   fuzz/build.sh SRCDIR BUILDDIR
#
# The library sources are compiled again with clang, coverage-instrumented,
# under ASan and UBSan, into BUILDDIR/fuzz/obj; each target links them with
# libFuzzer into BUILDDIR/fuzz/<target>.  The seed corpus is written to
# BUILDDIR/fuzz/seeds/<target>/.  FUZZ_CC overrides the compiler (default
# clang).  Exit 77 when the compiler cannot build a libFuzzer target (no
# clang, or no libclang-rt-*-dev), 1 on a real build failure.
set -eu
src=$(cd "$1" && pwd)
bld=$(cd "$2" && pwd)
CC=${FUZZ_CC:-clang}
TARGETS="policy_conf policy_kv hostmatch option sysfs_value sysfs_read netlink_link netlink_dcb netlink_transport gpu_set snapshot fragment nodehealth live fingerprint pcicap probewire"
out=$bld/fuzz
mkdir -p "$out/obj"

SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
PKGS="libmnl json-c hwloc libibverbs"
CFLAGS="-g -O1 $SAN -Wall -Wextra -Wno-unused-parameter -I$src/lib -I$src/fuzz -I$src/tests/lib -I$bld \
-DSYSCONFDIR=\"/etc\" -DLOCALSTATEDIR=\"/var\" $(pkg-config --cflags $PKGS)"
LIBS="$(pkg-config --libs $PKGS)"

# Can this compiler link a libFuzzer target at all?
probe=$out/obj/probe
printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$probe.c"
if ! $CC -fsanitize=fuzzer,address,undefined "$probe.c" -o "$probe" >"$probe.log" 2>&1; then
	echo "fuzz: $CC cannot build libFuzzer targets (apt-get install clang libclang-rt-dev):" >&2
	sed 's/^/  /' "$probe.log" >&2
	exit 77
fi

# compile SRC OBJ EXTRA-FLAGS: only when the source or any header is newer.
newest_header=$(ls -t $(find "$src/lib" -name "*.h") "$src"/fuzz/*.h "$src"/tests/lib/*.h "$bld/config.h" | head -1)
compile() {
	if [ ! -f "$2" ] || [ "$1" -nt "$2" ] || [ "$newest_header" -nt "$2" ]; then
		echo "  CC-FUZZ  ${1#$src/}"
		# shellcheck disable=SC2086
		$CC $CFLAGS $3 -c "$1" -o "$2"
	fi
}

libobjs=""
# The library's sources as Makefile.am lists them (not files in progress;
# not tests/lib/).
# not lib/base/slurmnodes.c either: it is libslurm's hostlist, outside libroce.
for c in $(grep -oE '(^|[^/[:alnum:]_])lib/[A-Za-z0-9_/]+\.c' "$src/Makefile.am" | sed 's|.*lib/|lib/|' |
	grep -vx 'lib/base/slurmnodes.c' | sort -u); do
	c=$src/$c
	o=$out/obj/lib_$(basename "$c" .c).o
	compile "$c" "$o" "-fsanitize=fuzzer-no-link"
	libobjs="$libobjs $o"
done

# The netlink message builder of the unit tests (netlink targets and seeds).
compile "$src/tests/lib/nlreply.c" "$out/obj/nlreply.o" "-fsanitize=fuzzer-no-link"
libobjs="$libobjs $out/obj/nlreply.o"

for t in $TARGETS; do
	compile "$src/fuzz/$t.c" "$out/obj/fuzz_$t.o" "-fsanitize=fuzzer-no-link"
	# shellcheck disable=SC2086
	$CC $SAN -fsanitize=fuzzer "$out/obj/fuzz_$t.o" $libobjs $LIBS -o "$out/$t"
done

# The seed generator runs the library's own writers: no fuzzer main.
compile "$src/fuzz/seeds.c" "$out/obj/seeds.o" ""
# shellcheck disable=SC2086
$CC $SAN -fsanitize=fuzzer-no-link "$out/obj/seeds.o" $libobjs $LIBS -o "$out/seeds"
rm -rf "$out/seeds.d"
ASAN_OPTIONS=detect_leaks=1 "$out/seeds" "$out/seeds.d"
mkdir -p "$out/seeds.d/policy_conf"
cp "$src/etc/roce.conf" "$out/seeds.d/policy_conf/roce.conf"
printf 'GidIndex=auto Mtu=4200 # two keys on a line\nHca=mlx5_0,mlx5_1\r\nMode=strict\n' >"$out/seeds.d/policy_conf/inline"
printf 'LinkRate=auto\nNodeName=gpu-b[01-32],edge*  LinkRate=none\nNodeName=ALL\n' >"$out/seeds.d/policy_conf/sections"
mkdir -p "$out/seeds.d/hostmatch"
printf 'node[01-64,100],gpu-a*\000node17' >"$out/seeds.d/hostmatch/ranges"
printf 'rack[1-2]-n?[001-1000]\000rack2-nx999' >"$out/seeds.d/hostmatch/two"
echo "fuzz: targets in $out: $TARGETS"
