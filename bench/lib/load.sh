# SPDX-License-Identifier: GPL-2.0-or-later
# bench/lib/load.sh - helpers of bench/load.sh (sourced; uses its W, ROCE, NODES,
# NODE_LIST, JOBS, STEPS, BURSTS, BASELINE, RESULTS and the slurmlab functions).

# load_proc_read PID: PF_FDS, PF_RSS, PF_HWM (kB) of a live process, with
# shell builtins only: the sampler reads every slurmstepd, 5 times a second.
load_proc_read() {
	local k v fds
	PF_RSS=0 PF_HWM=0
	fds=(/proc/"$1"/fd/*)
	[ -e "${fds[0]}" ] || fds=()
	PF_FDS=${#fds[@]}
	while read -r k v _; do
		case $k in VmRSS:) PF_RSS=$v ;; VmHWM:) PF_HWM=$v ;; esac
	done <"/proc/$1/status" 2>/dev/null
}

# load_proc_figures PID: "open-fds VmRSS-kB VmHWM-kB"
load_proc_figures() {
	load_proc_read "$1"
	echo "$PF_FDS $PF_RSS $PF_HWM"
}

load_slurmd_pid() { cat "$LAB/run/slurmd.$1.pid"; }

# load_set_phase NAME: samples taken from now on are tagged NAME
load_set_phase() { echo "$1" >"$W/phase.new" && mv -f "$W/phase.new" "$W/phase"; }   # the sampler never reads half a file

# One sample line per node:
#   PHASE NODE SLURMD_FDS SLURMD_RSS STEPDS MAX_STEPD_FDS MAX_STEPD_RSS SUM_STEPD_RSS
# slurmstepds belong to the node whose slurmd shares their network namespace
# (other labs on this machine have their own).
load_sample() {
	local n p pid phase f r
	local -A sd cnt mfd mrss srss
	phase=$(cat "$W/phase" 2>/dev/null)
	for n in "${NODE_LIST[@]}"; do
		sd[$n]=$(cat "$LAB/run/slurmd.$n.pid" 2>/dev/null)
		cnt[$n]=0 mfd[$n]=0 mrss[$n]=0 srss[$n]=0
	done
	for p in $(pgrep '^slurmstepd' 2>/dev/null); do
		for n in "${NODE_LIST[@]}"; do
			[ -n "${sd[$n]}" ] && [ "/proc/$p/ns/net" -ef "/proc/${sd[$n]}/ns/net" ] || continue
			load_proc_read "$p"
			f=$PF_FDS r=$PF_RSS
			[ "$r" -gt 0 ] 2>/dev/null || break   # gone meanwhile, or a zombie
			cnt[$n]=$((cnt[$n] + 1)); srss[$n]=$((srss[$n] + r))
			[ "$f" -gt "${mfd[$n]}" ] && mfd[$n]=$f
			[ "$r" -gt "${mrss[$n]}" ] && mrss[$n]=$r
			break
		done
	done
	for n in "${NODE_LIST[@]}"; do
		[ -n "${sd[$n]}" ] && [ -d "/proc/${sd[$n]}" ] || continue
		load_proc_read "${sd[$n]}"
		echo "$phase $n $PF_FDS $PF_RSS ${cnt[$n]} ${mfd[$n]} ${mrss[$n]} ${srss[$n]}"
	done
}

load_start_sampler() {
	local out=$1
	load_set_phase idle
	( trap 'exit 0' TERM; while :; do load_sample >>"$out"; sleep 0.2; done ) &
	SAMPLER=$!
}

load_stop_sampler() {
	[ -n "${SAMPLER:-}" ] || return 0
	kill "$SAMPLER" 2>/dev/null
	wait "$SAMPLER" 2>/dev/null
	SAMPLER=
}

# load_submit_array DIR COUNT: COUNT one-CPU batch jobs; each writes
# "JOBID NODE" to DIR/<array>_<task>.out
load_submit_array() {
	local dir=$1 count=$2 id
	mkdir -p "$dir"
	id=$(lab_run_timeout 60 sbatch --parsable $ROCE -N1 -n1 --array="0-$((count - 1))" \
		-o "$dir/%A_%a.out" --wrap 'echo "$SLURM_JOB_ID $SLURMD_NODENAME"') || return 1
	echo "$id" >>"$W/arrays"
}

# load_wait_queue_empty SECONDS
load_wait_queue_empty() {
	local end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$end" ]; do
		[ -z "$(lab_run squeue -h -o %i 2>/dev/null | head -1)" ] && return 0
		sleep 0.5
	done
	return 1
}

# load_wait_settled SECONDS: no node completing or allocated any more
load_wait_settled() {
	local end=$(($(date +%s) + $1)) st
	while [ "$(date +%s)" -lt "$end" ]; do
		st=$(lab_run sinfo -h -N -o %T 2>/dev/null | sort -u | tr '\n' ' ')
		case $st in *comp* | *alloc* | *mix* | "") ;; *) return 0 ;; esac
		sleep 0.2
	done
	return 1
}

# load_burst NODES STEPS DIR SECONDS: one allocation of NODES nodes, STEPS
# concurrent steps of NODES tasks in it (each task sleeps 2 s so that the
# sampler sees them all); prints how many steps had every task report.
load_burst() {
	local nodes=$1 steps=$2 dir=$3 secs=$4
	mkdir -p "$dir"
	load_set_phase "burst:$(basename "$dir")"
	lab_run_timeout "$secs" salloc -N"$nodes" $ROCE bash -c '
		echo "ALLOC $SLURM_JOB_ID $SLURM_JOB_NODELIST"
		for i in $(seq '"$steps"'); do
			srun --overlap -N'"$nodes"' -n'"$nodes"' sh -c "sleep 2; echo \"TASK \$SLURM_STEP_ID \$SLURMD_NODENAME \${NCCL_IB_HCA:-none}\"" &
		done
		wait' >"$dir/out" 2>"$dir/err"
	load_set_phase idle
	awk '/^TASK / {n[$2]++} END {for (s in n) if (n[s] == '"$nodes"') k++; print k + 0}' "$dir/out"
}

# "JOBID NODE" of every fragment the run should have produced
load_expected_fragments() {
	local f line id nl
	cat "$W"/jobs/*.out "$W"/warm/*.out 2>/dev/null | awk 'NF == 2'
	for f in "$W"/bursts/*/out; do
		line=$(grep -m1 '^ALLOC ' "$f") || continue
		read -r _ id nl <<<"$line"
		lab_run scontrol show hostnames "$nl" | sed "s/^/$id /"
	done
}

# "JOBID NAME" of everything found in ReportDir/<job>/
load_found_fragments() {
	local d e
	for d in "$W"/reports/*/; do
		[ -d "$d" ] || continue
		for e in "$d".[!.]* "$d"*; do
			[ -e "$e" ] || continue
			echo "$(basename "$d") $(basename "$e")"
		done
	done
}

# peak COLUMN [PHASE-GLOB]: largest value of a sample column
load_peak() {
	awk -v c="$1" -v ph="${2:-}" 'ph == "" || index($1, ph) == 1 { if ($c > m) m = $c } END { print m + 0 }' "$W/samples"
}

load_result() { # load_result KEY VALUE: print nothing, record for LOAD_RESULTS
	echo "$1=$2" >>"$RESULTS"
}

load_report() {
	local n b fails=0 exp found lost extra ran jobs_ran verdicts errors drained state_left
	: >"$RESULTS" 2>/dev/null || RESULTS=/dev/null
	# A burst cut by the deadline leaves jobs whose epilogs have not run yet:
	# count once they are gone (bounded), or one late job reads as a lost
	# fragment, a leftover snapshot and a busy node.
	for _ in $(seq 120); do [ -z "$(lab_run squeue -h 2>/dev/null)" ] && break; sleep 1; done
	echo
	echo "== slurmd (per node): open fds and VmRSS kB after warm-up (bef), after each half of the jobs (h1, h2),"
	echo "   after the bursts (aft), peak while sampling; growth from h1 to aft is what a leak would show"
	printf '%-6s %5s %5s %5s %5s %5s | %8s %8s %8s %8s %8s %8s\n' node fd.bef fd.h1 fd.h2 fd.aft fd.pk rss.bef rss.h1 rss.h2 rss.aft rss.pk hwm
	for n in "${NODE_LIST[@]}"; do
		read -r fb rb _ <"$W/before.$n"; read -r fa ra ha <"$W/after.$n"
		read -r f1 r1 _ <"$W/half1.$n" 2>/dev/null || { f1=$fb; r1=$rb; }
		read -r f2 r2 _ <"$W/half2.$n" 2>/dev/null || { f2=$f1; r2=$r1; }
		fp=$(awk -v n="$n" '$2 == n && $3 > m {m = $3} END {print m + 0}' "$W/samples")
		rp=$(awk -v n="$n" '$2 == n && $4 > m {m = $4} END {print m + 0}' "$W/samples")
		printf '%-6s %5s %5s %5s %5s %5s | %8s %8s %8s %8s %8s %8s\n' "$n" "$fb" "$f1" "$f2" "$fa" "$fp" "$rb" "$r1" "$r2" "$ra" "$rp" "$ha"
		load_result "slurmd_fd_growth_$n" $((fa - fb))
		load_result "slurmd_rss_growth_kb_$n" $((ra - rb))
		load_result "slurmd_rss_growth_after_h1_kb_$n" $((ra - r1))
	done

	echo
	echo "== slurmstepd during each phase (all nodes): peak concurrent, peak fds of one, peak RSS kB of one, peak RSS kB of all on a node"
	for b in $(awk '{print $1}' "$W/samples" | sort -u); do
		printf '%-12s %5s %5s %8s %9s\n' "$b" "$(load_peak 5 "$b")" "$(load_peak 6 "$b")" "$(load_peak 7 "$b")" "$(load_peak 8 "$b")"
	done
	first=$(awk '$1 ~ /^burst:[0-9]/ {print $1; exit}' "$W/samples")
	last=$(awk '$1 ~ /^burst:[0-9]/ {l = $1} END {print l}' "$W/samples")
	load_result stepd_peak_concurrent "$(load_peak 5 burst:)"
	load_result stepd_peak_fds "$(load_peak 6 burst:)"
	load_result stepd_peak_rss_kb "$(load_peak 7 burst:)"
	if [ -n "$first" ]; then
		load_result stepd_fds_first_burst "$(load_peak 6 "$first")"
		load_result stepd_fds_last_burst "$(load_peak 6 "$last")"
	fi

	echo
	jobs_ran=$(cat "$W"/jobs/*.out 2>/dev/null | awk 'NF == 2' | wc -l)
	echo "== jobs: $jobs_ran of $JOBS ran in ${JOBS_SECS}s ($(awk -v j="$jobs_ran" -v s="$JOBS_SECS" 'BEGIN {printf "%.1f", s ? j / s : 0}') jobs/s)"
	echo "== steps: $STEPS_OK of $((BURSTS * STEPS)) burst steps had all $NODES task(s) report; burst wall times:$BURST_SECS"
	load_result jobs_ran "$jobs_ran"
	load_result steps_ok "$STEPS_OK"
	[ "$jobs_ran" = "$JOBS" ] || { echo "FAIL: jobs lost"; fails=$((fails + 1)); }
	[ "$STEPS_OK" = $((BURSTS * STEPS)) ] || { echo "FAIL: burst steps failed (see $W/bursts/*/err)"; fails=$((fails + 1)); }
	if [ "$BASELINE" != 1 ]; then
		none=$(cat "$W"/bursts/[0-9]*/out 2>/dev/null | grep -c '^TASK .* none$')
		load_result steps_without_nccl "$none"
		[ "$none" = 0 ] || { echo "FAIL: $none burst tasks without NCCL_IB_HCA"; fails=$((fails + 1)); }
	fi

	load_expected_fragments | sort >"$W/expected"
	load_found_fragments | sed 's/\.json$//' | sort >"$W/found"
	exp=$(wc -l <"$W/expected"); found=$(wc -l <"$W/found")
	lost=$(comm -23 "$W/expected" "$W/found" | wc -l)
	extra=$(comm -13 "$W/expected" "$W/found" | wc -l)
	if [ "$BASELINE" = 1 ]; then
		echo "== reports: $found fragments (plugin off: none expected)"
	else
		echo "== reports: $found fragments for $exp (job, node) pairs: $lost lost, $extra unexpected (duplicates, temporaries, strangers)"
	fi
	load_result fragments_expected "$exp"; load_result fragments_found "$found"
	load_result fragments_lost "$lost"; load_result fragments_extra "$extra"
	if [ "$BASELINE" = 1 ]; then
		[ "$found" = 0 ] || { echo "FAIL: reports without the plugin?"; fails=$((fails + 1)); }
	elif [ "$lost" != 0 ] || [ "$extra" != 0 ]; then
		echo "FAIL: report mismatch; first lost: $(comm -23 "$W/expected" "$W/found" | head -3 | tr '\n' ';') first unexpected: $(comm -13 "$W/expected" "$W/found" | head -3 | tr '\n' ';')"
		fails=$((fails + 1))
	fi

	dead=""
	for n in "${NODE_LIST[@]}"; do
		kill -0 "$(load_slurmd_pid "$n")" 2>/dev/null || dead="$dead $n"
	done
	echo "== slurmd gone during the run:${dead:- none}"
	load_result slurmd_dead "$(wc -w <<<"$dead")"
	[ -z "$dead" ] || { echo "FAIL: slurmd died on$dead (see $LAB/log/slurmd.*.log)"; fails=$((fails + 1)); }

	state_left=0
	for n in "${NODE_LIST[@]}"; do
		[[ " $dead " == *" $n "* ]] && continue
		# the last good roce.conf (policy-HASH.conf) is node state, not a job's
		state_left=$((state_left + $(lab_node_exec "$n" ls -A "$W/state" | grep -vc '^policy-[0-9a-f]*\.conf$')))
	done
	echo "== StateDir entries left on the nodes (snapshots, markers): $state_left"
	load_result state_left "$state_left"
	[ "$state_left" = 0 ] || { echo "FAIL: StateDir not empty"; fails=$((fails + 1)); }

	verdicts=$(cat "$LAB"/log/slurmd.*.log | grep -c 'roce: node[0-9]*: job [0-9]* mode warn: ok')
	errors=$(cat "$LAB"/log/slurmd.*.log | grep -c 'error: roce')
	echo "== plugin: $verdicts step verdict lines (ok), $errors 'error: roce' lines in the slurmd logs"
	load_result plugin_errors "$errors"
	[ "$errors" = 0 ] || { echo "FAIL: plugin errors: $(cat "$LAB"/log/slurmd.*.log | grep -m3 'error: roce' | tr '\n' ';')"; fails=$((fails + 1)); }

	drained=$(lab_run sinfo -h -N -o '%N %T %E' | grep -ci drain)
	drained=$((drained + $(grep -ci drain "$LAB/log/slurmctld.log")))
	echo "== drained: $drained (nodes now: $(lab_run sinfo -h -N -o '%N=%T' | tr '\n' ' '))"
	load_result drained "$drained"
	[ "$drained" = 0 ] || { echo "FAIL: a node was drained"; fails=$((fails + 1)); }
	if [ -n "${LAB_PRELOAD:-}" ]; then
		san=$(lab_sanitizer_reports | wc -l)
		echo "== sanitizers: $san lines of ASan/UBSan reports from srun, slurmd, slurmstepd"
		load_result sanitizer_reports "$san"
		[ "$san" = 0 ] || { echo "FAIL: $(lab_sanitizer_reports | head -5)"; fails=$((fails + 1)); }
	fi
	echo "== total $(($(date +%s) - T0))s; $fails check(s) failed"
	load_result failed_checks "$fails"
	[ "$fails" = 0 ]
}
