# commsim's wall time against NPUs (walltime.csv, written by run.sh): gnuplot walltime.gp > walltime.svg
set terminal svg size 620,440 dynamic enhanced font "sans,11"
set datafile separator ","
set key autotitle columnhead
set title "commsim collective, 64 MiB on a switch: wall time"
set xlabel "NPUs"
set ylabel "wall time (s)"
set logscale x 2
set logscale y 10
set key top left
set grid
plot "results/walltime/walltime.csv" using (strcol(1) eq "allreduce-ring" ? $2 : 1/0):4 with linespoints lw 2 pt 7 \
       lc rgb "#1f77b4" title "AllReduce, ring (p^2 flows)", \
     "" using (strcol(1) eq "alltoall-direct" ? $2 : 1/0):4 with linespoints lw 2 pt 5 lc rgb "#ff7f0e" \
       title "AllToAll, direct (p(p-1) flows)"
