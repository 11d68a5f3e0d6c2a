#include "topology/nvidia_smi_pcie_tree.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>

#include "base/error.h"

namespace commsim {
namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

class DisjointSets {
 public:
  explicit DisjointSets(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  std::size_t find(std::size_t x) { return parent_[x] == x ? x : parent_[x] = find(parent_[x]); }
  void join(std::size_t a, std::size_t b) { parent_[find(a)] = find(b); }

 private:
  std::vector<std::size_t> parent_;
};

bool stated(const SmiCell& cell) { return cell.nvlinks == 0; }

// Per device, the number of its group among devices joined by `level` or closer, numbered
// in the order of each group's first device.
std::vector<std::size_t> groups_within(const SmiTopoMatrix& m, PcieRelation level) {
  const std::size_t n = m.devices.size();
  DisjointSets sets(n);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < a; ++b) {
      if (stated(m.cell(a, b)) && m.cell(a, b).pcie <= level) sets.join(a, b);
    }
  }
  std::map<std::size_t, std::size_t> number;  // root -> group
  std::vector<std::size_t> group(n);
  for (std::size_t d = 0; d < n; ++d) group[d] = number.emplace(sets.find(d), number.size()).first->second;
  return group;
}

// Where a GPU's row places it: its NUMA node, or in outputs without one its CPU affinity.
std::optional<std::string> locality(const SmiDevice& d) {
  if (d.numa_node) return "NUMA " + std::to_string(*d.numa_node);
  if (!d.cpu_affinity.empty() && d.cpu_affinity != "N/A") return "CPUs " + d.cpu_affinity;
  return std::nullopt;
}

// Sockets: the NODE groups, joined where their GPUs share a locality and no pair between
// them is SYS. Per device, its socket's number.
std::vector<std::size_t> sockets_of(const SmiTopoMatrix& m, const std::vector<std::size_t>& node_group) {
  const std::size_t n = m.devices.size();
  std::vector<std::size_t> socket(n, kNone);
  std::vector<std::set<std::string>> socket_numa;
  const auto sys_between = [&](std::size_t group, std::size_t s) {
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = 0; b < n; ++b) {
        if (node_group[a] == group && socket[b] == s && stated(m.cell(a, b)) && m.cell(a, b).pcie == PcieRelation::kSys) return true;
      }
    }
    return false;
  };
  for (std::size_t first = 0; first < n; ++first) {
    if (socket[first] != kNone) continue;
    const std::size_t group = node_group[first];
    std::set<std::string> numa;
    for (std::size_t d = 0; d < n; ++d) {
      const auto place = locality(m.devices[d]);
      if (node_group[d] == group && place) numa.insert(*place);
    }
    std::size_t chosen = socket_numa.size();
    for (std::size_t s = 0; s < socket_numa.size() && chosen == socket_numa.size(); ++s) {
      const bool shared = std::any_of(numa.begin(), numa.end(), [&](const std::string& place) { return socket_numa[s].count(place) > 0; });
      if (shared && !sys_between(group, s)) chosen = s;
    }
    if (chosen == socket_numa.size()) socket_numa.emplace_back();
    socket_numa[chosen].insert(numa.begin(), numa.end());
    for (std::size_t d = 0; d < n; ++d) {
      if (node_group[d] == group) socket[d] = chosen;
    }
  }
  return socket;
}

// Adds one node per distinct key among the devices that `wanted` selects, in the order of
// their first device; returns key -> node index.
template <typename Key, typename Wanted, typename Parent>
std::map<Key, std::size_t> add_nodes(PcieTree& t, PcieNodeKind kind, const std::vector<Key>& key, Wanted wanted, Parent parent) {
  std::map<Key, std::size_t> node;
  for (std::size_t d = 0; d < key.size(); ++d) {
    if (!wanted(d) || node.count(key[d])) continue;
    node[key[d]] = t.nodes.size();
    t.nodes.push_back({kind, parent(d), d});
  }
  return node;
}

void check_relations(const SmiTopoMatrix& m, const PcieTree& t) {
  for (std::size_t a = 0; a < m.devices.size(); ++a) {
    for (std::size_t b = 0; b < a; ++b) {
      if (!stated(m.cell(a, b)) || t.relation(a, b) == m.cell(a, b).pcie) continue;
      throw InputError(m.where(a) + ": " + m.devices[a].column + " to " + m.devices[b].column + " is " +
                       pcie_relation_name(m.cell(a, b).pcie) + ", but the closer relations around them put them at " +
                       pcie_relation_name(t.relation(a, b)) + ": the relations fit no PCIe tree");
    }
  }
}

}  // namespace

std::size_t PcieTree::count(PcieNodeKind kind) const {
  return static_cast<std::size_t>(std::count_if(nodes.begin(), nodes.end(), [&](const PcieNode& n) { return n.kind == kind; }));
}

PcieRelation PcieTree::relation(std::size_t a, std::size_t b) const {
  if (pix[a] == pix[b]) return PcieRelation::kPix;
  if (pxb[a] == pxb[b]) return PcieRelation::kPxb;
  if (phb[a] == phb[b]) return PcieRelation::kPhb;
  return device_socket[a] == device_socket[b] ? PcieRelation::kNode : PcieRelation::kSys;
}

PcieTree build_pcie_tree(const SmiTopoMatrix& m) {
  const std::size_t n = m.devices.size();
  PcieTree t;
  t.pix = groups_within(m, PcieRelation::kPix);
  t.pxb = groups_within(m, PcieRelation::kPxb);
  t.phb = groups_within(m, PcieRelation::kPhb);
  const std::vector<std::size_t> socket = sockets_of(m, groups_within(m, PcieRelation::kNode));
  const auto members = [&](const std::vector<std::size_t>& key, std::size_t d) {
    return std::count(key.begin(), key.end(), key[d]);
  };
  // A bridge above several switches (or lone devices); a switch under two or more devices.
  const auto pix_groups_in_pxb = [&](std::size_t d) {
    std::set<std::size_t> pix;
    for (std::size_t e = 0; e < n; ++e) {
      if (t.pxb[e] == t.pxb[d]) pix.insert(t.pix[e]);
    }
    return pix.size();
  };
  const auto sockets = add_nodes(t, PcieNodeKind::kSocket, socket, [](std::size_t) { return true; }, [](std::size_t) { return kNone; });
  const auto hosts = add_nodes(t, PcieNodeKind::kHostBridge, t.phb, [](std::size_t) { return true; },
                               [&](std::size_t d) { return sockets.at(socket[d]); });
  const auto bridges = add_nodes(t, PcieNodeKind::kBridge, t.pxb, [&](std::size_t d) { return pix_groups_in_pxb(d) > 1; },
                                 [&](std::size_t d) { return hosts.at(t.phb[d]); });
  const auto above_switch = [&](std::size_t d) {
    return bridges.count(t.pxb[d]) ? bridges.at(t.pxb[d]) : hosts.at(t.phb[d]);
  };
  const auto switches = add_nodes(t, PcieNodeKind::kSwitch, t.pix, [&](std::size_t d) { return members(t.pix, d) > 1; }, above_switch);
  for (std::size_t d = 0; d < n; ++d) {
    t.device_parent.push_back(switches.count(t.pix[d]) ? switches.at(t.pix[d]) : above_switch(d));
    t.device_socket.push_back(sockets.at(socket[d]));
  }
  check_relations(m, t);
  return t;
}

}  // namespace commsim
