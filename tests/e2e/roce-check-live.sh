#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# roce-report --live on one node, the real programs on a fixture sysfs tree
# whose counters and GID table change between health checks as the
# kernel's would (fabric.sh): the real roce-prolog starts a job, the real
# health check (roce-check --health, as roce-healthcheck runs it) samples
# it, roce-report --live shows the rates since the job started and since
# the sample before, flags a GID that moved mid-job (index 3 -> 4, as
# NVIDIA/nccl issue 1333) and a link that went down, and says who may see
# it; the live file is filed as a fragment is; the real roce-epilog removes
# it; an orphaned sample is removed, a job from before the boot is not
# sampled; Live=no takes none.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/lib/jobfiles.sh" # as_user

command -v jq >/dev/null || skip_all "needs jq"
command -v setpriv >/dev/null || skip_all "needs setpriv"
command -v getfacl >/dev/null || skip_all "needs getfacl (acl)"
netns_setup live 2
R=$T/sys
mkdir -p "$R" "$T/reports"
fab_example "$R" 2
ADMINS=4242
chgrp "$ADMINS" "$T/reports"
chmod 0751 "$T/reports" # others search, never list (roce.conf(5))
mkconf() { # mkconf FILE [KEY=VALUE...]
	local f=$1
	shift
	printf 'StateDir=%s/state\nReportDir=%s/reports\nPfcPriority=none\nTimeoutMs=20000\n' "$T" "$T" >"$f"
	for kv in "$@"; do echo "$kv" >>"$f"; done
}
mkconf "$T/roce.conf"
C=$T/roce.conf
B=$top_builddir/prolog
job() { # job prolog|epilog JOBID [CONF]
	ip netns exec "$NS" env SLURM_JOB_ID="$2" SLURM_JOB_UID=4001 SLURMD_NODENAME=gpu01 \
		"$B/roce-$1" --config "${3:-$C}" --sysfs-root "$R" >"$T/job.out" 2>&1
}
health() { # health [roce-check args]: the node's health check; $rc, $err
	ip netns exec "$NS" "$B/roce-check" --config "$C" --sysfs-root "$R" --node gpu01 --health "$@" \
		>"$T/health.out" 2>"$T/health.err"
	rc=$?
	err=$(cat "$T/health.err")
}
live() { # live JOBID [args]: roce-report --live; $out, $rc, $lerr
	out=$("$B/roce-report" --live "$@" --config "$C" 2>"$T/live.err")
	rc=$?
	lerr=$(cat "$T/live.err")
}
counter() { fab_counter "$R" "$1" 1 "$2" "$3" "$4"; }
row() { grep -E "^gpu01 +$1 " <<<"$out"; }
F=$T/reports/501/gpu01.live

# --- no job running: nothing sampled
health
is "$rc/$err" "0/" "no job: the health check exits 0, says nothing"
is "$(ls "$T/reports")" "" "no job: no live file"

# --- a job starts; before its first sample --live says so
ok "the job's prolog" job prolog 501
live 501
is "$rc" 1 "before any sample: exit 1"
like "$lerr" "no live sample of job 501" "before any sample: said"

# --- the first sample: 1 GiB sent on mlx5_0 since the job started
counter mlx5_0 counters port_xmit_data $((1 << 28))
health
is "$rc/$err" "0/" "first sample: the health check exits 0, says nothing"
is "$(stat -c '%a %u %g' "$F" 2>&1)" "440 0 $ADMINS" "the live file is filed as a fragment: 0440, root's, ReportDir's group"
like "$(getfacl -cp "$F" 2>/dev/null)" "user:4001:r--" "and readable by the job's user (ACL)"
is "$(stat -c '%a' "$T/state/501.gpu01.sample.json")" 600 "the sample is kept in StateDir, root's alone"
live 501
is "$rc" 0 "--live: exit 0"
like "$out" "^RoCE live view of job 501: 1 node\(s\), started " "--live: the header"
like "$(row mlx5_0:1)" "^gpu01 +mlx5_0:1 +eth0 +ACTIVE +[0-9]+s +[0-9.]+[KMG]iB/s +0B/s +0 +0 +0 +- +0 +[0-9]+s +[0-9.]+[KMG]iB/s " \
	"--live: mlx5_0 sent since the start and since the sample before (the prolog's, for a first sample)"

# --- traffic between two samples: rates and loss since the sample before
sleep 1
counter mlx5_0 counters port_xmit_data $((3 << 28))
counter mlx5_0 counters port_rcv_data $((1 << 28))
counter mlx5_0 hw_counters out_of_sequence 40
counter mlx5_0 hw_counters local_ack_timeout_err 3
health
live 501 --format json
is "$(jq -r '.nodes[0] | [.node, .samples] | @tsv' <<<"$out")" "gpu01	2" "json: gpu01, its second sample"
p0='.nodes[0].ports[] | select(.device == "mlx5_0")'
is "$(jq -r "$p0 | .since_start.counters | [.port_xmit_bytes, .port_rcv_bytes, .out_of_sequence] | @tsv" <<<"$out")" \
	"3221225472	1073741824	40" "json: since the start, 3 GiB sent, 1 GiB received, 40 out of sequence"
