#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What install and uninstall leave behind, on a scratch root: debian/postrm
# (remove warns about a plugstack line that still loads the plugin; purge
# removes the default StateDir, TopologyCache and ReportDir, nothing else)
# and the tmpfiles.d entry that expires old reports (run by the real
# systemd-tmpfiles with --root).
set -u
. "$top_srcdir/tests/lib/tap.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
POSTRM="$top_srcdir/debian/postrm"
TMPFILES="$top_builddir/etc/slurm-roce.conf"

# root: a scratch root with the package's data at the default paths
root() {
	rm -rf "$T/root"; R=$T/root
	mkdir -p "$R/run/slurm-roce" "$R/var/cache/slurm-roce" "$R/var/spool/slurm-roce/reports/77" \
		"$R/etc/slurm/plugstack.conf.d" "$R/srv/reports/78"
	echo '{}' >"$R/var/spool/slurm-roce/reports/77/node1.json"
	echo '{}' >"$R/srv/reports/78/node1.json"
	echo 'include /etc/slurm/plugstack.conf.d/*.conf' >"$R/etc/slurm/plugstack.conf"
}

root
echo 'optional spank_roce.so default=off' >"$R/etc/slurm/plugstack.conf.d/roce.conf"
out=$(DPKG_ROOT=$R sh "$POSTRM" remove 2>&1); rc=$?
is "$rc" 0 "postrm remove exits 0"
like "$out" "plugstack.conf.d/roce.conf still load\\(s\\) spank_roce.so: remove that line" "postrm remove: names the plugstack file that still loads the plugin"
is "$(ls "$R/var/spool/slurm-roce/reports/77")" node1.json "postrm remove keeps the reports"

rm "$R/etc/slurm/plugstack.conf.d/roce.conf"
echo '# optional spank_roce.so (commented out)' >"$R/etc/slurm/plugstack.conf.d/other.conf"
out=$(DPKG_ROOT=$R sh "$POSTRM" purge 2>&1); rc=$?
is "$rc" 0 "postrm purge exits 0"
is "$out" "" "postrm purge: no warning once the plugstack line is gone (a comment does not count)"
is "$([ ! -e "$R/run/slurm-roce" ] && [ ! -e "$R/var/cache/slurm-roce" ] && [ ! -e "$R/var/spool/slurm-roce" ]; echo $?)" 0 \
	"postrm purge removes the default StateDir, TopologyCache and ReportDir"
is "$(echo $(ls "$R/srv/reports/78") $(ls "$R/etc/slurm"))" "node1.json plugstack.conf plugstack.conf.d" \
	"postrm purge leaves a ReportDir elsewhere and /etc/slurm alone"

# --- the tmpfiles.d entry: reports older than 90 days go, newer ones stay
line=$(grep -v '^#' "$TMPFILES")
like "$line" "^e /.*/spool/slurm-roce/reports - - - mM:90d$" "tmpfiles.d: ages ReportDir's contents by mtime only (e, no mode or owner)"
dir=$(echo "$line" | awk '{print $2}')
if command -v systemd-tmpfiles >/dev/null; then
	root
	mkdir -p "$R$dir/100" "$R$dir/101"
	echo '{}' >"$R$dir/100/old.json"; echo '{}' >"$R$dir/101/new.json"
	touch -d '100 days ago' "$R$dir/100/old.json" "$R$dir/100"
	chgrp 4 "$R$dir"; chmod 2750 "$R$dir"
	systemd-tmpfiles --clean --root="$R" "$TMPFILES" >/dev/null 2>&1
	is "$([ ! -e "$R$dir/100/old.json" ] && [ -e "$R$dir/101/new.json" ]; echo $?)" 0 \
		"systemd-tmpfiles --clean: a 100-day-old fragment goes, a new one stays"
	is "$(stat -c '%a %g' "$R$dir")" "2750 4" "systemd-tmpfiles --clean: ReportDir's mode and group untouched"
else
	skip "no systemd-tmpfiles"; skip "no systemd-tmpfiles"
fi
done_testing
