# SPDX-License-Identifier: GPL-2.0-or-later
# slurmlab.sh - a throwaway real Slurm cluster (22.05 and later) for tests.
#
# Source it (bash), then:
#   lab_init DIR                      scratch dir (made if missing); starts munged
#   lab_node NAME FIXTURE [NETDEV=MTU...]
#                                     declare a node: its sysfs fixture root (written with
#                                     tests/lib/fabric.sh; "" = no RDMA devices) and the real
#                                     veth netdevs to create in its network namespace
#   lab_plugstack LINE...             plugstack.conf lines (rewritten on every call; steps
#                                     read it at launch, so no restart is needed)
#   (LAB_EXTRA_CONF: more slurm.conf lines; LAB_NODE_EXTRA: more words on every NodeName line;
#   LAB_AUTHINFO: more AuthInfo= options, e.g. cred_expire=10: how long a requeued job waits)
#   lab_node_extra NAME WORDS...      more words on NAME's NodeName line only (e.g. Weight=1),
#                                     after LAB_NODE_EXTRA's; call after lab_node, before lab_start
#   (LAB_CEPH_MNT=PATH, after tests/lib/ceph.sh's ceph_start: every node's slurmd gets its
#   own ceph-fuse client of that CephFS, mounted at PATH in the node's mount namespace, as
#   a real node has its own client and cache; mount the test's own one there after
#   lab_start, and ceph_stop after lab_stop)
#   lab_start                         write slurm.conf, start slurmctld and every slurmd,
#                                     wait until all nodes are idle
#   lab_run CMD...                    run a Slurm client (srun, sbatch, sinfo...) against the lab
#   lab_run_timeout SECONDS CMD...    the same, killed after SECONDS
#   lab_node_exec NODE CMD...         run CMD inside the node (its /sys view and netns)
#   lab_mtu NODE NETDEV MTU           change one node's netdev MTU live
#   lab_node_state NODE / lab_node_reason NODE
#   lab_node_settled NODE [SECONDS]   the node's state once no job runs or completes on it
#   lab_resume NODE [SECONDS]         undrain, wait until idle (fails, saying so, if not)
#   lab_wait_job JOBID [SECONDS]      wait until the job left the queue (its epilog is done)
#   lab_wait_job_state JOBID STATE [SECONDS]
#                                     wait until squeue shows the job in STATE (e.g. RUNNING)
#   lab_poll SECONDS CMD...           run CMD every 0.1 s until it succeeds (1 if it never did)
#   lab_wait_file PATH [SECONDS] / lab_wait_log FILE ERE [SECONDS]
#                                     wait for a file, or for a line in a daemon's log
#   Waits default to LAB_WAIT (120 s): generous, as CI runs on a slow, loaded
#   2-core machine (and ASan slows the daemons); they end as soon as the
#   condition holds, so the cap costs nothing when things go well.
#   lab_restart_slurmd NODE           (plugins with job_prolog are only seen by a new slurmd)
#   lab_sanitize PLUGIN               if PLUGIN was built with ASan/UBSan, preload their
#                                     runtimes into slurmd, slurmstepd and the clients
#                                     (call before lab_start); lab_sanitizer_reports
#                                     prints what they found (nothing = clean)
#   lab_user_add                      a throwaway user with a real shell and a home in the
#                                     lab: LAB_USER, LAB_UID, LAB_GID, and LAB_AS_USER, the
#                                     words that run a command as that user (a client run as
#                                     `lab_run "${LAB_AS_USER[@]}" srun ...` submits as that
#                                     user: `srun --uid` is gone in 24.11, and 26.05 holds a
#                                     job whose user's login environment cannot be read,
#                                     as with nobody's nologin shell); lab_stop removes it
#   lab_logs                          print the daemon logs (for failed tests)
#   lab_stop                          stop everything lab_start started, delete the namespaces
#
# Layout: every node and the controller live in their own network namespace
# (the root namespace's firewall may drop TCP to namespaces), joined by a
# bridge in the controller's namespace on 198.51.100.0/24.  Each node's slurmd
# runs in a private mount namespace where /sys is a view built from a fresh
# sysfs of the node's network namespace (so /sys/class/net is the node's real
# veths) plus the fixture's class/infiniband, devices/pci* and module trees:
# code under test reads the production paths.  Fixture files stay live: a
# test may flip a port state between steps without restarting anything.
# Everything is named after LAB_ID so that several labs can run at once.

