#!/bin/sh
# commsim's own wall time and peak memory against GPU count: one `commsim collective` run of
# 64 MiB (no library), timed as a whole by /usr/bin/time (Debian package `time`), for
#   allreduce-ring          ring AllReduce on a ring of N NPUs (2(p-1) steps of p flows)
#   allreduce-hierarchical  hierarchical AllReduce on N/8 nodes of 8 GPUs (NVSwitch + one
#                           network switch)
#   alltoall-direct         direct AllToAll on a switch of N NPUs (p(p-1) flows at once)
# Writes walltime.csv (case,npus,seconds,peak_MB) and draws both against GPUs in walltime.svg
# with walltime.gp. Wall times vary from machine to machine and run to run: the
# committed figures are from one run on the 2-core machine named in results/README.md. Run
# from the repository root after bash .ci/setup; about 3 minutes (2 of them the 16,384-NPU
# ring).
set -e
R=results/walltime
echo "case,npus,seconds,peak_MB" > $R/walltime.csv
run() {  # CASE NPUS, then the collective's options
  case=$1 npus=$2
  shift 2
  /usr/bin/time -f "%e %M" -o $R/.time build/commsim collective --size 64M --quiet "$@" > /dev/null
  awk -v c=$case -v n=$npus '{ printf "%s,%d,%.2f,%.1f\n", c, n, $1, $2 / 1024 }' $R/.time >> $R/walltime.csv
}
for n in 8 16 32 64 128 256 512 1024 2048 4096 8192 16384; do
  run allreduce-ring $n --topology ring --npus $n --algorithm ring
done
for nodes in 1 2 4 8 16 32 64 128 256 512 1024 2048; do
  run allreduce-hierarchical $((nodes * 8)) --topology hierarchical --nodes $nodes --gpus-per-node 8 \
    --algorithm hierarchical
done
for n in 8 16 32 64 128 256 512 1024 2048; do
  run alltoall-direct $n --topology switch --npus $n --collective alltoall --algorithm direct
done
rm -f $R/.time
gnuplot $R/walltime.gp > $R/walltime.svg
