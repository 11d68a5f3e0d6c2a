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
16 427.089133
32 406.398186
64 370.49943
128 314.871802
256 242.155963
EOD
$d3 << EOD
8 438.245343
16 427.089152
32 406.398204
64 370.499445
128 314.871718
256 242.155913
EOD
$d4 << EOD
8 156.868867
16 120.075617
32 96.515452
64 80.246267
128 68.44278
256 59.552648
EOD
$d5 << EOD
8 130.81142
16 105.11632
32 86.896158
64 73.5814237
128 63.5703461
256 55.8430449
EOD
$d6 << EOD
8 261.622841
16 210.23264
32 173.792316
64 147.162848
128 127.140692
256 111.68609
EOD
$d7 << EOD
8 261.622841
16 210.23264
32 173.792316
64 147.162848
128 127.140692
256 111.68609
EOD
$d8 << EOD
8 444.885958
16 443.653487
32 442.345401
64 440.988022
128 439.601609
256 438.200458
EOD
$d9 << EOD
8 444.885955
16 443.653485
32 442.345401
64 440.988022
128 439.601608
256 438.200457
EOD
$d10 << EOD
8 448.282304
16 448.396411
32 448.44796
64 448.472512
128 448.4845
256 448.490421
EOD
$d11 << EOD
8 448.282304
16 448.396409
32 448.44796
64 448.472512
128 448.484498
256 448.490423
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
16 427.089133
32 406.398186
64 370.49943
128 314.871802
256 242.155963
EOD
$d15 << EOD
8 438.245343
16 427.089153
32 406.398204
64 370.499445
128 314.871719
256 242.155913
EOD
$d16 << EOD
8 444.885958
16 443.653487
32 442.345401
64 440.988022
128 439.601609
256 438.200458
EOD
$d17 << EOD
8 444.885955
16 443.653487
32 442.345401
64 440.988022
128 439.601609
256 438.200455
EOD
$d18 << EOD
8 448.282304
16 448.396411
32 448.44796
64 448.472512
128 448.4845
256 448.490421
EOD
$d19 << EOD
8 448.282304
16 448.396411
32 448.44796
64 448.472512
128 448.4845
256 448.490421
EOD
$d20 << EOD
8 444.885958
16 443.653487
32 442.345401
64 440.988022
128 439.601609
256 438.200458
EOD
$d21 << EOD
8 444.885955
16 443.653487
32 442.345401
64 440.988022
128 439.601609
256 438.200455
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
16 427.089133
32 406.398186
64 370.49943
128 314.871802
256 242.155963
EOD
$d25 << EOD
8 438.245343
16 427.089153
32 406.398204
64 370.499445
128 314.871719
256 242.155913
EOD
$d26 << EOD
8 444.885958
16 443.653487
32 442.345401
64 440.988022
128 439.601609
256 438.200458
EOD
$d27 << EOD
8 444.885955
16 443.653487
32 442.345401
64 440.988022
128 439.601609
256 438.200455
EOD
$d28 << EOD
8 448.282304
16 448.396411
32 448.44796
64 448.472512
128 448.4845
256 448.490421
EOD
$d29 << EOD
8 448.282304
16 448.396411
32 448.44796
64 448.472512
128 448.4845
256 448.490421
EOD
$d30 << EOD
8 64.0709
16 29.899753
32 14.467623
64 7.118989
128 3.531467
256 1.758809
EOD
$d31 << EOD
8 64.0709001
16 29.899753
32 14.467623
64 7.11898901
128 3.531467
256 1.758809
EOD
$d32 << EOD
8 89.579526
16 49.722156
32 26.309734
64 13.549636
128 6.878021
256 3.465405
EOD
$d33 << EOD
8 89.5795259
16 49.7221558
32 26.3097339
64 13.5496359
128 6.87802096
256 3.46540498
EOD
$d34 << EOD
8 149.498766
16 112.124075
32 89.69926
64 74.749383
128 64.0709
256 56.062037
EOD
$d35 << EOD
8 149.498766
16 112.124075
32 89.6992601
64 74.7493831
128 64.0709001
256 56.062037
EOD
$d36 << EOD
8 64.0709
16 29.899753
32 14.467623
64 7.118989
128 3.531467
256 1.758809
EOD
$d37 << EOD
8 64.0709001
16 29.899753
32 14.467623
64 7.11898901
128 3.531467
256 1.758809
EOD
$d38 << EOD
8 89.579526
16 49.722156
32 26.309734
64 13.549636
128 6.878021
256 3.465405
EOD
$d39 << EOD
8 89.5795259
16 49.7221558
32 26.3097339
64 13.5496359
128 6.87802096
256 3.46540498
EOD
$d40 << EOD
8 149.498766
16 112.124075
32 89.69926
64 74.749383
128 64.0709
256 56.062037
EOD
$d41 << EOD
8 149.498766
16 112.124075
32 89.6992601
64 74.7493831
128 64.0709001
256 56.062037
EOD
$d42 << EOD
8 448.282304
16 448.396411
32 448.44796
64 448.472512
128 448.4845
256 448.490421
EOD
$d43 << EOD
8 448.282304
16 448.396411
32 448.44796
64 448.472512
128 448.4845
256 448.490421
EOD
$d44 << EOD
8 438.245346
16 427.089133
32 406.398186
64 370.49943
128 314.871802
256 242.155963
EOD
$d45 << EOD
8 438.245343
16 427.089153
32 406.398204
64 370.499445
128 314.871719
256 242.155913
EOD
$d46 << EOD
8 260.751526
16 209.532477
32 173.213514
64 146.672734
128 126.71726
256 111.314128
EOD
$d47 << EOD
8 260.751525
16 209.532476
32 173.213513
64 146.672733
128 126.717259
256 111.314127
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
plot $d0 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "switch ring (sim)", \
     $d1 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "switch ring (model)", \
     $d2 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "switch ring-bidir (sim)", \
     $d3 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "switch ring-bidir (model)", \
     $d4 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "switch tree (sim)", \
     $d5 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "switch tree (model)", \
     $d6 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "switch recursive-doubling (sim)", \
     $d7 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "switch recursive-doubling (model)", \
     $d8 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "switch rabenseifner (sim)", \
     $d9 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "switch rabenseifner (model)", \
     $d10 using 1:2 with points pt 7 ps 0.6 lc rgb "#8c564b" title "switch direct (sim)", \
     $d11 using 1:2 with lines lw 2 dt 1 lc rgb "#8c564b" title "switch direct (model)"
