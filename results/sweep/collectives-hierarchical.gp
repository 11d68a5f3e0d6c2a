$d0 << EOD
8 438.245346
16 48.835667
32 47.724327
64 45.646783
128 41.990876
256 36.193337
EOD
$d1 << EOD
8 438.245343
16 48.835667
32 47.724327
64 45.646783
128 41.990876
256 36.193337
EOD
$d2 << EOD
8 438.245346
16 95.448654
32 91.293567
64 83.981752
128 72.386675
256 56.723446
EOD
$d3 << EOD
8 438.245343
16 95.448654
32 91.293567
64 83.981752
128 72.386675
256 56.723446
EOD
$d4 << EOD
8 156.868867
16 38.235732
32 21.745839
64 15.243063
128 11.726826
256 9.519412
EOD
$d5 << EOD
8 130.81142
16 23.3678586
32 19.3174296
64 16.3575005
128 14.1319903
256 12.4141748
EOD
$d6 << EOD
8 261.622841
16 70.175253
32 41.445071
64 29.481827
128 22.859296
256 18.646801
EOD
$d7 << EOD
8 261.622841
16 70.175253
32 41.445071
64 29.481827
128 22.859296
256 18.646801
EOD
$d8 << EOD
8 444.885958
16 85.038824
32 62.226734
64 55.132189
128 52.184446
256 50.802636
EOD
$d9 << EOD
8 444.885955
16 85.038824
32 62.226734
64 55.132189
128 52.184446
256 50.802636
EOD
$d10 << EOD
8 438.245346
16 286.137152
32 244.57174
64 224.09263
128 207.250481
256 186.452514
EOD
$d11 << EOD
8 438.245343
16 286.137151
32 244.571739
64 224.092629
128 207.25048
256 186.452513
EOD
$d12 << EOD
8 438.245346
16 48.835667
32 47.724327
64 45.646783
128 41.990876
256 36.193337
EOD
$d13 << EOD
8 438.245343
16 48.835667
32 47.724327
64 45.646783
128 41.990876
256 36.193337
EOD
$d14 << EOD
8 438.245346
16 95.448654
32 91.293567
64 83.981752
128 72.386675
256 56.723446
EOD
$d15 << EOD
8 438.245343
16 95.448654
32 91.293567
64 83.981752
128 72.386675
256 56.723446
EOD
$d16 << EOD
8 444.885958
16 85.038824
32 62.226734
64 55.132189
128 52.184446
256 50.802636
EOD
$d17 << EOD
8 444.885955
16 85.038824
32 62.2267341
64 55.132189
128 52.184446
256 50.802636
EOD
$d18 << EOD
8 444.885958
16 49.684117
32 49.618389
64 49.549957
128 49.479821
256 49.408693
EOD
$d19 << EOD
8 444.885955
16 49.684117
32 49.618389
64 49.549957
128 49.479821
256 49.408693
EOD
$d20 << EOD
8 438.245346
16 286.137152
32 244.57174
64 224.09263
128 207.250481
256 186.452514
EOD
$d21 << EOD
8 438.245343
16 286.137151
32 244.571739
64 224.092629
128 207.25048
256 186.452513
EOD
$d22 << EOD
8 438.245346
16 48.835667
32 47.724327
64 45.646783
128 41.990876
256 36.193337
EOD
$d23 << EOD
8 438.245343
16 48.835667
32 47.724327
64 45.646783
128 41.990876
256 36.193337
EOD
$d24 << EOD
8 438.245346
16 95.448654
32 91.293567
64 83.981752
128 72.386675
256 56.723446
EOD
$d25 << EOD
8 438.245343
16 95.448654
32 91.293567
64 83.981752
128 72.386675
256 56.723446
EOD
$d26 << EOD
8 444.885958
16 85.038824
32 62.226734
64 55.132189
128 52.184446
256 50.802636
EOD
$d27 << EOD
8 444.885955
16 85.038824
32 62.2267341
64 55.132189
128 52.184446
256 50.802636
EOD
$d28 << EOD
8 438.245346
16 286.137152
32 244.57174
64 224.09263
128 207.250481
256 186.452514
EOD
$d29 << EOD
8 438.245343
16 286.137151
32 244.571739
64 224.092629
128 207.25048
256 186.452513
EOD
$d30 << EOD
8 64.0709
16 19.514015
32 8.161916
64 3.772584
128 1.817619
256 0.892562
EOD
$d31 << EOD
8 64.0709001
16 19.514015
32 8.161916
64 3.772584
128 1.817619
256 0.892562
EOD
$d32 << EOD
8 89.579526
16 28.900977
32 14.22063
64 7.05421
128 3.513244
256 1.753177
EOD
$d33 << EOD
8 89.5795259
16 28.9009769
32 14.22063
64 7.05420998
128 3.51324399
256 1.753177
EOD
$d34 << EOD
8 149.498766
16 37.426802
32 21.391004
64 14.974896
128 11.519645
256 9.359963
EOD
$d35 << EOD
8 149.498766
16 37.426802
32 21.391004
64 14.974896
128 11.519645
256 9.359963
EOD
$d36 << EOD
8 64.0709
16 28.06032
32 13.210543
64 6.417813
128 3.164009
256 1.571014
EOD
$d37 << EOD
8 64.0709001
16 28.06032
32 13.210543
64 6.417813
128 3.164009
256 1.571014
EOD
$d38 << EOD
8 64.0709
16 19.514015
32 8.161916
64 3.772584
128 1.817619
256 0.892562
EOD
$d39 << EOD
8 64.0709001
16 19.514015
32 8.161916
64 3.772584
128 1.817619
256 0.892562
EOD
$d40 << EOD
8 89.579526
16 28.900977
32 14.22063
64 7.05421
128 3.513244
256 1.753177
EOD
$d41 << EOD
8 89.5795259
16 28.1771137
32 14.0431171
64 7.01025283
128 3.50230669
256 1.75044913
EOD
$d42 << EOD
8 149.498766
16 37.426802
32 21.391004
64 14.974896
128 11.519645
256 9.359963
EOD
$d43 << EOD
8 149.498766
16 37.426802
32 21.391004
64 14.974896
128 11.519645
256 9.359963
EOD
$d44 << EOD
8 64.0709
16 28.06032
32 13.210543
64 6.417813
128 3.164009
256 1.571014
EOD
$d45 << EOD
8 64.0709001
16 28.06032
32 13.210543
64 6.417813
128 3.164009
256 1.571014
EOD
$d46 << EOD
8 448.282304
16 93.471433
32 64.455272
64 56.15437
128 52.832691
256 51.332332
EOD
$d47 << EOD
8 448.282304
16 93.471433
32 64.455272
64 56.15437
128 52.832691
256 51.332332
EOD
$d48 << EOD
8 438.245346
16 48.835667
32 47.724327
64 45.646783
128 41.990876
256 36.193337
EOD
$d49 << EOD
8 438.245343
16 48.835667
32 47.724327
64 45.646783
128 41.990876
256 36.193337
EOD
$d50 << EOD
8 260.751526
16 23.367858
32 19.31743
64 16.357501
128 14.131991
256 12.414175
EOD
$d51 << EOD
8 260.751525
16 23.367858
32 19.31743
64 16.357501
128 14.131991
256 12.414175
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
plot $d0 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "hierarchical ring (sim)", \
     $d1 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "hierarchical ring (model)", \
     $d2 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "hierarchical ring-bidir (sim)", \
     $d3 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "hierarchical ring-bidir (model)", \
     $d4 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "hierarchical tree (sim)", \
     $d5 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "hierarchical tree (model)", \
     $d6 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "hierarchical recursive-doubling (sim)", \
     $d7 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "hierarchical recursive-doubling (model)", \
     $d8 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "hierarchical rabenseifner (sim)", \
     $d9 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "hierarchical rabenseifner (model)", \
     $d10 using 1:2 with points pt 7 ps 0.6 lc rgb "#8c564b" title "hierarchical hierarchical (sim)", \
     $d11 using 1:2 with lines lw 2 dt 1 lc rgb "#8c564b" title "hierarchical hierarchical (model)"
