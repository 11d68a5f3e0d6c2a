#pragma once
// The closed form's evaluation of a plan (cost_plan.h) on a topology, for collective_cost:
// each phase's alpha, beta and gamma from its steps' messages on their routes, the chains'
// flow shops and NCCL's pipelined trees.

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/collective_model.h"
#include "model/cost_plan.h"
#include "model/p2p_model.h"
#include "topology/topology.h"

namespace commsim::model {

class Evaluator {
 public:
  using BothWays = std::array<double, 2>;  // units on a half-duplex link, each way
  // The units every message of a set puts on each channel, and on each half-duplex link each
  // way.
  struct LinkLoads {
    std::map<ChannelId, double> on_channel;
    std::map<LinkId, BothWays> half_duplex;
  };

  Evaluator(const Topology& topology, double overhead_s, const ProtocolCosts& library, const RateCapsByClass& caps,
            bool route_latency)
      : topology_(topology), overhead_s_(overhead_s), library_(library), caps_(caps), route_latency_(route_latency) {}

  CostTerm evaluate(const Phase& phase, double n) const;

  // Chains (one per level, S_l hops each) pipelining C chunks through all their hops in
  // order form one flow shop of C identical jobs. Stage k takes tau_k = a_k + c h_k
  // (+ c gamma when reducing), a_k the alpha of hop k (o + its route's latency and library
  // step), c the bytes of one chunk and h_k the seconds per byte of hop k, so the makespan
  // is sum_k tau_k + (C - 1) max_k tau_k. Each level's term holds its own S_l stages, with
  //   alpha = sum_k a_k / S_l,   beta = sum_k h_k / S_l,
  // and the level with the slowest stage j also the C - 1 extra ones:
  //   alpha = (sum_k a_k + (C - 1) a_j) / (S_l + C - 1),
  //   beta  = (sum_k h_k + (C - 1) h_j) / (S_l + C - 1).
  // One level of p ranks on uniform hops: (p - 2 + C)(alpha + n/C beta). Chains of different
  // lanes (a bidirectional ring's two directions, channels' rings) run at once, each its own
  // flow shop: lanes in step (a ring's two directions) share links with the other lanes' hops
  // of the same index (message_seconds); lanes at their channels' fixed rates
  // (Phase::channel_rates) with every hop of every lane (fixed_rate_seconds). The terms are
  // the slowest lane's.
  std::vector<CostTerm> evaluate_chains(const std::vector<Phase>& chains, double n, double gamma,
                                        std::size_t chunks) const;

  // NCCL's trees, each at its channel's fixed rate (PipelinedTrees), C chunks. Every edge's
  // message of a chunk takes a fixed time: up from child x to parent y tau_xy = a + c h, its
  // latency a and its bytes c at its share of every link with every edge of every tree busy
  // both ways (h: fixed_rate_seconds, as the run's collective/channel_rates.h); down tau'_yx
  // likewise; y's receive from its children adds g_y = gamma x (its children) x c. The
  // runner's rules (a lane's step waits for its previous step and for the previous chunk's
  // same step; a transfer for its send and its receive) make chunk k's times a max-plus
  // recursion, U_y(k) when y has its children's chunk k summed, R_x(k) when x has it back:
  //   U_y(k) = g_y + max( max_x (tau_xy + U_x(k)),  max_x tau_xy + U_y(k-1) ),  U_leaf = 0
  //   R_x(k) = tau'_yx + max( R_y(k),  max_x' R_x'(k-1) ),  x' y's children, R_root = U_root
  // whose last chunk ends, per tree, at the maximum over a leaf-to-root path U and a
  // root-to-leaf path D (a path is its leaf) of
  //   A_U + A_D + (C-1) max(M_U, M_D),
  //   A_U = sum over x->y in U of (tau_xy + g_y),   M_U = max over y on U of (max_x tau_xy + g_y),
  //   A_D = sum over y->x in D of tau'_yx,           M_D = max over y on D of max_x tau'_yx
  // (y on a path: its every rank but the leaf): the last chunk climbs U and descends D, and
  // the chunks before it pass the slowest stage beside them once each (a receive at y waits
  // for y's previous one, from the slowest child). The maximum splits,
  //   max (a + b + K max(x, y)) = max( max (a + K x) + max b,  max a + max (b + K y) ),
  // so each path is walked once. The terms are the slowest tree's: its U, its D and C - 1
  // stages.
  std::vector<CostTerm> evaluate_trees(const PipelinedTrees& plan, double n, double gamma, std::size_t chunks) const;

 private:
  // The terms of the slowest of `candidates` at gamma; the first of equals.
  static std::vector<CostTerm> slowest(std::vector<std::vector<CostTerm>> candidates, double gamma);

  // A tree edge's message: its latency (o included), seconds per byte, and the bytes reduced
  // after it per byte (its receiver's children, on the way up).
  struct TreeStage {
    double alpha_s = 0, h = 0, reduced = 0;
    double seconds(double c, double gamma) const { return alpha_s + c * (h + reduced * gamma); }
    void add(const TreeStage& s) {
      alpha_s += s.alpha_s;
      h += s.h;
      reduced += s.reduced;
    }
  };
  // A path of a tree: its stages summed, and the slowest stage beside it.
  struct TreePath {
    TreeStage sum, slowest;
    double hops = 0;
  };

  TreeStage tree_stage(Rank src, Rank dst, double units, const LinkLoads& loads) const;

  // One tree (evaluate_trees), K = C - 1 chunks behind the last: its U, D and pipeline terms.
  std::vector<CostTerm> evaluate_tree(const std::vector<PipelinedTrees::Edge>& edges, double units, double n,
                                      double gamma, double behind, const LinkLoads& loads) const;

