#include "every_output.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

#include "gpuprof/comparison/comparison_writers.hpp"
#include "gpuprof/comparison/run_comparison.hpp"
#include "gpuprof/exporters/chrome_trace_exporter.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/report/report_writers.hpp"

namespace gpuprof::testing {
namespace {

constexpr std::pair<report::Format, const char*> kFormats[] = {
    {report::Format::text, "text"}, {report::Format::markdown, "md"}, {report::Format::csv, "csv"},
    {report::Format::json, "json"}, {report::Format::html, "html"}};

std::string read_whole(const std::string& path) {
  std::ifstream stream(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

}  // namespace

EveryOutput run_every_output(const std::string& trace, const std::string& scratch) {
  EveryOutput result;
  const auto job = job::analyze_job({trace}, {.threads = 1});
  report::ReportInput input;
  for (const auto& rank : job.ranks) {
    input.ranks.push_back(rank.analysis);
    result.warnings.insert(result.warnings.end(), rank.analysis.warnings.begin(), rank.analysis.warnings.end());
  }
  for (const auto& [format, name] : kFormats) {
    result.texts.emplace_back(std::string("report ") + name, report::render(format, input));
  }
  const auto comparison = comparison::compare_runs(job, job);
  for (const auto& [format, name] : kFormats) {
    result.texts.emplace_back(std::string("compare ") + name, comparison::render_comparison(format, comparison));
  }
  const auto exported = (std::filesystem::path(scratch) / "export.json").string();
  exporters::export_chrome_trace({.inputs = {trace}, .output = exported, .overwrite = true});
  result.texts.emplace_back("export json", read_whole(exported));
  return result;
}

}  // namespace gpuprof::testing
