#include "workload/chakra_reader.h"

#include <climits>
#include <filesystem>
#include <map>

#include "base/error.h"
#include "base/input_file.h"
#include "proto/chakra_et.pb.h"
#include "workload/chakra_node.h"
#include "workload/chakra_writer.h"

namespace commsim {
namespace {

// One length-prefixed message: its bytes and where its length varint starts.
struct FramedMessage {
  std::size_t offset = 0;
  std::string_view bytes;
};

// Splits a file into the messages of protobuf's writeDelimitedTo framing: each message is
// preceded by its length as a base-128 varint (7 bits a byte, least significant group first,
// high bit set on every byte but the last; at most 10 bytes for 64 bits).
class DelimitedReader {
 public:
  DelimitedReader(std::string_view file, std::string where)
      : file_(file), where_(std::move(where)) {}

  /// The next message, or nothing at the end of the file.
  std::optional<FramedMessage> next() {
    if (position_ == file_.size()) return std::nullopt;
    const std::size_t offset = position_;
    const std::uint64_t length = read_length(offset);
    const std::size_t left = file_.size() - position_;
    if (length > left) {
      throw InputError(where_ + ": " + message_name(count_, offset) + ": its length " +
                       std::to_string(length) + " runs past the end of the file (" +
                       std::to_string(left) + " bytes left): the file is truncated or corrupt");
    }
    FramedMessage message{offset, file_.substr(position_, length)};
    position_ += length;
    ++count_;
    return message;
  }

  /// "message #0 (GlobalMetadata) at byte 0", "message #3 (node) at byte 57".
  static std::string message_name(std::size_t index, std::size_t offset) {
    return "message #" + std::to_string(index) + (index == 0 ? " (GlobalMetadata)" : " (node)") +
           " at byte " + std::to_string(offset);
  }

  std::size_t count() const { return count_; }

 private:
  std::uint64_t read_length(std::size_t offset) {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (position_ == file_.size()) {
        throw InputError(where_ + ": " + message_name(count_, offset) +
                         ": the file ends inside its length varint (truncated)");
      }
      const auto byte = static_cast<std::uint8_t>(file_[position_++]);
      if (shift == 63 && byte > 1) break;  // more than 64 bits
      value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    throw InputError(where_ + ": " + message_name(count_, offset) +
                     ": its length varint is longer than 64 bits (corrupt file)");
  }

