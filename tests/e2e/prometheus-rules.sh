#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# etc/prometheus-rules.yml: `promtool check rules` accepts it and `promtool
# test rules` passes prometheus-rules.test.yml, whose input series are real:
# each is, label for label, a line that our tools wrote here (roce-report of a
# job whose fragments the real prolog and epilog wrote; roce-healthcheck, the
# real wrapper, writing roce-check's health into a textfile directory as on a
# node with node_exporter: gpu07 with a port down and a link-quality counter
# grown between two runs, gpu08 healthy; roce-report --live of job 601 running
# on gpu08, sampled by its health check, whose GID moved and whose link went
# down).  A rule changed under the test makes it fail.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/lib/reportjob.sh"
RULES=$top_srcdir/etc/prometheus-rules.yml
UNIT=$top_srcdir/tests/e2e/prometheus-rules.test.yml

command -v promtool >/dev/null || skip_all "needs promtool (Debian's prometheus, scripts/deps)"
command -v jq >/dev/null || skip_all "needs jq"
netns_setup rules 2
rj_conf

out=$(promtool check rules "$RULES" 2>&1)
is "$?" 0 "promtool check rules: exit 0"
like "$out" "SUCCESS: 10 rules found" "promtool check rules: the 10 rules"

# --- real expositions
ok "a job's fragments: the dashboard's job" rj_dashboard_job 501
ok "gpu01: pauses received with ECN marks" rj_pfc 501 gpu01 0 0 5000
ok "gpu04: transport retries exceeded" rj_node 501 gpu04 1 mlx5_0 hw_counters req_transport_retries_exceeded 2
"$top_builddir/prolog/roce-report" 501 --config "$T/roce.conf" --format prometheus >"$T/real.prom" 2>"$T/err"
is "$?" 0 "roce-report 501 --format prometheus: exit 0"

# roce-healthcheck as slurmd runs it (no arguments but what it passes on,
# SLURMD_NODENAME), installed next to roce-check; sinfo stands in for a
# slurmctld that is not there (the node's state is unknown: nothing drained).
mkdir -p "$T/bin"
cp "$top_srcdir/etc/roce-healthcheck" "$T/bin/" && ln -s "$top_builddir/prolog/roce-check" "$T/bin/roce-check"
printf '#!/bin/sh\nexit 1\n' >"$T/bin/sinfo" && chmod 755 "$T/bin/sinfo"
healthcheck() { # NODE SYSFS TEXTDIR
	[ -z "$3" ] || mkdir -p "$3"
	ip netns exec "$NS" env -i PATH="$T/bin:/usr/sbin:/usr/bin:/sbin:/bin" SLURMD_NODENAME="$1" \
		ROCE_TEXTFILE_DIR="$3" "$T/bin/roce-healthcheck" --config "$T/roce.conf" --sysfs-root "$2" \
		--set StateDir="$T/state-$1" >"$T/hc.out" 2>&1
}
# gpu07: mlx5_1 down; mlx5_0's symbol_error grows by 120 between two runs
fab_example "$T/sys07" 2
fab_port "$T/sys07" mlx5_1 1 state="1: DOWN" phys="3: Disabled"
healthcheck gpu07 "$T/sys07" "$T/text07"
fab_counter "$T/sys07" mlx5_0 1 counters symbol_error 120
healthcheck gpu07 "$T/sys07" "$T/text07"
like "$(cat "$T/text07/roce-health.prom" 2>/dev/null)" '^roce_port_counter_growth\{node="gpu07",device="mlx5_0",port="1",counter="symbol_error"\} 120$' \
	"roce-healthcheck: gpu07's symbol_error grew by 120 between two runs"
like "$(cat "$T/hc.out")" "cannot read the state of gpu07 from slurmctld: not draining it \(roce: mlx5_1 port 1 DOWN\): sinfo exited with status 1" \
	"roce-healthcheck: gpu07 would drain (sinfo cannot tell its state: left alone)"
like "$(cat "$T/text07/roce-health.prom" 2>/dev/null)" '^roce_health_drain\{node="gpu07",reason="roce: mlx5_1 port 1 DOWN"\} 1$' \
	"roce-healthcheck wrote gpu07's health into the textfile directory"
