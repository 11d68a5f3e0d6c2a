#pragma once
// The matrices of CUDA's p2pBandwidthLatencyTest (cuda-samples), as CSV (the layout of
// ../shared/validation/p2p_matrix_*.csv): '#' lines giving the source and system, then
//
//   matrix,src_gpu,dst_gpu,value
//   unidir_bw_p2p_enabled_GBps,0,1,5.72
//
// one row per cell. The tool prints eight N x N matrices, named here with their unit:
//   unidir_bw_p2p_{disabled,enabled}_GBps   one GPU copying to another, GB/s
//   bidir_bw_p2p_{disabled,enabled}_GBps    both directions at once, GB/s
//   latency_p2p_{disabled,enabled}_{gpu,cpu}_us   GPU-side and CPU-side latency, us
// The diagonal is a GPU with itself (a local copy). Any matrix name is accepted.
//
// Every matrix must be square and have each cell exactly once: N = 1 + the largest index
// of either GPU column. Errors are InputError "PATH:LINE: ..." naming the matrix and cell.

#include <Eigen/Core>
#include <map>
#include <string>
#include <string_view>

namespace commsim {

/// value(src_gpu, dst_gpu) per matrix name, in the unit the name ends with.
using P2pMatrices = std::map<std::string, Eigen::MatrixXd>;

P2pMatrices read_p2p_matrices(const std::string& path);
/// The same from text in memory; `origin` names it in messages.
P2pMatrices parse_p2p_matrices(std::string_view text, const std::string& origin);

}  // namespace commsim