set title "allgather"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d12 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "switch ring (sim)", \
     $d13 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "switch ring (model)", \
     $d14 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "switch ring-bidir (sim)", \
     $d15 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "switch ring-bidir (model)", \
     $d16 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "switch recursive-doubling (sim)", \
     $d17 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "switch recursive-doubling (model)", \
     $d18 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "switch direct (sim)", \
     $d19 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "switch direct (model)", \
     $d20 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "switch bruck (sim)", \
     $d21 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "switch bruck (model)"
set title "reducescatter"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d22 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "switch ring (sim)", \
     $d23 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "switch ring (model)", \
     $d24 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "switch ring-bidir (sim)", \
     $d25 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "switch ring-bidir (model)", \
     $d26 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "switch recursive-halving (sim)", \
     $d27 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "switch recursive-halving (model)", \
     $d28 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "switch direct (sim)", \
     $d29 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "switch direct (model)"
set title "broadcast"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d30 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "switch ring (sim)", \
     $d31 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "switch ring (model)", \
     $d32 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "switch ring-bidir (sim)", \
     $d33 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "switch ring-bidir (model)", \
     $d34 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "switch tree (sim)", \
     $d35 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "switch tree (model)"
set title "reduce"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d36 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "switch ring (sim)", \
     $d37 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "switch ring (model)", \
     $d38 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "switch ring-bidir (sim)", \
     $d39 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "switch ring-bidir (model)", \
     $d40 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "switch tree (sim)", \
     $d41 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "switch tree (model)"
set title "alltoall"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d42 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "switch direct (sim)", \
     $d43 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "switch direct (model)", \
     $d44 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "switch pairwise (sim)", \
     $d45 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "switch pairwise (model)", \
     $d46 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "switch bruck (sim)", \
     $d47 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "switch bruck (model)"
unset multiplot
