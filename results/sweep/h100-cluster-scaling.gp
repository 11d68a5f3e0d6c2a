$d0 << EOD
8 464.969042
EOD
$d1 << EOD
8 464.969042
EOD
$d2 << EOD
16 509.419198
32 299.215125
64 297.760397
128 294.049207
256 289.350555
512 284.240681
EOD
$d3 << EOD
16 509.419198
32 299.215125
64 297.760397
128 294.049207
256 289.350555
512 284.240681
EOD
$d4 << EOD
8 339.628542
16 297.897256
32 286.057222
64 274.378381
128 253.644812
256 220.336349
512 161.097513
EOD
$d5 << EOD
8 339.628542
16 297.897256
32 286.057223
64 274.37838
128 253.644815
256 220.336345
512 161.097517
EOD
$d6 << EOD
8 339.628542
16 297.897256
32 286.057222
64 274.378381
128 253.644812
256 220.336349
512 161.097513
EOD
$d7 << EOD
8 339.628542
16 297.897256
32 286.057223
64 274.37838
128 253.644815
256 220.336345
512 161.097517
EOD
$d8 << EOD
8 338.290801
16 83.768376
32 57.745386
64 50.303903
128 47.32652
256 45.981747
512 45.340388
EOD
$d9 << EOD
8 338.290801
16 83.768376
32 57.745386
64 50.303903
128 47.32652
256 45.981747
512 45.340388
EOD
set terminal svg size 2080,440 font "sans,11" background "white"
set key top left
set grid
set multiplot layout 1,4 title "commsim sweep at 1G"
set title "allreduce"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d0 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "h100-ib-cluster nvls nccl-hopper-multinode (sim)", \
     $d1 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "h100-ib-cluster nvls nccl-hopper-multinode (model)", \
     $d2 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "h100-ib-cluster nvls-tree nccl-hopper-multinode (sim)", \
     $d3 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "h100-ib-cluster nvls-tree nccl-hopper-multinode (model)"
set title "allgather"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d4 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "h100-ib-cluster ring nccl-hopper-multinode (sim)", \
     $d5 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "h100-ib-cluster ring nccl-hopper-multinode (model)"
set title "reducescatter"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d6 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "h100-ib-cluster ring nccl-hopper-multinode (sim)", \
     $d7 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "h100-ib-cluster ring nccl-hopper-multinode (model)"
set title "alltoall"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d8 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "h100-ib-cluster direct nccl-hopper-multinode (sim)", \
     $d9 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "h100-ib-cluster direct nccl-hopper-multinode (model)"
unset multiplot
