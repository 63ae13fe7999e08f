#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/report-verdicts.sh BUILDDIR [BEFORE_BUILDDIR] - one node's fragment
# with V distinct verdict codes on V/16 ports (VERDICTS, default "16384 32768
# 65536"; 16 per port, under the 27 a port's rules can give): the job report
# (roce-report JOBID, FORMATS default "text html"; grouping verdicts by code
# and, for the page, by port) and node health (roce-report --nodes: each
# verdict's port) timed, median of RUNS (3), both builds in turn (timeit.c:
# A B A B ...).  Issue 29: grouping was quadratic in the codes and --nodes
# cost verdicts x ports; both are linear now.  The template is a real
# roce-epilog fragment of an 8-port node.
set -u
B=${1:?usage: bench/report-verdicts.sh BUILDDIR [BEFORE_BUILDDIR]}
A=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib/fabric.sh"
RUNS=${RUNS:-3}
command -v jq >/dev/null || { echo "needs jq"; exit 1; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
${CC:-cc} -O2 -o "$T/timeit" "$top/bench/timeit.c" || { echo "cannot build bench/timeit.c"; exit 1; }

# --- the template: a real fragment
R=$T/sys8; mkdir -p "$R"; fab_example "$R" 8
printf 'ReportDir=%s\nStateDir=%s\n' "$T/tmpl" "$T/state" >"$T/roce.conf"
export SLURM_JOB_ID=777 SLURM_JOB_UID=0 SLURMD_NODENAME=tmpl
"$B/prolog/roce-prolog" --config "$T/roce.conf" --sysfs-root "$R"
"$B/prolog/roce-epilog" --config "$T/roce.conf" --sysfs-root "$R"
TEMPLATE=$T/tmpl/777/tmpl.json
[ -s "$TEMPLATE" ] || { echo "no template fragment"; exit 1; }

printf '\n%-9s %-6s %-11s %-14s %12s %12s %8s\n' verdicts ports "fragment" run "before ms" "after ms" speedup
for v in ${VERDICTS:-16384 32768 65536}; do
	p=$((v / 16))
	id=$((500000 + v))
	D=$T/r$v
	mkdir -p "$D/$id"
	# codes distinct, every 7th a packet_loss (a kind --nodes counts), subjects spread over the ports
	jq -c --argjson P "$p" --argjson V "$v" --arg id "$id" '
		.job_id = $id | .name = "gpu01" |
		.ports = [range($P) as $i | .ports[0] | .device = "mlx5_\($i)"] |
		.verdicts = [range($V) as $k | {code: (if $k % 7 == 0 then "packet_loss" else "code_\($k)" end),
			severity: (["info", "warn", "fail"][$k % 3]), subject: "mlx5_\(($k * 7919) % $P):1",
			message: "m \($k)", fix: "f \($k)"}]' "$TEMPLATE" >"$D/$id/gpu01.json"
	size=$(( $(wc -c <"$D/$id/gpu01.json") / 1024 ))
	for b in $B $A; do
		"$b/prolog/roce-report" "$id" --report-dir "$D" >/dev/null 2>"$T/err" ||
			{ echo "$b: job $id not reported: $(head -3 "$T/err")"; exit 1; }
	done
	run() { # LABEL ARGS...: both builds, in turn
		local label=$1 cmd=() out; shift
		[ -n "$A" ] && cmd=(before -- "$A/prolog/roce-report" "$@" ":::")
		cmd+=(after -- "$B/prolog/roce-report" "$@")
		out=$("$T/timeit" "$RUNS" "${cmd[@]}")
		local before after
		before=$(awk '$1 == "before" {print $3}' <<<"$out")
		after=$(awk '$1 == "after" {print $3}' <<<"$out")
		printf '%-9s %-6s %-11s %-14s %12s %12s %8s\n' "$v" "$p" "${size} KiB" "$label" "${before:--}" "$after" \
			"$([ -n "$before" ] && awk -v a="$before" -v b="$after" 'BEGIN {printf "%.0fx", a / b}')"
	}
	for fmt in ${FORMATS:-text html}; do
		run "report $fmt" "$id" --report-dir "$D" --format "$fmt"
	done
	run "--nodes" --nodes --report-dir "$D"
	rm -rf "$D"
done
