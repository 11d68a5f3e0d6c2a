$d0 << EOD
8 438.245346
16 427.089133
32 406.398186
64 370.49943
128 314.871802
256 242.155963
EOD
$d1 << EOD
8 438.245343
16 427.089152
32 406.398204
64 370.499445
128 314.871718
256 242.155913
EOD
$d2 << EOD
8 438.245346
16 812.796371
32 740.998859
64 629.743605
128 484.311925
256 331.294841
EOD
$d3 << EOD
8 854.178303
16 812.796408
32 740.998889
64 629.743437
128 484.311826
256 331.294794
EOD
$d4 << EOD
8 223.927465
16 167.961611
32 144.424761
64 110.073286
128 98.394021
256 80.760118
EOD
$d5 << EOD
8 260.751525
16 208.836958
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
8 567.195137
16 881.093774
32 869.893714
64 859.037882
128 837.722426
256 817.455544
EOD
$d11 << EOD
8 567.195142
16 881.09378
32 869.89372
64 859.037882
128 837.722426
256 817.455559
EOD
$d12 << EOD
8 438.245346
16 427.089133
32 406.398186
64 370.49943
128 314.871802
256 242.155963
EOD
$d13 << EOD
8 438.245343
16 427.089153
32 406.398204
64 370.499445
128 314.871719
256 242.155913
EOD
$d14 << EOD
8 438.245346
16 812.796371
32 740.998859
64 629.743605
128 484.311925
256 331.294841
EOD
$d15 << EOD
8 854.178303
16 812.796403
32 740.998884
64 629.743437
128 484.311826
256 331.294795
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
8 284.628561
16 267.702293
32 155.616014
64 148.566294
128 80.907246
256 78.617902
EOD
$d19 << EOD
8 445.730208
16 443.653488
32 440.845624
64 437.338682
128 431.76256
256 425.644427
EOD
$d20 << EOD
8 567.195137
16 881.093774
32 869.893714
64 859.037882
128 837.722426
256 817.455544
EOD
$d21 << EOD
8 567.195142
16 881.093774
32 869.893714
64 859.037882
128 837.722426
256 817.455564
EOD
$d22 << EOD
8 438.245346
16 427.089133
32 406.398186
64 370.49943
128 314.871802
256 242.155963
EOD
$d23 << EOD
8 438.245343
16 427.089153
32 406.398204
64 370.499445
128 314.871719
256 242.155913
EOD
$d24 << EOD
8 438.245346
16 812.796371
32 740.998859
64 629.743605
128 484.311925
256 331.294841
EOD
$d25 << EOD
8 854.178303
16 812.796403
32 740.998884
64 629.743437
128 484.311826
256 331.294795
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
8 567.195137
16 881.093774
32 869.893714
64 859.037882
128 837.722426
256 817.455544
EOD
$d29 << EOD
8 567.195142
16 881.093774
32 869.893714
64 859.037882
128 837.722426
256 817.455564
EOD
$d30 << EOD
8 64.132129
16 29.939771
32 14.486361
64 7.129577
128 3.536678
256 1.761579
EOD
$d31 << EOD
8 64.1321291
16 29.939771
32 14.486361
64 7.12957701
128 3.536678
256 1.761579
EOD
$d32 << EOD
8 99.591891
16 59.746268
32 28.910315
64 14.231939
128 7.059962
256 3.516881
EOD
$d33 << EOD
8 99.5918907
16 59.7462676
32 28.9103148
64 14.2319389
128 7.05996196
256 3.51688098
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
8 179.518494
16 149.498767
32 89.69926
64 64.0709
128 40.772391
256 29.899753
EOD
$d37 << EOD
8 179.518494
16 149.498766
32 89.6992595
64 64.0708996
128 40.7723908
256 29.8997528
EOD
$d38 << EOD
8 64.132129
16 29.939771
32 14.486361
64 7.129577
128 3.536678
256 1.761579
EOD
$d39 << EOD
8 64.1321291
16 29.939771
32 14.486361
64 7.12957701
128 3.536678
256 1.761579
EOD
$d40 << EOD
8 112.030486
16 59.746268
32 28.910315
64 14.231939
128 7.059962
256 3.516881
EOD
$d41 << EOD
8 111.983749
16 59.7462676
32 28.9103148
64 14.2319389
128 7.05996196
256 3.51688098
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
8 179.518494
16 149.498767
32 89.69926
64 64.0709
128 40.772391
256 29.899753
EOD
$d45 << EOD
8 179.518494
16 149.498766
32 89.6992595
64 64.0708996
128 40.7723908
256 29.8997528
EOD
$d46 << EOD
8 521.503048
16 557.515422
32 345.96614
64 350.613327
128 196.679052
256 196.871855
EOD
$d47 << EOD
8 1327.11682
16 1749.934
32 1728.22511
64 1706.97713
128 1664.97108
256 1624.97536
EOD
$d48 << EOD
8 309.194728
16 269.792372
32 166.480551
64 132.186379
128 73.95079
256 48.738435
EOD
$d49 << EOD
8 438.245344
16 421.368321
32 379.14232
64 303.306215
128 188.110237
256 96.8023862
EOD
$d50 << EOD
8 196.05335
16 139.999155
32 86.838123
64 63.024663
128 40.435431
256 29.769694
EOD
$d51 << EOD
8 261.041318
16 209.532475
32 172.98307
64 146.266789
128 126.057532
256 110.486204
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
plot $d0 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "torus ring (sim)", \
     $d1 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "torus ring (model)", \
     $d2 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "torus ring-bidir (sim)", \
     $d3 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "torus ring-bidir (model)", \
     $d4 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "torus tree (sim)", \
     $d5 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "torus tree (model)", \
     $d6 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "torus recursive-doubling (sim)", \
     $d7 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "torus recursive-doubling (model)", \
     $d8 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "torus rabenseifner (sim)", \
     $d9 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "torus rabenseifner (model)", \
     $d10 using 1:2 with points pt 7 ps 0.6 lc rgb "#8c564b" title "torus dimensional (sim)", \
     $d11 using 1:2 with lines lw 2 dt 1 lc rgb "#8c564b" title "torus dimensional (model)"
