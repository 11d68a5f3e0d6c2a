$d0 << EOD
16 438.245324
32 427.089133
64 406.398186
128 370.49956
256 314.871802
EOD
$d1 << EOD
16 438.245344
32 427.089153
64 406.398204
128 370.499444
256 314.871718
EOD
$d2 << EOD
16 854.178266
32 812.796371
64 740.999121
128 629.743605
256 484.311925
EOD
$d3 << EOD
16 854.178307
32 812.796407
64 740.998888
128 629.743438
256 484.311825
EOD
$d4 << EOD
16 119.675904
32 95.769021
64 79.022371
128 66.511396
256 56.542855
EOD
$d5 << EOD
16 205.427505
32 165.497047
64 133.34941
128 105.029976
256 78.4104374
EOD
$d6 << EOD
16 56.155861
32 28.077931
64 14.038965
128 7.019483
256 3.509741
EOD
$d7 << EOD
16 209.619739
32 172.581268
64 145.102159
128 123.801626
256 106.376355
EOD
$d8 << EOD
16 79.037655
32 40.710556
64 20.666893
128 10.413153
256 5.226735
EOD
$d9 << EOD
16 438.245344
32 427.089153
64 406.398202
128 370.499443
256 314.871744
EOD
$d10 << EOD
16 110.708954
32 55.502667
64 39.668236
128 20.972438
256 7.456805
EOD
$d11 << EOD
16 438.245342
32 427.089151
64 406.398202
128 370.499444
256 314.871726
EOD
$d12 << EOD
16 126.985189
32 59.631432
64 40.434333
128 21.731173
256 7.777007
EOD
$d13 << EOD
16 854.178305
32 812.796406
64 740.998894
128 629.743442
256 484.311818
EOD
$d14 << EOD
16 67.226821
32 51.013697
64 28.229754
128 15.913828
256 9.776177
EOD
$d15 << EOD
16 205.427506
32 165.497047
64 133.34941
128 105.029977
256 78.4104405
EOD
$d16 << EOD
16 46.826665
32 24.65554
64 12.790896
128 6.507697
256 3.005046
EOD
$d17 << EOD
16 209.619742
32 172.581269
64 145.102159
128 123.801618
256 106.376371
EOD
$d18 << EOD
16 101.750124
32 70.10276
64 35.958433
128 21.556526
256 11.463519
EOD
$d19 << EOD
16 438.245344
32 427.089156
64 406.398202
128 370.499451
256 314.871723
EOD
$d20 << EOD
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d21 << EOD
16 370.499444
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d22 << EOD
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d23 << EOD
16 370.499444
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d24 << EOD
16 119.053132
32 95.52277
64 79.283181
128 67.506016
256 58.638448
EOD
$d25 << EOD
16 104.073022
32 85.7500037
64 72.3722443
128 62.3208538
256 54.5666814
EOD
$d26 << EOD
16 209.184139
32 172.638552
64 145.94365
128 125.878798
256 110.394971
EOD
$d27 << EOD
16 209.184139
32 172.638552
64 145.94365
128 125.878798
256 110.394971
EOD
$d28 << EOD
16 434.462414
32 427.791739
64 419.961979
128 411.102882
256 401.365452
EOD
$d29 << EOD
16 434.462412
32 427.791739
64 419.961979
128 411.102881
256 401.365451
EOD
$d30 << EOD
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d31 << EOD
16 370.499444
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d32 << EOD
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d33 << EOD
16 370.499444
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d34 << EOD
16 118.996838
32 95.208016
64 78.998746
128 67.080958
256 58.267878
EOD
$d35 << EOD
16 104.073022
32 85.7500038
64 72.3722437
128 62.3208538
256 54.5666809
EOD
$d36 << EOD
16 208.146044
32 171.500007
64 144.744488
128 124.641707
256 109.133362
EOD
$d37 << EOD
16 209.184139
32 172.638553
64 145.943651
128 125.878798
256 110.394971
EOD
$d38 << EOD
16 425.644431
32 414.165235
64 400.849705
128 386.074256
256 370.242935
EOD
$d39 << EOD
16 434.462413
32 427.791739
64 419.961978
128 411.102882
256 401.36545
EOD
$d40 << EOD
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d41 << EOD
16 370.499444
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d42 << EOD
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d43 << EOD
16 370.499444
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d44 << EOD
16 119.053132
32 95.52277
64 79.283181
128 67.497462
256 58.625591
EOD
$d45 << EOD
16 104.073022
32 85.7500037
64 72.3722443
128 62.3208538
256 54.5666812
EOD
$d46 << EOD
16 119.961141
32 96.336677
64 80.027538
128 68.197428
256 59.288552
EOD
$d47 << EOD
16 209.184138
32 172.638553
64 145.94365
128 125.878799
256 110.394971
EOD
$d48 << EOD
16 228.531251
32 222.810259
64 218.908589
128 215.647116
256 212.539734
EOD
$d49 << EOD
16 434.462412
32 427.791738
64 419.961979
128 411.102881
256 401.36545
EOD
$d50 << EOD
16 203.199103
32 177.413881
64 136.883777
128 89.926724
256 50.753095
EOD
$d51 << EOD
16 370.499444
32 292.884508
64 196.724723
128 112.385532
256 57.2049282
EOD
$d52 << EOD
16 203.199103
32 177.413881
64 136.883777
128 89.926724
256 50.753095
EOD
$d53 << EOD
16 370.499444
32 292.884508
64 196.724723
128 112.385532
256 57.2049282
EOD
$d54 << EOD
16 88.039016
32 69.119663
64 69.697261
128 56.188032
256 46.300993
EOD
$d55 << EOD
16 104.073022
32 85.7500042
64 72.3722434
128 62.3208536
256 54.5666809
EOD
$d56 << EOD
16 104.80987
32 86.462777
64 73.092935
128 63.043686
256 55.29451
EOD
$d57 << EOD
16 209.184138
32 172.638552
64 145.943649
128 125.878799
256 110.394972
EOD
$d58 << EOD
16 219.295716
32 215.759284
64 212.417364
128 208.075655
256 203.531146
EOD
$d59 << EOD
16 434.462414
32 427.791738
64 419.961979
128 411.102882
256 401.365451
EOD
$d60 << EOD
16 203.199103
32 177.413881
64 136.883777
128 89.926724
256 50.753095
EOD
$d61 << EOD
16 203.199102
32 177.413888
64 136.883781
128 89.9267257
256 50.7530906
EOD
$d62 << EOD
16 213.408761
32 202.68144
64 175.660931
128 112.275149
256 57.190676
EOD
$d63 << EOD
16 370.499443
32 292.884508
64 196.724723
128 112.385533
256 57.2049285
EOD
$d64 << EOD
16 69.805411
32 54.061704
64 43.914068
128 36.854359
256 31.687197
EOD
$d65 << EOD
16 104.073021
32 85.7500028
64 72.3722436
128 62.320853
256 54.5666802
EOD
$d66 << EOD
16 64.736887
32 51.13549
64 42.046528
128 35.585125
256 30.785125
EOD
$d67 << EOD
16 119.961142
32 96.3366776
64 80.0275384
128 68.1974285
256 59.2885519
EOD
$d68 << EOD
16 117.316952
32 113.776011
64 111.831624
128 110.538102
256 109.504823
EOD
$d69 << EOD
16 228.531251
32 222.810258
64 218.908589
128 215.647116
256 212.539734
EOD
$d70 << EOD
16 106.772289
32 99.196688
64 85.107018
128 64.248319
256 41.411849
EOD
$d71 << EOD
16 203.199102
32 177.413887
64 136.88378
128 89.9267258
256 50.7530914
EOD
$d72 << EOD
16 106.772289
32 99.196688
64 85.107018
128 64.248319
256 41.411849
EOD
$d73 << EOD
16 370.499445
32 292.884507
64 196.724722
128 112.385532
256 57.2049291
EOD
$d74 << EOD
16 46.657733
32 34.7167
64 34.541874
128 28.395031
256 23.369013
EOD
$d75 << EOD
16 104.073022
32 85.7500028
64 72.3722446
128 62.320853
256 54.5666809
EOD
$d76 << EOD
16 52.569139
32 43.411813
64 36.729345
128 31.705713
256 27.82998
EOD
$d77 << EOD
16 119.961142
32 96.3366765
64 80.0275375
128 68.1974274
256 59.288552
EOD
$d78 << EOD
16 111.05562
32 110.141387
64 109.263854
128 108.100823
256 106.873108
EOD
$d79 << EOD
16 228.531252
32 222.810258
64 218.908589
128 215.647116
256 212.539735
EOD
$d80 << EOD
16 387.619406
64 179.853449
256 32.433361
EOD
$d81 << EOD
16 387.619422
64 179.853452
256 32.4333601
EOD
$d82 << EOD
16 387.619406
64 179.853449
256 32.433361
EOD
$d83 << EOD
16 680.856174
64 224.771066
256 33.6458581
EOD
$d84 << EOD
16 186.527186
64 117.364245
256 84.569348
EOD
$d85 << EOD
16 208.836959
64 145.221781
256 108.778182
EOD
$d86 << EOD
16 140.389653
64 63.175344
256 29.832801
EOD
$d87 << EOD
16 210.408412
64 147.080935
256 111.360486
EOD
$d88 << EOD
16 268.273045
64 148.817306
256 78.710473
EOD
$d89 << EOD
16 445.223271
64 439.521002
256 428.372076
EOD
$d90 << EOD
16 435.967719
64 385.63947
256 256.070343
EOD
$d91 << EOD
16 435.967721
64 385.63947
256 256.070346
EOD
$d92 << EOD
16 215.167967
64 105.231765
256 32.688195
EOD
$d93 << EOD
16 387.619421
64 179.853452
256 32.4333601
EOD
$d94 << EOD
16 179.550513
64 125.108374
256 35.384241
EOD
$d95 << EOD
16 680.856173
64 224.771065
256 33.6458578
EOD
$d96 << EOD
16 126.773059
64 66.291608
256 37.961381
EOD
$d97 << EOD
16 208.836959
64 145.22178
256 108.778182
EOD
$d98 << EOD
16 105.226201
64 37.674647
256 18.551862
EOD
$d99 << EOD
16 210.408413
64 147.080934
256 111.36049
EOD
$d100 << EOD
16 222.833389
64 110.171372
256 69.289947
EOD
$d101 << EOD
16 445.223271
64 439.521003
256 428.372076
EOD
$d102 << EOD
16 222.316653
64 110.789623
256 61.66501
EOD
$d103 << EOD
16 435.967722
64 385.639468
256 256.070347
EOD
$d104 << EOD
16 427.089133
64 370.49943
256 242.155963
EOD
$d105 << EOD
16 427.089152
64 370.499445
256 242.155913
EOD
$d106 << EOD
16 812.796371
64 629.743605
256 331.294841
EOD
$d107 << EOD
16 812.796408
64 629.743437
256 331.294794
EOD
$d108 << EOD
16 167.961611
64 110.073286
256 80.760118
EOD
$d109 << EOD
16 208.836958
64 145.221781
256 108.778182
EOD
$d110 << EOD
16 140.389653
64 63.175344
256 29.832801
EOD
$d111 << EOD
16 210.408412
64 147.080935
256 111.360486
EOD
$d112 << EOD
16 268.273045
64 148.817306
256 78.710473
EOD
$d113 << EOD
16 445.223271
64 439.521002
256 428.372076
EOD
$d114 << EOD
16 881.093774
64 859.037882
256 817.455544
EOD
$d115 << EOD
16 881.09378
64 859.037882
256 817.455559
EOD
$d116 << EOD
16 216.297668
64 109.289125
256 47.940134
EOD
$d117 << EOD
16 427.089152
64 370.499443
256 242.155912
EOD
$d118 << EOD
16 284.726108
64 141.211698
256 52.667695
EOD
$d119 << EOD
16 812.796408
64 629.743436
256 331.294794
EOD
$d120 << EOD
16 129.241051
64 75.044972
256 45.104874
EOD
$d121 << EOD
16 208.836959
64 145.221779
256 108.778181
EOD
$d122 << EOD
16 105.25921
64 45.964998
256 24.192184
EOD
$d123 << EOD
16 210.408413
64 147.080935
256 111.360489
EOD
$d124 << EOD
16 224.24815
64 128.629599
256 81.172757
EOD
$d125 << EOD
16 445.223272
64 439.521004
256 428.372075
EOD
$d126 << EOD
16 296.671047
64 151.298271
256 81.317826
EOD
$d127 << EOD
16 881.093781
64 859.037879
256 817.455554
EOD
$d128 << EOD
16 186.389035
32 101.930239
64 53.346307
128 27.295745
256 13.807116
EOD
$d129 << EOD
16 874.96699
32 852.777733
64 811.548262
128 739.969524
256 629.002717
EOD
$d130 << EOD
16 102.713752
32 51.717827
64 25.003014
128 11.487654
256 4.900652
EOD
$d131 << EOD
16 403.789911
32 311.850938
64 164.002438
128 56.8144414
256 15.7488409
EOD
$d132 << EOD
16 56.062037
32 28.031019
64 14.015509
128 7.007755
256 3.503877
EOD
$d133 << EOD
16 208.318342
32 170.824062
64 142.634927
128 120.25219
256 101.240986
EOD
$d134 << EOD
16 186.389035
32 101.930239
64 53.346307
128 27.295745
256 13.807116
EOD
$d135 << EOD
16 874.96699
32 852.777733
64 811.548262
128 739.969524
256 629.002717
EOD
$d136 << EOD
16 118.349102
32 70.085391
64 37.971047
128 19.251449
256 8.041917
EOD
$d137 << EOD
16 403.789914
32 311.850938
64 164.002441
128 56.8144388
256 15.7488428
EOD
$d138 << EOD
16 55.979939
32 24.655607
64 12.888295
128 6.444829
256 2.974421
EOD
$d139 << EOD
16 208.318345
32 170.824058
64 142.634931
128 120.252181
256 101.240993
EOD
$d140 << EOD
16 443.653487
32 442.345401
64 440.988022
128 439.601609
256 438.200455
EOD
$d141 << EOD
16 443.653487
32 442.345401
64 440.988022
128 439.601609
256 438.200455
EOD
$d142 << EOD
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d143 << EOD
16 370.499445
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d144 << EOD
16 205.427506
32 168.71828
64 141.945345
128 121.847602
256 106.355209
EOD
$d145 << EOD
16 205.427505
32 168.718279
64 141.945344
128 121.847601
256 106.355208
EOD
$d146 << EOD
16 443.653487
32 442.345401
64 440.988022
128 439.601609
256 438.200455
EOD
$d147 << EOD
16 443.653487
32 442.345401
64 440.988022
128 439.601609
256 438.200455
EOD
$d148 << EOD
16 370.49943
32 292.884498
64 196.724719
128 112.385543
256 57.204931
EOD
$d149 << EOD
16 370.499445
32 292.884507
64 196.724723
128 112.385532
256 57.2049282
EOD
$d150 << EOD
16 205.427506
32 168.71828
64 141.945345
128 121.847602
256 106.355209
EOD
$d151 << EOD
16 205.427505
32 168.718279
64 141.945344
128 121.847601
256 106.355208
EOD
$d152 << EOD
16 239.238038
32 230.439708
64 226.279629
128 224.114066
256 222.873327
EOD
$d153 << EOD
16 443.653486
32 442.345401
64 440.988023
128 439.601608
256 438.200454
EOD
$d154 << EOD
16 216.216904
32 182.044302
64 138.218512
128 90.210621
256 50.79803
EOD
$d155 << EOD
16 370.499446
32 292.884508
64 196.724723
128 112.385533
256 57.204928
EOD
$d156 << EOD
16 118.716163
32 95.103558
64 78.810254
128 66.996588
256 58.103277
EOD
$d157 << EOD
16 205.427506
32 168.718279
64 141.945343
128 121.847602
256 106.355209
EOD
$d158 << EOD
16 239.238038
32 230.439708
64 226.279629
128 224.114066
256 222.873327
EOD
$d159 << EOD
16 443.653486
32 442.345401
64 440.988023
128 439.601608
256 438.200454
EOD
$d160 << EOD
16 203.363306
32 177.413881
64 136.883777
128 89.926724
256 50.753095
EOD
$d161 << EOD
16 370.499444
32 292.884508
64 196.724723
128 112.385532
256 57.2049282
EOD
$d162 << EOD
16 104.073022
32 85.750003
64 72.372244
128 62.320853
256 54.566681
EOD
$d163 << EOD
16 205.427505
32 168.718278
64 141.945344
128 121.8476
256 106.355209
EOD
$d164 << EOD
16 120.075617
32 115.732635
64 113.724132
128 112.720988
256 112.184733
EOD
$d165 << EOD
16 443.653486
32 442.345402
64 440.988023
128 439.60161
256 438.200456
EOD
$d166 << EOD
16 113.98436
32 102.100791
64 86.141408
128 64.538537
256 41.471715
EOD
$d167 << EOD
16 203.199101
32 177.413887
64 136.88378
128 89.9267255
256 50.7530907
EOD
$d168 << EOD
16 59.80951
32 47.990553
64 39.832814
128 33.91634
256 29.461364
EOD
$d169 << EOD
16 104.073023
32 85.7500034
64 72.3722441
128 62.3208538
256 54.5666805
EOD
$d170 << EOD
16 120.075617
32 115.732635
64 113.724132
128 112.720988
256 112.184733
EOD
$d171 << EOD
16 443.653486
32 442.345402
64 440.988023
128 439.60161
256 438.200456
EOD
$d172 << EOD
16 106.817609
32 99.196688
64 85.107018
128 64.248319
256 41.411849
EOD
$d173 << EOD
16 203.199102
32 177.413887
64 136.88378
128 89.9267258
256 50.7530914
EOD
$d174 << EOD
16 52.383119
32 43.231389
64 36.546468
128 31.521843
256 27.644396
EOD
$d175 << EOD
16 104.073022
32 85.7500043
64 72.3722444
128 62.3208539
256 54.5666801
EOD
$d176 << EOD
16 417.673917
64 218.915475
256 110.66912
EOD
$d177 << EOD
16 881.093775
64 859.037881
256 817.455564
EOD
$d178 << EOD
16 262.476235
64 116.465745
256 32.557142
EOD
$d179 << EOD
16 399.939653
64 210.516741
256 42.1334303
EOD
$d180 << EOD
16 139.378856
64 62.458573
256 29.364301
EOD
$d181 << EOD
16 208.146044
64 143.253546
256 105.101065
EOD
$d182 << EOD
16 417.673917
64 218.915475
256 110.66912
EOD
$d183 << EOD
16 881.093775
64 859.037881
256 817.455564
EOD
$d184 << EOD
16 209.320322
64 114.967473
256 38.997597
EOD
$d185 << EOD
16 399.939653
64 210.51674
256 42.1334295
EOD
$d186 << EOD
16 104.722641
64 37.530814
256 17.961242
EOD
$d187 << EOD
16 208.146044
64 143.253547
256 105.101065
EOD
$d188 << EOD
16 557.515422
64 350.613327
256 196.871855
EOD
$d189 << EOD
16 1749.934
64 1706.97713
256 1624.97536
EOD
$d190 << EOD
16 269.792372
64 132.186379
256 48.738435
EOD
$d191 << EOD
16 421.368321
64 303.306215
256 96.8023862
EOD
$d192 << EOD
16 139.999155
64 63.024663
256 29.769694
EOD
$d193 << EOD
16 209.532475
64 146.266789
256 110.486204
EOD
$d194 << EOD
16 557.515422
64 350.613327
256 196.871855
EOD
$d195 << EOD
16 1749.934
64 1706.97713
256 1624.97536
EOD
$d196 << EOD
16 230.052692
64 136.966703
256 55.951974
EOD
$d197 << EOD
16 421.36832
64 303.306217
256 96.8023855
EOD
$d198 << EOD
16 105.02858
64 50.464489
256 23.691841
EOD
$d199 << EOD
16 209.532475
64 146.26679
256 110.486201
EOD
set terminal svg size 1640,440 font "sans,11" background "white"
set key outside right top vertical font ",9"
set grid
set multiplot layout 1,2 title "commsim sweep at 64M"
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
     $d9 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "ring rabenseifner (model)", \
     $d10 using 1:2 with points pt 7 ps 0.6 lc rgb "#8c564b" title "ring ring random:1 (sim)", \
     $d11 using 1:2 with lines lw 2 dt 1 lc rgb "#8c564b" title "ring ring random:1 (model)", \
     $d12 using 1:2 with points pt 7 ps 0.6 lc rgb "#e377c2" title "ring ring-bidir random:1 (sim)", \
     $d13 using 1:2 with lines lw 2 dt 1 lc rgb "#e377c2" title "ring ring-bidir random:1 (model)", \
     $d14 using 1:2 with points pt 7 ps 0.6 lc rgb "#7f7f7f" title "ring tree random:1 (sim)", \
     $d15 using 1:2 with lines lw 2 dt 1 lc rgb "#7f7f7f" title "ring tree random:1 (model)", \
     $d16 using 1:2 with points pt 7 ps 0.6 lc rgb "#bcbd22" title "ring recursive-doubling random:1 (sim)", \
     $d17 using 1:2 with lines lw 2 dt 1 lc rgb "#bcbd22" title "ring recursive-doubling random:1 (model)", \
     $d18 using 1:2 with points pt 7 ps 0.6 lc rgb "#17becf" title "ring rabenseifner random:1 (sim)", \
     $d19 using 1:2 with lines lw 2 dt 1 lc rgb "#17becf" title "ring rabenseifner random:1 (model)", \
     $d20 using 1:2 with points pt 7 ps 0.6 lc rgb "#393b79" title "tree ring (sim)", \
     $d21 using 1:2 with lines lw 2 dt 1 lc rgb "#393b79" title "tree ring (model)", \
     $d22 using 1:2 with points pt 7 ps 0.6 lc rgb "#637939" title "tree ring-bidir (sim)", \
     $d23 using 1:2 with lines lw 2 dt 1 lc rgb "#637939" title "tree ring-bidir (model)", \
     $d24 using 1:2 with points pt 5 ps 0.6 lc rgb "#1f77b4" title "tree tree (sim)", \
     $d25 using 1:2 with lines lw 2 dt 2 lc rgb "#1f77b4" title "tree tree (model)", \
     $d26 using 1:2 with points pt 5 ps 0.6 lc rgb "#ff7f0e" title "tree recursive-doubling (sim)", \
     $d27 using 1:2 with lines lw 2 dt 2 lc rgb "#ff7f0e" title "tree recursive-doubling (model)", \
     $d28 using 1:2 with points pt 5 ps 0.6 lc rgb "#2ca02c" title "tree rabenseifner (sim)", \
     $d29 using 1:2 with lines lw 2 dt 2 lc rgb "#2ca02c" title "tree rabenseifner (model)", \
     $d30 using 1:2 with points pt 5 ps 0.6 lc rgb "#d62728" title "tree ring random:1 (sim)", \
     $d31 using 1:2 with lines lw 2 dt 2 lc rgb "#d62728" title "tree ring random:1 (model)", \
     $d32 using 1:2 with points pt 5 ps 0.6 lc rgb "#9467bd" title "tree ring-bidir random:1 (sim)", \
     $d33 using 1:2 with lines lw 2 dt 2 lc rgb "#9467bd" title "tree ring-bidir random:1 (model)", \
     $d34 using 1:2 with points pt 5 ps 0.6 lc rgb "#8c564b" title "tree tree random:1 (sim)", \
     $d35 using 1:2 with lines lw 2 dt 2 lc rgb "#8c564b" title "tree tree random:1 (model)", \
     $d36 using 1:2 with points pt 5 ps 0.6 lc rgb "#e377c2" title "tree recursive-doubling random:1 (sim)", \
     $d37 using 1:2 with lines lw 2 dt 2 lc rgb "#e377c2" title "tree recursive-doubling random:1 (model)", \
     $d38 using 1:2 with points pt 5 ps 0.6 lc rgb "#7f7f7f" title "tree rabenseifner random:1 (sim)", \
     $d39 using 1:2 with lines lw 2 dt 2 lc rgb "#7f7f7f" title "tree rabenseifner random:1 (model)", \
     $d40 using 1:2 with points pt 5 ps 0.6 lc rgb "#bcbd22" title "tree-os2 ring (sim)", \
     $d41 using 1:2 with lines lw 2 dt 2 lc rgb "#bcbd22" title "tree-os2 ring (model)", \
     $d42 using 1:2 with points pt 5 ps 0.6 lc rgb "#17becf" title "tree-os2 ring-bidir (sim)", \
     $d43 using 1:2 with lines lw 2 dt 2 lc rgb "#17becf" title "tree-os2 ring-bidir (model)", \
     $d44 using 1:2 with points pt 5 ps 0.6 lc rgb "#393b79" title "tree-os2 tree (sim)", \
     $d45 using 1:2 with lines lw 2 dt 2 lc rgb "#393b79" title "tree-os2 tree (model)", \
     $d46 using 1:2 with points pt 5 ps 0.6 lc rgb "#637939" title "tree-os2 recursive-doubling (sim)", \
     $d47 using 1:2 with lines lw 2 dt 2 lc rgb "#637939" title "tree-os2 recursive-doubling (model)", \
     $d48 using 1:2 with points pt 9 ps 0.6 lc rgb "#1f77b4" title "tree-os2 rabenseifner (sim)", \
     $d49 using 1:2 with lines lw 2 dt 3 lc rgb "#1f77b4" title "tree-os2 rabenseifner (model)", \
     $d50 using 1:2 with points pt 9 ps 0.6 lc rgb "#ff7f0e" title "tree-os2 ring random:1 (sim)", \
     $d51 using 1:2 with lines lw 2 dt 3 lc rgb "#ff7f0e" title "tree-os2 ring random:1 (model)", \
     $d52 using 1:2 with points pt 9 ps 0.6 lc rgb "#2ca02c" title "tree-os2 ring-bidir random:1 (sim)", \
     $d53 using 1:2 with lines lw 2 dt 3 lc rgb "#2ca02c" title "tree-os2 ring-bidir random:1 (model)", \
     $d54 using 1:2 with points pt 9 ps 0.6 lc rgb "#d62728" title "tree-os2 tree random:1 (sim)", \
     $d55 using 1:2 with lines lw 2 dt 3 lc rgb "#d62728" title "tree-os2 tree random:1 (model)", \
     $d56 using 1:2 with points pt 9 ps 0.6 lc rgb "#9467bd" title "tree-os2 recursive-doubling random:1 (sim)", \
     $d57 using 1:2 with lines lw 2 dt 3 lc rgb "#9467bd" title "tree-os2 recursive-doubling random:1 (model)", \
     $d58 using 1:2 with points pt 9 ps 0.6 lc rgb "#8c564b" title "tree-os2 rabenseifner random:1 (sim)", \
     $d59 using 1:2 with lines lw 2 dt 3 lc rgb "#8c564b" title "tree-os2 rabenseifner random:1 (model)", \
     $d60 using 1:2 with points pt 9 ps 0.6 lc rgb "#e377c2" title "tree-os4 ring (sim)", \
     $d61 using 1:2 with lines lw 2 dt 3 lc rgb "#e377c2" title "tree-os4 ring (model)", \
     $d62 using 1:2 with points pt 9 ps 0.6 lc rgb "#7f7f7f" title "tree-os4 ring-bidir (sim)", \
     $d63 using 1:2 with lines lw 2 dt 3 lc rgb "#7f7f7f" title "tree-os4 ring-bidir (model)", \
     $d64 using 1:2 with points pt 9 ps 0.6 lc rgb "#bcbd22" title "tree-os4 tree (sim)", \
     $d65 using 1:2 with lines lw 2 dt 3 lc rgb "#bcbd22" title "tree-os4 tree (model)", \
     $d66 using 1:2 with points pt 9 ps 0.6 lc rgb "#17becf" title "tree-os4 recursive-doubling (sim)", \
     $d67 using 1:2 with lines lw 2 dt 3 lc rgb "#17becf" title "tree-os4 recursive-doubling (model)", \
     $d68 using 1:2 with points pt 9 ps 0.6 lc rgb "#393b79" title "tree-os4 rabenseifner (sim)", \
     $d69 using 1:2 with lines lw 2 dt 3 lc rgb "#393b79" title "tree-os4 rabenseifner (model)", \
     $d70 using 1:2 with points pt 9 ps 0.6 lc rgb "#637939" title "tree-os4 ring random:1 (sim)", \
     $d71 using 1:2 with lines lw 2 dt 3 lc rgb "#637939" title "tree-os4 ring random:1 (model)", \
     $d72 using 1:2 with points pt 11 ps 0.6 lc rgb "#1f77b4" title "tree-os4 ring-bidir random:1 (sim)", \
     $d73 using 1:2 with lines lw 2 dt 4 lc rgb "#1f77b4" title "tree-os4 ring-bidir random:1 (model)", \
     $d74 using 1:2 with points pt 11 ps 0.6 lc rgb "#ff7f0e" title "tree-os4 tree random:1 (sim)", \
     $d75 using 1:2 with lines lw 2 dt 4 lc rgb "#ff7f0e" title "tree-os4 tree random:1 (model)", \
     $d76 using 1:2 with points pt 11 ps 0.6 lc rgb "#2ca02c" title "tree-os4 recursive-doubling random:1 (sim)", \
     $d77 using 1:2 with lines lw 2 dt 4 lc rgb "#2ca02c" title "tree-os4 recursive-doubling random:1 (model)", \
     $d78 using 1:2 with points pt 11 ps 0.6 lc rgb "#d62728" title "tree-os4 rabenseifner random:1 (sim)", \
     $d79 using 1:2 with lines lw 2 dt 4 lc rgb "#d62728" title "tree-os4 rabenseifner random:1 (model)", \
     $d80 using 1:2 with points pt 11 ps 0.6 lc rgb "#9467bd" title "mesh ring (sim)", \
     $d81 using 1:2 with lines lw 2 dt 4 lc rgb "#9467bd" title "mesh ring (model)", \
     $d82 using 1:2 with points pt 11 ps 0.6 lc rgb "#8c564b" title "mesh ring-bidir (sim)", \
     $d83 using 1:2 with lines lw 2 dt 4 lc rgb "#8c564b" title "mesh ring-bidir (model)", \
     $d84 using 1:2 with points pt 11 ps 0.6 lc rgb "#e377c2" title "mesh tree (sim)", \
     $d85 using 1:2 with lines lw 2 dt 4 lc rgb "#e377c2" title "mesh tree (model)", \
     $d86 using 1:2 with points pt 11 ps 0.6 lc rgb "#7f7f7f" title "mesh recursive-doubling (sim)", \
     $d87 using 1:2 with lines lw 2 dt 4 lc rgb "#7f7f7f" title "mesh recursive-doubling (model)", \
     $d88 using 1:2 with points pt 11 ps 0.6 lc rgb "#bcbd22" title "mesh rabenseifner (sim)", \
     $d89 using 1:2 with lines lw 2 dt 4 lc rgb "#bcbd22" title "mesh rabenseifner (model)", \
     $d90 using 1:2 with points pt 11 ps 0.6 lc rgb "#17becf" title "mesh dimensional (sim)", \
     $d91 using 1:2 with lines lw 2 dt 4 lc rgb "#17becf" title "mesh dimensional (model)", \
     $d92 using 1:2 with points pt 11 ps 0.6 lc rgb "#393b79" title "mesh ring random:1 (sim)", \
     $d93 using 1:2 with lines lw 2 dt 4 lc rgb "#393b79" title "mesh ring random:1 (model)", \
     $d94 using 1:2 with points pt 11 ps 0.6 lc rgb "#637939" title "mesh ring-bidir random:1 (sim)", \
     $d95 using 1:2 with lines lw 2 dt 4 lc rgb "#637939" title "mesh ring-bidir random:1 (model)", \
     $d96 using 1:2 with points pt 13 ps 0.6 lc rgb "#1f77b4" title "mesh tree random:1 (sim)", \
     $d97 using 1:2 with lines lw 2 dt 5 lc rgb "#1f77b4" title "mesh tree random:1 (model)", \
     $d98 using 1:2 with points pt 13 ps 0.6 lc rgb "#ff7f0e" title "mesh recursive-doubling random:1 (sim)", \
     $d99 using 1:2 with lines lw 2 dt 5 lc rgb "#ff7f0e" title "mesh recursive-doubling random:1 (model)", \
     $d100 using 1:2 with points pt 13 ps 0.6 lc rgb "#2ca02c" title "mesh rabenseifner random:1 (sim)", \
     $d101 using 1:2 with lines lw 2 dt 5 lc rgb "#2ca02c" title "mesh rabenseifner random:1 (model)", \
     $d102 using 1:2 with points pt 13 ps 0.6 lc rgb "#d62728" title "mesh dimensional random:1 (sim)", \
     $d103 using 1:2 with lines lw 2 dt 5 lc rgb "#d62728" title "mesh dimensional random:1 (model)", \
     $d104 using 1:2 with points pt 13 ps 0.6 lc rgb "#9467bd" title "torus ring (sim)", \
     $d105 using 1:2 with lines lw 2 dt 5 lc rgb "#9467bd" title "torus ring (model)", \
     $d106 using 1:2 with points pt 13 ps 0.6 lc rgb "#8c564b" title "torus ring-bidir (sim)", \
     $d107 using 1:2 with lines lw 2 dt 5 lc rgb "#8c564b" title "torus ring-bidir (model)", \
     $d108 using 1:2 with points pt 13 ps 0.6 lc rgb "#e377c2" title "torus tree (sim)", \
     $d109 using 1:2 with lines lw 2 dt 5 lc rgb "#e377c2" title "torus tree (model)", \
     $d110 using 1:2 with points pt 13 ps 0.6 lc rgb "#7f7f7f" title "torus recursive-doubling (sim)", \
     $d111 using 1:2 with lines lw 2 dt 5 lc rgb "#7f7f7f" title "torus recursive-doubling (model)", \
     $d112 using 1:2 with points pt 13 ps 0.6 lc rgb "#bcbd22" title "torus rabenseifner (sim)", \
     $d113 using 1:2 with lines lw 2 dt 5 lc rgb "#bcbd22" title "torus rabenseifner (model)", \
     $d114 using 1:2 with points pt 13 ps 0.6 lc rgb "#17becf" title "torus dimensional (sim)", \
     $d115 using 1:2 with lines lw 2 dt 5 lc rgb "#17becf" title "torus dimensional (model)", \
     $d116 using 1:2 with points pt 13 ps 0.6 lc rgb "#393b79" title "torus ring random:1 (sim)", \
     $d117 using 1:2 with lines lw 2 dt 5 lc rgb "#393b79" title "torus ring random:1 (model)", \
     $d118 using 1:2 with points pt 13 ps 0.6 lc rgb "#637939" title "torus ring-bidir random:1 (sim)", \
     $d119 using 1:2 with lines lw 2 dt 5 lc rgb "#637939" title "torus ring-bidir random:1 (model)", \
     $d120 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "torus tree random:1 (sim)", \
     $d121 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "torus tree random:1 (model)", \
     $d122 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "torus recursive-doubling random:1 (sim)", \
     $d123 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "torus recursive-doubling random:1 (model)", \
     $d124 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "torus rabenseifner random:1 (sim)", \
     $d125 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "torus rabenseifner random:1 (model)", \
     $d126 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "torus dimensional random:1 (sim)", \
     $d127 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "torus dimensional random:1 (model)"
