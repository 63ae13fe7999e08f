#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# roce-report --nodes over the reports of 40 jobs x 8 nodes: node ports
# ranked by the jobs that saw a problem, the known sick port first; --since;
# who counts what (an admin every job, a user their own only); every format
# parses.  The fragments are the real prolog's and epilog's (reportjob.sh),
# filed again under other jobs, nodes, users and end times.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/lib/reportjob.sh"
. "$top_srcdir/tests/lib/jobfiles.sh"   # as_user

command -v jq >/dev/null || skip_all "needs jq"
command -v setpriv >/dev/null || skip_all "needs setpriv"
command -v setfacl >/dev/null || skip_all "needs setfacl (acl)"
netns_setup nodes 2
rj_conf
ADMINS=4242
ok "template: a healthy node" rj_node 9001 fine 2 mlx5_0 counters port_xmit_data 5000000
ok "template: packets lost on mlx5_1" rj_node 9002 sick 2 mlx5_1 hw_counters out_of_sequence 40
ok "template: a link down on mlx5_0" rj_node 9003 down 2 mlx5_0 counters link_downed 1
mkdir "$T/tmpl"
for t in fine:9001 sick:9002 down:9003; do cp "$T/reports/${t#*:}/${t%:*}.json" "$T/tmpl/${t%:*}.json"; done
rm -rf "$T/reports"/900?
chgrp "$ADMINS" "$T/reports"

