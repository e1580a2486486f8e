#include "results_file.hpp"

#include <cstdlib>
#include <string_view>
#include <utility>

namespace membench {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

constexpr std::string_view out_flag = "--benchmark_out=";
constexpr std::string_view format_flag = "--benchmark_out_format=";

std::unique_ptr<benchmark::BenchmarkReporter> file_reporter(const std::string& format) {
  // Deprecated from Google Benchmark 1.8 on, and still what --benchmark_out_format=csv means.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  if (format == "csv") return std::make_unique<benchmark::CSVReporter>();
#pragma GCC diagnostic pop
  if (format == "console") return std::make_unique<benchmark::ConsoleReporter>(benchmark::ConsoleReporter::OO_None);
  return std::make_unique<benchmark::JSONReporter>();
}

}  // namespace

output_request output_request_of(const std::vector<std::string>& args) {
  output_request out;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (starts_with(args[i], out_flag)) out.path = args[i].substr(out_flag.size());
    if (starts_with(args[i], format_flag)) out.format = args[i].substr(format_flag.size());
  }
  return out;
}

std::vector<std::string> with_output_from_environment(std::vector<std::string> args) {
  const auto flagged = [&](std::string_view flag) {
    for (std::size_t i = 1; i < args.size(); ++i) {
      if (starts_with(args[i], flag)) return true;
    }
    return false;
  };
  for (const auto& [variable, flag] : {std::pair{"BENCHMARK_OUT", out_flag}, std::pair{"BENCHMARK_OUT_FORMAT", format_flag}}) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0' && !flagged(flag)) args.push_back(std::string(flag) + value);
    ::unsetenv(variable);
  }
  return args;
}

std::vector<std::string> without_output_flags(std::vector<std::string> args) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i > 0 && (starts_with(args[i], out_flag) || starts_with(args[i], format_flag))) continue;
    out.push_back(std::move(args[i]));
  }
  // Google Benchmark read BENCHMARK_OUT into its flag before main: an empty flag clears it.
  out.push_back(std::string(out_flag));
  return out;
}

results_reporter::results_reporter(benchmark::BenchmarkReporter& display, const std::string& format)
    : display_(display), file_(file_reporter(format)) {
  // Google Benchmark lists and complains through the display reporter's streams.
  SetOutputStream(&display_.GetOutputStream());
  SetErrorStream(&display_.GetErrorStream());
  file_->SetOutputStream(&buffer_);
  file_->SetErrorStream(&buffer_);
}

bool results_reporter::ReportContext(const Context& context) {
  const bool shown = display_.ReportContext(context);
  return file_->ReportContext(context) && shown;
}

void results_reporter::ReportRuns(const std::vector<Run>& runs) {
  display_.ReportRuns(runs);
  file_->ReportRuns(runs);
}

void results_reporter::Finalize() {
  display_.Finalize();
  file_->Finalize();
}

}  // namespace membench
