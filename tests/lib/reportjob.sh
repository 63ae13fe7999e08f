# SPDX-License-Identifier: GPL-2.0-or-later
# reportjob.sh - a finished job's report fragments, written by the real
# roce-prolog and roce-epilog on fixture sysfs trees (fabric.sh) with the
# counters changed in between as the kernel would.  Source tap.sh, fabric.sh
# and netns.sh first and call `netns_setup TAG N` (N >= the ports of a node:
# the netlink collector finds eth0.. there).
#   rj_conf                   $T/roce.conf: ReportDir=$T/reports, StateDir=$T/state
#   rj_node JOB NODE PORTS [DEV DIR COUNTER INCREMENT]...
#                             one node of JOB with PORTS mlx5 ports (counters
#                             zeroed), prolog, the increments, epilog; the
#                             fragment is $T/reports/JOB/NODE.json.  Returns 1
#                             (output in $T/rj.out) when no fragment came out.
#                             RJ_START="DEV DIR COUNTER VALUE ...": values set
#                             before the prolog (a smaller one after it is a
#                             counter reset); RJ_UID: the job's user (0)
#   rj_copy JOB NODE NEWNAME  the node's fragment again under another node name
#   rj_pfc JOB NODE PORT SENT RECEIVED
#                             PFC pause frames on priority 3 of the node's
#                             PORT-th port (0..), as a NIC with DCB reports
#                             them (a veth has no DCB: the epilog wrote unread)
#   rj_dashboard_job JOB      a 3-node job with something in every panel of
#                             etc/grafana-dashboard.json: gpu01 loss, timeouts
#                             and ECN; gpu02 a link down, CNPs ignored, PFC
#                             pauses; gpu03 a counter reset.  1 on a failure
#   rj_health NODE            roce-check --health --format prometheus (the node's
#                             health check, as roce-healthcheck writes it) on a
#                             fixture whose mlx5_1 is down (it drains), whose
#                             mlx5_0 link rate cannot be read (unknown) and whose
#                             mlx5_0 symbol_error grew by 120 since the run
#                             before, into $T/health-NODE.prom; 1 on a failure
rj_conf() {
	# TimeoutMs: a loaded machine must not turn the prolog's check into a missed snapshot
	printf 'ReportDir=%s/reports\nStateDir=%s/state\nPfcPriority=3\nTimeoutMs=20000\n' "$T" "$T" >"$T/roce.conf"
}

rj_node() {
	local job=$1 node=$2 ports=$3 r=$T/sys-$1-$2
	shift 3
	rm -rf "$r"
	mkdir -p "$r"
	fab_example "$r" "$ports"
	set -- ${RJ_START:-} -- "$@"
	while [ "$1" != -- ]; do
		fab_counter "$r" "$1" 1 "$2" "$3" "$4"
		shift 4
	done
	shift
	ip netns exec "$NS" env SLURM_JOB_ID="$job" SLURM_JOB_UID="${RJ_UID:-0}" SLURMD_NODENAME="$node" \
		"$top_builddir/prolog/roce-prolog" --config "$T/roce.conf" --sysfs-root "$r" >"$T/rj.out" 2>&1
	while [ $# -ge 4 ]; do
		fab_counter "$r" "$1" 1 "$2" "$3" "$4"
		shift 4
	done
	ip netns exec "$NS" env SLURM_JOB_ID="$job" SLURM_JOB_UID="${RJ_UID:-0}" SLURMD_NODENAME="$node" \
		"$top_builddir/prolog/roce-epilog" --config "$T/roce.conf" --sysfs-root "$r" >>"$T/rj.out" 2>&1
	[ -f "$T/reports/$job/$node.json" ]
}

rj_copy() {
	local d=$T/reports/$1
	jq --arg n "$3" '.name = $n' "$d/$2.json" >"$d/$3.json" && chmod 440 "$d/$3.json"
}

rj_pfc() {
	local f=$T/reports/$1/$2.json
	jq --argjson i "$3" --argjson req "$4" --argjson ind "$5" \
		'.ports[$i].pfc = {status: "ok", enabled: [3], requests: [0, 0, 0, $req, 0, 0, 0, 0],
		                   indications: [0, 0, 0, $ind, 0, 0, 0, 0]}' "$f" >"$f.new" &&
		mv -f "$f.new" "$f" && chmod 440 "$f"
}

rj_dashboard_job() {
	rj_node "$1" gpu01 2 \
		mlx5_0 counters port_xmit_data 1000000 mlx5_0 counters port_rcv_data 900000 \
		mlx5_0 hw_counters out_of_sequence 40 mlx5_0 hw_counters local_ack_timeout_err 3 \
		mlx5_0 hw_counters np_ecn_marked_roce_packets 90 mlx5_0 hw_counters np_cnp_sent 90 || return 1
	rj_node "$1" gpu02 2 \
		mlx5_1 counters link_downed 1 mlx5_1 hw_counters rp_cnp_handled 7 mlx5_1 hw_counters rp_cnp_ignored 2 || return 1
	RJ_START="mlx5_0 counters port_xmit_data 500000" rj_node "$1" gpu03 1 mlx5_0 counters port_xmit_data 10 || return 1
	rj_pfc "$1" gpu02 0 4000 12000
}

rj_health() {
	local r=$T/sys-health-$1
	rm -rf "$r"
	mkdir -p "$r"
	fab_example "$r" 2
	fab_port "$r" mlx5_1 1 state="1: DOWN" phys="3: Disabled"
	rm -f "$(fab_devdir "$r" mlx5_0)/ports/1/rate"
	# LinkRateAction=fail: the unreadable rate is unknown (warn makes it a warning)
	set -- "$1" --config "$T/roce.conf" --sysfs-root "$r" --node "$1" --set StateDir="$T/state-health-$1" \
		--set LinkRateAction=fail --health --format prometheus
	# --health exits 1: the node drains
	ip netns exec "$NS" "$top_builddir/prolog/roce-check" "${@:2}" >/dev/null 2>"$T/rj.out"
	fab_counter "$r" mlx5_0 1 counters symbol_error 120
	ip netns exec "$NS" "$top_builddir/prolog/roce-check" "${@:2}" >"$T/health-$1.prom" 2>"$T/rj.out"
	grep -q '^roce_port_counter_growth{.*} 120$' "$T/health-$1.prom"
}
