#include "study/measurement.h"

#include <gtest/gtest.h>

#include "study_test_support.h"

namespace commsim {
namespace {

using testing::input_error_of;

TEST(MeasuredOperationNames, NcclTestsNamesAreCommsimNamesWithUnderscores) {
  using C = CollectiveKind;
  EXPECT_EQ(measured_operation_from_name("all_reduce"), MeasuredOperation::of(C::kAllReduce));
  EXPECT_EQ(measured_operation_from_name("all_gather"), MeasuredOperation::of(C::kAllGather));
  EXPECT_EQ(measured_operation_from_name("reduce_scatter"),
            MeasuredOperation::of(C::kReduceScatter));
  EXPECT_EQ(measured_operation_from_name("alltoall"), MeasuredOperation::of(C::kAllToAll));
  EXPECT_EQ(measured_operation_from_name("broadcast"), MeasuredOperation::of(C::kBroadcast));
  EXPECT_EQ(measured_operation_from_name("reduce"), MeasuredOperation::of(C::kReduce));
  // commsim's own spelling reads the same.
  EXPECT_EQ(measured_operation_from_name("allreduce"), MeasuredOperation::of(C::kAllReduce));
}

TEST(MeasuredOperationNames, SendRecvIsPointToPoint) {
  const auto sendrecv = measured_operation_from_name("sendrecv");
  ASSERT_TRUE(sendrecv.has_value());
  EXPECT_TRUE(sendrecv->is_p2p());
  EXPECT_EQ(measured_operation_name(*sendrecv), "sendrecv");
  EXPECT_EQ(measured_operation_name(MeasuredOperation::of(CollectiveKind::kReduceScatter)),
            "reducescatter");
}

TEST(MeasuredOperationNames, TestsWithoutACollectiveKindAreUnknown) {
  // nccl-tests has gather, scatter and hypercube tests; commsim models none of them, and no
  // test measures a barrier.
  for (const char* name : {"gather", "scatter", "hypercube", "barrier", "", "all_reduce_perf"}) {
    EXPECT_FALSE(measured_operation_from_name(name).has_value()) << name;
  }
  const std::string error =
      input_error_of([] { parse_measured_operation("gather", "runs.log:7"); });
  EXPECT_CONTAINS(error, "runs.log:7: unknown collective 'gather'");
  EXPECT_CONTAINS(error,
                  "allreduce, allgather, reducescatter, broadcast, reduce, alltoall, sendrecv");
}

}  // namespace
}  // namespace commsim
