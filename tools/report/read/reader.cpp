// The JSON reader: RapidJSON's SAX parser (reader_sax.cpp) over a Google Benchmark file,
// then one result per name (reader_fold.cpp).
//
// The whole read hands the document to the parser on one thread; every error message
// comes from it. The split read gives the rows to the parser on every core: it cuts the
// benchmarks array into one part per core, and each part into blocks of about 256 KiB that
// the parser takes as arrays of their own, `[` rows `]`. The cuts are guesses (a '}', a
// ',' and a '{"', spaces aside: a string may hold those bytes too), confirmed by the parser
// itself: a block that starts at a row boundary and parses as an array of whole rows ends at
// one. The members before the array go through the parser as a document whose array is
// empty. Whatever the split read does not expect (a guess inside a string, a malformed
// row, benchmarks that are not the document's last member) sends the file to the whole
// read. Files are read with pread, a block at a time: the reader's memory is its rows.
#include "read/reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "common/parallel.hpp"
#include "read/reader_sax.hpp"

namespace membench::report {
namespace {

constexpr std::size_t window_bytes = std::size_t{1} << 16;  // read at once to find the array and part starts
constexpr std::size_t longest_head = std::size_t{1} << 24;  // members before the array the split read takes
// The most read from an input that is not a regular file (a pipe, a device), which has no
// size to check first: /dev/zero would otherwise fill the memory.
constexpr std::size_t longest_stream = std::size_t{512} << 20;

// A file's bytes, read at any offset; or text in memory.
class source {
 public:
  explicit source(std::string_view text) : text_(text), size_(text.size()) {}
  explicit source(const std::string& path) : path_(path) {
    // Without blocking: a FIFO nobody writes to would wait in open() for ever.
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0) throw input_error(fmt::format("{}: cannot open ({})", path, std::strerror(errno)));
    try {
      struct stat st {};
      if (::fstat(fd_, &st) != 0) throw input_error(fmt::format("{}: cannot read", path));
      if (S_ISDIR(st.st_mode)) throw input_error(fmt::format("{}: a folder, not a file", path));
      if (S_ISREG(st.st_mode)) {
        size_ = static_cast<std::uint64_t>(st.st_size);
        return;
      }
      // A pipe or a device: read as it comes (a FIFO without a writer reads as empty).
      ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
      read_stream();
    } catch (...) {
      ::close(fd_);  // no destructor runs for a constructor that throws
      throw;
    }
  }
  ~source() {
    if (fd_ >= 0) ::close(fd_);
  }
  source(const source&) = delete;
  source& operator=(const source&) = delete;

  std::uint64_t size() const { return size_; }

  /// Appends bytes [offset, offset + n) to `out`. throws input_error
  void append(std::uint64_t offset, std::size_t n, std::string& out) const {
    if (fd_ < 0) {
      out.append(text_.substr(offset, n));
      return;
    }
    const std::size_t at = out.size();
    out.resize(at + n);
    for (std::size_t done = 0; done < n;) {
      const ssize_t got = ::pread(fd_, out.data() + at + done, n - done, static_cast<off_t>(offset + done));
      if (got <= 0) throw input_error(fmt::format("{}: cannot read", path_));
      done += static_cast<std::size_t>(got);
    }
  }

  /// Every byte: the text, or the file read into `storage`.
  std::string_view whole(std::string& storage) const {
    if (fd_ < 0) return text_;
    append(0, size_, storage);
    return storage;
  }

 private:
  // Its bytes once, in memory, up to longest_stream. throws input_error
  void read_stream() {
    std::array<char, 1 << 16> chunk{};
    for (ssize_t got; (got = ::read(fd_, chunk.data(), chunk.size())) != 0;) {
      if (got < 0) throw input_error(fmt::format("{}: cannot read", path_));
      if (copy_.size() + static_cast<std::size_t>(got) > longest_stream)
        throw input_error(fmt::format("{}: not a regular file, and longer than the {} MiB read from one", path_,
                                      longest_stream >> 20));
      copy_.append(chunk.data(), static_cast<std::size_t>(got));
    }
    ::close(fd_);
    fd_ = -1;
    text_ = copy_;
    size_ = copy_.size();
  }

