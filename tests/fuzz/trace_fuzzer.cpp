// libFuzzer target for the workload readers and replay: commsim's trace format (binary and
// text), Chakra ET (as one rank, and as two ranks holding the same bytes so that peers and
// groups can be valid), and the communicator-group JSON; what loads is replayed on a switch
// of as many NPUs as it has ranks, when it has at most 8 ranks and 400 nodes
// (feed_readers.h). Bad input must end in InputError (a deadlock is one); anything else
// (another exception, a failed COMMSIM_CHECK, a crash, a sanitizer report, a hang) is a bug.
//
// Built by tests/CMakeLists.txt when the compiler accepts -fsanitize=fuzzer (clang):
//   CXX=clang++ cmake -S . -B build-fuzz -DCOMMSIM_SANITIZE=fuzzer-no-link,address,undefined
//   cmake --build build-fuzz --target trace_fuzzer
//   mkdir -p corpus && cp tests/data/chakra-samples/generator/*.et workloads/*.textproto corpus/
//   build-fuzz/tests/trace_fuzzer -max_total_time=300 corpus
// (COMMSIM_SANITIZE=fuzzer-no-link instruments the readers and replay for coverage; without
// it only this file is.)
#include <google/protobuf/stubs/logging.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "../workload/feed_readers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static google::protobuf::LogSilencer quiet;  // protobuf logs e.g. invalid UTF-8 in strings
  commsim::testing::feed_every_reader(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
