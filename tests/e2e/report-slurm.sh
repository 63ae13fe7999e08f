#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The job fabric report in a real three-node Slurm (tests/lib/slurmlab.sh):
# roce-prolog/roce-epilog as Prolog=/Epilog= scripts (PrologFlags=Alloc, so
# every node of the allocation snapshots at job start), each node seeing its
# own fixture fabric at /sys and real veths; counters change while the job
# runs; roce-report then merges every node's fragment.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/slurmlab.sh"
B=$top_builddir/prolog

why=$(lab_can_run) || skip_all "$why"
W=$(mktemp -d "${TMPDIR:-/tmp}/report-slurm.XXXXXX") && chmod 755 "$W"
trap 'lab_stop; [ "${KEEP:-0}" = 1 ] || rm -rf "$W"' EXIT
trap 'exit 1' INT TERM

cat >"$W/roce.conf" <<EOF
ReportDir=$W/reports
StateDir=$W/state/%n
PfcPriority=none
EOF
# One StateDir per node: the three "nodes" share this machine's disk.  The
# policy has no %n, so each node's script points at its own conf.
for n in node1 node2 node3; do
	sed "s|%n|$n|" "$W/roce.conf" >"$W/roce-$n.conf"
	mkdir -p "$W/fab-$n"
	fab_example "$W/fab-$n" 2
done
for kind in prolog epilog; do
	cat >"$W/$kind.sh" <<EOF
#!/bin/sh
exec "$B/roce-$kind" --config "$W/roce-\$SLURMD_NODENAME.conf"
EOF
	chmod 755 "$W/$kind.sh"
done

LAB_EXTRA_CONF="Prolog=$W/prolog.sh
Epilog=$W/epilog.sh
PrologFlags=Alloc"
lab_init "$W/lab" >/dev/null || { echo "Bail out! lab_init failed"; exit 1; }
for n in node1 node2 node3; do lab_node "$n" "$W/fab-$n" eth0=9000 eth1=9000 || exit 1; done
lab_start || { lab_logs >&2; echo "Bail out! cluster did not start"; exit 1; }

# submit ARGS...: sbatch --parsable, prints the job id
submit() { lab_run sbatch --parsable -o /dev/null "$@"; }
report() { # report JOBID ARGS...: sets $out, $rc
	local id=$1; shift
	out=$("$B/roce-report" "$id" --report-dir "$W/reports" "$@" 2>&1)
	rc=$?
}
has_fragments() { [ "$(ls "$W/reports/$1" 2>/dev/null | grep -c '\.json$')" -ge "$2" ]; }
wait_fragments() { # JOBID N: the epilogs ran once the job left the queue
	lab_poll 30 has_fragments "$1" "$2"
}
# hold FILE: a job script that runs until FILE exists (120 s at most), so a
# test changes things while the job surely runs, however slow the node is
hold() { echo "t=0; while [ ! -e '$W/$1' ] && [ \$t -lt 1200 ]; do sleep 0.1; t=\$((t + 1)); done"; }

# --- one-node job: traffic while it runs
id=$(submit -N1 -w node1 --wrap "$(hold go1)")
lab_wait_file "$W/state/node1/$id.node1.snapshot.json"
ok "one node: the prolog left a snapshot" test -e "$W/state/node1/$id.node1.snapshot.json"
fab_counter "$W/fab-node1" mlx5_0 1 counters port_xmit_data 2500
fab_counter "$W/fab-node1" mlx5_0 1 hw_counters packet_seq_err 3
# "no report" says which case it is: slurmctld knows the job is still running
out=$(lab_run "$B/roce-report" "$id" --report-dir "$W/reports" 2>&1); rc=$?
is "$rc" 1 "no report yet: exit 1"
like "$out" "no report for job $id yet: it is RUNNING; each node writes its part when the job ends there \(roce-report --live $id: " \
	"no report yet: says the job is still running, and where to look meanwhile"
out=$(lab_run "$B/roce-report" --live "$id" --report-dir "$W/reports" 2>&1); rc=$?
is "$rc" 1 "--live before any health check: exit 1"
like "$out" "no live sample of job $id yet: it is RUNNING; each node's health check samples the jobs running there" \
	"--live before any sample: slurmctld says the job runs, and what takes the samples"
touch "$W/go1"
lab_wait_job "$id"
mkdir -p "$W/empty"
out=$(lab_run "$B/roce-report" "$id" --report-dir "$W/empty" 2>&1); rc=$?
like "$(tr '\n' ' ' <<<"$out")" "no report for job $id: it ended \(COMPLETED\) but no node wrote its part.*--roce=off.*slurmd was not restarted" \
	"no report for a job that ended: says so and names the causes"
