#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# GPU locality with GPUs that Slurm itself allocates: a one-node lab whose
# node declares 4 GPUs as gres (gres.conf File= plain files: Slurm 22.05 only
# checks that they are character devices: mknod'ed, never opened), the project's two-socket topology (TopologyFile=) and fixture
# HCAs at its PCI addresses.  Job A holds GPU 0; job B asks for one GPU, gets
# GPU 1 from Slurm, and must get GPU 1's nearest NICs (mlx5_0, mlx5_1 through
# the host bridge: GdrLevel=PHB lets them count).
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"

spank_need_lab
spank_need_two_socket
spank_workdir spank-gres
spank_two_socket_fabric
echo GdrLevel=PHB >>"$W/roce.conf"

spank_lab_init
# Slurm 22.05 wants character devices ("is not a valid character or block
# device"); nodes with NVIDIA's major 195 that nothing ever opens will do.
for i in 0 1 2 3; do mknod "$LAB/gpu$i" c 195 "$i" || skip_all "cannot mknod in $LAB"; done
printf 'Name=gpu File=%s/gpu[0-3]\n' "$LAB" >"$LAB/gres.conf"
LAB_EXTRA_CONF="GresTypes=gpu"
LAB_NODE_EXTRA="Gres=gpu:4"
lab_node node1 "$FAB" eth0=9000 eth1=9000 eth2=9000 eth3=9000
spank_lab_start

show='echo "GPUS=${SLURM_STEP_GPUS:-none} HCA=${NCCL_IB_HCA:-none} GDR=${NCCL_NET_GDR_LEVEL:-none}"'
out=$(lab_run_timeout "$LAB_STEP_TIMEOUT" srun --gres=gpu:1 --roce sh -c "$show" 2>>"$W/err")
is "$out" "GPUS=0 HCA==mlx5_0:1,mlx5_1:1 GDR=PIX" "gres GPU 0: Slurm sets SLURM_STEP_GPUS before the plugin runs; GPU 0's PIX NIC pair"

# job A must hold GPU 0 before B asks: wait until it runs (a slow node may
# take a while), and let it live long enough for every step below
jobA=$(lab_run sbatch --parsable --gres=gpu:1 -o /dev/null --wrap 'sleep 600')
lab_wait_job_state "$jobA" RUNNING ||
	echo "# job A ($jobA) not RUNNING: $(lab_run squeue -h -j "$jobA" -o '%T %r' 2>&1)"
out=$(lab_run_timeout "$LAB_STEP_TIMEOUT" srun --gres=gpu:1 --roce sh -c "$show" 2>>"$W/err")
is "$out" "GPUS=1 HCA==mlx5_0:1,mlx5_1:1 GDR=PHB" "job given GPU 1 by Slurm: that GPU's NICs (PHB), level PHB"
out=$(lab_run_timeout "$LAB_STEP_TIMEOUT" srun --gres=gpu:2 --roce sh -c "$show" 2>>"$W/err")
is "$out" "GPUS=1,2 HCA==mlx5_0:1,mlx5_1:1,mlx5_3:1 GDR=PHB" "GPUs 1,2: GPU 1's NICs, then GPU 2's PIX NIC; the worst best path"
out=$(lab_run_timeout "$LAB_STEP_TIMEOUT" srun --gres=gpu:1 --roce=off sh -c "$show" 2>>"$W/err")
is "$out" "GPUS=1 HCA=none GDR=none" "--roce=off with a GPU: nothing exported"
lab_run scancel "$jobA"
lab_wait_job "$jobA"   # its slurmstepd has exited: its sanitizer reports are written
spank_sanitizer_check
[ "$_tap_failed" = 0 ] || { echo "# stderr of the steps:"; sed 's/^/# /' "$W/err"; }
done_testing
