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
8 156.76417
16 119.675904
32 95.769021
64 79.022371
128 66.511396
256 56.542855
EOD
$d5 << EOD
8 259.026188
16 205.427505
32 165.497047
64 133.34941
128 105.029976
256 78.4104374
EOD
$d6 << EOD
8 112.311723
16 56.155861
32 28.077931
64 14.038965
128 7.019483
256 3.509741
EOD
$d7 << EOD
8 261.477218
16 209.619739
32 172.581268
64 145.102159
128 123.801626
256 106.376355
EOD
$d8 << EOD
8 149.332432
16 79.037655
32 40.710556
64 20.666893
128 10.413153
256 5.226735
EOD
$d9 << EOD
8 444.044893
16 438.245344
32 427.089153
64 406.398202
128 370.499443
256 314.871744
EOD
$d10 << EOD
8 444.044897
16 438.245324
32 427.089133
64 406.398186
128 370.49956
256 314.871802
EOD
$d11 << EOD
8 444.044894
16 438.245345
32 427.089153
64 406.398204
128 370.499445
256 314.871717
EOD
$d12 << EOD
8 876.490647
16 854.178266
32 812.796371
64 740.999121
128 629.743605
256 484.311925
EOD
$d13 << EOD
8 876.490686
16 854.178301
32 812.796401
64 740.998888
128 629.743438
256 484.311827
EOD
$d14 << EOD
8 149.332432
16 79.037655
32 40.710556
64 20.666893
128 10.413153
256 5.226735
EOD
$d15 << EOD
8 444.044893
16 438.245345
32 427.089153
64 406.398202
128 370.499444
256 314.871743
EOD
$d16 << EOD
8 149.332432
16 79.037655
32 40.710556
64 20.666893
128 10.413153
256 5.226735
EOD
$d17 << EOD
8 444.044893
16 438.245345
32 427.089153
64 406.398202
128 370.499444
256 314.871743
EOD
$d18 << EOD
8 444.044897
16 438.245324
32 427.089133
64 406.398186
128 370.49956
256 314.871802
EOD
$d19 << EOD
8 444.044894
16 438.245345
32 427.089153
64 406.398204
128 370.499445
256 314.871717
EOD
$d20 << EOD
8 876.490647
16 854.178266
32 812.796371
64 740.999121
128 629.743605
256 484.311925
EOD
$d21 << EOD
8 876.490686
16 854.178301
32 812.796401
64 740.998888
128 629.743438
256 484.311827
EOD
$d22 << EOD
8 149.332432
16 79.037655
32 40.710556
64 20.666893
128 10.413153
256 5.226735
EOD
$d23 << EOD
8 444.044893
16 438.245345
32 427.089153
64 406.398202
128 370.499444
256 314.871743
EOD
$d24 << EOD
8 64.178127
16 29.949793
32 14.491835
64 7.130903
128 3.537377
256 1.761753
EOD
$d25 << EOD
8 64.1781271
16 29.949793
32 14.491835
64 7.13090301
128 3.537377
256 1.761753
EOD
$d26 << EOD
8 128.1418
16 59.799507
32 28.935245
64 14.237978
128 7.062934
256 3.517618
EOD
$d27 << EOD
8 128.141799
16 59.7995066
32 28.9352448
64 14.2379779
128 7.06293396
256 3.51761798
EOD
$d28 << EOD
8 64.178127
16 29.949793
32 14.491835
64 7.130903
128 3.537377
256 1.761753
EOD
$d29 << EOD
8 149.415552
16 111.797196
32 89.0742008
64 73.7026852
128 62.3882165
256 53.3967783
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
8 64.178127
16 29.949793
32 14.491835
64 7.130903
128 3.537377
256 1.761753
EOD
$d35 << EOD
8 149.415552
16 111.797196
32 89.0742008
64 73.7026852
128 62.3882165
256 53.3967783
EOD
$d36 << EOD
8 313.319225
16 186.389035
32 101.930239
64 53.346307
128 27.295745
256 13.807116
EOD
$d37 << EOD
8 886.414012
16 874.96699
32 852.777733
64 811.548262
128 739.969524
256 629.002717
EOD
$d38 << EOD
8 194.269642
16 102.713752
32 51.717827
64 25.003014
128 11.487654
256 4.900652
EOD
$d39 << EOD
8 436.61605
16 403.789911
32 311.850938
64 164.002438
128 56.8144414
256 15.7488409
EOD
$d40 << EOD
8 112.124075
16 56.062037
32 28.031019
64 14.015509
128 7.007755
256 3.503877
EOD
$d41 << EOD
8 260.462375
16 208.318342
32 170.824062
64 142.634927
128 120.25219
256 101.240986
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
plot $d0 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "ring ring (sim)", \
     $d1 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "ring ring (model)", \
     $d2 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "ring ring-bidir (sim)", \
     $d3 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "ring ring-bidir (model)", \
     $d4 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "ring tree (sim)", \
     $d5 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "ring tree (model)", \
     $d6 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "ring recursive-doubling (sim)", \
     $d7 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "ring recursive-doubling (model)", \
     $d8 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "ring rabenseifner (sim)", \
     $d9 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "ring rabenseifner (model)"
set title "allgather"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d10 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "ring ring (sim)", \
     $d11 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "ring ring (model)", \
     $d12 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "ring ring-bidir (sim)", \
     $d13 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "ring ring-bidir (model)", \
     $d14 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "ring recursive-doubling (sim)", \
     $d15 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "ring recursive-doubling (model)", \
     $d16 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "ring bruck (sim)", \
     $d17 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "ring bruck (model)"
set title "reducescatter"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d18 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "ring ring (sim)", \
     $d19 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "ring ring (model)", \
     $d20 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "ring ring-bidir (sim)", \
     $d21 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "ring ring-bidir (model)", \
     $d22 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "ring recursive-halving (sim)", \
     $d23 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "ring recursive-halving (model)"
set title "broadcast"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d24 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "ring ring (sim)", \
     $d25 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "ring ring (model)", \
     $d26 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "ring ring-bidir (sim)", \
     $d27 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "ring ring-bidir (model)", \
     $d28 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "ring tree (sim)", \
     $d29 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "ring tree (model)"
set title "reduce"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d30 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "ring ring (sim)", \
     $d31 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "ring ring (model)", \
     $d32 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "ring ring-bidir (sim)", \
     $d33 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "ring ring-bidir (model)", \
     $d34 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "ring tree (sim)", \
     $d35 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "ring tree (model)"
set title "alltoall"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d36 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "ring direct (sim)", \
     $d37 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "ring direct (model)", \
     $d38 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "ring pairwise (sim)", \
     $d39 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "ring pairwise (model)", \
     $d40 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "ring bruck (sim)", \
     $d41 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "ring bruck (model)"
unset multiplot
