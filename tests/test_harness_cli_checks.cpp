// The checks of the command line that hold in every mode, the listings too, before anything
// looks for a GPU: --devices with --peers and --peers-only, two listings, a bad filter, a
// context key the results write themselves.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "harness/options/cli.hpp"

namespace membench {
namespace {

// Sets an environment variable for one test and puts back what was there.
class scoped_variable {
 public:
  scoped_variable(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  scoped_variable(const scoped_variable&) = delete;
  scoped_variable& operator=(const scoped_variable&) = delete;
  ~scoped_variable() {
    if (old_) setenv(name_.c_str(), old_->c_str(), 1);
    else unsetenv(name_.c_str());
  }

 private:
  std::string name_;
  std::optional<std::string> old_;
};

std::string error_of(const std::vector<std::string>& args) {
  return parse_options(args).error.value_or("<accepted>");
}

bool says(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Parsed with the other options, not on the way to the GPUs: a listing, --list-devices and a
// machine without a GPU all refuse them as bad options (exit 2).
TEST(CliChecks, DevicesAndWhatTheyLeaveThePeersAreOptions) {
  EXPECT_TRUE(says(error_of({"membench", "--devices=0,x"}), "--devices: 'x' is not a device index"));
  EXPECT_TRUE(says(error_of({"membench", "--devices=1,0,1", "--list-devices"}), "device 1 is listed twice"));
  const std::string outside = error_of({"membench", "--devices=2,3", "--peers=0-1"});
  EXPECT_TRUE(says(outside, "--peers names device 0, not one of the GPUs chosen (2,3)")) << outside;
  const std::string one = error_of({"membench", "--devices=0", "--peers-only"});
  EXPECT_TRUE(says(one, "--peers-only: --devices=0 with --peers=all selects no pair")) << one;
  EXPECT_TRUE(says(error_of({"membench", "--devices=0,1", "--peers=none", "--peers-only"}), "--peers-only"));
  for (const std::vector<std::string>& good :
       {std::vector<std::string>{"membench", "--devices=0,1", "--peers-only"},
        {"membench", "--devices=2,3", "--peers=3-2"},
        {"membench", "--devices=0", "--peers=none"},
        {"membench", "--devices=0"},
        {"membench", "--devices=all", "--peers=0-5", "--peers-only"}}) {  // all: counted when it runs
    EXPECT_FALSE(parse_options(good).error) << good[1] << " " << good.back() << ": " << *parse_options(good).error;
  }
}

TEST(CliChecks, TwoListingsAreRefused) {
  run_options families;
  families.list_families = true;
  const auto both = check_modes(families, {"membench", "--list-families", "--benchmark_list_tests"}, true);
  ASSERT_TRUE(both);
  EXPECT_TRUE(says(*both, "--list-families and --benchmark_list_tests")) << *both;
  run_options devices;
  devices.list_devices = true;
  EXPECT_TRUE(check_modes(devices, {"membench"}, true));
  EXPECT_TRUE(check_modes(devices, {"membench", "--benchmark_filter=x"}, false)) << "a listing takes no filter";
  EXPECT_FALSE(check_modes(families, {"membench", "--list-families"}, false));
  EXPECT_FALSE(check_modes(run_options{}, {"membench", "--benchmark_list_tests"}, true));
}

// The exit table: an invalid filter, the flag's or the environment's, is exit 2 in every mode.
TEST(CliChecks, AnInvalidFilterFromTheEnvironmentIsRefusedByEveryListing) {
  const scoped_variable filter("BENCHMARK_FILTER", "(");
  run_options families;
  families.list_families = true;
  for (const run_options& o : {families, run_options{}}) {
    const auto problem = check_modes(o, {"membench"}, false);
    ASSERT_TRUE(problem);
    EXPECT_TRUE(says(*problem, "BENCHMARK_FILTER='(' is not a valid regular expression")) << *problem;
  }
  const scoped_variable valid("BENCHMARK_FILTER", "^global/");
  EXPECT_FALSE(check_modes(families, {"membench"}, false)) << "a valid one from the environment is no flag given";
}

// Google Benchmark adds the user's context first and drops membench's later value of the key.
TEST(CliChecks, AContextKeyTheResultsWriteThemselvesIsRefused) {
  for (const char* key : {"gpu_uuid", "membench_version", "membench_fresh_process_1_after", "peer_gpu_uuids", "date"}) {
    const auto problem = check_benchmark_flags({"membench", std::string("--benchmark_context=note=a,") + key + "=x"});
    ASSERT_TRUE(problem) << key;
    EXPECT_TRUE(says(*problem, std::string("the key '") + key + "'")) << *problem;
  }
  EXPECT_FALSE(check_benchmark_flags({"membench", "--benchmark_context=note=a,site=b"}));
  {
    const scoped_variable context("BENCHMARK_CONTEXT", "gpu_uuid=GPU-0");
    const auto problem = check_benchmark_flags({"membench"});
    ASSERT_TRUE(problem);
    EXPECT_TRUE(says(*problem, "BENCHMARK_CONTEXT=gpu_uuid=GPU-0 in the environment")) << *problem;
  }
  const scoped_variable twice("BENCHMARK_CONTEXT", "site=a,site=b");
  const auto problem = check_benchmark_flags({"membench"});
  ASSERT_TRUE(problem);
  EXPECT_TRUE(says(*problem, "the key 'site' given twice")) << *problem;
}

}  // namespace
}  // namespace membench
