// RapidJSON's SAX parser (its Reader) into compact rows: a whole document (its context and
// its benchmarks array), or a block of rows, `[{...}, {...}]`, cut from a benchmarks array.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "read/reader_rows.hpp"

namespace membench::report {

class sax_rows {
 public:
  enum class mode { document, rows };

  /// Rows go to `rows`, the counter names they give (each at least once) to `names`.
  sax_rows(const read_options& what, mode m, std::vector<raw_row>& rows, std::vector<std::string_view>& names);
  ~sax_rows();
  sax_rows(const sax_rows&) = delete;
  sax_rows& operator=(const sax_rows&) = delete;

  /// One JSON text through the parser (in `rows` mode, one block; the reader may take
  /// several in turn). False if it found any problem.
  bool parse(std::string_view text);
  /// What is wrong with the input, as the error message says it after the file's name;
  /// "" for nothing. The first problem in the document, but a syntax error anywhere comes
  /// first, as a parser that reads the whole document before its rows would have it.
  std::string problem() const;
  /// The context object, its strings as written and other values as minified JSON.
  std::map<std::string, std::string> take_context();
  bool saw_benchmarks() const;  ///< a "benchmarks" array at the document's top level
  std::size_t row_count() const;  ///< benchmarks array elements read

 private:
  class handler;
  std::unique_ptr<handler> h_;
};

}  // namespace membench::report
