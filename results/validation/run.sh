#!/bin/sh
# Every published table of ../shared/validation/ (and the nccl-tests logs of tests/data)
# against its shipped preset, with no tuning
# to the tables (NAME.txt, NAME.csv, NAME.svg), and after calibration: each system's library
# fitted on one table (SYSTEM-calibrated.textproto, SYSTEM-calibrated.txt) and checked on
# the others (NAME-calibrated.txt, .csv, .svg). Run from the repository root after
# bash .ci/setup (gnuplot draws the plots).
set -e
V=../shared/validation
R=results/validation
run() {
  name=$1; shift
  build/commsim validate "$@" --csv $R/$name.csv --plot $R/$name.svg > $R/$name.txt
  tail -1 $R/$name.txt | sed "s/;.*//; s/^# |error| median \/ p90: /$name: /"
}
fit() {
  system=$1; shift
  build/commsim calibrate "$@" --output $R/$system-calibrated.textproto > $R/$system-calibrated.txt
  grep "median / p90 after" $R/$system-calibrated.txt | sed "s/;.*//; s/^# /$system calibrated, /"
}

H100=topologies/h100-nvswitch-node.textproto
A100=topologies/a100-nvswitch-node.textproto  # driven by one process, as the published A100 tables ran (-g 8)
CLUSTER=topologies/h100-ib-cluster.textproto
PCIE=topologies/pcie-2080ti-pair-no-p2p.textproto

echo "as shipped:"
run h100-node-all-gather --measurements $V/h100_1node_8gpu_xxrjun_all_gather.csv --topology-file $H100
run h100-node-all-reduce --measurements $V/h100_1node_8gpu_xxrjun_all_reduce.csv --topology-file $H100
run h100-node-alltoall --measurements $V/h100_1node_8gpu_xxrjun_alltoall.csv --topology-file $H100
run h100-node-reduce-scatter --measurements $V/h100_1node_8gpu_xxrjun_reduce_scatter.csv --topology-file $H100
run h100-node-sendrecv --measurements $V/h100_1node_8gpu_xxrjun_sendrecv.csv --topology-file $H100
run a100-node-all-reduce --measurements $V/a100_1node_8gpu_allreduce_stas00.csv --topology-file $A100
run a100-node-sendrecv --measurements $V/a100_1node_8gpu_sendrecv_liplus.csv --topology-file $A100
run h100-10node-all-reduce --measurements $V/h100_10node_10gpu_1pernode_all_reduce.csv --topology-file $CLUSTER
run h100-10node-sendrecv --measurements $V/h100_10node_10gpu_1pernode_sendrecv.csv --topology-file $CLUSTER
# The same cluster's nccl-tests log of all five operations, 10 nodes x 1 GPU (its header gives
# the shape); the preset's AllToAll factor is read from it.
run h100-10node-1gpu --measurements $V/nccl-tests-logs/h100_10node_1gpu_per_node.log --topology-file $CLUSTER
run pcie-2080ti-pair --measurements $V/pcie_2080ti_2gpu_noP2P_collectives.csv --topology-file $PCIE
# The same 10-node cluster with 2, 4 and 8 GPUs a node (nccl-tests logs in tests/data).
for g in 2 4 8; do
  run h100-10node-${g}gpu --measurements tests/data/nccl-tests-h100-10node-${g}gpu.log --topology-file $CLUSTER \
    --nodes 10 --gpus-per-node $g
done

# The same cluster measured the day before the 8- and 4-GPU logs (tests/data), from which nothing was read.
for g in 8 4; do
  run h100-10node-${g}gpu-day-before --measurements tests/data/nccl-tests-h100-10node-${g}gpu-day-before.csv \
    --topology-file $CLUSTER --nodes 10 --gpus-per-node $g
done

# 4 of the 8 GPUs of a node of the same cluster: the node preset scales to the log's ranks.
run h100-node-4gpu --measurements tests/data/nccl-tests-h100-node-4gpu.log --topology-file $H100
# 4 H100s of another node, one thread driving all 4 (-g 4), 8 B to 8 GiB (tests/data).
run h100-node-4gpu-g4 --measurements tests/data/nccl-tests-h100-node-4gpu-g4.log --topology-file $H100
# Another cluster, 16 H100 nodes x 8 GPUs, AllReduce from 8 B to 4 KiB (tests/data): latency alone.
run h100-16node-small --measurements tests/data/nccl-tests-h100-16node-small-allreduce.csv --topology-file $CLUSTER

echo "calibrated (fitted on the first table named, checked on the others):"
fit h100-node --measurements $V/h100_1node_8gpu_xxrjun_all_reduce.csv --topology-file $H100
fit a100-node --measurements $V/a100_1node_8gpu_allreduce_stas00.csv --topology-file $A100
fit h100-10node --measurements $V/h100_10node_10gpu_1pernode_all_reduce.csv --topology-file $CLUSTER
fit pcie-2080ti-pair --measurements $V/pcie_2080ti_2gpu_noP2P_collectives.csv --topology-file $PCIE
run h100-node-all-gather-calibrated --measurements $V/h100_1node_8gpu_xxrjun_all_gather.csv --topology-file $R/h100-node-calibrated.textproto
run h100-node-reduce-scatter-calibrated --measurements $V/h100_1node_8gpu_xxrjun_reduce_scatter.csv --topology-file $R/h100-node-calibrated.textproto
run h100-node-alltoall-calibrated --measurements $V/h100_1node_8gpu_xxrjun_alltoall.csv --topology-file $R/h100-node-calibrated.textproto
run h100-node-sendrecv-calibrated --measurements $V/h100_1node_8gpu_xxrjun_sendrecv.csv --topology-file $R/h100-node-calibrated.textproto
run a100-node-sendrecv-calibrated --measurements $V/a100_1node_8gpu_sendrecv_liplus.csv --topology-file $R/a100-node-calibrated.textproto
run h100-10node-sendrecv-calibrated --measurements $V/h100_10node_10gpu_1pernode_sendrecv.csv --topology-file $R/h100-10node-calibrated.textproto
# The 10-node cluster calibrated on its own 8-GPUs-a-node log (all five collectives), then
# checked on its 2- and 4-GPU logs: what such a fit carries across GPUs a node.
fit h100-10node-8gpu --measurements tests/data/nccl-tests-h100-10node-8gpu.log --topology-file $CLUSTER \
  --nodes 10 --gpus-per-node 8
# The same cluster calibrated on its three logs at once, each row on the spec at its own scale
# (10 x 2, 10 x 4, 10 x 8), with the 80- and 40-GPU runs of the day before held out.
fit h100-10node-scales --measurements tests/data/nccl-tests-h100-10node-2gpu.log tests/data/nccl-tests-h100-10node-4gpu.log \
  tests/data/nccl-tests-h100-10node-8gpu.log --holdout tests/data/nccl-tests-h100-10node-8gpu-day-before.csv \
  tests/data/nccl-tests-h100-10node-4gpu-day-before.csv --topology-file $CLUSTER
for g in 2 4; do
  run h100-10node-${g}gpu-calibrated-on-8gpu --measurements tests/data/nccl-tests-h100-10node-${g}gpu.log \
    --topology-file $R/h100-10node-8gpu-calibrated.textproto --nodes 10 --gpus-per-node $g
done