is "$(ls -A "$T/text07")" "roce-health.prom" "nothing else left there (the temporary file was renamed)"
fab_example "$T/sys08" 2
healthcheck gpu08 "$T/sys08" "$T/text08"
like "$(cat "$T/text08/roce-health.prom" 2>/dev/null)" '^roce_health_drain\{node="gpu08",reason=""\} 0$' \
	"roce-healthcheck wrote gpu08's health: nothing drains"
cat "$T/text07/roce-health.prom" "$T/text08/roce-health.prom" >>"$T/real.prom"
# job 601 runs on gpu08: its prolog, then two health checks (StateDir
# state-gpu08, as above) between which mlx5_1's GID moves (3 -> 4) and
# mlx5_0's link goes down and up
printf 'ReportDir=%s/reports\nStateDir=%s/state-gpu08\nPfcPriority=3\nTimeoutMs=20000\n' "$T" "$T" >"$T/gpu08.conf"
ip netns exec "$NS" env SLURM_JOB_ID=601 SLURM_JOB_UID=0 SLURMD_NODENAME=gpu08 "$top_builddir/prolog/roce-prolog" \
	--config "$T/gpu08.conf" --sysfs-root "$T/sys08" >"$T/hc.out" 2>&1
healthcheck gpu08 "$T/sys08" "$T/text08"
fab_gid_clear "$T/sys08" mlx5_1 1 0
fab_roce_ipv4 "$T/sys08" mlx5_1 1 eth1 192.0.2.11 1
fab_counter "$T/sys08" mlx5_0 1 counters link_downed 1
healthcheck gpu08 "$T/sys08" "$T/text08"
"$top_builddir/prolog/roce-report" --live 601 --config "$T/gpu08.conf" --format prometheus >"$T/live.prom" 2>>"$T/err"
like "$(cat "$T/live.prom")" '^roce_live_event\{slurm_job_id="601",node="gpu08",subject="mlx5_1:1",code="gid_changed",severity="fail"\} 1$' \
	"roce-report --live 601: gpu08's GID moved while the job runs"
cat "$T/live.prom" >>"$T/real.prom"
healthcheck gpu09 "$T/sys08" ""
like "$(cat "$T/hc.out")" "PASS +port_state +mlx5_0:1" "ROCE_TEXTFILE_DIR= (none): roce-check --drain as before, its text report to slurmd"

# --- every input series of the unit test is a real line (labels and their order as written)
LINES=$(grep -v '^#' "$T/real.prom" | sed -E 's/ [^ ]+$//')
mapfile -t SERIES < <(sed -nE "s/^ *- series: '(.*)'$/\1/p" "$UNIT")
check "the unit test has input series" '[ "${#SERIES[@]}" -ge 20 ]'
for s in "${SERIES[@]}"; do
	if grep -qxF -- "$s" <<<"$LINES"; then pass "a real series: $s"; else fail "a real series: $s"; fi
done

# --- the rules' unit test
out=$(promtool test rules "$UNIT" 2>&1)
is "$?" 0 "promtool test rules: every alert rule's test passes"
like "$out" "SUCCESS" "promtool test rules: SUCCESS"

# The test sees a changed rule: pauses without ECN only from 100000.
mkdir -p "$T/mut/etc" "$T/mut/tests/e2e"
sed 's/(roce_job_port_pfc_pause_frames{direction="rx"}) >= 1000$/(roce_job_port_pfc_pause_frames{direction="rx"}) >= 100000/' \
	"$RULES" >"$T/mut/etc/prometheus-rules.yml"
check "the rule was changed" '! cmp -s "$RULES" "$T/mut/etc/prometheus-rules.yml"'
cp "$UNIT" "$T/mut/tests/e2e/"
out=$(promtool test rules "$T/mut/tests/e2e/prometheus-rules.test.yml" 2>&1)
check "promtool test rules fails on the changed rule, naming it" '[ -n "$out" ] && ! promtool test rules "$T/mut/tests/e2e/prometheus-rules.test.yml" >/dev/null 2>&1 && grep -q "alertname: RoceJobPauseStormWithoutEcn" <<<"$out"'
is "$(cat "$T/err")" "" "roce-report said nothing on stderr"
done_testing
