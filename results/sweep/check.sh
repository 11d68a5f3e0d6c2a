#!/bin/sh
# The sweep of run.sh checked two ways: run again on one thread, it writes the same bytes;
# and every row equals, but for its point number, the row commsim collective writes for the
# same topology, algorithm and size run on its own. Prints "same" twice or stops at the
# first difference. Run from the repository root after run.sh; about 6 minutes on 2 cores.
set -e
R=results/sweep
T=$(mktemp -d)
trap 'rm -rf $T' EXIT
build/commsim sweep --topology ring,switch,torus --npus 8:1024 \
  --dims 2x4,4x4,4x8,8x8,8x16,16x16,16x32,32x32 \
  --algorithm ring,ring-bidir,recursive-doubling,rabenseifner --sizes 1K:1G --quiet \
  --jobs 1 --csv $T/one-thread.csv > /dev/null
cmp $T/one-thread.csv $R/allreduce-scaling.csv && echo "same on 1 thread as on 2"
for t in "ring --npus" "switch --npus"; do
  for n in 8 16 32 64 128 256 512 1024; do
    for a in ring ring-bidir recursive-doubling rabenseifner; do
      build/commsim collective --topology $t $n --algorithm $a --sizes 1K:1G --csv $T/c.csv > /dev/null
      tail -n +2 $T/c.csv | cut -d, -f2- >> $T/one-by-one.csv
    done
  done
done
for d in 2x4 4x4 4x8 8x8 8x16 16x16 16x32 32x32; do
  for a in ring ring-bidir recursive-doubling rabenseifner; do
    build/commsim collective --topology torus --dims $d --algorithm $a --sizes 1K:1G --csv $T/c.csv > /dev/null
    tail -n +2 $T/c.csv | cut -d, -f2- >> $T/one-by-one.csv
  done
done
tail -n +2 $R/allreduce-scaling.csv | cut -d, -f2- | cmp - $T/one-by-one.csv && echo "same as commsim collective, point by point"