  // `stages` stages whose sum is `sum` (`count` times over), c bytes each.
  static CostTerm tree_term(std::string label, const TreeStage& sum, double stages, double c, double count = 1);

  // Lane `lane`'s chains as one flow shop (evaluate_chains).
  std::vector<CostTerm> evaluate_flow_shop(const std::vector<std::vector<const Phase*>>& levels, std::size_t lane,
                                           double n, double gamma, std::size_t chunks, const LinkLoads& loads) const;

  // The messages hop k of level l of `lane` moves beside: its own, and the other lanes' hop k
  // of level l, in step with it (a ring's mirrored directions share links hop by hop).
  static std::vector<Send> sends_beside(const std::vector<std::vector<const Phase*>>& levels, std::size_t lane,
                                        std::size_t l, std::size_t k);

  // What `sends` put on the links, all at once.
  LinkLoads link_loads(const std::vector<Send>& sends) const;

  // Seconds per unit of n of message `s` at its channel's fixed rate (Phase::channel_rates),
  // every message of `loads` on the links at once: the larger of its bytes at its own rate
  // and its share of each link of its route, in wire bytes (efficiency e): the units on the
  // link over its bandwidth (a half-duplex link's both ways, half_duplex_seconds).
  double fixed_rate_seconds(const Send& s, const LinkLoads& loads) const;

  // Seconds per unit of n of message `s` among `concurrent` (s among them): the largest of
  // its bytes at its own rate, its sender's bytes over its injection bandwidth, and the
  // bytes on the busiest channel of its route, in wire bytes (efficiency e).
  double message_seconds(const Send& s, const std::vector<Send>& concurrent) const;

  PathParams path(const Send& s) const { return path_params(topology_, s.src, s.dst); }

  // A message's latency before its bytes move: its route's (with the library's step latency
  // for the route's class of link, once per loop of the call: ProtocolCosts::run_step_latency),
  // ps, without the overhead o.
  TimePs send_latency_ps(const Send& s) const;

  // o + the largest latency over the step's messages, s.
  double step_alpha_s(const Step& step) const;

  // One step at size n: alpha + n x seconds_per_n.
  struct StepCost {
    double alpha_s = 0;
    double seconds_per_n = 0;
  };
  // A step ends when its slowest message arrives, each message its latency and then its
  // bytes. Messages of one latency: that latency and step_seconds. Messages of several
  // latencies (a ring across nodes whose NVLink hops wait for the library's step once per
  // loop while its network hops, quicker to start, move slower; an AllToAll's peers in the
  // node and beyond it): each message in its own time, the step the slowest message's at n,
  //   max over messages m of  o + a_m + n x h_m,
  // h_m step_seconds' bounds on m's own share: its bytes at its rate, its peer's bytes over
  // the route's bottleneck, and with by_link (by_nic) the bytes on the busiest link (NIC) of
  // its route; its sender's over its injection bandwidth only without by_link, as a proxy for
  // its links (with it, m's own links bound m, and its sender's other links, a NIC beside an
  // NVLink port, carry the rest: a pipelined tree's network hop). The largest h_m is
  // step_seconds (whose injection bound the busiest link's dominates under by_link), so a
  // step of one latency is the same either way; one of several is what the simulator runs
  // (the largest latency with the slowest bytes would charge one message's latency to
  // another's bytes).
  StepCost step_cost(const Step& step, double n) const;

  // Seconds per unit of n of one step: the slowest rank, whose time is
  //   max( sum of its bytes / (e x injection_bandwidth(r)),
  //        max over peers (its bytes to the peer / (e x bottleneck),
  //                        max over its messages to the peer bytes / rate) ),
  // e the protocol's efficiency (its data share of the wire), rate = min(e x bottleneck, cap,
  // the cap of the route's class): the messages to one peer share the route, and each is a
  // flow of its own with its own cap (several rings' messages to one peer move at several
  // caps, as in the simulator); and no less than any half-duplex link's both ways
  // (half_duplex_seconds) or, by_link / by_nic, its busiest link or NIC.
  double step_seconds(const Step& step) const;

  // The step's units on each half-duplex link its messages cross, each way (empty on a
  // topology of full-duplex links alone).
  std::map<LinkId, BothWays> half_duplex_units(const std::vector<Send>& sends) const;

  // Seconds per unit of n of a half-duplex link carrying `units` each way: both ways share its
  // bandwidth, of which both_ways_efficiency is left while both move (network.cpp,
  // capacity_now): (u_0 + u_1) / (e x bandwidth x [both_ways_efficiency if u_0, u_1 > 0]).
  // Exact for a step that moves as much each way (a ring's both directions across the link).
  double half_duplex_seconds(LinkId link, const BothWays& units) const;

  bool has_half_duplex() const;

  // Whether any link is of network class (else no step is bound by a NIC), found on the
  // first step that asks: a collective of no direct step never scans the links.
  bool has_nics() const;

  // An NPU's link of network class: its NIC.
  bool is_nic(ChannelId channel) const;

  // Seconds per unit of n of the link (of the NICs alone: nics_only) whose messages of the
  // step carry the most wire bytes: max over links of (sum of their units) / (e x bandwidth).
  // Sees what the per-rank bound above does not: several flows into one rank's link, or out
  // of it to different peers, or (PXN) other ranks' flows through a rank's NIC.
  double busiest_link_seconds(const Step& step, bool nics_only) const;

  const Topology& topology_;
  double overhead_s_;
  ProtocolCosts library_;
  RateCapsByClass caps_;
  bool route_latency_;                           // false: NCCL's estimate, whose step latency is the whole hop
  mutable std::optional<bool> has_nics_;         // has_nics(), once asked
  mutable std::optional<bool> has_half_duplex_;  // has_half_duplex(), once asked
};

}  // namespace commsim::model
