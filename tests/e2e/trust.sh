#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Trust boundaries of the roce plugin in a real one-node Slurm
# (tests/lib/slurmlab.sh), with job reports written by its job_prolog and
# job_epilog (as root, in `slurmstepd spank prolog|epilog`):
#  - strings a user controls (job name, comment, --chdir with odd characters,
#    the job environment: SLURMD_NODENAME, SLURM_JOB_ID, SLURM_STEP_GPUS,
#    ROCE_EXPORTED, TMPDIR..., a forged option variable) never name a file
#    the plugin writes: StateDir and ReportDir hold only <jobid>.<node>.snapshot.json
#    (and the other names of lib/base/statename.h) and <jobid>/<node>.json, and nothing else appears anywhere;
#  - hostile names in sysfs (an HCA directory named with a newline, a comma,
#    an '=', a GID whose netdev has a newline) cannot smuggle a variable into
#    the job's environment, nor an element into NCCL's lists;
#  - the fragment of a real job run by an unprivileged user (lab_user_add)
#    is 0440 root:<ReportDir group> with read access for that user only.
# What report-safety.sh already shows (planted symlinks, foreign job
# directories, killed and full-disk writes, roce-report refusing other users)
# is not repeated: docs/threat-model.md maps each threat to its test.
set -u
top_srcdir=$(cd "${top_srcdir:-$(dirname "$0")/../..}" && pwd)   # no "..": paths go into roce.conf
top_builddir=$(cd "${top_builddir:-$top_srcdir/build}" && pwd)
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/slurmlab.sh"

plugin=$top_builddir/spank/.libs/spank_roce.so
B=$top_builddir/prolog
why=$(lab_can_run) || skip_all "$why"
[ -f "$plugin" ] || skip_all "$plugin not built"
command -v setpriv >/dev/null || skip_all "needs setpriv"

W=$(mktemp -d "${TMPDIR:-/tmp}/trust.XXXXXX") && chmod 755 "$W"   # munged wants o+x on its socket path
trap 'lab_stop; [ "${KEEP:-0}" = 1 ] || rm -rf "$W"' EXIT
trap 'exit 1' INT TERM
ADMIN_GID=4242

# --- the fabric: mlx5_0/eth0 and mlx5_1/eth1 healthy, plus hostile names
FAB=$W/fab
mkdir -p "$FAB"
fab_example "$FAB" 2
# HCA directory names the kernel never gives, pointing at a real device tree
for evil in $'mlx5_7\nNCCL_EVIL_A=1' 'mlx5_8,NCCL_EVIL_B=1' 'mlx5_9=NCCL_EVIL_C' ; do
	ln -s "$(readlink "$FAB/class/infiniband/mlx5_0")" "$FAB/class/infiniband/$evil"
done
# a third HCA whose RoCE v2 GIDs name a netdev with a newline in it
fab_hca "$FAB" mlx5_2 0000:61:00.0 1
fab_roce_ipv4 "$FAB" mlx5_2 1 $'eth1\nNCCL_EVIL_D=1' 192.0.2.12
fab_standard_counters "$FAB" mlx5_2 1

cat >"$W/roce.conf" <<CONF
PfcPriority=none   # veth has no DCB
Drain=no           # mlx5_2 is broken on purpose
ReportDir=$W/reports
StateDir=$W/state
TopologyCache=$W/cache/topology.xml
CONF
mkdir -p "$W/cache"
mkdir -m 751 "$W/reports"   # its group (the admins) lists it; users only search it
chgrp "$ADMIN_GID" "$W/reports"
lab_init "$W/lab" >/dev/null || { echo "Bail out! lab_init failed"; exit 1; }
# The jobs' user: submits as itself (there is no srun --uid from 24.11 on).
lab_user_add || { echo "Bail out! no test user"; exit 1; }
NOBODY=$LAB_UID
SAN=0; lab_sanitize "$plugin" && SAN=1
lab_node node1 "$FAB" eth0=9000 eth1=9000
lab_plugstack "optional $plugin default=warn config=$W/roce.conf"
lab_start || { lab_logs >&2; echo "Bail out! cluster did not start"; exit 1; }

