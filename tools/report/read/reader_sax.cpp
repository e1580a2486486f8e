// The SAX handler: RapidJSON's events into rows and, for a whole document, its context.
// Problems are recorded, not thrown: a syntax error later in the file takes precedence,
// as a parser that reads the whole document first would have it.
#include "read/reader_sax.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include "read/reader_scalars.hpp"

namespace membench::report {
namespace {

using json = nlohmann::json;  // writes the context's minified values (as it did when it read them)

// Iterative: any nesting in constant stack. Numbers as text: converted by read_number.
constexpr unsigned parse_flags = rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag;

// Where byte `offset` of `text` is, as an editor counts: "line 3, column 17".
std::string position(std::string_view text, std::size_t offset) {
  const std::string_view before = text.substr(0, offset);
  const auto line = std::count(before.begin(), before.end(), '\n') + 1;
  const std::size_t line_start = before.rfind('\n');
  const std::size_t column = offset - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
  return fmt::format("line {}, column {}", line, column);
}

// Minified JSON text of a non-string context value, built from its events.
class minifier {
 public:
  void open(char c) {
    separate();
    text_ += c;
    fresh_.push_back(true);
  }
  void close(char c) {
    text_ += c;
    fresh_.pop_back();
  }
  void key(std::string_view k) {
    separate();
    text_ += json(std::string(k)).dump();
    text_ += ':';
    after_key_ = true;
  }
  void scalar(std::string_view s) {
    separate();
    text_ += s;
  }
  bool done() const { return fresh_.empty(); }
  std::string take() {
    std::string t = std::move(text_);
    text_.clear();
    return t;
  }

 private:
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!fresh_.empty() && !fresh_.back()) text_ += ',';
    if (!fresh_.empty()) fresh_.back() = false;
  }
  std::string text_;
  std::vector<bool> fresh_;
  bool after_key_ = false;
};

}  // namespace

class sax_rows::handler {
 public:
  handler(const read_options& what, mode m, std::vector<raw_row>& rows, std::vector<std::string_view>& names)
      : what_(what), mode_(m), rows_(rows), names_(names), keys_(what) {}

  std::map<std::string, std::string> context;
  std::string syntax_error;   // from the parser, or a scalar the handler refused
  std::string refusal;        // why the handler stopped the parser (a string not UTF-8, a number out of range)
  std::string context_error;  // context not an object
  std::string row_error;      // the first bad row ("benchmarks[i]: ...")
  std::string repeat_error;   // a key given twice in an object outside the rows
  bool saw_benchmarks = false, bad_benchmarks = false, bad_top = false;
  std::size_t row_count = 0;  // rows started
  rapidjson::Reader reader;   // kept: its buffer serves every block of a part

  // --- RapidJSON's handler interface. Numbers arrive as their text (RawNumber): every
  // other number event would be a parser set up otherwise, and stops it.
  bool Null() {
    return scalar([] { return std::string("null"); }, [&] { f_.wrong(*plan_); });
  }
  bool Bool(bool v) {
    return scalar([v] { return std::string(v ? "true" : "false"); }, [&] { f_.boolean(*plan_, v); });
  }
  bool Int(int) { return false; }
  bool Uint(unsigned) { return false; }
  bool Int64(std::int64_t) { return false; }
  bool Uint64(std::uint64_t) { return false; }
  bool Double(double) { return false; }
  bool RawNumber(const char* s, rapidjson::SizeType length, bool) {
    const std::string_view text(s, length);
    json_number n;
    if (!read_number(text, n))
      return refuse(fmt::format("number {}{} is out of range", text.substr(0, 40), text.size() > 40 ? "..." : ""));
    return scalar([&] { return number_text(text, n); }, [&] { f_.number(*plan_, n.value, n.integral, n.integer); },
                  n.value);
  }
  bool String(const char* s, rapidjson::SizeType length, bool) {
    const std::string_view v(s, length);
    if (!valid_utf8(v)) return refuse("a string that is not UTF-8");
    if (!frames_.empty() && frames_.back() == frame::context) {
      context[context_key_] = v;
      return true;
    }
    return scalar([&v] { return json(std::string(v)).dump(); }, [&] { f_.text(*plan_, v); });
  }
  bool StartObject() { return open('{'); }
  bool StartArray() { return open('['); }
  bool EndObject(rapidjson::SizeType) { return close('}'); }
  bool EndArray(rapidjson::SizeType) { return close(']'); }
  bool Key(const char* s, rapidjson::SizeType length, bool) {
    const std::string_view k(s, length);
    const frame in = frames_.empty() ? frame::skip : frames_.back();
    // A row's key the row before gave in its place is known to be UTF-8.
    if ((in != frame::row || !keys_.same(member_, k)) && !valid_utf8(k)) return refuse("a key that is not UTF-8");
    // JSON leaves a repeated key's meaning open: a second "benchmarks" or "context" would
    // replace or extend the first. Rows check theirs as they end (key_cache).
    if (in != frame::row && !object_keys_.empty() && !object_keys_.back().emplace(k).second && repeat_error.empty())
      repeat_error = in == frame::top       ? fmt::format("\"{}\" given twice", k)
                     : in == frame::context ? fmt::format("context: \"{}\" given twice", k)
                                            : fmt::format("\"{}\" given twice in an object", k);
    switch (in) {
      case frame::top: top_key_ = k; break;
      case frame::context: context_key_ = k; break;
      case frame::context_value: min_.key(k); break;
      case frame::row: {
        bool fresh = false;
        plan_ = &keys_.at(member_++, k, fresh);
        if (fresh && plan_->kind == field::counter) names_.push_back(plan_->counter);
        break;
      }
      default: break;
    }
    return true;
  }

