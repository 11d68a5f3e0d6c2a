#include "study/p2p_matrix.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/input_file.h"
#include "base/units.h"
#include "study/text_table.h"

namespace commsim {
namespace {

// More GPUs than any one machine holds: a larger index is a typo, not a matrix to allocate.
constexpr std::uint64_t kMaxGpuIndex = 1023;

using CellIndex = std::pair<std::size_t, std::size_t>;  // (src_gpu, dst_gpu)

// The cells of one matrix as read, before it is known to be square and complete.
struct MatrixCells {
  std::size_t first_line = 0;
  std::map<CellIndex, std::pair<double, std::size_t>> value_and_line;
  std::size_t src_count = 0;  // 1 + the largest src_gpu
  std::size_t dst_count = 0;
  std::size_t line_of_largest_src = 0;
  std::size_t line_of_largest_dst = 0;
};

struct Columns {
  std::size_t matrix, src, dst, value;
};

class MatrixReader {
 public:
  explicit MatrixReader(const std::string& origin) : origin_(origin) {}

  void read_row(const CsvRow& row, const Columns& c) {
    const std::vector<std::string_view>& f = row.fields;
    const std::string& where = row.location;
    const std::size_t line = row.line_number;
    const std::string name(f[c.matrix]);
    if (name.empty()) throw InputError(where + ": empty matrix name");
    const std::size_t src = parse_count(f[c.src], where + ": src_gpu", 0, kMaxGpuIndex);
    const std::size_t dst = parse_count(f[c.dst], where + ": dst_gpu", 0, kMaxGpuIndex);
    const double value = parse_real(f[c.value], where + ": value");
    MatrixCells& cells = matrices_[name];
    if (cells.first_line == 0) cells.first_line = line;
    const auto [previous, inserted] =
        cells.value_and_line.emplace(CellIndex{src, dst}, std::pair{value, line});
    if (!inserted) {
      throw InputError(where + ": matrix '" + name + "' has cell src_gpu " + std::to_string(src) +
                       ", dst_gpu " + std::to_string(dst) + " twice (first at line " +
                       std::to_string(previous->second.second) + ")");
    }
    if (src + 1 > cells.src_count) {
      cells.src_count = src + 1;
      cells.line_of_largest_src = line;
    }
    if (dst + 1 > cells.dst_count) {
      cells.dst_count = dst + 1;
      cells.line_of_largest_dst = line;
    }
  }

  P2pMatrices matrices() const {
    P2pMatrices result;
    for (const auto& [name, cells] : matrices_) result.emplace(name, square_matrix(name, cells));
    return result;
  }

 private:
  Eigen::MatrixXd square_matrix(const std::string& name, const MatrixCells& cells) const {
    if (cells.src_count != cells.dst_count) {
      const bool src_larger = cells.src_count > cells.dst_count;
      const std::size_t line = src_larger ? cells.line_of_largest_src : cells.line_of_largest_dst;
      throw InputError(line_location(origin_, line) + ": matrix '" + name + "' is " +
                       std::to_string(cells.src_count) + " x " + std::to_string(cells.dst_count) +
                       " (src_gpu 0.." + std::to_string(cells.src_count - 1) + ", dst_gpu 0.." +
                       std::to_string(cells.dst_count - 1) + "), not square");
    }
    const std::size_t n = cells.src_count;
    Eigen::MatrixXd matrix(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
    for (std::size_t src = 0; src < n; ++src) {
      for (std::size_t dst = 0; dst < n; ++dst) {
        const auto cell = cells.value_and_line.find({src, dst});
        if (cell == cells.value_and_line.end()) {
          throw InputError(line_location(origin_, cells.first_line) + ": matrix '" + name +
                           "' (from this line) has no cell src_gpu " + std::to_string(src) +
                           ", dst_gpu " + std::to_string(dst) + " of its " + std::to_string(n) +
                           " x " + std::to_string(n));
        }
        matrix(static_cast<Eigen::Index>(src), static_cast<Eigen::Index>(dst)) = cell->second.first;
      }
    }
    return matrix;
  }

  const std::string& origin_;
  std::map<std::string, MatrixCells> matrices_;
};

}  // namespace

P2pMatrices parse_p2p_matrices(std::string_view text, const std::string& origin) {
  const CsvFile csv = split_csv(text, origin, "matrix,src_gpu,dst_gpu,value");
  const Columns columns{csv.header.require("matrix"), csv.header.require("src_gpu"),
                        csv.header.require("dst_gpu"), csv.header.require("value")};
  MatrixReader reader(origin);
  for (const CsvRow& row : csv.rows) reader.read_row(row, columns);
  return reader.matrices();
}

P2pMatrices read_p2p_matrices(const std::string& path) {
  return parse_p2p_matrices(read_input_file(path, "p2pBandwidthLatencyTest matrix file"), path);
}

}  // namespace commsim
