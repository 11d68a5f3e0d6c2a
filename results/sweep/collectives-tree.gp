$d0 << EOD
8 416.486858
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d1 << EOD
8 416.486855
16 370.499444
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d2 << EOD
8 416.486858
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d3 << EOD
8 416.486855
16 370.499444
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d4 << EOD
8 155.828145
16 119.053132
32 95.52277
64 79.283181
128 67.506016
256 58.638448
EOD
$d5 << EOD
8 129.942996
16 104.073022
32 85.7500037
64 72.3722443
128 62.3208538
256 54.5666814
EOD
$d6 << EOD
8 260.751525
16 209.184139
32 172.638552
64 145.94365
128 125.878798
256 110.394971
EOD
$d7 << EOD
8 260.751525
16 209.184139
32 172.638552
64 145.94365
128 125.878798
256 110.394971
EOD
$d8 << EOD
8 439.886844
16 434.462414
32 427.791739
64 419.961979
128 411.102882
256 401.365452
EOD
$d9 << EOD
8 439.886841
16 434.462412
32 427.791739
64 419.961979
128 411.102881
256 401.365451
EOD
$d10 << EOD
8 416.486858
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d11 << EOD
8 416.486855
16 370.499445
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d12 << EOD
8 416.486858
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d13 << EOD
8 416.486855
16 370.499445
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d14 << EOD
8 439.886844
16 434.462414
32 427.791739
64 419.961979
128 411.102882
256 401.365452
EOD
$d15 << EOD
8 439.886841
16 434.462414
32 427.791739
64 419.961979
128 411.102882
256 401.36545
EOD
$d16 << EOD
8 434.998831
16 425.644431
32 414.165235
64 400.849705
128 386.074256
256 370.242935
EOD
$d17 << EOD
8 434.998828
16 425.644431
32 414.165235
64 400.849705
128 386.074256
256 370.242933
EOD
$d18 << EOD
8 416.486858
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d19 << EOD
8 416.486855
16 370.499445
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d20 << EOD
8 416.486858
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d21 << EOD
8 416.486855
16 370.499445
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d22 << EOD
8 439.886844
16 434.462414
32 427.791739
64 419.961979
128 411.102882
256 401.365452
EOD
$d23 << EOD
8 439.886841
16 434.462414
32 427.791739
64 419.961979
128 411.102882
256 401.36545
EOD
$d24 << EOD
8 63.948792
16 29.826664
32 14.427189
64 7.097531
128 3.520352
256 1.753135
EOD
$d25 << EOD
8 63.9487921
16 29.826664
32 14.427189
64 7.09753101
128 3.520352
256 1.753135
EOD
$d26 << EOD
8 89.341014
16 49.520358
32 26.176324
64 13.472114
128 6.835983
256 3.443445
EOD
$d27 << EOD
8 89.2222337
16 49.465606
32 26.1559192
64 13.465356
128 6.83389458
256 3.44282668
EOD
$d28 << EOD
8 149.000871
16 111.564874
32 89.103769
64 74.130108
128 63.434985
256 55.413946
EOD
$d29 << EOD
8 149.000871
16 111.564874
32 89.1037691
64 74.1301081
128 63.4349851
256 55.413946
EOD
$d30 << EOD
8 63.948792
16 29.826664
32 14.427189
64 7.097531
128 3.520352
256 1.753135
EOD
$d31 << EOD
8 63.9487921
16 29.826664
32 14.427189
64 7.09753101
128 3.520352
256 1.753135
EOD
$d32 << EOD
8 89.341014
16 49.520358
32 26.176324
64 13.472114
128 6.835983
256 3.443445
EOD
$d33 << EOD
8 89.2222337
16 49.465606
32 26.1559192
64 13.465356
128 6.83389458
256 3.44282668
EOD
$d34 << EOD
8 149.000871
16 111.564874
32 89.103769
64 74.130108
128 63.434985
256 55.413946
EOD
$d35 << EOD
8 149.000871
16 111.564874
32 89.1037691
64 74.1301081
128 63.4349851
256 55.413946
EOD
$d36 << EOD
8 444.885954
16 443.653487
32 442.345401
64 440.988022
128 439.601609
256 438.200455
EOD
$d37 << EOD
8 444.885954
16 443.653487
32 442.345401
64 440.988022
128 439.601609
256 438.200455
EOD
$d38 << EOD
8 416.486858
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d39 << EOD
8 416.486855
16 370.499445
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d40 << EOD
8 257.323535
16 205.427506
32 168.71828
64 141.945345
128 121.847602
256 106.355209
EOD
$d41 << EOD
8 257.323534
16 205.427505
32 168.718279
64 141.945344
128 121.847601
256 106.355208
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
plot $d0 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "tree ring (sim)", \
     $d1 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "tree ring (model)", \
     $d2 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "tree ring-bidir (sim)", \
     $d3 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "tree ring-bidir (model)", \
     $d4 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "tree tree (sim)", \
     $d5 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "tree tree (model)", \
     $d6 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "tree recursive-doubling (sim)", \
     $d7 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "tree recursive-doubling (model)", \
     $d8 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "tree rabenseifner (sim)", \
     $d9 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "tree rabenseifner (model)"
set title "allgather"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d10 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "tree ring (sim)", \
     $d11 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "tree ring (model)", \
     $d12 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "tree ring-bidir (sim)", \
     $d13 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "tree ring-bidir (model)", \
     $d14 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "tree recursive-doubling (sim)", \
     $d15 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "tree recursive-doubling (model)", \
     $d16 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "tree bruck (sim)", \
     $d17 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "tree bruck (model)"
set title "reducescatter"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d18 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "tree ring (sim)", \
     $d19 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "tree ring (model)", \
     $d20 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "tree ring-bidir (sim)", \
     $d21 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "tree ring-bidir (model)", \
     $d22 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "tree recursive-halving (sim)", \
     $d23 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "tree recursive-halving (model)"
set title "broadcast"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d24 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "tree ring (sim)", \
     $d25 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "tree ring (model)", \
     $d26 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "tree ring-bidir (sim)", \
     $d27 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "tree ring-bidir (model)", \
     $d28 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "tree tree (sim)", \
     $d29 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "tree tree (model)"
set title "reduce"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d30 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "tree ring (sim)", \
     $d31 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "tree ring (model)", \
     $d32 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "tree ring-bidir (sim)", \
     $d33 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "tree ring-bidir (model)", \
     $d34 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "tree tree (sim)", \
     $d35 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "tree tree (model)"
set title "alltoall"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d36 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "tree direct (sim)", \
     $d37 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "tree direct (model)", \
     $d38 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "tree pairwise (sim)", \
     $d39 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "tree pairwise (model)", \
     $d40 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "tree bruck (sim)", \
     $d41 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "tree bruck (model)"
unset multiplot