# A working directory a user may well have: spaces, a newline, shell syntax,
# dots; writable by the job user for its output.
ODD=$W/$'odd dir;$(touch x)\n..x'
mkdir -p "$ODD" && chmod 777 "$ODD"
NAME=$'../../../PWNED\n$(touch PWNED)'
COMMENT=$'../PWNED/`touch PWNED`\nx'
# the job environment a user controls, pointed at paths (no commas: --export syntax)
HOSTILE_ENV=ALL,SLURMD_NODENAME=../../PWNED,SLURM_JOB_ID=../../PWNED,SLURM_JOB_UID=0,SLURM_STEP_GPUS=../../PWNED
HOSTILE_ENV=$HOSTILE_ENV,SLURM_JOB_GPUS=../../PWNED,CUDA_VISIBLE_DEVICES=../PWNED,TMPDIR=/PWNED,HOME=/PWNED
HOSTILE_ENV=$HOSTILE_ENV,ROCE_EXPORTED=NCCL_IB_HCA:../../PWNED,NCCL_TOPO_FILE=../PWNED
touch "$W/stamp"
log=$W/lab/log/slurmd.node1.log
# The last good copy of roce.conf (policy-HASH.conf, HASH of its path: the admin's) is node state, not a job's.
state_names() { lab_node_exec node1 ls -A "$W/state" | grep -v '^policy-[0-9a-f]\{8\}\.conf$'; }

# --- 1. an srun job of that user with an odd --chdir, name and comment; the task saves its environment
lab_run_timeout "$LAB_STEP_TIMEOUT" "${LAB_AS_USER[@]}" srun --roce=warn --chdir="$ODD" -J "$NAME" --comment="$COMMENT" \
	sh -c 'echo "JOB $SLURM_JOB_ID"; env -0 >"env0.$SLURM_JOB_ID"; env >"env.$SLURM_JOB_ID"' \
	>"$W/srun.out" 2>"$W/srun.err"
srun_job=$(awk '/^JOB / {print $2}' "$W/srun.out")
like "$srun_job" '^[0-9]+$' "srun as uid $NOBODY with an odd --chdir, job name and comment: the task ran"

# --- 2. a batch job with the same strings and the job environment pointed at
# paths (sbatch: srun would apply --export to itself); an inner step inherits
# that environment; StateDir looked at while it runs
lab_run_timeout "$LAB_STEP_TIMEOUT" "${LAB_AS_USER[@]}" sbatch --parsable --roce --chdir="$ODD" -J "$NAME" --export="$HOSTILE_ENV" \
	--comment="$COMMENT" -o "$ODD/batch.%j" --wrap 'srun sh -c "echo STEP \$SLURM_JOB_ID"; sleep 3' \
	>"$W/sbatch.out" 2>"$W/sbatch.err"
batch_job=$(cat "$W/sbatch.out")
# Its snapshot appears when its prolog ran (a slow node may start it late)
# and stays while it runs (3 s at least).  The srun job's epilog may still
# be due: its snapshot may be listed too.
running=""
batch_snapshot_listed() { running=$(state_names); grep -qx "$batch_job\.node1\.snapshot\.json" <<<"$running"; }
lab_poll 120 batch_snapshot_listed
like "$running" "^$batch_job\.node1\.snapshot\.json$" "while the batch job runs, StateDir holds its snapshot <jobid>.<node>.snapshot.json"
is "$(grep -Ev '^[0-9]+\.node1\.(snapshot\.json|ranwith\.json|shared|with\.[0-9]+)$' <<<"$running")" "" "and nothing not named by job ids"
lab_wait_job "$batch_job"
# the output file is the job's: give a slow node a moment to have written it
batch_step_ran() { grep -qx "STEP $batch_job" "$ODD/batch.$batch_job" 2>/dev/null; }
lab_poll 30 batch_step_ran
if ! grep -qx "STEP $batch_job" "$ODD/batch.$batch_job" 2>/dev/null; then
	{ echo "--- batch output"; cat "$ODD/batch.$batch_job"; echo "--- sbatch"; cat "$W/sbatch.err"
	  lab_run sacct -j "$batch_job" 2>/dev/null; lab_run scontrol show job "$batch_job" 2>/dev/null | head -5
	  tail -20 "$LAB"/log/slurmd.*.log; } 2>&1 | sed 's/^/# /'
fi
ok "batch job of uid $NOBODY ran its inner step" grep -qx "STEP $batch_job" "$ODD/batch.$batch_job"

