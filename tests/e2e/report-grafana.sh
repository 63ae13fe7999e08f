#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# etc/grafana-dashboard.json asks only for what roce-report writes: every
# PromQL expression of the dashboard (panels and the job variable) is read
# apart, and each metric it names, each label it selects or groups by, and
# each label value it selects (counter names, severities) must be in a real
# `roce-report --format prometheus` exposition of a job whose fragments the
# real roce-prolog and roce-epilog wrote (loss, timeouts, ECN, a link down,
# a counter reset, PFC pauses: every panel has samples), or in the node
# ports' (`roce-report --nodes --format prometheus`) or a node's health check
# (`roce-check --format prometheus`) for the node panels.
# report-prometheus.sh runs the same queries in a real Prometheus.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/lib/reportjob.sh"
DASH=$top_srcdir/etc/grafana-dashboard.json

command -v jq >/dev/null || skip_all "needs jq"
netns_setup graf 2
rj_conf
ok "a job with something in every panel: fragments written" rj_dashboard_job 501
EXPO=$("$top_builddir/prolog/roce-report" 501 --config "$T/roce.conf" --format prometheus 2>"$T/err")
is "$?" 0 "roce-report --format prometheus: exit 0"
NODES=$("$top_builddir/prolog/roce-report" --nodes --config "$T/roce.conf" --format prometheus 2>>"$T/err")
is "$?" 0 "roce-report --nodes --format prometheus: exit 0"
ok "a node's health check: roce-check --health --format prometheus" rj_health gpu07
SAMPLES=$(grep -v '^#' <<<"$EXPO")
like "$SAMPLES" '^roce_job_seconds\{slurm_job_id="501",node="gpu01"\}' "samples are labelled slurm_job_id and node"
unlike "$SAMPLES" '[{,]job="' "no label named job (Prometheus's own: it would become exported_job)"

# The node panels read roce-report --nodes and the health check: their samples count too.
SAMPLES+=$'\n'$(grep -v '^#' <<<"$NODES")$'\n'$(grep -v '^#' "$T/health-gpu07.prom")
ok "dashboard parses as JSON" jq -e . "$DASH"
# Every query, with Grafana's $jobid as the job's id, one a line.
mapfile -t QUERIES < <(jq -r '[.panels[].targets[].expr, (.templating.list[] | select(.type == "query") | .definition)]
	| .[] | gsub("\\s+"; " ") | gsub("\\$jobid"; "501") | gsub("\\$__range"; "1h")' "$DASH")
check "dashboard has queries" '[ "${#QUERIES[@]}" -ge 10 ]'

KEYWORDS=" and or unless bool offset by without on ignoring group_left group_right inf nan "
# metrics EXPR: the series names it selects.
metrics() {
	local e=$1 m
	if [[ $e =~ ^label_values\(([A-Za-z_:][A-Za-z0-9_:]*) ]]; then echo "${BASH_REMATCH[1]}"; return; fi
	e=$(sed -E 's/"([^"\\]|\\.)*"//g; s/\{[^}]*\}//g; s/\[[^]]*\]//g; s/\b(by|without|on|ignoring|group_left|group_right) *\([^)]*\)//g' <<<"$e")
	grep -oE '[A-Za-z_:][A-Za-z0-9_:]* *\(?' <<<"$e" | while read -r m; do
		[[ $m == *"(" ]] && continue
		[[ $KEYWORDS == *" $m "* ]] && continue
		echo "$m"
	done | sort -u
}
# labels EXPR: the label names it selects on or groups by.
labels() {
	local e=$1
	if [[ $e =~ ^label_values\([^,]*,\ *([A-Za-z_][A-Za-z0-9_]*)\) ]]; then echo "${BASH_REMATCH[1]}"; return; fi
	{
		grep -oE '[A-Za-z_][A-Za-z0-9_]* *(=~|!~|!=|=) *"' <<<"$e" | grep -oE '^[A-Za-z_][A-Za-z0-9_]*'
		grep -oE '\b(by|without|on|ignoring|group_left|group_right) *\([^)]*\)' <<<"$e" |
			sed -E 's/^[a-z_]+ *\(//; s/\)$//' | tr ',' '\n' | tr -d ' '
	} | grep . | sort -u
}
# matchers EXPR: "name op value" for every positive matcher (= and =~).
matchers() {
	grep -oE '[A-Za-z_][A-Za-z0-9_]* *=~? *"([^"\\]|\\.)*"' <<<"$1" |
		sed -E 's/^([A-Za-z_0-9]+) *(=~?) *"(.*)"$/\1 \2 \3/'
}

for q in "${QUERIES[@]}"; do
	ms=$(metrics "$q")
	[ -n "$ms" ] || { fail "query names a metric: $q"; continue; }
	# The samples of the query's metrics: its labels must be on them.
	rows=""
	bad=""
	for m in $ms; do
		r=$(grep -E "^$m\{" <<<"$SAMPLES")
		[ -n "$r" ] || bad="$bad metric $m has no sample;"
		rows+=$r$'\n'
	done
	for l in $(labels "$q"); do
		grep -qE "[{,]$l=\"" <<<"$rows" || bad="$bad label $l not on ${ms//$'\n'/,};"
	done
	while read -r l op v; do
		[ -n "$l" ] || continue
		vals=$(grep -oE "[{,]$l=\"[^\"]*\"" <<<"$rows" | sed -E 's/^.[^=]*="(.*)"$/\1/' | sort -u)
		if [ "$op" = "=" ]; then
			grep -qxF -- "$v" <<<"$vals" || bad="$bad $l=\"$v\" on no sample;"
		elif [[ $v =~ ^[A-Za-z0-9_|]+$ ]]; then
			# a list of names: each must exist (a misspelt one would match nothing, silently)
			for alt in ${v//|/ }; do grep -qxF -- "$alt" <<<"$vals" || bad="$bad $l=~ alternative $alt on no sample;"; done
		else
			grep -qxE -- "$v" <<<"$vals" || bad="$bad $l=~\"$v\" matches no sample;"
		fi
	done < <(matchers "$q")
	if [ -z "$bad" ]; then pass "in the exposition: $q"; else fail "in the exposition: $q" "$bad"; fi
done

# Every panel reads a job's series over the dashboard's time range, not at
# its end only: a job's series end when its .prom file leaves node_exporter,
# and an instant query of the bare series shows nothing for a job older than
# that.  (The node panels read series replaced at every run, roce-report
# --nodes' and the health check's: they show the node now, or over time.)
bare=""
while read -r q; do
	rest=$(sed -E 's/last_over_time\([A-Za-z_:][A-Za-z0-9_:]*(\{[^}]*\})?\[\$__range\]\)//g' <<<"$q")
	[ -z "$(metrics "$rest" | grep '^roce_job_')" ] || bare="$bare$q"$'\n'
done < <(jq -r '.panels[].targets[].expr | gsub("\\s+"; " ")' "$DASH")
is "$bare" "" "every panel query reads a job's series with last_over_time(...[\$__range]): past jobs show"

# The lexer above must see a wrong name: the old label and a misspelt counter.
check "a query with the old job label is caught" '[ -n "$(labels "roce_job_verdict{job=\"501\"}")" ] &&
	! grep -qE "[{,]job=\"" <<<"$SAMPLES"'
check "a misspelt metric would be caught" '[ "$(metrics "sum by (node) (roce_job_port_counter_deltas{counter=\"x\"}) / on (node) roce_job_seconds")" = "roce_job_port_counter_deltas
roce_job_seconds" ]'

done_testing
