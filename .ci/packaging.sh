#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# .ci/packaging.sh - the release path on a clean Debian 12 machine, as root:
#   1. make distcheck: the tarball built out of tree from a read-only source
#      tree, its unit tests run, `make distclean` leaves nothing behind
#      (DISTCHECK=0: make dist only); and the tarball holds every file git
#      tracks (but .gitignore and m4/.keep), which is what the end-to-end
#      tests of the tarball would find missing.  The whole suite is not run
#      again here: CI's other stages run it (bookworm, trixie, unstable).
#   2. dpkg-buildpackage -us -uc -b from the tarball (as a user would)
#   3. install the .deb; check that every file is where Slurm and man look,
#      that the plugin's Slurm symbols exist in this Slurm's libslurmfull and
#      that the package depends on this Slurm's major.minor
#   4. every installed man page renders without a warning (man, mandoc -Tlint,
#      lexgrog); lintian has no error; the RPM spec parses and `rpmbuild -ta
#      --nodeps` packages exactly what make install installs (if rpm exists)
#   5. E2E=1 (default): end-to-end tests against the INSTALLED files
#      (roce-check, roce-prolog, roce-epilog, roce-report, spank_roce.so),
#      through a builddir-shaped tree of symlinks; test helpers (tests/helpers/:
#      nlprobe, faultprobe, the LD_PRELOAD shims) come from the dist build.
#      INSTALLED_E2E (default below) names the scripts: those where an
#      installed file behaves differently from the build tree's (the plugin
#      loaded by slurmd from PluginDir, the programs Slurm runs as prolog and
#      epilog, the packaged scripts, man pages); INSTALLED_E2E=all runs every one.
#   RPMBUILD=0: parse the spec (rpmspec) but do not build the RPM
# (.ci/release runs this with DISTCHECK=0 E2E=0 RPMBUILD=0 and
# DEB_BUILD_OPTIONS=nocheck: its scripts/test already built and tested the tree.)
# TAP on stdout ("ok N - ..."), then "N passed, N failed, N skipped".
# KEEP=1 leaves the package installed (default: purge it at the end).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
pkg=slurm-roce
n=0 passed=0 failed=0 skipped=0

ok() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }
skip() { n=$((n + 1)); skipped=$((skipped + 1)); echo "ok $n # SKIP $1"; }
# check NAME CMD...: ok when CMD succeeds; its output is shown when it fails.
check() {
	name=$1; shift
	if out=$("$@" 2>&1); then ok "$name"; else not_ok "$name" "$out"; fi
}
finish() {
	if [ "${KEEP:-0}" != 1 ] && dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed"; then
		apt-get purge -y -q "$pkg" >/dev/null 2>&1 || echo "# could not purge $pkg" >&2
	fi
	rm -rf "$work"
	echo "1..$n"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" = 0 ]
	exit $?
}
die() { not_ok "$1" "${2:-}"; finish; }

