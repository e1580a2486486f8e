#include "views/view_marks.hpp"

#include <fmt/format.h>

#include "common/schema.hpp"

#include "views/family.hpp"

namespace membench::report {

void difference_marks::add(const result& base, const result_file& bf, const result& next, const result_file& nf,
                           std::size_t table, std::size_t row, std::size_t col) {
  if (base.error || next.error) return;
  // The same name may do different work (an aggregate over 3 peers or 1): times then differ
  // by design, and their test says nothing about the value shown.
  const double *wb = base.counters.find(schema::counter("bytes").key), *wn = next.counters.find(schema::counter("bytes").key);
  if (wb != nullptr && wn != nullptr && *wb != *wn) return;
  item x;
  add_to_side(x.base, base, bf);
  add_to_side(x.next, next, nf);
  x.name = next.name;
  x.table = table, x.row = row, x.col = col;
  items_.push_back(std::move(x));
}

std::string difference_marks::apply(document& d) const {
  const decide_options o;
  std::vector<decision> ds;
  ds.reserve(items_.size());
  for (const item& x : items_) ds.push_back(decide(x.base, x.next, o, x.name));
  const auto again = [&](const std::vector<std::size_t>& which, const decide_options& at) {
    std::vector<decision> out;
    for (std::size_t i : which) out.push_back(decide(items_[i].base, items_[i].next, at, items_[i].name));
    return out;
  };
  const family_outcome fam = correct_family(ds, o, again);
  int slower = 0, faster = 0, unsure = 0;
  for (std::size_t i = 0; i < items_.size(); ++i) {
    cell& c = d.tables[items_[i].table].rows[items_[i].row][items_[i].col];
    if (ds[i].v == verdict::slower) c.mood = tone::bad, ++slower;
    if (ds[i].v == verdict::faster) c.mood = tone::good, ++faster;
    if (ds[i].v == verdict::unsure) c.text += " unsure", ++unsure;
  }
  return fmt::format("marked by compare's test (threshold {:g} %, {:g} % intervals; {}): {} slower (red), {} faster "
                     "(green), {} unsure; the rest the same or without the evidence of an interval, however far apart",
                     100 * o.threshold, 100 * o.confidence,
                     family_note(fam, correction::bh, 100 * o.confidence, "difference"), slower, faster, unsure);
}

}  // namespace membench::report