  std::string path_;
  int fd_ = -1;
  std::string copy_;
  std::string_view text_;
  std::uint64_t size_ = 0;
};

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Whether the '{' at `q` may start a row that follows another: a '}' then a ',' before it
// and a key's quote after it, spaces aside, all within `buf`. `cut` is then just past the
// '}'. Only a guess: a string may hold these bytes.
bool row_boundary(std::string_view buf, std::size_t q, std::size_t& cut) {
  std::size_t after = q + 1;
  while (after < buf.size() && is_space(buf[after])) ++after;
  if (after >= buf.size() || buf[after] != '"') return false;
  std::size_t before = q;
  while (before > 0 && is_space(buf[before - 1])) --before;
  if (before == 0 || buf[--before] != ',') return false;
  while (before > 0 && is_space(buf[before - 1])) --before;
  if (before == 0 || buf[before - 1] != '}') return false;
  cut = before;
  return true;
}

// Where the rows of the benchmarks array lie in the file.
struct array_extent {
  std::uint64_t first_row = 0;  // the first row's '{', or `close` for an empty array
  std::uint64_t close = 0;      // the array's ']'
};

// The '[' of the first "benchmarks" member in `head`, or npos (none, or not within it).
std::size_t find_array(std::string_view head) {
  static constexpr std::string_view key = "\"benchmarks\"";
  for (std::size_t k = head.find(key); k != std::string_view::npos; k = head.find(key, k + 1)) {
    std::size_t p = k + key.size();
    while (p < head.size() && is_space(head[p])) ++p;
    if (p >= head.size()) break;
    if (head[p] != ':') continue;
    ++p;
    while (p < head.size() && is_space(head[p])) ++p;
    if (p < head.size() && head[p] == '[') return p;
  }
  return std::string_view::npos;
}

// The members before the benchmarks array, read by the parser as a document whose array
// is empty (the context goes to `f`); then where the array's rows lie, the array being the
// document's last member. nullopt: a layout the split read leaves to the whole one.
std::optional<array_extent> read_head(const source& src, const read_options& what, result_file& f) {
  std::string head;
  std::size_t open = std::string::npos;
  for (std::size_t want = window_bytes; open == std::string::npos; want *= 4) {
    head.clear();
    src.append(0, static_cast<std::size_t>(std::min<std::uint64_t>(want, src.size())), head);
    open = find_array(head);
    if (open == std::string::npos && (head.size() == src.size() || want >= longest_head)) return std::nullopt;
  }
  head.resize(open);
  head += "[]}";
  std::vector<raw_row> none;
  std::vector<std::string_view> names;
  sax_rows parser(what, sax_rows::mode::document, none, names);
  if (!parser.parse(head) || !parser.saw_benchmarks() || parser.row_count() != 0) return std::nullopt;
  f.context = parser.take_context();
  // Google Benchmark writes the benchmarks last: the array closes where the document does.
  std::string tail;
  const std::uint64_t from = std::max<std::uint64_t>(open + 1, src.size() - std::min<std::uint64_t>(src.size(), 4096));
  src.append(from, static_cast<std::size_t>(src.size() - from), tail);
  std::string_view t = tail;
  for (const char closing : {'}', ']'}) {
    while (!t.empty() && is_space(t.back())) t.remove_suffix(1);
    if (t.empty() || t.back() != closing) return std::nullopt;
    t.remove_suffix(1);
  }
  array_extent a{open + 1, from + t.size()};
  std::string first;
  src.append(a.first_row, static_cast<std::size_t>(std::min<std::uint64_t>(window_bytes, a.close - a.first_row)), first);
  const auto row = std::find_if(first.begin(), first.end(), [](char c) { return !is_space(c); });
  a.first_row += static_cast<std::uint64_t>(row - first.begin());
  return a;
}

// The first guessed row boundary at or after `from`, or `a.close`.
std::uint64_t next_boundary(const source& src, const array_extent& a, std::uint64_t from) {
  constexpr std::uint64_t overlap = 64;  // bytes before and after a '{' that decide it
  std::string buf;
  for (std::uint64_t at = from; at < a.close;) {
    const std::uint64_t begin = at - std::min(at - a.first_row, overlap);
    const std::uint64_t end = std::min<std::uint64_t>(a.close, at + window_bytes);
    buf.clear();
    src.append(begin, static_cast<std::size_t>(end - begin), buf);
    std::size_t cut = 0;
    for (auto q = buf.find('{', static_cast<std::size_t>(at - begin)); q != std::string::npos; q = buf.find('{', q + 1)) {
      if (row_boundary(buf, q, cut)) return begin + q;
    }
    if (end == a.close) break;
    at = std::max(at + 1, end - overlap);
  }
  return a.close;
}

// One part of the array: rows from `begin` (a row's '{') to `end` (the next part's first
// row, or the array's ']' for the last part).
struct part_span {
  std::uint64_t begin = 0, end = 0;
  bool last = false;
};

std::vector<part_span> split_array(const source& src, const array_extent& a, std::size_t parts) {
  std::vector<std::uint64_t> starts{a.first_row};
  const std::uint64_t n = a.close - a.first_row;
  for (std::size_t p = 1; p < parts; ++p) {
    const std::uint64_t s = next_boundary(src, a, std::max(a.first_row + n * p / parts, starts.back() + 1));
    if (s >= a.close) break;
    starts.push_back(s);
  }
  std::vector<part_span> spans;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const bool last = i + 1 == starts.size();
    spans.push_back({starts[i], last ? a.close : starts[i + 1], last});
  }
  return spans;
}

