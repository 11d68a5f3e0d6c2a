$d0 << EOD
8 444.044897
16 438.245324
32 427.089133
64 406.398186
128 370.49956
256 314.871802
EOD
$d1 << EOD
8 444.044894
16 438.245344
32 427.089153
64 406.398204
128 370.499444
256 314.871718
EOD
$d2 << EOD
8 876.490647
16 854.178266
32 812.796371
64 740.999121
128 629.743605
256 484.311925
EOD
$d3 << EOD
8 876.490686
16 854.178307
32 812.796407
64 740.998888
128 629.743438
256 484.311825
EOD
$d4 << EOD
8 261.622843
16 210.232641
32 173.792317
64 147.162849
128 127.140693
256 111.686091
EOD
$d5 << EOD
8 261.622841
16 210.23264
32 173.792316
64 147.162848
128 127.140692
256 111.68609
EOD
$d6 << EOD
8 262.060686
16 210.58448
32 174.08317
64 147.409136
128 127.353471
256 111.873005
EOD
$d7 << EOD
8 262.060686
16 210.58448
32 174.08317
64 147.409136
128 127.353471
256 111.873005
EOD
$d8 << EOD
8 447.428368
16 446.804208
32 446.13987
64 445.448435
128 444.740033
256 444.021853
EOD
$d9 << EOD
8 447.428365
16 446.804206
32 446.13987
64 445.448435
128 444.740032
256 444.021852
EOD
$d10 << EOD
8 3108.31428
16 6573.67985
32 13239.7631
64 25603.0857
128 47053.4442
256 80292.3096
EOD
$d11 << EOD
8 3108.31428
16 6573.6802
32 13239.7631
64 25603.0857
128 47053.4276
256 80292.3096
EOD
$d12 << EOD
8 444.044897
16 438.245324
32 427.089133
64 406.398186
128 370.49956
256 314.871802
EOD
$d13 << EOD
8 444.044894
16 438.245345
32 427.089153
64 406.398204
128 370.499445
256 314.871717
EOD
$d14 << EOD
8 876.490647
16 854.178266
32 812.796371
64 740.999121
128 629.743605
256 484.311925
EOD
$d15 << EOD
8 876.490686
16 854.178301
32 812.796401
64 740.998888
128 629.743438
256 484.311827
EOD
$d16 << EOD
8 447.428368
16 446.804208
32 446.13987
64 445.448435
128 444.740033
256 444.021853
EOD
$d17 << EOD
8 447.428365
16 446.804208
32 446.13987
64 445.448435
128 444.740033
256 444.02185
EOD
$d18 << EOD
8 3108.31428
16 6573.67985
32 13239.7631
64 25603.0857
128 47053.4442
256 80292.3096
EOD
$d19 << EOD
8 3108.31428
16 6573.67985
32 13239.7631
64 25603.0857
128 47053.4442
256 80292.3096
EOD
$d20 << EOD
8 447.428368
16 446.804208
32 446.13987
64 445.448435
128 444.740033
256 444.021853
EOD
$d21 << EOD
8 447.428365
16 446.804208
32 446.13987
64 445.448435
128 444.740033
256 444.02185
EOD
$d22 << EOD
8 444.044897
16 438.245324
32 427.089133
64 406.398186
128 370.49956
256 314.871802
EOD
$d23 << EOD
8 444.044894
16 438.245345
32 427.089153
64 406.398204
128 370.499445
256 314.871717
EOD
$d24 << EOD
8 876.490647
16 854.178266
32 812.796371
64 740.999121
128 629.743605
256 484.311925
EOD
$d25 << EOD
8 876.490686
16 854.178301
32 812.796401
64 740.998888
128 629.743438
256 484.311827
EOD
$d26 << EOD
8 447.428368
16 446.804208
32 446.13987
64 445.448435
128 444.740033
256 444.021853
EOD
$d27 << EOD
8 447.428365
16 446.804208
32 446.13987
64 445.448435
128 444.740033
256 444.02185
EOD
$d28 << EOD
8 3108.31428
16 6573.67985
32 13239.7631
64 25603.0857
128 47053.4442
256 80292.3096
EOD
$d29 << EOD
8 3108.31428
16 6573.67985
32 13239.7631
64 25603.0857
128 47053.4442
256 80292.3096
EOD
$d30 << EOD
8 64.178127
16 29.949793
32 14.491835
64 7.130903
128 3.537377
256 1.761753
EOD
$d31 << EOD
8 64.1781271
16 29.949793
32 14.491835
64 7.13090301
128 3.537377
256 1.761753
EOD
$d32 << EOD
8 128.1418
16 59.799507
32 28.935245
64 14.237978
128 7.062934
256 3.517618
EOD
$d33 << EOD
8 128.141799
16 59.7995066
32 28.9352448
64 14.2379779
128 7.06293396
256 3.51761798
EOD
$d34 << EOD
8 149.748964
16 112.311723
32 89.849378
64 74.874482
128 64.178127
256 56.155861
EOD
$d35 << EOD
8 149.748964
16 112.311723
32 89.8493781
64 74.8744821
128 64.1781271
256 56.155861
EOD
$d36 << EOD
8 64.178127
16 29.949793
32 14.491835
64 7.130903
128 3.537377
256 1.761753
EOD
$d37 << EOD
8 64.1781271
16 29.949793
32 14.491835
64 7.13090301
128 3.537377
256 1.761753
EOD
$d38 << EOD
8 128.1418
16 59.799507
32 28.935245
64 14.237978
128 7.062934
256 3.517618
EOD
$d39 << EOD
8 128.141799
16 59.7995066
32 28.9352448
64 14.2379779
128 7.06293396
256 3.51761798
EOD
$d40 << EOD
8 149.748964
16 112.311723
32 89.849378
64 74.874482
128 64.178127
256 56.155861
EOD
$d41 << EOD
8 149.748964
16 112.311723
32 89.8493781
64 74.8744821
128 64.1781271
256 56.155861
EOD
$d42 << EOD
8 3108.31428
16 6573.67985
32 13239.7631
64 25603.0857
128 47053.4442
256 80292.3096
EOD
$d43 << EOD
8 3108.31428
16 6573.67985
32 13239.7631
64 25603.0857
128 47053.4442
256 80292.3096
EOD
$d44 << EOD
8 444.044897
16 438.245324
32 427.089133
64 406.398186
128 370.49956
256 314.871802
EOD
$d45 << EOD
8 444.044894
16 438.245345
32 427.089153
64 406.398204
128 370.499445
256 314.871717
EOD
$d46 << EOD
8 261.622843
16 210.232641
32 173.792317
64 147.162849
128 127.140693
256 111.686091
EOD
$d47 << EOD
8 261.622842
16 210.23264
32 173.792316
64 147.162848
128 127.140692
256 111.68609
EOD
set terminal svg size 4920,440 font "sans,11" background "white"
set key outside right top vertical font ",9"
set grid
set multiplot layout 1,6 title "commsim sweep at 64M"
set title "allreduce"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d0 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "fully-connected ring (sim)", \
     $d1 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "fully-connected ring (model)", \
     $d2 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "fully-connected ring-bidir (sim)", \
     $d3 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "fully-connected ring-bidir (model)", \
     $d4 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "fully-connected tree (sim)", \
     $d5 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "fully-connected tree (model)", \
     $d6 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "fully-connected recursive-doubling (sim)", \
     $d7 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "fully-connected recursive-doubling (model)", \
     $d8 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "fully-connected rabenseifner (sim)", \
     $d9 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "fully-connected rabenseifner (model)", \
     $d10 using 1:2 with points pt 7 ps 0.6 lc rgb "#8c564b" title "fully-connected direct (sim)", \
     $d11 using 1:2 with lines lw 2 dt 1 lc rgb "#8c564b" title "fully-connected direct (model)"
