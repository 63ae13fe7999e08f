#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The health check's link-quality trend: roce-check --health runs twice on a
# fixture sysfs tree whose counters change in between, as the kernel's would
# (fabric.sh), keeping its state in StateDir.  Grown counters flag the port
# naming the counter and its growth (warn by default; Trend=fail leaves the
# port out and drains); a 32-bit wrap and a reset are not growth; a flap that
# settles clears after TrendWindow; a manual run does not move the baseline;
# roce_port_counter_growth in the exposition.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"

command -v jq >/dev/null || skip_all "needs jq"
netns_setup trend 2
R=$T/sys
fab_example "$R" 2
STATE=$T/state
printf 'StateDir=%s\nTimeoutMs=20000\n' "$STATE" >"$T/roce.conf"
# check ARGS...: roce-check in the namespace; $out, $err, $rc
check_run() {
	out=$(ip netns exec "$NS" "$top_builddir/prolog/roce-check" --config "$T/roce.conf" --sysfs-root "$R" \
		--node gpu01 "$@" 2>"$T/err")
	rc=$?
	err=$(cat "$T/err")
}
counter() { fab_counter "$R" "$1" 1 "$2" "$3" "$4"; }
trend_lines() { grep -E 'counter_trend' <<<"$out"; }

# --- the first run takes the baseline
counter mlx5_0 counters symbol_error 500
counter mlx5_0 hw_counters local_ack_timeout_err 4294967290
counter mlx5_1 counters link_downed 3
check_run --health
is "$rc" 0 "first --health run: exit 0"
is "$(trend_lines)" "" "first run: no trend yet (baselines only)"
is "$err" "" "first run: nothing on stderr"
is "$(stat -c %a "$STATE/trend.json" 2>/dev/null)" 600 "the state is in StateDir/trend.json, root's alone"
is "$(jq -r '.ports[] | select(.device == "mlx5_0") | .counters.symbol_error.value' "$STATE/trend.json")" 500 \
	"the state holds symbol_error's baseline"
is "$(jq -r '.ports[0].counters | has("port_xmit_data")' "$STATE/trend.json")" false "traffic counters are not kept"

# --- symbol_error grows by 120; a 32-bit Q counter wraps; link_downed is reset (driver reload)
counter mlx5_0 counters symbol_error 620
counter mlx5_0 hw_counters local_ack_timeout_err 5
counter mlx5_1 counters link_downed 0
check_run --health
is "$rc" 0 "grown counter, Trend=warn (the default): --health exit 0 (nothing drains)"
like "$(trend_lines)" "^WARN +counter_trend +mlx5_0:1 +mlx5_0 port 1: link-quality counters grew between health checks within 3600 s: symbol_error \+120 \(threshold 10\): a failing cable" \
	"the port is flagged, naming the counter, its growth and threshold"
is "$(trend_lines | wc -l)" 1 "the wrap of local_ack_timeout_err and the reset of link_downed are not growth"
check_run --format prometheus
is "$(grep -c '^roce_port_counter_growth' <<<"$out")" 0 "without --health (a manual run): no trend in the exposition"
before=$(cat "$STATE/trend.json")
check_run
is "$(cat "$STATE/trend.json")" "$before" "a manual run does not move the baseline"
is "$(trend_lines)" "" "a manual run shows no trend"
check_run --health --format prometheus
like "$out" '^roce_port_counter_growth\{node="gpu01",device="mlx5_0",port="1",counter="symbol_error"\} 120$' \
	"--format prometheus: roce_port_counter_growth of symbol_error is 120"
like "$out" '^roce_port_counter_growth\{node="gpu01",device="mlx5_0",port="1",counter="local_ack_timeout_err"\} 0$' \
	"--format prometheus: the wrapped counter is 0"
like "$out" '^roce_port_counter_growth\{node="gpu01",device="mlx5_1",port="1",counter="link_downed"\} 0$' \
	"--format prometheus: the reset counter is 0"
like "$out" '^roce_health_finding\{node="gpu01",device="mlx5_0",port="1",check="counter_trend",subject="mlx5_0:1",status="warn",hardware="0"\} 1$' \
	"--format prometheus: the counter_trend finding"
check_run --health --format json
is "$(jq -r '.check.findings[] | select(.check == "counter_trend") | .status' <<<"$out")" warn "--format json: the finding, warn"

# --- Trend=fail: the port is left out and the node drains
check_run --health --set Trend=fail
is "$rc" 1 "Trend=fail: --health exit 1 (the node would drain)"
like "$(trend_lines)" "^FAIL +counter_trend +mlx5_0:1" "Trend=fail: the finding fails"
check_run --set Trend=fail --health --format json
is "$(jq -r .check.summary.drain_reason <<<"$out")" "roce: mlx5_0 port 1 symbol_error +120" "Trend=fail: the drain reason names the port, counter and growth"
is "$(jq -r '.check.ports[] | select(.device == "mlx5_0") | .healthy' <<<"$out")" false "Trend=fail: the port is left out"
check_run --set Trend=ignore --health
is "$(trend_lines)" "" "Trend=ignore: no trend"

# --- a flap that settles clears after the window (TrendWindow=3: real
# seconds; a StateDir of its own, so that the window starts here)
W="--set TrendWindow=3 --set StateDir=$T/state2"
check_run --health $W
is "$(trend_lines)" "" "a new StateDir: baselines"
counter mlx5_0 counters symbol_error 740
check_run --health $W
like "$(trend_lines)" "symbol_error \+120" "it flaps: flagged"
check_run --health $W
like "$(trend_lines)" "symbol_error \+120" "quiet, within the window: still flagged"
sleep 3.1
check_run --health $W
is "$(trend_lines)" "" "quiet for the whole window: cleared"
counter mlx5_0 counters symbol_error 745
check_run --health $W
is "$(trend_lines)" "" "5 more (below the threshold of 10): not flagged"
counter mlx5_0 counters symbol_error 751
check_run --health $W
like "$(trend_lines)" "symbol_error \+11 \(threshold 10\)" "growth adds up within the window: 11 flags it"

# --- thresholds from roce.conf
counter mlx5_1 counters link_error_recovery 1
check_run --health --set TrendCounters=link_error_recovery:2
is "$(trend_lines)" "" "TrendCounters=link_error_recovery:2: symbol_error is no longer tracked, one recovery is below 2"
check_run --health --set TrendCounters=port_xmit_data:1
is "$rc" 2 "TrendCounters naming a traffic counter: a configuration error"
like "$err" 'TrendCounters' "the error names the key"

# --- a state file that is not ours: said, a new baseline
echo '{"schema": "slurm-roce/trend/1", "time_s": "x", "ports": []}' >"$STATE/trend.json"
check_run --health
is "$rc" 0 "an unreadable state: exit 0"
like "$err" "trend.json: .*time_s.*a new baseline is taken" "an unreadable state: said on stderr"
check_run --health
is "$err" "" "the baseline was written again: nothing said the next time"
done_testing
