#!/bin/sh
# Every published table of ../shared/validation/ against its shipped preset, with no
# tuning to the tables: writes results/validation/NAME.txt (the table) and NAME.csv.
# Run from the repository root after bash .ci/setup.
set -e
V=../shared/validation
run() { name=$1; shift; build/commsim validate "$@" --csv results/validation/$name.csv > results/validation/$name.txt; tail -1 results/validation/$name.txt | sed "s/^/$name: /"; }
run h100-node-all-gather --measurements $V/h100_1node_8gpu_xxrjun_all_gather.csv --topology-file topologies/h100-nvswitch-node.textproto
run h100-node-all-reduce --measurements $V/h100_1node_8gpu_xxrjun_all_reduce.csv --topology-file topologies/h100-nvswitch-node.textproto
run h100-node-alltoall --measurements $V/h100_1node_8gpu_xxrjun_alltoall.csv --topology-file topologies/h100-nvswitch-node.textproto
run h100-node-reduce-scatter --measurements $V/h100_1node_8gpu_xxrjun_reduce_scatter.csv --topology-file topologies/h100-nvswitch-node.textproto
run h100-node-sendrecv --measurements $V/h100_1node_8gpu_xxrjun_sendrecv.csv --topology-file topologies/h100-nvswitch-node.textproto
run a100-node-all-reduce --measurements $V/a100_1node_8gpu_allreduce_stas00.csv --topology-file topologies/a100-nvswitch-node.textproto
run a100-node-sendrecv --measurements $V/a100_1node_8gpu_sendrecv_liplus.csv --topology-file topologies/a100-nvswitch-node.textproto
run h100-10node-all-reduce --measurements $V/h100_10node_10gpu_1pernode_all_reduce.csv --topology-file topologies/h100-ib-cluster.textproto --nodes 10 --gpus-per-node 1
run h100-10node-sendrecv --measurements $V/h100_10node_10gpu_1pernode_sendrecv.csv --topology-file topologies/h100-ib-cluster.textproto --nodes 10 --gpus-per-node 1
run pcie-2080ti-pair --measurements $V/pcie_2080ti_2gpu_noP2P_collectives.csv --topology-file topologies/pcie-2080ti-pair-no-p2p.textproto
