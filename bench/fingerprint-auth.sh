#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/fingerprint-auth.sh - what it would cost to sign each node's
# fingerprint with MUNGE and have srun check its origin address against the
# node's NodeAddr (issue 29, item 6; the decision and these figures are in
# docs/threat-model.md and roce.conf(5), SharedDir):
#  - a private munged (its own key and socket): NODES (default "1024 4096
#    16384") fingerprint-sized credentials encoded (the prologs, once per
#    job) and decoded (srun, at each step of a job on that many nodes);
#    what a second decode of one credential (the job's next step) answers;
#  - a private slurmctld (own network namespace, TEST-NET addresses, the same munged) with that
#    many nodes configured: `scontrol -o show nodes`, the node addresses
#    srun would ask for at each step, median of RUNS (3).
# Needs root (a network namespace), munged, mungekey, slurmctld, scontrol.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-3}
for c in munged mungekey slurmctld scontrol unshare ip; do
	command -v "$c" >/dev/null || { echo "needs $c"; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "needs root"; exit 1; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs; $(munged -V 2>&1 | head -1); $(slurmctld -V)"
T=$(mktemp -d)
chmod 755 "$T"
cleanup() {
	local pid
	if [ -s "$T/munged.pid" ] && pid=$(cat "$T/munged.pid") && kill "$pid" 2>/dev/null; then
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done   # it writes its seed file
	fi
	rm -rf "$T"
}
trap cleanup EXIT
${CC:-cc} -O2 -o "$T/auth" "$top/bench/fingerprint-auth.c" -ldl || { echo "cannot build fingerprint-auth.c"; exit 1; }
mungekey -c -k "$T/munge.key" >/dev/null 2>&1 && chmod 600 "$T/munge.key"
munged --key-file="$T/munge.key" --socket="$T/munge.sock" --pid-file="$T/munged.pid" \
	--log-file="$T/munged.log" --seed-file="$T/munged.seed" || { echo "munged did not start"; exit 1; }
# a fingerprint of 8 rails as the prolog writes it is about 640 bytes
echo
echo "# MUNGE: one credential per node's fingerprint"
for n in ${NODES:-1024 4096 16384}; do
	"$T/auth" "$T/munge.sock" "$n" 640 | sed 's/^/  /'
done

echo
echo "# slurmctld: every node's address (scontrol -o show nodes), median of $RUNS"
for n in ${NODES:-1024 4096 16384}; do
	S=$T/ctld-$n
	mkdir -p "$S/state"
	cat >"$S/slurm.conf" <<CONF
ClusterName=bench
SlurmctldHost=localhost(192.0.2.1)
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge.sock
CredType=cred/munge
StateSaveLocation=$S/state
SlurmctldPidFile=$S/slurmctld.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdSpoolDir=$S/spool
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
NodeName=gpu[1-$n] NodeAddr=192.0.2.2 CPUs=1 State=UNKNOWN
PartitionName=p Nodes=ALL Default=YES
CONF
	SLURM_CONF=$S/slurm.conf unshare -n bash -c '
		ip link set lo up
		# an address besides loopback (getaddrinfo with AI_ADDRCONFIG ignores lo)
		ip link add d0 type veth peer name d1 && ip addr add 192.0.2.1/24 dev d0 && ip link set d0 up && ip link set d1 up
		slurmctld -D -f "$SLURM_CONF" >/dev/null 2>&1 &
		pid=$!
		for _ in $(seq 300); do scontrol ping >/dev/null 2>&1 && break; sleep 0.1; done
		got=$(scontrol -o show nodes 2>/dev/null | wc -l)
		ms=()
		for _ in $(seq '"$RUNS"'); do
			t0=$(date +%s%N); scontrol -o show nodes >/dev/null 2>&1; t1=$(date +%s%N)
			ms+=($(( (t1 - t0) / 1000000 )))
		done
		kill "$pid"; wait "$pid" 2>/dev/null
		printf "  nodes %s (listed %s): %s ms\n" '"$n"' "$got" "$(printf "%s\n" "${ms[@]}" | sort -n | sed -n "$(( ('"$RUNS"' + 1) / 2 ))p")"
	'
done
