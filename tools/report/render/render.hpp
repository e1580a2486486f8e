// Renderers: one document, five formats. Plain host C++, unit-tested with golden files.
#pragma once

#include <string>

#include "core/document.hpp"

namespace membench::report {

enum class format { terminal, markdown, csv, html, json };

/// Aligned columns; ANSI colour for good/bad cells when `colour`.
std::string render_terminal(const document& d, bool colour);
/// GitHub-flavoured Markdown (CI job summaries): headings, pipe tables, notes as a list.
std::string render_markdown(const document& d);
/// RFC 4180 CSV: one block per table, a `# title` line before each; numbers raw.
std::string render_csv(const document& d);
/// One self-contained HTML file (inline CSS and SVG, no scripts or external resources)
/// with the tables and an SVG line chart for every chart.
std::string render_html(const document& d);
/// The document as JSON (format membench-report-document, version 1): title, notes, and per
/// table its title, unit, header and rows of cells (text; value where numeric; tone where news).
std::string render_json(const document& d);

std::string render(const document& d, format f, bool colour);

}  // namespace membench::report
