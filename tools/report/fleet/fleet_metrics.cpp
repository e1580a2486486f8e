// fleet --format=prom: the verdicts and the measurements as Prometheus metrics, in the text
// format node_exporter's textfile collector reads (membench-check --metrics writes the file).
// Names and units follow Prometheus' conventions (base units, a unit suffix, labels for what
// varies); a value that was not measured is left out, never written as 0.
#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "core/escape.hpp"
#include "fleet/fleet_stages.hpp"

namespace membench::report {
namespace {

namespace ft = fleet_test;

// A label value: the format's three escapes (backslash, double quote, newline) on the text as
// it is, so that two values stay two; bytes of no UTF-8 sequence become U+FFFD.
std::string label_value(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\\' || c == '"') {
      out += '\\';
      out += s[i];
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x80) {
      out += s[i];
    } else {
      const std::size_t n = utf8_sequence(s, i);
      if (n == 0) {
        out += "\xEF\xBF\xBD";
      } else {
        out.append(s, i, n);
        i += n - 1;
      }
    }
  }
  return out;
}

struct metric {
  const char* name;
  const char* help;
  std::string lines;  // the samples, each "name{labels} value\n"
};

void sample(metric& m, const std::string& labels, double value) {
  if (!std::isfinite(value)) return;
  if (labels.empty()) {
    fmt::format_to(std::back_inserter(m.lines), "{} {:.9g}\n", m.name, value);
  } else {
    fmt::format_to(std::back_inserter(m.lines), "{}{{{}}} {:.9g}\n", m.name, labels, value);
  }
}

// A GPU's series: its UUID and host, and its model and build (two builds of one GPU, or
// --allow-mixed models, are two series, never one twice); its stratum too where its runs fall
// in several (each judged apart).
std::string gpu_labels(const fleet_state& s, const fleet& f, std::size_t gpu) {
  std::string labels =
      fmt::format("gpu_uuid=\"{}\",host=\"{}\",gpu_name=\"{}\",build=\"{}\"", label_value(f.gpus[gpu].uuid),
                  label_value(f.gpus[gpu].host), label_value(f.key.gpu_name), label_value(f.key.build));
  if (in_several_strata(s, f, gpu)) labels += fmt::format(",stratum=\"{}\"", label_value(stratum_text(f.stratum)));
  return labels;
}

// The median over a GPU's runs of a row's figure: "time" (microseconds) or a counter.
double median_of(const fleet_gpu& g, const std::string& row, std::string_view what) {
  std::vector<double> values;
  for (const result_file* file : g.files) {
    const result* r = file->find(row);
    if (r == nullptr || r->error) continue;
    if (const auto v = r->value(what); v && std::isfinite(*v)) values.push_back(*v);
  }
  if (values.empty()) return NAN;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// What each of a level's rows measured on a GPU: its time, and its bandwidth or latency.
void add_level_rows(std::vector<metric>& m, const fleet_state& s, const level_outcome& o) {
  for (const levels::level_row& r : levels::rows()) {
    if (r.level != o.l->key) continue;
    const std::string row(r.row);
    const std::string labels =
        fmt::format("{},level=\"{}\",row=\"{}\"", gpu_labels(s, *o.f, o.gpu), o.l->key, label_value(row));
    const fleet_gpu& g = o.f->gpus[o.gpu];
    sample(m[3], labels, median_of(g, row, "time") * 1e-6);
    if (r.what == levels::measure::bandwidth) sample(m[4], labels, median_of(g, row, "bytes_per_second"));
    if (r.what == levels::measure::latency) sample(m[5], labels, median_of(g, row, "ns_per_load") * 1e-9);
  }
}

constexpr const char* level_words[] = {"within", "faster", "slower", "failing", "undecided", "not judged",
                                       "no time", "not in the reference"};

void add_level(std::vector<metric>& m, const fleet_state& s, const level_outcome& o) {
  const std::string labels = fmt::format("{},level=\"{}\"", gpu_labels(s, *o.f, o.gpu), o.l->key);
  sample(m[0], labels, o.change);
  sample(m[1], labels, o.z);
  for (const char* word : level_words) {
    std::string state(word);
    std::replace(state.begin(), state.end(), ' ', '_');
    sample(m[2], fmt::format("{},verdict=\"{}\"", labels, state), o.verdict == word ? 1 : 0);
  }
  // Healthy only where judged within: a level not judged is not vouched for (0); one the
  // reference lacks has no healthy series at all.
  if (o.verdict != "not in the reference")
    sample(m[6], labels, o.verdict == "within" || o.verdict == "faster" ? 1 : 0);
  add_level_rows(m, s, o);
}

void add_part(std::vector<metric>& m, const fleet_state& s, const fleet& f, std::size_t gpu, ft::part p, const ft::part_result& r,
              const char* against) {
  const std::string labels = fmt::format("{},part=\"{}\",against=\"{}\"", gpu_labels(s, f, gpu),
                                         p == ft::part::gpu ? "gpu" : "host", against);
  for (const ft::verdict v : {ft::verdict::pass, ft::verdict::slow, ft::verdict::failing, ft::verdict::undecided,
                              ft::verdict::not_judged}) {
    std::string state = to_string(v);
    std::replace(state.begin(), state.end(), ' ', '_');
    sample(m[7], fmt::format("{},verdict=\"{}\"", labels, state), r.v == v ? 1 : 0);
  }
}

}  // namespace

