#!/bin/sh
# AllReduce as it scales: ring, ring-bidir, recursive-doubling and rabenseifner on a ring, a
# switch and a torus of 8 to 1024 NPUs (450 GB/s, 250 ns links, no library), 1 KiB to 1 GiB:
# simulation beside closed form and lower bound (allreduce-scaling.csv), drawn as bus
# bandwidth against NPUs at 1 GiB (allreduce-scaling.svg, script beside). Run from the
# repository root after bash .ci/setup; about 2 minutes on 2 cores.
set -e
R=results/sweep
rm -f $R/allreduce-scaling.csv
build/commsim sweep --topology ring,switch,torus --npus 8:1024 \
  --dims 2x4,4x4,4x8,8x8,8x16,16x16,16x32,32x32 \
  --algorithm ring,ring-bidir,recursive-doubling,rabenseifner --sizes 1K:1G --quiet \
  --csv $R/allreduce-scaling.csv --plot $R/allreduce-scaling.svg --plot-x npus --plot-y busbw