  std::string_view file_;
  std::string where_;
  std::size_t position_ = 0;
  std::size_t count_ = 0;
};

struct GroupLookup {
  const CommGroupFile* file = nullptr;
  std::map<std::string, std::size_t> index;
};

// One rank's file, and how many of its collectives name a process group that no group file
// resolves.
struct RankRead {
  RankTrace trace;
  std::size_t ungrouped_collectives = 0;
};

RankRead read_rank(std::string_view bytes, const std::string& source, Rank rank, std::size_t ranks,
                   const GroupLookup& groups) {
  const std::string where = source + ": rank " + std::to_string(rank);
  DelimitedReader reader(bytes, where);
  const auto metadata = reader.next();
  if (!metadata) throw InputError(where + ": empty file: no GlobalMetadata (truncated)");
  // Messages larger than 2 GiB cannot be parsed by protobuf.
  const auto parse = [&](const FramedMessage& m, google::protobuf::MessageLite& message) {
    return m.bytes.size() <= static_cast<std::size_t>(INT_MAX) &&
           message.ParseFromArray(m.bytes.data(), static_cast<int>(m.bytes.size()));
  };
  ChakraProtoMsg::GlobalMetadata global;
  if (!parse(*metadata, global)) {
    throw InputError(where + ": " + DelimitedReader::message_name(0, 0) +
                     ": not a Chakra GlobalMetadata (protobuf parse failed)");
  }
  const chakra::NodeOrigin origin{source, rank, ranks, groups.file, &groups.index};
  RankRead read{{source, {}}, 0};
  ChakraProtoMsg::Node node;
  while (const auto message = reader.next()) {
    if (!parse(*message, node)) {
      throw InputError(where + ": " +
                       DelimitedReader::message_name(reader.count() - 1, message->offset) +
                       ": not a Chakra Node (protobuf parse failed)");
    }
    const WorkloadNode& added = read.trace.nodes.emplace_back(chakra::to_workload_node(node, origin));
    if (!groups.file && added.kind == NodeKind::kCollective &&
        chakra::process_group_name(node, node_context(source, rank, added))) {
      ++read.ungrouped_collectives;
    }
  }
  return read;
}

GroupLookup group_lookup(const std::optional<CommGroupFile>& groups) {
  GroupLookup lookup;
  if (!groups) return lookup;
  lookup.file = &*groups;
  for (std::size_t i = 0; i < groups->groups.size(); ++i) {
    lookup.index.emplace(groups->groups[i].name, i);
  }
  return lookup;
}

std::string read_file(const std::string& path) {
  return read_input_file(path, "Chakra trace file");
}

// The ranks of the trace at `prefix`: its files up to the first missing one; at least one.
Rank count_rank_files(const std::string& prefix) {
  Rank ranks = 0;
  for (std::error_code error; std::filesystem::is_regular_file(chakra_rank_path(prefix, ranks), error);) {
    ++ranks;
  }
  if (ranks == 0) {
    throw InputError(chakra_rank_path(prefix, 0) + ": cannot open Chakra trace (expected one file per rank: " +
                     chakra_rank_path(prefix, 0) + ", " + chakra_rank_path(prefix, 1) + ", ...)");
  }
  return ranks;
}

// Every rank's file, one at a time (only one is in memory at once), with `groups`.
ChakraTrace read_chakra_files(const std::string& prefix, Rank ranks, const std::optional<CommGroupFile>& groups) {
  ChakraTrace trace;
  Workload& workload = trace.workload;
  workload.name = std::filesystem::path(prefix).filename().string();
  if (groups) workload.groups = groups->groups;
  const GroupLookup lookup = group_lookup(groups);
  for (Rank r = 0; r < ranks; ++r) {
    const std::string path = chakra_rank_path(prefix, r);
    RankRead read = read_rank(read_file(path), path, r, ranks, lookup);
    workload.ranks.push_back(std::move(read.trace));
    trace.ungrouped_collectives += read.ungrouped_collectives;
  }
  validate_workload(workload);
  return trace;
}

}  // namespace

Workload parse_chakra_trace(const std::vector<ChakraFile>& files,
                            const std::optional<CommGroupFile>& groups, const std::string& name) {
  Workload workload;
  workload.name = name;
  if (groups) workload.groups = groups->groups;
  const GroupLookup lookup = group_lookup(groups);
  for (Rank r = 0; r < files.size(); ++r) {
    workload.ranks.push_back(read_rank(files[r].bytes, files[r].name, r, files.size(), lookup).trace);
  }
  validate_workload(workload);
  return workload;
}

Workload load_chakra_trace(const std::string& prefix,
                           const std::optional<std::string>& comm_groups_path) {
  const Rank ranks = count_rank_files(prefix);
  std::optional<CommGroupFile> groups;
  if (comm_groups_path) groups = load_comm_groups_file(*comm_groups_path);
  return read_chakra_files(prefix, ranks, groups).workload;
}

ChakraTrace load_chakra_trace_and_groups(const std::string& prefix,
                                         const std::optional<std::string>& comm_groups_path) {
  const Rank ranks = count_rank_files(prefix);
  std::optional<std::string> path = comm_groups_path;
  const std::string beside = chakra_groups_path(prefix);
  std::error_code error;
  const bool found_beside = !path && std::filesystem::exists(beside, error);
  if (found_beside) path = beside;
  std::optional<CommGroupFile> groups;
  try {
    if (path) groups = load_comm_groups_file(*path);
  } catch (const InputError& e) {
    if (!found_beside) throw;
    throw InputError(std::string(e.what()) +
                     " (the group file found beside the trace, read as its communicator groups)");
  }
  ChakraTrace trace = read_chakra_files(prefix, ranks, groups);
  trace.groups_file = path;
  trace.groups_found_beside = found_beside;
  return trace;
}

}  // namespace commsim
