#pragma once
// Two tiers of failure (DESIGN.md section 4):
//  - InputError: the user gave something we cannot use (a malformed file, a zero
//    bandwidth, a rank out of range). The message names the file or option, the field
//    and the value; the CLI prints it as "commsim: error: ..." and exits with status 2.
//  - COMMSIM_CHECK: an always-on internal invariant. Failing one is a bug in commsim.

#include <stdexcept>
#include <string>
#include <vector>

namespace commsim {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Work that can never finish: unmatched sends or receives, collectives some members never
/// reach, a wait cycle. The message names the ranks or stages and what each waits on.
class DeadlockError : public InputError {
 public:
  using InputError::InputError;
};

/// "<headline>\n  <involved[0]>\n  <involved[1]>...": a deadlock report, one indented line per
/// rank, stage or node involved, so that a report of many stays readable.
DeadlockError deadlock_error(const std::string& headline, const std::vector<std::string>& involved);

class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

[[noreturn]] void fail_check(const char* condition, const char* file, int line,
                             const std::string& message);

}  // namespace commsim

#define COMMSIM_CHECK(condition, message)                                   \
  do {                                                                      \
    if (!(condition)) {                                                     \
      ::commsim::fail_check(#condition, __FILE__, __LINE__, (message));     \
    }                                                                       \
  } while (false)
