#include "study/sweep_shard.h"

#include <charconv>

#include "base/error.h"

namespace commsim {
namespace {

std::optional<std::uint32_t> whole_number(std::string_view text) {
  std::uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::uint32_t variable(const std::function<const char*(const char*)>& getenv, const char* name) {
  const char* text = getenv(name);
  const auto value = whole_number(text ? text : "");
  if (!value) throw InputError("environment variable " + std::string(name) + "='" + (text ? text : "") + "' is not a whole number");
  return *value;
}

Shard checked(std::uint32_t index, std::uint32_t count, const std::string& what) {
  if (count == 0) throw InputError(what + ": a sweep cannot be split into 0 shards");
  if (index >= count) {
    throw InputError(what + ": shard " + std::to_string(index) + " of " + std::to_string(count) +
                     " does not exist (shards are numbered 0 to " + std::to_string(count - 1) + ")");
  }
  return {index, count};
}

}  // namespace

Shard parse_shard(std::string_view text, std::string_view what) {
  const std::size_t slash = text.find('/');
  const auto index = whole_number(text.substr(0, slash));
  const auto count = slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(slash + 1));
  if (!index || !count) {
    throw InputError(std::string(what) + ": '" + std::string(text) + "' is not I/N (shard I of N, e.g. 0/4)");
  }
  return checked(*index, *count, std::string(what) + " " + std::string(text));
}

std::optional<Shard> shard_from_environment(const std::function<const char*(const char*)>& getenv) {
  struct Launcher {
    const char* index;
    const char* count;
    const char* first;  // subtracted from the index, if set
  };
  for (const Launcher l : {Launcher{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN"},
                           Launcher{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", nullptr},
                           Launcher{"PMI_RANK", "PMI_SIZE", nullptr}}) {
    if (!getenv(l.index) || !getenv(l.count)) continue;
    const std::uint32_t first = l.first && getenv(l.first) ? variable(getenv, l.first) : 0;
    const std::uint32_t index = variable(getenv, l.index);
    if (index < first) throw InputError(std::string(l.index) + " is below " + l.first);
    return checked(index - first, variable(getenv, l.count), std::string(l.index) + " and " + l.count);
  }
  return std::nullopt;
}

std::string shard_text(const Shard& shard) { return std::to_string(shard.index) + "/" + std::to_string(shard.count); }

}  // namespace commsim
