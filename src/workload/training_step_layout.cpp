#include "workload/training_step_layout.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <tuple>

#include "base/error.h"

namespace commsim {
namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

InputError step_error(const std::string& message) { return InputError("training step: " + message); }

std::string rank_range(std::uint32_t ranks) {
  return "the step's " + std::to_string(ranks) + " ranks (0.." + std::to_string(ranks - 1) + ")";
}

// "tp3", or "dp07" among 10..99 groups: zero-padded so that name order is group order.
std::string group_name(const std::string& family, std::size_t group, std::size_t groups) {
  const std::size_t width = std::to_string(groups - 1).size();
  const std::string digits = std::to_string(group);
  return family + std::string(width - digits.size(), '0') + digits;
}

void place_pipelines(const TrainingStepShape& s, StepLayout& layout) {
  if (s.ranks < 1) throw step_error("ranks must be at least 1");
  layout.pipeline_of.assign(s.ranks, kNone);
  layout.stage_of.assign(s.ranks, 0);
  for (std::uint32_t k = 0; k < s.pipelines.size(); ++k) {
    const std::vector<Rank>& pipe = s.pipelines[k];
    if (pipe.size() != s.pipeline.stages) {
      throw step_error("pipeline " + std::to_string(k) + " has " + std::to_string(pipe.size()) +
                       " ranks, but the schedule has " + std::to_string(s.pipeline.stages) + " stages");
    }
    for (std::uint32_t stage = 0; stage < pipe.size(); ++stage) {
      const Rank r = pipe[stage];
      if (r >= s.ranks) {
        throw step_error("pipeline " + std::to_string(k) + " names rank " + std::to_string(r) + ", outside " +
                         rank_range(s.ranks));
      }
      if (layout.pipeline_of[r] != kNone) {
        throw step_error("rank " + std::to_string(r) + " is in pipeline " + std::to_string(layout.pipeline_of[r]) +
                         " and again in pipeline " + std::to_string(k));
      }
      layout.pipeline_of[r] = k;
      layout.stage_of[r] = stage;
    }
  }
  for (Rank r = 0; r < s.ranks; ++r) {
    if (layout.pipeline_of[r] == kNone) {
      throw step_error("rank " + std::to_string(r) + " is in no pipeline (" + std::to_string(s.pipelines.size()) +
                       " pipelines of " + std::to_string(s.pipeline.stages) + " stages for " +
                       std::to_string(s.ranks) + " ranks)");
    }
  }
}

// Registers every group under its name, in name order, and each rank's group per family.
void place_families(const TrainingStepShape& s, StepLayout& layout) {
  struct Named {
    std::string name;
    std::size_t family;
    std::size_t group;
  };
  std::vector<Named> named;
  for (std::size_t f = 0; f < s.families.size(); ++f) {
    const GroupFamily& family = s.families[f];
    if (family.name.empty()) throw step_error("family " + std::to_string(f) + " has no name");
    std::vector<std::uint32_t> group_of_rank(s.ranks, kNone);
    for (std::size_t g = 0; g < family.groups.size(); ++g) {
      const std::string name = group_name(family.name, g, family.groups.size());
      if (family.groups[g].empty()) throw step_error("family '" + family.name + "': group " + name + " is empty");
      for (const Rank r : family.groups[g]) {
        if (r >= s.ranks) {
          throw step_error("family '" + family.name + "': group " + name + " names rank " + std::to_string(r) +
                           ", outside " + rank_range(s.ranks));
        }
        if (group_of_rank[r] != kNone) {
          throw step_error("family '" + family.name + "': rank " + std::to_string(r) + " is in group " +
                           group_name(family.name, group_of_rank[r], family.groups.size()) + " and again in group " +
                           name + " (a rank is in at most one group of a family)");
        }
        group_of_rank[r] = static_cast<std::uint32_t>(g);
      }
      named.push_back({name, f, g});
    }
  }
  std::sort(named.begin(), named.end(),
            [](const Named& a, const Named& b) { return std::tie(a.name, a.family) < std::tie(b.name, b.family); });
  layout.group_of.assign(s.families.size(), std::vector<std::optional<std::size_t>>(s.ranks));
  for (std::size_t i = 0; i < named.size(); ++i) {
    const Named& n = named[i];
    if (i > 0 && named[i - 1].name == n.name) {
      throw step_error("families '" + s.families[named[i - 1].family].name + "' and '" + s.families[n.family].name +
                       "' both name a group '" + n.name + "'");
    }
    const std::vector<Rank>& ranks = s.families[n.family].groups[n.group];
    for (const Rank r : ranks) layout.group_of[n.family][r] = i;
    layout.groups.push_back({n.name, ranks});
  }
}

std::string collective_label(const char* list, std::size_t i, const StepCollective& c) {
  std::string label = std::string(list) + " collective " + std::to_string(i);
  if (!c.what.empty()) label += " (" + c.what + ")";
  return label;
}

// A family index that exists and has groups.
void check_family(const TrainingStepShape& s, std::size_t family, const std::string& user) {
  if (family >= s.families.size()) {
    throw step_error(user + ": family " + std::to_string(family) + " does not exist (the shape has " +
                     std::to_string(s.families.size()) + " families)");
  }
  if (s.families[family].groups.empty()) {
    throw step_error(user + ": family '" + s.families[family].name + "' has no groups");
  }
}

void check_collectives(const TrainingStepShape& s, const char* list, const std::vector<StepCollective>& collectives) {
  for (std::size_t i = 0; i < collectives.size(); ++i) {
    const StepCollective& c = collectives[i];
    const std::string label = collective_label(list, i, c);
    check_family(s, c.family, label);
    if (c.kind == CollectiveKind::kBarrier && c.bytes != 0) {
      throw step_error(label + ": a barrier of " + std::to_string(c.bytes) + " B: a barrier moves no data, so its "
                       "bytes must be 0");
    }
    if (c.kind != CollectiveKind::kBarrier && c.bytes == 0) {
      throw step_error(label + ": " + std::string(collective_name(c.kind)) +
                       " of 0 bytes (only a barrier moves no data)");
    }
  }
}

// Members of a group meet its per-slice collectives in program order, which is the same only
// for ranks of one stage.
void check_one_stage(const TrainingStepShape& s, const StepLayout& layout, std::size_t family,
                     const std::string& user) {
  const GroupFamily& f = s.families[family];
  for (std::size_t g = 0; g < f.groups.size(); ++g) {
    const std::vector<Rank>& group = f.groups[g];
    for (const Rank r : group) {
      if (layout.stage_of[r] == layout.stage_of[group.front()]) continue;
      throw step_error("family '" + f.name + "': group " + group_name(f.name, g, f.groups.size()) + " holds rank " +
                       std::to_string(group.front()) + " (stage " + std::to_string(layout.stage_of[group.front()]) +
                       ") and rank " + std::to_string(r) + " (stage " + std::to_string(layout.stage_of[r]) + "), but " +
                       user + " runs after each compute slice, so every member of a group must run the same "
                       "stage's program");
    }
  }
}

void check_gradients(const TrainingStepShape& s) {
  const GradientReduction& g = s.gradients;
  if (g.bytes == 0) return;
  check_family(s, g.family, "gradients");
  if (g.kind != CollectiveKind::kAllReduce && g.kind != CollectiveKind::kReduceScatter) {
    throw step_error("gradients: kind " + std::string(collective_name(g.kind)) +
                     ": gradients are reduced by allreduce or reducescatter");
  }
  if (g.bucket_bytes == 0) throw step_error("gradients: the bucket size must not be 0");
  for (const auto& [list, collectives] : {std::pair{"forward", &s.forward_collectives},
                                          std::pair{"backward", &s.backward_collectives}}) {
    for (std::size_t i = 0; i < collectives->size(); ++i) {
      if ((*collectives)[i].family != g.family) continue;
      throw step_error("gradients: family '" + s.families[g.family].name + "' also carries " +
                       collective_label(list, i, (*collectives)[i]) +
                       "; the buckets run beside backward, so the order in which a member meets the two "
                       "would depend on timing: give the per-slice collectives a family of their own (their "
                       "own communicator, as Megatron-LM creates one per purpose)");
    }
  }
}

void check_compute_scale(const TrainingStepShape& s) {
  if (s.compute_scale.empty()) return;
  if (s.compute_scale.size() != s.ranks) {
    throw step_error("compute_scale has " + std::to_string(s.compute_scale.size()) + " factors for " +
                     std::to_string(s.ranks) + " ranks (give one per rank, or none)");
  }
  for (Rank r = 0; r < s.ranks; ++r) {
    const double f = s.compute_scale[r];
    if (!(f > 0) || !std::isfinite(f)) {
      std::ostringstream factor;
      factor << f;
      throw step_error("compute_scale of rank " + std::to_string(r) + " is " + factor.str() +
                       ": a factor must be positive and finite");
    }
  }
}

}  // namespace

StepLayout make_step_layout(const TrainingStepShape& shape) {
  if (shape.slices < 1) throw step_error("slices must be at least 1, got 0");
  StepLayout layout;
  place_pipelines(shape, layout);
  place_families(shape, layout);
  check_collectives(shape, "forward", shape.forward_collectives);
  check_collectives(shape, "backward", shape.backward_collectives);
  check_collectives(shape, "after-gradients", shape.after_gradients);
  check_collectives(shape, "after-optimizer", shape.after_optimizer);
  for (const auto& [list, collectives] : {std::pair{"forward", &shape.forward_collectives},
                                          std::pair{"backward", &shape.backward_collectives}}) {
    for (std::size_t i = 0; i < collectives->size(); ++i) {
      check_one_stage(shape, layout, (*collectives)[i].family, collective_label(list, i, (*collectives)[i]));
    }
  }
  check_gradients(shape);
  check_compute_scale(shape);
  if (shape.optimizer_ps < 0) {
    throw step_error("optimizer_ps is negative: " + std::to_string(shape.optimizer_ps) + " ps");
  }
  return layout;
}

}  // namespace commsim
