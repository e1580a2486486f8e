// membench writes its results file itself, once, at the end of the run: Google Benchmark
// would open --benchmark_out for writing before it looks at anything else, so a listing
// emptied the file and a run killed hard had already destroyed the previous results. The
// output flags are taken from Google Benchmark; its file reporter writes into memory beside
// the display; what only the end of the run knows is added there; the file is replaced once.
#pragma once

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace membench {

/// Where the results go (--benchmark_out, --benchmark_out_format), parsed once.
struct output_request {
  std::string path;             ///< empty: no results file
  std::string format = "json";  ///< json, csv or console
  bool json() const { return format == "json"; }
};

/// The request in `args` (argv; the last of each flag wins, as in Google Benchmark).
output_request output_request_of(const std::vector<std::string>& args);

/// `args` with Google Benchmark's BENCHMARK_OUT and BENCHMARK_OUT_FORMAT (its flags' defaults)
/// made flags where no flag gives them, and both taken out of the environment: Google
/// Benchmark would open that file for writing first, and the children of --devices, which
/// are handed their own paths, would all write it.
std::vector<std::string> with_output_from_environment(std::vector<std::string> args);

/// `args` without Google Benchmark's output flags, and with an empty --benchmark_out (its
/// default from BENCHMARK_OUT was read before main): it must never open the file itself.
std::vector<std::string> without_output_flags(std::vector<std::string> args);

/// The display reporter Google Benchmark would use, and a file reporter of the request's
/// format writing into memory: what the file will hold once the run is over.
class results_reporter final : public benchmark::BenchmarkReporter {
 public:
  /// `display` is Google Benchmark's default display reporter (not owned).
  results_reporter(benchmark::BenchmarkReporter& display, const std::string& format);
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;
  /// The file's text so far (all of it after Finalize).
  std::string text() const { return buffer_.str(); }

 private:
  benchmark::BenchmarkReporter& display_;
  std::unique_ptr<benchmark::BenchmarkReporter> file_;
  std::ostringstream buffer_;
};

}  // namespace membench
