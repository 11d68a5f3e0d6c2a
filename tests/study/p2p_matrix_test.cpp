#include "study/p2p_matrix.h"

#include <gtest/gtest.h>

#include "study_test_support.h"

namespace commsim {
namespace {

using testing::input_error_of;
using testing::kValidationDir;

std::string error_of(const std::string& rows) {
  return input_error_of(
      [&] { parse_p2p_matrices("matrix,src_gpu,dst_gpu,value\n" + rows, "m.csv"); });
}

TEST(P2pMatrix, TwoGpusOverPcie) {
  SKIP_WITHOUT_VALIDATION_DIR();
  const P2pMatrices m = read_p2p_matrices(kValidationDir + "p2p_matrix_2080ti_x2_pcie_noP2P.csv");
  ASSERT_EQ(m.size(), 8u);
  const Eigen::MatrixXd& unidir = m.at("unidir_bw_p2p_enabled_GBps");
  ASSERT_EQ(unidir.rows(), 2);
  ASSERT_EQ(unidir.cols(), 2);
  EXPECT_DOUBLE_EQ(unidir(0, 0), 538.62);  // a local copy
  EXPECT_DOUBLE_EQ(unidir(0, 1), 5.72);    // staged through the host: no peer access
  EXPECT_DOUBLE_EQ(unidir(1, 1), 532.54);
  EXPECT_DOUBLE_EQ(m.at("latency_p2p_disabled_gpu_us")(0, 1), 14.76);
  EXPECT_DOUBLE_EQ(m.at("latency_p2p_disabled_gpu_us")(1, 0), 13.95);
}

TEST(P2pMatrix, EightGpusOverNvSwitch) {
  SKIP_WITHOUT_VALIDATION_DIR();
  const P2pMatrices m =
      read_p2p_matrices(kValidationDir + "p2p_matrix_a100_sxm4_80gb_x8_distserve.csv");
  ASSERT_EQ(m.size(), 8u);
  for (const auto& [name, matrix] : m) {
    EXPECT_EQ(matrix.rows(), 8) << name;
    EXPECT_EQ(matrix.cols(), 8) << name;
  }
  const Eigen::MatrixXd& disabled = m.at("unidir_bw_p2p_disabled_GBps");
  EXPECT_DOUBLE_EQ(disabled(0, 0), 1521.42);
  EXPECT_DOUBLE_EQ(disabled(0, 1), 16.92);
  EXPECT_DOUBLE_EQ(disabled(1, 0), 17.06);
  EXPECT_DOUBLE_EQ(disabled(1, 1), 1533.37);
}

TEST(P2pMatrix, CellsInAnyOrder) {
  const P2pMatrices m = parse_p2p_matrices(
      "# two matrices, rows shuffled\n"
      "matrix,src_gpu,dst_gpu,value\n"
      "lat_us,1,1,1.5\nbw_GBps,0,0,500\nlat_us,0,0,1.4\nbw_GBps,1,0,20.5\n"
      "lat_us,1,0,9.5\nbw_GBps,0,1,21\nlat_us,0,1,9.25\nbw_GBps,1,1,501\n",
      "m.csv");
  ASSERT_EQ(m.size(), 2u);
  Eigen::MatrixXd bw(2, 2);
  bw << 500, 21, 20.5, 501;
  EXPECT_EQ(m.at("bw_GBps"), bw);
  EXPECT_DOUBLE_EQ(m.at("lat_us")(0, 1), 9.25);
}

TEST(P2pMatrix, NotSquare) {
  EXPECT_CONTAINS(error_of("bw,0,0,1\nbw,0,1,2\nbw,0,2,3\nbw,1,0,4\nbw,1,1,5\nbw,1,2,6\n"),
                  "m.csv:4: matrix 'bw' is 2 x 3 (src_gpu 0..1, dst_gpu 0..2), not square");
}

TEST(P2pMatrix, MissingCell) {
  EXPECT_CONTAINS(
      error_of("bw,0,0,1\nbw,0,1,2\nbw,1,1,4\n"),
      "m.csv:2: matrix 'bw' (from this line) has no cell src_gpu 1, dst_gpu 0 of its 2 x 2");
}

TEST(P2pMatrix, DuplicateCell) {
  EXPECT_CONTAINS(error_of("bw,0,0,1\nbw,0,1,2\nbw,0,1,2.5\n"),
                  "m.csv:4: matrix 'bw' has cell src_gpu 0, dst_gpu 1 twice (first at line 3)");
}

TEST(P2pMatrix, BadFields) {
  EXPECT_CONTAINS(error_of("bw,0,x,1\n"), "m.csv:2: dst_gpu: expected a whole number, got 'x'");
  EXPECT_CONTAINS(error_of("bw,0,0,fast\n"), "m.csv:2: value: cannot parse 'fast'");
  EXPECT_CONTAINS(error_of("bw,0,4096,1\n"), "m.csv:2: dst_gpu: '4096' is out of range [0, 1023]");
  EXPECT_CONTAINS(error_of(",0,0,1\n"), "m.csv:2: empty matrix name");
  EXPECT_CONTAINS(error_of("bw,0,0\n"), "m.csv:2: 3 fields, the header (m.csv:1) has 4");
  EXPECT_CONTAINS(error_of(""), "m.csv:1: no rows after the header");
  EXPECT_CONTAINS(
      input_error_of([] { parse_p2p_matrices("matrix,src,dst,value\nbw,0,0,1\n", "m.csv"); }),
      "m.csv:1: no column 'src_gpu' in the header");
}

}  // namespace
}  // namespace commsim
