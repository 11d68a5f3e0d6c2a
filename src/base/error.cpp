#include "base/error.h"

namespace commsim {

DeadlockError deadlock_error(const std::string& headline, const std::vector<std::string>& involved) {
  std::string message = headline;
  for (const std::string& line : involved) message += "\n  " + line;
  return DeadlockError(message);
}

void fail_check(const char* condition, const char* file, int line,
                const std::string& message) {
  throw InternalError(std::string(file) + ":" + std::to_string(line) + ": check '" +
                      condition + "' failed: " + message);
}

}  // namespace commsim