LAB_LIB=${BASH_SOURCE[0]}
. "$(dirname "$LAB_LIB")/poll.sh"
LAB_NET=198.51.100

lab_die() { echo "slurmlab: $*" >&2; return 1; }

# lab_can_run: 0 if this machine can host a lab (root, Slurm daemons, netns), else prints why.
lab_can_run() {
	[ "$(id -u)" = 0 ] || { echo "needs root"; return 1; }
	local c
	for c in slurmctld slurmd srun sbatch munged mungekey ip nsenter unshare; do
		command -v "$c" >/dev/null 2>&1 || { echo "$c not installed (scripts/deps)"; return 1; }
	done
	return 0
}

# rl<pid>, or rl<pid>x<k> when a lab killed before its cleanup left
# namespaces under that name (pids come round again: pid_max is 32768).
lab__free_id() {
	local id=rl$$ k=0
	while [ -e "/run/netns/${id}c" ]; do
		k=$((k + 1)); id=rl$$x$k
	done
	echo "$id"
}

lab_init() {
	LAB=$(mkdir -p "$1" && cd "$1" && pwd) || return 1
	LAB_ID=${LAB_ID:-$(lab__free_id)}
	LAB_NODES=()
	LAB_HOST=$(hostname -s)
	LAB_STARTED=0
	export SLURM_CONF=$LAB/slurm.conf
	mkdir -p "$LAB"/{munge,state,spool,log,run} || return 1
	chmod 755 "$LAB" "$LAB/munge"
	: >"$LAB/plugstack.conf"
	rm -f "$LAB/munge/munge.key"
	mungekey -c -k "$LAB/munge/munge.key" >/dev/null 2>&1 || return 1
	chmod 600 "$LAB/munge/munge.key"
	munged --key-file="$LAB/munge/munge.key" --socket="$LAB/munge/munge.socket.2" \
		--pid-file="$LAB/munge/munged.pid" --log-file="$LAB/munge/munged.log" \
		--seed-file="$LAB/munge/munged.seed" || lab_die "munged failed to start"
}

# lab_node NAME FIXTURE [NETDEV=MTU...]
lab_node() {
	local name=$1 fixture=$2; shift 2
	[[ $name =~ ^[a-z][a-z0-9]*$ ]] || { lab_die "bad node name '$name'"; return 1; }
	LAB_NODES+=("$name")
	printf '%s\n' "$fixture" >"$LAB/fixture.$name"
	printf '%s\n' "$@" >"$LAB/netdevs.$name"
	: >"$LAB/extra.$name"
}

lab_node_extra() {
	local name=$1; shift
	[ -f "$LAB/extra.$name" ] || { lab_die "lab_node_extra: no node '$name'"; return 1; }
	printf '%s\n' "$*" >"$LAB/extra.$name"
}

lab_plugstack() {
	printf '%s\n' "$@" >"$LAB/plugstack.conf"
}

lab_ns_ctl() { echo "${LAB_ID}c"; }
lab_ns_node() { echo "${LAB_ID}$1"; }

