#pragma once
// The columns of an nccl-tests table, as its header line names them. nccl-tests 2.x prints
// (src/common.cu, later src/util.cu writeResultHeader):
//
//   #       size         count      type   redop    root     time   algbw   busbw  #wrong
//           time   algbw   busbw  #wrong                  (on one line)
//
// the first time/algbw/busbw group out of place, the second in place. Older releases name
// the check column "error" (the largest deviation, "%5.0le", not a count), and print an
// empty root field when the root is -1 (the collectives without a root). Newer ones may add
// per-iteration columns after each group (i_min i_max i_p99 i_cv%, read past), end the header
// with "timestamp" (-S 1: each row ends with "%Y-%m-%d %H:%M:%S", two fields), or name the
// times "cputime" (-C 1: the host's time to launch an iteration, which is refused).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace commsim {

/// Why a time nccl-tests measured with -C 1 ("cputime", "cpu_time") is refused: read before
/// the collective completes (common.cu, cputimeSec), it is the host's launch, not the call.
inline constexpr std::string_view kCpuTimeIsNotTheCollectives =
    "the host's time to launch an iteration (nccl-tests -C 1), not the collective's; measure without -C";

/// The positions of one placement's fields in a row.
struct NcclTestsPlacementColumns {
  std::size_t time = 0;
  std::size_t algbw = 0;
  std::size_t busbw = 0;
  std::optional<std::size_t> check;   // "#wrong" or "error"
  bool check_counts_elements = true;  // "#wrong" (a count), not "error" (a deviation)
};

struct NcclTestsColumns {
  std::vector<std::string> names;  // as the header names them, one per field of a row
  std::size_t size = 0;
  std::size_t count = 0;
  std::size_t type = 0;
  std::size_t redop = 0;
  std::optional<std::size_t> root;
  std::vector<NcclTestsPlacementColumns> placements;  // out of place, then in place

  std::size_t field_count() const { return names.size(); }
  /// "size count type ...": the names, for messages.
  std::string names_text() const;
  /// The header nccl-tests prints today (above), for rows that come without one.
  static NcclTestsColumns standard();
};

/// The layout a column header line names, given its words after the '#'. Empty when the
/// words are no column header (they do not start with "size count"); InputError
/// "PATH:LINE: ..." when they are one without a column a row needs.
std::optional<NcclTestsColumns> parse_nccl_tests_columns(const std::vector<std::string_view>& words,
                                                         const std::string& where);

}  // namespace commsim
