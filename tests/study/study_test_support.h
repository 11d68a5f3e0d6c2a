#pragma once
// What the tests of the measurement readers share: where the published measurements are,
// and the message of an InputError.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "../expect_contains.h"
#include "base/error.h"

namespace commsim::testing {

/// ../shared/validation: the published measurements, kept beside the project.
inline const std::string kValidationDir = std::string(COMMSIM_SHARED_DIR) + "/validation/";
inline const std::string kNcclTestsLogDir = kValidationDir + "nccl-tests-logs/";
/// tests/data: the project's own small inputs.
inline const std::string kTestDataDir = std::string(COMMSIM_SOURCE_DIR) + "/tests/data/";

/// The message of the InputError `read` throws, or "no error".
template <typename Read>
std::string input_error_of(Read&& read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace commsim::testing

// Tests of the published measurements skip, saying why, where ../shared is not checked out.
#define SKIP_WITHOUT_VALIDATION_DIR()                                                  \
  if (!std::filesystem::is_directory(::commsim::testing::kValidationDir)) {            \
    GTEST_SKIP() << ::commsim::testing::kValidationDir                                 \
                 << " is absent: the published measurements are read from ../shared, " \
                    "beside the project";                                              \
  }