set title "alltoall"
set xlabel "NPUs"
set ylabel "busbw (GB/s)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
plot $d128 using 1:2 with points pt 7 ps 0.6 lc rgb "#1f77b4" title "ring direct (sim)", \
     $d129 using 1:2 with lines lw 2 dt 1 lc rgb "#1f77b4" title "ring direct (model)", \
     $d130 using 1:2 with points pt 7 ps 0.6 lc rgb "#ff7f0e" title "ring pairwise (sim)", \
     $d131 using 1:2 with lines lw 2 dt 1 lc rgb "#ff7f0e" title "ring pairwise (model)", \
     $d132 using 1:2 with points pt 7 ps 0.6 lc rgb "#2ca02c" title "ring bruck (sim)", \
     $d133 using 1:2 with lines lw 2 dt 1 lc rgb "#2ca02c" title "ring bruck (model)", \
     $d134 using 1:2 with points pt 7 ps 0.6 lc rgb "#d62728" title "ring direct random:1 (sim)", \
     $d135 using 1:2 with lines lw 2 dt 1 lc rgb "#d62728" title "ring direct random:1 (model)", \
     $d136 using 1:2 with points pt 7 ps 0.6 lc rgb "#9467bd" title "ring pairwise random:1 (sim)", \
     $d137 using 1:2 with lines lw 2 dt 1 lc rgb "#9467bd" title "ring pairwise random:1 (model)", \
     $d138 using 1:2 with points pt 7 ps 0.6 lc rgb "#8c564b" title "ring bruck random:1 (sim)", \
     $d139 using 1:2 with lines lw 2 dt 1 lc rgb "#8c564b" title "ring bruck random:1 (model)", \
     $d140 using 1:2 with points pt 7 ps 0.6 lc rgb "#e377c2" title "tree direct (sim)", \
     $d141 using 1:2 with lines lw 2 dt 1 lc rgb "#e377c2" title "tree direct (model)", \
     $d142 using 1:2 with points pt 7 ps 0.6 lc rgb "#7f7f7f" title "tree pairwise (sim)", \
     $d143 using 1:2 with lines lw 2 dt 1 lc rgb "#7f7f7f" title "tree pairwise (model)", \
     $d144 using 1:2 with points pt 7 ps 0.6 lc rgb "#bcbd22" title "tree bruck (sim)", \
     $d145 using 1:2 with lines lw 2 dt 1 lc rgb "#bcbd22" title "tree bruck (model)", \
     $d146 using 1:2 with points pt 7 ps 0.6 lc rgb "#17becf" title "tree direct random:1 (sim)", \
     $d147 using 1:2 with lines lw 2 dt 1 lc rgb "#17becf" title "tree direct random:1 (model)", \
     $d148 using 1:2 with points pt 7 ps 0.6 lc rgb "#393b79" title "tree pairwise random:1 (sim)", \
     $d149 using 1:2 with lines lw 2 dt 1 lc rgb "#393b79" title "tree pairwise random:1 (model)", \
     $d150 using 1:2 with points pt 7 ps 0.6 lc rgb "#637939" title "tree bruck random:1 (sim)", \
     $d151 using 1:2 with lines lw 2 dt 1 lc rgb "#637939" title "tree bruck random:1 (model)", \
     $d152 using 1:2 with points pt 5 ps 0.6 lc rgb "#1f77b4" title "tree-os2 direct (sim)", \
     $d153 using 1:2 with lines lw 2 dt 2 lc rgb "#1f77b4" title "tree-os2 direct (model)", \
     $d154 using 1:2 with points pt 5 ps 0.6 lc rgb "#ff7f0e" title "tree-os2 pairwise (sim)", \
     $d155 using 1:2 with lines lw 2 dt 2 lc rgb "#ff7f0e" title "tree-os2 pairwise (model)", \
     $d156 using 1:2 with points pt 5 ps 0.6 lc rgb "#2ca02c" title "tree-os2 bruck (sim)", \
     $d157 using 1:2 with lines lw 2 dt 2 lc rgb "#2ca02c" title "tree-os2 bruck (model)", \
     $d158 using 1:2 with points pt 5 ps 0.6 lc rgb "#d62728" title "tree-os2 direct random:1 (sim)", \
     $d159 using 1:2 with lines lw 2 dt 2 lc rgb "#d62728" title "tree-os2 direct random:1 (model)", \
     $d160 using 1:2 with points pt 5 ps 0.6 lc rgb "#9467bd" title "tree-os2 pairwise random:1 (sim)", \
     $d161 using 1:2 with lines lw 2 dt 2 lc rgb "#9467bd" title "tree-os2 pairwise random:1 (model)", \
     $d162 using 1:2 with points pt 5 ps 0.6 lc rgb "#8c564b" title "tree-os2 bruck random:1 (sim)", \
     $d163 using 1:2 with lines lw 2 dt 2 lc rgb "#8c564b" title "tree-os2 bruck random:1 (model)", \
     $d164 using 1:2 with points pt 5 ps 0.6 lc rgb "#e377c2" title "tree-os4 direct (sim)", \
     $d165 using 1:2 with lines lw 2 dt 2 lc rgb "#e377c2" title "tree-os4 direct (model)", \
     $d166 using 1:2 with points pt 5 ps 0.6 lc rgb "#7f7f7f" title "tree-os4 pairwise (sim)", \
     $d167 using 1:2 with lines lw 2 dt 2 lc rgb "#7f7f7f" title "tree-os4 pairwise (model)", \
     $d168 using 1:2 with points pt 5 ps 0.6 lc rgb "#bcbd22" title "tree-os4 bruck (sim)", \
     $d169 using 1:2 with lines lw 2 dt 2 lc rgb "#bcbd22" title "tree-os4 bruck (model)", \
     $d170 using 1:2 with points pt 5 ps 0.6 lc rgb "#17becf" title "tree-os4 direct random:1 (sim)", \
     $d171 using 1:2 with lines lw 2 dt 2 lc rgb "#17becf" title "tree-os4 direct random:1 (model)", \
     $d172 using 1:2 with points pt 5 ps 0.6 lc rgb "#393b79" title "tree-os4 pairwise random:1 (sim)", \
     $d173 using 1:2 with lines lw 2 dt 2 lc rgb "#393b79" title "tree-os4 pairwise random:1 (model)", \
     $d174 using 1:2 with points pt 5 ps 0.6 lc rgb "#637939" title "tree-os4 bruck random:1 (sim)", \
     $d175 using 1:2 with lines lw 2 dt 2 lc rgb "#637939" title "tree-os4 bruck random:1 (model)", \
     $d176 using 1:2 with points pt 9 ps 0.6 lc rgb "#1f77b4" title "mesh direct (sim)", \
     $d177 using 1:2 with lines lw 2 dt 3 lc rgb "#1f77b4" title "mesh direct (model)", \
     $d178 using 1:2 with points pt 9 ps 0.6 lc rgb "#ff7f0e" title "mesh pairwise (sim)", \
     $d179 using 1:2 with lines lw 2 dt 3 lc rgb "#ff7f0e" title "mesh pairwise (model)", \
     $d180 using 1:2 with points pt 9 ps 0.6 lc rgb "#2ca02c" title "mesh bruck (sim)", \
     $d181 using 1:2 with lines lw 2 dt 3 lc rgb "#2ca02c" title "mesh bruck (model)", \
     $d182 using 1:2 with points pt 9 ps 0.6 lc rgb "#d62728" title "mesh direct random:1 (sim)", \
     $d183 using 1:2 with lines lw 2 dt 3 lc rgb "#d62728" title "mesh direct random:1 (model)", \
     $d184 using 1:2 with points pt 9 ps 0.6 lc rgb "#9467bd" title "mesh pairwise random:1 (sim)", \
     $d185 using 1:2 with lines lw 2 dt 3 lc rgb "#9467bd" title "mesh pairwise random:1 (model)", \
     $d186 using 1:2 with points pt 9 ps 0.6 lc rgb "#8c564b" title "mesh bruck random:1 (sim)", \
     $d187 using 1:2 with lines lw 2 dt 3 lc rgb "#8c564b" title "mesh bruck random:1 (model)", \
     $d188 using 1:2 with points pt 9 ps 0.6 lc rgb "#e377c2" title "torus direct (sim)", \
     $d189 using 1:2 with lines lw 2 dt 3 lc rgb "#e377c2" title "torus direct (model)", \
     $d190 using 1:2 with points pt 9 ps 0.6 lc rgb "#7f7f7f" title "torus pairwise (sim)", \
     $d191 using 1:2 with lines lw 2 dt 3 lc rgb "#7f7f7f" title "torus pairwise (model)", \
     $d192 using 1:2 with points pt 9 ps 0.6 lc rgb "#bcbd22" title "torus bruck (sim)", \
     $d193 using 1:2 with lines lw 2 dt 3 lc rgb "#bcbd22" title "torus bruck (model)", \
     $d194 using 1:2 with points pt 9 ps 0.6 lc rgb "#17becf" title "torus direct random:1 (sim)", \
     $d195 using 1:2 with lines lw 2 dt 3 lc rgb "#17becf" title "torus direct random:1 (model)", \
     $d196 using 1:2 with points pt 9 ps 0.6 lc rgb "#393b79" title "torus pairwise random:1 (sim)", \
     $d197 using 1:2 with lines lw 2 dt 3 lc rgb "#393b79" title "torus pairwise random:1 (model)", \
     $d198 using 1:2 with points pt 9 ps 0.6 lc rgb "#637939" title "torus bruck random:1 (sim)", \
     $d199 using 1:2 with lines lw 2 dt 3 lc rgb "#637939" title "torus bruck random:1 (model)"
unset multiplot
