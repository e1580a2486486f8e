// Text from the input (benchmark names, labels, errors, a run's context) made safe for each
// output format: a name is data, and must never end a table row, open a heading, put raw HTML
// or a link into a CI step summary, move a terminal's cursor, or become a spreadsheet formula;
// and text cut to a length is cut between characters, never inside one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace membench::report {

/// Control characters (C0, DEL, C1) as visible escapes: `\n`, `\t`, `\r`, else `\xNN`
/// (`\u{NN}` for the C1 range). Everything else, valid UTF-8 included, passes unchanged.
std::string visible_controls(std::string_view s);

/// For terminal output: visible_controls (ESC, OSC, BEL and NUL never reach the terminal).
std::string terminal_text(std::string_view s);

/// For Markdown (a table cell, a heading, a list item), every input string that reaches it:
/// control characters visible (their backslash escaped), `<`, `>`, `&` as entities (no HTML,
/// no `<!--` that hides the rest of a page), and a backslash before `\`, `` ` ``, `|`, `[`,
/// `]`, `!`, `*`, `~` and `_`, so that no input text becomes a link, an image, emphasis, code
/// or a new cell. An `_` between two letters or digits stays as it is: inside a word it can
/// neither open nor close emphasis (CommonMark), and names such as `read_offset` stay legible.
std::string markdown_text(std::string_view s);
/// markdown_text(s) appended to `out`, copying the runs that need no escape as they are.
void append_markdown_text(std::string& out, std::string_view s);
/// Text as a Markdown code span in a table cell: shown literally (a code span holds no markup),
/// control characters visible, `|` escaped (the table reads it first), and fenced by one
/// backtick more than the longest run of backticks in it, so none of them can close it.
std::string markdown_code(std::string_view s);
/// A name as a Markdown code span (shown literally: a code span holds no markup); as
/// markdown_text where a span could not hold it as it is (a backtick, `|`, `\`, a control
/// character: a table reads `\|` before the span, and a backtick would end it).
std::string markdown_code(std::string_view s);
/// A relative link's target (a file name) for Markdown's `[text](target)`: every byte but
/// letters, digits and `-._~/` percent-encoded, so a space or `)` cannot end the link.
std::string markdown_link_target(std::string_view s);

/// For a CSV text cell (RFC 4180 quoting): visible_controls, and a cell that a spreadsheet
/// would read as a formula (starting with `=`, `+`, `-`, `@`; a lone `-` is none) gets a
/// leading `'`.
std::string csv_text(std::string_view s);

/// Code points of UTF-8 text; a byte that starts no valid sequence counts as one.
std::size_t code_points(std::string_view s);
/// The length of the well-formed UTF-8 sequence at s[i] (1 to 4), its code point in `point`;
/// 0 for a byte that starts none (a stray or cut sequence, an overlong form, a surrogate).
std::size_t utf8_sequence(std::string_view s, std::size_t i, char32_t* point = nullptr);
/// The longest start of `s` of at most `max_points` code points: it ends between two code
/// points, never inside a multi-byte sequence (limits documented in characters count these).
std::string_view utf8_prefix(std::string_view s, std::size_t max_points);
/// At most `max_points` code points, the last an ellipsis (U+2026) when `s` was cut.
std::string ellipsize(std::string_view s, std::size_t max_points);

}  // namespace membench::report