lab_write_conf() {
	local i=0 n
	cat >"$LAB/slurm.conf" <<EOF
ClusterName=lab
SlurmctldHost=$LAB_HOST($LAB_NET.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$LAB/munge/munge.socket.2${LAB_AUTHINFO:+,$LAB_AUTHINFO}
CredType=cred/munge
StateSaveLocation=$LAB/state
SlurmdSpoolDir=$LAB/spool/%n
SlurmctldPidFile=$LAB/run/slurmctld.pid
SlurmdPidFile=$LAB/run/slurmd.%n.pid
SlurmctldLogFile=$LAB/log/slurmctld.log
SlurmdLogFile=$LAB/log/slurmd.%n.log
SlurmdDebug=${LAB_SLURMD_DEBUG:-debug}
SlurmctldDebug=info
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
# A loaded test machine (two sanitizer-built labs on two cores) can take more
# than the default 60 s to reap a killed step; Slurm would then drain the
# node "Kill task failed" and every later check in that lab would fail.
UnkillableStepTimeout=180
PlugStackConfig=$LAB/plugstack.conf
${LAB_EXTRA_CONF:-}
EOF
	for n in "${LAB_NODES[@]}"; do
		i=$((i + 1))
		echo "NodeName=$n NodeAddr=$LAB_NET.$((10 + i)) NodeHostname=$LAB_HOST CPUs=2 State=UNKNOWN ${LAB_NODE_EXTRA:-} $(cat "$LAB/extra.$n")" >>"$LAB/slurm.conf"
	done
	echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES" >>"$LAB/slurm.conf"
}

lab_make_net() {
	local ctl i=0 n ns nd mtu k
	ctl=$(lab_ns_ctl)
	ip netns add "$ctl" || return 1
	ip -n "$ctl" link set lo up
	ip -n "$ctl" link add br0 type bridge
	ip -n "$ctl" addr add "$LAB_NET.1/24" dev br0
	ip -n "$ctl" link set br0 up
	for n in "${LAB_NODES[@]}"; do
		i=$((i + 1))
		ns=$(lab_ns_node "$n")
		ip netns add "$ns" || return 1
		ip -n "$ns" link set lo up
		# the Slurm network: ctl0 in the node, bridged in the controller's namespace
		ip -n "$ctl" link add "s$i" type veth peer name ctl0 netns "$ns" || return 1
		ip -n "$ctl" link set "s$i" master br0 up
		ip -n "$ns" addr add "$LAB_NET.$((10 + i))/24" dev ctl0
		ip -n "$ns" link set ctl0 up
		# the fabric netdevs the fixture names (eth0, eth1, ...): real veths with their MTU
		k=0
		while read -r nd; do
			[ -n "$nd" ] || continue
			mtu=${nd#*=}; nd=${nd%%=*}
			ip -n "$ctl" link add "f$i.$k" mtu "$mtu" type veth peer name "$nd" netns "$ns" mtu "$mtu" || return 1
			ip -n "$ctl" link set "f$i.$k" up
			ip -n "$ns" link set "$nd" up
			k=$((k + 1))
		done <"$LAB/netdevs.$n"
	done
}

# bus/ of the view when the fixture has PCI functions (bus/pci/devices/<bdf>
# links, tests/lib/fabric.sh fab_pci_fn): bus/pci/devices/ is a directory
# of links, the real ones copied and the fixture's added (each resolves in
# the view's devices/); every other entry of bus/ and bus/pci/ is the real
# one, bound.
lab__view_bus() {
	local s=$1 v=$2 fixture=$3 b p f
	for b in "$s"/bus/*; do
		b=${b##*/}
		if [ -d "$s/bus/$b" ]; then mkdir -p "$v/bus/$b"; else : >"$v/bus/$b"; fi
		if [ "$b" != pci ]; then
			mount --bind "$s/bus/$b" "$v/bus/$b" || return 1
			continue
		fi
		for p in "$s"/bus/pci/*; do
			p=${p##*/}
			if [ -d "$s/bus/pci/$p" ]; then mkdir -p "$v/bus/pci/$p"; else : >"$v/bus/pci/$p"; fi
			[ "$p" = devices ] || mount --bind "$s/bus/pci/$p" "$v/bus/pci/$p" || return 1
		done
		for f in "$s"/bus/pci/devices/*; do
			[ -L "$f" ] && { cp -P "$f" "$v/bus/pci/devices/" || return 1; }
		done
		for f in "$fixture"/bus/pci/devices/*; do
			[ -L "$v/bus/pci/devices/${f##*/}" ] && { lab_die "fixture bus/pci/devices/${f##*/} hides a real PCI function"; return 1; }
			cp -P "$f" "$v/bus/pci/devices/" || return 1
		done
	done
}

