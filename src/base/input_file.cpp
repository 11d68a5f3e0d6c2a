#include "base/input_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/error.h"

namespace commsim {

std::string read_input_file(const std::string& path, std::string_view what) {
  if (path.empty()) throw InputError("the " + std::string(what) + "'s name is empty");
  std::error_code ignored;
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path, ignored)) {
    throw InputError(path + ": cannot open " + std::string(what));
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw InputError(path + ": cannot read " + std::string(what));
  return bytes.str();
}

}  // namespace commsim