// The last guessed row boundary in `block` at or above `floor` (npos: none), and `cut`.
std::size_t last_boundary(const std::string& block, std::size_t floor, std::size_t& cut) {
  for (std::size_t q = block.size(); q > floor;) {
    q = block.rfind('{', q - 1);
    if (q == std::string::npos || q < floor) break;
    if (row_boundary(block, q, cut)) return q;
  }
  return std::string::npos;
}

// `block` ends where its part does: less the spaces, and before the next part, the ','.
bool trim_part_end(std::string& block, bool last) {
  while (block.size() > 1 && is_space(block.back())) block.pop_back();
  if (last) return true;
  if (block.back() != ',') return false;
  block.pop_back();
  while (block.size() > 1 && is_space(block.back())) block.pop_back();
  return true;
}

// The rows of one part through `parser` into `rows`, a block at a time; false where the
// parser finds a problem (a wrong guess among them). After the first block `rows` is sized
// for the whole part as that block's rows promise: a vector grown by doubling would hold up
// to twice its rows.
bool read_part(const source& src, const part_span& span, std::size_t block_bytes, sax_rows& parser,
               std::vector<raw_row>& rows) {
  std::string block = "[", rest;
  std::size_t searched = 1;  // no boundary below this in `block` (a row longer than a block)
  bool sized = false;
  for (std::uint64_t at = span.begin; at < span.end;) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(block_bytes, span.end - at));
    src.append(at, n, block);
    at += n;
    std::size_t cut = 0;
    rest.clear();
    if (at == span.end) {
      if (!trim_part_end(block, span.last)) return false;
      cut = block.size();
    } else {
      const std::size_t q = last_boundary(block, searched, cut);
      if (q == std::string::npos) {  // a row longer than the block so far: read on
        searched = block.size() - std::min<std::size_t>(block.size() - 1, 64);
        continue;
      }
      rest.assign(block, q);
    }
    block.resize(cut);
    block += ']';
    if (!parser.parse(block)) return false;
    if (!sized && !rows.empty() && at < span.end) {
      sized = true;
      const double share = static_cast<double>(span.end - span.begin) / static_cast<double>(at - span.begin - rest.size());
      rows.reserve(static_cast<std::size_t>(static_cast<double>(rows.size()) * share * 1.05) + 16);
    }
    block.clear();
    block += '[';
    block += rest;
    searched = 1;
  }
  return true;
}