# Runs inside the node's network and (private) mount namespace, then execs slurmd.
# /sys becomes: every top-level entry of a fresh sysfs of this netns, except
# class/, devices/ and module/, which are merged with the fixture's, and bus/
# when the fixture has PCI functions (lab__view_bus).
lab__node_exec() {
	local name=$1 fixture=$2 s v e
	s=$LAB/$name/sysfs v=$LAB/$name/view
	mkdir -p "$s" "$v" "$LAB/$name/cgroup"
	mount --rbind /sys/fs/cgroup "$LAB/$name/cgroup" || return 1
	mount -t sysfs sysfs "$s" || return 1
	if [ -n "$fixture" ]; then
		mount -t tmpfs -o mode=755 labsys "$v" || return 1
		for e in "$s"/*; do
			e=${e##*/}
			mkdir "$v/$e"
			case $e in
			class | devices | module) ;;
			bus)
				if [ -d "$fixture/bus/pci/devices" ]; then
					lab__view_bus "$s" "$v" "$fixture" || return 1
				else
					mount --bind "$s/$e" "$v/$e" || return 1
				fi ;;
			*) mount --bind "$s/$e" "$v/$e" || return 1 ;;
			esac
		done
		for e in "$s"/class/* "$s"/devices/*; do
			mkdir -p "$v/${e#"$s"/}"
			mount --bind "$e" "$v/${e#"$s"/}" || return 1
		done
		if [ -d "$fixture/class/infiniband" ]; then
			mkdir -p "$v/class/infiniband"
			mount --bind "$fixture/class/infiniband" "$v/class/infiniband" || return 1
		fi
		for e in "$fixture"/devices/* "$fixture"/module/*; do
			[ -e "$e" ] || continue
			[ -e "$v/${e#"$fixture"/}" ] && { lab_die "fixture ${e#"$fixture"/} hides a real sysfs entry"; return 1; }
			mkdir -p "$v/${e#"$fixture"/}"
			mount --bind "$e" "$v/${e#"$fixture"/}" || return 1
		done
		mount --rbind "$v" /sys || return 1
	else
		mount --rbind "$s" /sys || return 1
	fi
	mount --rbind "$LAB/$name/cgroup" /sys/fs/cgroup || return 1
	# the node's own /etc/hosts when the test wrote one ($LAB/hosts.NODE; edit it in place)
	[ ! -f "$LAB/hosts.$name" ] || mount --bind "$LAB/hosts.$name" /etc/hosts || return 1
	[ -z "${LAB_PRELOAD:-}" ] || lab__preload_stepd "$name" || return 1
	[ -z "${LAB_CEPH_MNT:-}" ] || lab__ceph_client "$name" || return 1
	exec slurmd -N "$name"
}

# The node's own ceph-fuse client, in this (the node's) mount namespace but
# the host's network namespace, where the Ceph daemons listen on loopback.
# A slurmd restarted gets a new namespace: the client of the old one goes.
lab__ceph_client() {
	local name=lab-$1 old
	old=$(cat "$LAB_CEPH_DIR/run/fuse.$name.pid" 2>/dev/null) && kill -9 "$old" 2>/dev/null && lab_poll 10 lab_gone "$old"
	mkdir -p "$LAB_CEPH_MNT" || return 1
	nsenter --net="$LAB_HOST_NET" ceph-fuse -c "$LAB_CEPH_CONF" --id admin \
		--pid-file "$LAB_CEPH_DIR/run/fuse.$name.pid" --admin-socket "$LAB_CEPH_DIR/run/fuse.$name.asok" \
		--log-file "$LAB_CEPH_DIR/log/fuse.$name.log" "$LAB_CEPH_MNT" || return 1
	findmnt -n -M "$LAB_CEPH_MNT" -t fuse.ceph-fuse >/dev/null || { lab_die "$1: CephFS not mounted at $LAB_CEPH_MNT"; return 1; }
}

# slurmd runs `slurmstepd spank prolog|epilog` with a clean environment: in
# this node's mount namespace only, put a wrapper that adds the sanitizer
# runtimes in front of the real slurmstepd.
lab__preload_stepd() {
	local real w
	real=$(dirname "$(command -v slurmd)")/slurmstepd
	[ -x "$real" ] || { lab_die "no slurmstepd next to slurmd"; return 1; }
	w=$LAB/$1
	: >"$w/slurmstepd.real"
	mount --bind "$real" "$w/slurmstepd.real" || return 1
	cat >"$w/slurmstepd.wrap" <<WRAP
#!/bin/sh
export LD_PRELOAD='$LAB_PRELOAD'
export ASAN_OPTIONS='detect_leaks=0:verify_asan_link_order=0:log_path=$LAB/log/sanitizer'
export UBSAN_OPTIONS='print_stacktrace=1:log_path=$LAB/log/sanitizer'
exec '$w/slurmstepd.real' "\$@"
WRAP
	chmod 755 "$w/slurmstepd.wrap"
	mount --bind "$w/slurmstepd.wrap" "$real"
}


lab_start_slurmd() {
	local n=$1
	LAB_CEPH_MNT=${LAB_CEPH_MNT:-} LAB_CEPH_CONF=${CEPH_CONF:-} LAB_CEPH_DIR=${CEPH_DIR:-} LAB_HOST_NET=/proc/$$/ns/net \
		lab_env nsenter --net="/run/netns/$(lab_ns_node "$n")" unshare --mount --propagation private \
		bash -c '. "$1"; LAB=$2; LAB_PRELOAD=$5; lab__node_exec "$3" "$4"' slurmlab "$LAB_LIB" "$LAB" "$n" \
		"$(cat "$LAB/fixture.$n")" "${LAB_PRELOAD:-}" \
		>>"$LAB/log/start.$n.log" 2>&1 || { lab_die "slurmd on $n failed to start (see $LAB/log/start.$n.log)"; return 1; }
}

lab_start() {
	local n t
	[ "${#LAB_NODES[@]}" -gt 0 ] || { lab_die "no nodes"; return 1; }
	lab_write_conf
	lab_make_net || { lab_die "network setup failed"; return 1; }
	LAB_STARTED=1
	nsenter --net="/run/netns/$(lab_ns_ctl)" slurmctld -i || { lab_die "slurmctld failed"; return 1; }
	for n in "${LAB_NODES[@]}"; do
		lab_start_slurmd "$n" || return 1
	done
	lab_wait_idle "${LAB_WAIT:-120}"
}

# lab_wait_idle [SECONDS]: every node idle (or mixed/drained: just responding)
lab_wait_idle() {
	local max=${1:-${LAB_WAIT:-120}}
	lab_poll "$max" lab__all_idle || lab_die "nodes not idle after ${max}s: $LAB__STATES"
}
LAB__STATES=
lab__all_idle() {
	LAB__STATES=$(lab_run sinfo -h -N -o '%T' 2>/dev/null | sed 's/^planned$/idle/' | sort -u | tr '\n' ' ')
	[ "$LAB__STATES" = "idle " ]
}

# Environment for every process that may load the plugin.
lab_env() {
	if [ -n "${LAB_PRELOAD:-}" ]; then
		env LD_PRELOAD="$LAB_PRELOAD" \
			ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0:log_path=$LAB/log/sanitizer" \
			UBSAN_OPTIONS="print_stacktrace=1:log_path=$LAB/log/sanitizer" "$@"
	else
		"$@"
	fi
}

lab_run() {
	SLURM_CONF=$LAB/slurm.conf lab_env nsenter --net="/run/netns/$(lab_ns_ctl)" "$@"
}

# lab_run_timeout SECONDS CMD...: lab_run, killed after SECONDS (a queued srun waits forever)
# How long a test lets one srun/sbatch command run before killing it: only
# a guard against a hung job (a queued srun waits forever), so generous: a
# step on a loaded machine under a sanitizer build can take tens of seconds.
LAB_STEP_TIMEOUT=${LAB_STEP_TIMEOUT:-120}
lab_run_timeout() {
	local t=$1; shift
	timeout "$t" bash -c '. "$1"; LAB=$2; LAB_ID=$3; LAB_PRELOAD=$4; shift 4; lab_run "$@"' \
		slurmlab "$LAB_LIB" "$LAB" "$LAB_ID" "${LAB_PRELOAD:-}" "$@"
}

lab_sanitize() {
	LAB_PRELOAD=$(ldd "$1" 2>/dev/null | awk '/lib(a|ub)san\.so/ {printf "%s%s", sep, $3; sep=":"}')
	[ -n "$LAB_PRELOAD" ]
}

lab_sanitizer_reports() {
	cat "$LAB"/log/sanitizer.* 2>/dev/null
}

# lab_node_exec NODE CMD...: run CMD in the node's network and mount namespaces
# (it sees the node's /sys view and veths, as its slurmd does)
lab_node_exec() {
	local pid
	pid=$(cat "$LAB/run/slurmd.$1.pid" 2>/dev/null) || { lab_die "no slurmd pid for $1"; return 1; }
	shift
	nsenter -t "$pid" -n -m "$@"
}

lab_mtu() {
	ip -n "$(lab_ns_node "$1")" link set "$2" mtu "$3"
}

lab_node_state() { lab_run sinfo -h -n "$1" -N -o '%T' 2>/dev/null | head -1; }


lab__file_exists() { [ -e "$1" ]; }
lab__log_has() { grep -Eq -- "$2" "$1" 2>/dev/null; }
# lab_wait_file PATH [SECONDS]
lab_wait_file() { lab_poll "${2:-${LAB_WAIT:-120}}" lab__file_exists "$1"; }
# lab_wait_log FILE ERE [SECONDS]: slurmstepd may log after the client returned
lab_wait_log() { lab_poll "${3:-${LAB_WAIT:-120}}" lab__log_has "$1" "$2"; }

# A state the node may leave by itself: a job runs or completes on it, or it
# does not answer yet (a node is pinged after resume); "" if sinfo failed.
lab__state_transient() {
	case $1 in
	"" | *completing* | *'*' | mix* | alloc*) return 0 ;;
	esac
	return 1
}
# lab_node_settled NODE [SECONDS]: its state once no job runs or completes on
# it (drained stays drained: the caller judges it).  Prints the last state
# seen if it never settled.  "planned" is printed as idle: it is an idle node
# that the backfill scheduler had set aside for a job that waited (one queued
# while an earlier job was completing), and it keeps that flag until the next
# backfill cycle (up to bf_interval, 30 s) even when that job is long gone.
lab_node_settled() {
	local node=$1 end=$((SECONDS + ${2:-${LAB_WAIT:-120}})) st
	st=$(lab_node_state "$node")
	while lab__state_transient "$st" && [ "$SECONDS" -lt "$end" ]; do
		sleep 0.2; st=$(lab_node_state "$node")
	done
	[ "$st" = planned ] && st=idle
	echo "$st"
}
# What the daemons said went wrong with nodes and steps (a drain, a node not
# responding, a step that could not be killed or timed out), without the
# lab's start-up noise (no PMIx, no MailProg, no saved state): the first thing
# to read when a check fails on a loaded machine.
lab_trouble() {
	local f
	for f in "${LAB:-/nonexistent}"/log/slurmctld.log "${LAB:-/nonexistent}"/log/slurmd.*.log; do
		[ -f "$f" ] || continue
		grep -iE 'drain|kill task|not responding|error|timed out|cancel' "$f" |
			grep -vE 'pmix|MailProg|state file|backup state|xcpuinfo_hwloc' | tail -4 | cut -c1-300 |
			sed "s|^|${f##*/}: |"
	done
}
lab_node_reason() { lab_run sinfo -h -n "$1" -N -o '%E' 2>/dev/null | head -1; }
# lab_resume NODE [SECONDS]: undrain and wait until the node is idle again
# (a job still completing there keeps it busy; a resumed node is pinged
# first, "idle*", and refuses jobs meanwhile).  1, and a note on stderr, if not.
lab_resume() {
	local st
	lab_run scontrol update nodename="$1" state=resume >/dev/null 2>&1 || true
	st=$(lab_node_settled "$1" "${2:-${LAB_WAIT:-120}}")
	[ "$st" = idle ] && return 0
	echo "slurmlab: $1 not idle after resume: '$st'" >&2
	return 1
}

