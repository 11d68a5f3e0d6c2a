$d0 << EOD
8 427.089155
16 387.619406
32 292.884498
64 179.853449
128 78.661874
256 32.433361
EOD
$d1 << EOD
8 427.089152
16 387.619422
32 292.884507
64 179.853452
128 78.6618687
256 32.4333601
EOD
$d2 << EOD
8 427.089155
16 387.619406
32 292.884498
64 179.853449
128 78.661874
256 32.433361
EOD
$d3 << EOD
8 812.796405
16 680.856174
32 434.177779
64 224.771066
128 86.1955378
256 33.6458581
EOD
$d4 << EOD
8 223.927465
16 186.527186
32 157.466831
64 117.364245
128 104.130989
256 84.569348
EOD
$d5 << EOD
8 260.751525
16 208.836959
32 172.067397
64 145.221781
128 124.234729
256 108.778182
EOD
$d6 << EOD
8 196.545515
16 140.389653
32 87.041585
64 63.175344
128 40.521559
256 29.832801
EOD
$d7 << EOD
8 261.914575
16 210.408412
32 173.792316
64 147.080935
128 126.898384
256 111.360486
EOD
$d8 << EOD
8 284.973892
16 268.273045
32 155.802484
64 148.817306
128 80.981047
256 78.710473
EOD
$d9 << EOD
8 446.577672
16 445.223271
32 442.345403
64 439.521002
128 433.872622
256 428.372076
EOD
$d10 << EOD
8 441.540685
16 435.967719
32 408.954639
64 385.63947
128 307.598713
256 256.070343
EOD
$d11 << EOD
8 441.540682
16 435.967721
32 408.954642
64 385.63947
128 307.598702
256 256.070346
EOD
$d12 << EOD
8 427.089155
16 387.619406
32 292.884498
64 179.853449
128 78.661874
256 32.433361
EOD
$d13 << EOD
8 427.089152
16 387.619423
32 292.884507
64 179.853452
128 78.6618688
256 32.4333601
EOD
$d14 << EOD
8 427.089155
16 387.619406
32 292.884498
64 179.853449
128 78.661874
256 32.433361
EOD
$d15 << EOD
8 812.796405
16 680.856171
32 434.177778
64 224.771066
128 86.1955378
256 33.6458581
EOD
$d16 << EOD
8 284.973892
16 268.273045
32 155.802484
64 148.817306
128 80.981047
256 78.710473
EOD
$d17 << EOD
8 446.577672
16 445.223273
32 442.345403
64 439.521002
128 433.872623
256 428.372074
EOD
$d18 << EOD
8 283.255566
16 265.443363
32 153.412706
64 145.458568
128 78.847378
256 75.85241
EOD
$d19 << EOD
8 442.372275
16 437.483498
32 423.610558
64 411.460757
128 378.93351
256 355.476393
EOD
$d20 << EOD
8 441.540685
16 435.967719
32 408.954639
64 385.63947
128 307.598713
256 256.070343
EOD
$d21 << EOD
8 441.540682
16 435.967722
32 408.954642
64 385.63947
128 307.598703
256 256.070346
EOD
$d22 << EOD
8 427.089155
16 387.619406
32 292.884498
64 179.853449
128 78.661874
256 32.433361
EOD
$d23 << EOD
8 427.089152
16 387.619423
32 292.884507
64 179.853452
128 78.6618688
256 32.4333601
EOD
$d24 << EOD
8 427.089155
16 387.619406
32 292.884498
64 179.853449
128 78.661874
256 32.433361
EOD
$d25 << EOD
8 812.796405
16 680.856171
32 434.177778
64 224.771066
128 86.1955378
256 33.6458581
EOD
$d26 << EOD
8 284.973892
16 268.273045
32 155.802484
64 148.817306
128 80.981047
256 78.710473
EOD
$d27 << EOD
8 446.577672
16 445.223273
32 442.345403
64 439.521002
128 433.872623
256 428.372074
EOD
$d28 << EOD
8 441.540685
16 435.967719
32 408.954639
64 385.63947
128 307.598713
256 256.070343
EOD
$d29 << EOD
8 441.540682
16 435.967722
32 408.954642
64 385.63947
128 307.598703
256 256.070346
EOD
$d30 << EOD
8 64.132129
16 29.919749
32 14.475424
64 7.121633
128 3.532489
256 1.759155
EOD
$d31 << EOD
8 64.1321291
16 29.919749
32 14.475424
64 7.12163301
128 3.532489
256 1.759155
EOD
$d32 << EOD
8 99.591891
16 52.650431
32 27.107482
64 13.758156
128 6.931347
256 3.47889
EOD
$d33 << EOD
8 99.5180466
16 52.640106
32 27.1047447
64 13.7574508
128 6.93116799
256 3.47884489
EOD
$d34 << EOD
8 112.311723
16 74.874482
32 44.924689
64 32.089064
128 20.420313
256 14.974896
EOD
$d35 << EOD
8 149.665472
16 112.217821
32 89.6992597
64 74.7077773
128 63.9487914
256 55.8985962
EOD
$d36 << EOD
8 112.311723
16 74.874482
32 44.924689
64 32.089064
128 20.420313
256 14.974896
EOD
$d37 << EOD
8 112.311723
16 74.8744821
32 44.924689
64 32.089064
128 20.420313
256 14.974896
EOD
$d38 << EOD
8 64.132129
16 29.919749
32 14.475424
64 7.121633
128 3.532489
256 1.759155
EOD
$d39 << EOD
8 64.1321291
16 29.919749
32 14.475424
64 7.12163301
128 3.532489
256 1.759155
EOD
$d40 << EOD
8 111.937053
16 55.945198
32 27.95512
64 13.976105
128 6.986234
256 3.493026
EOD
$d41 << EOD
8 111.890394
16 55.9102406
32 27.9463888
64 13.9710131
128 6.98496144
256 3.49234432
EOD
$d42 << EOD
8 112.311723
16 74.874482
32 44.924689
64 32.089064
128 20.420313
256 14.974896
EOD
$d43 << EOD
8 149.665472
16 112.217821
32 89.6992597
64 74.7077773
128 63.9487914
256 55.8985962
EOD
$d44 << EOD
8 112.311723
16 74.874482
32 44.924689
64 32.089064
128 20.420313
256 14.974896
EOD
$d45 << EOD
8 112.311723
16 74.8744821
32 44.924689
64 32.089064
128 20.420313
256 14.974896
EOD
$d46 << EOD
8 391.127287
16 417.673917
32 216.156943
64 218.915475
128 110.601339
256 110.66912
EOD
$d47 << EOD
8 886.414012
16 881.093775
32 869.893713
64 859.037881
128 837.722426
256 817.455564
EOD
$d48 << EOD
8 305.972498
16 262.476235
32 155.342236
64 116.465745
128 56.830041
256 32.557142
EOD
$d49 << EOD
8 430.218252
16 399.939653
32 316.404161
64 210.516741
128 97.6362504
256 42.1334303
EOD
$d50 << EOD
8 195.400952
16 139.378856
32 86.147702
64 62.458573
128 39.91429
256 29.364301
EOD
$d51 << EOD
8 259.885994
16 208.146044
32 170.264827
64 143.253546
128 121.127209
256 105.101065
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
plot $d0 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "mesh ring (sim)", \
     $d1 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "mesh ring (model)", \
     $d2 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "mesh ring-bidir (sim)", \
     $d3 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "mesh ring-bidir (model)", \
     $d4 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "mesh tree (sim)", \
     $d5 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "mesh tree (model)", \
     $d6 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "mesh recursive-doubling (sim)", \
     $d7 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "mesh recursive-doubling (model)", \
     $d8 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "mesh rabenseifner (sim)", \
     $d9 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "mesh rabenseifner (model)", \
     $d10 using 1:2 with points pt 7 ps 0.6 lc rgb "#8c564b" title "mesh dimensional (sim)", \
     $d11 using 1:2 with lines lw 2 dt 1 lc rgb "#8c564b" title "mesh dimensional (model)"
