#pragma once
// Reading a whole input file (spec, trace, group file) with errors that name it.

#include <string>
#include <string_view>

namespace commsim {

/// The bytes of `path`. Throws InputError "PATH: cannot open WHAT" when it cannot be opened
/// or is a directory, "PATH: cannot read WHAT" when reading fails, and "the WHAT's name is
/// empty" for an empty path.
std::string read_input_file(const std::string& path, std::string_view what);

}  // namespace commsim