# --- 3. a mode that got around the client's check (--export sets it in the
# job only) with a path and a newline
FORGED='roce: node1: job 999999 mode strict: ok'
lab_run_timeout "$LAB_STEP_TIMEOUT" "${LAB_AS_USER[@]}" srun --chdir=/ --export=ALL,"SLURM_ROCE=warn/../../PWNED"$'\n'"$FORGED" \
	sh -c 'echo "JOB $SLURM_JOB_ID"' >"$W/forged.out" 2>"$W/forged.err"
forged_jobs=$(awk '/^JOB / {print $2}' "$W/forged.out" | tr '\n' ' ')
like "$forged_jobs" '^[0-9]+ $' "SLURM_ROCE with a path and a newline in the job: the task runs"
like "$(cat "$W/forged.err")" 'ignoring SLURM_ROCE="warn/\.\./\.\./PWNED\\nroce: node1' "the forged mode is shown on one line, its newline escaped"
ok "no forged line in the user's output or the slurmd log" bash -c "! grep -q '^$FORGED' '$W/forged.err' '$log'"

# --- what the plugin wrote as root, once every job left the queue (epilogs done)
for j in "$srun_job" $forged_jobs; do lab_wait_job "$j"; done
state_empty() { [ -z "$(state_names)" ]; }
lab_poll 30 state_empty
is "$(state_names)" "" "StateDir is empty once the jobs are done"
want=$(printf '%s\n' "$srun_job" "$batch_job" $forged_jobs | sort -n | tr '\n' ' ')
is "$(ls -A "$W/reports" | sort -n | tr '\n' ' ')" "$want" "ReportDir holds one directory per job, named by its id only"
bad=""
for j in "$W"/reports/*; do
	[ "$(ls -A "$j")" = node1.json ] || bad="$bad ${j##*/}:[$(ls -A "$j" | tr '\n' ' ')]"
done
is "$bad" "" "each job directory holds exactly node1.json (the Slurm node name, not SLURMD_NODENAME from the job)"
is "$(ls -A "$W/cache" | grep -v '^topology\.xml$')" "" "the topology cache directory holds nothing else"
found=$(find "$W" /tmp /run /var/spool /var/cache /var/tmp -xdev -newer "$W/stamp" -name '*PWNED*' 2>/dev/null | head -5)
is "$found" "" "no file or directory named after a user string anywhere"
is "$(find "$ODD" -user 0 | grep -v "^$ODD\$")" "" "nothing root-owned in the job's working directory"

# --- the job's environment: no smuggled variable, no smuggled list element
env0=$ODD/env0.$srun_job
names=$(tr '\0' '\n' <"$env0" | grep -a -o '^[A-Za-z_][A-Za-z0-9_]*=' | tr -d = | sort -u)
unlike "$names" 'EVIL' "env -0: no variable named from sysfs content"
unlike "$(cat "$ODD/env.$srun_job")" '^NCCL_EVIL' "env (one line each): no line that looks like a smuggled variable"
val() { tr '\0' '\n' <"$env0" | grep -a "^$1=" | cut -d= -f2-; }
is "$(val NCCL_IB_HCA)" "=mlx5_0:1,mlx5_1:1" "NCCL_IB_HCA lists only the kernel-style HCA names that passed"
is "$(val NCCL_SOCKET_IFNAME)" "=eth0,eth1" "NCCL_SOCKET_IFNAME: the netdev with a newline is left out"
nl_vals=$(tr '\0' '\n' <"$env0" | grep -a -c '^NCCL_')
is "$nl_vals" 4 "exactly four NCCL_ entries (HCA, GID index, GDR level, socket ifname), none split by a newline"
# one short warning line for the node (issue 31): each port that failed
# first, then the refused entries; slurmd's log has the names, escaped
like "$(cat "$W/srun.err")" "^roce: warning: node1: netdev [a-z ]* on mlx5_2:1.*entry refused" \
	"the broken mlx5_2 is reported to the user, and that entries were refused"
is "$(grep -c 'roce:' "$W/srun.err")" 1 "one roce: line in the user's output"
like "$(grep 'entry refused' "$LAB/log/slurmd.node1.log")" 'refused \(/sys/class/infiniband/"mlx5_7\\nNCCL_EVIL_A=1": not an RDMA device name' \
	"the hostile HCA names are refused in slurmd's log, their newline escaped"