# job JOB UID END_S NODE=TEMPLATE...: the job's fragments, each as the epilog
# files it for a system without ACLs (the job's user owns it, mode 0440,
# ReportDir's group); nodes not named are healthy.
NOW=$(date +%s)
job() {
	local id=$1 uid=$2 end=$3 n t d=$T/reports/$1
	shift 3
	mkdir -p "$d"
	for n in gpu01 gpu02 gpu03 gpu04 gpu05 gpu06 gpu07 gpu08; do
		t=fine
		for a in "$@"; do [ "${a%=*}" = "$n" ] && t=${a#*=}; done
		jq --arg j "$id" --arg n "$n" --argjson u "$uid" --argjson e "${end}000000000" \
			'.job_id = $j | .name = $n | .job_uid = $u | .end_ns = $e | .start_ns = ($e - 10000000000)' \
			"$T/tmpl/$t.json" >"$d/$n.json"
		chown "$uid:$ADMINS" "$d/$n.json" && chmod 440 "$d/$n.json"
	done
}
# Jobs 100..139 end an hour apart, the last half an hour ago; even ones are
# user 4001's (gpu05's mlx5_1 loses packets in each), odd ones 4002's
# (gpu02's mlx5_0 went down in job 101).
end_of() { echo $((NOW - (140 - $1) * 3600 + 1800)); }
for i in $(seq 100 139); do
	if ((i % 2 == 0)); then job "$i" 4001 "$(end_of "$i")" gpu05=sick
	elif ((i == 101)); then job "$i" 4002 "$(end_of "$i")" gpu02=down
	else job "$i" 4002 "$(end_of "$i")"; fi
done
# A fragment user 4002 could read (world-readable) but that is 4001's job.
chmod 444 "$T/reports/100/gpu05.json"
# Not a job's current report: never read.
mkdir "$T/reports/100.earlier-7" && cp "$T/reports/100/gpu05.json" "$T/reports/100.earlier-7/"

R=$top_builddir/prolog/roce-report
nodes() { out=$("$R" --nodes --config "$T/roce.conf" "$@" 2>"$T/err"); rc=$?; }
first_row() { sed -n '/^NODE /{n;p;q}' <<<"$out"; }

# --- an admin (root): every job, the sick port first
nodes
is "$rc" 0 "text: exit 0"
like "$out" "^RoCE node health across 40 job\(s\) \(21 with a problem\)" "text: 40 jobs read, 21 with a problem"
like "$(first_row)" "^gpu05 +mlx5_1:1 +40 +20 +20 +0 +0 +0 +0 +0 +job 138, " "text: gpu05 mlx5_1:1 first, lost packets in 20 of its 40 jobs, last in job 138"
like "$out" "gpu02 +mlx5_0:1 +40 +1 +0 +0 +0 +1 +0 +0 +job 101, " "text: gpu02 mlx5_0:1's one link down"
like "$out" "14 other node port\(s\): no problem in any job" "text: the 14 healthy ports counted"
is "$(cat "$T/err")" "" "text: no fragment refused"

nodes --format json
is "$rc" 0 "json: exit 0"
parses() { jq -e . >/dev/null <<<"$1"; }
ok "json: parses" parses "$out"
is "$(jq -r '[.jobs, .jobs_with_problem, .uid] | @tsv' <<<"$out")" "40	21	" "json: 40 jobs, 21 with a problem, every user's"
is "$(jq -r '.ports[0] | [.node, .device, .port, .jobs_seen, .problems.loss, .last_problem.job_id] | @tsv' <<<"$out")" \
	"gpu05	mlx5_1	1	40	20	138" "json: the sick port first"
is "$(jq '.ports | length' <<<"$out")" 16 "json: every node port"

nodes --format prometheus
is "$rc" 0 "prometheus: exit 0"
bad=$(grep -v '^#' <<<"$out" | grep -vE '^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*")*\})? [0-9]+$')
is "$bad" "" "prometheus: every sample line is well formed"
is "$(grep -c '^# TYPE' <<<"$out")" "$(grep '^# TYPE' <<<"$out" | sort -u | wc -l)" "prometheus: each family announced once"
like "$out" '^roce_node_port_problem_jobs\{node="gpu05",device="mlx5_1",port="1",problem="loss"\} 20$' "prometheus: gpu05's loss in 20 jobs"
like "$out" '^roce_node_port_last_problem_timestamp_seconds\{node="gpu02",device="mlx5_0",port="1",slurm_job_id="101"\} [0-9]+$' "prometheus: the last job with a problem and when"

rm -f "$T/nodes.html"
nodes --format html -o "$T/nodes.html"
is "$rc" 0 "html: exit 0, written to -o FILE"
# No python3 here: it is not among the test dependencies (a fresh trixie has none).
tags() { grep -o "$1" "$T/nodes.html" | wc -l; }
is "$(tags '<td')/$(tags '<tr')" "$(tags '</td>')/$(tags '</tr>')" \
	"html: every cell and row closed ($(grep -c '^<tr><td' "$T/nodes.html") port rows)"
first=$(grep -m1 '^<tr><td' "$T/nodes.html" | sed -e 's|</td><td[^>]*>|\t|g' -e 's|<[^>]*>||g')
is "$(cut -f1-4 <<<"$first")" "gpu05	mlx5_1:1	40	20" "html: the sick port is the first row"

# --- --since
nodes --since -20h
like "$out" "across 20 job\(s\) \(10 with a problem\)" "since -20h: the 20 jobs that ended in the last 20 hours"
like "$(first_row)" "^gpu05 +mlx5_1:1 +20 +10 +10 " "since -20h: gpu05 in 20 jobs, 10 with loss"
since=$(date -u -d "@$(($(end_of 130) - 60))" +%Y-%m-%dT%H:%M:%SZ)
nodes --since "$since" --format json
is "$(jq -r '[.jobs, .since] | @tsv' <<<"$out")" "10	$since" "since $since (ISO, UTC): 10 jobs, and says since when"
unlike "$out" '"gpu02","device":"mlx5_0","port":1,"jobs_seen":10,"jobs_with_problem":1' "since: job 101's link down left out"
nodes --since yesterday
is "$rc" 2 "since: a bad value is a usage error"
like "$(cat "$T/err")" '--since: "yesterday" is not a time' "since: naming the value"
out=$("$R" 100 --since -1d --config "$T/roce.conf" 2>&1); rc=$?
is "$rc" 2 "since without --nodes: a usage error"

# --- who counts what
is "$(stat -c %a "$T/reports")" 751 "ReportDir as the epilog made it: its group lists it, others only search"
out=$(as_user 4001 "" "$R" --nodes --config "$T/roce.conf" 2>"$T/err"); rc=$?
is "$rc" 3 "user 4001 may not list ReportDir: refused (exit 3)"
like "$(cat "$T/err")" "--nodes reads every job in $T/reports, which only root and members of group [^ ]+ may list; a report of your own job: roce-report JOBID" \
	"user 4001: says who may, and what they may do instead"
# A site that lets its users list ReportDir (an ACL entry each): a user then
# counts their own jobs only.
setfacl -m u:4001:rx,u:4002:rx,u:65534:rx "$T/reports"
out=$(as_user 4001 "" "$R" --nodes --config "$T/roce.conf" 2>"$T/err"); rc=$?
is "$rc" 0 "user 4001: exit 0"
like "$out" "across 20 job\(s\) \(20 with a problem\), yours only \(uid 4001\)" "user 4001: their 20 jobs only"
like "$(first_row)" "^gpu05 +mlx5_1:1 +20 +20 " "user 4001: gpu05's loss in their jobs"
unlike "$out" "gpu02 +mlx5_0:1" "user 4001: not 4002's link down"
is "$(cat "$T/err")" "" "user 4001: other users' unreadable fragments are not their errors"
out=$(as_user 4002 "" "$R" --nodes --config "$T/roce.conf" --format json 2>"$T/err"); rc=$?
is "$(jq -r '[.jobs, .jobs_with_problem, .uid] | @tsv' <<<"$out")" "20	1	4002" "user 4002: their 20 jobs (not 4001's readable fragment's job)"
is "$(jq -r '.ports[0] | [.node, .device, .problems.link_down] | @tsv' <<<"$out")" "gpu02	mlx5_0	1" "user 4002: their link down first"
is "$(jq '[.ports[] | select(.node == "gpu05" and .device == "mlx5_1")][0].jobs_with_problem' <<<"$out")" 0 \
	"user 4002: 4001's loss on gpu05 not counted"
out=$(as_user 5000 "$ADMINS" "$R" --nodes --config "$T/roce.conf" 2>"$T/err"); rc=$?
like "$out" "across 40 job\(s\) \(21 with a problem\)" "a member of ReportDir's group: every job"
unlike "$out" "yours only" "a member of ReportDir's group: not limited to their own"
out=$(as_user 65534 "" "$R" --nodes --config "$T/roce.conf" 2>"$T/err"); rc=$?
is "$rc" 0 "another user: exit 0"
like "$out" "across 0 job\(s\)" "another user: no job counted"

# --- a fragment that cannot be used is named, for an admin
echo '{' >"$T/reports/139/gpu09.json"
nodes
like "$(cat "$T/err")" "job 139: fragment gpu09.json: " "a broken fragment is named with its job"
like "$out" "1 fragment\(s\) could not be used" "and counted in the report"
like "$out" "across 40 job\(s\)" "the job's other fragments still count"

# --- the health check's trend between jobs: the real health check (roce-check
# --health, StateDir $T/state) sees mlx5_1's symbol_error grow between two of
# its runs; the next job's real prolog and epilog on the node carry it into
# the job's fragment (counter_trend), which --nodes counts for that port
TR=$T/sys-trend
mkdir -p "$TR"
fab_example "$TR" 2
health() {
	ip netns exec "$NS" "$top_builddir/prolog/roce-check" --config "$T/roce.conf" --sysfs-root "$TR" --node gpu07 \
		--health >"$T/health.out" 2>&1
}
health
fab_counter "$TR" mlx5_1 1 counters symbol_error 50
health
like "$(cat "$T/health.out")" "counter_trend +mlx5_1:1 .*symbol_error \+50 \(threshold 10\)" "the health check flags mlx5_1"
ok "a job on the node after that" rj_node 200 gpu07 2
verdict=$(jq -r '.verdicts[] | select(.code == "counter_trend") | [.subject, .severity, .message] | @tsv' \
	"$T/reports/200/gpu07.json")
is "$verdict" "mlx5_1:1	warn	the health check saw link-quality counters grow between its runs within 3600 s, when the job started and when it ended: symbol_error +50 (threshold 10)" \
	"its fragment carries the trend as a counter_trend verdict on mlx5_1:1, naming the counter"
is "$(jq '[.verdicts[] | select(.subject | startswith("mlx5_0"))] | length' "$T/reports/200/gpu07.json")" 0 \
	"nothing on mlx5_0"
nodes
like "$out" "gpu07 +mlx5_1:1 +41 +1 +0 +0 +0 +0 +0 +1 +job 200, " "--nodes: the TREND column counts the job (gpu07 was in the 40 jobs above, healthy)"
nodes --format json
is "$(jq -r '.ports[] | select(.node == "gpu07" and .device == "mlx5_1") | .problems.counter_trend' <<<"$out")" 1 \
	"--nodes json: problems.counter_trend"
nodes --format prometheus
like "$out" '^roce_node_port_problem_jobs\{node="gpu07",device="mlx5_1",port="1",problem="counter_trend"\} 1$' \
	"--nodes prometheus: problem=\"counter_trend\""
nodes --format html -o "$T/nodes.html"
like "$(grep -m1 '<th data-key="counter_trend"' "$T/nodes.html")" "Counter trend" "--nodes html: a Counter trend column"
rm -f "$T/state/trend.json"
ok "a job after the trend state is gone" rj_node 201 gpu08 2
is "$(jq '[.verdicts[] | select(.code == "counter_trend")] | length' "$T/reports/201/gpu08.json")" 0 \
	"no trend kept: no counter_trend verdict"

# --- a slow link, from the fragment the real prolog and epilog wrote: the
# port's check_why says when ("at job start: link_rate: ...")
printf 'ReportDir=%s/slow\nStateDir=%s/state\nLinkRateAction=fail\nTimeoutMs=20000\n' "$T" "$T" >"$T/slow.conf"
r=$T/sys-slow
mkdir -p "$r" # ReportDir $T/slow: made by the epilog (0751), as on a node
fab_example "$r" 2
echo "25 Gb/sec (1X EDR)" >"$(fab_devdir "$r" mlx5_1)/ports/1/rate"
for kind in prolog epilog; do
	ip netns exec "$NS" env SLURM_JOB_ID=200 SLURM_JOB_UID=0 SLURMD_NODENAME=gpu01 \
		"$top_builddir/prolog/roce-$kind" --config "$T/slow.conf" --sysfs-root "$r" >>"$T/slow.out" 2>&1
done
like "$(jq -r '.ports[] | select(.device == "mlx5_1") | .check_why' "$T/slow/200/gpu01.json")" "^at job start: link_rate: " \
	"slow link: the epilog's fragment says when and which check"
out=$("$R" --nodes --config "$T/slow.conf" --format json 2>"$T/err"); rc=$?
is "$(jq -r '.ports[] | select(.device == "mlx5_1") | [.node, .problems.slow_link] | @tsv' <<<"$out")" "gpu01	1" \
	"slow link: --nodes counts it"
is "$(jq -r '[.ports[] | select(.device == "mlx5_0") | .problems.slow_link] | add' <<<"$out")" 0 "slow link: not the fast ports"
done_testing
