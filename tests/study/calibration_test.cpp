// Calibration: the terms a fit recovers from measurements commsim made itself, the solver on
// a problem with a known answer, and the spec it writes.

#include "study/calibration.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "study/bounded_least_squares.h"
#include "study_test_support.h"
#include "topology/builders.h"
#include "topology/spec_file.h"
#include "topology/spec_message.h"

namespace commsim::testing {
namespace {

TimePs us(double value) { return ps_from_seconds(value * 1e-6); }

// An 8-GPU switch node of 100 GB/s links under a two-protocol library.
Topology node() {
  TopologyConfig c;
  c.kind = TopologyKind::kSwitch;
  c.npus = 8;
  c.link = {100e9, 250'000, LinkKind::kNvlink, Duplex::kFull};
  return build_topology(c);
}

LibraryProfile library(double ll_call, double ll_step, double simple_call, double simple_step,
                       double ll_efficiency = 0.5, BandwidthBps ll_cap = 40e9) {
  LibraryProfile p;
  p.name = "two-protocol";
  p.protocols = {{Protocol::kLL, {us(ll_call), {us(ll_step), 0, 0}, ll_efficiency, ll_cap}},
                 {Protocol::kSimple, {us(simple_call), {us(simple_step), 0, 0}, 1.0}}};
  return p;
}

// AllReduce (14 ring steps on 8 GPUs) and AllGather (7): with both, a call latency and a step
// latency are told apart; sizes 1 KiB .. 1 GiB cover both protocols.
std::vector<Measurement> measured_by(const Topology& truth, const ValidationOptions& options,
                                     std::vector<CollectiveKind> kinds = {CollectiveKind::kAllReduce,
                                                                          CollectiveKind::kAllGather}) {
  std::vector<Measurement> rows;
  for (const CollectiveKind kind : kinds) {
    for (Bytes size = 1024; size <= (Bytes{1} << 30); size *= 4) {
      Measurement m;
      m.operation = MeasuredOperation::of(kind);
      m.ranks = static_cast<std::uint32_t>(truth.npu_count());
      m.size_bytes = size;
      m.out_of_place.time_us = 1;  // replaced by the prediction below
      m.source = "synthetic:" + std::to_string(rows.size() + 1);
      rows.push_back(m);
    }
  }
  const ValidationResult predicted = validate_measurements(truth, rows, options);
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i].out_of_place.time_us = predicted.rows[i].predicted_us;
  return rows;
}

double fitted(const CalibrationResult& result, const std::string& name) {
  for (const FittedTerm& t : result.terms) {
    if (t.name == name) return t.fitted;
  }
  ADD_FAILURE() << "no term " << name;
  return 0;
}

// The fit, from `start`, of measurements that `truth` made on node() with links at 0.8 of
// their bandwidth, choosing its protocol by the start's estimate.
CalibrationResult fitted_to_truth(const LibraryProfile& truth, const LibraryProfile& start,
                                  double prior_weight = CalibrationOptions{}.prior_weight) {
  Topology scaled = node();
  scaled.scale_bandwidths({0.8, 1, 1});
  ValidationOptions options{truth, std::nullopt, AlgorithmKind::kRing, 1};
  options.library.estimate_as(start);
  const std::vector<Measurement> rows = measured_by(scaled, options);
  CalibrationOptions calibration;
  calibration.validation = options;
  calibration.validation.library = start;
  calibration.prior_weight = prior_weight;
  return calibrate(node(), rows, {}, calibration);
}

TEST(Calibration, RecoversTheTermsThatMadeTheMeasurements) {
  // Truth: LL 5 us + 0.8 us per step at 0.4 of the link (32 GB/s, under its 40 GB/s cap),
  // Simple 9 us + 3 us per step, links at 0.8 x 100 GB/s, choosing its protocol as NCCL
  // does, by the estimate the fit starts from. The fit starts from other values everywhere
  // (LL at 0.5, which the cap would hold to 40 GB/s) and, with a weak pull toward the start
  // (prior weight 1e-4), must come back within 1%. The system's launch cost adds to both
  // call latencies, so the data gives each call latency plus the launch; the pull splits the
  // change, -3 us on LL's and +4 us on Simple's, least: launch L minimising
  // (3 + L)^2 + (4 - L)^2 + (L / 30)^2, L = 0.4997.
  const LibraryProfile start = library(8, 0.5, 5, 5);
  const CalibrationResult result = fitted_to_truth(library(5, 0.8, 9, 3, 0.4), start, 1e-4);
  EXPECT_EQ(result.prior_weight, 1e-4);

  EXPECT_NEAR(fitted(result, "nvlink bandwidth scale"), 0.8, 0.008);
  EXPECT_NEAR(fitted(result, "ll call latency") + fitted(result, "launch"), 5, 0.05);
  EXPECT_NEAR(fitted(result, "ll nvlink step"), 0.8, 0.008);
  EXPECT_NEAR(fitted(result, "ll efficiency"), 0.4, 0.004);
  EXPECT_NEAR(fitted(result, "simple call latency") + fitted(result, "launch"), 9, 0.09);
  EXPECT_NEAR(fitted(result, "simple nvlink step"), 3, 0.03);
  EXPECT_NEAR(fitted(result, "launch"), 0.4997, 0.01);
  EXPECT_GT(result.before.all.median_abs_error, 0.05);
  EXPECT_LT(result.after.all.p90_abs_error, 1e-3);
  EXPECT_EQ(result.fit.library.name, "two-protocol-calibrated");
  ASSERT_TRUE(result.fit.library.estimate);  // it still chooses as the start estimates
  EXPECT_EQ(result.fit.library.estimate->protocols, start.protocols);
}

TEST(Calibration, ThePriorHoldsNearItsStartWhatTheRowsBarelyShow) {
  // The rows of RecoversTheTermsThatMadeTheMeasurements fitted at the default prior weight,
  // 1e-3: a change of 1 us of a latency weighs as an error of 0.1% of one row. What the rows
  // show strongly comes back as with the weak pull: the link's bandwidth (the large rows), LL's
  // step and share and its call latency with the launch (the small rows, mostly latency). The
  // Simple call latency shows only in the large rows Simple runs, where its 9 us is a small
  // part of the time: the prior holds it (with the launch) short of the truth's 9 us, from the
  // start's 5, while every row is still met within 1%.
  const CalibrationResult result = fitted_to_truth(library(5, 0.8, 9, 3, 0.4), library(8, 0.5, 5, 5));
  EXPECT_EQ(result.prior_weight, 1e-3);
  EXPECT_NEAR(fitted(result, "nvlink bandwidth scale"), 0.8, 0.008);
  EXPECT_NEAR(fitted(result, "ll call latency") + fitted(result, "launch"), 5, 0.05);
  EXPECT_NEAR(fitted(result, "ll nvlink step"), 0.8, 0.008);
  EXPECT_NEAR(fitted(result, "ll efficiency"), 0.4, 0.004);
  const double simple_call = fitted(result, "simple call latency") + fitted(result, "launch");
  EXPECT_GT(simple_call, 5.5);
  EXPECT_LT(simple_call, 8.9);
  EXPECT_LT(result.after.all.p90_abs_error, 0.01);
}

TEST(Calibration, ACostEveryCallPaysGoesToTheLaunchAndCarriesOver) {
  // Truth: the start's library on a system that pays 20 us more on every call. The fit
  // gives the 20 us to the launch and leaves both protocols' own call latencies where they
  // were (the least change: launch L minimising 2 (20 - L)^2 + (L / 30)^2, L = 19.989); what
  // the rows never ran (in-switch reduction, 3 us a call) then pays it too.
  LibraryProfile start = library(8, 0.5, 5, 5);
  start.in_switch = ProtocolCosts{us(3), {us(25), 0, 0}, 0.85};
  LibraryProfile truth = start;
  truth.launch_ps = us(20);
  const CalibrationResult result = fitted_to_truth(truth, start);
  EXPECT_NEAR(fitted(result, "launch"), 20, 0.2);
  EXPECT_NEAR(fitted(result, "ll call latency"), 8, 0.05);
  EXPECT_NEAR(fitted(result, "simple call latency"), 5, 0.05);
  EXPECT_LT(result.after.all.p90_abs_error, 1e-3);
  EXPECT_NEAR(us_from_ps(result.fit.library.costs(AlgorithmKind::kNvls, std::nullopt).call_latency_ps), 23, 0.2);
  EXPECT_EQ(result.fit.library.in_switch->call_latency_ps, us(3));  // its own stays
}

TEST(Calibration, RecoversWhatAThreadDrivingEightGpusSpendsLaunching) {
  // Rows of one thread driving the 8 GPUs (nccl-tests -g 8): the small sizes take the
  // thread's 2.1 us + 8 x (per GPU + C x per channel) on C = 1..8 channels. Truth: 5 us per GPU
  // and 0.5 us per channel where the fit starts from 3.64 and 0.31; both come back within 1%,
  // and the rows after the fit are met.
  LibraryProfile start = library(8, 0.5, 5, 5);
  start.thread_launch = ThreadLaunch{us(2.1), us(3.64), us(0.31)};
  start.collective_channels = 8;
  LibraryProfile truth = start;
  truth.thread_launch.per_gpu_ps = us(5);
  truth.thread_launch.per_channel_ps = us(0.5);
  ValidationOptions options{truth, std::nullopt, AlgorithmKind::kRing, 1};
  options.library.estimate_as(start);
  std::vector<Measurement> rows;
  for (Bytes size = 1024; size <= (Bytes{1} << 30); size *= 4) {
    Measurement m;
    m.operation = MeasuredOperation::of(CollectiveKind::kAllReduce);
    m.ranks = 8;
    m.size_bytes = size;
    m.gpus_per_thread = 8;
    m.out_of_place.time_us = 1;
    rows.push_back(m);
  }
  const ValidationResult predicted = validate_measurements(node(), rows, options);
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i].out_of_place.time_us = predicted.rows[i].predicted_us;
  CalibrationOptions calibration;
  calibration.validation = options;
  calibration.validation.library = start;
  const CalibrationResult result = calibrate(node(), rows, {}, calibration);
  EXPECT_NEAR(fitted(result, "thread launch per gpu"), 5, 0.05);
  EXPECT_NEAR(fitted(result, "thread launch per channel"), 0.5, 0.005);
  EXPECT_GT(result.before.all.median_abs_error, 0.05);
  EXPECT_LT(result.after.all.p90_abs_error, 1e-3);
  // Rows that do not say how a thread drove them leave the thread's terms out.
  for (Measurement& m : rows) m.gpus_per_thread = 0;
  for (const FittedTerm& t : calibrate(node(), rows, {}, calibration).terms) {
    EXPECT_EQ(t.name.find("thread launch"), std::string::npos) << t.name;
  }
}

TEST(Calibration, ARowNoTermCanFollowDoesNotPullTheOthersOff) {
  // The measurements of RecoversTheTermsThatMadeTheMeasurements, with the 1 MiB AllReduce
  // measured 1.5 times slower (a row run another way than the estimate says). The loss is
  // soft-L1 on the relative error: the other 21 rows stay within 5% and the odd row is left
  // at most of its error (-29%); plain least squares spreads it, to 10% on the 1 MiB
  // AllGather and -23% on the odd row.
  Topology scaled = node();
  scaled.scale_bandwidths({0.8, 1, 1});
  const LibraryProfile start = library(8, 0.5, 5, 5);
  ValidationOptions options{library(5, 0.8, 9, 3, 0.4), std::nullopt, AlgorithmKind::kRing, 1};
  options.library.estimate_as(start);
  std::vector<Measurement> rows = measured_by(scaled, options);
  const auto odd = std::find_if(rows.begin(), rows.end(), [](const Measurement& m) {
    return m.operation == MeasuredOperation::of(CollectiveKind::kAllReduce) && m.size_bytes == (Bytes{1} << 20);
  });
  ASSERT_NE(odd, rows.end());
  odd->out_of_place.time_us *= 1.5;
  CalibrationOptions calibration;
  calibration.validation = options;
  calibration.validation.library = start;
  const CalibrationResult result = calibrate(node(), rows, {}, calibration);
  const std::size_t odd_row = static_cast<std::size_t>(odd - rows.begin());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i == odd_row) {
      EXPECT_LT(result.after.rows[i].error, -0.25);
    } else {
      EXPECT_LT(std::abs(result.after.rows[i].error), 0.05) << rows[i].source;
    }
  }
}

