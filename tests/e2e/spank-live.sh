#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# roce-report --live on a job running in a real Slurm (started here): the
# plugin's job prolog snapshots the node, the node's health check (the real
# roce-check --health, run in the node's namespaces as slurmd runs
# HealthCheckProgram) samples the running job while the test makes traffic
# by changing the fixture's counters, and moves the GID mid-job (index 3 ->
# 4, NVIDIA/nccl issue 1333); roce-report --live, run by the job's user,
# shows the rates and flags the GID; when the job ends its epilog writes the
# report and removes the live file.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
check_diag() {
	echo "queue: $(lab_run squeue -h -o '%i %j %T %r' 2>&1 | tr '\n' ';')"
	echo "files: $(ls -R "$W/reports" "$W/state" 2>&1 | tr '\n' ' ')"
}

spank_need_lab
command -v jq >/dev/null || skip_all "needs jq"
plan 11
spank_workdir spank-live
FAB=$W/fab
mkdir -p "$FAB"
fab_example "$FAB" 2
cat >"$W/roce.conf" <<CONF
# veth has no DCB: PFC cannot be checked here
PfcPriority=none
Mode=warn
ReportDir=$W/reports
StateDir=$W/state
CONF
spank_lab_init
lab_user_add || { echo "Bail out! no test user"; exit 1; }
lab_node node1 "$FAB" eth0=9000 eth1=9000
spank_lab_start

# The node's health check, as slurmd runs HealthCheckProgram (roce-check
# --health: the sampling is the same as --drain's, without draining).
health() {
	lab_node_exec node1 env -i SLURMD_NODENAME=node1 SLURM_CONF="$LAB/slurm.conf" PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		"$top_builddir/prolog/roce-check" --health --config "$W/roce.conf" >"$W/out" 2>"$W/err"
}
# roce-report --live as the job's user
live() {
	"${LAB_AS_USER[@]}" "$top_builddir/prolog/roce-report" --live "$@" --config "$W/roce.conf" >"$W/out" 2>"$W/err"
	RC=$?
}
counter() { fab_counter "$FAB" "$1" 1 "$2" "$3" "$4"; }

# --- a job of the test user that runs until told to stop
touch "$W/job.out" && chmod 666 "$W/job.out"
id=$(lab_run "${LAB_AS_USER[@]}" sbatch --parsable --roce --chdir=/ -o "$W/job.out" \
	--wrap "while [ ! -e $W/stop ]; do sleep 0.2; done; echo DONE")
lab_wait_job_state "$id" RUNNING
check "the job runs; its prolog snapshot is in StateDir" '[ -n "$id" ] && lab_wait_file "$W/state/$id.node1.snapshot.json"'

# --- the health check samples it: 1 GiB sent on mlx5_0 so far
counter mlx5_0 counters port_xmit_data $((1 << 28))
health
check "the health check samples the running job into ReportDir/<job>/node1.live, saying nothing" \
	'[ -f "$W/reports/$id/node1.live" ] && [ ! -s "$W/err" ]'

# --- traffic between two samples
sleep 1
counter mlx5_0 counters port_xmit_data $((3 << 28))
counter mlx5_0 counters port_rcv_data $((2 << 28))
counter mlx5_0 hw_counters out_of_sequence 12
health
live "$id" --format json
m='.nodes[0].ports[] | select(.device == "mlx5_0")'
check "--live (the job's user): since the sample before, 2 GiB sent and received at their rates, 12 lost" \
	'[ $RC = 0 ] && [ "$(jq -r "$m | .since_last.counters | [.port_xmit_bytes, .port_rcv_bytes, .out_of_sequence] | @tsv" $W/out)" = "$(printf "2147483648\t2147483648\t12")" ] && jq -e "$m | .since_last.metrics.tx > 0 and (.since_last.metrics.tx == .since_last.metrics.rx) and .since_last.metrics.loss == 12" $W/out >/dev/null'
check "--live: since the job started, 3 GiB sent" \
	'[ "$(jq -r "$m | .since_start.counters.port_xmit_bytes" $W/out)" = 3221225472 ] && [ "$(jq -r ".nodes[0] | [.node, .samples] | @tsv" $W/out)" = "$(printf "node1\t2")" ]'
live "$id"
check "--live text: node1's ports with their rates and loss" \
	'grep -Eq "^node1 +mlx5_0:1 +eth0 +ACTIVE +[0-9]+s +[0-9.]+[KMG]iB/s +[0-9.]+[KMG]iB/s +12 " $W/out && grep -Eq "^node1 +mlx5_1:1 +eth1 +ACTIVE " $W/out'

# --- the GID moves mid-job: an address in front shifts the table (3 -> 4)
fab_gid_clear "$FAB" mlx5_1 1 0
fab_roce_ipv4 "$FAB" mlx5_1 1 eth1 192.0.2.11 1
health
live "$id"
check "--live flags the GID that moved mid-job, naming where it is now" \
	'grep -q "^  fail node1 mlx5_1:1 gid_changed: the RoCE v2 GID was index 3 (192.0.2.11) at job start and is not valid now: .*is at index 4" $W/out'
live "$id" --format prometheus
check "--live prometheus: roce_live_event gid_changed" \
	'grep -qx "roce_live_event{slurm_job_id=\"$id\",node=\"node1\",subject=\"mlx5_1:1\",code=\"gid_changed\",severity=\"fail\"} 1" $W/out'
check "a configuration finding: the health check leaves the node alone" '[ "$(lab_node_settled node1)" = allocated ] || [ "$(lab_node_settled node1)" = mixed ]'

# --- the job ends: the epilog writes the report and removes the live file
touch "$W/stop"
lab_wait_job "$id"
check "the epilog wrote the fragment and removed the live file and the sample" \
	'lab_wait_file "$W/reports/$id/node1.json" && [ ! -e "$W/reports/$id/node1.live" ] && [ ! -e "$W/state/$id.node1.sample.json" ]'
live "$id"
check "--live after the job: exit 1, pointing at its report" '[ $RC = 1 ] && grep -q "job $id has ended on its nodes: roce-report $id shows its report" $W/err'

spank_sanitizer_check
done_testing