 private:
  enum class frame : std::uint8_t { top, context, context_value, benchmarks, row, samples, skip };

  // Who ran it is text: a GPU's UUID given as a number, an array or null would be taken as a
  // name of that spelling, and two GPUs of one such value merged into one GPU's runs.
  void refuse_untyped_identity() {
    for (std::string_view key : {"gpu_uuid", "gpu_name", "host_name"}) {
      if (context_key_ == key && context_error.empty())
        context_error = fmt::format("context: \"{}\" is not a string", key);
    }
  }

  // A number, string, boolean or null wherever it is: `as_text` gives it as minified JSON
  // (context values), `on_row` reads it as a row's member; `number` is its value, if any.
  template <class AsText, class OnRow>
  bool scalar(AsText&& as_text, OnRow&& on_row, std::optional<double> number = std::nullopt) {
    if (frames_.empty()) {
      bad_top = true;  // a document that is a bare number or string
      return true;
    }
    switch (frames_.back()) {
      case frame::top:
        if (top_key_ == "context") context_error = "\"context\" is not an object";
        if (top_key_ == "benchmarks") bad_benchmarks = true;
        break;
      case frame::context:
        refuse_untyped_identity();
        context[context_key_] = as_text();
        break;
      case frame::context_value: min_.scalar(as_text()); break;
      case frame::benchmarks: row_problem(row_count++, "not an object"); break;
      case frame::row: on_row(); break;
      case frame::samples:
        if (!number) {
          samples_bad_ = true;
        } else if (what_.evidence) {
          if (!valid_time_us(*number, false) && sample_error_.empty())
            sample_error_ = fmt::format("{}[{}]: {} is not a time in microseconds (above 0, at most {:g})",
                                        samples_key(), samples_into().size(), *number, max_time_us);
          samples_into().push_back(*number);
        }
        break;
      case frame::skip: break;
    }
    return true;
  }

  // The frame an opening bracket starts inside `parent`: skip for anything the reader
  // does not read (or that is wrong, which it records).
  frame opened(frame parent, char c) {
    switch (parent) {
      case frame::top:
        if (top_key_ == "context") {
          if (c == '{') return frame::context;
          context_error = "\"context\" is not an object";
        } else if (top_key_ == "benchmarks") {
          if (c == '[') {
            saw_benchmarks = true;
            return frame::benchmarks;
          }
          bad_benchmarks = true;
        }
        return frame::skip;
      case frame::context:
      case frame::context_value: min_.open(c); return frame::context_value;
      case frame::benchmarks:
        if (c == '{') {
          f_.clear();
          member_ = 0;
          samples_bad_ = false;
          sample_error_.clear();
          ++row_count;
          return frame::row;
        }
        row_problem(row_count++, "not an object");
        return frame::skip;
      case frame::row:
        if (c == '[' && (plan_->kind == field::samples_us || plan_->kind == field::batch_samples_us)) {
          batch_samples_ = plan_->kind == field::batch_samples_us;
          return frame::samples;
        }
        f_.wrong(*plan_);
        return frame::skip;
      case frame::samples: samples_bad_ = true; return frame::skip;
      default: return frame::skip;
    }
  }

  bool open(char c) {
    if (!frames_.empty() && frames_.back() == frame::context) refuse_untyped_identity();
    if (!frames_.empty()) {
      frames_.push_back(opened(frames_.back(), c));
    } else if (mode_ == mode::rows) {
      frames_.push_back(frame::benchmarks);  // a block of rows
    } else if (c == '{') {
      frames_.push_back(frame::top);
    } else {
      bad_top = true;
      frames_.push_back(frame::skip);
    }
    if (c == '{' && frames_.back() != frame::row) object_keys_.emplace_back();
    return true;
  }

