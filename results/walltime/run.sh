#!/bin/sh
# The wall time of commsim itself against rank count: one commsim collective run of 64 MiB
# on a switch of N NPUs (no library), timed as a whole, for ring AllReduce (2(p-1) steps of
# p flows: p^2 flow starts) up to 4096 NPUs and direct AllToAll (p(p-1) flows at once) up to
# 1024. Writes walltime.csv (case,npus,flows,seconds) and draws walltime.svg with
# walltime.gp. Wall times vary from machine to machine and run to run: the committed figures
# are from one run on the 2-core machine named in results/README.md. Run from the repository
# root after bash .ci/setup; about 1 minute.
set -e
R=results/walltime
echo "case,npus,flows,seconds" > $R/walltime.csv
run() {  # CASE NPUS FLOWS, then the collective's options
  case=$1 npus=$2 flows=$3
  shift 3
  start=$(date +%s.%N)
  build/commsim collective --topology switch --npus $npus --size 64M --quiet "$@" > /dev/null
  end=$(date +%s.%N)
  awk -v c=$case -v n=$npus -v f=$flows -v s=$start -v e=$end 'BEGIN { printf "%s,%d,%d,%.3f\n", c, n, f, e - s }' \
    >> $R/walltime.csv
}
for n in 8 16 32 64 128 256 512 1024 2048 4096; do
  run allreduce-ring $n $((2 * (n - 1) * n)) --algorithm ring
done
for n in 8 16 32 64 128 256 512 1024; do
  run alltoall-direct $n $((n * (n - 1))) --collective alltoall --algorithm direct
done
gnuplot $R/walltime.gp > $R/walltime.svg
