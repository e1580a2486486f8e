#include <gtest/gtest.h>

#include <string>

#include "escape.hpp"

namespace membench::report {
namespace {

using namespace std::string_literals;

TEST(ReportEscape, ControlCharactersBecomeVisible) {
  EXPECT_EQ(visible_controls("a\nb\tc\rd"), "a\\nb\\tc\\rd");
  EXPECT_EQ(visible_controls("\x1b]0;owned\x07"), "\\x1b]0;owned\\x07") << "OSC title sequence, BEL";
  EXPECT_EQ(visible_controls("x\x1b[2Jy"), "x\\x1b[2Jy") << "clear screen";
  EXPECT_EQ(visible_controls("nul\0here"s), "nul\\x00here");
  EXPECT_EQ(visible_controls("del\x7f"), "del\\x7f");
  EXPECT_EQ(visible_controls("c1\xc2\x9b" "31m"), "c1\\u{9b}31m") << "the 8-bit CSI";
  EXPECT_EQ(visible_controls("global/read_offset/type:f32 \xc2\xb5s \xe2\x80\x94"), "global/read_offset/type:f32 \xc2\xb5s \xe2\x80\x94")
      << "UTF-8 text passes";
}

TEST(ReportEscape, MarkdownCellsStayCells) {
  EXPECT_EQ(markdown_text("a|b"), "a\\|b");
  EXPECT_EQ(markdown_text("x\n## owned\n<img src=x onerror=alert(1)>"),
            "x\\\\n## owned\\\\n&lt;img src=x onerror=alert(1)&gt;")
      << "no new line, so no heading; no raw HTML";
  EXPECT_EQ(markdown_text("`code`"), "\\`code\\`");
  EXPECT_EQ(markdown_text("a & b"), "a &amp; b");
}

TEST(ReportEscape, TerminalTextCannotDriveTheTerminal) {
  const std::string t = terminal_text("name\x1b[31mred\x07\x1b]52;c;Zm9v\x07");
  EXPECT_EQ(t.find('\x1b'), std::string::npos);
  EXPECT_EQ(t.find('\x07'), std::string::npos);
}

TEST(ReportEscape, CsvFormulasAreNeutralised) {
  EXPECT_EQ(csv_text("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
  EXPECT_EQ(csv_text("+1"), "'+1");
  EXPECT_EQ(csv_text("-2"), "'-2");
  EXPECT_EQ(csv_text("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(csv_text("-"), "-") << "a table's \"no value\" stays as it is";
  EXPECT_EQ(csv_text("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_text("line\nbreak"), "line\\nbreak");
  EXPECT_EQ(csv_text("global/copy/bytes:1G"), "global/copy/bytes:1G");
}

}  // namespace
}  // namespace membench::report