// The rows of each part, read on every core.
struct part_rows {
  std::vector<raw_row> rows;
  std::vector<std::string_view> names;
  bool failed = false;
};

void finish(result_file& f, std::vector<std::vector<raw_row>>& parts, std::vector<std::string_view>& names) {
  check_context(f.context, f.path);
  f.results = fold_rows(parts, f.path, f.complexity_rows);
  parts.clear();
  f.build_index();
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  f.counter_names = std::move(names);
}

// The split read; nullopt where it gives up. throws input_error (a file that cannot be read)
std::optional<result_file> read_split(const source& src, const std::string& path, const read_options& what,
                                      const split_options& split) {
  result_file f;
  f.path = path;
  const std::optional<array_extent> a = read_head(src, what, f);
  if (!a) return std::nullopt;
  std::size_t parts = split.parts;
  if (parts == 0) {
    const bool big = a->close - a->first_row >= (std::uint64_t{1} << 20);
    parts = big ? std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64) : 1;
  }
  const std::vector<part_span> spans = split_array(src, *a, parts);
  std::vector<part_rows> read(spans.size());
  parallel_parts(
      spans.size(),
      [&](std::size_t b, std::size_t e, std::size_t) {
        for (std::size_t p = b; p < e; ++p) {
          try {
            sax_rows parser(what, sax_rows::mode::rows, read[p].rows, read[p].names);
            read[p].failed =
                spans[p].begin < spans[p].end && !read_part(src, spans[p], split.block_bytes, parser, read[p].rows);
          } catch (...) {  // no memory, or a read that failed: the whole read decides
            read[p].failed = true;
          }
        }
      },
      1);
  if (std::any_of(read.begin(), read.end(), [](const part_rows& r) { return r.failed; })) return std::nullopt;
  std::vector<std::vector<raw_row>> rows;
  std::vector<std::string_view> names;
  for (part_rows& r : read) {
    rows.push_back(std::move(r.rows));
    names.insert(names.end(), r.names.begin(), r.names.end());
  }
  finish(f, rows, names);
  return f;
}

// The whole read: the reference, and the source of every error message.
result_file read_whole(const source& src, const std::string& path, const read_options& what) {
  std::vector<std::vector<raw_row>> rows(1);
  std::vector<std::string_view> names;
  sax_rows parser(what, sax_rows::mode::document, rows.front(), names);
  {
    std::string storage;
    (void)parser.parse(src.whole(storage));
  }
  if (std::string problem = parser.problem(); !problem.empty()) {
    check_format_version(parser.take_context(), path);  // a newer format explains its rows best
    throw input_error(fmt::format("{}: {}", path, problem));
  }
  if (!parser.saw_benchmarks()) throw input_error(fmt::format("{}: no \"benchmarks\" array", path));
  result_file f;
  f.path = path;
  f.context = parser.take_context();
  finish(f, rows, names);
  return f;
}

result_file read_source(const source& src, const std::string& path, const read_options& what, read_schedule how,
                        const split_options& split) {
  if (how != read_schedule::whole) {
    if (std::optional<result_file> f = read_split(src, path, what, split)) return std::move(*f);
    if (how == read_schedule::split) throw input_error(fmt::format("{}: the split read gave up", path));
  }
  return read_whole(src, path, what);
}

}  // namespace

result_file read_results(std::string_view text, const std::string& path, const read_options& what, read_schedule how,
                         const split_options& split) {
  return read_source(source(text), path, what, how, split);
}

result_file parse_results(std::string_view text, const std::string& path, const read_options& what) {
  return read_source(source(text), path, what, read_schedule::automatic, {});
}

result_file load_results(const std::string& path, const read_options& what) {
  return read_source(source(path), path, what, read_schedule::automatic, {});
}

}  // namespace membench::report
