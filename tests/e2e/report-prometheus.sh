#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real Prometheus runs etc/grafana-dashboard.json and etc/prometheus-rules.yml:
# a job's report (the real roce-prolog and roce-epilog on fixture sysfs trees,
# reportjob.sh), the node ports across jobs (roce-report --nodes) and a node's
# health check (roce-check --format prometheus) go through node_exporter's
# textfile collector as etc/prometheus.md says; Prometheus scrapes them; then
# the job's file leaves the exporter (its retention) and every query of the
# dashboard, with Grafana's variables filled in as Grafana does, is asked
# through the HTTP API (instant panels /api/v1/query, time series panels
# /api/v1/query_range) and must return data.  Also: the job list variable,
# the cardinality etc/prometheus.md states, and that the metrics are clean
# for node_exporter (no scrape error); the alert rules fire on the real data.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/lib/reportjob.sh"
. "$top_srcdir/tests/lib/prom.sh"
DASH=$top_srcdir/etc/grafana-dashboard.json
R=$top_builddir/prolog/roce-report

prom_available || skip_all "needs prometheus, prometheus-node-exporter, curl and jq (scripts/deps)"
netns_setup prom 2
netns_on_exit() { prom_stop; }
rj_conf
ok "a job with something in every panel: fragments written by the real prolog and epilog" rj_dashboard_job 501
T0=$(date +%s)
ok "Prometheus and node_exporter started on 127.0.0.1" prom_start "$T/prom" "$top_srcdir/etc/prometheus-rules.yml"
[ -n "${PROM_URL:-}" ] || { fail "no Prometheus: the rest cannot run" "$(tail -n 5 "$T"/prom/*.log)"; done_testing; exit; }

# As etc/prometheus.md's script does: one file per job, and the node ports.
"$R" 501 --config "$T/roce.conf" --format prometheus >"$T/job.prom" 2>"$T/err"
is "$?" 0 "roce-report 501 --format prometheus: exit 0"
"$R" --nodes --config "$T/roce.conf" --format prometheus >"$T/nodes.prom" 2>>"$T/err"
is "$?" 0 "roce-report --nodes --format prometheus: exit 0"
ok "gpu07's health check (a port down, a link rate unknown, a counter grown): roce-check --health --format prometheus" rj_health gpu07
ok "all three into the textfile directory" eval 'prom_textfile roce-job-501.prom <"$T/job.prom" &&
	prom_textfile roce-nodes.prom <"$T/nodes.prom" && prom_textfile roce-health.prom <"$T/health-gpu07.prom"'
ok "scraped after the files were written" lab_poll 30 prom_scraped
res() { jq -r '.data.result | length' <<<"$1"; }
out=$(prom_query 'node_textfile_scrape_error')
check "node_exporter read the three files" '[ "$(res "$(prom_query "node_textfile_mtime_seconds")")" = 3 ]'
is "$(jq -r '.data.result[0].value[1]' <<<"$out")" 0 "node_exporter read both files without an error"
out=$(prom_query 'count(roce_job_port_counter_delta{slurm_job_id="501"})')
is "$(jq -r '.data.result[0].value[1]' <<<"$out")" \
	"$(grep -c '^roce_job_port_counter_delta{' "$T/job.prom")" \
	"every counter sample of the exposition is a series in Prometheus"
out=$(prom_query 'count by (job) (roce_job_seconds{slurm_job_id="501"})')
is "$(jq -r '.data.result[0].metric.job' <<<"$out")" node "the scrape's job label is Prometheus's own (slurm_job_id carries the job)"

# Cardinality: the series one port adds, as etc/prometheus.md counts them.
per_port() { prom_query "count(roce_job_port_counter_delta{slurm_job_id=\"501\",node=\"gpu01\",device=\"mlx5_0\"})" | jq -r '.data.result[0].value[1]'; }
is "$(per_port)" 26 "26 counter series per mlx5 port"
like "$(cat "$top_srcdir/etc/prometheus.md")" "An mlx5 RoCE port adds 26 counter series" "etc/prometheus.md counts 26 counter series per port"