  bool close(char c) {
    const frame done = frames_.back();
    frames_.pop_back();
    if (c == '}' && done != frame::row) object_keys_.pop_back();
    if (done == frame::context_value) {
      min_.close(c);
      if (min_.done()) context[context_key_] = min_.take();
    } else if (done == frame::samples && samples_bad_) {
      // A sample that is no number (a string, a boolean, an array): the row's evidence is in
      // doubt, and dropping it would judge the row on its interval alone, unsaid.
      if (what_.evidence && sample_error_.empty())
        sample_error_ = fmt::format("{}[{}]: not a number", samples_key(), samples_into().size());
      samples_into().clear();
      samples_bad_ = false;  // the next array of samples is judged on its own
    } else if (done == frame::row) {
      end_row();
    }
    return true;
  }

  void end_row() {
    raw_row r;
    std::string problem;
    if (const auto twice = keys_.repeated(member_)) {
      problem = fmt::format("member \"{}\" given twice", *twice);
    } else if (!sample_error_.empty()) {
      problem = sample_error_;
    } else {
      problem = check_row(f_, r, what_.evidence);
    }
    if (!problem.empty()) {
      row_problem(row_count - 1, problem);
    } else {
      rows_.push_back(std::move(r));
    }
  }

  // The array of samples being read: the row's own, or its batch figure's.
  std::vector<double>& samples_into() { return batch_samples_ ? f_.ev.batch.samples_us : f_.ev.samples_us; }
  std::string_view samples_key() const { return batch_samples_ ? "batch_samples_us" : "samples_us"; }

  bool refuse(std::string why) {
    refusal = std::move(why);
    return false;
  }

  void row_problem(std::size_t index, std::string_view problem) {
    if (row_error.empty()) row_error = fmt::format("benchmarks[{}]: {}", index, problem);
  }

  const read_options& what_;
  mode mode_;
  std::vector<raw_row>& rows_;
  std::vector<std::string_view>& names_;
  key_cache keys_;
  std::vector<frame> frames_;
  std::vector<std::set<std::string, std::less<>>> object_keys_;  // the keys of each open object outside the rows
  std::string top_key_, context_key_;
  minifier min_;
  row_fields f_;
  const key_plan* plan_ = nullptr;
  std::size_t member_ = 0;
  bool samples_bad_ = false;
  bool batch_samples_ = false;  // the open array is batch_samples_us
  std::string sample_error_;  // the row's first sample that is no time
};

sax_rows::sax_rows(const read_options& what, mode m, std::vector<raw_row>& rows, std::vector<std::string_view>& names)
    : h_(std::make_unique<handler>(what, m, rows, names)) {}

sax_rows::~sax_rows() = default;

bool sax_rows::parse(std::string_view text) {
  handler& h = *h_;
  // A byte order mark may open a document (nlohmann_json, the reader before, skipped one).
  static constexpr std::string_view bom = "\xEF\xBB\xBF";
  const std::size_t skipped = text.substr(0, bom.size()) == bom ? bom.size() : 0;
  rapidjson::MemoryStream in(text.data() + skipped, text.size() - skipped);
  const rapidjson::ParseResult r = h.reader.Parse<parse_flags>(in, h);
  if (h.syntax_error.empty()) {
    if (r.IsError()) {
      const char* what = r.Code() == rapidjson::kParseErrorTermination ? h.refusal.c_str() : GetParseError_En(r.Code());
      h.syntax_error = fmt::format("{}: {}", position(text, skipped + r.Offset()), what);
    } else if (skipped + in.Tell() != text.size()) {  // the stream ends at a NUL byte as at its end
      h.syntax_error = fmt::format("{}: a NUL byte after the document", position(text, skipped + in.Tell()));
    }
  }
  return problem().empty();
}

std::string sax_rows::problem() const {
  const handler& h = *h_;
  if (!h.syntax_error.empty()) return fmt::format("not valid JSON (truncated or malformed?): {}", h.syntax_error);
  if (h.bad_top) return "not a Google Benchmark JSON object";
  if (!h.repeat_error.empty()) return h.repeat_error;
  if (!h.context_error.empty()) return h.context_error;
  if (h.bad_benchmarks) return "no \"benchmarks\" array";
  return h.row_error;
}

std::map<std::string, std::string> sax_rows::take_context() { return std::move(h_->context); }

bool sax_rows::saw_benchmarks() const { return h_->saw_benchmarks; }

std::size_t sax_rows::row_count() const { return h_->row_count; }

}  // namespace membench::report