lab__job_gone() { [ -z "$(lab_run squeue -h -j "$1" -o %i 2>/dev/null)" ]; }
lab_wait_job() {
	# 300 s: a hang guard; a sanitizer-built lab on a loaded machine can take
	# minutes for a batch job with an inner step (120 s was seen to cut one short)
	local max=${2:-${LAB_JOB_WAIT:-300}}
	lab_poll "$max" lab__job_gone "$1" || lab_die "job $1 still queued after ${max}s"
}

# lab_wait_job_state JOBID STATE [SECONDS]: squeue's %T for the job is STATE
lab__job_in() { [ "$(lab_run squeue -h -j "$1" -o %T 2>/dev/null)" = "$2" ]; }
lab_wait_job_state() { lab_poll "${3:-${LAB_WAIT:-120}}" lab__job_in "$1" "$2"; }

lab_kill_pidfile() {
	local f=$1 pid
	[ -s "$f" ] || return 0
	pid=$(cat "$f")
	kill "$pid" 2>/dev/null || return 0
	lab_poll 5 lab_gone "$pid" || kill -9 "$pid" 2>/dev/null || true
}

lab_restart_slurmd() {
	lab_kill_pidfile "$LAB/run/slurmd.$1.pid"
	lab_start_slurmd "$1" && lab_wait_idle "${LAB_WAIT:-120}"
}