# The alert rules on the real series: what fires (no for: at the first evaluation).
firing() { prom_api /api/v1/alerts | jq -r '[.data.alerts[] | select(.state == "firing") | .labels.alertname] | unique | join(" ")'; }
want="RoceJobLinkDown RoceJobPacketLoss RoceJobPauseStormWithoutEcn RoceNodeDrained RocePortCounterGrowth RocePortDown"
lab_poll 20 eval '[ "$(firing)" = "$want" ]'
is "$(firing)" "$want" "the alert rules fire on the job's loss, pauses without ECN and link down, and gpu07's port and counter"
out=$(prom_api /api/v1/alerts)
is "$(jq -r '.data.alerts[] | select(.labels.alertname == "RoceNodeDrained") | .annotations.summary' <<<"$out")" \
	"gpu07 drained by slurm-roce: roce: mlx5_1 port 1 DOWN" "RoceNodeDrained names the node and the drain reason"

# The job's file leaves the exporter: its series end (a staleness marker at the next scrape).
rm -f "$T/prom/textfile/roce-job-501.prom"
PROM_WRITTEN=$(date +%s.%N)
ok "scraped after the job's file was removed" lab_poll 30 prom_scraped
is "$(res "$(prom_query 'roce_job_seconds{slurm_job_id="501"}')")" 0 "the job's series are stale now (an instant query of the bare metric is empty)"

# Grafana's variables: the job list over the dashboard's time range, $__range as it fills it in.
NOW=$(date +%s.%N)
RANGE=$((${NOW%.*} - T0 + 60))s
VARQ=$(jq -r '.templating.list[] | select(.name == "jobid") | .definition' "$DASH")
is "$VARQ" "label_values(roce_job_seconds, slurm_job_id)" "the job variable lists slurm_job_id of roce_job_seconds"
out=$(prom_api /api/v1/label/slurm_job_id/values --data-urlencode 'match[]=roce_job_seconds' \
	--data-urlencode "start=$T0" --data-urlencode "end=$NOW")
is "$(jq -c .data <<<"$out")" '["501"]' "the job variable still lists the job (series over the time range)"

# Every panel's every query: instant panels at the end of the range, time series panels over it.
n=0
while IFS=$'\t' read -r title type instant expr; do
	n=$((n + 1))
	q=$(base64 -d <<<"$expr")
	q=${q//\$jobid/501}
	q=${q//\$__range/$RANGE}
	if [ "$type" = timeseries ] || [ "$instant" != true ]; then
		out=$(prom_query_range "$q" "$T0" "$NOW" 1)
		what="query_range"
	else
		out=$(prom_query "$q" "$NOW")
		what="query"
	fi
	rc=$?
	if [ $rc = 0 ] && [ "$(res "$out")" -gt 0 ]; then
		pass "$what returns data: $title"
	else
		fail "$what returns data: $title" "query: $q" "answer: $(head -c 600 <<<"$out")"
	fi
done < <(jq -r '.panels[] | .title as $t | .type as $y | .targets[] | [$t, $y, (.instant // false), (.expr | @base64)] | @tsv' "$DASH")
is "$n" 15 "every query of the dashboard's 14 panels was asked"

# The same queries without last_over_time (the dashboard before issue 32)
# would have shown nothing for this job now: the test sees past jobs.
q=$(jq -r '.panels[0].targets[0].expr' "$DASH" | sed -E 's/last_over_time\((.*)\[\$__range\]\)/\1/; s/\$jobid/501/')
is "$(res "$(prom_query "$q" "$NOW")")" 0 "the first panel without last_over_time is empty for a past job"
is "$(cat "$T/err")" "" "roce-report said nothing on stderr"
echo "# Prometheus test: $((SECONDS)) s"
done_testing
