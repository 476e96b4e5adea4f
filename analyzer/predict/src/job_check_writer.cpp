// `gpuprof predict --check`'s document: one table of the ranks, written by the report's writers in every format
// (its escaping and number policy), the summary line and the notes; JSON `gpuprof.predict-check/1`.

#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <filesystem>

#include "gpuprof/predict/job_check.hpp"
#include "gpuprof/report/cells.hpp"
#include "gpuprof/report/json_fields.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "gpuprof/trace/utf8_text.hpp"
#include "gpuprof/units/statistics.hpp"

namespace gpuprof::predict {
namespace {

constexpr const char* kHeading = "gpuprof predict --check: each rank's communication replaced by the link model";

std::string render_json(const JobCheck& check) {
  using report::json::field;
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  field(w, "format", "gpuprof.predict-check/1");
  w.Key("ranks"), w.StartArray();
  for (const auto& c : check.ranks) {
    w.StartObject();
    field(w, "trace", c.trace);
    field(w, "link", c.link_name);
    field(w, "measured_step_ns", c.measured_step_ns);
    field(w, "predicted_step_ns", c.predicted_step_ns);
    field(w, "measured_exposed_share", c.measured_exposed_share);
    field(w, "predicted_exposed_share", c.predicted_exposed_share);
    field(w, "sized_kernels", std::int64_t{c.sized_kernels});
    field(w, "comm_kernels", std::int64_t{c.comm_kernels});
    field(w, "partner_ranks", std::int64_t{c.partner_ranks});
    w.EndObject();
  }
  w.EndArray();
  w.Key("notes"), w.StartArray();
  for (const auto& note : check.notes) report::json::string(w, note);
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString()) + "\n";
}

// The folder every rank's trace is in, empty when they are not all in one.
std::string common_folder(const JobCheck& check) {
  if (check.ranks.empty()) return {};
  const auto folder = std::filesystem::path(check.ranks.front().trace).parent_path();
  for (const auto& c : check.ranks)
    if (std::filesystem::path(c.trace).parent_path() != folder) return {};
  return folder.string();
}

// The path last, a long one continued under its column; traces in one folder show their file names (the
// title names the folder, CSV keeps whole paths), so the figures stay within 120 columns on one line.
report::Table ranks_table(const JobCheck& check) {
  using report::number_cell;
  const auto folder = common_folder(check);
  report::Table table{report::Section::summary, "ranks",
                      "Per rank: step (ms) and exposed communication (% of the steady span), measured and predicted "
                      "(pred.) with the link model; communication kernels sized from the trace" +
                          (folder.empty() ? std::string() : "; traces in " + folder),
                      {"link", "step ms", "pred. ms", "error %", "comm %", "pred. %", "sized", "of comm",
                       "rank trace"},
                      {}};
  for (const auto& c : check.ranks) {
    auto trace = report::text_cell(c.trace);
    if (!folder.empty()) trace.text = std::filesystem::path(c.trace).filename().string();
    table.rows.push_back({report::text_cell(c.link_name), number_cell(c.measured_step_ns / 1e6, 3),
                          number_cell(c.predicted_step_ns / 1e6, 3), number_cell(100 * c.step_error(), 1),
                          number_cell(100 * c.measured_exposed_share, 1),
                          number_cell(100 * c.predicted_exposed_share, 1), report::integer_cell(c.sized_kernels),
                          report::integer_cell(c.comm_kernels), std::move(trace)});
  }
  return table;
}

std::string summary(const JobCheck& check) {
  std::vector<double> errors, points;
  for (const auto& c : check.ranks) {
    errors.push_back(std::abs(c.step_error()));
    points.push_back(100 * std::abs(c.predicted_exposed_share - c.measured_exposed_share));
  }
  return fmt::format("median |step error| {:.1f} %, median exposed-communication difference {:.1f} points over {} "
                     "rank(s); communication kernels the trace does not size keep their measured time",
                     100 * units::median(errors), units::median(points), check.ranks.size());
}

std::string render_text(const JobCheck& check) {
  std::string out = std::string(kHeading) + "\n\n";
  out += report::text_table(ranks_table(check), report::TextLayout{report::kTerminalWidth, report::LongText::cut});
  out += report::wrap_text("", "    ", summary(check), report::kTerminalWidth);
  for (const auto& note : check.notes) out += report::wrap_text("note: ", "    ", printable(note), report::kTerminalWidth);
  return out;
}

std::string render_markdown(const JobCheck& check) {
  std::string out = std::string("# ") + kHeading + "\n" + report::markdown_table(ranks_table(check)) + "\n";
  out += report::escape_markdown_cell(summary(check)) + "\n\n";
  for (const auto& note : check.notes) out += "- " + report::escape_markdown_cell(note) + "\n";
  return out;
}

std::string render_html(const JobCheck& check) {
  using report::escape_html;
  std::string out = report::html_page_start(kHeading);
  out += report::html_table(ranks_table(check));
  out += "<p>" + escape_html(summary(check)) + "</p>\n";
  for (const auto& note : check.notes) out += "<p class=\"note\">" + escape_html(note) + "</p>\n";
  return out + report::html_page_end();
}

std::string render_format(report::Format format, const JobCheck& check) {
  switch (format) {
    case report::Format::json: return render_json(check);
    case report::Format::csv: return report::csv_table(ranks_table(check));
    case report::Format::html: return render_html(check);
    case report::Format::markdown: return render_markdown(check);
    case report::Format::text: break;
  }
  return render_text(check);
}

}  // namespace

// Paths and link names come from the user's files: whatever bytes they hold, the document is valid UTF-8.
std::string render_job_check(report::Format format, const JobCheck& check) {
  return clean_utf8(render_format(format, check));
}

}  // namespace gpuprof::predict