unlike "$(cat "$W/srun.err" "$LAB/log/slurmd.node1.log")" '^NCCL_EVIL' "no line of the user's output or the log starts with a smuggled name"

# --- a netdev whose (legal) Linux name holds NCCL list syntax
if ip -n "$(lab_ns_node node1)" link add 'e=X,eth0' mtu 9000 type veth peer name trustp0 mtu 9000 2>/dev/null; then
	ip -n "$(lab_ns_node node1)" link set trustp0 up
	ip -n "$(lab_ns_node node1)" link set 'e=X,eth0' up
	fab_roce_ipv4 "$FAB" mlx5_2 1 'e=X,eth0' 192.0.2.12
	out=$(lab_run_timeout "$LAB_STEP_TIMEOUT" srun --roce=warn sh -c 'echo "IFNAME=$NCCL_SOCKET_IFNAME"' 2>&1)
	# Linux allows ',' and '=' in netdev names; NCCL would read "e=X" and "eth0"
	# as two interfaces: lib/collect/rdma.c refuses such names (MALFORMED).
	echo "$out" | sed 's/^/# /'
	unlike "$out" "IFNAME=.*e=X" "a netdev named 'e=X,eth0' is not spliced into NCCL_SOCKET_IFNAME"
else
	skip "cannot create a netdev named 'e=X,eth0'"
fi

# --- who can read the fragment of the user's job
F=$W/reports/$srun_job/node1.json
st=$(stat -c '%a %u %g' "$F")
# Which outcome is right depends on the file system, not on what the plugin did:
# probe ACL support on a file of our own next to the fragment.
probe=$W/reports/.acl-probe; : >"$probe"
if command -v setfacl >/dev/null && setfacl -m "u:$NOBODY:r" "$probe" 2>/dev/null; then
	rm -f "$probe"
	is "$(stat -c '%a %u %g' "$W/reports/$srun_job")" "750 0 $ADMIN_GID" \
		"the job directory is root's and the admins', 0750: listed by them and (an ACL entry) the job's user"
	ok "the fragment has the ACL entry for the job's user" sh -c "getfacl -pn '$F' 2>/dev/null | grep -q '^user:$NOBODY:r--'"
	is "$st" "440 0 $ADMIN_GID" "fragment 0440 root:<ReportDir group>, ACL read for the job's user"
else
	rm -f "$probe"
	is "$(stat -c '%a %u %g' "$W/reports/$srun_job")" "755 0 $ADMIN_GID" \
		"the job directory is root's and the admins', 0755 (no ACLs here: its user must list it)"
	is "$st" "440 $NOBODY $ADMIN_GID" "fragment 0440 <job user>:<ReportDir group> (no ACLs here)"
	skip "no ACLs here"
fi
as() { # as UID GROUPS CMD...: run with only that uid and those groups
	local u=$1 g=$2; shift 2
	if [ -n "$g" ]; then setpriv --reuid "$u" --regid "$u" --groups "$g" -- "$@"
	else setpriv --reuid "$u" --regid "$u" --clear-groups -- "$@"; fi
}
quiet() { "$@" >/dev/null 2>&1; }
ok "the job's user reads it with roce-report" quiet as "$NOBODY" "" "$B/roce-report" "$srun_job" --report-dir "$W/reports"
ok "an admin (ReportDir group) reads it" quiet as 5000 "$ADMIN_GID" cat "$F"
out=$(setpriv --reuid 4001 --regid 4001 --clear-groups -- cat "$F" 2>&1); rc=$?
ok "another user cannot read it" sh -c "[ $rc != 0 ] && printf '%s' \"\$1\" | grep -q 'Permission denied'" _ "$out"
out=$(as "$NOBODY" "" sh -c "echo x >>'$F'" 2>&1); rc=$?
ok "the job's user cannot alter it" sh -c "[ $rc != 0 ] && printf '%s' \"\$1\" | grep -q 'Permission denied'" _ "$out"
is "$(lab_node_settled node1)" idle "the node was never drained"

if [ "$SAN" = 1 ]; then
	is "$(lab_sanitizer_reports)" "" "no ASan/UBSan reports"
else
	skip "not a sanitizer build"
fi
done_testing