is "$(jq -r "$p0 | .since_last.counters | [.port_xmit_bytes, .port_rcv_bytes] | @tsv" <<<"$out")" \
	"2147483648	1073741824" "json: since the sample before, 2 GiB sent, 1 GiB received"
is "$(jq -r "$p0 | .since_last.metrics | [.loss, .timeout] | @tsv" <<<"$out")" "40	3" "json: loss 40, timeouts 3 since the sample before"
ok "json: the rate since the sample before is bytes over its seconds" \
	jq -e "$p0 | .since_last | (.metrics.tx - .counters.port_xmit_bytes / .seconds | fabs) < 1 and .seconds >= 1" <<<"$out"
is "$(jq '.nodes[0].events | length' <<<"$out")" 0 "json: nothing seen yet"
health
live 501 --format json
is "$(jq -r "$p0 | [.since_last.counters.port_xmit_bytes, .since_last.metrics.loss, .since_start.metrics.loss] | @tsv" <<<"$out")" \
	"0	0	40" "a quiet sample: nothing since the sample before, the loss since the start stays"

# --- the GID moves mid-job (index 3 -> 4: an address added in front, NVIDIA/nccl#1333)
fab_gid_clear "$R" mlx5_1 1 0
fab_roce_ipv4 "$R" mlx5_1 1 eth1 192.0.2.11 1
health
is "$rc" 0 "GID moved: the health check exits 0 (not a hardware fault)"
live 501
like "$out" "fail gpu01 mlx5_1:1 gid_changed: the RoCE v2 GID was index 3 \(192.0.2.11\) at job start and is not valid now: mlx5_1 port 1: GID 3 is IB/RoCE v1 192.0.2.11, not a routable RoCE v2 IPv4 GID; the RoCE v2 IPv4 GID \(RoCE v2 192.0.2.11\) is at index 4" \
	"text: the moved GID is flagged, naming where it is now"
like "$out" "still at the latest sample\)" "text: still seen"
like "$out" "fix: an address or VLAN was added or removed" "text: with the fix"
live 501 --format prometheus
like "$out" '^roce_live_event\{slurm_job_id="501",node="gpu01",subject="mlx5_1:1",code="gid_changed",severity="fail"\} 1$' \
	"prometheus: roce_live_event gid_changed 1"
like "$out" '^roce_live_port_count\{slurm_job_id="501",node="gpu01",device="mlx5_0",port="1",since="start",metric="loss"\} 40$' \
	"prometheus: the loss since the start"
bad=$(grep -v '^#' <<<"$out" | grep -vE '^[a-zA-Z_:][a-zA-Z0-9_:]*\{[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*")*\} [0-9.]+$')
is "$bad" "" "prometheus: every sample line is well formed"
is "$(grep -c '^# TYPE' <<<"$out")" "$(grep '^# TYPE' <<<"$out" | sort -u | wc -l)" "prometheus: each family announced once"

# --- GidIndex=auto: the sample names the index it moved to
fab_gid_clear "$R" mlx5_1 1 4
fab_roce_ipv4 "$R" mlx5_1 1 eth1 192.0.2.11
mkconf "$T/auto.conf" GidIndex=auto
ok "a second job, GidIndex=auto" job prolog 502 "$T/auto.conf"
fab_gid_clear "$R" mlx5_1 1 0
fab_roce_ipv4 "$R" mlx5_1 1 eth1 192.0.2.11 1
health --config "$T/auto.conf"
live 502 --format json
is "$(jq -r '.nodes[0].events[] | select(.code == "gid_changed") | [.subject, .message] | @tsv' <<<"$out")" \
	"mlx5_1:1	the RoCE v2 GID was index 3 (192.0.2.11) at job start and is index 4 (192.0.2.11) now" \
	"GidIndex=auto: moved from index 3 to index 4"
job epilog 502 "$T/auto.conf"

# --- a link goes down and back up between two samples; a port DOWN now
counter mlx5_0 counters link_downed 1
health
live 501
like "$out" "fail gpu01 mlx5_0:1 link_down: the link went down 1 time\(s\) since the sample before \(seen from [0-9TZ:-]+, still at the latest sample\)" \
	"a link down between samples is flagged"
like "$(row mlx5_0:1)" " 1 +[0-9]+s " "LINKDOWN since the start: 1"
health
live 501
like "$out" "link_down: the link went down 1 time\(s\) since the sample before \(seen from [0-9TZ:-]+, last at [0-9TZ:-]+\)" \
	"the next sample: still listed, as last seen"
fab_port "$R" mlx5_0 1 state="1: DOWN" phys="3: Disabled"
health
is "$rc" 1 "a port DOWN: --health exits 1 (it would drain)"
live 501
like "$out" "link_down: the port is DOWN now \(ACTIVE at job start\)" "a port DOWN now is flagged"
like "$(row mlx5_0:1)" "^gpu01 +mlx5_0:1 +eth0 +DOWN " "its state now"
fab_port "$R" mlx5_0 1 state="4: ACTIVE" phys="5: LinkUp"

