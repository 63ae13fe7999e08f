#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What a Slurm upgrade without a rebuilt plugin does, in a real one-node
# Slurm of this release (README "Upgrading Slurm"): a copy of the built
# spank_roce.so whose plugin_version names another release (this one's
# major + 2, as an old build looks to a new Slurm) stands in for the plugin
# built before the upgrade.
#  - optional: every client says "Incompatible plugin version", plain jobs
#    run (without the plugin), --roce is refused at submission;
#  - required: the clients refuse to run anything, and slurmd does not start;
#  - roce-check warns when the installed Slurm is another release, and is
#    quiet with this one.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
check_diag() { echo "rc=$RC"; }
RC=

spank_need_lab
command -v readelf >/dev/null || skip_all "readelf not installed"
spank_workdir slurm-upgrade
plan 9

# The copy, with plugin_version (SLURM_VERSION_NUMBER at build time, 4 bytes,
# little endian) set to another release: its file offset is the symbol's
# address minus its section's address plus that section's offset.
OLD=$W/spank_roce.so
cp "$plugin" "$OLD"
read -r addr ndx <<<"$(readelf -sW "$OLD" | awk '$8 == "plugin_version" {print $2, $7; exit}')"
read -r saddr soff <<<"$(readelf -SW "$OLD" | sed 's/\[ */[/' | awk -v n="[$ndx]" '$1 == n {print $4, $5; exit}')"
off=$(( 0x$addr - 0x$saddr + 0x$soff ))
v=$(od -An -tu4 -j "$off" -N4 "$OLD" | tr -d ' ')
major=$(( (v >> 16) & 255 )) minor=$(( (v >> 8) & 255 ))
other=$(( major + 2 ))
printf "$(printf '\\x%02x\\x%02x\\x%02x\\x00' 0 "$minor" "$other")" | dd of="$OLD" bs=1 seek="$off" conv=notrunc 2>/dev/null
nv=$(od -An -tu4 -j "$off" -N4 "$OLD" | tr -d ' ')
if [ "$(( (nv >> 16) & 255 ))" = "$other" ] && [ "$(( (nv >> 8) & 255 ))" = "$minor" ]; then
	pass "a copy of the plugin claims Slurm $other.$(printf %02d "$minor") (this is $major.$(printf %02d "$minor"))"
else
	fail "a copy of the plugin claims another release" "plugin_version $v -> $nv at offset $off"
fi

FAB=$W/fab; mkdir -p "$FAB"
fab_example "$FAB" 2
printf 'PfcPriority=none\nReportDir=%s/reports\nStateDir=%s/state\n' "$W" "$W" >"$W/roce.conf"
spank_lab_init
lab_node node1 "$FAB" eth0=9000 eth1=9000
lab_plugstack "optional $OLD config=$W/roce.conf"
lab_start || { lab_logs >&2; echo "Bail out! cluster did not start"; exit 1; }

# --- optional
run srun sh -c 'echo "TASK_RAN ${NCCL_IB_HCA:-none}"'
check "optional: a plain step runs, without the plugin's variables" '[ $RC = 0 ] && grep -qx "TASK_RAN none" $W/out'
check "optional: and the client says the plugin is of another release" 'grep -q "Incompatible.*plugin" $W/err'
run srun --roce sh -c 'echo TASK_RAN'
check "optional: srun --roce is refused: unrecognized option" \
	'[ $RC != 0 ] && ! grep -q TASK_RAN $W/out && grep -q "unrecognized option.*roce" $W/err'
run sbatch --roce --wrap true
check "optional: sbatch --roce is refused at submission" '[ $RC != 0 ] && grep -q "unrecognized option.*roce" $W/err'

# --- required
lab_plugstack "required $OLD config=$W/roce.conf"
run srun sh -c 'echo TASK_RAN'
check "required: the client refuses every step" '[ $RC != 0 ] && ! grep -q TASK_RAN $W/out'
lab_kill_pidfile "$LAB/run/slurmd.node1.pid"
rm -f "$LAB/run/slurmd.node1.pid"
lab_start_slurmd node1 >/dev/null 2>&1
slurmd_said() { grep -q "Incompatible" "$LAB/log/slurmd.node1.log" "$LAB/log/start.node1.log" 2>/dev/null; }
lab_poll 30 slurmd_said
sleep 1
check "required: slurmd does not start, saying why" \
	'slurmd_said && ! { [ -s $LAB/run/slurmd.node1.pid ] && kill -0 "$(cat $LAB/run/slurmd.node1.pid)" 2>/dev/null; }'

# --- roce-check says so (the real slurmd -V; a stand-in for another release)
out=$("$top_builddir/prolog/roce-check" --sysfs-root "$FAB" --config "$W/roce.conf" 2>&1 >/dev/null)
check "roce-check: quiet with the Slurm it was built for" '! grep -q "built for Slurm" <<<"$out"'
mkdir -p "$W/bin"
printf '#!/bin/sh\necho "slurm %s.%02d.1"\n' "$other" "$minor" >"$W/bin/slurmd"
chmod 755 "$W/bin/slurmd"
out=$(PATH="$W/bin:$PATH" "$top_builddir/prolog/roce-check" --sysfs-root "$FAB" --config "$W/roce.conf" 2>&1 >/dev/null)
want="built for Slurm $major.$(printf %02d "$minor") but this node runs Slurm $other.$(printf %02d "$minor").1"
check "roce-check: another installed release is named, with the fix" \
	'grep -qF "$want" <<<"$out" && grep -q "rebuild and reinstall slurm-roce for $other" <<<"$out"'
done_testing
