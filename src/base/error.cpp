#include "base/error.h"

namespace commsim {

DeadlockError deadlock_error(const std::string& headline, const std::vector<std::string>& involved) {
  std::string message = headline;
  for (const std::string& line : involved) message += "\n  " + line;
  return DeadlockError(message);
}

namespace {

/// The source file as the project names it: a build that compiles through relative paths
/// (a compiler cache, an out-of-tree build) gives __FILE__ as "../../src/...".
std::string project_path(std::string file) {
  while (file.rfind("../", 0) == 0 || file.rfind("./", 0) == 0) file.erase(0, file.find('/') + 1);
  return file;
}

}  // namespace

void fail_check(const char* condition, const char* file, int line,
                const std::string& message) {
  throw InternalError(project_path(file) + ":" + std::to_string(line) + ": check '" +
                      condition + "' failed: " + message);
}

}  // namespace commsim