std::string fleet_metrics(const fleet_state& s, const std::vector<gpu_summary>& gpus) {
  std::vector<metric> m = {
      {"membench_level_deviation_ratio", "a level's time against its reference's centre, less 1 (0.05: 5 % slower)", {}},
      {"membench_level_z", "the level's deviation over its spread under the null (healthy chips and runs)", {}},
      {"membench_level_verdict", "the level's verdict: 1 for the state it is in", {}},
      {"membench_level_row_seconds", "a level row's time, the median over the GPU's runs", {}},
      {"membench_level_row_bandwidth_bytes_per_second", "a level row's bandwidth, the median over the GPU's runs", {}},
      {"membench_level_row_latency_seconds", "a level row's time per dependent load, the median over the GPU's runs", {}},
      {"membench_level_healthy", "1 where the level was judged within its reference, else 0", {}},
      {"membench_fleet_part_verdict",
       "a GPU's GPU or host work against its reference (against=\"reference\") or, with --since, its own earlier "
       "runs (against=\"itself\"): 1 for the state it is in", {}},
      {"membench_fleet_no_run_since", "1 for a GPU with runs before --since and none since: not judged", {}},
      {"membench_fleet_files_unreadable",
       "files of the fleet that could not be read: some GPU's runs, so no GPU is vouched for while it is above 0", {}},
  };
  for (const level_outcome& o : level_outcomes(s, gpus)) add_level(m, s, o);
  for (const gpu_summary& g : gpus) {
    const fleet& f = s.fleets[g.fleet];
    for (const ft::part p : {ft::part::gpu, ft::part::host}) {
      add_part(m, s, f, g.gpu, p, f.results[g.gpu].of(p), "reference");
      if (!f.drift.empty()) add_part(m, s, f, g.gpu, p, f.drift[g.gpu].of(p), "itself");
    }
  }
  for (const gpu_at_host& g : s.no_recent_run)
    sample(m[8], fmt::format("gpu_uuid=\"{}\",host=\"{}\"", label_value(g.uuid), label_value(g.host)), 1);
  sample(m[9], "", s.unreadable);
  std::string out;
  for (const metric& x : m) {
    if (x.lines.empty()) continue;
    fmt::format_to(std::back_inserter(out), "# HELP {} {}\n# TYPE {} gauge\n{}", x.name, x.help, x.name, x.lines);
  }
  return out;
}

}  // namespace membench::report