TEST(Calibration, AShareHeldByItsCapStillFits) {
  // Truth: LL moves 20 GB/s, held there by its cap (0.5 x 80 GB/s would be 40). The start's
  // LL is held by its own cap too (min(0.5 x 100, 40) GB/s): a share that moved alone would
  // change nothing at the start, so the fitted share carries the cap with it (cap / share
  // = 80 GB/s) and comes to 20 / 80 = 0.25.
  const CalibrationResult result = fitted_to_truth(library(5, 0.8, 9, 3, 0.5, 20e9), library(8, 0.5, 5, 5));
  EXPECT_NEAR(fitted(result, "ll efficiency"), 0.25, 0.0025);
  EXPECT_NEAR(result.fit.library.costs(Protocol::kLL).max_rate_Bps, 20e9, 0.2e9);
  EXPECT_LT(result.after.all.p90_abs_error, 1e-3);
}

TEST(Calibration, RecoversTheBothWaysEfficiencyOfAHalfDuplexLink) {
  // Two GPUs on one half-duplex PCIe link: Broadcast moves one way and shows the bandwidth,
  // AllReduce moves both ways at once and shows the both-ways efficiency (truth 0.7).
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = 2;
  c.link = {10e9, 500'000, LinkKind::kPcie, Duplex::kHalf};
  const Topology start = build_topology(c);
  Topology truth = start;
  truth.scale_bandwidths({1, 0.9, 1});
  truth.set_both_ways_efficiency(0.7);
  ValidationOptions options{LibraryProfile{}, std::nullopt, AlgorithmKind::kRing, 1};
  const std::vector<Measurement> rows =
      measured_by(truth, options, {CollectiveKind::kAllReduce, CollectiveKind::kBroadcast});
  CalibrationOptions calibration;
  calibration.validation = options;
  const CalibrationResult result = calibrate(start, rows, {}, calibration);
  EXPECT_NEAR(fitted(result, "pcie bandwidth scale"), 0.9, 0.009);
  EXPECT_NEAR(fitted(result, "half-duplex both-ways efficiency"), 0.7, 0.007);
  // Both collectives are references: AllReduce the scale's, Broadcast (one way) the
  // efficiency's; neither has a factor.
  EXPECT_EQ(result.reference_collectives, (std::vector<CollectiveKind>{CollectiveKind::kAllReduce, CollectiveKind::kBroadcast}));
  EXPECT_EQ(calibrated_topology(start, result.fit).both_ways_efficiency(), result.fit.both_ways_efficiency);
}

TEST(Calibration, RecoversACollectivesBandwidthFactor) {
  // Truth: AllGather sustains 0.7 of what AllReduce does on links at 0.9 x 100 GB/s. The
  // first collective measured (AllReduce) is the reference; AllGather gets a factor, which
  // the fit finds within 1%, and the written profile carries it.
  Topology truth = node();
  truth.scale_bandwidths({0.9, 1, 1});
  ValidationOptions options{library(5, 0.8, 9, 3), std::nullopt, AlgorithmKind::kRing, 1};
  options.library.collective_bandwidth = {{CollectiveKind::kAllGather, 0.7}};
  const std::vector<Measurement> rows = measured_by(truth, options);
  CalibrationOptions calibration;
  calibration.validation = options;
  calibration.validation.library = library(5, 0.8, 9, 3);
  const CalibrationResult result = calibrate(node(), rows, {}, calibration);
  EXPECT_NEAR(fitted(result, "allgather bandwidth factor"), 0.7, 0.007);
  EXPECT_NEAR(fitted(result, "nvlink bandwidth scale"), 0.9, 0.009);
  EXPECT_FALSE(std::any_of(result.terms.begin(), result.terms.end(),
                           [](const FittedTerm& t) { return t.name == "allreduce bandwidth factor"; }));
  EXPECT_EQ(result.reference_collectives, std::vector<CollectiveKind>{CollectiveKind::kAllReduce});
  EXPECT_LT(result.after.all.p90_abs_error, 1e-3);
  const LibraryProfile written = library_from_spec(library_message(result.fit.library), "test");
  EXPECT_NEAR(written.bandwidth_factor(CollectiveKind::kAllGather), 0.7, 0.007);
  ASSERT_TRUE(written.estimate);
  EXPECT_TRUE(written.estimate->collective_bandwidth.empty());
}

TEST(Calibration, RecoversAP2pChannelRateAndThePeerCapAboveIt) {
  // Two nodes of one GPU on 50 GB/s NICs; a send to the other node runs on 1 channel at
  // 64 KiB, 2 at 128 KiB and 4 from 256 KiB (at least 64 KiB a channel). Truth: a network
  // channel moves 5 GB/s and a peer at most 12 (so 1 and 2 channels show the channel's rate,
  // 4 the cap). The fit starts from 7.6 and 25 and, with AllReduce rows that hold the NIC's
  // bandwidth (no channel limits a collective here), recovers both within 1%.
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 1;
  c.nic = {50e9, 1'000'000, LinkKind::kInfiniband, Duplex::kFull};
  const Topology cluster = build_topology(c);
  const auto with_p2p = [](BandwidthBps channel_rate, BandwidthBps peer_rate) {
    LibraryProfile p = library(5, 0.8, 9, 3);
    const double inf = std::numeric_limits<double>::infinity();
    p.p2p = P2pChannels{1, 4, Bytes{16} << 20, 4, {inf, inf, channel_rate}, 0, 0, Bytes{64} << 10, peer_rate};
    return p;
  };
  const LibraryProfile start = with_p2p(7.6e9, 25e9);
  ValidationOptions options{with_p2p(5e9, 12e9), std::nullopt, AlgorithmKind::kRing, 1};
  std::vector<Measurement> rows = measured_by(cluster, options, {CollectiveKind::kAllReduce});
  for (Bytes size = Bytes{64} << 10; size <= (Bytes{1} << 30); size *= 2) {
    Measurement m;
    m.operation = MeasuredOperation::point_to_point();
    m.ranks = 2;
    m.size_bytes = size;
    m.out_of_place.time_us = 1;
    m.source = "synthetic:p2p:" + std::to_string(size);
    rows.push_back(m);
  }
  const ValidationResult truth = validate_measurements(cluster, rows, options);
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i].out_of_place.time_us = truth.rows[i].predicted_us;
  CalibrationOptions calibration;
  calibration.validation = options;
  calibration.validation.library = start;
  const CalibrationResult result = calibrate(cluster, rows, {}, calibration);
  EXPECT_NEAR(fitted(result, "p2p network channel rate"), 5, 0.05);
  EXPECT_NEAR(fitted(result, "p2p network peer rate"), 12, 0.12);
  EXPECT_LT(result.after.all.p90_abs_error, 1e-3);
  // The written profile carries the cap (as text, to 9 significant digits).
  EXPECT_NEAR(library_from_spec(library_message(result.fit.library), "test").p2p->net_peer_rate_Bps,
              result.fit.library.p2p->net_peer_rate_Bps, 1e3);
}

