#!/bin/sh
# Every sweep of results/sweep/, each a CSV with its plot (SVG, gnuplot script beside):
#   allreduce-scaling     AllReduce by ring, ring-bidir, recursive doubling and Rabenseifner
#                         on a ring, a switch and a torus of 8 to 1024 NPUs, 1 KiB to 1 GiB;
#                         bus bandwidth against NPUs at 1 GiB
#   collectives-KIND      every collective by every algorithm that applies, on each topology
#                         kind from 8 to 256 NPUs at 64 MiB; bus bandwidth against NPUs;
#                         collectives.txt: sim/model and sim/bound at the largest NPU count
#   h100-cluster-scaling  the H100 cluster preset (topologies/h100-ib-cluster.textproto) from 1
#                         to 64 nodes of 8 GPUs, AllReduce, AllGather, ReduceScatter and AllToAll
#                         as NCCL would pick them under its profile, 1 GiB; busbw against GPUs
#   contention            AllReduce and AllToAll where links are shared: ranks in order and
#                         scattered (random:1) on rings, meshes and tori, and trees 1:1, 2:1,
#                         4:1 oversubscribed; contention.txt lists every row with sim/model > 1.05
#   pipeline-modes        1F1B on 8 stages in the three P2P modes, on full-duplex NVLink and
#                         on half-duplex 100 Gb/s Ethernet with 10 us hops and 50 us launches
# All links 450 GB/s, 250 ns unless said, no library. Run from the repository root after
# bash .ci/setup; about 2 minutes on 2 cores.
set -e
R=results/sweep
sweep() {  # NAME, then the sweep's options
  name=$1
  shift
  rm -f $R/$name.csv
  build/commsim sweep "$@" --quiet --csv $R/$name.csv --plot $R/$name.svg > /dev/null
}
sweep allreduce-scaling --topology ring,switch,torus --npus 8:1024 \
  --dims 2x4,4x4,4x8,8x8,8x16,16x16,16x32,32x32 \
  --algorithm ring,ring-bidir,recursive-doubling,rabenseifner --sizes 1K:1G --plot-x npus --plot-y busbw
ALL=allreduce,allgather,reducescatter,broadcast,reduce,alltoall,barrier
for kind in ring switch fully-connected tree; do
  sweep collectives-$kind --topology $kind --npus 8:256 --collective $ALL --size 64M --plot-x npus --plot-y busbw
done
sweep collectives-hierarchical --topology hierarchical --nodes 1:32 --gpus-per-node 8 --collective $ALL \
  --size 64M --plot-x npus --plot-y busbw
# The H100 cluster preset from 1 to 64 nodes, NCCL's choice under its own library, 1 GiB.
sweep h100-cluster-scaling --topology-file topologies/h100-ib-cluster.textproto --nodes 1:64 --algorithm nccl \
  --collective allreduce,allgather,reducescatter,alltoall --size 1G --plot-x npus --plot-y busbw
for kind in mesh torus; do
  sweep collectives-$kind --topology $kind --dims 2x4,4x4,4x8,8x8,8x16,16x16 --collective $ALL --size 64M \
    --plot-x npus --plot-y busbw
done
sweep contention --topology ring,tree,mesh,torus --npus 16:256 --dims 4x4,8x8,16x16 --oversubscription 1,2,4 \
  --rank-order linear,random:1 --collective allreduce,alltoall --size 64M --plot-x npus --plot-y busbw
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
         $col["sim_over_model"] > 1.05 {
           printf "%-16s %-9s %-10s %-19s %10.3f\n", $col["topology"], $col["rank_order"], $col["collective"],
                  $col["algorithm"], $col["sim_over_model"] }' $R/contention.csv |
  { echo "# contention.csv: the rows where the simulation is over 5% slower than the closed form"
    echo "# topology       ranks     collective algorithm            sim/model"
    cat; } > $R/contention.txt
sweep pipeline-modes-nvlink --pipeline --topology ring --npus 8 --sizes 64K:256M --forward-time 200us \
  --backward-time 400us --overhead 5us --plot-x size
sweep pipeline-modes-ethernet --pipeline --topology ring --npus 8 --sizes 64K:256M --forward-time 200us \
  --backward-time 400us --bandwidth 100Gbps --latency 10us --link-kind ethernet --duplex half --overhead 50us \
  --plot-x size
# At the largest NPU count of each kind: sim/model and sim/bound of every collective and algorithm.
for kind in ring switch fully-connected tree hierarchical mesh torus; do
  awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
           { n = $col["npus"] + 0; if (n > most) { most = n; rows = "" }
             if (n == most) rows = rows sprintf("%-16s %-14s %-19s %10.3f %10s\n", $col["topology"], $col["collective"],
               $col["algorithm"], $col["sim_over_model"],
               $col["lower_bound_us"] > 0 ? sprintf("%.3f", $col["sim_time_us"] / $col["lower_bound_us"]) : "-") }
           END { printf "%s", rows }' $R/collectives-$kind.csv
done | { echo "# collectives-KIND.csv at the largest NPU count of each kind, 64 MiB: simulation over closed form and over lower bound"
         echo "# topology       collective     algorithm             sim/model  sim/bound"
         cat; } > $R/collectives.txt