# Users are named after the PID of the test that made them: one left behind
# by a test killed with -9 is removed by the next lab_user_add.
lab_user_add() {
	local u pid t=0
	for u in $(getent passwd | sed -n 's/^\(slurmroce[0-9]*\):.*/\1/p'); do
		pid=${u#slurmroce}
		kill -0 "$pid" 2>/dev/null || userdel "$u" 2>/dev/null || true
	done
	LAB_USER=slurmroce$$
	mkdir -p "$LAB/home" || return 1
	# useradd locks /etc/passwd: another test may hold it for a moment
	until useradd --system --user-group --shell /bin/sh --home-dir "$LAB/home/$LAB_USER" \
		--create-home --comment "slurm-roce test" "$LAB_USER" 2>"$LAB/useradd.err"; do
		t=$((t + 1))
		[ "$t" -lt 50 ] || { lab_die "useradd $LAB_USER: $(cat "$LAB/useradd.err")"; return 1; }
		sleep 0.2
	done
	LAB_UID=$(id -u "$LAB_USER") && LAB_GID=$(id -g "$LAB_USER") || return 1
	LAB_AS_USER=(setpriv --reuid="$LAB_UID" --regid="$LAB_GID" --clear-groups --)
}

lab__user_del() {
	[ -n "${LAB_USER:-}" ] || return 0
	local t=0
	until userdel -f "$LAB_USER" 2>/dev/null || ! id "$LAB_USER" >/dev/null 2>&1; do
		t=$((t + 1)); [ "$t" -lt 50 ] || break; sleep 0.2
	done
	LAB_USER=
}

lab_logs() {
	local f
	for f in "$LAB"/log/*.log; do
		echo "==== $f"; tail -n "${1:-40}" "$f"
	done
}

lab_stop() {
	local n ns pid
	[ -n "${LAB:-}" ] || return 0
	if [ "${LAB_STARTED:-0}" = 1 ]; then
		for n in "${LAB_NODES[@]}"; do
			lab_kill_pidfile "$LAB/run/slurmd.$n.pid"
		done
		lab_kill_pidfile "$LAB/run/slurmctld.pid"
		# steps (slurmstepd and tasks) left in the namespaces we made
		for n in "${LAB_NODES[@]}"; do
			ns=$(lab_ns_node "$n")
			for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
			ip netns del "$ns" 2>/dev/null
		done
		ns=$(lab_ns_ctl)
		for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
		ip netns del "$ns" 2>/dev/null
		LAB_STARTED=0
	fi
	lab_kill_pidfile "$LAB/munge/munged.pid"
	lab__user_del
}
