// Text from the input (benchmark names, labels, errors) made safe for each output format:
// a name is data, and must never end a table row, open a heading, put raw HTML into a CI
// step summary, move a terminal's cursor, or become a spreadsheet formula.
#pragma once

#include <string>
#include <string_view>

namespace membench::report {

/// Control characters (C0, DEL, C1) as visible escapes: `\n`, `\t`, `\r`, else `\xNN`
/// (`\u{NN}` for the C1 range). Everything else, valid UTF-8 included, passes unchanged.
std::string visible_controls(std::string_view s);

/// For terminal output: visible_controls (ESC, OSC, BEL and NUL never reach the terminal).
std::string terminal_text(std::string_view s);

/// For a Markdown table cell or line: visible_controls, then `|`, `\` and backticks
/// escaped and `<`, `>`, `&` as entities, so no input text becomes markup.
std::string markdown_text(std::string_view s);

/// For a CSV text cell (RFC 4180 quoting): visible_controls, and a cell that a spreadsheet
/// would read as a formula (starting with `=`, `+`, `-`, `@`; a lone `-` is none) gets a
/// leading `'`.
std::string csv_text(std::string_view s);

}  // namespace membench::report
