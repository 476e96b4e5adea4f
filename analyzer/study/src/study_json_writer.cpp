// JSON, format gpuprof.study-report/1: numbers unformatted, in SI units (seconds), absent figures as null.

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <cmath>

#include "gpuprof/study/study_writers.hpp"

namespace gpuprof::study {
namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void key(Writer& w, const char* name) { w.Key(name); }
void string(Writer& w, const char* name, const std::string& value) {
  w.Key(name);
  w.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
}
void integer(Writer& w, const char* name, std::int64_t value) {
  w.Key(name);
  w.Int64(value);
}
// JSON has no infinity: an unbounded end is null.
void real(Writer& w, const char* name, double value) {
  w.Key(name);
  if (std::isfinite(value)) w.Double(value); else w.Null();
}
void optional_real(Writer& w, const char* name, const std::optional<double>& value) {
  if (value) real(w, name, *value); else { w.Key(name); w.Null(); }
}
void optional_integer(Writer& w, const char* name, const std::optional<std::int64_t>& value) {
  w.Key(name);
  if (value) w.Int64(*value); else w.Null();
}

void spread(Writer& w, const char* name, const std::optional<Spread>& value) {
  key(w, name);
  if (!value) {
    w.Null();
    return;
  }
  w.StartObject();
  real(w, "mean", value->mean);
  real(w, "sd", value->sd);
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
  string(w, "configuration", row.configuration.name());
  string(w, "model", row.model);
  integer(w, "batch", row.configuration.batch);
  integer(w, "gpus", row.configuration.gpus);
  string(w, "strategy", row.configuration.strategy);
  optional_integer(w, "epochs", row.epochs);
  optional_integer(w, "steps", row.steps);
  integer(w, "runs_ok", static_cast<std::int64_t>(row.runs_ok));
  integer(w, "runs_failed", static_cast<std::int64_t>(row.runs_failed));
  spread(w, "accuracy", row.accuracy);
  spread(w, "validation_accuracy", row.validation_accuracy);
  spread(w, "time_seconds", row.time_seconds);
  spread(w, "seconds_per_step", row.seconds_per_step);
  spread(w, "samples_per_second", row.samples_per_second);
  spread(w, "speedup", row.speedup);
  optional_real(w, "calibration_seconds", row.calibration_seconds);
  optional_real(w, "overhead", row.overhead);
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
    real(w, "intercept_seconds", fit.intercept);
    real(w, "slope_seconds_per_sample", fit.slope);
    real(w, "r_squared", fit.r_squared);
    w.EndObject();
  }
  w.EndArray();
}

void predictions(Writer& w, const StudyReport& report) {
  if (!report.predictions) return;
  key(w, "predictions");
  w.StartObject();
  string(w, "link", report.predictions->link);
  string(w, "strategy", report.predictions->strategy);
  key(w, "rows");
  w.StartArray();
  for (const auto& row : report.predictions->rows) {
    w.StartObject();
    integer(w, "batch", row.batch);
    integer(w, "gpus", row.gpus);
    real(w, "speedup", row.speedup);
    real(w, "low", row.low);
    real(w, "high", row.high);
    optional_real(w, "measured_speedup", row.measured_speedup);
    optional_real(w, "error", row.error());
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
    string(w, "outcome", to_string(point.point.kind));
    real(w, "batch", point.point.batch);
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
    string(w, "outcome", to_string(row.point.kind));
    real(w, "batch", row.point.batch);
    key(w, "extrapolated");
    w.Bool(row.extrapolated());
    key(w, "interval");
    if (row.interval.available) {
      w.StartObject();
      real(w, "low", row.interval.low);
      real(w, "high", row.interval.high);
      real(w, "share_breaking_even", row.interval.share_breaking_even);
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
    string(w, "configuration", row.configuration);
    string(w, "base", row.base);
    real(w, "base_step_ns", row.base_step_ns);
    real(w, "step_ns", row.step_ns);
    key(w, "deltas");
    w.StartArray();
    for (const auto& [name, delta] : row.deltas_ns) {
      w.StartObject();
      string(w, "term", name);
      real(w, "delta_ns", delta);
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
    string(w, "configuration", failure.configuration);
    integer(w, "repeat", failure.repeat);
    string(w, "kind", to_string(failure.kind));
    string(w, "status", to_string(failure.status));
    optional_integer(w, "exit_code", failure.exit_code);
    string(w, "error", failure.error);
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
  string(w, "format", "gpuprof.study-report/1");
  string(w, "title", report.title);
  key(w, "synthetic");
  w.Bool(report.synthetic);
  string(w, "time_basis", report.time_basis);
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
  for (const auto& notice : report.notices) w.String(notice.c_str());
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace gpuprof::study
