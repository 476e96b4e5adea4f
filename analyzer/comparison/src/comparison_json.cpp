#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include "gpuprof/comparison/comparison_writers.hpp"
#include "gpuprof/report/json_fields.hpp"

namespace gpuprof::comparison {
namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

using report::json::field;
using report::json::optional_field;
using report::json::string;

void write_side(Writer& w, const char* name, const RunSide& side) {
  w.Key(name);
  w.StartObject();
  w.Key("inputs");
  w.StartArray();
  for (const auto& input : side.inputs) string(w, input);
  w.EndArray();
  field(w, "ranks", std::int64_t{side.ranks});
  field(w, "gpus", std::int64_t{side.gpus});
  field(w, "steps_averaged", side.samples);
  field(w, "step_ns", side.step_ns);
  optional_field(w, "batch", side.batch ? std::optional<double>(static_cast<double>(*side.batch)) : std::nullopt);
  field(w, "batch_source", side.batch_source);
  optional_field(w, "samples_per_second", side.samples_per_second);
  w.EndObject();
}

void write_waterfall(Writer& w, const RunComparison& comparison) {
  w.Key("waterfall");
  w.StartArray();
  for (const auto& term : comparison.waterfall) {
    w.StartObject();
    field(w, "term", term.name);
    field(w, "base_ns", term.base_ns);
    field(w, "other_ns", term.other_ns);
    field(w, "delta_ns", term.delta_ns);
    w.EndObject();
  }
  w.EndArray();
}

// A family carries its variants (kernels sharing its short name) under `variants`.
void write_kernel(Writer& w, const KernelChange& kernel) {
  w.StartObject();
  field(w, "name", kernel.name);
  field(w, "short_name", kernel.short_name);
  field(w, "category", kernel.category);
  field(w, "base_ns_per_step", kernel.base_ns_per_step);
  field(w, "other_ns_per_step", kernel.other_ns_per_step);
  field(w, "delta_ns_per_step", kernel.delta_ns_per_step);
  field(w, "base_instances_per_step", kernel.base_instances_per_step);
  field(w, "other_instances_per_step", kernel.other_instances_per_step);
  w.Key("variants");
  w.StartArray();
  for (const auto& variant : kernel.variants) write_kernel(w, variant);
  w.EndArray();
  w.EndObject();
}

void write_kernels(Writer& w, const RunComparison& comparison) {
  w.Key("kernels");
  w.StartArray();
  for (const auto& kernel : comparison.kernels) write_kernel(w, kernel);
  w.EndArray();
}

}  // namespace

std::string render_comparison_json(const RunComparison& comparison) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.SetIndent(' ', 1);
  w.StartObject();
  field(w, "format", std::string_view("gpuprof.compare/1"));
  w.Key("assumptions");
  w.StartArray();
  for (const auto& assumption : comparison.assumptions) string(w, assumption);
  w.EndArray();
  write_side(w, "base", comparison.base);
  write_side(w, "other", comparison.other);
  field(w, "delta_step_ns", comparison.delta_step_ns);
  field(w, "speedup", comparison.speedup);
  field(w, "speedup_basis", comparison.speedup_basis);
  optional_field(w, "scaling_efficiency", comparison.scaling_efficiency);
  write_waterfall(w, comparison);
  write_kernels(w, comparison);
  w.Key("notices");
  w.StartArray();
  for (const auto& notice : comparison.notices) string(w, notice);
  w.EndArray();
  w.Key("warnings");
  w.StartArray();
  for (const auto& warning : comparison.warnings) string(w, warning);
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace gpuprof::comparison
