// Which differences builds and gpus colour: only those compare's test (verdict.hpp decide,
// Benjamini-Hochberg over every difference the view shows) calls slower or faster; an
// unsure one is marked unsure, and a raw percentage alone colours nothing.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/document.hpp"
#include "core/model.hpp"
#include "stats/verdict.hpp"

namespace membench::report {

class difference_marks {
 public:
  /// The difference of `next` (file `nf`) from `base` (file `bf`), shown in d.tables[table].rows[row][col];
  /// none where either is an error or the two did different work (their `bytes` differ).
  void add(const result& base, const result_file& bf, const result& next, const result_file& nf, std::size_t table,
           std::size_t row, std::size_t col);
  /// Decides every difference added and marks its cell: good (faster) or bad (slower) where
  /// the test calls it, " unsure" after its text where it is unsure. Returns the view's note.
  std::string apply(document& d) const;

 private:
  struct item {
    side base, next;
    std::string name;
    std::size_t table, row, col;
  };
  std::vector<item> items_;
};

}  // namespace membench::report
