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
