#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The configuration as shipped and as roce-check judges it (issue 32), on
# real files: the examples in etc/ pass roce-check --check-config and say
# what the code does (PrologFlags=Alloc, optional vs strict, the new keys);
# the health check's plugstack finding over a slurm.conf, a plugstack.conf
# and its include directory laid out as Debian's; the release's version and
# NEWS agree; the docs the trial found wrong stay right.  Needs no root.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
CHECK=$top_builddir/prolog/roce-check
S=$top_srcdir
T=$(mktemp -d "${TMPDIR:-/tmp}/roce-check-config.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

# A node's Slurm configuration as Debian lays it out: slurm.conf, plugstack.conf
# including plugstack.conf.d/*.conf, and (unless told otherwise) the shipped file there.
layout() { # layout DIR [EXAMPLE-FILE]
	mkdir -p "$1/plugstack.conf.d"
	printf 'ClusterName=lab\nPlugStackConfig=%s/plugstack.conf\n' "$1" >"$1/slurm.conf"
	printf 'include plugstack.conf.d/*.conf\n' >"$1/plugstack.conf"
	[ -z "${2:-}" ] || cp "$2" "$1/plugstack.conf.d/roce.conf"
}

# --- the shipped examples
layout "$T/deb" "$S/etc/plugstack.conf.d/roce.conf"
out=$(SLURM_CONF=$T/deb/slurm.conf "$CHECK" --check-config "$S/etc/roce.conf" 2>&1); rc=$?
is "$rc" 0 "etc/roce.conf and etc/plugstack.conf.d/roce.conf pass --check-config"
like "$out" "plugstack.conf.d/roce.conf:[0-9]+: the plugin's words: OK \(default=off, 0 roce.conf key\(s\)\)" \
	"--check-config finds the shipped line through slurm.conf and the include, as slurmd does"
# the keys 0.1.0 had; every later one is shown in the example
old="GidIndex AddrFamily Mtu PfcPriority PfcUnknown TrafficClass Hca GdrLevel Mode RequireGdr Drain TimeoutMs TopologyFile TopologyCache ReportDir StateDir SysfsRoot"
keys=$(sed -n 's/^[[:space:]]*{ "\([A-Za-z]*\)", set_.*/\1/p' "$S/lib/read/policy.c")
missing=""
for k in $keys; do
	case " $old " in *" $k "*) continue ;; esac
	grep -qE "^#?$k=" "$S/etc/roce.conf" || missing+=" $k"
done
is "$missing" "" "etc/roce.conf shows every key added since 0.1.0"
like "$(cat "$S/etc/roce.conf")" "^#?NodeName=" "etc/roce.conf shows a NodeName= section"
unlike "$(cat "$S/etc/plugstack.conf.d/roce.conf")" "either way" \
	"the plugstack example no longer says strict fails steps 'either way'"
like "$(cat "$S/etc/plugstack.conf.d/roce.conf")" "runs UNCHECKED, --roce=strict ones" \
	"the plugstack example says a node without the plugin runs strict steps unchecked"
like "$(cat "$S/etc/slurm.conf.example")" "^PrologFlags=Alloc$" \
	"slurm.conf.example sets PrologFlags=Alloc, as README says SharedDir needs"
like "$(sed -n '/^## Configure/,/^### roce.conf/p' "$S/README.md" | tr '\n' ' ')" "PrologFlags=Alloc.*SharedDir|SharedDir.*PrologFlags=Alloc" \
	"README's Configure ties PrologFlags=Alloc to SharedDir"

# --- the health check's plugstack finding (never a drain, never the exit status)
R=$T/sys; mkdir -p "$R"; fab_example "$R" 2
health() { # health SLURM_CONF ARGS...: out, rc
	local conf=$1; shift
	out=$(SLURM_CONF=$conf "$CHECK" --config /dev/null --sysfs-root "$R" "$@" 2>&1); rc=$?
}
health "$T/deb/slurm.conf" --health
base_rc=$rc
unlike "$out" "plugstack" "the shipped line loaded: no plugstack finding"
layout "$T/none"
health "$T/none/slurm.conf" --health
like "$out" "^WARN +plugstack +node +no line of $T/none/plugstack.conf or the files it includes loads spank_roce.so: steps on this node run unchecked, --roce=strict ones too" \
	"no plugstack line on this node: a WARN plugstack finding"
is "$rc" "$base_rc" "the finding leaves --health's exit status alone"
layout "$T/commented" "$S/etc/plugstack.conf.d/roce.conf"
sed -i 's/^optional/#optional/' "$T/commented/plugstack.conf.d/roce.conf"
health "$T/commented/slurm.conf" --health
like "$out" "WARN +plugstack .*\($T/commented/plugstack.conf.d/roce.conf:[0-9]+ is commented out\)" \
	"a commented-out line: named with its file and line"
layout "$T/gone"
echo "required /nonexistent/lib/slurm/spank_roce.so" >"$T/gone/plugstack.conf.d/roce.conf"
health "$T/gone/slurm.conf" --health
like "$out" "WARN +plugstack .*roce.conf:1 names /nonexistent/lib/slurm/spank_roce.so, which does not exist" \
	"a line naming a .so that is not there: said"
health "$T/nowhere/slurm.conf" --health
like "$out" "^UNKNOWN +plugstack +node +cannot tell whether slurmd loads spank_roce.so: .*nowhere/slurm.conf" \
	"no slurm.conf to read: unknown, said"
