#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/escape.hpp"

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
  EXPECT_EQ(visible_controls("node\xe2\x80\xaegnp.exe"), "node\\u{202e}gnp.exe") << "right-to-left override";
  EXPECT_EQ(visible_controls("a\xe2\x81\xa6" "b\xe2\x81\xa9" "c\xe2\x80\x8f"), "a\\u{2066}b\\u{2069}c\\u{200f}") << "isolates, RLM";
  EXPECT_EQ(markdown_text("x\xe2\x80\xaey"), "x\\\\u{202e}y");
  EXPECT_EQ(visible_controls("\xe2\x80\xa2 \xe2\x80\xaf"), "\xe2\x80\xa2 \xe2\x80\xaf") << "a bullet and a narrow space are text";
}

TEST(ReportEscape, MarkdownCellsStayCells) {
  EXPECT_EQ(markdown_text("a|b"), "a\\|b");
  EXPECT_EQ(markdown_text("x\n## owned\n<img src=x onerror=alert(1)>"),
            "x\\\\n## owned\\\\n&lt;img src=x onerror=alert(1)&gt;")
      << "no new line, so no heading; no raw HTML";
  EXPECT_EQ(markdown_text("`code`"), "\\`code\\`");
  EXPECT_EQ(markdown_text("a & b"), "a &amp; b");
}

TEST(ReportEscape, MarkdownTextMakesNoMarkup) {
  EXPECT_EQ(markdown_text("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(markdown_text("<!-- hidden"), "&lt;\\!-- hidden") << "an unclosed comment would hide the rest of the page";
  EXPECT_EQ(markdown_text("[x](http://evil)"), "\\[x\\](http://evil)") << "no ] so no link";
  EXPECT_EQ(markdown_text("![x](http://evil/i.png)"), "\\!\\[x\\](http://evil/i.png)") << "no image";
  EXPECT_EQ(markdown_text("*bold* ~~gone~~ a\\b"), "\\*bold\\* \\~\\~gone\\~\\~ a\\\\b");
  EXPECT_EQ(markdown_text("\x1b[31mred\x1b[0m"), "\\\\x1b\\[31mred\\\\x1b\\[0m") << "ESC shown, never sent";
  EXPECT_EQ(markdown_text("del\x7f nul\0"s), "del\\\\x7f nul\\\\x00");
  EXPECT_EQ(markdown_text("c1\xc2\x9b"), "c1\\\\u{9b}");
  // An underscore inside a word can neither open nor close emphasis: names stay legible.
  EXPECT_EQ(markdown_text("global/read_offset/type:f32"), "global/read_offset/type:f32");
  EXPECT_EQ(markdown_text("_em_ __x__ a_ _b"), "\\_em\\_ \\_\\_x\\_\\_ a\\_ \\_b");
  EXPECT_EQ(markdown_text("\xc3\xa9_\xc3\xa9"), "\xc3\xa9\\_\xc3\xa9") << "next to a non-ASCII letter: escaped, to be sure";
  EXPECT_EQ(markdown_text("NVIDIA H200 \xc2\xb5s 16K"), "NVIDIA H200 \xc2\xb5s 16K") << "plain text and UTF-8 pass";
  std::string out = "| ";
  append_markdown_text(out, "a|b");
  EXPECT_EQ(out, "| a\\|b");
}

TEST(ReportEscape, MarkdownCodeSpansHoldNamesLiterally) {
  EXPECT_EQ(markdown_code("global/read_offset/bytes:1G"), "`global/read_offset/bytes:1G`");
  EXPECT_EQ(markdown_code("<!-- [x](http://evil) *a*"), "`<!-- [x](http://evil) *a*`") << "a code span shows it as text";
  // What a span cannot hold as it is: escaped text instead.
  EXPECT_EQ(markdown_code("a`b"), "a\\`b");
  EXPECT_EQ(markdown_code("a|b"), "a\\|b");
  EXPECT_EQ(markdown_code("a\\b"), "a\\\\b");
  EXPECT_EQ(markdown_code("x\x1b[2J"), "x\\\\x1b\\[2J");
  EXPECT_EQ(markdown_code(""), "");
}

TEST(ReportEscape, MarkdownLinkTargetsStayOneTarget) {
  EXPECT_EQ(markdown_link_target("report.profile.gpu0.svg"), "report.profile.gpu0.svg");
  EXPECT_EQ(markdown_link_target("my page).gpu0.svg"), "my%20page%29.gpu0.svg");
}

TEST(ReportEscape, CutsFallBetweenCodePoints) {
  const std::string e = "\xc3\xa9";          // é, two bytes
  const std::string nihon = "\xe6\x97\xa5\xe6\x9c\xac";  // 日本, three bytes each
  const std::string grin = "\xf0\x9f\x98\x80";  // U+1F600, four bytes
  EXPECT_EQ(code_points(e + nihon + grin + "a"), 5u);
  EXPECT_EQ(utf8_prefix(e + e + e, 2), e + e);
  EXPECT_EQ(utf8_prefix(nihon + "x", 1), "\xe6\x97\xa5");
  EXPECT_EQ(utf8_prefix(grin + grin, 1), grin);
  EXPECT_EQ(utf8_prefix("ab", 5), "ab");
  EXPECT_EQ(utf8_prefix(grin, 0), "");
  for (std::size_t n = 0; n <= 6; ++n) {  // every cut of a mixed string is whole code points
    const std::string cut(utf8_prefix("a" + e + nihon + grin, n));
    EXPECT_EQ(code_points(cut), std::min<std::size_t>(n, 5));
    EXPECT_TRUE(cut.empty() || (static_cast<unsigned char>(cut.back()) & 0xC0) != 0xC0) << n;
  }
  EXPECT_EQ(ellipsize(nihon + nihon, 3), nihon + "\xe2\x80\xa6") << "two characters and the ellipsis";
  EXPECT_EQ(ellipsize(nihon, 2), nihon);
  EXPECT_EQ(ellipsize(grin + grin + grin, 2), grin + "\xe2\x80\xa6");
  // A byte that starts no complete sequence counts as one character and is cut as one.
  EXPECT_EQ(code_points("\xe6\x97" "a\x80"), 4u);
  EXPECT_EQ(utf8_prefix("\xe6\x97" "a", 2), "\xe6\x97");
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
