// The readers and replay must never crash or hang on bad bytes: every input either loads or
// throws InputError, and what loads replays (when small) or throws InputError, a deadlock
// say. Deterministic pseudo-random inputs, truncations and mutations of real files, so that
// it runs in CI with any compiler (tests/fuzz/trace_fuzzer.cpp does the same with libFuzzer
// where the compiler has it).
#include <google/protobuf/stubs/logging.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "chakra_test_files.h"
#include "feed_readers.h"
#include "workload/chakra_reader.h"
#include "workload/trace_file.h"

namespace commsim {
namespace {

std::size_t loaded = 0;    // inputs that loaded, to see the test reaches past the framing
std::size_t replayed = 0;  // and that replayed to the end, to see it reaches replay's core

void feed_every_reader(const std::string& bytes) {
  const testing::Fed fed = testing::feed_every_reader(bytes);
  loaded += fed.loaded;
  replayed += fed.replayed;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Bytes straight from the generator (std::mt19937's sequence is fixed by the standard;
// distributions are not, so none is used).
std::string random_bytes(std::mt19937& random, std::size_t size) {
  std::string bytes(size, '\0');
  for (char& c : bytes) c = static_cast<char>(random() & 0xff);
  return bytes;
}

class TraceReaderRobustness : public ::testing::Test {
 protected:
  google::protobuf::LogSilencer quiet_;  // protobuf logs e.g. invalid UTF-8 in strings
};

TEST_F(TraceReaderRobustness, RandomBytes) {
  std::mt19937 random(20240611);
  const std::string header = testing::chakra_file({});
  for (int i = 0; i < 3000; ++i) {
    const std::string bytes = random_bytes(random, random() % 300);
    feed_every_reader(bytes);
    feed_every_reader(header + bytes);  // past the GlobalMetadata, into the nodes
  }
}

// One Chakra rank with what replay must pass through or run: METADATA nodes before, between
// and after the real ones, a memory node without a duration, a compute, an AllReduce (of
// every rank: fed as two ranks it meets itself) and a barrier.
std::string chakra_with_metadata() {
  using testing::chakra_node;
  auto allreduce = testing::coll_node(4, ChakraProtoMsg::ALL_REDUCE, 4096);
  allreduce.add_data_deps(3);
  auto barrier = testing::coll_node(6, ChakraProtoMsg::BARRIER, 0);
  barrier.add_ctrl_deps(5);
  return testing::chakra_file({chakra_node(1, ChakraProtoMsg::METADATA_NODE), testing::comp_node(2, 3, {1}),
                               chakra_node(3, ChakraProtoMsg::MEM_LOAD_NODE, {2}), allreduce,
                               chakra_node(5, ChakraProtoMsg::METADATA_NODE, {4, 1}), barrier,
                               chakra_node(7, ChakraProtoMsg::METADATA_NODE, {6})});
}

TEST_F(TraceReaderRobustness, TruncationsAndMutationsOfRealFiles) {
  const Workload p2p = load_trace_file(std::string(COMMSIM_SOURCE_DIR) + "/workloads/hand-written-p2p.textproto");
  const std::vector<std::string> files = {
      chakra_with_metadata(),
      serialize_trace(p2p, TraceEncoding::kBinary),
      serialize_trace(p2p, TraceEncoding::kText),
      file_bytes(testing::kChakraSamples + "pipeline-4stages-8micro-1MiB/pipe.1.et"),
      file_bytes(testing::kChakraSamples + "generator/ALL_REDUCE.0.et"),
      file_bytes(testing::kChakraSamples + "generator/one_metadata_node_all_types.0.et"),
      serialize_trace(
          load_chakra_trace(testing::kChakraSamples + "pipeline-4stages-8micro-1MiB/pipe"),
          TraceEncoding::kBinary),
      serialize_trace(
          load_chakra_trace(testing::kChakraSamples + "pipeline-4stages-8micro-1MiB/pipe"),
          TraceEncoding::kText),
  };
  loaded = 0;
  replayed = 0;
  std::mt19937 random(7);
  for (const std::string& file : files) {
    ASSERT_GT(file.size(), 40u);
    const std::size_t step = file.size() / 2000 + 1;  // at most ~2000 cuts of a long file
    for (std::size_t size = 0; size <= file.size(); size += step) {
      feed_every_reader(file.substr(0, size));
    }
    for (int i = 0; i < 600; ++i) {
      std::string mutated = file;
      for (std::uint32_t flips = 1 + random() % 3; flips > 0; --flips) {
        mutated[random() % mutated.size()] = static_cast<char>(random() & 0xff);
      }
      feed_every_reader(mutated);
    }
  }
  EXPECT_GT(loaded, 300u);  // many inputs get past the framing and the node checks
  EXPECT_GT(replayed, 400u);  // and most of those replay to the end
}

}  // namespace
}  // namespace commsim
