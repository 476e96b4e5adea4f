#pragma once

#include <optional>
#include <string>

#include "gpuprof/importers/import_sink.hpp"
#include "kineto_comm_shapes.hpp"
#include "kineto_event.hpp"
#include "kineto_gradient_shapes.hpp"

namespace gpuprof::importers {

// Turns Kineto trace events into trace rows. Events it cannot use are counted
// into collector_stats: unknown categories and malformed events as warnings,
// categories known to carry nothing the schema holds (flows, metadata) as info.
class KinetoConverter final : public KinetoEventConsumer {
 public:
  // `base_ns` is added to every time as it is converted (see guess_kineto_base_time).
  explicit KinetoConverter(ImportSink& sink, std::int64_t base_ns = 0);

  void consume(const KinetoEvent& event) override;
  void malformed_element() override;
  // After the last event: what needs the whole file (collective sizes from nccl annotations, gradient bytes per step).
  void finish();

 private:
  struct Span {
    std::int64_t start_ns = 0, end_ns = 0;
  };
  std::optional<Span> span_of(const KinetoEvent& event);
  std::optional<std::int64_t> instant_time(const KinetoEvent& event);
  void add_memory(const KinetoEvent& event);
  void malformed(const KinetoEvent& event, const char* why);

  void add_kernel(const KinetoEvent& event, Span span);
  void add_memcpy(const KinetoEvent& event, Span span);
  void add_memset(const KinetoEvent& event, Span span);
  void add_api_call(const KinetoEvent& event, Span span, trace::ApiKind kind);
  void add_sync(const KinetoEvent& event, Span span);
  void add_range(const KinetoEvent& event, Span span, trace::StringId domain, bool on_gpu);

  ImportSink& sink_;
  std::int64_t base_ns_;
  trace::StringId cpu_op_domain_, user_annotation_domain_, gpu_annotation_domain_;
  // Interned at the first Python frame, so that traces without any keep their string table as it was.
  std::optional<trace::StringId> python_function_domain_;
  CommShapeLinker comm_shapes_;
  GradientShapes gradient_shapes_;
};

}  // namespace gpuprof::importers
