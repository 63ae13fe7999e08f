#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The roce plugin's last source of the step's GPUs, CUDA_VISIBLE_DEVICES, in
# a real one-node Slurm with the project's two-socket topology (as
# spank-gpus.sh).  At init_post_opt slurmstepd has not set its per-task
# CUDA_VISIBLE_DEVICES yet: the value seen is the one the user exported
# (here through srun's environment), used only when neither SLURM_STEP_GPUS
# nor SLURM_JOB_GPUS is set.  Indexes and GPU UUIDs (mapped through a
# /proc/driver/nvidia tree mounted in the node's mount namespace); hostile
# values end in a warning and every healthy HCA.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
spank_need_lab
spank_need_two_socket
[ -d /proc/driver ] || skip_all "no /proc/driver to mount the NVIDIA driver's GPU list on"
plan 10
spank_workdir spank-cudavis
spank_two_socket_fabric
# The NVIDIA driver's view of GPU 2 (83:00.0), as /proc/driver/nvidia/gpus/<busid>/information has it.
U2=GPU-8c1d1a6e-3f5b-4a7e-9c2d-1b2c3d4e5f60
mkdir -p "$W/procdrv/nvidia/gpus/0000:83:00.0"
printf 'Model: \t\t NVIDIA A100-SXM4-40GB\nIRQ:   \t\t 160\nGPU UUID: \t %s\nVideo BIOS: \t 92.00.36.00.01\nBus Type: \t PCIe\nDMA Size: \t 47 bits\nDMA Mask: \t 0x7fffffffffff\nBus Location: \t 0000:83:00.0\nDevice Minor: \t 2\nGPU Excluded:\t No\n' \
	"$U2" >"$W/procdrv/nvidia/gpus/0000:83:00.0/information"
spank_lab_init
lab_node node1 "$FAB" eth0=9000 eth1=9000 eth2=9000 eth3=9000
spank_lab_start
# slurmd's mount namespace is private to the node: its steps see this /proc/driver
lab_node_exec node1 mount --bind "$W/procdrv" /proc/driver || { echo "Bail out! cannot mount /proc/driver in the node"; exit 1; }

# slurmd's log, from this step on (the messages with the details; the user gets one short line)
LOG=$W/log.step
nccl() {
	local at; at=$(wc -l <"$LAB/log/slurmd.node1.log")
	run srun "$@" sh -c 'echo "HCA=${NCCL_IB_HCA:-none} GDR=${NCCL_NET_GDR_LEVEL:-none}"'
	tail -n +"$((at + 1))" "$LAB/log/slurmd.node1.log" >"$LOG"
}
ALL="HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1 GDR=PXB"
unset SLURM_STEP_GPUS SLURM_JOB_GPUS CUDA_VISIBLE_DEVICES

nccl --roce --export=ALL,CUDA_VISIBLE_DEVICES=2
check "CUDA_VISIBLE_DEVICES=2 alone: GPU 2's PIX NIC mlx5_3, GDR level PIX" 'grep -qx "HCA==mlx5_3:1 GDR=PIX" $W/out'
nccl --roce --export=ALL,SLURM_STEP_GPUS=0,CUDA_VISIBLE_DEVICES=2
check "SLURM_STEP_GPUS=0 wins over CUDA_VISIBLE_DEVICES=2" 'grep -qx "HCA==mlx5_0:1,mlx5_1:1 GDR=PIX" $W/out'
nccl --roce --export=ALL,SLURM_JOB_GPUS=3,CUDA_VISIBLE_DEVICES=2
check "SLURM_JOB_GPUS=3 wins over CUDA_VISIBLE_DEVICES=2" 'grep -qx "HCA==mlx5_2:1 GDR=PIX" $W/out'
nccl --roce --export=ALL,CUDA_VISIBLE_DEVICES=$U2
check "CUDA_VISIBLE_DEVICES=<GPU 2's UUID>: mapped through /proc/driver/nvidia to mlx5_3" \
	'grep -qx "HCA==mlx5_3:1 GDR=PIX" $W/out'
nccl --roce --export=ALL,CUDA_VISIBLE_DEVICES=GPU-00000000-0000-0000-0000-000000000000
check "a UUID the driver does not list: every healthy HCA, the user is told the mapping is unknown (slurmd's log: which UUID)" \
	'grep -qx "$ALL" $W/out && [ "$(grep "roce:" $W/err)" = "roce: warning: node1: locality GPU mapping unknown" ] && grep -q "roce: node1: node locality warn (GPU mapping unknown): GPU mapping unknown: GPU-00000000-0000-0000-0000-000000000000 is not listed by the NVIDIA driver" $LOG'
nccl --roce --export=ALL,CUDA_VISIBLE_DEVICES=-1
check "CUDA_VISIBLE_DEVICES=-1 (CUDA's 'no GPU'): every healthy HCA, one warning naming it" \
	'grep -qx "$ALL" $W/out && [ $(grep -c "^roce: warning: node1: locality GPU list not understood$" $W/err) = 1 ] && grep -q "GPU list not understood.*\"-1\"" $LOG'
CUDA_VISIBLE_DEVICES=$'2\nLD_PRELOAD=/tmp/x.so' nccl --roce
check "CUDA_VISIBLE_DEVICES with a newline: refused, every healthy HCA, printed escaped (\\n)" \
	'grep -qx "$ALL" $W/out && grep -q "^roce: warning: node1: locality GPU list not understood" $W/err && grep -q "GPU list not understood.*\"2\\\\nLD_PRELOAD=/tmp/x.so\"" $LOG && ! grep -q "^LD_PRELOAD" $W/err $LOG'
CUDA_VISIBLE_DEVICES=$(printf '0,%.0s' $(seq 2500))0 nccl --roce
check "CUDA_VISIBLE_DEVICES of 5001 bytes: refused as too long, every healthy HCA" \
	'grep -qx "$ALL" $W/out && grep -q "^roce: warning: node1: locality GPU list not understood$" $W/err && grep -q "GPU list longer than 4096 bytes" $LOG'
CUDA_VISIBLE_DEVICES=$(printf '1,%.0s' $(seq 5000))1 nccl --roce
check "CUDA_VISIBLE_DEVICES beyond slurmstepd's buffer (10001 bytes): refused, not skipped" \
	'grep -qx "$ALL" $W/out && grep -q "^roce: warning: node1: locality GPU list not understood$" $W/err && grep -q "GPU list longer than 4096 bytes" $LOG'

spank_sanitizer_check
done_testing
