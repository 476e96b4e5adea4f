#include "gpuprof/report/advice.hpp"
#include "json_fields.hpp"

namespace gpuprof::report {

using json::field;
using json::key;
using json::string;

// What to try (advice.hpp), largest idle cause first; `rank` is null but for peer_wait with a straggler.
void write_summary_advice(JsonWriter& w, const ReportSummary& summary) {
  key(w, "advice");
  w.StartArray();
  for (const auto& advice : advise(summary)) {
    w.StartObject();
    field(w, "cause", idle::to_string(advice.cause));
    field(w, "idle_ns", advice.idle_ns);
    field(w, "per_step_ns", advice.per_step_ns);
    field(w, "share", advice.share);
    key(w, "rank");
    if (advice.rank) w.Int(*advice.rank); else w.Null();
    key(w, "rank_cause");
    if (advice.rank) string(w, idle::to_string(advice.rank_cause)); else w.Null();
    field(w, "text", advice.text);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace gpuprof::report