ok "one node: fragment written" wait_fragments "$id" 1
report "$id" --format json
is "$rc" 0 "one node: roce-report exit 0"
is "$(jq -c '[.nodelist, .nodes[0].ports[0].counters.port_xmit_bytes, .nodes[0].ports[0].counters.packet_seq_err]' <<<"$out")" \
	'["node1",10000,3]' "one node: counted what moved during the job (x4 words)"
like "$(jq -r '.verdicts[].code' <<<"$out")" "packet_loss" "one node: packet loss verdict"
ok "one node: snapshot removed" test -z "$(ls -A "$W/state/node1" | grep -v '^policy-[0-9a-f]*\.conf$')"

# --- three-node job
id=$(submit -N3 --wrap "sleep 1")
lab_wait_job "$id"
ok "three nodes: three fragments" wait_fragments "$id" 3
report "$id"
is "$rc" 0 "three nodes: roce-report exit 0"
like "$out" "RoCE fabric report for job $id: 3 node\(s\) node\[1-3\]" "three nodes: all merged, hostlist-compressed"
like "$out" "RoCE v2 GID index +3 on every node" "three nodes: consistency over all of them"

# --- a two-node job while it runs: each node's health check (roce-check
# --health, in the node's namespaces) samples it; roce-report --live shows
# both nodes, each with what moved on its own ports since its sample before
id=$(submit -N2 -w node1,node3 --wrap "$(hold go_live)")
lab_wait_file "$W/state/node1/$id.node1.snapshot.json"
lab_wait_file "$W/state/node3/$id.node3.snapshot.json"
health() {
	lab_node_exec "$1" env -i SLURMD_NODENAME="$1" PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		"$B/roce-check" --health --config "$W/roce-$1.conf" >"$W/hc.out" 2>&1
}
health node1
health node3
counters() { echo "$(fab_devdir "$W/fab-$1" "$2")/ports/1/$3/$4"; }
x1=$(cat "$(counters node1 mlx5_0 counters port_xmit_data)")
fab_counter "$W/fab-node1" mlx5_0 1 counters port_xmit_data $((x1 + 1000000))
r3=$(cat "$(counters node3 mlx5_1 counters port_rcv_data)")
fab_counter "$W/fab-node3" mlx5_1 1 counters port_rcv_data $((r3 + 2000000))
fab_counter "$W/fab-node3" mlx5_1 1 hw_counters local_ack_timeout_err 4
sleep 1
health node1
health node3
out=$(lab_run "$B/roce-report" --live "$id" --report-dir "$W/reports" --format json 2>&1); rc=$?
is "$rc" 0 "--live, two nodes: exit 0"
is "$(jq -r '[.nodes[].node] | join(" ")' <<<"$out")" "node1 node3" "--live: both nodes, each sampled by its own health check"
is "$(jq -c '[.nodes[] | .ports[] | select(.since_last.counters.port_xmit_bytes > 0 or .since_last.counters.port_rcv_bytes > 0) | [.device, .since_last.counters.port_xmit_bytes, .since_last.counters.port_rcv_bytes]]' <<<"$out")" \
	'[["mlx5_0",4000000,0],["mlx5_1",0,8000000]]' "--live: node1's mlx5_0 sent, node3's mlx5_1 received, since each node's sample before"
is "$(jq -r '.nodes[] | select(.node == "node3") | .ports[] | select(.device == "mlx5_1") | .since_last.metrics.timeout' <<<"$out")" 4 \
	"--live: node3's RDMA timeouts since its sample before"
out=$(lab_run "$B/roce-report" --live "$id" --report-dir "$W/reports" 2>&1)
like "$out" "^RoCE live view of job $id: 2 node\(s\)" "--live text: two nodes"
touch "$W/go_live"
lab_wait_job "$id"
ok "the job's two fragments" wait_fragments "$id" 2
ok "no live file left" test -z "$(ls "$W/reports/$id" | grep '\.live$')"

# --- two jobs at once on one node: b starts and ends while a runs
a=$(submit -N1 -n1 -w node2 --wrap "$(hold go_a)")
lab_wait_file "$W/state/node2/$a.node2.snapshot.json"
b=$(submit -N1 -n1 -w node2 --wrap "$(hold go_b)")
lab_wait_file "$W/state/node2/$b.node2.snapshot.json"
touch "$W/go_b"; lab_wait_job "$b"
touch "$W/go_a"; lab_wait_job "$a"
wait_fragments "$a" 1; wait_fragments "$b" 1
report "$a" --format json
is "$(jq -c '.nodes[0].shared_with' <<<"$out")" "[\"$b\"]" "shared: the longer job is flagged with the other"
report "$b" --format json
is "$(jq -c '.nodes[0].shared_with' <<<"$out")" "[\"$a\"]" "shared: and the shorter one too"
is "$(lab_node_settled node2)" idle "shared: node stays idle (reporting never drains)"
done_testing
