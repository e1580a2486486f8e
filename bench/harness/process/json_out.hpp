// What membench adds to Google Benchmark's JSON once the run is over: context entries only
// known at the end (the closing calibration) and, with --keep-samples, each row's samples.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace membench {

/// Samples kept per registered name, one list per repetition.
using kept_lists = std::map<std::string, std::vector<std::vector<double>>>;

/// `text` (Google Benchmark JSON) with `context` added to its context and the kept samples to
/// its rows, as annotate_output says; `name` names the text in errors.
/// throws std::runtime_error naming it
std::string annotated(const std::string& text, const std::string& name,
                      const std::vector<std::pair<std::string, std::string>>& context, const kept_lists& samples,
                      const kept_lists& batch_samples = {});

/// Adds `context` to the file's context and, to every iteration row whose name has kept
/// samples, `samples_us`: the samples in microseconds (the repetition's own list when there
/// are several); `batch_samples_us` likewise from `batch_samples` (an empty list: none).
/// throws std::runtime_error naming the file
void annotate_output(const std::string& path, const std::vector<std::pair<std::string, std::string>>& context,
                     const kept_lists& samples, const kept_lists& batch_samples = {});

}  // namespace membench