TEST(Calibration, FitsOneSystemMeasuredAtSeveralScales) {
  // One cluster measured at two scales, 2 nodes of 1 GPU and 2 nodes of 2 (100 GB/s NVLink,
  // 25 GB/s NICs), each row on its own scale's topology. Truth: the NICs at 0.8 of their
  // bandwidth and Simple's network step 6 us where the fit starts from 1 and 10. The network
  // terms show at both scales, NVLink's only at the second, whose links the fit's terms
  // include; one fit over both recovers the truth within 1%.
  const auto cluster = [](std::uint32_t gpus_per_node) {
    TopologyConfig c;
    c.kind = TopologyKind::kHierarchical;
    c.nodes = 2;
    c.gpus_per_node = gpus_per_node;
    c.link = {100e9, 250'000, LinkKind::kNvlink, Duplex::kFull};
    c.nic = {25e9, 500'000, LinkKind::kInfiniband, Duplex::kFull};
    return build_topology(c);
  };
  const auto with_net_step = [](double simple_net_step_us) {
    LibraryProfile p = library(5, 0.8, 9, 3);
    p.protocols[0].second.step_latency_ps[static_cast<int>(LinkClass::kNet)] = us(2);
    p.protocols[1].second.step_latency_ps[static_cast<int>(LinkClass::kNet)] = us(simple_net_step_us);
    return p;
  };
  ValidationOptions options{with_net_step(6), std::nullopt, AlgorithmKind::kRing, std::nullopt};
  options.library.estimate_as(with_net_step(10));
  std::vector<MeasuredRows> groups;
  for (const std::uint32_t gpus : {1u, 2u}) {
    Topology truth = cluster(gpus);
    truth.scale_bandwidths({1, 1, 0.8});
    groups.push_back({cluster(gpus), measured_by(truth, options)});
  }
  CalibrationOptions calibration;
  calibration.validation = options;
  calibration.validation.library = with_net_step(10);
  const CalibrationResult result = calibrate(groups, {}, calibration);
  EXPECT_EQ(result.after.rows.size(), groups[0].rows.size() + groups[1].rows.size());
  EXPECT_EQ(result.after.rows.back().measured.ranks, 4u);
  EXPECT_NEAR(fitted(result, "network bandwidth scale"), 0.8, 0.008);
  EXPECT_NEAR(fitted(result, "simple network step"), 6, 0.06);
  EXPECT_NEAR(fitted(result, "nvlink bandwidth scale"), 1, 0.01);
  EXPECT_GT(result.before.all.median_abs_error, 0.05);
  EXPECT_LT(result.after.all.p90_abs_error, 1e-3);
}

TEST(Calibration, FitsTheFactorOfCallsInsideOneNodeApartOnACluster) {
  // One cluster (100 GB/s NVLink, 25 GB/s NICs) measured across 2 nodes of 2 GPUs and inside
  // one node of 4. Truth: AllGather at 0.7 of AllReduce's share across nodes and 0.5 inside a
  // node (collective_bandwidth_one_node, which a call inside one NVLink node runs at). The fit
  // has a term for each and recovers both within 1%, whether the start has a factor inside one
  // node or not (a cluster's spec: what one node measures must not slow its calls across
  // nodes). On a node's own spec (node(), a switch) the factor across nodes is fitted, as
  // RecoversACollectivesBandwidthFactor shows.
  const auto cluster = [](std::uint32_t nodes, std::uint32_t gpus_per_node) {
    TopologyConfig c;
    c.kind = TopologyKind::kHierarchical;
    c.nodes = nodes;
    c.gpus_per_node = gpus_per_node;
    c.link = {100e9, 250'000, LinkKind::kNvlink, Duplex::kFull};
    c.nic = {25e9, 500'000, LinkKind::kInfiniband, Duplex::kFull};
    return build_topology(c);
  };
  LibraryProfile truth = library(5, 0.8, 9, 3);
  truth.collective_bandwidth = {{CollectiveKind::kAllGather, 0.7}};
  truth.collective_bandwidth_one_node = {{CollectiveKind::kAllGather, 0.5}};
  ValidationOptions options{truth, std::nullopt, AlgorithmKind::kRing, std::nullopt};
  std::vector<MeasuredRows> groups;
  for (const Topology& t : {cluster(2, 2), cluster(1, 4)}) groups.push_back({t, measured_by(t, options)});
  CalibrationOptions calibration;
  calibration.validation = options;
  calibration.validation.library = library(5, 0.8, 9, 3);
  calibration.validation.library.collective_bandwidth_one_node = {{CollectiveKind::kAllGather, 1.0}};
  const CalibrationResult result = calibrate(groups, {}, calibration);
  EXPECT_NEAR(fitted(result, "allgather bandwidth factor"), 0.7, 0.007);
  EXPECT_NEAR(fitted(result, "allgather bandwidth factor inside one node"), 0.5, 0.005);
  EXPECT_LT(result.after.all.p90_abs_error, 1e-3);
  const LibraryProfile written = library_from_spec(library_message(result.fit.library), "test");
  EXPECT_NEAR(written.inside_one_node().bandwidth_factor(CollectiveKind::kAllGather), 0.5, 0.005);

  calibration.validation.library.collective_bandwidth_one_node.clear();
  const CalibrationResult without = calibrate(groups, {}, calibration);
  EXPECT_NEAR(fitted(without, "allgather bandwidth factor"), 0.7, 0.007);
  EXPECT_NEAR(fitted(without, "allgather bandwidth factor inside one node"), 0.5, 0.005);
  // Measured at one node alone, the cluster's factor across nodes stays as it was (none).
  const CalibrationResult one_node = calibrate({groups[1]}, {}, calibration);
  EXPECT_NEAR(fitted(one_node, "allgather bandwidth factor inside one node"), 0.5, 0.005);
  EXPECT_EQ(one_node.fit.library.bandwidth_factor(CollectiveKind::kAllGather), 1.0);
}

TEST(Calibration, HoldoutIsReportedNotFitted) {
  // Fit on AllReduce alone, hold AllGather out: the held-out rows are predicted before and
  // after with the fitted terms, and the fit's own rows are only the AllReduce ones.
  Topology truth = node();
  truth.scale_bandwidths({0.9, 1, 1});
  ValidationOptions options{library(5, 0.8, 9, 3), std::nullopt, AlgorithmKind::kRing, 1};
  std::vector<Measurement> rows = measured_by(truth, options);
  const std::vector<Measurement> holdout(rows.begin() + static_cast<long>(rows.size() / 2), rows.end());
  rows.resize(rows.size() / 2);
  CalibrationOptions calibration;
  calibration.validation = options;
  calibration.validation.library = library(5, 0.8, 9, 3);
  const CalibrationResult result = calibrate(node(), rows, holdout, calibration);
  EXPECT_EQ(result.after.rows.size(), rows.size());
  ASSERT_EQ(result.holdout_after.rows.size(), holdout.size());
  EXPECT_EQ(result.holdout_after.rows.front().measured.operation, MeasuredOperation::of(CollectiveKind::kAllGather));
  // Only the bandwidth was off (x 0.9): fitted on AllReduce, AllGather comes right too.
  EXPECT_NEAR(fitted(result, "nvlink bandwidth scale"), 0.9, 0.009);
  // (Below 4 MiB LL's 40 GB/s cap binds either way, so only the larger rows were off.)
  EXPECT_GT(result.holdout_before.all.p90_abs_error, 0.08);
  EXPECT_LT(result.holdout_after.all.p90_abs_error, 0.01);
}

double sd_of(const CalibrationResult& result, const std::string& name) {
  for (const FittedTerm& t : result.terms) {
    if (t.name == name) return t.sd;
  }
  ADD_FAILURE() << "no term " << name;
  return 0;
}

// The correlation calibrate reports for terms a and b (either order); 0 if it reports none.
double trading(const CalibrationResult& result, const std::string& a, const std::string& b) {
  for (const TradingTerms& t : result.trading) {
    if ((t.first == a && t.second == b) || (t.first == b && t.second == a)) return t.correlation;
  }
  return 0;
}

TEST(Calibration, SaysHowCloselyTheRowsDetermineEachTerm) {
  // The rows of RecoversTheTermsThatMadeTheMeasurements, fitted at the default prior. The
  // link's bandwidth shows in every large row: its sd is a small part of it. The launch adds
  // to both call latencies in every row, so the rows show each sum and the fit cannot tell
  // the launch from LL's call latency: their fitted values correlate at -1 and are reported
  // as told apart poorly.
  const CalibrationResult result = fitted_to_truth(library(5, 0.8, 9, 3, 0.4), library(8, 0.5, 5, 5));
  const double scale_sd = sd_of(result, "nvlink bandwidth scale");
  EXPECT_GT(scale_sd, 0);
  EXPECT_LT(scale_sd, 0.01 * fitted(result, "nvlink bandwidth scale"));
  EXPECT_LT(trading(result, "ll call latency", "launch"), -kTradingCorrelation);
  EXPECT_EQ(trading(result, "nvlink bandwidth scale", "ll nvlink step"), 0);
  for (std::size_t i = 1; i < result.trading.size(); ++i) {
    EXPECT_GE(std::abs(result.trading[i - 1].correlation), std::abs(result.trading[i].correlation));
  }
  // Where the split goes, only the prior says: LL's call latency is known far less closely
  // than its step, which the rows' sizes and the AllGather's half as many steps show.
  EXPECT_GT(sd_of(result, "ll call latency"), 50 * sd_of(result, "ll nvlink step"));
}

TEST(TermSpread, IsTheCovarianceOfALinearFit) {
  // Residuals r = J x - y of three rows in two terms, J = [1 0; 0 1; 1 1], at r = (0.1,
  // -0.1, 0.1): s^2 = 0.03 / 3 = 0.01, J'J = [2 1; 1 2], (J'J)^-1 = [2 -1; -1 2] / 3, so
  // C = 0.01 / 3 [2 -1; -1 2]: sd = sqrt(0.02 / 3) = 0.0816497 each, correlation -1/2.
  Eigen::MatrixXd j(3, 2);
  j << 1, 0, 0, 1, 1, 1;
  const TermSpread spread = term_spread(j, Eigen::Vector3d(0.1, -0.1, 0.1), 3);
  EXPECT_NEAR(spread.sd[0], std::sqrt(0.02 / 3), 1e-12);
  EXPECT_NEAR(spread.sd[1], std::sqrt(0.02 / 3), 1e-12);
  EXPECT_NEAR(spread.correlation(0, 1), -0.5, 1e-12);
  EXPECT_NEAR(spread.correlation(1, 1), 1, 1e-12);
  // A prior row per term (w = 0.5 on x1 only, J's fourth row) enters J'J but not s:
  // J'J = [2 1; 1 2.25], det 3.5, (J'J)^-1 = [2.25 -1; -1 2] / 3.5.
  Eigen::MatrixXd with_prior(4, 2);
  with_prior << 1, 0, 0, 1, 1, 1, 0, 0.5;
  const TermSpread held = term_spread(with_prior, Eigen::Vector4d(0.1, -0.1, 0.1, 7), 3);
  EXPECT_NEAR(held.sd[0], std::sqrt(0.01 * 2.25 / 3.5), 1e-12);
  EXPECT_NEAR(held.sd[1], std::sqrt(0.01 * 2 / 3.5), 1e-12);
}

TEST(TermSpread, ATermNothingHoldsHasNoBoundAndNoCorrelation) {
  // The second term moves no residual (no row shows it, no prior holds it).
  Eigen::MatrixXd j(2, 2);
  j << 1, 0, 2, 0;
  const TermSpread spread = term_spread(j, Eigen::Vector2d(0.1, 0.1), 2);
  EXPECT_NEAR(spread.sd[0], std::sqrt(0.01 / 5), 1e-12);  // s^2 = 0.01, J'J = 5
  EXPECT_TRUE(std::isinf(spread.sd[1]));
  EXPECT_EQ(spread.correlation(0, 1), 0);
  EXPECT_EQ(spread.shown, (std::vector<bool>{true, false}));
  // Held by a prior row alone (the third): a finite sd, and still no row shows it.
  Eigen::MatrixXd held(3, 2);
  held << 1, 0, 2, 0, 0, 0.5;
  const TermSpread prior_only = term_spread(held, Eigen::Vector3d(0.1, 0.1, 0), 2);
  EXPECT_NEAR(prior_only.sd[1], std::sqrt(0.01 / 0.25), 1e-12);  // s / w
  EXPECT_EQ(prior_only.shown, (std::vector<bool>{true, false}));
}

TEST(Calibration, NoRowsIsAnError) {
  CalibrationOptions calibration;
  EXPECT_CONTAINS(input_error_of([&] { calibrate(node(), {}, {}, calibration); }), "no measured rows to calibrate on");
}

TEST(BoundedLeastSquares, FindsTheMinimumInsideAndStopsAtABound) {
  // r(x) = (x0 - 3, 2 (x1 + 1)): the minimum (3, -1); with x1 >= 0 the answer is (3, 0).
  const ResidualFunction r = [](const Eigen::VectorXd& x) { return Eigen::Vector2d(x[0] - 3, 2 * (x[1] + 1)); };
  const Eigen::Vector2d scale(1, 1);
  const auto free = bounded_least_squares(r, Eigen::Vector2d(0, 5), Eigen::Vector2d(-10, -10), Eigen::Vector2d(10, 10), scale);
  EXPECT_NEAR(free.x[0], 3, 1e-6);
  EXPECT_NEAR(free.x[1], -1, 1e-6);
  const auto bounded = bounded_least_squares(r, Eigen::Vector2d(0, 5), Eigen::Vector2d(-10, 0), Eigen::Vector2d(10, 10), scale);
  EXPECT_NEAR(bounded.x[0], 3, 1e-6);
  EXPECT_EQ(bounded.x[1], 0);
  EXPECT_NEAR(bounded.cost, 4, 1e-9);  // (2 (0 + 1))^2 left at the bound
}

TEST(BoundedLeastSquares, SaysWhenEachIterationEnds) {
  // The progress hook runs once at the end of every iteration, as many times as the result
  // counts, and no more than max_iterations: here at most 2 on a problem that takes more.
  const ResidualFunction r = [](const Eigen::VectorXd& x) { return Eigen::Vector2d(x[0] * x[0] - 3, std::exp(x[1]) - 2); };
  const Eigen::Vector2d lo(-10, -10), hi(10, 10), scale(1, 1);
  std::size_t calls = 0;
  BoundedLeastSquaresOptions options;
  options.on_iteration = [&] { ++calls; };
  const auto solved = bounded_least_squares(r, Eigen::Vector2d(5, 5), lo, hi, scale, options);
  EXPECT_GT(solved.iterations, 2u);
  EXPECT_EQ(calls, solved.iterations);
  calls = 0;
  options.max_iterations = 2;
  EXPECT_EQ(bounded_least_squares(r, Eigen::Vector2d(5, 5), lo, hi, scale, options).iterations, 2u);
  EXPECT_EQ(calls, 2u);
}

TEST(CalibratedSpec, TheWrittenLibraryAndBandwidthsLoadBackAsFitted) {
  // A fitted profile written as a library block and read back is the same profile; the
  // spec's NVLink bandwidth scaled by 0.9 is the topology's scaled by 0.9.
  const LibraryProfile profile = library(5.123456, 0.8, 9, 3.25);
  EXPECT_EQ(library_from_spec(library_message(profile), "test").protocols, profile.protocols);
  spec::TopologySpec spec = parse_spec_message(
      "name: \"n\" builder { kind: SWITCH npus: 4 link { bandwidth: \"370.8GB/s\" latency: \"250ns\" kind: NVLINK } }",
      "test", false);
  scale_link_bandwidths(spec, {0.9, 1, 1});
  EXPECT_EQ(spec.builder().link().bandwidth(), "333.72GB/s");
  *spec.mutable_library() = library_message(profile);
  const Topology loaded = parse_topology_spec(spec_text(spec), "written", false);
  EXPECT_EQ(loaded.library().protocols, profile.protocols);
  EXPECT_DOUBLE_EQ(loaded.link(0).params.bandwidth_Bps, 333.72e9);
}

TEST(CalibratedSpec, TheEstimateAFittedProfileChoosesByLoadsBack) {
  LibraryProfile profile = library(5.123456, 0.8, 9, 3.25);
  profile.estimate_as(library(6.6, 0.6, 8.4, 3.4));
  const LibraryProfile loaded = library_from_spec(library_message(profile), "test");
  EXPECT_EQ(loaded.protocols, profile.protocols);
  ASSERT_TRUE(loaded.estimate);
  EXPECT_EQ(loaded.estimate->protocols, profile.estimate->protocols);
  EXPECT_FALSE(loaded.estimate->estimate);
  // A start with collective factors is fitted from and kept as the estimate; an estimate is
  // written without them (it ranks as NCCL does, which knows none), and loads back.
  LibraryProfile with_factors = profile;
  with_factors.collective_bandwidth = {{CollectiveKind::kAllToAll, 0.96}};
  with_factors.estimate_as(with_factors);
  const LibraryProfile reloaded = library_from_spec(library_message(with_factors), "test");
  EXPECT_DOUBLE_EQ(reloaded.bandwidth_factor(CollectiveKind::kAllToAll), 0.96);
  ASSERT_TRUE(reloaded.estimate);
  EXPECT_TRUE(reloaded.estimate->collective_bandwidth.empty());
  // An estimate without in-switch costs ranks NVLS by the library's own.
  profile.in_switch = ProtocolCosts{0, {us(25), 0, 0}, 0.85};
  const LibraryProfile with_nvls = library_from_spec(library_message(profile), "test");
  ASSERT_TRUE(with_nvls.estimate);
  EXPECT_EQ(with_nvls.estimate->in_switch, profile.in_switch);
}

TEST(CalibratedSpec, AnEstimateWithOtherProtocolsOrItsOwnEstimateIsAnError) {
  const spec::LibrarySpec costs = library_message(library(5, 0.8, 9, 3.25));
  spec::LibrarySpec spec = costs;
  *spec.mutable_estimate() = costs;
  spec.mutable_estimate()->mutable_protocols()->RemoveLast();  // LL alone
  EXPECT_CONTAINS(input_error_of([&] { library_from_spec(spec, "f: library"); }),
                  "f: library.estimate names other protocols than the library");
  *spec.mutable_estimate() = costs;
  *spec.mutable_estimate()->mutable_estimate() = costs;
  EXPECT_CONTAINS(input_error_of([&] { library_from_spec(spec, "f: library"); }),
                  "f: library.estimate has an estimate of its own");
}

TEST(CalibratedSpec, AFittedBothWaysEfficiencyGoesToEveryHalfDuplexLink) {
  spec::TopologySpec spec = parse_spec_message(
      "name: \"p\" graph { vertices { name: \"a\" } vertices { name: \"b\" } vertices { name: \"h\" kind: SWITCH }"
      " links { a: \"a\" b: \"h\" link { bandwidth: \"11GB/s\" latency: \"1us\" kind: PCIE duplex: HALF } }"
      " links { a: \"b\" b: \"h\" link { bandwidth: \"11GB/s\" latency: \"1us\" kind: PCIE } } }",
      "test", false);
  set_both_ways_efficiency(spec, 0.7194934541);
  EXPECT_EQ(spec.graph().links(0).link().both_ways_efficiency(), 0.719493454);  // 9 digits
  EXPECT_EQ(spec.graph().links(1).link().both_ways_efficiency(), 0);             // full duplex: unset
  const Topology loaded = parse_topology_spec(spec_text(spec), "written", false);
  EXPECT_EQ(loaded.both_ways_efficiency(), 0.719493454);
}

}  // namespace
}  // namespace commsim::testing
