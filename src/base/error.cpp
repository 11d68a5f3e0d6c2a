#include "base/error.h"

namespace commsim {

void fail_check(const char* condition, const char* file, int line,
                const std::string& message) {
  throw InternalError(std::string(file) + ":" + std::to_string(line) + ": check '" +
                      condition + "' failed: " + message);
}

}  // namespace commsim
