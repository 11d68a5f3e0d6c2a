#pragma once
// Closed form of AllReduce reduced in the switch (nvls, nvls-tree): in_switch_model.cpp.

#include "model/collective_model.h"
#include "model/cost_plan.h"

namespace commsim::model {

/// The terms without the library's call latency (collective_cost adds it). Throws
/// InputError if the topology cannot run the algorithm.
CollectiveCost in_switch_cost(const Topology& t, Algo algorithm, Bytes size, const ModelOptions& o);

}  // namespace commsim::model