set title "allgather"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d12 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "hierarchical ring (sim)", \
     $d13 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "hierarchical ring (model)", \
     $d14 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "hierarchical ring-bidir (sim)", \
     $d15 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "hierarchical ring-bidir (model)", \
     $d16 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "hierarchical recursive-doubling (sim)", \
     $d17 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "hierarchical recursive-doubling (model)", \
     $d18 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "hierarchical bruck (sim)", \
     $d19 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "hierarchical bruck (model)", \
     $d20 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "hierarchical hierarchical (sim)", \
     $d21 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "hierarchical hierarchical (model)"
set title "reducescatter"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d22 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "hierarchical ring (sim)", \
     $d23 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "hierarchical ring (model)", \
     $d24 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "hierarchical ring-bidir (sim)", \
     $d25 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "hierarchical ring-bidir (model)", \
     $d26 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "hierarchical recursive-halving (sim)", \
     $d27 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "hierarchical recursive-halving (model)", \
     $d28 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "hierarchical hierarchical (sim)", \
     $d29 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "hierarchical hierarchical (model)"
set title "broadcast"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d30 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "hierarchical ring (sim)", \
     $d31 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "hierarchical ring (model)", \
     $d32 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "hierarchical ring-bidir (sim)", \
     $d33 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "hierarchical ring-bidir (model)", \
     $d34 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "hierarchical tree (sim)", \
     $d35 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "hierarchical tree (model)", \
     $d36 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "hierarchical hierarchical (sim)", \
     $d37 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "hierarchical hierarchical (model)"
set title "reduce"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d38 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "hierarchical ring (sim)", \
     $d39 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "hierarchical ring (model)", \
     $d40 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "hierarchical ring-bidir (sim)", \
     $d41 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "hierarchical ring-bidir (model)", \
     $d42 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "hierarchical tree (sim)", \
     $d43 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "hierarchical tree (model)", \
     $d44 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "hierarchical hierarchical (sim)", \
     $d45 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "hierarchical hierarchical (model)"
set title "alltoall"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d46 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "hierarchical direct (sim)", \
     $d47 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "hierarchical direct (model)", \
     $d48 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "hierarchical pairwise (sim)", \
     $d49 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "hierarchical pairwise (model)", \
     $d50 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "hierarchical bruck (sim)", \
     $d51 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "hierarchical bruck (model)"
unset multiplot
