#include "collective/data_tracker.h"

#include <algorithm>

#include "base/error.h"

namespace commsim {
namespace {
void add(std::vector<std::uint64_t>& set, std::size_t member) {
  set[member / 64] |= std::uint64_t{1} << (member % 64);
}
}  // namespace

DataTracker::DataTracker(CollectiveKind kind, std::size_t ranks, std::size_t blocks,
                         std::size_t chunks, Rank root)
    : kind_(kind),
      ranks_(ranks),
      blocks_(blocks),
      chunks_(chunks),
      root_(root),
      words_((ranks + 63) / 64),
      sets_(ranks * chunks * blocks * words_, 0) {
  const std::size_t p = ranks;
  for (Rank r = 0; r < p; ++r) {
    for (std::size_t c = 0; c < chunks; ++c) {
      for (std::size_t b = 0; b < blocks; ++b) {
        bool holds = false;
        switch (kind) {
          case CollectiveKind::kAllGather: holds = b % p == r; break;
          case CollectiveKind::kAllToAll: holds = (b / p) % p == r; break;
          case CollectiveKind::kBroadcast: holds = r == root; break;
          default: holds = true;  // everyone contributes to every block
        }
        if (holds) set(r, c, b)[r / 64] |= std::uint64_t{1} << (r % 64);
      }
    }
  }
}

std::uint64_t* DataTracker::set(Rank rank, std::size_t chunk, std::size_t block) {
  return sets_.data() + ((rank * chunks_ + chunk) * blocks_ + block) * words_;
}

const std::uint64_t* DataTracker::set(Rank rank, std::size_t chunk, std::size_t block) const {
  return sets_.data() + ((rank * chunks_ + chunk) * blocks_ + block) * words_;
}

DataTracker::Snapshot DataTracker::take(Rank src, std::size_t chunk,
                                        const std::vector<BlockRange>& ranges) const {
  Snapshot s;
  for (const BlockRange& range : ranges) {
    for (std::uint32_t i = 0; i < range.count; ++i) {
      const std::uint32_t b = range.first + i * range.stride;
      COMMSIM_CHECK(b < blocks_, "schedule sends block " + std::to_string(b) + " of " +
                                     std::to_string(blocks_));
      s.blocks.push_back(b);
      const std::uint64_t* from = set(src, chunk, b);
      s.words.insert(s.words.end(), from, from + words_);
    }
  }
  return s;
}

void DataTracker::apply(Rank dst, std::size_t chunk, const Snapshot& snapshot, DataOp op) {
  for (std::size_t i = 0; i < snapshot.blocks.size(); ++i) {
    std::uint64_t* to = set(dst, chunk, snapshot.blocks[i]);
    const std::uint64_t* from = snapshot.words.data() + i * words_;
    for (std::size_t w = 0; w < words_; ++w) {
      if (op == DataOp::kReduce && (to[w] & from[w]) && first_error_.empty()) {
        first_error_ = "rank " + std::to_string(dst) + " chunk " + std::to_string(chunk) +
                       " block " + std::to_string(snapshot.blocks[i]) +
                       ": a reduction adds contributions it already holds: " +
                       describe(from) + " into " + describe(to);
      }
      to[w] = op == DataOp::kCopy ? from[w] : (to[w] | from[w]);
    }
  }
}

std::vector<std::uint64_t> DataTracker::expected(Rank rank, std::size_t block,
                                                 bool& checked) const {
  const std::size_t p = ranks_;
  std::vector<std::uint64_t> set(words_, 0);
  checked = true;
  const auto everyone = [&] {
    for (std::size_t r = 0; r < p; ++r) add(set, r);
  };
  switch (kind_) {
    case CollectiveKind::kAllReduce:
    case CollectiveKind::kBarrier: everyone(); break;
    case CollectiveKind::kAllGather: add(set, block % p); break;
    case CollectiveKind::kReduceScatter:
      checked = block % p == rank;
      everyone();
      break;
    case CollectiveKind::kBroadcast: add(set, root_); break;
    case CollectiveKind::kReduce:
      checked = rank == root_;
      everyone();
      break;
    case CollectiveKind::kAllToAll:
      checked = block % p == rank;
      add(set, (block / p) % p);
      break;
  }
  return set;
}

std::string DataTracker::describe(const std::uint64_t* set) const {
  std::string text = "{";
  for (std::size_t r = 0; r < ranks_; ++r) {
    if (!(set[r / 64] >> (r % 64) & 1)) continue;
    if (text.size() > 1) text += ',';
    text += std::to_string(r);
  }
  return text + "}";
}

std::string DataTracker::verify() const {
  if (!first_error_.empty()) return first_error_;
  for (Rank r = 0; r < ranks_; ++r) {
    for (std::size_t b = 0; b < blocks_; ++b) {
      bool checked = false;
      const std::vector<std::uint64_t> want = expected(r, b, checked);
      if (!checked) continue;
      for (std::size_t c = 0; c < chunks_; ++c) {
        const std::uint64_t* have = set(r, c, b);
        if (!std::equal(want.begin(), want.end(), have)) {
          return "rank " + std::to_string(r) + " chunk " + std::to_string(c) + " block " +
                 std::to_string(b) + " holds " + describe(have) + ", " +
                 std::string(collective_name(kind_)) + " defines " + describe(want.data());
        }
      }
    }
  }
  return "";
}

}  // namespace commsim
