# SPDX-License-Identifier: GPL-2.0-or-later
# bench/lib/stats.sh - step timings of bench/launch.sh and bench/agree-launch.sh
# (sourced): one figure per line in a file, microseconds.

# median FILE, quart FILE Q (0.25, 0.75)
median() { sort -n "$1" | awk '{a[NR]=$1} END {m = NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; printf "%.3f", m}'; }
quart() { sort -n "$1" | awk -v q="$2" '{a[NR]=$1} END {i=int(NR*q); if (i<1) i=1; printf "%.3f", a[i]}'; }
# row NAME MEDIAN P25 P75: one line of the table, in ms
row() { awk -v n="$1" -v m="$2" -v a="$3" -v b="$4" 'BEGIN {printf "%-36s %10.2f %10.2f %10.2f\n", n, m/1000, a/1000, b/1000}'; }
# ms: now, in microseconds
ms() { echo $(( $(date +%s%N) / 1000 )); }
