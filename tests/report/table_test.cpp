#include "report/table.h"

#include <gtest/gtest.h>

#include <sstream>

namespace commsim {
namespace {

TEST(Table, NcclTestsLayout) {
  Table table({{"size", "B", 8}, {"time", "us", 8}});
  table.add_row({"1024", "1.50"});
  std::ostringstream out;
  table.print(out);
  EXPECT_EQ(out.str(),
            "#   size     time\n"
            "#    (B)     (us)\n"
            "    1024     1.50\n");
}

TEST(Table, CsvQuotesOnlyWhenNeeded) {
  std::ostringstream out;
  write_csv_row(out, {"a", "b,c", "say \"hi\""});
  EXPECT_EQ(out.str(), "a,\"b,c\",\"say \"\"hi\"\"\"\n");
  EXPECT_EQ(fixed(2.0 / 3, 3), "0.667");
}

}  // namespace
}  // namespace commsim
