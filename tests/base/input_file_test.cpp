#include "base/input_file.h"

#include <gtest/gtest.h>

#include <fstream>

#include "base/error.h"

namespace commsim {
namespace {

std::string error_of(const std::string& path) {
  try {
    read_input_file(path, "trace file");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(InputFile, ReadsEveryByte) {
  const std::string path = std::string(COMMSIM_TEST_TMP_DIR) + "/input.bin";
  const std::string bytes("a\0b\nc", 5);
  std::ofstream(path, std::ios::binary) << bytes;
  EXPECT_EQ(read_input_file(path, "trace file"), bytes);
}

TEST(InputFile, MissingFilesAndDirectoriesNameThePath) {
  EXPECT_EQ(error_of("/nonexistent/t.pb"), "/nonexistent/t.pb: cannot open trace file");
  // A directory opens as a stream on Linux but is no input file.
  EXPECT_EQ(error_of(COMMSIM_TEST_TMP_DIR), std::string(COMMSIM_TEST_TMP_DIR) + ": cannot open trace file");
  EXPECT_EQ(error_of(""), "the trace file's name is empty");
}

}  // namespace
}  // namespace commsim
