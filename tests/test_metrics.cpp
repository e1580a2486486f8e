// The host side of the metrics pass: the metric list, derived counters, the label token.
#include <gtest/gtest.h>

#include <stdexcept>

#include "harness/metrics.hpp"

namespace membench {
namespace {

TEST(Metrics, DefaultListHasTheLessonsCounters) {
  const auto& m = default_metrics();
  ASSERT_EQ(m.size(), 7u);
  EXPECT_EQ(m[0], "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct");
  EXPECT_EQ(m[1], "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct");
  EXPECT_EQ(m[6], "dram__throughput.avg.pct_of_peak_sustained_elapsed");
  EXPECT_EQ(parse_metric_list("a.sum,b.pct"), (std::vector<std::string>{"a.sum", "b.pct"}));
}

TEST(Metrics, ParseRejectsBadLists) {
  EXPECT_THROW(parse_metric_list(""), std::invalid_argument);
  EXPECT_THROW(parse_metric_list("a,,b"), std::invalid_argument);
  EXPECT_THROW(parse_metric_list("a,"), std::invalid_argument);
  EXPECT_THROW(parse_metric_list("a b"), std::invalid_argument);
  EXPECT_THROW(parse_metric_list("a,a"), std::invalid_argument);
  EXPECT_EQ(parse_metric_list("lts__t_sector_hit_rate.pct").size(), 1u);
}

TEST(Metrics, SectorsPerRequestIsDerivedWhenBothSumsArePresent) {
  const std::vector<std::pair<std::string, double>> v{{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1250},
                                                      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 250},
                                                      {"lts__t_sector_hit_rate.pct", 50}};
  const auto c = metric_counters(v);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c.back().first, "sectors_per_request");
  EXPECT_DOUBLE_EQ(c.back().second, 5.0);
  // No requests (a kernel without global loads): no ratio rather than a division by zero.
  const auto none = metric_counters({{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 0},
                                     {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 0}});
  EXPECT_EQ(none.size(), 2u);
  EXPECT_EQ(metric_counters({{"lts__t_sector_hit_rate.pct", 1}}).size(), 1u);
}

TEST(Metrics, SeveralKernelsKeepOnlyTheirSums) {
  const std::vector<std::string> m{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "lts__t_sector_hit_rate.pct"};
  const auto one = combine_kernels(m, {{100, 40}});
  ASSERT_EQ(one.size(), 2u);
  EXPECT_DOUBLE_EQ(one[1].second, 40);
  const auto two = combine_kernels(m, {{100, 40}, {50, 90}});
  ASSERT_EQ(two.size(), 1u) << "a hit rate of two kernels is not the sum of theirs";
  EXPECT_EQ(two[0].first, m[0]);
  EXPECT_DOUBLE_EQ(two[0].second, 150);
}

TEST(Metrics, UnavailableTokenIsOneLabelToken) {
  EXPECT_EQ(metrics_unavailable_token("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (cuptiProfilerGetCounterAvailability(&avail))"),
            "metrics:unavailable(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES_cuptiProfilerGetCounterAvailability_avail)");
  EXPECT_EQ(metrics_unavailable_token(" -- "), "metrics:unavailable(unknown)");
  EXPECT_EQ(metrics_unavailable_token("no device").find(' '), std::string::npos);
}

}  // namespace
}  // namespace membench