health "$T/none/slurm.conf"
unlike "$out" "plugstack" "plain roce-check (not a health check): no plugstack finding"

# --- the health check's directory findings (issue 32, item 7): a SharedDir,
# ReportDir or StateDir the prolog and epilog refuse is seen on the node,
# not only per job in slurmd's log; never a drain, never the exit status
D=$T/dirs
mkdir -p "$D/shared" "$D/rep" "$D/state"
chmod 777 "$D/shared"      # a SharedDir left open for anyone
chown 65534 "$D/rep"       # as root_squash makes root's mkdir on NFS
chmod 700 "$D/state"
printf 'StateDir=%s/state\nReportDir=%s/rep\nSharedDir=%s/shared\n' "$D" "$D" "$D" >"$D/roce.conf"
dirs_health() { out=$(SLURM_CONF=$T/deb/slurm.conf "$CHECK" --config "$D/roce.conf" --sysfs-root "$R" "$@" 2>&1); rc=$?; }
dirs_health --health
like "$out" "^WARN +dirs +node +ReportDir $D/rep: .*owned by uid 65534, not root: refused by the prolog and epilog: no job on this node gets its report" \
	"a ReportDir owned by nobody (root_squash): a WARN dirs finding naming it and what it breaks"
like "$out" "^WARN +dirs +node +SharedDir $D/shared: .*writable by group or others \(mode 777\).*unknown to srun" \
	"a SharedDir of mode 777: a WARN dirs finding"
unlike "$out" "StateDir" "a usable StateDir: no finding"
is "$rc" "$base_rc" "the directory findings leave --health's exit status alone"
dirs_health
unlike "$out" "dirs" "plain roce-check (not a health check): no directory finding"
chmod 711 "$D/shared"; chown 0 "$D/rep"; rmdir "$D/state"
dirs_health --health
unlike "$out" "dirs" "usable directories, and a StateDir the first job will make: no finding"
out=$(SLURM_CONF=$T/none/slurm.conf "$CHECK" --check-config "$S/etc/roce.conf" 2>&1); rc=$?
is "$rc" 0 "--check-config without the plugin's line: a warning, the file still judged"
like "$out" "warning: no line of $T/none/plugstack.conf" "--check-config warns of the missing line"
out=$("$CHECK" --check-config "$S/etc/roce.conf" --plugstack "$T/none/nonexistent.conf" 2>&1); rc=$?
is "$rc" 2 "--plugstack naming a file that is not there: an error"

# --- the release: one version everywhere, NEWS says what changes on upgrade
v=$(sed -n 's/^AC_INIT(\[slurm-roce\], \[\([0-9.]*\)\].*/\1/p' "$S/configure.ac")
is "$(sed -n 's/^Version: *//p' "$S/slurm-roce.spec")" "$v" "the spec's Version is configure.ac's ($v)"
like "$(head -1 "$S/debian/changelog")" "^slurm-roce \($v-1\) " "debian/changelog's top entry is $v"
like "$(sed -n '3p' "$S/NEWS")" "^$v " "NEWS starts with $v"
like "$(cat "$S/NEWS")" "^Behaviour changes on upgrade" "NEWS has 'Behaviour changes on upgrade'"
like "$(cat "$S/NEWS")" "released at .warn. first" "NEWS states that new failing checks are released at warn first"
like "$(cat "$S/README.md")" "released at .warn.$" "README states it too"
like "$(grep -h '' "$S"/man/*.[0-9] | grep '^\.TH')" "slurm-roce $v\"" "the man pages name $v"
unlike "$(grep -h '^\.TH' "$S"/man/*.[0-9])" "slurm-roce 0\.1\.0" "no man page names 0.1.0"

# --- package descriptions and docs the trial found wrong
like "$(cat "$S/debian/control")" "HTML page" "debian/control's description names the HTML report"
like "$(cat "$S/debian/control")" "\-\-nodes" "debian/control's description names --nodes"
like "$(sed -n '/^%description/,/^%prep/p' "$S/slurm-roce.spec")" "HTML page" "the spec's description names the HTML report"
like "$(sed -n '/^%description/,/^%prep/p' "$S/slurm-roce.spec")" "\-\-nodes" "the spec's description names --nodes"
unlike "$(sed -n '/^## Uninstall/,/^## /p' "$S/README.md" | tr '\n' ' ')" "makes every srun, +sbatch and salloc fail" \
	"README's Uninstall does not say an optional dangling line fails every srun"
unlike "$(cat "$S/debian/postrm" "$S/slurm-roce.spec")" "breaks every srun|or every srun, sbatch and salloc fails" \
	"postrm and %postun do not say so either"
unlike "$(cat "$S/man/roce-prolog.8")" "never removed" "roce-prolog(8) no longer says fragments are never removed"
like "$(cat "$S/man/roce-prolog.8")" "tmpfiles" "roce-prolog(8) names the tmpfiles.d expiry"
hc=$(tr '\n' ' ' <"$S/man/roce-healthcheck.8")
ok "roce-healthcheck(8) names the link-rate, PCIe and ACS drains" \
	sh -c 'grep -q "at 25 Gb/s" "$1" && grep -q "pcie_link" "$1" && grep -q "mlx5_2 acs" "$1"' _ "$S/man/roce-healthcheck.8"
like "$hc" "plugstack" "roce-healthcheck(8) names the plugstack finding"
done_testing
