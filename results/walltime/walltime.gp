# commsim's wall time and peak memory against GPUs (walltime.csv, written by run.sh):
#   gnuplot walltime.gp > walltime.svg
set terminal svg size 1100,440 dynamic enhanced font "sans,11"
set datafile separator ","
set xlabel "GPUs (NPUs)"
set logscale x 2
set logscale y 10
set key top left
set grid
F = "results/walltime/walltime.csv"
curves(column) = sprintf('F using (strcol(1) eq "allreduce-ring" ? $2 : 1/0):%d with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "AllReduce, ring, on a ring", F using (strcol(1) eq "allreduce-hierarchical" ? $2 : 1/0):%d with linespoints lw 2 pt 9 lc rgb "#2ca02c" title "AllReduce, hierarchical, nodes of 8", F using (strcol(1) eq "alltoall-direct" ? $2 : 1/0):%d with linespoints lw 2 pt 5 lc rgb "#ff7f0e" title "AllToAll, direct, on a switch"', column, column, column)
set multiplot layout 1,2 title "commsim collective, 64 MiB, one whole run"
set title "wall time"
set ylabel "wall time (s)"
eval "plot " . curves(3)
set title "peak memory (resident)"
set ylabel "peak memory (MB)"
eval "plot " . curves(4)
unset multiplot
