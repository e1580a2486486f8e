#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "common/schema.hpp"
#include "common/version.hpp"
#include "harness/options/cli.hpp"
#include "harness/options/peers.hpp"

namespace membench {
namespace {

TEST(Cli, DetectsListOnly) {
  EXPECT_TRUE(wants_list_only({"membench", "--benchmark_list_tests"}));
  EXPECT_TRUE(wants_list_only({"membench", "--benchmark_filter=x", "--benchmark_list_tests=true"}));
  EXPECT_FALSE(wants_list_only({"membench", "--benchmark_list_tests=false"}));
  EXPECT_FALSE(wants_list_only({"membench"}));
  EXPECT_TRUE(wants_list_only({"membench", "--benchmark_list_tests=yes"})) << "Google Benchmark reads yes as true";
  EXPECT_FALSE(wants_list_only({"membench", "--benchmark_list_tests", "--benchmark_list_tests=0"})) << "last wins";
}

// Google Benchmark answers these with its help and exit 0, or reads nan as a number.
TEST(Cli, RefusesGoogleBenchmarkFlagValuesItWouldMisread) {
  for (const char* bad : {"--benchmark_out_format=xml", "--benchmark_format=xml", "--benchmark_time_unit=m",
                          "--benchmark_repetitions=nan", "--benchmark_repetitions=-3", "--benchmark_min_warmup_time=nan",
                          "--benchmark_min_warmup_time=inf", "--benchmark_list_tests=maybe", "--benchmark_color=blue",
                          "--benchmark_counters_tabular=", "--v=x"}) {
    const auto problem = check_benchmark_flags({"membench", bad});
    ASSERT_TRUE(problem) << bad;
    EXPECT_NE(problem->find(bad), std::string::npos) << *problem;
  }
  for (const char* good : {"--benchmark_out_format=csv", "--benchmark_format=json", "--benchmark_time_unit=us",
                           "--benchmark_repetitions=5", "--benchmark_min_warmup_time=0.5", "--benchmark_color=auto",
                           "--benchmark_list_tests=true", "--benchmark_filter=nan", "--suite=quick"}) {
    EXPECT_FALSE(check_benchmark_flags({"membench", good})) << good;
  }
  EXPECT_FALSE(check_benchmark_flags({"--benchmark_format=xml"})) << "argv[0] is the program";
}

TEST(Cli, MinTimeSyntaxFollowsGoogleBenchmarkVersion) {
  EXPECT_EQ(single_iteration_arg("1.7.1"), "--benchmark_min_time=0");
  EXPECT_EQ(single_iteration_arg("1.8.3"), "--benchmark_min_time=1x");
  EXPECT_EQ(single_iteration_arg("2.0.0"), "--benchmark_min_time=1x");
  EXPECT_TRUE(has_arg_prefix({"a", "--benchmark_min_time=1"}, "--benchmark_min_time"));
  EXPECT_FALSE(has_arg_prefix({"a", "--benchmark_filter=x"}, "--benchmark_min_time"));
}

TEST(Cli, ParsesMembenchOptions) {
  const parsed_options p = parse_options({"membench", "--suite=quick", "--max-ci=0.25", "--keep-samples=50",
                                          "--timing=events", "--device=1", "--progress=never"});
  ASSERT_FALSE(p.error) << *p.error;
  EXPECT_EQ(p.options.suite, suite_tier::quick);
  EXPECT_DOUBLE_EQ(p.options.rule.max_ci_pct, 0.25);
  EXPECT_EQ(p.options.keep_samples, 50);
  EXPECT_EQ(p.options.method, timing_method::events);
  EXPECT_EQ(p.options.device, 1);
  EXPECT_EQ(p.options.progress, progress_mode::never);
  const parsed_options d = parse_options({"membench"});
  ASSERT_FALSE(d.error);
  EXPECT_EQ(d.options.suite, suite_tier::standard) << "the default tier";
}

TEST(Cli, RejectsUnknownAndBadValues) {
  EXPECT_TRUE(parse_options({"membench", "--no-such-flag"}).error);
  EXPECT_TRUE(parse_options({"membench", "--suite=standard"}).error) << "the tier is called default";
  EXPECT_TRUE(parse_options({"membench", "--max-ci=0"}).error);
  EXPECT_TRUE(parse_options({"membench", "--ci-level=100"}).error);
  EXPECT_TRUE(parse_options({"membench", "--min-samples=0"}).error);
  EXPECT_TRUE(parse_options({"membench", "--metric-list=a,,b"}).error);
  EXPECT_TRUE(parse_options({"membench", "--device=-1"}).error);
  for (const char* non_finite : {"--clock-threshold=nan", "--batch-below=nan", "--batch-below=inf", "--max-ci=nan",
                                 "--ci-level=nan", "--max-time=inf", "--min-time=nan", "--row-limit=nan"}) {
    EXPECT_TRUE(parse_options({"membench", non_finite}).error) << non_finite;
  }
}

TEST(Cli, HelpListsEveryOptionOfTheSchema) {
  const std::string help = help_text("cg");
  EXPECT_NE(help.find("cg build"), std::string::npos);
  for (const auto& o : schema::options()) EXPECT_NE(help.find(std::string(o.flag)), std::string::npos) << o.flag;
  for (const auto& e : schema::exit_codes()) EXPECT_NE(help.find(std::string(e.code)), std::string::npos) << e.code;
}

TEST(Cli, VersionIsAFlagThatPrintsEveryVersion) {
  EXPECT_TRUE(parse_options({"membench", "--version"}).options.version);
  EXPECT_FALSE(parse_options({"membench"}).options.version);
  EXPECT_EQ(version_text("0.1.0+3.g0123456789ab", "0123456789ab", "1.8.3", "13.0"),
            "membench 0.1.0+3.g0123456789ab (commit 0123456789ab, Google Benchmark 1.8.3, CUDA runtime 13.0)\n");
  EXPECT_TRUE(std::regex_match(std::string(project_version()), std::regex(R"([0-9]+\.[0-9]+\.[0-9]+)")))
      << project_version();
}

TEST(Cli, VersionIsTheProjectVersionWithWhatGitSays) {
  EXPECT_EQ(describe_version("0.1.0", ""), "0.1.0");  // outside git
  EXPECT_EQ(describe_version("0.1.0", "v0.1.0-0-g0695cf7c1234"), "0.1.0");
  EXPECT_EQ(describe_version("0.1.0", "v0.1.0-0-g0695cf7c1234-dirty"), "0.1.0+g0695cf7c1234.dirty");
  EXPECT_EQ(describe_version("0.1.0", "v0.1.0-3-g0695cf7c1234"), "0.1.0+3.g0695cf7c1234");
  EXPECT_EQ(describe_version("0.1.0", "v0.1.0-12-g0695cf7c1234-dirty"), "0.1.0+12.g0695cf7c1234.dirty");
  EXPECT_EQ(describe_version("0.1.0", "0695cf7c1234"), "0.1.0+g0695cf7c1234");  // no v0.1.0 tag
  EXPECT_EQ(describe_version("0.1.0", "0695cf7c1234-dirty"), "0.1.0+g0695cf7c1234.dirty");
  // Anything git would not have written is said, never dropped.
  for (const char* odd : {"v0.2.0-3-g0695cf7c1234", "v0.1.0-x-g0695", "v0.1.0-3-gXYZ", "v0.1.0-3", "main", "-dirty-dirty"})
    EXPECT_EQ(describe_version("0.1.0", odd), "0.1.0+unknown") << odd;
  // Semantic versioning's build metadata: dot-separated [0-9A-Za-z-] identifiers.
  EXPECT_TRUE(std::regex_match(full_version(), std::regex(R"([0-9]+\.[0-9]+\.[0-9]+(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?)")))
      << full_version();
}

TEST(Cli, OnlyADebugBuildSaysItsTimesAreNotRepresentative) {
  const auto banner = debug_build_banner("Debug");
  ASSERT_TRUE(banner);
  EXPECT_NE(banner->find("not representative"), std::string::npos);
  EXPECT_NE(banner->find("-DCMAKE_BUILD_TYPE=Release"), std::string::npos);
  for (const char* optimised : {"Release", "RelWithDebInfo", "MinSizeRel"}) EXPECT_FALSE(debug_build_banner(optimised));
}

TEST(Cli, OptionDefaultsAreTheOnesTheSchemaDocuments) {
  const run_options o;
  auto documented = [](std::string_view flag) {
    for (const auto& opt : schema::options()) {
      if (opt.flag == flag) return std::string(opt.default_value);
    }
    return std::string("<undocumented>");
  };
  EXPECT_EQ(documented("--device"), fmt::format("{}", o.device));
  EXPECT_EQ(documented("--suite"), to_string(o.suite));
  EXPECT_EQ(documented("--timing"), to_string(o.method));
  EXPECT_EQ(documented("--max-ci"), fmt::format("{}", o.rule.max_ci_pct));
  EXPECT_EQ(documented("--max-ci-host"), fmt::format("{}", o.rule.max_ci_host_pct));
  EXPECT_EQ(documented("--ci-level"), fmt::format("{}", o.rule.ci_level_pct));
  EXPECT_EQ(documented("--min-samples"), fmt::format("{}", o.rule.min_samples));
  EXPECT_EQ(documented("--min-time"), fmt::format("{}", o.rule.min_time_s));
  EXPECT_EQ(documented("--max-time"), fmt::format("{}", o.rule.max_time_s));
  EXPECT_EQ(documented("--max-time-host"), fmt::format("{}", o.rule.max_time_host_s));
  EXPECT_EQ(documented("--row-limit"), fmt::format("{}", o.rule.row_limit_s));
  EXPECT_EQ(documented("--clock-threshold"), fmt::format("{}", o.clocks.threshold_pct));
  EXPECT_EQ(documented("--batch-below"), fmt::format("{}", o.batch_below_us));
  EXPECT_EQ(documented("--keep-samples"), fmt::format("{}", o.keep_samples));
  EXPECT_EQ(documented("--progress"), "auto");
  EXPECT_EQ(documented("--peers"), o.peers);
  EXPECT_FALSE(o.peers_only);
  EXPECT_EQ(documented("--host-link"), to_string(o.host_link));
}

TEST(Options, HostLinkSaysWhereTheHostRowsRun) {
  EXPECT_EQ(parse_options({"membench"}).options.host_link, host_link_mode::alone);
  for (host_link_mode m : {host_link_mode::alone, host_link_mode::together, host_link_mode::skip, host_link_mode::only})
    EXPECT_EQ(parse_options({"membench", fmt::format("--host-link={}", to_string(m))}).options.host_link, m);
  for (const char* bad : {"--host-link=", "--host-link=apart", "--host-link=ALONE"})
    EXPECT_TRUE(parse_options({"membench", bad}).error.has_value()) << bad;
}

std::vector<peer_pair> pairs_of(std::string_view spec, int devices, bool strict = false) {
  return std::get<std::vector<peer_pair>>(
      resolve_peers(std::get<peer_spec>(parse_peers(spec)), first_devices(devices), strict));
}

std::string problem_of(std::string_view spec) {
  const auto parsed = parse_peers(spec);
  return std::holds_alternative<std::string>(parsed) ? std::get<std::string>(parsed) : "<accepted>";
}

TEST(Peers, AllIsEveryOrderedPair) {
  EXPECT_EQ(pairs_of("all", 3), (std::vector<peer_pair>{{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}}));
  EXPECT_EQ(pairs_of("*-*", 2), (std::vector<peer_pair>{{0, 1}, {1, 0}}));
  EXPECT_TRUE(pairs_of("all", 1).empty()) << "one GPU: no pair";
  EXPECT_TRUE(pairs_of("all", 0).empty());
  EXPECT_TRUE(pairs_of("none", 8).empty());
}

TEST(Peers, PairsAndWildcards) {
  EXPECT_EQ(pairs_of("2-3,0-1", 4), (std::vector<peer_pair>{{0, 1}, {2, 3}})) << "sorted";
  EXPECT_EQ(pairs_of("0-*", 4), (std::vector<peer_pair>{{0, 1}, {0, 2}, {0, 3}}));
  EXPECT_EQ(pairs_of("*-2", 3), (std::vector<peer_pair>{{0, 2}, {1, 2}}));
  EXPECT_EQ(pairs_of("0-1,0-*,1-0", 2), (std::vector<peer_pair>{{0, 1}, {1, 0}})) << "each pair once";
  EXPECT_EQ(pairs_of("0-5", 2), (std::vector<peer_pair>{{0, 5}})) << "the count is an estimate: kept, skips when run";
}

TEST(Peers, BadSpecsSayWhatIsWrong) {
  EXPECT_NE(problem_of("0-0").find("pairs device 0 with itself"), std::string::npos);
  for (const char* bad : {"", "0", "0-", "-1", "0--1", "a-1", "0-1,", "0-1,,1-0", "0:1", "all,0-1", "0-1-2"})
    EXPECT_NE(problem_of(bad).find("is not a pair SRC-DST"), std::string::npos) << "'" << bad << "': " << problem_of(bad);
  const auto outside = resolve_peers(std::get<peer_spec>(parse_peers("0-3")), {0, 1}, true);
  ASSERT_TRUE(std::holds_alternative<std::string>(outside));
  EXPECT_NE(std::get<std::string>(outside).find("names device 3, not one of the GPUs chosen (0,1)"), std::string::npos);
  EXPECT_EQ(pairs_of("all", 2, true), (std::vector<peer_pair>{{0, 1}, {1, 0}}));
  EXPECT_TRUE(parse_options({"membench", "--peers=0-x"}).error.has_value());
  EXPECT_FALSE(parse_options({"membench", "--peers=0-1", "--peers-only"}).error.has_value());
  EXPECT_TRUE(parse_options({"membench", "--peers-only"}).options.peers_only);
}

TEST(Peers, FormatNamesEveryPair) {
  EXPECT_EQ(format_peers({{0, 1}, {1, 0}, {2, 3}}), "0-1,1-0,2-3");
  EXPECT_EQ(format_peers({}), "none");
  EXPECT_EQ(pairs_of(format_peers(pairs_of("all", 4)), 4), pairs_of("all", 4)) << "a round trip";
  EXPECT_EQ(peer_devices({{3, 1}, {0, 1}}), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(devices_named({"peer/copy/access:on/dir:push/src:2/dst:0/bytes:1M", "peer/all_to_one/access:on/dst:3/bytes:1M",
                           "global/read/bytes:1G"}),
            (std::vector<int>{0, 2, 3}));
}

TEST(Peers, VisibleGpusCountedWithoutCuda) {
  EXPECT_EQ(visible_gpu_count(nullptr, 4), 4) << "unset: the driver's";
  EXPECT_EQ(visible_gpu_count(nullptr, std::nullopt), 0);
  EXPECT_EQ(visible_gpu_count("", 4), 0) << "set and empty: none";
  EXPECT_EQ(visible_gpu_count("0,1", 4), 2);
  EXPECT_EQ(visible_gpu_count("2, 3", 4), 2);
  EXPECT_EQ(visible_gpu_count("0,7,1", 4), 1) << "CUDA stops at the first device that is not there";
  EXPECT_EQ(visible_gpu_count("1,1", 4), 1) << "nor one listed twice";
  EXPECT_EQ(visible_gpu_count("0,-1,1", 4), 1);
  EXPECT_EQ(visible_gpu_count("GPU-4f8a1c2e,GPU-0b6d9e3f", std::nullopt), 2);
  std::string many;
  for (int i = 0; i < 1000; ++i) many += fmt::format("{}GPU-{}", i == 0 ? "" : ",", i);
  EXPECT_EQ(visible_gpu_count(many.c_str(), 4), 4) << "no more than the host has";
  EXPECT_EQ(visible_gpu_count(many.c_str(), std::nullopt), 16) << "no more than a host holds";
  EXPECT_EQ(visible_gpu_count("MIG-abc", 4), 0);
  EXPECT_EQ(visible_gpu_count("0,1,2,3", std::nullopt), 4) << "no driver list: the entries";
}

TEST(Peers, DriverListsOneFolderPerGpu) {
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("membench_gpus_{}", getpid());
  std::filesystem::create_directories(dir / "0000:17:00.0");
  std::filesystem::create_directories(dir / "0000:65:00.0");
  EXPECT_EQ(driver_gpu_count(dir.string()), 2);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(driver_gpu_count(dir.string()), std::nullopt);
}

TEST(Cli, SelectedNamesFollowTheFilter) {
  const std::vector<std::string> names{"global/read/bytes:1G", "peer/copy/access:on/dir:push/src:0/dst:1/bytes:1M"};
  EXPECT_EQ(selected_names({"m"}, names), names);
  EXPECT_EQ(selected_names({"m", "--benchmark_filter=^peer/"}, names), (std::vector<std::string>{names[1]}));
  EXPECT_EQ(selected_names({"m", "--benchmark_filter=-^peer/"}, names), (std::vector<std::string>{names[0]}));
  EXPECT_EQ(selected_names({"m", "--benchmark_filter=read("}, names), names) << "invalid: check_filter says so";
}

TEST(Cli, FilterMustBeValidAndSelectSomething) {
  const std::vector<std::string> names{"global/read/bytes:1G", "global/copy/bytes:1G"};
  EXPECT_FALSE(check_filter({"m"}, names, "default"));
  EXPECT_FALSE(check_filter({"m", "--benchmark_filter=read"}, names, "default"));
  EXPECT_FALSE(check_filter({"m", "--benchmark_filter=-read"}, names, "default")) << "negative filter keeps copy";
  EXPECT_FALSE(check_filter({"m", "--benchmark_filter=manual_time$"}, names, "default")) << "matched with the suffix";
  const auto bad = check_filter({"m", "--benchmark_filter=read("}, names, "default");
  ASSERT_TRUE(bad);
  EXPECT_NE(bad->find("not a valid regular expression"), std::string::npos) << *bad;
  const auto none = check_filter({"m", "--benchmark_filter=^host/"}, names, "quick");
  ASSERT_TRUE(none);
  EXPECT_NE(none->find("matches none of the 2 benchmarks of the quick suite"), std::string::npos) << *none;
  EXPECT_TRUE(check_filter({"m", "--benchmark_filter=-."}, names, "full")) << "a negative filter that drops all";
}

TEST(Cli, CountsTheRowsARunWillReport) {
  const std::vector<std::string> names{"global/read/bytes:1G", "global/copy/bytes:1G", "host/copy/bytes:4K"};
  EXPECT_EQ(selected_count({"m"}, names), 3u);
  EXPECT_EQ(selected_count({"m", "--benchmark_filter=^global/"}, names), 2u);
  EXPECT_EQ(selected_count({"m", "--benchmark_filter=copy", "--benchmark_repetitions=5"}, names), 10u);
}

// Google Benchmark's flag default is the environment's BENCHMARK_FILTER; the flag, even
// empty, wins over it.
TEST(Cli, FilterIsTheFlagElseTheEnvironment) {
  EXPECT_FALSE(effective_filter({"m"}, nullptr));
  const auto env = effective_filter({"m"}, "^host/");
  ASSERT_TRUE(env);
  EXPECT_EQ(env->spec, "^host/");
  EXPECT_EQ(env->origin, "BENCHMARK_FILTER");
  const auto flag = effective_filter({"m", "--benchmark_filter=a", "--benchmark_filter=b"}, "^host/");
  ASSERT_TRUE(flag);
  EXPECT_EQ(flag->spec, "b") << "the last flag wins";
  EXPECT_EQ(flag->origin, "--benchmark_filter");
  const auto empty_flag = effective_filter({"m", "--benchmark_filter="}, "^host/");
  ASSERT_TRUE(empty_flag);
  EXPECT_EQ(empty_flag->spec, "") << "an empty flag selects all, whatever the environment says";
  const auto empty_env = effective_filter({"m"}, "");
  ASSERT_TRUE(empty_env);
  EXPECT_EQ(empty_env->spec, "") << "set and empty: all, as Google Benchmark reads it";
}

// Sets an environment variable for one test and puts back what was there.
class scoped_environment {
 public:
  scoped_environment(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  scoped_environment(const scoped_environment&) = delete;
  scoped_environment& operator=(const scoped_environment&) = delete;
  ~scoped_environment() {
    if (old_) setenv(name_.c_str(), old_->c_str(), 1);
    else unsetenv(name_.c_str());
  }

 private:
  std::string name_;
  std::optional<std::string> old_;
};

struct environment_filter : scoped_environment {
  explicit environment_filter(const char* value) : scoped_environment("BENCHMARK_FILTER", value) {}
};

// Google Benchmark reads its flags' defaults from the environment: a bad value there answers
// with its help and exit 0 as a bad flag does.
TEST(Cli, BenchmarkFlagsFromTheEnvironmentAreChecked) {
  for (const auto& [name, value] : {std::pair{"BENCHMARK_FORMAT", "xml"}, std::pair{"BENCHMARK_COLOR", ""},
                                    std::pair{"BENCHMARK_MIN_TIME", "1"}, std::pair{"BENCHMARK_REPETITIONS", "-1"},
                                    std::pair{"BENCHMARK_CONTEXT", "novalue"}}) {
    const scoped_environment set(name, value);
    const auto problem = check_benchmark_flags({"membench", "--benchmark_list_tests"});
    ASSERT_TRUE(problem) << name;
    EXPECT_NE(problem->find(name), std::string::npos) << *problem;
  }
  const scoped_environment good("BENCHMARK_FORMAT", "json");
  EXPECT_FALSE(check_benchmark_flags({"membench"}));
}

TEST(Cli, EnvironmentFilterIsCheckedAndCountedLikeTheFlag) {
  const std::vector<std::string> names{"global/read/bytes:1G", "global/copy/bytes:1G", "host/copy/bytes:4K"};
  {
    const environment_filter env("^host/");
    EXPECT_FALSE(check_filter({"m"}, names, "default"));
    EXPECT_EQ(selected_names({"m"}, names), (std::vector<std::string>{names[2]}));
    EXPECT_EQ(selected_count({"m", "--benchmark_repetitions=3"}, names), 3u);
    EXPECT_EQ(selected_count({"m", "--benchmark_filter=^global/"}, names), 2u) << "the flag wins";
  }
  {
    const environment_filter env("^nothing$");
    const auto none = check_filter({"m"}, names, "default");
    ASSERT_TRUE(none);
    EXPECT_NE(none->find("BENCHMARK_FILTER='^nothing$' matches none of the 3"), std::string::npos) << *none;
    EXPECT_FALSE(check_filter({"m", "--benchmark_filter=copy"}, names, "default")) << "the flag wins";
  }
  {
    const environment_filter env("read(");
    const auto bad = check_filter({"m"}, names, "default");
    ASSERT_TRUE(bad);
    EXPECT_NE(bad->find("BENCHMARK_FILTER='read(' is not a valid regular expression"), std::string::npos) << *bad;
  }
}

TEST(Cli, OutputMustBeWritableBeforeAnythingRuns) {
  EXPECT_FALSE(check_output({"m"}));
  const std::string ok = ::testing::TempDir() + "membench_check_output.json";
  std::remove(ok.c_str());
  EXPECT_FALSE(check_output({"m", "--benchmark_out=" + ok}));
  EXPECT_NE(access(ok.c_str(), F_OK), 0) << "the check leaves no file behind";
  const auto bad = check_output({"m", "--benchmark_out=/no/such/dir/out.json"});
  ASSERT_TRUE(bad);
  EXPECT_NE(bad->find("/no/such/dir/out.json"), std::string::npos) << *bad;
  EXPECT_TRUE(check_output({"m", "--benchmark_out=/dev/full"})) << "a device cannot take the finished file";
}

}  // namespace
}  // namespace membench