set title "allgather"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d12 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "fully-connected ring (sim)", \
     $d13 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "fully-connected ring (model)", \
     $d14 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "fully-connected ring-bidir (sim)", \
     $d15 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "fully-connected ring-bidir (model)", \
     $d16 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "fully-connected recursive-doubling (sim)", \
     $d17 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "fully-connected recursive-doubling (model)", \
     $d18 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "fully-connected direct (sim)", \
     $d19 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "fully-connected direct (model)", \
     $d20 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "fully-connected bruck (sim)", \
     $d21 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "fully-connected bruck (model)"
set title "reducescatter"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d22 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "fully-connected ring (sim)", \
     $d23 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "fully-connected ring (model)", \
     $d24 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "fully-connected ring-bidir (sim)", \
     $d25 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "fully-connected ring-bidir (model)", \
     $d26 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "fully-connected recursive-halving (sim)", \
     $d27 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "fully-connected recursive-halving (model)", \
     $d28 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "fully-connected direct (sim)", \
     $d29 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "fully-connected direct (model)"
set title "broadcast"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d30 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "fully-connected ring (sim)", \
     $d31 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "fully-connected ring (model)", \
     $d32 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "fully-connected ring-bidir (sim)", \
     $d33 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "fully-connected ring-bidir (model)", \
     $d34 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "fully-connected tree (sim)", \
     $d35 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "fully-connected tree (model)"
set title "reduce"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d36 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "fully-connected ring (sim)", \
     $d37 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "fully-connected ring (model)", \
     $d38 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "fully-connected ring-bidir (sim)", \
     $d39 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "fully-connected ring-bidir (model)", \
     $d40 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "fully-connected tree (sim)", \
     $d41 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "fully-connected tree (model)"
set title "alltoall"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d42 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "fully-connected direct (sim)", \
     $d43 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "fully-connected direct (model)", \
     $d44 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "fully-connected pairwise (sim)", \
     $d45 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "fully-connected pairwise (model)", \
     $d46 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "fully-connected bruck (sim)", \
     $d47 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "fully-connected bruck (model)"
unset multiplot
