#pragma once
// Splitting a sweep across machines: shard I of N runs the points whose index mod N is I, so
// every shard gets an even share of every part of the sweep, and the shards' outputs merged
// by point index are the unsharded output.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace commsim {

struct Shard {
  std::uint32_t index = 0;
  std::uint32_t count = 1;
  bool holds(std::size_t point) const { return point % count == index; }
  bool operator==(const Shard&) const = default;
};

/// "I/N" with 0 <= I < N. Throws InputError naming `what` otherwise.
Shard parse_shard(std::string_view text, std::string_view what);

/// A launcher's task index and count, if one set them, read through `getenv`:
///   Slurm job arrays   SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN (0 if unset) of
///                      SLURM_ARRAY_TASK_COUNT
///   Open MPI           OMPI_COMM_WORLD_RANK of OMPI_COMM_WORLD_SIZE
///   MPICH, Intel MPI   PMI_RANK of PMI_SIZE
/// in that order; a variable that is not a number is an InputError naming it.
std::optional<Shard> shard_from_environment(const std::function<const char*(const char*)>& getenv);

/// "3/8", as parse_shard reads it.
std::string shard_text(const Shard& shard);

}  // namespace commsim
