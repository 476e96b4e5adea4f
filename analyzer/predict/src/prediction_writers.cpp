#include "gpuprof/predict/prediction_writers.hpp"

#include <fmt/format.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "gpuprof/report/cells.hpp"
#include "gpuprof/report/json_fields.hpp"
#include "gpuprof/report/report_model.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/utf8_text.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::predict {
namespace {

// Durations as every gpuprof table shows them (report/cells.hpp): "n/a" when not finite, rounded to whole ns.
std::string duration(double ns) { return report::duration_cell(ns).text; }

// A figure with a unit after it ("1.82x"), or "n/a" alone when it is not finite.
std::string with_unit(const report::Cell& figure, std::string_view unit) {
  return figure.raw.empty() ? figure.text : figure.text + std::string(unit);
}

// Prose within the terminal's 120 columns, continued on lines indented by four spaces, as the report does;
// names from files and options reach the terminal only as printable text.
std::string wrapped(std::string_view first, std::string_view text) {
  return report::wrap_text(first, "    ", printable(text), report::kTerminalWidth);
}

// One table per GPU count: what each term adds to the measured 1-GPU step, under the count's headline.
report::Table terms_table(const GpuCountPrediction& row) {
  report::Table table{report::Section::summary, fmt::format("terms_{}", row.gpus), row_headline(row),
                      {"term (predicted - measured 1-GPU step)", "per step"}, {}};
  for (const auto& term : row.terms) table.rows.push_back({report::text_cell(term.name), report::duration_cell(term.ns)});
  return table;
}

std::string render_text(const Prediction& p) {
  std::string out = "gpuprof predict\n\n" + wrapped("", p.trace);
  for (const auto& line : prediction_context(p)) out += wrapped("", line);
  out += "\n";
  for (const auto& row : p.rows) out += wrapped("  ", row.verdict);
  out += "\n";
  for (const auto& row : p.rows) {
    out += report::text_table(terms_table(row), report::TextLayout{report::kTerminalWidth, report::LongText::words});
  }
  for (const auto& note : p.notes) out += wrapped("note: ", note);
  return out + wrapped("warning: ", host_warning(p));
}

// Numbers as every gpuprof document writes them (report/json_fields.hpp): 3 decimals, null when not finite.
std::string render_json(const Prediction& p) {
  using report::json::field;
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  field(w, "format", "gpuprof.predict/1");
  field(w, "trace", p.trace);
  field(w, "per_gpu_trace", p.per_gpu_trace);
  field(w, "strategy", to_string(p.strategy));
  field(w, "scaling", to_string(p.scaling));
  field(w, "link", p.link_name);
  field(w, "link_source", p.link_source);
  field(w, "sync", p.sync);
  field(w, "topology", p.topology);
  field(w, "gradient_bytes", p.gradient_bytes);
  field(w, "gradient_source", p.gradient_source);
  field(w, "measured_step_ns", p.measured_step_ns);
  field(w, "replayed_step_ns", p.replayed_step_ns);
  // σ / step in percent (3 decimals of a share would keep one figure): a lean within it of 1x is too close to call
  field(w, "step_variability_percent", 100 * p.step_variability);
  field(w, "host_data_ns_per_step", p.host_data_ns);
  field(w, "host_launch_ns_per_step", p.host_launch_ns);
  field(w, "host_copy_wait_ns_per_step", p.host_copy_wait_ns);
  w.Key("predictions"), w.StartArray();
  for (const auto& row : p.rows) {
    w.StartObject();
    field(w, "gpus", std::int64_t{row.gpus});
    field(w, "step_ns", row.step_ns);
    field(w, "low_ns", row.low_ns);
    field(w, "high_ns", row.high_ns);
    field(w, "speedup", row.speedup);
    field(w, "efficiency", row.efficiency);
    field(w, "verdict", row.verdict);
    field(w, "call", std::string(to_string(row.call)));  // faster, no faster, uncertain: decided by the band
    field(w, "lean", std::string(to_string(row.lean)));  // the centre's side, or too close to call
    w.Key("terms"), w.StartArray();
    for (const auto& term : row.terms) {
      w.StartObject();
      field(w, "name", term.name);
      field(w, "ns", term.ns);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("notes"), w.StartArray();
  for (const auto& note : p.notes) report::json::string(w, note);
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString()) + "\n";
}

// One row per (GPU count, term), through the report's CSV writer (its quoting and formula guard); figures as
// fmt rounds them (whole nanoseconds, 4 decimals), empty when not finite.
std::string render_csv(const Prediction& p) {
  using report::number_cell;
  report::Table table{report::Section::summary, "predictions", "",
                      {"gpus", "step_ns", "low_ns", "high_ns", "speedup", "efficiency", "term", "term_ns", "call",
                       "lean"},
                      {}};
  for (const auto& row : p.rows)
    for (const auto& term : row.terms)
      table.rows.push_back({report::integer_cell(row.gpus), number_cell(row.step_ns, 0), number_cell(row.low_ns, 0),
                            number_cell(row.high_ns, 0), number_cell(row.speedup, 4), number_cell(row.efficiency, 4),
                            report::text_cell(term.name), number_cell(term.ns, 0),
                            report::text_cell(std::string(to_string(row.call))),
                            report::text_cell(std::string(to_string(row.lean)))});
  return report::csv_table(table);
}

// The summary and each GPU count's terms: the tables of the HTML and Markdown documents.
std::vector<report::Table> prediction_tables(const Prediction& p) {
  report::Table summary{report::Section::summary, "predictions", "Predicted step per GPU count",
                        {"GPUs", "step", "band low", "band high", "speedup", "efficiency", "call", "lean", "verdict"},
                        {}};
  std::vector<report::Table> tables;
  for (const auto& row : p.rows) {
    summary.rows.push_back({report::integer_cell(row.gpus), report::duration_cell(row.step_ns),
                            report::duration_cell(row.low_ns), report::duration_cell(row.high_ns),
                            report::number_cell(row.speedup, 2), report::percent_cell(row.efficiency),
                            report::text_cell(std::string(to_string(row.call))),
                            report::text_cell(std::string(to_string(row.lean))), report::text_cell(row.verdict)});
  }
  tables.push_back(std::move(summary));
  for (const auto& row : p.rows) tables.push_back(terms_table(row));
  return tables;
}

// Self-contained, with the report's style and sortable tables; every string from a file or option is escaped.
std::string render_html(const Prediction& p) {
  using report::escape_html;
  std::string out = report::html_page_start("gpuprof predict");
  out += fmt::format("<p>trace: <code>{}</code>", escape_html(p.trace));
  if (!p.per_gpu_trace.empty()) out += fmt::format("<br>per-GPU batch: <code>{}</code>", escape_html(p.per_gpu_trace));
  out += fmt::format("<br>strategy {}, {} scaling, link {} ({})", to_string(p.strategy), to_string(p.scaling),
                     escape_html(p.link_name), escape_html(p.link_source));
  if (p.gradient_bytes > 0)
    out += fmt::format("<br>gradients {} ({})", units::format_bytes(p.gradient_bytes), escape_html(p.gradient_source));
  out += fmt::format("<br>1-GPU step {} measured over {} steady steps (replayed {})</p>\n",
                     duration(p.measured_step_ns), p.steady_steps, duration(p.replayed_step_ns));
  for (const auto& row : p.rows) out += fmt::format("<p><b>{}</b></p>\n", escape_html(row.verdict));
  for (const auto& table : prediction_tables(p)) out += report::html_table(table);
  for (const auto& note : p.notes) out += fmt::format("<p class=\"note\">{}</p>\n", escape_html(note));
  out += fmt::format("<p class=\"warning\">{}</p>\n", escape_html(host_warning(p)));
  return out + report::html_page_end();
}

// The HTML page's content as Markdown, for documents and issues; every name from a file is escaped.
std::string render_markdown(const Prediction& p) {
  const auto line = [](const std::string& text) { return report::escape_markdown_cell(text) + "  \n"; };
  std::string out = "# gpuprof predict\n\n" + line("trace: " + p.trace);
  for (const auto& context : prediction_context(p)) out += line(context);
  out += "\n";
  for (const auto& row : p.rows) out += "- **" + report::escape_markdown_cell(row.verdict) + "**\n";
  for (const auto& table : prediction_tables(p)) out += report::markdown_table(table);
  out += "\n";
  for (const auto& note : p.notes) out += "- " + report::escape_markdown_cell(note) + "\n";
  return out + "\n**warning:** " + report::escape_markdown_cell(host_warning(p)) + "\n";
}

}  // namespace

std::vector<std::string> prediction_context(const Prediction& p) {
  std::vector<std::string> lines;
  if (!p.per_gpu_trace.empty()) lines.push_back(fmt::format("per-GPU batch: {}", p.per_gpu_trace));
  lines.push_back(fmt::format("strategy {}, {} scaling, link {} ({})", to_string(p.strategy), to_string(p.scaling),
                              p.link_name, p.link_source));
  if (p.gradient_bytes > 0)
    lines.push_back(fmt::format("gradients {} ({})", units::format_bytes(p.gradient_bytes), p.gradient_source));
  lines.push_back(fmt::format("1-GPU step {} measured over {} steady steps (replayed {})", duration(p.measured_step_ns),
                              p.steady_steps, duration(p.replayed_step_ns)));
  return lines;
}

RowFigures row_figures(const GpuCountPrediction& row) {
  return {std::to_string(row.gpus), duration(row.step_ns),
          fmt::format("{} to {}", duration(row.low_ns), duration(row.high_ns)),
          with_unit(report::number_cell(row.speedup, 2), "x"),
          with_unit(report::number_cell(100 * row.efficiency, 0), " %")};
}

std::string row_headline(const GpuCountPrediction& row) {
  const auto figures = row_figures(row);
  return fmt::format("{} GPUs: step {} (band {}), speedup {}, efficiency {}", figures.gpus, figures.step, figures.band,
                     figures.speedup, figures.efficiency);
}

std::string host_warning(const Prediction& p) {
  // Time blocked in copy calls is the GPU's pace, not host work the replicas would share: named apart.
  const auto waits =
      p.host_copy_wait_ns > 0
          ? fmt::format(" ({} more per step was copy calls from pageable memory blocked until the GPU reached the "
                        "copy: GPU time, replayed as such)",
                        duration(p.host_copy_wait_ns))
          : std::string();
  return fmt::format(
      "the replicas share the host: the 1-GPU host spent {} per step in data loading and {} in launch calls{}; if "
      "N replicas cannot do this in parallel, the step grows by up to N-1 times that",
      duration(p.host_data_ns), duration(p.host_launch_ns), waits);
}

namespace {
std::string render_format(report::Format format, const Prediction& prediction) {
  switch (format) {
    case report::Format::json:
      return render_json(prediction);
    case report::Format::csv:
      return render_csv(prediction);
    case report::Format::html:
      return render_html(prediction);
    case report::Format::markdown:
      return render_markdown(prediction);
    case report::Format::text:
      break;
  }
  return render_text(prediction);
}
}  // namespace

// Names come from trace and link files: whatever bytes they hold, the document is valid UTF-8.
std::string render_prediction(report::Format format, const Prediction& prediction) {
  return clean_utf8(render_format(format, prediction));
}

}  // namespace gpuprof::predict