set title "allgather"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d12 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "mesh ring (sim)", \
     $d13 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "mesh ring (model)", \
     $d14 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "mesh ring-bidir (sim)", \
     $d15 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "mesh ring-bidir (model)", \
     $d16 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "mesh recursive-doubling (sim)", \
     $d17 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "mesh recursive-doubling (model)", \
     $d18 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "mesh bruck (sim)", \
     $d19 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "mesh bruck (model)", \
     $d20 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "mesh dimensional (sim)", \
     $d21 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "mesh dimensional (model)"
set title "reducescatter"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d22 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "mesh ring (sim)", \
     $d23 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "mesh ring (model)", \
     $d24 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "mesh ring-bidir (sim)", \
     $d25 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "mesh ring-bidir (model)", \
     $d26 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "mesh recursive-halving (sim)", \
     $d27 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "mesh recursive-halving (model)", \
     $d28 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "mesh dimensional (sim)", \
     $d29 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "mesh dimensional (model)"
set title "broadcast"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d30 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "mesh ring (sim)", \
     $d31 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "mesh ring (model)", \
     $d32 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "mesh ring-bidir (sim)", \
     $d33 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "mesh ring-bidir (model)", \
     $d34 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "mesh tree (sim)", \
     $d35 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "mesh tree (model)", \
     $d36 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "mesh dimensional (sim)", \
     $d37 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "mesh dimensional (model)"
set title "reduce"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d38 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "mesh ring (sim)", \
     $d39 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "mesh ring (model)", \
     $d40 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "mesh ring-bidir (sim)", \
     $d41 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "mesh ring-bidir (model)", \
     $d42 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "mesh tree (sim)", \
     $d43 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "mesh tree (model)", \
     $d44 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "mesh dimensional (sim)", \
     $d45 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "mesh dimensional (model)"
set title "alltoall"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d46 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "mesh direct (sim)", \
     $d47 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "mesh direct (model)", \
     $d48 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "mesh pairwise (sim)", \
     $d49 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "mesh pairwise (model)", \
     $d50 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "mesh bruck (sim)", \
     $d51 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "mesh bruck (model)"
unset multiplot