[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP needs root (installs a package)"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
command -v dpkg >/dev/null || { echo "1..0 # SKIP not a Debian system"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
work=$(mktemp -d "${TMPDIR:-/tmp}/slurm-roce-pkg.XXXXXX")
# 0755: jobs of unprivileged users (trust.sh) run srun, which loads the plugin
# named in plugstack.conf through the builddir-shaped tree of links in here.
chmod 755 "$work"

# ---------------------------------------------------------------- 0. tools
"$top/scripts/deps" >/dev/null || die "scripts/deps"
tools="debhelper fakeroot mandoc lintian man-db rpm"
missing=""
for p in $tools; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	export DEBIAN_FRONTEND=noninteractive
	{ apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } >"$work/apt.log" 2>&1 ||
		die "install packaging tools:$missing" "$(tail -5 "$work/apt.log")"
fi

# ---------------------------------------------------------------- 1. tarball
cd "$top" || die "cd $top"
# A name both in EXTRA_DIST and .PHONY is a prerequisite of distdir that
# always runs: `make dist` would run the benchmarks or build the fuzzers.
phony=$(sed -n 's/^\.PHONY:[[:space:]]*//p' Makefile.am | tr ' ' '\n')
clash=$(sed -n 's/^EXTRA_DIST[[:space:]]*+\{0,1\}=[[:space:]]*//p' Makefile.am | tr ' ' '\n' |
	grep -Fx "$(printf '%s\n' "$phony" | grep .)" || true)
[ -z "$clash" ] || die "EXTRA_DIST names no .PHONY target" \
	"$(echo $clash) would run on make dist: list the directory's files instead, or copy it in a dist-hook"
[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] ||
	autoreconf -fi >"$work/autoreconf.log" 2>&1 || die "autoreconf" "$(tail -5 "$work/autoreconf.log")"
mkdir -p "$work/build" && cd "$work/build" || die "mkdir build"
"$top/configure" -q >"$work/configure.log" 2>&1 || die "configure" "$(tail -5 "$work/configure.log")"
# What failed in a suite run under DIR (make's LOG): the FAIL/ERROR lines and
# each failing test's "not ok" and diagnostic lines, not make's whole output
# (CI keeps only so much of it).
suite_failures() {
	grep -E '^(FAIL|ERROR|XPASS):' "$1" | head -20
	find "$2" -name '*.trs' -exec grep -lE '^:test-result: (FAIL|ERROR|XPASS)' {} + 2>/dev/null | head -5 |
		while read -r trs; do
			echo "--- ${trs%.trs}.log"
			grep -E '^(not ok|#)' "${trs%.trs}.log" | tail -40
		done
	grep -qE '^(FAIL|ERROR|XPASS):' "$1" || tail -30 "$1"
}
if [ "${DISTCHECK:-1}" = 1 ]; then
	unit=$(make -s print-unit-tests) || die "make print-unit-tests"
	if make -j2 distcheck TESTS="$unit" >"$work/distcheck.log" 2>&1; then ok "make distcheck (unit tests inside)"
	else not_ok "make distcheck (unit tests inside)" "$(suite_failures "$work/distcheck.log" "$work/build")"; fi
else
	check "make dist" make -j2 dist
fi
tarball=$(ls "$work"/build/$pkg-*.tar.gz 2>/dev/null | head -1)
[ -n "$tarball" ] || die "a release tarball exists"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	tar -tzf "$tarball" | sed 's|^[^/]*/||' | sort >"$work/tarlist"
	lost=$(git -C "$top" ls-files | grep -vxE '\.gitignore|m4/\.keep' | sort | comm -23 - "$work/tarlist")
	if [ -z "$lost" ]; then ok "the tarball holds every file git tracks"
	else not_ok "the tarball holds every file git tracks: add these to Makefile.am (EXTRA_DIST, or a DIST_DIRS directory)" "$lost"; fi
fi
# The test helpers of the e2e tests, built but not run.
if [ "${E2E:-1}" = 1 ]; then
	make -j2 check TESTS= >"$work/helpers.log" 2>&1 || die "build test helpers" "$(tail -5 "$work/helpers.log")"
fi

# ---------------------------------------------------------------- 2. .deb
mkdir -p "$work/deb" && tar -xzf "$tarball" -C "$work/deb" || die "unpack $tarball"
src=$(ls -d "$work"/deb/$pkg-*/ | head -1)
if (cd "$src" && dpkg-buildpackage -us -uc -b -j2) >"$work/dpkg-buildpackage.log" 2>&1; then
	ok "dpkg-buildpackage -us -uc -b"
else
	die "dpkg-buildpackage -us -uc -b" "$(suite_failures "$work/dpkg-buildpackage.log" "$src")"
fi
deb=$(ls "$work"/deb/${pkg}_*.deb | head -1)

# ---------------------------------------------------------------- 3. install
export DEBIAN_FRONTEND=noninteractive
check "apt-get install the .deb" apt-get install -y -q "$deb"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
plugindir=/usr/lib/$multiarch/slurm-wlm
for f in "$plugindir/spank_roce.so" /usr/sbin/roce-check /usr/sbin/roce-healthcheck /usr/sbin/roce-prolog \
         /usr/sbin/roce-epilog /usr/bin/roce-report /usr/share/man/man8/spank-roce.8.gz \
         /usr/share/man/man5/roce.conf.5.gz /usr/share/man/man8/roce-check.8.gz \
         /usr/share/man/man8/roce-healthcheck.8.gz /usr/share/man/man8/roce-prolog.8.gz \
         /usr/share/man/man8/roce-epilog.8.gz /usr/share/man/man1/roce-report.1.gz \
         /usr/share/doc/$pkg/examples/roce.conf /usr/share/doc/$pkg/examples/plugstack.conf.d/roce.conf \
         /usr/share/doc/$pkg/examples/slurm.conf.example /usr/share/doc/$pkg/examples/prometheus.md \
         /usr/share/doc/$pkg/examples/grafana-dashboard.json /usr/share/doc/$pkg/examples/prometheus-rules.yml \
         /usr/lib/tmpfiles.d/slurm-roce.conf; do
	check "installed: $f" test -f "$f"
done
check "no libtool archive in PluginDir" sh -c "! ls '$plugindir'/spank_roce.la 2>/dev/null"
check "nothing installed under /usr/local or /etc" sh -c "! dpkg -L $pkg | grep -E '^/(usr/local|etc)/'"

# The plugin exports only slurm_spank_* and plugin_* ...
exported=$(nm -D --defined-only "$plugindir/spank_roce.so" | awk '$2 ~ /[TDBR]/ {print $3}')
check "plugin exports only slurm_spank_* and plugin_*" sh -c "! printf '%s\n' '$exported' | grep -vE '^(slurm_spank_|plugin_|_init$|_fini$)'"
check "plugin exports slurm_spank_init, plugin_name, plugin_version" sh -c \
	"printf '%s\n' '$exported' | grep -qx slurm_spank_init && printf '%s\n' '$exported' | grep -qx plugin_name && printf '%s\n' '$exported' | grep -qx plugin_version"
# ... and every Slurm symbol it needs exists in the installed libslurmfull,
# which is what slurmstepd and srun resolve them from.
full=$plugindir/libslurmfull.so
need=$(nm -D --undefined-only "$plugindir/spank_roce.so" | awk '{print $2}' | sed 's/@.*//' | grep -E '^(slurm_|spank_)')
have=$(nm -D --defined-only "$full" | awk '{print $3}')
miss=$(printf '%s\n' "$need" | while read -r s; do printf '%s\n' "$have" | grep -qx "$s" || echo "$s"; done)
if [ -n "$need" ] && [ -z "$miss" ]; then ok "plugin's $(printf '%s\n' "$need" | wc -l) Slurm symbols are in libslurmfull"
else not_ok "plugin's Slurm symbols are in libslurmfull" "missing: $miss"; fi
# Depends names exactly this Slurm's major.minor.
v=$(echo SLURM_VERSION_NUMBER | cc -E -P -include slurm/slurm_version.h - | tail -n 1)
rel=$(( (v >> 16) & 255 )).$(printf %02d $(( (v >> 8) & 255 )))
deps=$(dpkg-query -W -f='${Depends}' $pkg)
check "Depends pins Slurm $rel" sh -c "printf '%s' '$deps' | grep -qF 'slurm-wlm-basic-plugins (>= $rel)' && printf '%s' '$deps' | grep -qF 'slurm-wlm-basic-plugins (<< '"
check "roce-check --version runs" /usr/sbin/roce-check --version
check "roce-report --help runs" /usr/bin/roce-report --help
check "roce-prolog --help runs" /usr/sbin/roce-prolog --help
# roce-healthcheck as slurmd runs it (no arguments but ours, no environment
# but SLURMD_NODENAME and PATH): a port down drains through scontrol.
fix=$work/hc-sys fake=$work/hc-bin
mkdir -p "$fix" "$fake"
bash -c '. "$1/tests/lib/fabric.sh" && fab_example "$2" 2 &&
         fab_port "$2" mlx5_1 1 state="1: DOWN" phys="3: Disabled" netdev=eth1' sh "$top" "$fix" ||
	not_ok "healthcheck fixture"
printf '#!/bin/sh\necho "$@" >"%s/scontrol.args"\n' "$fake" >"$fake/scontrol" && chmod +x "$fake/scontrol"
# roce-check asks sinfo first (an admin's drain reason is left alone): this
# node is idle with no reason, as slurmctld would say.
printf '#!/bin/sh\necho "idle|none"\n' >"$fake/sinfo" && chmod +x "$fake/sinfo"
env -i PATH="$fake:/usr/bin:/bin" SLURMD_NODENAME=gpu07 /usr/sbin/roce-healthcheck --config /dev/null \
	--sysfs-root "$fix" >/dev/null 2>"$work/hc.err"
if grep -qx "update NodeName=gpu07 State=DRAIN Reason=roce: mlx5_1 port 1 DOWN" "$fake/scontrol.args" 2>/dev/null; then
	ok "roce-healthcheck drains with the HCA in the reason"
else
	not_ok "roce-healthcheck drains with the HCA in the reason" "$(cat "$fake/scontrol.args" "$work/hc.err" 2>&1)"
fi

# ---------------------------------------------------------------- 4. pages, lint
for page in $(dpkg -L $pkg | grep -E '^/usr/share/man/man[0-9]/'); do
	[ -f "$page" ] || continue
	name=${page##*/}
	w=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
	if [ -z "$w" ]; then ok "man -l $name: no warnings"; else not_ok "man -l $name: no warnings" "$w"; fi
	w=$(zcat -f "$page" | mandoc -Tlint -Wwarning 2>&1)
	if [ -z "$w" ]; then ok "mandoc -Tlint $name"; else not_ok "mandoc -Tlint $name" "$w"; fi
	check "lexgrog $name (whatis entry)" lexgrog "$page"
done
check "man finds spank-roce(8) by name" man -w spank-roce
lintian --tag-display-limit 0 "$deb" >"$work/lintian.log" 2>&1
if grep -q '^E:' "$work/lintian.log"; then not_ok "lintian: no errors" "$(grep '^[EW]:' "$work/lintian.log")"
else ok "lintian: no errors ($(grep -c '^W:' "$work/lintian.log") warnings)"; fi
if command -v rpmspec >/dev/null; then
	r=$(cd "$src" && rpmspec -q --qf '%{release}\n' slurm-roce.spec 2>&1 | head -1)
	case $r in
	1.slurm$rel*) ok "slurm-roce.spec parses, Release $r names Slurm $rel" ;;
	*) not_ok "slurm-roce.spec parses, Release names Slurm $rel" "$r" ;;
	esac
else
	skip "rpmspec not installed"
fi
# The spec's %files against what make install really installs ("installed but
# unpackaged" or missing files fail the build).  --nodeps: Debian's Slurm is
# not an RPM; the unit tests already ran in the .deb build.
if [ "${RPMBUILD:-1}" != 1 ]; then
	skip "rpmbuild -ta (RPMBUILD=0)"
elif command -v rpmbuild >/dev/null; then
	if rpmbuild --define "_topdir $work/rpm" --nodeps --without tests -ta "$tarball" >"$work/rpmbuild.log" 2>&1; then
		ok "rpmbuild -ta: $(cd "$work/rpm/RPMS" && ls */*.rpm | sed 's|.*/||')"
	else
		not_ok "rpmbuild -ta" "$(grep -iE 'error|unpackaged|not found' "$work/rpmbuild.log" | head -20)"
	fi
else
	skip "rpmbuild not installed"
fi

# ---------------------------------------------------------------- 5. e2e on installed files
if [ "${E2E:-1}" = 1 ]; then
	farm=$work/installed
	mkdir -p "$farm/prolog" "$farm/spank/.libs"
	for b in roce-check roce-prolog roce-epilog roce-healthcheck; do ln -s "/usr/sbin/$b" "$farm/prolog/$b"; done
	ln -s /usr/bin/roce-report "$farm/prolog/roce-report"
	mkdir -p "$farm/etc" && ln -s /usr/lib/tmpfiles.d/slurm-roce.conf "$farm/etc/slurm-roce.conf"
	ln -s "$plugindir/spank_roce.so" "$farm/spank/.libs/spank_roce.so"
	ln -s "$work/build/tests" "$farm/tests"
	e2e=${INSTALLED_E2E:-spank-1node.sh report-slurm.sh roce-check-topo.sh packaging-scripts.sh man-pages.sh}
	[ "$e2e" = all ] && e2e=$(cd "$top/tests/e2e" && ls -- *.sh)
	for name in $e2e; do
		t=$top/tests/e2e/$name
		log=$work/e2e-$name.log
		top_srcdir=$top top_builddir=$farm bash "$t" >"$log" 2>&1
		rc=$?
		# "not ok ... # TODO" is a known bug the test documents, not a failure.
		nok=$(grep -cE '^(not )?ok ' "$log"); nnot=$(grep '^not ok ' "$log" | grep -vc '# TODO')
		plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$log" | head -1)
		if grep -q '^1\.\.0' "$log"; then
			skip "installed: $name ($(sed -n 's/^1\.\.0 *# *//p' "$log" | head -1))"
		elif [ "$rc" = 0 ] && [ "$nnot" = 0 ] && [ "$nok" = "${plan:-x}" ]; then
			ok "installed: $name ($nok/$plan)"
		else
			not_ok "installed: $name (exit $rc, $nok results, $nnot not ok, plan ${plan:-none})" "$(grep -v '# TODO' "$log" | grep -A3 '^not ok' | head -40)"
		fi
	done
fi
finish
