#include "trace_sections.hpp"

namespace gpuprof::exporters {
namespace {

// A counter holds its value until the next sample, so each gap is a rise to its
// length at the start and a fall to zero at the end.
void write_sample(Track process, std::int64_t at_ns, std::int64_t idle_ns, EventWriter& writer) {
  writer.begin_event("C", "gpuprof_gaps", "batch gap", process, at_ns);
  writer.key("args");
  writer.json().StartObject();
  writer.key("idle_us");
  writer.duration(idle_ns);
  writer.json().EndObject();
  writer.end_event();
}

}  // namespace

void write_gap_counters(const std::vector<trace::GapRow>& gaps, const ChromeTraceLayout& layout,
                        EventWriter& writer) {
  for (const auto& gap : gaps) {
    const Track process = layout.device_process(gap.device);
    write_sample(process, gap.start_ns, gap.end_ns - gap.start_ns, writer);
    write_sample(process, gap.end_ns, 0, writer);
  }
}

}  // namespace gpuprof::exporters
