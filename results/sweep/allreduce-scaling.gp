$d0 << EOD
8 449.62313
16 449.246891
32 448.496302
64 447.002617
128 444.044897
256 438.245324
512 427.089133
1024 406.398186
EOD
$d1 << EOD
8 449.62313
16 449.246891
32 448.496299
64 447.002614
128 444.044894
256 438.245344
512 427.089152
1024 406.398203
EOD
$d2 << EOD
8 898.493782
16 896.992603
32 894.005233
64 888.089793
128 876.490647
256 854.178266
512 812.796371
1024 740.999121
EOD
$d3 << EOD
8 898.493783
16 896.992598
32 894.005228
64 888.089788
128 876.490688
256 854.178305
512 812.796406
1024 740.998888
EOD
$d4 << EOD
8 112.488214
16 56.244107
32 28.122054
64 14.061027
128 7.030513
256 3.515257
512 1.757628
1024 0.878814
EOD
$d5 << EOD
8 262.435841
16 210.854654
32 174.261803
64 147.493991
128 127.324926
256 111.687558
512 99.2144586
1024 88.9586014
EOD
$d6 << EOD
8 149.958102
16 79.388279
32 40.896626
64 20.762805
128 10.461853
256 5.251274
512 2.630754
1024 1.31666
EOD
$d7 << EOD
8 449.62313
16 449.246891
32 448.496302
64 447.002614
128 444.044878
256 438.245334
512 427.089208
1024 406.398289
EOD
$d8 << EOD
8 449.246891
16 448.496299
32 447.002617
64 444.044897
128 438.245346
256 427.089133
512 406.398186
1024 370.49943
EOD
$d9 << EOD
8 449.246891
16 448.496299
32 447.002614
64 444.044894
128 438.245343
256 427.089152
512 406.398203
1024 370.499445
EOD
$d10 << EOD
8 449.246891
16 448.496299
32 447.002617
64 444.044897
128 438.245346
256 427.089133
512 406.398186
1024 370.49943
EOD
$d11 << EOD
8 449.246891
16 448.496299
32 447.002614
64 444.044894
128 438.245343
256 427.089152
512 406.398203
1024 370.499445
EOD
$d12 << EOD
8 262.445005
16 210.893308
32 174.338468
64 147.625315
128 127.540239
256 112.03707
512 99.783778
1024 89.893272
EOD
$d13 << EOD
8 262.445005
16 210.893308
32 174.338468
64 147.625315
128 127.540239
256 112.03707
512 99.783778
1024 89.893272
EOD
$d14 << EOD
8 449.67693
16 449.598028
32 449.513835
64 449.425974
128 449.33571
256 449.243943
512 449.151275
1024 449.05809
EOD
$d15 << EOD
8 449.67693
16 449.598028
32 449.513835
64 449.425974
128 449.33571
256 449.243943
512 449.151275
1024 449.05809
EOD
$d16 << EOD
8 449.246891
16 448.496299
32 447.002617
64 444.044897
128 438.245346
256 427.089133
512 406.398186
1024 370.49943
EOD
$d17 << EOD
8 449.246891
16 448.496299
32 447.002614
64 444.044894
128 438.245343
256 427.089152
512 406.398203
1024 370.499445
EOD
$d18 << EOD
8 449.246891
16 894.005233
32 888.089793
64 876.490693
128 854.178266
256 812.796371
512 740.998859
1024 629.743605
EOD
$d19 << EOD
8 896.992598
16 894.005228
32 888.089788
64 876.490688
128 854.178305
256 812.796406
512 740.998888
1024 629.743437
EOD
$d20 << EOD
8 196.854375
16 140.610268
32 87.178366
64 63.27462
128 40.585236
256 29.879682
512 19.524958
1024 14.500434
EOD
$d21 << EOD
8 262.463334
16 210.904355
32 174.338468
64 147.62016
128 127.524971
256 112.016536
512 99.7512677
1024 89.8537415
EOD
$d22 << EOD
8 286.27638
16 269.891414
32 156.682548
64 149.925531
128 81.492092
256 79.367568
512 41.481256
1024 40.884923
EOD
$d23 << EOD
8 449.784568
16 449.698453
32 449.513833
64 449.330445
128 448.956996
256 448.584473
512 447.837382
1024 447.092857
EOD
set terminal svg size 820,440 font "sans,11" background "white"
set key outside right top vertical font ",9"
set grid
set multiplot layout 1,1 title "commsim sweep at 1G"
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
     $d4 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "ring recursive-doubling (sim)", \
     $d5 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "ring recursive-doubling (model)", \
     $d6 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "ring rabenseifner (sim)", \
     $d7 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "ring rabenseifner (model)", \
     $d8 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "switch ring (sim)", \
     $d9 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "switch ring (model)", \
     $d10 using 1:2 with points pt 7 ps 0.6 lc rgb "#8c564b" title "switch ring-bidir (sim)", \
     $d11 using 1:2 with lines lw 2 dt 1 lc rgb "#8c564b" title "switch ring-bidir (model)", \
     $d12 using 1:2 with points pt 7 ps 0.6 lc rgb "#e377c2" title "switch recursive-doubling (sim)", \
     $d13 using 1:2 with lines lw 2 dt 1 lc rgb "#e377c2" title "switch recursive-doubling (model)", \
     $d14 using 1:2 with points pt 7 ps 0.6 lc rgb "#7f7f7f" title "switch rabenseifner (sim)", \
     $d15 using 1:2 with lines lw 2 dt 1 lc rgb "#7f7f7f" title "switch rabenseifner (model)", \
     $d16 using 1:2 with points pt 7 ps 0.6 lc rgb "#bcbd22" title "torus ring (sim)", \
     $d17 using 1:2 with lines lw 2 dt 1 lc rgb "#bcbd22" title "torus ring (model)", \
     $d18 using 1:2 with points pt 7 ps 0.6 lc rgb "#17becf" title "torus ring-bidir (sim)", \
     $d19 using 1:2 with lines lw 2 dt 1 lc rgb "#17becf" title "torus ring-bidir (model)", \
     $d20 using 1:2 with points pt 7 ps 0.6 lc rgb "#393b79" title "torus recursive-doubling (sim)", \
     $d21 using 1:2 with lines lw 2 dt 1 lc rgb "#393b79" title "torus recursive-doubling (model)", \
     $d22 using 1:2 with points pt 7 ps 0.6 lc rgb "#637939" title "torus rabenseifner (sim)", \
     $d23 using 1:2 with lines lw 2 dt 1 lc rgb "#637939" title "torus rabenseifner (model)"
unset multiplot
