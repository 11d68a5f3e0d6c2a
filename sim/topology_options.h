#pragma once
// The topology options every subcommand takes: a spec file, or a kind and its parameters.
// With neither, the topology is the 8-GPU H100 NVSwitch node.

#include "command_line.h"
#include "topology/topology.h"

namespace commsim::cli {

po::options_description topology_options();

/// Throws InputError on a bad value, or an option that does not apply to the kind.
Topology topology_from_options(const po::variables_map& vm);

}  // namespace commsim::cli
