// libFuzzer target: any bytes through the JSON reader and the views must end in a result
// or an input_error, never a crash, a hang or a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "model.hpp"
#include "render.hpp"
#include "views.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  using namespace membench::report;
  try {
    const result_file f = parse_results(std::string_view(reinterpret_cast<const char*>(bytes), size), "fuzz");
    try {
      (void)render_csv(view_table({f}, {}));
    } catch (const input_error&) {
    }
    try {
      (void)render_markdown(view_compare(f, f, {}).doc);
    } catch (const input_error&) {
    }
    try {
      (void)render_html(view_gpus({f}, {}));
    } catch (const input_error&) {
    }
  } catch (const input_error&) {
  }
  return 0;
}
