#include "gpuprof/progress/counted_loading.hpp"

#include "gpuprof/progress/stage_counter.hpp"

namespace gpuprof::progress {

trace::TraceModel load_counted(const std::string& path, trace::LoadOptions options, const ProgressCallback& progress,
                               std::string item) {
  if (!progress) return trace::load_trace_model(path, options);
  StageCounter loading(progress, "load", trace::rows_to_load(path, options), "rows");
  loading.set_item(std::move(item));
  loading.add(0);
  options.on_rows = [&loading](std::int64_t rows) { loading.add(rows); };
  return trace::load_trace_model(path, options);
}

}  // namespace gpuprof::progress
