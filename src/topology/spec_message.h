#pragma once
// A topology spec (proto/topology.proto) as its protobuf message, for the tools that read a
// spec and write another: `commsim calibrate` takes a base spec, puts the fitted library in
// its `library` block and its fitted bandwidths on its links, and prints it in protobuf text
// format, so the result loads with --topology-file like any other spec.

#include <array>
#include <string>

#include "proto/topology.pb.h"
#include "topology/library.h"
#include "topology/link.h"

namespace commsim {

/// Parses spec text into its message (protobuf text format, or JSON when `json`); `origin`
/// names it in syntax errors. Nothing is checked beyond the syntax: building checks the rest.
spec::TopologySpec parse_spec_message(const std::string& text, const std::string& origin, bool json);
/// The message of a spec file: JSON when the name ends in ".json".
spec::TopologySpec read_spec_message(const std::string& path);
bool is_json_spec_path(const std::string& path);

LinkKind link_kind(spec::LinkKind kind);

/// A profile as a `library` block with every protocol, the in-switch costs and the P2P
/// channels in full, so that library_from_spec gives the same profile back: times exact to
/// the picosecond (in us), rates and efficiencies to 9 significant digits.
spec::LibrarySpec library_message(const LibraryProfile& profile);

/// Multiplies the bandwidth of every link the spec declares (a builder's `link` and `nic`,
/// or each explicit link) by the factor of its class (LinkClass order: NVLink, PCIe,
/// network), as Topology::scale_bandwidths does to a built topology.
void scale_link_bandwidths(spec::TopologySpec& spec, const std::array<double, 3>& factor_by_class);

/// Sets the both-ways efficiency of every half-duplex link the spec declares, as
/// Topology::set_both_ways_efficiency does to a built topology.
void set_both_ways_efficiency(spec::TopologySpec& spec, double efficiency);

/// The message in protobuf text format, with the `# proto-file:` and `# proto-message:`
/// lines editors use.
std::string spec_text(const spec::TopologySpec& spec);

}  // namespace commsim