set title "allgather"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d12 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "torus ring (sim)", \
     $d13 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "torus ring (model)", \
     $d14 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "torus ring-bidir (sim)", \
     $d15 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "torus ring-bidir (model)", \
     $d16 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "torus recursive-doubling (sim)", \
     $d17 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "torus recursive-doubling (model)", \
     $d18 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "torus bruck (sim)", \
     $d19 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "torus bruck (model)", \
     $d20 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "torus dimensional (sim)", \
     $d21 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "torus dimensional (model)"
set title "reducescatter"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d22 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "torus ring (sim)", \
     $d23 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "torus ring (model)", \
     $d24 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "torus ring-bidir (sim)", \
     $d25 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "torus ring-bidir (model)", \
     $d26 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "torus recursive-halving (sim)", \
     $d27 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "torus recursive-halving (model)", \
     $d28 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "torus dimensional (sim)", \
     $d29 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "torus dimensional (model)"
set title "broadcast"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d30 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "torus ring (sim)", \
     $d31 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "torus ring (model)", \
     $d32 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "torus ring-bidir (sim)", \
     $d33 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "torus ring-bidir (model)", \
     $d34 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "torus tree (sim)", \
     $d35 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "torus tree (model)", \
     $d36 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "torus dimensional (sim)", \
     $d37 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "torus dimensional (model)"
set title "reduce"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d38 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "torus ring (sim)", \
     $d39 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "torus ring (model)", \
     $d40 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "torus ring-bidir (sim)", \
     $d41 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "torus ring-bidir (model)", \
     $d42 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "torus tree (sim)", \
     $d43 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "torus tree (model)", \
     $d44 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "torus dimensional (sim)", \
     $d45 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "torus dimensional (model)"
set title "alltoall"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d46 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "torus direct (sim)", \
     $d47 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "torus direct (model)", \
     $d48 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "torus pairwise (sim)", \
     $d49 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "torus pairwise (model)", \
     $d50 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "torus bruck (sim)", \
     $d51 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "torus bruck (model)"
unset multiplot
