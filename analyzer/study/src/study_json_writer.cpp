// JSON, format gpuprof.study-report/1: numbers unrounded (exact_field), in SI units (seconds), absent and
// non-finite figures (an unbounded interval's end) as null.

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include "gpuprof/report/json_fields.hpp"
#include "gpuprof/study/study_writers.hpp"

namespace gpuprof::study {
namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

using report::json::exact_field;
using report::json::field;
using report::json::key;
using report::json::optional_exact_field;
using report::json::optional_field;

// Counts are integers whatever their C++ type.
void integer(Writer& w, const char* name, std::int64_t value) { field(w, name, value); }

void spread(Writer& w, const char* name, const std::optional<Spread>& value) {
  key(w, name);
  if (!value) {
    w.Null();
    return;
  }
  w.StartObject();
  exact_field(w, "mean", value->mean);
  exact_field(w, "sd", value->sd);
  integer(w, "n", static_cast<std::int64_t>(value->n));
  w.EndObject();
}

void breakdown(Writer& w, const std::optional<BreakdownTotals>& value) {
  key(w, "breakdown");
  if (!value) {
    w.Null();
    return;
  }
  w.StartObject();
  integer(w, "computation_ns", value->computation_ns);
  integer(w, "exposed_transfer_ns", value->exposed_transfer_ns);
  integer(w, "exposed_comm_ns", value->exposed_comm_ns);
  integer(w, "gaps_ns", value->gaps_ns);
  integer(w, "device_steps", value->device_steps);
  integer(w, "traces", static_cast<std::int64_t>(value->traces));
  w.EndObject();
}

void configuration_row(Writer& w, const ConfigurationRow& row) {
  w.StartObject();
  field(w, "configuration", row.configuration.name());
  field(w, "model", row.model);
  integer(w, "batch", row.configuration.batch);
  integer(w, "gpus", row.configuration.gpus);
  field(w, "strategy", row.configuration.strategy);
  optional_field(w, "epochs", row.epochs);
  optional_field(w, "steps", row.steps);
  integer(w, "runs_ok", static_cast<std::int64_t>(row.runs_ok));
  integer(w, "runs_failed", static_cast<std::int64_t>(row.runs_failed));
  spread(w, "accuracy", row.accuracy);
  spread(w, "validation_accuracy", row.validation_accuracy);
  spread(w, "time_seconds", row.time_seconds);
  spread(w, "seconds_per_step", row.seconds_per_step);
  spread(w, "samples_per_second", row.samples_per_second);
  spread(w, "speedup", row.speedup);
  optional_exact_field(w, "calibration_seconds", row.calibration_seconds);
  optional_exact_field(w, "overhead", row.overhead);
  breakdown(w, row.breakdown);
  w.EndObject();
}

void fits(Writer& w, const StudyReport& report) {
  key(w, "fits");
  w.StartArray();
  for (const auto& [gpus, fit] : report.fits) {
    w.StartObject();
    integer(w, "gpus", gpus);
    integer(w, "points", static_cast<std::int64_t>(fit.points));
    key(w, "valid");
    w.Bool(fit.valid);
    exact_field(w, "intercept_seconds", fit.intercept);
    exact_field(w, "slope_seconds_per_sample", fit.slope);
    exact_field(w, "r_squared", fit.r_squared);
    w.EndObject();
  }
  w.EndArray();
}

void predictions(Writer& w, const StudyReport& report) {
  if (!report.predictions) return;
  key(w, "predictions");
  w.StartObject();
  field(w, "link", report.predictions->link);
  field(w, "strategy", report.predictions->strategy);
  key(w, "rows");
  w.StartArray();
  for (const auto& row : report.predictions->rows) {
    w.StartObject();
    integer(w, "batch", row.batch);
    integer(w, "gpus", row.gpus);
    exact_field(w, "speedup", row.speedup);
    exact_field(w, "low", row.low);
    exact_field(w, "high", row.high);
    optional_exact_field(w, "measured_speedup", row.measured_speedup);
    optional_exact_field(w, "error", row.error());
    key(w, "measured_per_gpu_work");
    w.Bool(row.measured_per_gpu_work);
    w.EndObject();
  }
  w.EndArray();
  key(w, "break_even");
  w.StartArray();
  for (const auto& point : report.predictions->break_evens) {
    w.StartObject();
    integer(w, "gpus", point.gpus);
    field(w, "outcome", to_string(point.point.kind));
    exact_field(w, "batch", point.point.batch);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void break_evens(Writer& w, const StudyReport& report) {
  key(w, "break_even");
  w.StartArray();
  for (const auto& row : report.break_evens) {
    w.StartObject();
    integer(w, "gpus", row.gpus);
    field(w, "outcome", to_string(row.point.kind));
    exact_field(w, "batch", row.point.batch);
    key(w, "extrapolated");
    w.Bool(row.extrapolated());
    key(w, "interval");
    if (row.interval.available) {
      w.StartObject();
      exact_field(w, "low", row.interval.low);
      exact_field(w, "high", row.interval.high);
      exact_field(w, "share_breaking_even", row.interval.share_breaking_even);
      integer(w, "resamples", static_cast<std::int64_t>(row.interval.resamples));
      w.EndObject();
    } else {
      w.Null();
    }
    w.EndObject();
  }
  w.EndArray();
}

void waterfalls(Writer& w, const StudyReport& report) {
  key(w, "waterfall");
  w.StartArray();
  for (const auto& row : report.waterfalls) {
    w.StartObject();
    field(w, "configuration", row.configuration);
    field(w, "base", row.base);
    exact_field(w, "base_step_ns", row.base_step_ns);
    exact_field(w, "step_ns", row.step_ns);
    key(w, "deltas");
    w.StartArray();
    for (const auto& [name, delta] : row.deltas_ns) {
      w.StartObject();
      field(w, "term", name);
      exact_field(w, "delta_ns", delta);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
}

void failures(Writer& w, const StudyReport& report) {
  key(w, "failures");
  w.StartArray();
  for (const auto& failure : report.failures) {
    w.StartObject();
    field(w, "configuration", failure.configuration);
    integer(w, "repeat", failure.repeat);
    field(w, "kind", to_string(failure.kind));
    field(w, "status", to_string(failure.status));
    optional_field(w, "exit_code", failure.exit_code);
    field(w, "error", failure.error);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

std::string render_study_json(const StudyReport& report) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.SetIndent(' ', 2);
  w.StartObject();
  field(w, "format", "gpuprof.study-report/1");
  field(w, "title", report.title);
  key(w, "synthetic");
  w.Bool(report.synthetic);
  field(w, "time_basis", report.time_basis);
  key(w, "configurations");
  w.StartArray();
  for (const auto& row : report.rows) configuration_row(w, row);
  w.EndArray();
  fits(w, report);
  break_evens(w, report);
  waterfalls(w, report);
  predictions(w, report);
  failures(w, report);
  key(w, "notices");
  w.StartArray();
  for (const auto& notice : report.notices) report::json::string(w, notice);
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace gpuprof::study