# --- who may see it
out=$(as_user 4001 "" "$B/roce-report" --live 501 --config "$C" 2>"$T/live.err"); rc=$?
is "$rc" 0 "the job's user: exit 0"
like "$out" "^gpu01 +mlx5_0:1 " "the job's user sees it"
out=$(as_user 4002 "" "$B/roce-report" --live 501 --config "$C" 2>"$T/live.err"); rc=$?
is "$rc" 3 "another user: refused, exit 3"
like "$(cat "$T/live.err")" "job 501 is not yours" "another user: told so"
out=$(as_user 5000 "$ADMINS" "$B/roce-report" --live 501 --config "$C" 2>"$T/live.err"); rc=$?
is "$rc" 0 "a member of ReportDir's group: exit 0"

# --- planted files: named, never used
ln -s "$F" "$T/reports/501/gpu02.live"
printf '{"schema": "slurm-roce/live/1", "job_id": "501", "node": "gpu03"}' >"$T/reports/501/gpu03.live"
live 501
is "$rc" 0 "planted files: the view still shows gpu01"
like "$lerr" "live file gpu02.live: cannot read" "a symlink: named"
like "$lerr" "live file gpu03.live: .*job_uid" "a file missing its members: named with the first one"
like "$out" "2 live file\(s\) could not be used" "and counted"
rm -f "$T/reports/501/gpu02.live" "$T/reports/501/gpu03.live"

# --- usage
live 501 --format html
is "$rc" 2 "--live --format html: a usage error"
out=$("$B/roce-report" --live --nodes --config "$C" 2>&1); rc=$?
is "$rc" 2 "--live --nodes: a usage error"

# --- Live=no: no sample
before=$(stat -c %Y.%s "$F")
sleep 1.1
health --set Live=no
is "$(stat -c %Y.%s "$F")" "$before" "Live=no: the live file is not replaced"

# --- an orphaned sample (its job's epilog did not run) is removed; a job from before the boot is not sampled
install -m 600 /dev/null "$T/state/999.gpu01.sample.json"
cp "$T/state/501.gpu01.snapshot.json" "$T/state/503.gpu01.snapshot.json"
sed -i 's/"job_id":"501"/"job_id":"503"/' "$T/state/503.gpu01.snapshot.json"
touch -d @1000000000 "$T/state/503.gpu01.snapshot.json"
health
ok "an orphaned sample is removed" test ! -e "$T/state/999.gpu01.sample.json"
ok "a job from before the boot is not sampled" test ! -e "$T/reports/503"
rm -f "$T/state/503.gpu01.snapshot.json"

# --- a job whose prolog ran before the upgrade to per-node names (0.1.0's
# <job>.json): the sampler still finds it, and the epilog removes all of it
ok "job 504's prolog" job prolog 504
mv "$T/state/504.gpu01.snapshot.json" "$T/state/504.json"
health
ok "a snapshot under 0.1.0's name: the job is sampled" test -f "$T/reports/504/gpu01.live"
ok "... its sample kept under the node's name" test -f "$T/state/504.gpu01.sample.json"
ok "job 504's epilog" job epilog 504
ok "the epilog removes the old-named snapshot, the sample and the live file" \
	test ! -e "$T/state/504.json" -a ! -e "$T/state/504.gpu01.sample.json" -a ! -e "$T/reports/504/gpu01.live"
# another node's sample (a StateDir shared by mistake) is that node's to remove
install -m 600 /dev/null "$T/state/998.gpu02.sample.json"
health
ok "another node's sample is left alone" test -e "$T/state/998.gpu02.sample.json"
rm -f "$T/state/998.gpu02.sample.json"

# --- a sample kept from before the job's start (an earlier job with this id
# whose epilog never ran) is not this job's: the next sample is a first one
jq -c '.snapshot.time_ns = 1000000000' "$T/state/501.gpu01.sample.json" >"$T/old.json"
install -m 600 "$T/old.json" "$T/state/501.gpu01.sample.json"
health
is "$(jq .samples "$F")" 1 "a sample from before the job's start: not used, this one is a first"

# --- the job ends: the epilog removes its live file and sample
ok "the job's epilog" job epilog 501
ok "the fragment is written" test -f "$T/reports/501/gpu01.json"
ok "the live file is gone" test ! -e "$F"
ok "the sample is gone" test ! -e "$T/state/501.gpu01.sample.json"
live 501
is "$rc" 1 "--live after the job: exit 1"
like "$lerr" "job 501 has ended on its nodes: roce-report 501 shows its report" "--live after the job: says so"
health
ok "no sample of an ended job" test ! -e "$F"
is "$(ls "$T/state" | grep -v -e "^trend\.json$" -e "^policy-[0-9a-f]*\.conf$")" "" "StateDir: nothing of the jobs left (the trend and the last good policy copies are the node's)"
done_testing
